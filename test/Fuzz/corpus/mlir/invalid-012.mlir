//===----------------------------------------------------------------------===//
// Dialect attributes
//===----------------------------------------------------------------------===//

// kda2.target belongs on a module.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.target' is only valid on a builtin.module}}
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] attributes {kda2.target = "H200-SXM"} {
  }
}
