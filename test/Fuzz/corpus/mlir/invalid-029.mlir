// Kernels return nothing.
// expected-error @below {{'kda2.kernel' op kernels return no values; outputs are arguments marked {kda2.io = #kda2.io<out>}}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) -> !kda2.tensor<[4], f32> {
}
