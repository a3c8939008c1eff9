// The byte budget holds the buffer.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  // expected-error @below {{'kda2.smem_alloc' op buffer of 4096 bytes does not fit its declared size of 1024 bytes}}
  %s = kda2.smem_alloc size(1024) : !kda2.tensor<[32, 32], f32, smem>
}
