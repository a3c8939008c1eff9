// Every value of kda2.bindings is an integer.
// expected-error @below {{'kda2.bindings' entry 'GF' must be an integer, got "sigmoid"}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {kda2.bindings = {BS = 1 : i64, GF = "sigmoid"}} {
}
