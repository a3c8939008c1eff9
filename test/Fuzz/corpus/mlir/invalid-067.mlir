// A load yields what its indices select.
kda2.kernel @k(%x: !kda2.tensor<[4, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op expected result type 'tensor<8xf32>' for 1 indices into '!kda2.tensor<[4, 8], f32>', got 'f32'}}
    %v = kda2.load %x[%i] : !kda2.tensor<[4, 8], f32> -> f32
  }
}
