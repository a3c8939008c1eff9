// TF32 products step k by 8 (m16n8k8).
kda2.kernel @matmul_tf32_shape(%y: !kda2.tensor<[16, 8], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[16, 8], f32>
  %s = kda2.smem_alloc size(256) : !kda2.tensor<[16, 4], f32, smem>
  %t = kda2.smem_alloc size(128) : !kda2.tensor<[4, 8], f32, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[16, 4], f32, smem> -> tensor<16x4xf32>
    %b = kda2.load %t[] : !kda2.tensor<[4, 8], f32, smem> -> tensor<4x8xf32>
    // expected-error @below {{'kda2.matmul' op tensor-core tiles are 16x8x8 (m x n x k): m = 16 must be a multiple of 16, k = 4 of 8, n = 8 of 8}}
    %m = kda2.matmul %a, %b : tensor<16x4xf32>, tensor<4x8xf32> -> tensor<16x8xf32>
    kda2.store %m, %y[] : tensor<16x8xf32>, !kda2.tensor<[16, 8], f32>
  }
  kda2.return
}
