// A shape hint names a dynamic dimension of the kernel.
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[n], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '@shape_hint' names 'seqlen', which is not a dynamic dimension of the kernel}}
  kda2.loop block %i to %c1 annotations [#kda2.shape_hint<"seqlen", [128, 256]>] {
  }
}
