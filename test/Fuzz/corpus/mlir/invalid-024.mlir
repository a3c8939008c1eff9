// kda2.stride names an i32 or i64 scalar argument of the kernel.
// expected-error @below {{'kda2.stride' of argument #0 names argument #1, which is not an i32 or i64 scalar}}
kda2.kernel @k(%x: !kda2.tensor<[n, 4], f32> {kda2.stride = 1 : i64}, %s: f32) {
}
