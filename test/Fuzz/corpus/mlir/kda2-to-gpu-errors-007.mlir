// Operands come from shared memory (ldmatrix), not straight from global.
kda2.kernel @matmul_global_operand(%x: !kda2.tensor<[16, 16], f16>, %y: !kda2.tensor<[16, 16], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none) : !kda2.tensor<[16, 16], f16>, !kda2.tensor<[16, 16], f32>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %x[] : !kda2.tensor<[16, 16], f16> -> tensor<16x16xf16>
    // expected-error @below {{'kda2.matmul' op operand a must be a tile loaded from a shared buffer (stage global data through SMEM: the tensor-core path reads fragments with ldmatrix)}}
    %m = kda2.matmul %a, %a : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
    kda2.store %m, %y[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32>
  }
  kda2.return
}
