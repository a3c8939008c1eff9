// expected-error @below {{'kda2.stride' on argument #1: only a tensor has a stride}}
kda2.kernel @k(%x: !kda2.tensor<[n, 4], f32>, %s: i64 {kda2.stride = 1 : i64}) {
}
