// Other kda2.* argument attributes are rejected.
// expected-error @below {{unknown kda2 argument attribute 'kda2.direction'}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32> {kda2.direction = "out"}) {
}
