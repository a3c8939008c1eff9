// kda2.target is a string.
// expected-error @below {{'kda2.target' must be a string naming a hardware profile}}
module attributes {kda2.target = 90 : i64} {
}
