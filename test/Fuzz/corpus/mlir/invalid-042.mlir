// kda2.gmem declares kernel arguments only.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %s = kda2.smem_alloc size(16) : !kda2.tensor<[4], f32, smem>
  // expected-error @below {{'kda2.gmem' op operands must be kernel arguments}}
  kda2.gmem %s layout(row_major) packing(none) : !kda2.tensor<[4], f32, smem>
}
