#!/usr/bin/env bash
# Installs, when missing, what scripts/fuzz.sh needs on top of setup.sh:
# Clang 22 (same LLVM version as the libraries kda2 links) and its
# compiler-rt (libFuzzer, ASan, UBSan runtimes). Idempotent.
set -euo pipefail
"$(dirname "$0")/setup.sh"
packages=(clang-22 libclang-rt-22-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "kda2 setup-fuzz: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q "${missing[@]}"
fi
command -v clang++-22 > /dev/null || { echo "kda2 setup-fuzz: clang++-22 missing" >&2; exit 1; }
