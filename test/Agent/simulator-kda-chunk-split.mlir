// RUN: kda2-translate --import-tirx --tirx-bind=IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=32,NVB=4 %kda2_src/templates/kda_chunk_split.tirx \
// RUN:   | kda2-opt --convert-kda2-to-gpu -o /dev/null \
// RUN:       --kda2-test-simulator="shapes=n=1,h=8,hqk=8,tt=256,np1=2,ns=9,m=0,nm=0 data=cu_seqlens=0/256 registers=128 trace=%t.json" \
// RUN:   | FileCheck %s
// RUN: FileCheck %s --input-file=%t.json --check-prefix=TRACE
// The real prefill kernels (scripts/build-kernels.sh's kda_chunk_split_c32_k128)
// at (n, t, h) = (1, 256, 8): the scan runs on tensor cores and loads its
// operands with TMA copies completing mbarrier phases (8 chunks of 7 tiles,
// three of them 256 bytes wide and swizzled, so two 128-byte boxes each:
// the chunk loop's bound comes from cu_seqlens, whose contents `data=`
// gives); the trace has a track per warp.

// CHECK-LABEL: simulator: @kda_chunk_prep on H200-SXM
// CHECK: grid: 9x8x1 (72 CTAs), block: 128x1x1
// CHECK: registers/thread: 128 (given)
// CHECK: pipes (simulated SM): alu {{[1-9][0-9]*}}, sfu {{[1-9][0-9]*}}, tensor {{[1-9][0-9]*}}, shared {{[1-9][0-9]*}}, global {{[1-9][0-9]*}}, tma 0,
// CHECK-LABEL: simulator: @kda_chunk_scan on H200-SXM
// CHECK: grid: 4x8x1 (32 CTAs), block: 128x1x1
// 1024 bytes more than the buffers: the swizzled ones are moved to a
// 1024-byte boundary of the dynamic shared memory.
// CHECK: shared memory/CTA: 98328 B
// CHECK: CTAs/SM: 2 (limited by shared memory)
// CHECK: waves: 1 (1 CTAs resident on the simulated SM)
// CHECK: predicted time: {{[0-9]+\.[0-9]+}} us
// CHECK: pipes (simulated SM): alu {{[1-9][0-9]*}}, sfu 0, tensor {{[1-9][0-9]*}}, shared {{[1-9][0-9]*}}, global {{[1-9][0-9]*}}, tma 80,
// CHECK: stalls (warp-cycles, simulated SM): dependency {{[0-9]+}}, memory {{[1-9][0-9]*}}, barrier {{[1-9][0-9]*}},
// CHECK-NOT: note: some warps waited

// TRACE: "traceEvents": [
// TRACE: "name": "@kda_chunk_scan CTA 0"
// TRACE: "name": "barrier"
