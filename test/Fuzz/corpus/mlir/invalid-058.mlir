// The padded buffer fits the profile: 41728 f32 = 166912 bytes fit A100
// exactly; one bank word of padding does not.
module attributes {kda2.target = "A100-40GB-SXM4"} {
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %s = kda2.smem_alloc size(166912) : !kda2.tensor<[41728], f32, smem>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '$bank_conflict_free' buffer of 166912 bytes (166916 with conflict-free padding) exceeds the shared memory per block of profile 'A100-40GB-SXM4' (166912 bytes)}}
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %v = kda2.load %s[%i] : !kda2.tensor<[41728], f32, smem> -> f32
  }
}
}
