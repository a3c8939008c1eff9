// kda2.tri_solve is not lowered.
kda2.kernel @tri_solve(%x: !kda2.tensor<[4, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4, 4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %x[] : !kda2.tensor<[4, 4], f32> -> tensor<4x4xf32>
    // expected-error @below {{'kda2.tri_solve' op is not supported by the GPU lowering yet (write the substitution as loops over a shared buffer)}}
    %t = kda2.tri_solve %a, %a : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  }
  kda2.return
}
