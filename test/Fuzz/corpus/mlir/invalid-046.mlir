// kda2.smem_alloc yields an smem tensor.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  // expected-error @below {{'kda2.smem_alloc' op result must be a tensor in smem}}
  %s = kda2.smem_alloc size(16) : !kda2.tensor<[4], f32, reg>
}
