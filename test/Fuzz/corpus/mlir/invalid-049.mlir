// kda2.reg_alloc yields a reg tensor.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  // expected-error @below {{'kda2.reg_alloc' op result must be a tensor in reg}}
  %r = kda2.reg_alloc : !kda2.tensor<[4], f32, smem>
}
