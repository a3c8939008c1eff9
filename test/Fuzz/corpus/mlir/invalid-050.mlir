// kda2.dim names a dimension of a kernel argument.
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) {
  // expected-error @below {{'kda2.dim' op 'm' is not a dimension of the enclosing kernel}}
  %m = kda2.dim "m" : index
}
