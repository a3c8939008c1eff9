// vnni4 packs 8- or 16-bit elements.
kda2.kernel @k(%x: !kda2.tensor<[n, 64], f32>) {
  // expected-error @below {{'kda2.gmem' op vnni4 packing needs 8- or 16-bit elements, argument #0 has 'f32'}}
  kda2.gmem %x layout(row_major) packing(vnni4) : !kda2.tensor<[n, 64], f32>
}
