// Limits bound windows: one per window, or none.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op has 2 limits for 1 windows (one per window, or none)}}
    %v = kda2.load %x[%i, %i] limits(%c1, %c1) {windows = array<i64: 4, 0>} : !kda2.tensor<[n, 8], f32> -> tensor<4xf32>
  }
}
