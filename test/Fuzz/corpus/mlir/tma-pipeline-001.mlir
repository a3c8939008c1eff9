// A destination that the loop also writes cannot be staged.
kda2.kernel @written(%a: !kda2.tensor<[b, c, 64, 32], bf16>,
                     %y: !kda2.tensor<[b, c, 64, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "y"], grid = ["b"]} {
  kda2.gmem %a, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, c, 64, 32], bf16>, !kda2.tensor<[b, c, 64, 32], f32>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %n = kda2.dim "c" : index
  %c64 = arith.constant 64 : index
  // expected-warning @below {{'#pragma tma_pipeline' does not apply (a destination buffer is also written in the loop); the copies wait where they are}}
  kda2.loop serial %ci to %n annotations [#kda2.pragma<tma_coalesce>, #kda2.pragma<tma_pipeline>] {
    %t = kda2.load %a[%ci] : !kda2.tensor<[b, c, 64, 32], bf16> -> tensor<64x32xbf16>
    kda2.store %t, %sa[] : tensor<64x32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
    kda2.loop thread %r to %c64 {
      %row = kda2.load %sa[%r] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<32xbf16>
      kda2.store %row, %sa[%r] : tensor<32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
      %f = kda2.cast %row : tensor<32xbf16> -> tensor<32xf32>
      kda2.store %f, %y[%ci, %r] : tensor<32xf32>, !kda2.tensor<[b, c, 64, 32], f32>
    }
  }
}
