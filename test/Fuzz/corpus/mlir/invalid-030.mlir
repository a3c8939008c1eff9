// Arguments are kda2 tensors or integer/float scalars.
// expected-error @below {{'kda2.kernel' op argument #1 must be a !kda2.tensor or a scalar, got 'index'}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>, %n: index) {
}
