// The same for a rank-2 register tile.
kda2.kernel @reg_tile_rank2(%x: !kda2.tensor<[8, 2, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[8, 2, 4], f32>
  // expected-error @below {{'kda2.reg_alloc' op a register tile used by a lanes(2) loop must be rank 1 with a size divisible by 2}}
  %r = kda2.reg_alloc : !kda2.tensor<[2, 4], f32, reg>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 lanes(2) annotations [#kda2.coalesced_access<>] {
    %t = kda2.load %x[%j] : !kda2.tensor<[8, 2, 4], f32> -> tensor<2x4xf32>
    kda2.store %t, %r[] : tensor<2x4xf32>, !kda2.tensor<[2, 4], f32, reg>
  }
  kda2.return
}
