//===----------------------------------------------------------------------===//
// Loop annotations on their loop
//===----------------------------------------------------------------------===//

// @warp_reduce needs a reduction.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '@warp_reduce' annotates a loop that contains no reduction}}
  kda2.loop block %i to %c1 annotations [#kda2.warp_reduce] {
  }
}
