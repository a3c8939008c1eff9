// The names follow the metadata's name syntax.
// expected-error @below {{'kda2.bindings' has the bad name '2x' (expected [A-Za-z_$.][A-Za-z0-9_$.]*)}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {kda2.bindings = {"2x" = 1 : i64}} {
}
