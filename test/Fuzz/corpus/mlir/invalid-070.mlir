// At least one window, none negative.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op window sizes must be >= 0 with at least one window (0: an index)}}
    %v = kda2.load %x[%i] {windows = array<i64: 0>} : !kda2.tensor<[n, 8], f32> -> tensor<8xf32>
  }
}
