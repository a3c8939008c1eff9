// Tiles are multiples of the 16x8x16 instruction shape.
kda2.kernel @matmul_shape(%y: !kda2.tensor<[8, 8], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[8, 8], f32>
  %s = kda2.smem_alloc size(128) : !kda2.tensor<[8, 8], f16, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[8, 8], f16, smem> -> tensor<8x8xf16>
    %b = kda2.load %s[] : !kda2.tensor<[8, 8], f16, smem> -> tensor<8x8xf16>
    // expected-error @below {{'kda2.matmul' op tensor-core tiles are 16x8x16 (m x n x k): m = 8 must be a multiple of 16, k = 8 of 16, n = 8 of 8}}
    %m = kda2.matmul %a, %b : tensor<8x8xf16>, tensor<8x8xf16> -> tensor<8x8xf32>
    kda2.store %m, %y[] : tensor<8x8xf32>, !kda2.tensor<[8, 8], f32>
  }
  kda2.return
}
