// Memory space keyword (custom type parser).
// expected-error @below {{expected memory space gmem, smem or reg, got 'shared'}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32, shared>) {
}
