// (The prefill scan's Sᵀ [VB, K] at VB = 8: fewer rows than one warp's strip.)
kda2.kernel @mma_tile_rows(%x: !kda2.tensor<[16, 8], f32>) {
  // expected-error @below {{an mma register tile is made of 16 x 8 accumulator blocks (one warp per 16-row strip): its rows must be a multiple of 16 and its columns of 8, got 8 x 128}}
  %s = kda2.reg_alloc {mma} : !kda2.tensor<[8, 128], f32, reg>
  kda2.return
}
