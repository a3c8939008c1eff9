//===----------------------------------------------------------------------===//
// kda2.loop
//===----------------------------------------------------------------------===//

// Loop mapping keyword (custom parser).
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{expected loop mapping block, warp, thread, serial, fragment or ahead, got 'grid'}}
  kda2.loop grid %i to %c1 {
  }
}
