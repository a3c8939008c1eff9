// A kernel has a constraint annotation.
// expected-error @below {{'kda2.kernel' op has no constraint annotation}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
  }
}
