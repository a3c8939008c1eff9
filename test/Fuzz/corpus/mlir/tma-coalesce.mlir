// RUN: kda2-opt %s --convert-kda2-to-gpu | FileCheck %s
// RUN: kda2-translate --kda2-to-ptx %s | FileCheck %s --check-prefix=PTX
// RUN: kda2-translate --kda2-to-ptx --kda2-chip=sm_80 %s 2>&1 | FileCheck %s --check-prefix=SM80
// #pragma tma_coalesce: on sm_90 the global -> shared tile copies under it
// go through the tensor memory accelerator. Each (tensor, tile shape) gets
// a tensor map, a 128-byte kernel parameter passed by value (the runtime
// encodes it from the `arg tensormap` metadata line: the tensor's dimensions
// innermost first and the box); thread 0 arms the block's mbarrier with the
// tile's bytes and issues cp.async.bulk.tensor, every thread waits on the
// barrier's phase. A box past the end of c is filled with zeros by the TMA
// unit (the last chunk here). Same kernel as tile-copy.mlir otherwise;
// bench/sanitize_kernels.py runs it on the GPU.

// CHECK-LABEL: gpu.func @tma_mm(
// CHECK-SAME: %[[WMAP:arg5]]: !llvm.ptr {llvm.align = 64 : i64}, %[[AMAP:arg6]]: !llvm.ptr {llvm.align = 64 : i64})
// w's tile (32 rows of 128 bytes, read only by the product) is stored with
// the 128-byte swizzle: one box of [32, 64] per 128 bytes of row, the
// buffer 1024-byte aligned; a's (64 rows of 64 bytes) with the 64-byte
// swizzle, one box of [64, 32].
// CHECK-SAME: workgroup(%[[SA:.*]] : memref<1x64x32xbf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %[[SW:.*]] : memref<1x32x64xbf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %{{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>>, %[[BAR:.*]] : memref<1xi64, #gpu.address_space<workgroup>> {llvm.align = 8 : i64})
// CHECK-SAME: kda2.tensor_maps = array<i32: 5, 6>
// CHECK: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: gpu.barrier
// The copy of w: box 64 x 32 at coordinates (0, 0, b).
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c4096_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[WMAP]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: nvvm.mbarrier.try_wait.parity
// The chunk of a: box 32 x 64 x 1 x 1 at (0, 0, ci, b).
// CHECK: scf.for
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[AMAP]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: nvvm.mbarrier.try_wait.parity
// The A fragments of a: the 64-byte swizzle (bits 4-5 ^= bits 7-8).
// CHECK: %[[ABITS:.*]] = arith.andi %{{.*}}, %c48{{.*}} : index
// CHECK: arith.xori %{{.*}}, %[[ABITS]] : index
// CHECK: %[[AFLAT:.*]] = memref.reinterpret_cast %[[SA]] to offset: [0], sizes: [2048], strides: [1]
// CHECK: nvgpu.ldmatrix %[[AFLAT]][%{{.*}}] {numTiles = 4 : i32, transpose = false}
// The B fragments of w: each lane's 16-byte row segment at its swizzled
// address (bits 4-6 ^= bits 7-9), read through a flat view of the buffer.
// CHECK: %[[BITS:.*]] = arith.andi %{{.*}}, %c112{{.*}} : index
// CHECK: arith.xori %{{.*}}, %[[BITS]] : index
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[SW]] to offset: [0], sizes: [2048], strides: [1]
// CHECK: nvgpu.ldmatrix %[[FLAT]][%{{.*}}] {numTiles = 4 : i32, transpose = true}
// CHECK: nvvm.mma.sync
// CHECK: llvm.mlir.global{{.*}}@__kda2_meta_tma_mm
// CHECK-SAME: arg tensormap w__tma0 w 3 2 1 0 box 64 32 1 swizzle 128\0Aarg tensormap a__tma1 a 4 3 2 1 0 box 32 64 1 1 swizzle 64\0A

// PTX-LABEL: .entry tma_mm(
// PTX: .param .align 64 .b8 tma_mm_param_5[128],
// PTX: .param .align 64 .b8 tma_mm_param_6[128]
// PTX: mbarrier.init.shared.b64
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mbarrier.try_wait.parity
// PTX: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes

// SM80: warning: '#pragma tma_coalesce' does not apply to this copy (cp.async.bulk.tensor needs sm_90 or newer, compiling for sm_80); the block copies it instead
// SM80: .target sm_80
// SM80-NOT: cp.async.bulk.tensor

kda2.kernel @tma_mm(%a: !kda2.tensor<[b, c, 64, 32], bf16>, %w: !kda2.tensor<[b, 32, 64], bf16>,
                     %y: !kda2.tensor<[b, c, 64, 64], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "w", "y"], grid = ["b"]} {
  kda2.gmem %a, %w, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, c, 64, 32], bf16>, !kda2.tensor<[b, 32, 64], bf16>, !kda2.tensor<[b, c, 64, 64], f32>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %sw = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 64], bf16, smem>
  %sy = kda2.smem_alloc size(16384) : !kda2.tensor<[64, 64], f32, smem>
  %n = kda2.dim "c" : index
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.pragma<tma_coalesce>] {
    %tw = kda2.load %w[] : !kda2.tensor<[b, 32, 64], bf16> -> tensor<32x64xbf16>
    kda2.store %tw, %sw[] : tensor<32x64xbf16>, !kda2.tensor<[32, 64], bf16, smem>
  }
  // One chunk past the end too (c + 1 iterations): it must read zeros and
  // write nothing.
  kda2.loop serial %once to %c1 annotations [#kda2.pragma<tma_coalesce>] {
  %n1 = kda2.add %n, %c1 : index, index -> index
  kda2.loop serial %ci to %n1 {
    %ta = kda2.load %a[%ci] : !kda2.tensor<[b, c, 64, 32], bf16> -> tensor<64x32xbf16>
    kda2.store %ta, %sa[] : tensor<64x32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
    %fa = kda2.load %sa[] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<64x32xbf16>
    %fw = kda2.load %sw[] : !kda2.tensor<[32, 64], bf16, smem> -> tensor<32x64xbf16>
    %p = kda2.matmul %fa, %fw : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    kda2.store %p, %sy[] : tensor<64x64xf32>, !kda2.tensor<[64, 64], f32, smem>
    %ty = kda2.load %sy[] : !kda2.tensor<[64, 64], f32, smem> -> tensor<64x64xf32>
    kda2.store %ty, %y[%ci] : tensor<64x64xf32>, !kda2.tensor<[b, c, 64, 64], f32>
  }
  }
}

// Consecutive TMA copies share one barrier, one expect_tx (the sum of their
// bytes: 4096 + 8192) and one wait, so their transfers overlap.
// CHECK-LABEL: gpu.func @tma_group(
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c12288_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NOT: nvvm.mbarrier.try_wait.parity
// CHECK: gpu.return
kda2.kernel @tma_group(%a: !kda2.tensor<[b, 64, 32], bf16>, %x: !kda2.tensor<[b, 64, 32], f32>,
                       %y: !kda2.tensor<[b, 64, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "x", "y"], grid = ["b"]} {
  kda2.gmem %a, %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, 64, 32], bf16>, !kda2.tensor<[b, 64, 32], f32>, !kda2.tensor<[b, 64, 32], f32>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %sx = kda2.smem_alloc size(8192) : !kda2.tensor<[64, 32], f32, smem>
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  kda2.loop serial %i to %c1 annotations [#kda2.pragma<tma_coalesce>] {
    %ta = kda2.load %a[] : !kda2.tensor<[b, 64, 32], bf16> -> tensor<64x32xbf16>
    kda2.store %ta, %sa[] : tensor<64x32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
    %tx = kda2.load %x[] : !kda2.tensor<[b, 64, 32], f32> -> tensor<64x32xf32>
    kda2.store %tx, %sx[] : tensor<64x32xf32>, !kda2.tensor<[64, 32], f32, smem>
    kda2.loop thread %r to %c64 {
      %ra = kda2.load %sa[%r] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<32xbf16>
      %rx = kda2.load %sx[%r] : !kda2.tensor<[64, 32], f32, smem> -> tensor<32xf32>
      %fa = kda2.cast %ra : tensor<32xbf16> -> tensor<32xf32>
      %s = kda2.add %fa, %rx : tensor<32xf32>, tensor<32xf32> -> tensor<32xf32>
      kda2.store %s, %y[%r] : tensor<32xf32>, !kda2.tensor<[b, 64, 32], f32>
    }
  }
}
