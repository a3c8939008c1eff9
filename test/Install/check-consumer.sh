#!/usr/bin/env bash
# Installs the kda2 build tree into a scratch prefix, builds the out-of-tree
# consumer against it with find_package(KDA2), and runs it on the bundled
# example. Usage: check-consumer.sh <kda2-build-dir> <kda2-source-dir>
# [<cmake arg>...]; the extra arguments configure the consumer (the test
# passes kda2's compiler and flags, e.g. the sanitizer flags of
# scripts/test-sanitizers.sh, which the installed static libraries need).
set -euo pipefail
build=$1
src=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > /dev/null
cmake -G Ninja -S "$src/python-free/embed" -B "$work/consumer" \
  -DCMAKE_BUILD_TYPE=Release \
  -DKDA2_DIR="$work/prefix/lib/cmake/kda2" \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir "$@" > /dev/null
cmake --build "$work/consumer" > /dev/null
out=$("$work/consumer/kda2-consumer" "$src/docs/examples/delta_softmax_base.tirx" A100-40GB-SXM4)
echo "$out" | grep -q 'kda2.target = "A100-40GB-SXM4"'
echo "$out" | grep -q 'kda2.kernel @delta_softmax'
# A profile the registry does not know must fail.
if "$work/consumer/kda2-consumer" "$src/docs/examples/delta_softmax_base.tirx" B200 2> "$work/err"; then
  echo "expected failure for an unknown profile" >&2; exit 1
fi
grep -q "unknown hardware profile 'B200'" "$work/err"
echo "consumer OK"
