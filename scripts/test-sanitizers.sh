#!/usr/bin/env bash
# Builds kda2 with AddressSanitizer + UndefinedBehaviorSanitizer (the default
# GCC, Debug: -O0 with assertions) into ${KDA2_SAN_BUILD_DIR:-build-asan} and
# runs the whole test suite (lit + GoogleTest + install consumer) via ctest,
# with leak detection on. The prebuilt LLVM/MLIR libraries are not
# instrumented; kda2's code and everything it instantiates from their
# headers is.
#
# Flags, and why:
#   -fsanitize=address,undefined -fno-sanitize-recover=undefined
#       every UBSan report aborts, so a test that triggers one fails;
#   -fno-sanitize=vptr
#       LLVM/MLIR are built without RTTI: the vptr check needs typeinfo of
#       their classes, which does not exist (link errors), and kda2's MLIR
#       code is itself built with -fno-rtti;
#   -fno-omit-frame-pointer   readable stacks.
# Run-time options (ASAN_OPTIONS):
#   detect_leaks=1            LeakSanitizer works here (no ptrace restriction);
#   allow_user_poisoning=0    LLVM's BumpPtrAllocator (inline in
#       llvm/Support/Allocator.h) poisons its slabs when compiled with ASan and
#       unpoisons what it hands out, but the uninstrumented copies inside the
#       prebuilt libraries do neither; the linker mixes both, so allocator
#       memory reads as use-after-poison, a false positive. Real heap errors
#       (overflow, use-after-free, leaks) are still reported.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KDA2_SAN_BUILD_DIR:-$root/build-asan}
"$root/scripts/setup.sh"

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-sanitize=vptr -fno-omit-frame-pointer"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allow_user_poisoning=0:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS="$san" -DCMAKE_C_FLAGS="$san" \
    -DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_SHARED_LINKER_FLAGS="$san" \
    -DCMAKE_MODULE_LINKER_FLAGS="$san" \
    -DCMAKE_INSTALL_PREFIX="$build/install" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
# (The build runs the GoogleTest binaries to list their tests, under ASan.)
cmake --build "$build" -- -j"${KDA2_JOBS:-$(nproc)}"
cd "$build"
# LeakSanitizer's stop-the-world tracer itself sometimes crashes at process exit
# ("Tracer caught signal 11 ... LeakSanitizer has encountered a fatal error"):
# an upstream fault (google/sanitizers#1353), not a leak report. One cause
# was found and removed: thread_local variables in a dlopen'd library (the
# fake CUDA driver); the tracer crashed scanning their dynamic TLS. Should it
# show up again, the failed tests run once more and must pass then; a real
# failure fails again.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! ctest --output-on-failure -j"${KDA2_JOBS:-$(nproc)}" 2>&1 | tee "$log"; then
  grep -q "LeakSanitizer has encountered a fatal error" "$log" || exit 1
  echo "== LeakSanitizer's tracer crashed (see above); running the failed tests once more"
  ctest --output-on-failure --rerun-failed
fi
