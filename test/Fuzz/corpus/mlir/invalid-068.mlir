// A windowed load: one size per index.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op has 1 window sizes for 2 indices}}
    %v = kda2.load %x[%i, %i] {windows = array<i64: 4>} : !kda2.tensor<[n, 8], f32> -> tensor<4xf32>
  }
}
