// The values fit the metadata's int64.
// expected-error @below {{'kda2.bindings' entry 'N' does not fit in 64 bits}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {kda2.bindings = {N = 18446744073709551616 : i128}} {
}
