#!/usr/bin/env bash
# The H200 half of the simulator's fidelity study (docs/Simulator.md,
# bench/fidelity.py predicts the same cases here): times every candidate
# kernel alone, prefill prep and scan kernels of six schedules at three
# shapes and seven decode schedules at two batch sizes, then profiles the
# prefill scan with Nsight Compute when it is there.
#   bench/fidelity_measure.sh <kernels dir>     (results under $OUT; KDA2_NCU=0
#                                               skips the Nsight Compute part)
set -uo pipefail
kernels=${1:-build/kernels}
out=${OUT:-.}
export LD_LIBRARY_PATH=$PWD/$kernels:${LD_LIBRARY_PATH:-}
# Correctness of every prefill schedule first (small shapes, with the reference).
python3 bench/kda_prefill.py --kernels "$kernels" \
  --variants split,split_vb16,split32,split32_vb16,split32_vb8,split32_vfirst \
  --shapes 1+37+100x2,2x1024x8 2>&1 | grep -v '^{' | tail -16
# Per-kernel times (no reference: timing only).
python3 bench/kda_prefill.py --kernels "$kernels" --per-kernel --no-reference \
  --variants split,split_vb16,split32,split32_vb16,split32_vb8,split32_vfirst \
  --shapes 2x1024x8,1x4096x8,8x4096x16 2>&1 | grep -v '^{' | tail -22
cp "$out/kda_prefill.json" "$out/fidelity_prefill.json" 2>/dev/null
python3 bench/kda_decode.py --kernels "$kernels" --only sweep 2>&1 | grep '^| decode' | head -20
cp "$out/kda_decode.json" "$out/fidelity_decode.json" 2>/dev/null
if [ "${KDA2_NCU:-1}" != 0 ] && command -v ncu > /dev/null; then
  for k in kda_chunk_scan kda_chunk_prep; do
    ncu --clock-control none --kernel-name "$k" --launch-count 1 --set full \
      -o "$out/ncu_$k" python3 bench/kda_prefill.py --kernels "$kernels" --no-reference \
      --variants split32_vb16 --shapes 1x4096x8 > "$out/ncu_$k.log" 2>&1
    ncu --import "$out/ncu_$k.ncu-rep" --page details > "$out/ncu_$k.txt" 2>&1
    ncu --import "$out/ncu_$k.ncu-rep" --page source --csv --print-source sass \
      > "$out/ncu_${k}_sass.csv" 2>&1
    grep -E "Duration|Warp Cycles Per Issued|Issued Warp|Bank Conflicts|Stall|Registers Per|Achieved Occupancy|Theoretical Occupancy|L1/TEX Hit|Shared Memory Configuration Size|Dynamic Shared" "$out/ncu_$k.txt" | head -40
  done
else
  echo "ncu: not found"
fi
