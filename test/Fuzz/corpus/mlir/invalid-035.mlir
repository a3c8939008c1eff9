// One kda2.gmem per argument.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  // expected-error @below {{'kda2.gmem' op argument #0 is declared by more than one kda2.gmem}}
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] {
  }
}
