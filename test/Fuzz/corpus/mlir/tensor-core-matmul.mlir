// RUN: kda2-opt %s --convert-kda2-to-gpu | FileCheck %s
// RUN: kda2-translate --kda2-to-ptx %s | FileCheck %s --check-prefix=PTX
// RUN: kda2-translate --kda2-to-ptx --kda2-chip=sm_80 %s | FileCheck %s --check-prefix=PTX
// kda2.matmul of shared tiles on tensor cores. The whole block takes part
// (four warps at least): warp w computes the 16-row strips w, w + 4, ... of
// the result, keeps the strip's A fragments (ldmatrix .x4) for every k step,
// walks the n columns eight at a time with B fragments (ldmatrix .x4 for
// two k steps, .x2 for an odd last one; .trans when b is [k, n], plain when
// transpose_b gives it as [n, k]) and
// mma.sync m16n8k16 with f32 accumulation, and writes its accumulator
// elements straight to the store's destination (two adjacent columns per
// store). The operand tiles are never
// held by one thread. bench/sanitize_kernels.py runs both kernels on the
// GPU against a float64 reference (memcheck and racecheck).

// @mm: bf16, b as [k, n], result to global memory.
// CHECK-LABEL: gpu.func @mm(
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: %[[WARP:.*]] = arith.divui %thread_id_x, %{{.*}} : index
// CHECK: scf.for %[[STRIP:.*]] = %[[WARP]] to %c4{{.*}} step %c4
// CHECK-COUNT-2: nvgpu.ldmatrix %arg4[{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<64x32xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// The B fragments of both k steps are loaded before the first mma.
// CHECK: scf.for
// CHECK: nvgpu.ldmatrix %arg5[{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<32x64xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: nvvm.mma.sync
// CHECK-NOT: arith.addf
// Each lane's two adjacent columns in one 8-byte store.
// CHECK: llvm.store {{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>

// @mm_acc: f16, transpose_b, an f32 accumulator read from and written back
// to a shared buffer, under $bank_conflict_free: the operand buffers are
// padded to an odd number of 16-byte chunks per row (ldmatrix rows in
// distinct banks: 64 + 8 halves = 9 chunks), the accumulator to 8 words
// mod 32 (48 + 8 floats: 64-bit accumulator accesses conflict free).
// Two strips for four warps: each strip is cut into two column groups of
// three 8-column blocks (units = 4: strip = unit / 2, columns from
// (unit % 2) * 3).
// CHECK-LABEL: gpu.func @mm_acc(
// CHECK-SAME: workgroup(%[[SA:.*]] : memref<32x72xf16, #gpu.address_space<workgroup>>, %[[SK:.*]] : memref<48x72xf16, #gpu.address_space<workgroup>>, %[[SC:.*]] : memref<32x56xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for %[[UNIT:.*]] = %{{.*}} to %c4{{.*}} step %c4
// CHECK-NEXT: %{{.*}} = arith.constant 2 : index
// CHECK-NEXT: %{{.*}} = arith.divui %[[UNIT]], %{{.*}} : index
// CHECK: nvgpu.ldmatrix %[[SA]]{{.*}}numTiles = 4 : i32, transpose = false
// CHECK: vector.load %[[SC]][{{.*}}] : memref<32x56xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// Four k steps: the even ones accumulate onto the loaded accumulator, the
// odd ones onto zero, and the two chains are added before the store.
// CHECK-COUNT-2: nvgpu.ldmatrix %[[SK]]{{.*}}numTiles = 4 : i32, transpose = false
// CHECK-COUNT-4: nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-4: arith.addf
// CHECK: vector.store %{{.*}}, %[[SC]][{{.*}}] : memref<32x56xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: gpu.barrier

// PTX-LABEL: .entry mm(
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-LABEL: .entry mm_acc(
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

kda2.kernel @mm(%a: !kda2.tensor<[b, 64, 32], bf16>, %w: !kda2.tensor<[b, 32, 64], bf16>,
                %y: !kda2.tensor<[b, 64, 64], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "w", "y"], grid = ["b"]} {
  kda2.gmem %a, %w, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, 64, 32], bf16>, !kda2.tensor<[b, 32, 64], bf16>, !kda2.tensor<[b, 64, 64], f32>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %sw = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 64], bf16, smem>
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  kda2.loop serial %it to %c1 {
    kda2.loop thread %r to %c64 annotations [#kda2.coalesced_access<>] {
      %row = kda2.load %a[%r] : !kda2.tensor<[b, 64, 32], bf16> -> tensor<32xbf16>
      kda2.store %row, %sa[%r] : tensor<32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
    }
    kda2.loop thread %r to %c32 {
      %row = kda2.load %w[%r] : !kda2.tensor<[b, 32, 64], bf16> -> tensor<64xbf16>
      kda2.store %row, %sw[%r] : tensor<64xbf16>, !kda2.tensor<[32, 64], bf16, smem>
    }
    %ta = kda2.load %sa[] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<64x32xbf16>
    %tw = kda2.load %sw[] : !kda2.tensor<[32, 64], bf16, smem> -> tensor<32x64xbf16>
    %p = kda2.matmul %ta, %tw : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    kda2.store %p, %y[] : tensor<64x64xf32>, !kda2.tensor<[b, 64, 64], f32>
  }
}

kda2.kernel @mm_acc(%a: !kda2.tensor<[b, 32, 64], f16>, %k: !kda2.tensor<[b, 48, 64], f16>,
                    %c: !kda2.tensor<[b, 32, 48], f32>,
                    %y: !kda2.tensor<[b, 32, 48], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "k", "c", "y"], grid = ["b"]} {
  kda2.gmem %a, %k, %c, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, 32, 64], f16>, !kda2.tensor<[b, 48, 64], f16>, !kda2.tensor<[b, 32, 48], f32>, !kda2.tensor<[b, 32, 48], f32>
  %sa = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 64], f16, smem>
  %sk = kda2.smem_alloc size(8192) : !kda2.tensor<[48, 64], f16, smem>
  %sc = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 48], f32, smem>
  %c64 = arith.constant 64 : index
  %c48 = arith.constant 48 : index
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  kda2.loop serial %it to %c1 annotations [#kda2.bank_conflict_free] {
    // Staged column by column: consecutive threads, consecutive elements.
    kda2.loop thread %j to %c64 {
      kda2.loop serial %r to %c32 {
        %x = kda2.load %a[%r, %j] : !kda2.tensor<[b, 32, 64], f16> -> f16
        kda2.store %x, %sa[%r, %j] : f16, !kda2.tensor<[32, 64], f16, smem>
      }
      kda2.loop serial %r to %c48 {
        %x = kda2.load %k[%r, %j] : !kda2.tensor<[b, 48, 64], f16> -> f16
        kda2.store %x, %sk[%r, %j] : f16, !kda2.tensor<[48, 64], f16, smem>
      }
    }
    kda2.loop thread %j to %c48 {
      kda2.loop serial %r to %c32 {
        %x = kda2.load %c[%r, %j] : !kda2.tensor<[b, 32, 48], f32> -> f32
        kda2.store %x, %sc[%r, %j] : f32, !kda2.tensor<[32, 48], f32, smem>
      }
    }
    %ta = kda2.load %sa[] : !kda2.tensor<[32, 64], f16, smem> -> tensor<32x64xf16>
    %tk = kda2.load %sk[] : !kda2.tensor<[48, 64], f16, smem> -> tensor<48x64xf16>
    %tc = kda2.load %sc[] : !kda2.tensor<[32, 48], f32, smem> -> tensor<32x48xf32>
    %p = kda2.matmul %ta, %tk acc(%tc) {transpose_b} : tensor<32x64xf16>, tensor<48x64xf16>, tensor<32x48xf32> -> tensor<32x48xf32>
    kda2.store %p, %sc[] : tensor<32x48xf32>, !kda2.tensor<[32, 48], f32, smem>
    kda2.loop thread %j to %c48 {
      kda2.loop serial %r to %c32 {
        %x = kda2.load %sc[%r, %j] : !kda2.tensor<[32, 48], f32, smem> -> f32
        kda2.store %x, %y[%r, %j] : f32, !kda2.tensor<[b, 32, 48], f32>
      }
    }
  }
}

// @mm_tn: transpose_a (a given as [k, m]): the A fragments come from
// transposed 8x8 loads too (the state update of chunked KDA, kᵀ·u).
// CHECK-LABEL: gpu.func @mm_tn(
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<32x64xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<32x64xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: nvvm.mma.sync
// PTX-LABEL: .entry mm_tn(
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
kda2.kernel @mm_tn(%a: !kda2.tensor<[b, 32, 64], bf16>, %w: !kda2.tensor<[b, 32, 64], bf16>,
                   %y: !kda2.tensor<[b, 64, 64], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "w", "y"], grid = ["b"]} {
  kda2.gmem %a, %w, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, 32, 64], bf16>, !kda2.tensor<[b, 32, 64], bf16>, !kda2.tensor<[b, 64, 64], f32>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 64], bf16, smem>
  %sw = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 64], bf16, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %ta = kda2.load %a[] : !kda2.tensor<[b, 32, 64], bf16> -> tensor<32x64xbf16>
    kda2.store %ta, %sa[] : tensor<32x64xbf16>, !kda2.tensor<[32, 64], bf16, smem>
    %tw = kda2.load %w[] : !kda2.tensor<[b, 32, 64], bf16> -> tensor<32x64xbf16>
    kda2.store %tw, %sw[] : tensor<32x64xbf16>, !kda2.tensor<[32, 64], bf16, smem>
    %fa = kda2.load %sa[] : !kda2.tensor<[32, 64], bf16, smem> -> tensor<32x64xbf16>
    %fw = kda2.load %sw[] : !kda2.tensor<[32, 64], bf16, smem> -> tensor<32x64xbf16>
    %p = kda2.matmul %fa, %fw {transpose_a} : tensor<32x64xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    kda2.store %p, %y[] : tensor<64x64xf32>, !kda2.tensor<[b, 64, 64], f32>
  }
}
