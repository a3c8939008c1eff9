// So does a kernel-wide pragma.
module attributes {kda2.target = "A100-40GB-SXM4"} {
// expected-error @below {{'kda2.kernel' op '#pragma tma_coalesce' needs the tensor memory accelerator, which profile 'A100-40GB-SXM4' (sm_80) lacks}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
  }
}
}
