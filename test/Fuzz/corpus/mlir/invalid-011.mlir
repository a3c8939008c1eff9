// Shape hint values strictly increase.
// expected-error @below {{shape hint values for 'n' must be strictly increasing, got 128 after 256}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.shape_hint<"n", [256, 128]>} {
}
