// #pragma wgmma needs the warpgroup instructions of sm_90a.
module attributes {kda2.target = "A100-40GB-SXM4"} {
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '#pragma wgmma' needs the warpgroup tensor-core instructions of sm_90a, which profile 'A100-40GB-SXM4' (sm_80) lacks}}
  kda2.loop block %i to %c1 annotations [#kda2.pragma<wgmma>] {
  }
}
}
