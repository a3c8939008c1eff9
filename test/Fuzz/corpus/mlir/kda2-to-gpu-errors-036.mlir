// A split=none left operand (every warp all rows) cannot give a split=rows
// result over four warps (S: four 16-row strips).
kda2.kernel @mma_split_none_to_rows(%w: !kda2.tensor<[b, 16, 16], bf16>) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w layout(row_major) packing(none) : !kda2.tensor<[b, 16, 16], bf16>
  %W = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], bf16, smem>
  %S = kda2.reg_alloc {mma} : !kda2.tensor<[64, 16], f32, reg>
  %N = kda2.reg_alloc {mma, split = "none"} : !kda2.tensor<[64, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 16, 16], bf16> -> tensor<16x16xbf16>
    kda2.store %t, %W[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
    %n = kda2.load %N[] : !kda2.tensor<[64, 16], f32, reg> -> tensor<64x16xf32>
    %nb = kda2.cast %n : tensor<64x16xf32> -> tensor<64x16xbf16>
    %bw = kda2.load %W[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
    // expected-error @below {{'kda2.matmul' op a split=none left operand gives every warp all of its rows: the result must be split=cols or none, not split=rows}}
    %m = kda2.matmul %nb, %bw : tensor<64x16xbf16>, tensor<16x16xbf16> -> tensor<64x16xf32>
    kda2.store %m, %S[] : tensor<64x16xf32>, !kda2.tensor<[64, 16], f32, reg>
  }
  kda2.return
}
