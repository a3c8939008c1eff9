// Arguments live in global memory.
// expected-error @below {{'kda2.kernel' op argument #0 must live in gmem, got smem}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32, smem>) {
}
