// A modulus without a dimension.
// expected-error @below {{coalescing modulus 32 given without a dimension}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.coalesced_access<modulus = 32>} {
}
