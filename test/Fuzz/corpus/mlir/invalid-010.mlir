// Shape hint values are positive.
// expected-error @below {{shape hint for 'n' has non-positive value 0}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.shape_hint<"n", [0, 128]>} {
}
