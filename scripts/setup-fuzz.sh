#!/usr/bin/env bash
# Installs, when missing, what scripts/fuzz.sh needs on top of setup.sh:
# Clang 22 (same LLVM version as the libraries kda2 links) and its
# compiler-rt (libFuzzer, ASan, UBSan runtimes). Idempotent.
set -euo pipefail
"$(dirname "$0")/setup.sh" clang-22 libclang-rt-22-dev
command -v clang++-22 > /dev/null || { echo "kda2 setup-fuzz: clang++-22 missing" >&2; exit 1; }
