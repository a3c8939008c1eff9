// Static sizes are positive.
// expected-error @below {{dimension #1 has non-positive size 0}}
kda2.kernel @k(%x: !kda2.tensor<[4, 0], f32>) {
}
