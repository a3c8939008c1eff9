// A coalescing condition names a kernel dimension.
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[n], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '@coalesced_access' condition names 'seqlen', which is not a dimension of the kernel}}
  kda2.loop block %i to %c1 annotations [#kda2.coalesced_access<dim = "seqlen", modulus = 32>] {
  }
}
