kda2.kernel @mma_tile_rank(%x: !kda2.tensor<[16, 8], f32>) {
  // expected-error @below {{an mma register tile is a static 2-D f32 tile (a tensor-core accumulator), got}}
  %s = kda2.reg_alloc {mma} : !kda2.tensor<[16], f32, reg>
  kda2.return
}
