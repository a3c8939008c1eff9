// No coarser loop inside a finer one.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop thread %i to %c1 {
    // expected-error @below {{'kda2.loop' op a block loop cannot be nested inside a thread loop}}
    kda2.loop block %j to %c1 {
    }
  }
}
