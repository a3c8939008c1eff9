// Contracting over a split=cols tile takes 16 of its columns per warp:
// T's 32 columns are four blocks of 8 (four warps), one k step for two.
kda2.kernel @mma_split_k(%w: !kda2.tensor<[b, 16, 32], bf16>) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w layout(row_major) packing(none) : !kda2.tensor<[b, 16, 32], bf16>
  %W = kda2.smem_alloc size(1024) : !kda2.tensor<[16, 32], bf16, smem>
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 32], f32, reg>
  %U = kda2.reg_alloc {mma, split = "none"} : !kda2.tensor<[16, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 16, 32], bf16> -> tensor<16x32xbf16>
    kda2.store %t, %W[] : tensor<16x32xbf16>, !kda2.tensor<[16, 32], bf16, smem>
    %s = kda2.load %T[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
    %sb = kda2.cast %s : tensor<16x32xf32> -> tensor<16x32xbf16>
    %bw = kda2.load %W[] : !kda2.tensor<[16, 32], bf16, smem> -> tensor<16x32xbf16>
    // expected-error @below {{'kda2.matmul' op contracts over the 32 columns of a split=cols mma tile: the block's 4 warps need 16 of them each (a multiple of 64)}}
    %m = kda2.matmul %sb, %bw {transpose_b} : tensor<16x32xbf16>, tensor<16x32xbf16> -> tensor<16x16xf32>
    kda2.store %m, %U[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32, reg>
  }
  kda2.return
}
