// TMA tile sides in [1, 256].
// expected-error @below {{TMA tile 0x64 must have each side in [1, 256]}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.tma_bound<0 x 64>} {
}
