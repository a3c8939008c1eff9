// The TMA tile fits the profile's bound (A100: 64x64).
module attributes {kda2.target = "A100-40GB-SXM4"} {
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '@tma_bound' tile 128x128 exceeds the maximum TMA tile 64x64 of profile 'A100-40GB-SXM4'}}
  kda2.loop block %i to %c1 annotations [#kda2.tma_bound<128 x 128>] {
  }
}
}
