//===----------------------------------------------------------------------===//
// Layout declarations
//===----------------------------------------------------------------------===//

// kda2.gmem names at least one tensor.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  // expected-error @below {{'kda2.gmem' op declares no tensor}}
  "kda2.gmem"() <{layout = 0 : i32, packing = 0 : i32}> : () -> ()
}
