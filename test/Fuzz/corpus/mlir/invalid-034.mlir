// Computation lives inside schedule loops.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c = arith.constant 1.0 : f32
  // expected-error @below {{'kda2.exp' op is outside a schedule loop; a kernel body holds only layout declarations, schedule loops, named sizes and constants}}
  %e = kda2.exp %c : f32
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] {
  }
}
