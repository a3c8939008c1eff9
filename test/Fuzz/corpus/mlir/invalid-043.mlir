// A layout fits the argument's rank.
kda2.kernel @k(%x: !kda2.tensor<[b, h, s], f16>) {
  // expected-error @below {{'kda2.gmem' op layout BSHD does not apply to rank-3 argument #0}}
  kda2.gmem %x layout(BSHD) packing(none) : !kda2.tensor<[b, h, s], f16>
}
