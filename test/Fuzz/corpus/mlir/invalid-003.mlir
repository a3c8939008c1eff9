// On-chip tensors are static.
// expected-error @below {{a tensor in smem must have a static shape}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32, smem>) {
}
