// The accumulator and the result of a product share their split.
kda2.kernel @mma_split_acc(%w: !kda2.tensor<[b, 16, 16], bf16>) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w layout(row_major) packing(none) : !kda2.tensor<[b, 16, 16], bf16>
  %W = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], bf16, smem>
  %S = kda2.reg_alloc {mma} : !kda2.tensor<[16, 16], f32, reg>
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 16, 16], bf16> -> tensor<16x16xbf16>
    kda2.store %t, %W[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
    %a = kda2.load %W[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
    %bw = kda2.load %W[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
    %acc = kda2.load %T[] : !kda2.tensor<[16, 16], f32, reg> -> tensor<16x16xf32>
    // expected-error @below {{'kda2.matmul' op accumulates a split=cols mma tile into a split=rows one: the accumulator and the result must share their split}}
    %m = kda2.matmul %a, %bw acc(%acc) : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32> -> tensor<16x16xf32>
    kda2.store %m, %S[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32, reg>
  }
  kda2.return
}
