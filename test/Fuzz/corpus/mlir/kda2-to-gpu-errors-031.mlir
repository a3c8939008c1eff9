// The tile's 16-row strips must split evenly over the block's warps (here
// four, for the 128-thread loop).
kda2.kernel @mma_rows_over_warps(%x: !kda2.tensor<[b, 128], f32>, %o: !kda2.tensor<[b, 16, 8], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %x, %o layout(row_major) packing(none) : !kda2.tensor<[b, 128], f32>, !kda2.tensor<[b, 16, 8], f32>
  // expected-error @below {{'kda2.reg_alloc' op mma register tile [16, 8] does not split over the block's 4 warps: its rows must be a multiple of 16 per warp (64) and its columns of 8}}
  %S = kda2.reg_alloc {mma} : !kda2.tensor<[16, 8], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %c128 = arith.constant 128 : index
    kda2.loop thread %t to %c128 {
      %v = kda2.load %x[%t] : !kda2.tensor<[b, 128], f32> -> f32
      kda2.store %v, %o[%t, %t] : f32, !kda2.tensor<[b, 16, 8], f32>
    }
    kda2.loop fragment %e to %c128 columns(8) {
      %c8 = arith.constant 8 : index
      %r = kda2.div %e, %c8 : index, index -> index
      %c = kda2.rem %e, %c8 : index, index -> index
      %v = kda2.load %S[%r, %c] : !kda2.tensor<[16, 8], f32, reg> -> f32
      kda2.store %v, %o[%r, %c] : f32, !kda2.tensor<[b, 16, 8], f32>
    }
  }
  kda2.return
}
