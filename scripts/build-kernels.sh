#!/usr/bin/env bash
# Compiles the bundled .tirx templates to PTX and cubins for sm_90a and
# sm_80 with kda2-translate, into ${KDA2_KERNELS:-<build>/kernels}, next to a
# copy of libkda2rt.so, the decode bundle libkda_decode.so and the GPU tools
# (kda2-perf, kda2-calibrate, kda2-bundle-decode, kda2-serve-mixed):
# everything a GPU machine needs to run the benchmarks and
# bench/device_tools.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KDA2_BUILD_DIR:-$root/build}
out=${KDA2_KERNELS:-$build/kernels}
"$root/scripts/build.sh" kda2-translate kda2rt
mkdir -p "$out"
translate=$build/bin/kda2-translate

# compile_for <template> <name> <bindings> <chips>: PTX + cubin for each of
# the chips, plus a fast-math sm_90a cubin (<name>_fast).
compile_for() {
  local tirx=$1 name=$2 bind=$3 chips=$4
  "$translate" --import-tirx --tirx-bind="$bind" "$root/templates/$tirx" \
    -o "$out/$name.mlir"
  for chip in $chips; do
    "$translate" --kda2-to-ptx --kda2-chip=$chip "$out/$name.mlir" \
      -o "$out/$name.$chip.ptx" 2> "$out/$name.$chip.log" || { cat "$out/$name.$chip.log"; exit 1; }
    "$translate" --kda2-to-cubin --kda2-chip=$chip "$out/$name.mlir" \
      -o "$out/$name.$chip.cubin" 2>> "$out/$name.$chip.log" || { cat "$out/$name.$chip.log"; exit 1; }
  done
  "$translate" --kda2-to-cubin --kda2-fast-math "$out/$name.mlir" \
    -o "$out/${name}_fast.sm_90a.cubin"
  echo "built $name"
}

# compile <template> <name> <bindings>: for sm_90a and sm_80.
compile() { compile_for "$1" "$2" "$3" "sm_90a sm_80"; }

for d in 64 128 256; do
  compile kda_decode.tirx kda_decode_k$d "IN=bf16,K=$d,V=$d"
done
compile kda_decode_vfirst.tirx kda_decode_vfirst_k128 "IN=bf16,K=128,V=128"
for d in 64 128 256; do
  for vb in 32 64; do
    for lanes in 2 4 8; do
      compile kda_decode_vsplit.tirx kda_decode_vsplit_k${d}_vb${vb}_l$lanes \
        "IN=bf16,K=$d,V=$d,VB=$vb,NVB=$((d / vb)),LANES=$lanes"
    done
  done
done
compile kda_decode_gate.tirx kda_decode_gate_k128 "IN=bf16,K=128,V=128,VB=32,NVB=4,LANES=4"
compile kda_decode_gate_softplus.tirx kda_decode_gate_softplus_k128 \
  "IN=bf16,K=128,V=128,VB=32,NVB=4,LANES=4"
compile kda_decode_varlen.tirx kda_decode_varlen_k128 "IN=bf16,K=128,V=128,VB=32,NVB=4,LANES=4"
compile kda_decode_fused.tirx kda_decode_fused_k128 "IN=bf16,K=128,V=128,VB=32,NVB=4"
# Serving: the indexed in-place state pool (decode, speculative decode),
# fp32 and bf16 states, K- and V-major, K != V.
# Two lanes per value column (LANES=2): 12 % faster than 4 at 256 x 32
# (bench/RESULTS.md, stop 15).
for st in f32 bf16; do
  for ss in kv vk; do
    compile kda_decode_pool.tirx kda_decode_pool_k128_${st}_$ss \
      "IN=bf16,ST=$st,SS=$ss,IX=i32,K=128,V=128,VB=32,NVB=4,LANES=2"
    compile kda_decode_spec.tirx kda_decode_spec_k128_${st}_$ss \
      "IN=bf16,ST=$st,SS=$ss,IX=i32,K=128,V=128,VB=32,NVB=4,LANES=4"
  done
done
# The serving decode with the activations in the kernel: gate family GF
# (0 precomputed, 1 bounded sigmoid, 2 softplus), beta sigmoid, q/k L2 norm.
for gf in 0 1 2; do
  fl=$([ $gf = 0 ] && echo 0 || echo 1)
  compile kda_decode_serve.tirx kda_decode_serve_k128_gf$gf \
    "IN=bf16,ST=f32,SS=kv,IX=i32,GF=$gf,AL=1,DB=1,BS=$fl,QKN=$fl,K=128,V=128,VB=32,NVB=4,LANES=4"
done
# The whole decode of a layer in one launch: conv1d + SiLU of the packed
# projection, gate family GF (1 bounded, 2 softplus), gated RMSNorm.
for gf in 1 2; do
  compile kda_decode_conv.tirx kda_decode_conv_k128_gf$gf \
    "IN=bf16,ST=f32,SS=kv,IX=i32,GF=$gf,AL=1,DB=1,K=128,V=128,W=4,W1=3,LANES=4"
done
# The pool decode's value-block / lane splits (bench/kda_serving.py times them).
for cfg in 32:4 64:2 64:4 128:2 128:4 16:8; do
  IFS=: read -r vb l <<< "$cfg"
  compile kda_decode_pool.tirx kda_decode_pool_k128_f32_kv_vb${vb}_l$l \
    "IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,VB=$vb,NVB=$((128 / vb)),LANES=$l"
done
compile kda_decode_pool.tirx kda_decode_pool_k128v64_f32_kv "IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=64,VB=32,NVB=2,LANES=4"
compile kda_decode_pool.tirx kda_decode_pool_k128v64_f32_vk "IN=bf16,ST=f32,SS=vk,IX=i32,K=128,V=64,VB=32,NVB=2,LANES=4"
compile kda_decode_spec.tirx kda_decode_spec_k128v64_f32_kv "IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=64,VB=32,NVB=2,LANES=4"
# fp16 inputs (q, k, v, o): the same templates with IN=f16.
for d in 64 128 256; do
  compile kda_decode_vsplit.tirx kda_decode_vsplit_k${d}_vb32_l4_f16 \
    "IN=f16,K=$d,V=$d,VB=32,NVB=$((d / 32)),LANES=4"
done
compile kda_decode_vsplit.tirx kda_decode_vsplit_k128_vb32_l8_f16 \
  "IN=f16,K=128,V=128,VB=32,NVB=4,LANES=8"
compile delta_softmax.tirx delta_softmax_d64 "dim=64"
# Prefill (chunked forward on tensor cores), C = 16, 4 blocks of 32 columns.
compile kda_chunk_fwd.tirx kda_chunk_fwd_k128 "IN=bf16,SL=row_major,GB=5,K=128,V=128,C=16,VB=32,NVB=4"
compile kda_chunk_split.tirx kda_chunk_split_k128 "IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=16,VB=32,NVB=4"
compile kda_chunk_split.tirx kda_chunk_split_c32_k128 "IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=32,NVB=4"
# 16 value columns per scan CTA (twice the CTAs); V-first state; K = V = 64.
# BPS=4: four prep CTAs per SM also in the fast-math cubin (_fast: 128
# registers instead of 168; 9-12 % faster than the accurate prep, the same
# errors, bench/RESULTS.md stop 23). TQ=1: the chunk's q, k, g rows copied
# whole before the per-column work (the prep 6-10 % faster, the same errors;
# the runtime's contract passes with it: bench/RESULTS.md stop 30).
compile kda_chunk_split.tirx kda_chunk_split_c32_vb16_k128 "IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,BPS=4,TQ=1"
compile kda_chunk_split.tirx kda_chunk_split_c32_vb8_k128 "IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=8,NVB=16"
compile kda_chunk_split.tirx kda_chunk_split_vb16_k128 "IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=16,VB=16,NVB=8"
# The output off the chain (kda_chunk_h.tirx, after the same bindings' prep).
for cfg in "c32:32:32:4" "c32_vb16:32:16:8" "vb16:16:16:8"; do
  IFS=: read -r tag c vb nvb <<< "$cfg"
  compile kda_chunk_h.tirx kda_chunk_h_${tag}_k128 "IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=$c,VB=$vb,NVB=$nvb"
done
# Chunks of 64 merged from the c32_vb16 prep's pairs (kda_chunk_merge.tirx),
# and the scans over them (bench/kda_prefill.py's ok64m_vb16_fast4).
compile kda_chunk_merge.tirx kda_chunk_merge_c32_vb16_k128 "IN=bf16,IX=i32,K=128,V=128,C=32,VB=16,NVB=8"
compile kda_chunk_h.tirx kda_chunk_h_c64_vb16_k128 "IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=64,VB=16,NVB=8"
compile kda_chunk_split.tirx kda_chunk_split_c32_vfirst_k128 "IN=bf16,SL=VK,IX=i32,GB=5,K=128,V=128,C=32,VB=32,NVB=4"
compile kda_chunk_split.tirx kda_chunk_split_c32_k64 "IN=bf16,SL=row_major,IX=i32,GB=5,K=64,V=64,C=32,VB=32,NVB=2"
compile kda_chunk_split.tirx kda_chunk_split_c32_vb16_k64 "IN=bf16,SL=row_major,IX=i32,GB=5,K=64,V=64,C=32,VB=16,NVB=4"
compile kda_chunk_h.tirx kda_chunk_h_c32_vb16_k64 "IN=bf16,ST=f32,SS=kv,IX=i32,K=64,V=64,C=32,VB=16,NVB=4"
# K = V = 256: the prep (256 threads) at one block per SM (BPS=1: 190
# registers, 145 with fast math; at two, BPS=2, it spills 8 bytes without
# fast math), the split-key scan kda_chunk_scan_ok at one (OKB=1: 238
# registers, four computing warps: OW=4, as two spill); the one-warp scans
# spill at K = 256 (Sᵀ alone is 128 registers per thread). sm_90a only: kda_chunk_out holds the chunk's whole state (V x K
# in the input type, 128 KB at K = V = 256) and needs 194 KB of shared memory,
# more than an sm_80 block may hold (163 KB).
compile kda_chunk_split.tirx kda_chunk_split_c32_vb16_k256 "IN=bf16,SL=row_major,IX=i32,GB=5,K=256,V=256,C=32,VB=16,NVB=16,BPS=1"
compile_for kda_chunk_h.tirx kda_chunk_h_c32_vb16_k256 "IN=bf16,ST=f32,SS=kv,IX=i32,K=256,V=256,C=32,VB=16,NVB=16,OKB=1,HKB=1,OW=4" sm_90a
# Serving prefill with K != V (prefill then decode through one pool).
compile kda_chunk_split.tirx kda_chunk_split_c32_vb16_k128v64 "IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=64,C=32,VB=16,NVB=4"
compile kda_chunk_h.tirx kda_chunk_h_c32_vb16_k128v64 "IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=64,C=32,VB=16,NVB=4"
# Serving prefill: a bf16, V-major state pool and checkpoints. HKB=2: at
# ptxas's own choice (128 registers) the split-key state scan spills 8 bytes
# with the bf16 pool's conversions; promised two blocks per SM it takes 166
# and none (test/Frontend/TIRx/resource-report.tirx).
compile kda_chunk_h.tirx kda_chunk_h_c32_vb16_k128_bf16_vk "IN=bf16,ST=bf16,SS=vk,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,HKB=2"
# TF32 intermediates (TP=f32: tp, pb and us in f32, their products in TF32;
# AP=f32: the prep's intra-chunk products too): bench/kda_prefill.py's
# *_tf32 and *_tp32 variants.
compile kda_chunk_split.tirx kda_chunk_split_c32_vb16_k128_tf32 "IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f32,AP=f32"
compile kda_chunk_split.tirx kda_chunk_split_c32_vb16_k128_tp32 "IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f32"
compile kda_chunk_h.tirx kda_chunk_h_c32_vb16_k128_tf32 "IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f32"
# pb alone in f32 (PB=f32) and the prep's Ki, Qm (AP=f32, AK=bf16): o within
# 2.4e-3 at four prep CTAs per SM (bench/kda_prefill.py's *_pb32; docs/Prefill.md).
compile kda_chunk_split.tirx kda_chunk_split_c32_vb16_k128_pb32 "IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,PB=f32,AP=f32,AK=bf16,BPS=4"
compile kda_chunk_h.tirx kda_chunk_h_c32_vb16_k128_pb32 "IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,PB=f32"
# f16 intermediates with bf16 inputs (TP=f16: tp, pb, us; KL=f16: kl; TW=bf16:
# the prep's wn product keeps bf16): 10-bit mantissas at the bf16 kernels'
# bytes and product rate (bench/kda_prefill.py's *_h16; docs/Prefill.md).
compile kda_chunk_split.tirx kda_chunk_split_c32_vb16_k128_h16 "IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4,TQ=1"
compile kda_chunk_h.tirx kda_chunk_h_c32_vb16_k128_h16 "IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16"
# The split-key scan of these modules runs on two computing warps (OW=2, the
# template's default since stop 33: each half the keys, one other warp's
# partials to add; 9-12 % faster than four at every small shape,
# bench/RESULTS.md stop 32) with two TMA stages (two blocks per SM); _s4_h16
# with four (OS=4: one block per SM, for launches whose chains, n · h · V /
# 16, fit one per SM).
compile_for kda_chunk_h.tirx kda_chunk_h_c32_vb16_k128_s4_h16 \
  "IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OS=4" sm_90a
compile kda_chunk_prep_act.tirx kda_chunk_prep_act_c32_vb16_k128_gf2_h16 \
  "IN=bf16,IX=i32,GF=2,AL=1,DB=1,BS=1,QKN=1,K=128,V=128,C=32,HC=16,VB=16,NVB=8,TP=f16,KL=f16"
# The prefill prep for any gate with the activations in the kernel
# (kda_chunk_prep_act.tirx): GF 0 (g given, no bound needed), 1 (bounded
# sigmoid), 2 (softplus, Kimi-Linear); beta logits and q/k L2 norm in the
# kernel with GF 1 and 2. Runs before kda_chunk_h_c32_vb16_k128.
for gf in 0 1 2; do
  fl=$([ $gf = 0 ] && echo 0 || echo 1)
  compile kda_chunk_prep_act.tirx kda_chunk_prep_act_c32_vb16_k128_gf$gf \
    "IN=bf16,IX=i32,GF=$gf,AL=1,DB=1,BS=$fl,QKN=$fl,K=128,V=128,C=32,HC=16,VB=16,NVB=8"
done
# A_log and dt_bias optional (AL=0, DB=0: the bounded gate
# lower_bound·sigmoid(a), flash-linear-attention's A_log=None).
compile kda_chunk_prep_act.tirx kda_chunk_prep_act_c32_vb16_k128_gf1_noal \
  "IN=bf16,IX=i32,GF=1,AL=0,DB=0,BS=1,QKN=1,K=128,V=128,C=32,HC=16,VB=16,NVB=8"
compile kda_decode_conv.tirx kda_decode_conv_k128_gf1_noal \
  "IN=bf16,ST=f32,SS=kv,IX=i32,GF=1,AL=0,DB=0,K=128,V=128,W=4,W1=3,LANES=4"
# int64 index tensors (IX=i64: cu_seqlens, state_indices, num_accepted,
# checkpoint_blocks as flash-linear-attention's LongTensor): the _i64 copies
# of the serving decode and prefill kernels.
compile kda_decode_pool.tirx kda_decode_pool_k128_f32_kv_i64 "IN=bf16,ST=f32,SS=kv,IX=i64,K=128,V=128,VB=32,NVB=4,LANES=2"
compile kda_decode_spec.tirx kda_decode_spec_k128_f32_kv_i64 "IN=bf16,ST=f32,SS=kv,IX=i64,K=128,V=128,VB=32,NVB=4,LANES=4"
compile kda_chunk_split.tirx kda_chunk_split_c32_vb16_k128_i64 "IN=bf16,SL=row_major,IX=i64,GB=5,K=128,V=128,C=32,VB=16,NVB=8"
compile kda_chunk_h.tirx kda_chunk_h_c32_vb16_k128_i64 "IN=bf16,ST=f32,SS=kv,IX=i64,K=128,V=128,C=32,VB=16,NVB=8"
# Kernels of lit tests that bench/sanitize_kernels.py runs on the GPU: the
# padded-pitch fallback of @coalesced_access, tensor-core matmuls, block and
# TMA tile copies, vnni4 packing, dynamic shared memory.
for t in coalesced-padding tensor-core-matmul tile-copy tma-coalesce vnni4 dynamic-shared; do
  "$translate" --kda2-to-cubin "$root/test/Conversion/KDA2ToGPU/$t.mlir" \
    -o "$out/${t//-/_}.sm_90a.cubin"
done
cp "$build"/lib/libkda2rt.so* "$out/"

# The decode bundle and the GPU tools, next to libkda2rt (their run path
# includes $ORIGIN), for bench/device_tools.sh: carrying this folder is enough.
"$root/scripts/build.sh" kda2-link kda2-perf kda2-calibrate kda2-bundle-decode \
  kda2-serve-mixed
printf '%s\n' 'kda2-bundle-v1' 'name kda_decode' 'dim kda_decode t' \
  'kernel kda_decode sm_90a 1 kda_decode_vsplit_k128_vb32_l4.sm_90a.cubin kda_decode_vsplit' \
  'kernel kda_decode sm_90a generic kda_decode_vsplit_k128_vb32_l8.sm_90a.cubin kda_decode_vsplit' \
  'kernel kda_decode sm_80 generic kda_decode_k128.sm_80.cubin kda_decode' 'end' \
  > "$out/kda_decode.manifest"
"$build/bin/kda2-link" -o "$out/libkda_decode.so" \
  --manifest "$out/kda_decode.manifest" '--rpath=$ORIGIN'
cp "$build"/bin/kda2-perf "$build"/bin/kda2-calibrate "$build"/bin/kda2-bundle-decode \
  "$build"/bin/kda2-serve-mixed "$out/"
