// @producer_warp needs the loop in the kernel's uniform code under block
// loops only (the extra warp replays what leads to it): inside a serial
// loop, the block issues the copies itself (one warp, no empty barriers).
// CHECK-LABEL: gpu.func @nested_producer(
// CHECK-SAME: known_block_size = array<i32: 32, 1, 1>
// CHECK-COUNT-3: nvvm.mbarrier.init
// CHECK-NOT: nvvm.mbarrier.init
kda2.kernel @nested_producer(%a: !kda2.tensor<[b, c, 64, 32], bf16>,
                             %y: !kda2.tensor<[b, c, 64, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "y"], grid = ["b"]} {
  kda2.gmem %a, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, c, 64, 32], bf16>, !kda2.tensor<[b, c, 64, 32], f32>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %n = kda2.dim "c" : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  kda2.loop serial %o to %c2 {
    // expected-warning @below {{'@producer_warp' does not apply (the loop is not in the kernel's uniform code under block loops only); the block's threads issue the copies}}
    kda2.loop serial %ci to %n annotations [#kda2.pragma<tma_coalesce>, #kda2.pragma<tma_pipeline>, #kda2.producer_warp] {
      %t = kda2.load %a[%ci] : !kda2.tensor<[b, c, 64, 32], bf16> -> tensor<64x32xbf16>
      kda2.store %t, %sa[] : tensor<64x32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
      kda2.loop thread %r to %c32 {
        %row = kda2.load %sa[%r] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<32xbf16>
        %f = kda2.cast %row : tensor<32xbf16> -> tensor<32xf32>
        kda2.store %f, %y[%ci, %r] : tensor<32xf32>, !kda2.tensor<[b, c, 64, 32], f32>
      }
    }
  }
}
