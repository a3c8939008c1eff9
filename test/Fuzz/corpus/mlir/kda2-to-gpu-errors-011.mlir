// The result is written fragment by fragment: one store, nothing else.
kda2.kernel @matmul_result_used(%y: !kda2.tensor<[16, 16], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[16, 16], f32>
  %s = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], f16, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[16, 16], f16, smem> -> tensor<16x16xf16>
    %b = kda2.load %s[] : !kda2.tensor<[16, 16], f16, smem> -> tensor<16x16xf16>
    // expected-error @below {{'kda2.matmul' op result must have exactly one use, a kda2.store of the whole tile (the tensor-core path writes it fragment by fragment)}}
    %m = kda2.matmul %a, %b : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
    %e = kda2.exp %m : tensor<16x16xf32>
    kda2.store %e, %y[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32>
  }
  kda2.return
}
