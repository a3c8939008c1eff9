// A window fits a static dimension.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op window of 16 along dimension 1 of '!kda2.tensor<[n, 8], f32>', which has 8}}
    %v = kda2.load %x[%i, %i] {windows = array<i64: 0, 16>} : !kda2.tensor<[n, 8], f32> -> tensor<16xf32>
  }
}
