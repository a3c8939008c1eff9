// A block loop nested in a (top-level) serial loop.
kda2.kernel @nested_block_loop(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  kda2.loop serial %s to %c2 {
    // expected-error @below {{'kda2.loop' op GPU lowering supports block loops only at the top level of a kernel}}
    kda2.loop block %i to %c4 annotations [#kda2.coalesced_access<>] {
      %v = kda2.load %x[%i] : !kda2.tensor<[4], f32> -> f32
    }
  }
  kda2.return
}
