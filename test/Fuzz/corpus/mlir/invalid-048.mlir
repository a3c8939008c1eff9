// The byte budget fits the profile's shared memory per block.
module attributes {kda2.target = "A100-40GB-SXM4"} {
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  // expected-error @below {{'kda2.smem_alloc' op size of 196608 bytes exceeds the shared memory per block of profile 'A100-40GB-SXM4' (166912 bytes)}}
  %s = kda2.smem_alloc size(196608) : !kda2.tensor<[32, 32], f32, smem>
}
}
