// A product of a split=cols tile sums partials across the warps: into an
// mma tile, not memory.
kda2.kernel @mma_split_to_memory(%w: !kda2.tensor<[b, 16, 16], bf16>, %o: !kda2.tensor<[b, 16, 16], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w, %o layout(row_major) packing(none) : !kda2.tensor<[b, 16, 16], bf16>, !kda2.tensor<[b, 16, 16], f32>
  %W = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], bf16, smem>
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 16, 16], bf16> -> tensor<16x16xbf16>
    kda2.store %t, %W[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
    %s = kda2.load %T[] : !kda2.tensor<[16, 16], f32, reg> -> tensor<16x16xf32>
    %sb = kda2.cast %s : tensor<16x16xf32> -> tensor<16x16xbf16>
    %bw = kda2.load %W[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
    // expected-error @below {{'kda2.matmul' op with a split=cols mma tile, the result goes into an mma register tile}}
    %m = kda2.matmul %sb, %bw : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
    kda2.store %m, %o[] : tensor<16x16xf32>, !kda2.tensor<[b, 16, 16], f32>
  }
  kda2.return
}
