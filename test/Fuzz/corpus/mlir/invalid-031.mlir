// Scalar arguments are inputs.
// expected-error @below {{'kda2.kernel' op scalar argument #1 can only be an input}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>, %s: f32 {kda2.io = #kda2.io<out>}) {
}
