#!/usr/bin/env bash
# Builds kda2's libFuzzer targets (test/Fuzz) with Clang 22 and
# -fsanitize=fuzzer,address,undefined into ${KDA2_FUZZ_BUILD_DIR:-build-fuzz},
# then runs each for N seconds (default 60), one after the other, starting
# from the committed seeds in test/Fuzz/corpus/<target>/.
#
#   scripts/fuzz.sh [seconds-per-target] [target...]   # targets: tirx mlir profile metadata rules
#
# New inputs go to <build>/fuzz/<target>/corpus (kept between runs), crash
# reproducers to <build>/fuzz/<target>/artifacts/, logs to
# <build>/fuzz/<target>.log. Fails if any target crashes, leaks, times out
# (KDA2_FUZZ_TIMEOUT seconds per input, default 30) or fails a check.
# Reproduce one: <build>/bin/kda2-fuzz-<target> <artifact>.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KDA2_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(tirx mlir profile metadata rules)

"$root/scripts/setup-fuzz.sh"
if [ ! -f "$build/build.ninja" ]; then
  # -O2 without NDEBUG: assertions stay on in kda2's code (and in the
  # LLVM/MLIR header code it instantiates, e.g. cast<>).
  CC=${KDA2_FUZZ_CC:-clang-22} CXX=${KDA2_FUZZ_CXX:-clang++-22} \
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g" \
    -DKDA2_ENABLE_FUZZING=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
cmake --build "$build" --target kda2-fuzzers -- -j"${KDA2_JOBS:-$(nproc)}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for t in "${targets[@]}"; do
  bin=$build/bin/kda2-fuzz-$t
  seeds=$root/test/Fuzz/corpus/$t
  [ -x "$bin" ] && [ -d "$seeds" ] || { echo "fuzz: unknown target '$t'" >&2; exit 2; }
  work=$build/fuzz/$t
  mkdir -p "$work/corpus" "$work/artifacts"
  dict=()
  [ -f "$root/test/Fuzz/$t.dict" ] && dict=(-dict="$root/test/Fuzz/$t.dict")
  echo "== fuzz $t for ${seconds}s"
  if "$bin" "$work/corpus" "$seeds" "${dict[@]}" \
      -max_total_time="$seconds" -timeout="${KDA2_FUZZ_TIMEOUT:-30}" \
      -rss_limit_mb=4096 -max_len=8192 -print_final_stats=1 \
      -artifact_prefix="$work/artifacts/" > "$work.log" 2>&1; then
    grep -E '^(#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss_mb)' "$work.log" | tail -n 3
    echo "   $(ls "$work/corpus" | wc -l) inputs in $work/corpus"
  else
    echo "fuzz: target $t FAILED; log $work.log; reproducers:" >&2
    tail -n 60 "$work.log" >&2
    ls "$work/artifacts" >&2
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failing targets: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${targets[*]}: no crash in ${seconds}s each"
