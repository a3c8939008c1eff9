// Annotations implement the loop-annotation interface.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op expected a loop annotation, got "warp_reduce"}}
  kda2.loop block %i to %c1 annotations ["warp_reduce"] {
  }
}
