// #pragma tma_coalesce needs TMA hardware (Hopper).
module attributes {kda2.target = "A100-40GB-SXM4"} {
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '#pragma tma_coalesce' needs the tensor memory accelerator, which profile 'A100-40GB-SXM4' (sm_80) lacks}}
  kda2.loop block %i to %c1 annotations [#kda2.pragma<tma_coalesce>] {
  }
}
}
