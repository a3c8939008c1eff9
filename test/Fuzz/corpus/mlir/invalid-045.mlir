// vnni4 packs groups of 4 along the physical innermost dimension (VK swaps
// the last two: here the 6).
kda2.kernel @k(%x: !kda2.tensor<[6, 8], bf16>) {
  // expected-error @below {{'kda2.gmem' op vnni4 packing needs the innermost dimension of argument #0 to be a multiple of 4, got 6}}
  kda2.gmem %x layout(VK) packing(vnni4) : !kda2.tensor<[6, 8], bf16>
}
