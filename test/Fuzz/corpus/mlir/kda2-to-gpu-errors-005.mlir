// Warp loops have no GPU mapping yet.
kda2.kernel @warp_loop(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c4 = arith.constant 4 : index
  // expected-error @below {{'kda2.loop' op GPU lowering does not support warp loops yet}}
  kda2.loop warp %w to %c4 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%w] : !kda2.tensor<[4], f32> -> f32
  }
  kda2.return
}
