// The tile is the windows, then the dimensions after the indices.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op expected result type 'tensor<4x8xf32>' for windows [4] into '!kda2.tensor<[n, 8], f32>', got 'tensor<8x4xf32>'}}
    %v = kda2.load %x[%i] {windows = array<i64: 4>} : !kda2.tensor<[n, 8], f32> -> tensor<8x4xf32>
  }
}
