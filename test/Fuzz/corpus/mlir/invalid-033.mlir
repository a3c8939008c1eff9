// Each grid dimension is a dimension of some argument.
// expected-error @below {{'kda2.kernel' op grid dimension 'batch' is not a dimension of any argument (the launch could not know its size)}}
kda2.kernel @k(%x: !kda2.tensor<[n, m], f32>, %y: !kda2.tensor<[n], f32>) attributes {grid = ["batch"]} {
}
