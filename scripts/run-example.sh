#!/usr/bin/env bash
# The main job on the bundled examples: sets up and builds kda2, imports the
# seed's delta_softmax kernel and the KDA decode template from .tirx,
# verifies them against the H200-SXM hardware profile, prints the kda2 IR of
# delta_softmax, and compiles both to PTX and cubin for sm_90a and sm_80
# (cubins need ptxas from the CUDA toolkit; without it only PTX is written).
# Outputs go to ${KDA2_OUT:-<build>/example}.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KDA2_BUILD_DIR:-$root/build}
out=${KDA2_OUT:-$build/example}
"$root/scripts/build.sh" kda2-opt kda2-translate
mkdir -p "$out"
translate=$build/bin/kda2-translate

example="$root/docs/examples/delta_softmax_base.tirx"
echo "== kda2-translate --import-tirx $example (profile H200-SXM)"
"$translate" --import-tirx --tirx-profile=H200-SXM "$example" | tee "$out/delta_softmax.mlir"
# Re-parse and re-verify the printed IR, as a compiler embedding it would.
"$build/bin/kda2-opt" --verify-roundtrip "$out/delta_softmax.mlir" > /dev/null

have_ptxas=0
if command -v ptxas > /dev/null || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ]; then
  have_ptxas=1
fi
# compile <tirx> <name> <bindings>
compile() {
  "$translate" --import-tirx --tirx-bind="$3" "$1" -o "$out/$2.mlir"
  for chip in sm_90a sm_80; do
    "$translate" --kda2-to-ptx --kda2-chip=$chip "$out/$2.mlir" -o "$out/$2.$chip.ptx"
    if [ $have_ptxas = 1 ]; then
      "$translate" --kda2-to-cubin --kda2-chip=$chip "$out/$2.mlir" -o "$out/$2.$chip.cubin"
    fi
  done
}
compile "$example" delta_softmax_d64 dim=64
compile "$root/templates/kda_decode_vsplit.tirx" kda_decode_k128 IN=bf16,K=128,V=128,VB=32,NVB=4,LANES=4
echo "== wrote to $out:"
ls -1 "$out"
[ $have_ptxas = 1 ] || echo "(ptxas not found: cubins skipped; install the CUDA toolkit)"
