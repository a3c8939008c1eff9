// A shape hint names a dimension.
// expected-error @below {{shape hint needs a dimension name}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.shape_hint<"", [128]>} {
}
