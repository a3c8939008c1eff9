#!/usr/bin/env bash
# The main job on the bundled example: sets up and builds kda2, imports the
# seed's delta_softmax kernel from .tirx, verifies it against the H200-SXM
# hardware profile and prints the kda2 IR (also written to
# ${KDA2_OUT:-build/example}/delta_softmax.mlir).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KDA2_BUILD_DIR:-$root/build}
out=${KDA2_OUT:-$build/example}
"$root/scripts/build.sh" kda2-opt kda2-translate
mkdir -p "$out"
example="$root/docs/examples/delta_softmax_base.tirx"
echo "== kda2-translate --import-tirx $example (profile H200-SXM)"
"$build/bin/kda2-translate" --import-tirx --tirx-profile=H200-SXM "$example" \
  -o "$out/delta_softmax.mlir"
# Re-parse and re-verify the printed IR, as a compiler embedding it would.
"$build/bin/kda2-opt" --verify-roundtrip "$out/delta_softmax.mlir"
echo "== wrote $out/delta_softmax.mlir"
