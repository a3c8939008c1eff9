// kda2.bindings is a dictionary.
// expected-error @below {{'kda2.bindings' must be a dictionary of integers (name -> i64)}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {kda2.bindings = [2]} {
}
