// kda2.bindings (the integer --tirx-bind values a kernel was built with)
// belongs on a kda2.kernel.
// expected-error @below {{'kda2.bindings' is only valid on a kda2.kernel}}
module attributes {kda2.bindings = {GF = 2 : i64}} {
}
