// f64 operands have no mma.sync shape here (f32 ones run in TF32).
kda2.kernel @matmul_f64(%y: !kda2.tensor<[16, 16], f64> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[16, 16], f64>
  %s = kda2.smem_alloc size(2048) : !kda2.tensor<[16, 16], f64, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[16, 16], f64, smem> -> tensor<16x16xf64>
    // expected-error @below {{'kda2.matmul' op tensor-core lowering needs f16, bf16 or f32 (TF32) operands of one type and an f32 result, got 'tensor<16x16xf64>', 'tensor<16x16xf64>' -> 'tensor<16x16xf64>'}}
    %m = kda2.matmul %a, %a : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    kda2.store %m, %y[] : tensor<16x16xf64>, !kda2.tensor<[16, 16], f64>
  }
  kda2.return
}
