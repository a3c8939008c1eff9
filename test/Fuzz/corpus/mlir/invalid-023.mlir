// Each grid dimension leads some argument.
// expected-error @below {{'kda2.kernel' op grid dimension 'batch' does not lead any argument}}
kda2.kernel @k(%x: !kda2.tensor<[n, batch], f32>, %y: !kda2.tensor<[n], f32>) attributes {grid = ["batch"]} {
}
