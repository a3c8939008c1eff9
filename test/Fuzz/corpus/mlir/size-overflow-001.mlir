// Dynamic dimensions do not count; the static ones still must fit.
// expected-error @below {{tensor too large: its static dimensions hold more than 2^63 - 1 bits}}
kda2.kernel @gmem(%x: !kda2.tensor<[n, 288230376151711744, 32], f32>) {
  kda2.return
}
