// All shared buffers together fit the profile (A100: 163 KB = 166912 bytes).
module attributes {kda2.target = "A100-40GB-SXM4"} {
// expected-error @below {{'kda2.kernel' op shared buffers total 196608 bytes, more than the shared memory per block of profile 'A100-40GB-SXM4' (166912 bytes)}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %a = kda2.smem_alloc size(98304) : !kda2.tensor<[32, 32], f32, smem>
  %b = kda2.smem_alloc size(98304) : !kda2.tensor<[32, 32], f32, smem>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] {
  }
}
}
