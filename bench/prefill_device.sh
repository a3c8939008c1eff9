#!/usr/bin/env bash
# The prefill measurements of one device call (bench/RESULTS.md), in two
# halves:
#
#   bench/prefill_device.sh build     # here: the cubins the runs need and
#                                     # libkda2rt into ${KDA2_KC:-build/kc}
#   bench/prefill_device.sh run       # on the GPU machine, from the repo root
#
# `run` needs the folder `build` fills and flash-linear-attention's wheel
# unpacked at ${FLA:-third_party_downloads/fla} (carry both). It prints the
# side-by-side tables of bench/kda_prefill.py: every scan variant at the
# issue's small shapes and a varlen batch against the float64 reference,
# then the large shapes (no reference: the float64 recurrence takes
# minutes), then K = V = 64, and the split-key scans under compute-sanitizer
# (racecheck: their shared-memory partial sums and barriers; memcheck; a
# small varlen batch, no FLA); `wgmma` checks the wgmma lowering and the
# bounded windows, the scans reading v in place against float64, and times
# the scans without FLA; `contract` runs the runtime's prefill on the
# serving contract (bench/kda_contract.py: strides, workspace, offsets); `small_wg` / `large_wg` put them in the issue's
# table beside FLA (not in the default). STEPS picks some of them (default "small large k64
# racecheck memcheck"); JSON goes to $OUT. All five take more
# than one device call's 10 minutes (FLA's Triton compile and the float64
# reference are the slow parts; on a fresh machine in stop 23 three variants
# at the four small shapes took ~280 s, two at the two large ones ~150 s):
# run STEPS=small, then STEPS="large k64", then STEPS="racecheck memcheck".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kc=${KDA2_KC:-$root/build/kc}
# Compiles the lines of stdin (name template bindings [kda2-translate
# flags]) into $kc/<name>.sm_90a.cubin, ptxas's report in <name>.log.
compile_list() {
  "$root/scripts/build.sh" kda2-translate kda2rt
  translate=${KDA2_BUILD_DIR:-$root/build}/bin/kda2-translate
  mkdir -p "$kc"
  while read -r name tirx bind flags; do
    "$translate" --import-tirx --tirx-bind="$bind" "$root/templates/$tirx" \
      -o "$kc/$name.mlir"
    # shellcheck disable=SC2086 # flags: words
    "$translate" --kda2-to-cubin --kda2-resource-report $flags "$kc/$name.mlir" \
      -o "$kc/$name.sm_90a.cubin" 2> "$kc/$name.log"
    rm "$kc/$name.mlir"
    echo "built $name"
  done
}
case "${1:-}" in
build_x)
  # The x preps (run's --extra *x* variants): the same bindings as their
  # namesakes, compiled by this checkout's kda2-translate into a folder that
  # `build` filled at an earlier commit, so that one call times a lowering
  # change against the kernels before it (bench/RESULTS.md names both
  # commits).
  compile_list <<'LIST'
kda_chunk_split_c32_vb16_k128_x_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4 --kda2-fast-math
kda_chunk_split_c32_vb16_k128_tqx_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4,TQ=1 --kda2-fast-math
kda_chunk_split_c32_vb16_k128_tqxrdyp2_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4,TQ=1,RDY=1,PER=2 --kda2-fast-math
LIST
  ;;
build)
  # name template bindings [kda2-translate flags]
  compile_list <<'LIST'
kda_chunk_split_c32_vb16_k128 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8
kda_chunk_split_c32_vb16_k128_tq kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TQ=1
kda_chunk_h_c32_vb16_k128 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8
kda_chunk_split_c32_vb16_k128_tf32 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f32,AP=f32
kda_chunk_split_c32_vb16_k128_tp32 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f32
kda_chunk_h_c32_vb16_k128_tf32 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f32,OW=4
kda_chunk_split_c32_vb16_k128_fast kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8 --kda2-fast-math
kda_chunk_h_c32_vb16_k128_fast kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,OW=4 --kda2-fast-math
kda_chunk_split_c32_vb16_k128_fast4 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,BPS=4 --kda2-fast-math
kda_chunk_split_c32_vb16_k128_pb32 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,PB=f32,AP=f32,AK=bf16,BPS=4 --kda2-fast-math
kda_chunk_h_c32_vb16_k128_pb32 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,PB=f32,OW=4
kda_chunk_split_c32_vb16_k128_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4 --kda2-fast-math
kda_chunk_h_c32_vb16_k128_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=4
kda_chunk_h_c32_vb16_k128_g_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OG=1,OW=4
kda_chunk_h_c32_vb16_k128_s3_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OS=3,OW=4
kda_chunk_h_c32_vb16_k128_s4_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OS=4,OW=4
kda_chunk_h_c32_vb16_k128_s3g_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OS=3,OG=1,OW=4
kda_chunk_h_c32_vb16_k128_w8 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,OW=8,OKB=1,OG=1
kda_chunk_h_c32_vb16_k128_w2 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,OW=2
kda_chunk_h_c32_vb16_k128_bf16_vk_w2 kda_chunk_h.tirx IN=bf16,ST=bf16,SS=vk,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,OW=2
kda_chunk_h_c32_vb16_k128_oa kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,OA=1
kda_chunk_h_c32_vb16_k128_bf16_vk_oa kda_chunk_h.tirx IN=bf16,ST=bf16,SS=vk,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,OA=1
kda_chunk_h_c32_vb16_k128_w8_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=8,OKB=1,OG=1
kda_chunk_h_c32_vb16_k128_w8s3_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=8,OKB=1,OG=1,OS=3
kda_chunk_h_c32_vb16_k128_w8s4_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=8,OKB=1,OG=1,OS=4
kda_chunk_split_c32_vb16_k128_rdy_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4,RDY=1 --kda2-fast-math
kda_chunk_split_c32_vb16_k128_rdyp2_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4,RDY=1,PER=2 --kda2-fast-math
kda_chunk_split_c32_vb16_k128_rdyp1_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4,RDY=1,PER=1 --kda2-fast-math
kda_chunk_fused_k128 kda_chunk_fused.tirx IN=bf16,IX=i32,GB=5,K=128,V=128,C=32,VB=64,NVB=2,RC=232,RA=232,RP=40 --kda2-fast-math
kda_chunk_fused_h16_k128 kda_chunk_fused.tirx IN=bf16,IX=i32,GB=5,K=128,V=128,C=32,VB=64,NVB=2,TP=f16,KL=f16,TW=bf16,RC=232,RA=232,RP=40 --kda2-fast-math
kda_chunk_split_c32_vb16_k128_tq_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4,TQ=1 --kda2-fast-math
kda_chunk_split_c32_vb16_k128_tqrdyp2_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4,TQ=1,RDY=1,PER=2 --kda2-fast-math
kda_chunk_h_c32_vb16_k128_rdy_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,RDY=1,OW=4
kda_chunk_h_c32_vb64_k128_wg_rdy_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=64,NVB=2,TP=f16,KL=f16,RDY=1 --kda2-wgmma
kda_chunk_h_c32_vb64_k128_wg_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=64,NVB=2,TP=f16,KL=f16 --kda2-wgmma
kda_chunk_h_c32_vb64_k128_wg2_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=64,NVB=2,OB=2,TP=f16,KL=f16 --kda2-wgmma
kda_chunk_h_c32_vb16_k128_r1 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,OKB=1,OW=4
kda_chunk_split_c32_k128_fast4 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=32,NVB=4,BPS=4 --kda2-fast-math
kda_chunk_h_c32_k128 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=32,NVB=4
kda_chunk_h_c32_vb64_k128 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=64,NVB=2
kda_chunk_h_c32_vb64_k128_wg kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=64,NVB=2 --kda2-wgmma
kda_chunk_h_c32_vb64_k128_wg2 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=64,NVB=2,OB=2 --kda2-wgmma
kda_chunk_h_c32_vb64_k128_wg_pb32 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=64,NVB=2,PB=f32 --kda2-wgmma
kda_chunk_h_c32_vb64_k128_wg2_pb32 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=64,NVB=2,OB=2,PB=f32 --kda2-wgmma
kda_chunk_merge_c32_vb16_k128 kda_chunk_merge.tirx IN=bf16,IX=i32,K=128,V=128,C=32,VB=16,NVB=8
kda_chunk_h_c64_vb16_k128 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=64,VB=16,NVB=8
kda_chunk_split_c32_vb16_k64 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=64,V=64,C=32,VB=16,NVB=4
kda_chunk_h_c32_vb16_k64 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=64,V=64,C=32,VB=16,NVB=4,OW=4
kda_chunk_h_c32_vb16_k128_bf16_vk kda_chunk_h.tirx IN=bf16,ST=bf16,SS=vk,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,HKB=2
kda_chunk_prep_act_c32_vb16_k128_gf2 kda_chunk_prep_act.tirx IN=bf16,IX=i32,GF=2,AL=1,DB=1,BS=1,QKN=1,K=128,V=128,C=32,HC=16,VB=16,NVB=8
kda_chunk_split_c32_vb16_k128_rdy kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,RDY=1
kda_chunk_h_c32_vb16_k128_rdy kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,RDY=1
kda_chunk_h_c32_vb16_k128_bf16_vk_rdy kda_chunk_h.tirx IN=bf16,ST=bf16,SS=vk,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,RDY=1
kda_chunk_prep_act_c32_vb16_k128_gf2_rdy kda_chunk_prep_act.tirx IN=bf16,IX=i32,GF=2,AL=1,DB=1,BS=1,QKN=1,K=128,V=128,C=32,HC=16,VB=16,NVB=8,RDY=1
kda_chunk_prep_act_c32_vb16_k128_gf2_h16 kda_chunk_prep_act.tirx IN=bf16,IX=i32,GF=2,AL=1,DB=1,BS=1,QKN=1,K=128,V=128,C=32,HC=16,VB=16,NVB=8,TP=f16,KL=f16
kda_chunk_split_c32_vb16_k256 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=256,V=256,C=32,VB=16,NVB=16,BPS=1
kda_chunk_h_c32_vb16_k256 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=256,V=256,C=32,VB=16,NVB=16,OKB=1,HKB=1,OW=4
kda_chunk_split_c32_vb16_k64_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=64,V=64,C=32,VB=16,NVB=4,TP=f16,KL=f16,TW=bf16
kda_chunk_h_c32_vb16_k64_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=64,V=64,C=32,VB=16,NVB=4,TP=f16,KL=f16,OW=4
kda_chunk_h_c32_vb16_k64_s4_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=64,V=64,C=32,VB=16,NVB=4,TP=f16,KL=f16,OS=4,OW=4
kda_chunk_h_c32_vb16_k64_w2s4_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=64,V=64,C=32,VB=16,NVB=4,TP=f16,KL=f16,OW=2,OS=4
kda_chunk_h_c32_vb16_k128_w2s4_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=2,OS=4
kda_chunk_h_c32_vb16_k128_w2_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=2
kda_chunk_split_c32_vb16_k128_tqxpc_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4,TQ=1,PC=1 --kda2-fast-math
kda_chunk_h_c32_vb16_k128_w2s4pc_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=2,OS=4,PC=1
kda_chunk_h_c32_vb16_k128_w2pc_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=2,PC=1
kda_chunk_h_c32_vb16_k128_w2s4oa_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=2,OS=4,OA=1
kda_chunk_h_c32_vb16_k128_w2oa_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=2,OA=1
kda_chunk_scan_ko_c32_vb16_k128_h16 kda_chunk_scan_ko.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16
kda_chunk_scan_ko_c32_vb16_k128_s4_h16 kda_chunk_scan_ko.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OS=4
kda_chunk_scan_ko_c32_vb16_k128_s3_h16 kda_chunk_scan_ko.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OS=3
kda_chunk_h_c32_vb16_k128_w1_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=1,OS=4
kda_chunk_h_c32_vb16_k64_w1_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=64,V=64,C=32,VB=16,NVB=4,TP=f16,KL=f16,OW=1,OS=4
kda_chunk_split_c32_vb16_k256_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=256,V=256,C=32,VB=16,NVB=16,BPS=1,TP=f16,KL=f16,TW=bf16
kda_chunk_h_c32_vb16_k256_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=256,V=256,C=32,VB=16,NVB=16,OKB=1,HKB=1,TP=f16,KL=f16,OW=4
kda_chunk_split_c32_vb16_k128_tqxpdl_h16 kda_chunk_split.tirx IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,TW=bf16,BPS=4,TQ=1,PDL=1 --kda2-fast-math
kda_chunk_h_c32_vb16_k128_w2s4pdl_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=2,OS=4,PDL=1
kda_chunk_h_c32_vb16_k128_w2pdl_h16 kda_chunk_h.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8,TP=f16,KL=f16,OW=2,PDL=1
kda_decode_pool_k128_f32_kv kda_decode_pool.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,VB=32,NVB=4,LANES=2
kda_decode_spec_k128_f32_kv kda_decode_spec.tirx IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,VB=32,NVB=4,LANES=4
LIST
  # The wgmma lowering's test kernels, with and without it (bench/wgmma_check.py).
  "$translate" --import-tirx "$root/test/Conversion/KDA2ToGPU/wgmma.tirx" -o "$kc/wgmma_test.mlir"
  "$translate" --kda2-to-cubin --kda2-wgmma "$kc/wgmma_test.mlir" -o "$kc/wgmma_test_wg.sm_90a.cubin"
  "$translate" --kda2-to-cubin "$kc/wgmma_test.mlir" -o "$kc/wgmma_test_mma.sm_90a.cubin"
  rm "$kc/wgmma_test.mlir"
  "$translate" --import-tirx "$root/test/Conversion/KDA2ToGPU/window-copy.tirx" -o "$kc/window_test.mlir"
  "$translate" --kda2-to-cubin --kda2-wgmma "$kc/window_test.mlir" -o "$kc/window_test_wg.sm_90a.cubin"
  "$translate" --kda2-to-cubin "$kc/window_test.mlir" -o "$kc/window_test_mma.sm_90a.cubin"
  rm "$kc/window_test.mlir"
  cp -a "${KDA2_BUILD_DIR:-$root/build}"/lib/libkda2rt.so* "$kc/"
  du -sh "$kc"
  ;;
run)
  fla=${FLA:-$root/third_party_downloads/fla}
  bench() { python3 "$root/bench/kda_prefill.py" --kernels "$kc" --fla "$fla" \
              --gate lb5edge --per-kernel "$@"; }
  # The scans with 64 value columns per block (one warpgroup): mma.sync, and
  # wgmma (--kda2-wgmma) at ptxas's register choice (_wg, one block per SM)
  # or held to two blocks per SM (_wg2, OB=2), after the same prep (the
  # prep does not depend on VB: the scans read v in place).
  prep64=kda_chunk_split_c32_vb16_k128_fast4:32:64
  # pb in f32 (the output's error within the issue's 3e-3): the prep's pb
  # (PB=f32, AP=f32, AK=bf16) and the scans' U·pb in TF32 (mma.sync there).
  prep64pb=kda_chunk_split_c32_vb16_k128_pb32:32:64
  # tp, pb, us and kl in f16 (TP=f16, KL=f16; the prep's wn product in bf16,
  # TW=bf16): 10-bit mantissas at the 16-bit types' bytes.
  prep64h=kda_chunk_split_c32_vb16_k128_h16:32:64
  # The same with ready flags (RDY=1): the scans launched while the prep
  # runs, each chunk's copies waiting for its flag (docs/Prefill.md).
  prep64r=kda_chunk_split_c32_vb16_k128_rdy_h16:32:64
  # ... and a persistent prep (PER blocks per SM walking the slots, so that
  # the scans started early find room beside it): PER=2 beside the
  # split-key scan (2 x 16K + 27K registers per SM), PER=1 beside the
  # 64-column wgmma scan (41K).
  wg=(--extra "o32_vb64_wg_h16=$prep64h:kda_chunk_h_c32_vb64_k128_wg_h16"
      --extra "o32_vb64_wg_rdy_h16=$prep64r:kda_chunk_h_c32_vb64_k128_wg_rdy_h16"
      --extra "o32_vb64_wg_rdyp1_h16=kda_chunk_split_c32_vb16_k128_rdyp1_h16:32:64:kda_chunk_h_c32_vb64_k128_wg_rdy_h16"
      --extra "ok32_vb16_rdyp2_h16=kda_chunk_split_c32_vb16_k128_rdyp2_h16:32:16:kda_chunk_h_c32_vb16_k128_rdy_h16"
      --extra "o32_vb64_wg2_h16=$prep64h:kda_chunk_h_c32_vb64_k128_wg2_h16"
      --extra "ok32_vb16_tq_h16=kda_chunk_split_c32_vb16_k128_tq_h16:32:16:kda_chunk_h_c32_vb16_k128_h16"
      --extra "ok32_vb16_tqrdyp2_h16=kda_chunk_split_c32_vb16_k128_tqrdyp2_h16:32:16:kda_chunk_h_c32_vb16_k128_rdy_h16"
      --extra "o32_vb64_wg2_tq_h16=kda_chunk_split_c32_vb16_k128_tq_h16:32:64:kda_chunk_h_c32_vb64_k128_wg2_h16"
      # Preps built after a lowering change, beside the same preps built
      # before it (the names' x; `build_x` above): since stop 30, fast-math
      # exp as one ex2.approx.ftz.f32.
      --extra "ok32_vb16_x_h16=kda_chunk_split_c32_vb16_k128_x_h16:32:16:kda_chunk_h_c32_vb16_k128_h16"
      --extra "ok32_vb16_tqx_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_h16"
      --extra "ok32_vb16_tqxrdyp2_h16=kda_chunk_split_c32_vb16_k128_tqxrdyp2_h16:32:16:kda_chunk_h_c32_vb16_k128_rdy_h16"
      --extra "o32_vb64_wg2_tqx_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:64:kda_chunk_h_c32_vb64_k128_wg2_h16"
      # The split-key scan with Uᵀ's partial sums reduced block by block
      # (OG=1: REG gather=, docs/TIRx.md), after the TQ prep.
      --extra "ok32_vb16_tqg_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_g_h16"
      # ... and with three or four TMA stages (OS: the producer warp's
      # copies two or three chunks ahead).
      --extra "ok32_vb16_tqs3_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_s3_h16"
      --extra "ok32_vb16_tqs4_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_s4_h16"
      --extra "ok32_vb16_tqs3g_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_s3g_h16"
      # ... and on eight computing warps (OW=8: two per scheduler; Uᵀ and
      # Oᵀ reduced block by block), with two, three or four stages.
      --extra "ok32_vb16_tqw8_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_w8_h16"
      --extra "ok32_vb16_tqw8s3_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_w8s3_h16"
      --extra "ok32_vb16_tqw8s4_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_w8s4_h16"
      # ... and on two (OW=2, four stages: each warp half the keys, one
      # partial to add), K = 128 and K = 64 (the K = 64 four-stage scan
      # beside it, after the K = 64 prep).
      --extra "ok32_vb16_tqw2s4_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_w2s4_h16"
      --extra "ok32_vb16_s4_k64_h16=kda_chunk_split_c32_vb16_k64_h16:32:16:kda_chunk_h_c32_vb16_k64_s4_h16"
      --extra "ok32_vb16_w2s4_k64_h16=kda_chunk_split_c32_vb16_k64_h16:32:16:kda_chunk_h_c32_vb16_k64_w2s4_h16"
      --extra "ok32_vb16_tqw2_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_w2_h16"
      --extra "ok32_vb16_tqw1s4_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_w1_h16"
      --extra "ok32_vb16_w1s4_k64_h16=kda_chunk_split_c32_vb16_k64_h16:32:16:kda_chunk_h_c32_vb16_k64_w1_h16"
      # ... and in pieces (PC=1, pcN: N launches of the prep and of the
      # scan, the prep of piece p + 1 on a second stream beside the scan of
      # piece p; docs/Prefill.md, "Pieces").
      --extra "ok32_vb16_tqw2s4pc2_h16=kda_chunk_split_c32_vb16_k128_tqxpc_h16:32:16:kda_chunk_h_c32_vb16_k128_w2s4pc_h16"
      --extra "ok32_vb16_tqw2s4pc3_h16=kda_chunk_split_c32_vb16_k128_tqxpc_h16:32:16:kda_chunk_h_c32_vb16_k128_w2s4pc_h16"
      --extra "ok32_vb16_tqw2s4pc4_h16=kda_chunk_split_c32_vb16_k128_tqxpc_h16:32:16:kda_chunk_h_c32_vb16_k128_w2s4pc_h16"
      --extra "ok32_vb16_tqw2pc2_h16=kda_chunk_split_c32_vb16_k128_tqxpc_h16:32:16:kda_chunk_h_c32_vb16_k128_w2pc_h16"
      --extra "ok32_vb16_tqw2pc3_h16=kda_chunk_split_c32_vb16_k128_tqxpc_h16:32:16:kda_chunk_h_c32_vb16_k128_w2pc_h16"
      # The scan as the prep's programmatic dependent (PDL=1 on both:
      # launch_dependents() in the prep, wait_prior() before the scan's
      # chunk loop), four and two stages.
      --extra "ok32_vb16_tqw2s4pdl_h16=kda_chunk_split_c32_vb16_k128_tqxpdl_h16:32:16:kda_chunk_h_c32_vb16_k128_w2s4pdl_h16"
      --extra "ok32_vb16_tqw2pdl_h16=kda_chunk_split_c32_vb16_k128_tqxpdl_h16:32:16:kda_chunk_h_c32_vb16_k128_w2pdl_h16"
      # Vᵀ·tpᵀ folded into warp 0's partials before the partials' barrier
      # (OA=1, #pragma fold_accumulator), four and two stages.
      --extra "ok32_vb16_tqw2s4oa_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_w2s4oa_h16"
      --extra "ok32_vb16_tqw2oa_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_h_c32_vb16_k128_w2oa_h16"
      # The chain's warps without the output (kda_chunk_scan_ko: the
      # split-key chain as the loop's ahead group, other warps computing o
      # from the state and U it hands over), two, three or four stages.
      --extra "ko32_vb16_tq_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_scan_ko_c32_vb16_k128_h16"
      --extra "ko32_vb16_tqs3_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_scan_ko_c32_vb16_k128_s3_h16"
      --extra "ko32_vb16_tqs4_h16=kda_chunk_split_c32_vb16_k128_tqx_h16:32:16:kda_chunk_scan_ko_c32_vb16_k128_s4_h16"
      --extra "o32_vb64_fast4=$prep64" --extra "o32_vb64_wg=$prep64:kda_chunk_h_c32_vb64_k128_wg"
      --extra "o32_vb64_wg2=$prep64:kda_chunk_h_c32_vb64_k128_wg2"
      --extra "o32_vb64_wg_pb32=$prep64pb:kda_chunk_h_c32_vb64_k128_wg_pb32"
      --extra "o32_vb64_wg2_pb32=$prep64pb:kda_chunk_h_c32_vb64_k128_wg2_pb32")
  # EXTRA: more variants, space-separated, as --extra takes them
  # (name=prep:C:VB[:scan]): a scan's cubin kept from before a lowering
  # change beside the one built after it, say.
  for e in ${EXTRA:-}; do wg+=(--extra "$e"); done
  sanitize() { "${SANITIZER:-compute-sanitizer}" --tool "$1" --error-exitcode 3 \
                 python3 "$root/bench/kda_prefill.py" --kernels "$kc" --gate lb5edge \
                 "${wg[@]}" --variants "${SAN_VARIANTS:-ok32_vb16,ok32_vb16_pb32}" \
                 --shapes 1+37+70x1,1x96x2; }
  # Each step's whole output (the JSON line of every case as it finishes,
  # then the tables) also goes to $OUT/<step>.log: what a step measured
  # survives a `timeout` that cuts it, and a filter on stdout.
  log() { if [ -n "${OUT:-}" ]; then tee "$OUT/$1.log"; else cat; fi; }
  for step in ${STEPS:-small large k64 racecheck memcheck}; do
    echo "=== $step"
    {
    case $step in
    small)
      bench --variants ok32_vb16_fast4,ok32_vb16_fast4_r1,ok32_vb16_pb32 \
        --shapes 2x1024x8,2x2048x8,1x4096x8,1000+3000+1+500+3692x8 ;;
    large)
      bench --no-reference --variants o32_vb16_fast4,o32_vb32_fast4,ok32_vb16_fast4,ok32_vb16_pb32 \
        --shapes 8x4096x16,1x32768x32 ;;
    wgmma)
      # First on the GPU: the lowering's test kernels (wgmma, windows, the
      # bounded windows the scans read v through), then the scans against
      # the float64 reference (v in place: mma.sync at 16 columns, the
      # 64-column ones), then times beside the mma.sync scans (no FLA: a
      # short step).
      python3 "$root/bench/wgmma_check.py" --kernels "$kc"
      python3 "$root/bench/kda_prefill.py" --kernels "$kc" --gate lb5edge --per-kernel \
        "${wg[@]}" --variants ok32_vb16_fast4,o32_vb16_fast4,o32_vb64_fast4,o32_vb64_wg,o32_vb64_wg2 \
        --shapes 2x1024x8,1000+3000+1+500+3692x8
      python3 "$root/bench/kda_prefill.py" --kernels "$kc" --gate lb5edge --per-kernel \
        --no-reference "${wg[@]}" \
        --variants ok32_vb16_fast4_r1,o32_vb32_fast4,o32_vb64_fast4,o32_vb64_wg,o32_vb64_wg2 \
        --shapes 1x4096x8,8x4096x16,1x32768x32 ;;
    pb32_wg)
      # The output within the issue's 3e-3 (PB=f32) on the wgmma scans,
      # beside the split-key PB=f32 scan and FLA.
      bench "${wg[@]}" --variants ok32_vb16_pb32,o32_vb64_wg_pb32,o32_vb64_wg2_pb32 \
        --shapes 1000+3000+1+500+3692x8
      bench --no-reference "${wg[@]}" --variants ok32_vb16_pb32,o32_vb64_wg_pb32,o32_vb64_wg2_pb32 \
        --shapes 8x4096x16,1x32768x32 ;;
    h16)
      # The f16 intermediates (TP=f16, KL=f16): the output's error against
      # float64 beside the bf16 and PB=f32 paths, then the large shapes.
      bench "${wg[@]}" --variants ok32_vb16_fast4_r1,ok32_vb16_h16,o32_vb64_wg_h16,o32_vb64_wg2_h16 \
        --shapes 2x1024x8,2x2048x8,1x4096x8,1000+3000+1+500+3692x8
      bench --no-reference "${wg[@]}" --variants ok32_vb16_h16,o32_vb64_wg2,o32_vb64_wg_h16,o32_vb64_wg2_h16 \
        --shapes 8x4096x16,1x32768x32 ;;
    rdy)
      # Ready flags (RDY=1): the scan as the prep's programmatic dependent,
      # against float64 beside the same kernels without flags, then the
      # large shapes (timing only).
      rdyv=ok32_vb16_h16,ok32_vb16_rdy_h16,ok32_vb16_rdyp2_h16,o32_vb64_wg_h16,o32_vb64_wg_rdy_h16,o32_vb64_wg_rdyp1_h16
      bench "${wg[@]}" --variants "$rdyv" --shapes 2x1024x8,2x2048x8,1x4096x8,1000+3000+1+500+3692x8
      bench --no-reference "${wg[@]}" --variants "$rdyv" --shapes 8x4096x16,1x32768x32 ;;
    tq)
      # The prep reading its chunk's q, k and g as whole tiles (TQ=1: g by
      # TMA, k and q by block copies in flight meanwhile), beside the same
      # kernels reading them row by row, against float64, then the large
      # shapes (timing only).
      tqv=ok32_vb16_h16,ok32_vb16_tq_h16,ok32_vb16_tqrdyp2_h16,o32_vb64_wg2_h16,o32_vb64_wg2_tq_h16
      bench "${wg[@]}" --variants "$tqv" --shapes 2x1024x8,2x2048x8,1x4096x8,1000+3000+1+500+3692x8
      bench --no-reference "${wg[@]}" --variants "$tqv" --shapes 8x4096x16,1x32768x32 ;;
    fused)
      # The one-kernel prefill (kda_chunk_fused.tirx: the prep ahead on a
      # second warpgroup, setmaxnreg): against float64 beside the split
      # pairs, then the large shapes (timing only); then under racecheck
      # (its handover stages, named barriers and mbarriers).
      fv=fused,fused_h16,ok32_vb16_h16,o32_vb64_wg2_h16
      bench "${wg[@]}" --variants "$fv" --shapes 2x1024x8,1x4096x8,1000+3000+1+500+3692x8
      bench --no-reference "${wg[@]}" --variants "$fv" --shapes 8x4096x16,1x32768x32
      SAN_VARIANTS=fused_h16 sanitize racecheck ;;
    ncu)
      # Nsight Compute on one launch of the kernels matching NCU_KERNEL (a
      # regex, default the split-key scan) in each of NCU_VARIANTS at
      # NCU_SHAPE (timing only, no FLA): warp states, launch, throughput
      # and the per-instruction stall samples (SASS, CSV, into $OUT),
      # summarised by bench/ncu_hotspots.py.
      for nv in ${NCU_VARIANTS//,/ }; do
        rep=${OUT:-/tmp}/ncu_${nv}_${NCU_SHAPE:-1x4096x8}
        ncu --clock-control none -k "regex:${NCU_KERNEL:-kda_chunk_scan_ok}" -c 1 \
          --section SourceCounters --section WarpStateStats --section LaunchStats \
          --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
          -f -o "$rep" python3 "$root/bench/kda_prefill.py" --kernels "$kc" --gate lb5edge \
          --no-reference "${wg[@]}" --variants "$nv" --shapes "${NCU_SHAPE:-1x4096x8}" > /dev/null
        ncu --import "$rep.ncu-rep" --print-summary none | \
          grep -E "Duration|Elapsed Cycles|SM Frequency|Registers|Achieved Occupancy|Throughput|Issued Ipc|Warp Cycles Per|Executed Ipc|Block Limit|Shared Memory" || true
        ncu --import "$rep.ncu-rep" --page source --csv --print-source sass > "$rep.csv"
        python3 "$root/bench/ncu_hotspots.py" "$rep.csv" --top 30
      done ;;
    issue)
      # The issue's table (docs/Prefill.md, Status): the kernels it quotes
      # at every shape against the float64 reference, the large shapes
      # included (the token-by-token recurrence on the GPU, its time
      # printed), beside FLA: the split-key scan with four and two stages
      # after the TQ prep, and the 64-column wgmma scan.
      iv=ok32_vb16_tqw2s4_h16,ok32_vb16_tqw2_h16,o32_vb64_wg2_tqx_h16
      bench "${wg[@]}" --variants "$iv" --shapes 2x1024x8,2x2048x8,1x4096x8,1000+3000+1+500+3692x8
      bench "${wg[@]}" --variants "$iv" --shapes 8x4096x16,1x32768x32 ;;
    pdl)
      # The scan as the prep's programmatic dependent (PDL=1 on both)
      # beside the same pair without it, against float64 and FLA, the
      # small shapes and the varlen batch.
      pv=ok32_vb16_tqw2s4_h16,ok32_vb16_tqw2s4pdl_h16,ok32_vb16_tqw2_h16,ok32_vb16_tqw2pdl_h16
      bench "${wg[@]}" --variants "$pv" --shapes 2x1024x8,2x2048x8,1x4096x8,1000+3000+1+500+3692x8 ;;
    variants)
      # Any variants (the --extra ones above included) at any shapes:
      # VARIANTS, SHAPES, and NOREF=1 for timing only.
      bench "${wg[@]}" --variants "$VARIANTS" --shapes "$SHAPES" ${NOREF:+--no-reference} ;;
    h16act)
      # The softplus prep with f16 intermediates on the pool, through the
      # generic launches and the C ABI (bitwise), against float64.
      python3 "$root/bench/kda_serving.py" --kernels "$kc" --fla "$fla" \
        --only prefill_act_h16_case --checks-only ;;
    small_wg|large_wg)
      # Once `wgmma` showed the wgmma scans correct: the issue's table with
      # them beside the best mma.sync variants and FLA, same call.
      # The f16 intermediates (h16: within the issue's error at the same
      # time, stop 27) beside the best bf16 variants.
      if [ "$step" = small_wg ]; then
        bench "${wg[@]}" --variants ok32_vb16_fast4_r1,ok32_vb16_h16,o32_vb64_wg_h16,o32_vb64_wg \
          --shapes 2x1024x8,2x2048x8,1x4096x8,1000+3000+1+500+3692x8
      else
        bench --no-reference "${wg[@]}" \
          --variants o32_vb64_wg,o32_vb64_wg2,o32_vb64_wg_h16,o32_vb64_wg2_h16 \
          --shapes 8x4096x16,1x32768x32
      fi ;;
    k64)
      bench --dim 64 --variants h32_vb16,hk32_vb16,ok32_vb16,ok32_vb16_h16 \
        --shapes 2x1024x8,1x4096x8 ;;
    k256)
      # K = V = 256 (the split-key scan at one block per SM) beside FLA.
      bench --dim 256 --variants ok32_vb16,ok32_vb16_h16 --shapes 2x1024x8,1x4096x8,1000+3000+1+500+3692x8 ;;
    contract)
      # The runtime's prefill (kda2rt_kda_prefill) on the serving contract:
      # strided inputs (v's rows through the scans' tensor maps), workspace
      # sizes, checkpoints at token offsets; split and fused scans.
      python3 "$root/bench/kda_contract.py" --kernels "$kc" --only strided,workspace,offsets
      python3 "$root/bench/kda_contract.py" --kernels "$kc" --only strided,offsets --fused ;;
    contract_w8)
      # The split-key scan on eight warps (OW=8: Oᵀ's stores of o and Uᵀ's
      # of us by the warps that own their blocks) on the serving contract.
      python3 "$root/bench/kda_contract.py" --kernels "$kc" --prep-suffix _tq --fused \
        --key-split --scan-build _w8 --only graph,strided,offsets ;;
    contract_w2)
      # The split-key scans on two computing warps (OW=2; bf16 builds, the
      # f32 and bf16 V-first pools) on the serving contract, fused and not.
      python3 "$root/bench/kda_contract.py" --kernels "$kc" --prep-suffix _tq --fused \
        --key-split --scan-build _w2 --only graph,strided,offsets
      python3 "$root/bench/kda_contract.py" --kernels "$kc" --prep-suffix _tq \
        --key-split --scan-build _w2 --only strided,offsets ;;
    contract_oa)
      # The split-key scans with Vᵀ·tpᵀ folded into the partials (OA=1,
      # #pragma fold_accumulator; bf16 builds, the f32 and bf16 V-first
      # pools) on the serving contract, fused and not.
      python3 "$root/bench/kda_contract.py" --kernels "$kc" --prep-suffix _tq --fused \
        --key-split --scan-build _oa --only graph,strided,offsets
      python3 "$root/bench/kda_contract.py" --kernels "$kc" --prep-suffix _tq \
        --key-split --scan-build _oa --only strided,offsets ;;
    contract_tq)
      # The same contract with the prep reading its chunk's rows whole
      # (TQ=1: g by TMA, q and k by block copies; strided rows included).
      python3 "$root/bench/kda_contract.py" --kernels "$kc" --prep-suffix _tq \
        --only graph,strided,workspace,offsets
      python3 "$root/bench/kda_contract.py" --kernels "$kc" --prep-suffix _tq --fused \
        --key-split --only strided,offsets ;;
    contract_rdy)
      # The same contract on the kernels built with RDY=1 (ready flags, the
      # scan as the prep's programmatic dependent): CUDA-graph replays (the
      # flags cleared in each replay), determinism, strides, workspace
      # bounds and offset checkpoints, through kda2rt_kda_prefill.
      python3 "$root/bench/kda_contract.py" --kernels "$kc" --fused --key-split --rdy \
        --only graph,determinism,strided,workspace,offsets ;;
    racecheck|memcheck)
      sanitize "$step" ;;
    *) echo "unknown step '$step' (small, large, issue, pdl, wgmma, small_wg, large_wg, pb32_wg, h16, rdy, tq, fused, variants, h16act, k64, k256, contract, contract_tq, contract_rdy," \
            "racecheck, memcheck)" >&2; exit 2 ;;
    esac
    } 2>&1 | log "$step"
  done
  ;;
*)
  echo "usage: bench/prefill_device.sh build|run" >&2
  exit 2 ;;
esac
