// expected-error @below {{'kda2.stride' of argument #0 must be an integer (the index of the parameter holding the stride) on a kda2.kernel argument}}
kda2.kernel @k(%x: !kda2.tensor<[n, 4], f32> {kda2.stride = "s"}, %s: i64) {
}
