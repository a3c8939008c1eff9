// A float is not an integer binding.
// expected-error @below {{'kda2.bindings' entry 'LB' must be an integer, got 5.000000e+00 : f32}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {kda2.bindings = {LB = 5.0 : f32}} {
}
