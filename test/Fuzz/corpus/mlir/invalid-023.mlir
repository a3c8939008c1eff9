// kda2.io holds a #kda2.io attribute.
// expected-error @below {{'kda2.io' of argument #1 must be #kda2.io<in|out|inout>}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>, %y: !kda2.tensor<[4], f32> {kda2.io = "out"}) {
}
