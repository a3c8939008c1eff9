#!/usr/bin/env bash
# Sets up, builds and runs every kda2 test: the lit suite and the GoogleTest
# binaries (through ctest), and the out-of-tree consumer built against the
# installed tree.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KDA2_BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j"${KDA2_JOBS:-$(nproc)}"
