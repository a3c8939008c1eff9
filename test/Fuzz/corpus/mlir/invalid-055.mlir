// An annotation appears once per loop.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op annotation '$bank_conflict_free' appears more than once on the loop}}
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free, #kda2.bank_conflict_free] {
  }
}
