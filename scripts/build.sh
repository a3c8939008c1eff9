#!/usr/bin/env bash
# Configures and builds kda2 with Ninja into ${KDA2_BUILD_DIR:-build}.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KDA2_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=${KDA2_BUILD_TYPE:-Release} \
    -DCMAKE_INSTALL_PREFIX="$build/install" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    ${KDA2_CMAKE_ARGS:-}
fi
cmake --build "$build" -- -j"${KDA2_JOBS:-$(nproc)}" "$@"
