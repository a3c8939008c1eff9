// Limits without windows.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op has 1 limits but no windows; limits bound windows}}
    %v = kda2.load %x[%i] limits(%c1) : !kda2.tensor<[n, 8], f32> -> tensor<8xf32>
  }
}
