#!/usr/bin/env bash
# Installs what kda2 needs to build and test on Debian 12, when missing:
# LLVM/MLIR 22 (static MLIR libraries + libLLVM.so, mlir-tblgen, lit,
# FileCheck), CMake, Ninja, a C++17 compiler, GoogleTest and Google Benchmark
# (the host-overhead benchmark of the runtime), plus any extra
# Debian packages named on the command line. Idempotent.
#   scripts/setup.sh [extra-package...]
set -euo pipefail

packages=(llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
          cmake ninja-build g++ libgtest-dev libbenchmark-dev python3 "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "kda2 setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q "${missing[@]}"
fi
test -x /usr/lib/llvm-22/bin/mlir-tblgen || { echo "kda2 setup: mlir-tblgen missing" >&2; exit 1; }
