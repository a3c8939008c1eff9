//===----------------------------------------------------------------------===//
// kda2.load / kda2.store
//===----------------------------------------------------------------------===//

// Indices address the dimensions after the grid.
kda2.kernel @k(%x: !kda2.tensor<[b, n], f32>) attributes {grid = ["b"]} {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op has 2 indices but '!kda2.tensor<[b, n], f32>' has only 1 addressable dimensions}}
    %v = kda2.load %x[%i, %i] : !kda2.tensor<[b, n], f32> -> f32
  }
}
