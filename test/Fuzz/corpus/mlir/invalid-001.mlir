// A dimension name must be a .tirx identifier (MLIR keywords may hold '.').
// expected-error @below {{dimension name 'a.b' is not an identifier}}
kda2.kernel @k(%x: !kda2.tensor<[a.b], f32>) {
}
