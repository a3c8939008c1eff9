// A fallback without a condition.
// expected-error @below {{coalescing fallback given without a condition}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.coalesced_access<fallback = scalar>} {
}
