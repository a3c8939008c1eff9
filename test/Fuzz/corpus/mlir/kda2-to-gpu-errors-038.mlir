// A split=cols tile takes whole 8-column blocks per warp (here four warps,
// for the 128-thread loop).
kda2.kernel @mma_cols_over_warps(%x: !kda2.tensor<[b, 128], f32>, %o: !kda2.tensor<[b, 16, 16], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %x, %o layout(row_major) packing(none) : !kda2.tensor<[b, 128], f32>, !kda2.tensor<[b, 16, 16], f32>
  // expected-error @below {{'kda2.reg_alloc' op mma register tile [16, 16] does not split by columns over the block's 4 warps: its columns must be a multiple of 8 per warp (32) and its rows of 16}}
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %c128 = arith.constant 128 : index
    kda2.loop thread %t to %c128 {
      %v = kda2.load %x[%t] : !kda2.tensor<[b, 128], f32> -> f32
      kda2.store %v, %o[%t, %t] : f32, !kda2.tensor<[b, 16, 16], f32>
    }
  }
  kda2.return
}
