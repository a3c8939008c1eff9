// A register tile used in a lanes(4) loop is split over the 4 lanes: its
// size must be divisible by 4.
kda2.kernel @reg_tile_not_divisible(%x: !kda2.tensor<[8, 6], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[8, 6], f32>
  // expected-error @below {{'kda2.reg_alloc' op a register tile used by a lanes(4) loop must be rank 1 with a size divisible by 4}}
  %r = kda2.reg_alloc : !kda2.tensor<[6], f32, reg>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 lanes(4) annotations [#kda2.coalesced_access<>] {
    %row = kda2.load %x[%j] : !kda2.tensor<[8, 6], f32> -> tensor<6xf32>
    kda2.store %row, %r[] : tensor<6xf32>, !kda2.tensor<[6], f32, reg>
  }
  kda2.return
}
