// The partial sums live in static shared memory, or in dynamic shared
// memory after the buffers when larger than static memory holds; four
// warps' [16, 512] partials, twice (the halves successive reductions take
// in turn), are 262144 bytes, more than a block may hold.
kda2.kernel @mma_split_scratch(%w: !kda2.tensor<[b, 512, 64], bf16>) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w layout(row_major) packing(none) : !kda2.tensor<[b, 512, 64], bf16>
  %W = kda2.smem_alloc size(65536) : !kda2.tensor<[512, 64], bf16, smem>
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 64], f32, reg>
  %U = kda2.reg_alloc {mma, split = "none"} : !kda2.tensor<[16, 512], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 512, 64], bf16> -> tensor<512x64xbf16>
    kda2.store %t, %W[] : tensor<512x64xbf16>, !kda2.tensor<[512, 64], bf16, smem>
    %s = kda2.load %T[] : !kda2.tensor<[16, 64], f32, reg> -> tensor<16x64xf32>
    %sb = kda2.cast %s : tensor<16x64xf32> -> tensor<16x64xbf16>
    %bw = kda2.load %W[] : !kda2.tensor<[512, 64], bf16, smem> -> tensor<512x64xbf16>
    // expected-error @below {{'kda2.matmul' op the partial sums of the products that contract over split=cols tiles need 262144 bytes of shared memory (two halves of W·M·N floats for the largest reduction), more than the 232448 a block may hold on sm_90a; split smaller products}}
    %m = kda2.matmul %sb, %bw {transpose_b} : tensor<16x64xbf16>, tensor<512x64xbf16> -> tensor<16x512xf32>
    kda2.store %m, %U[] : tensor<16x512xf32>, !kda2.tensor<[16, 512], f32, reg>
  }
  kda2.return
}
