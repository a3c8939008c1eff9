// A thread loop inside a thread loop.
kda2.kernel @nested_thread_loops(%x: !kda2.tensor<[4, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4, 4], f32>
  %c4 = arith.constant 4 : index
  kda2.loop thread %i to %c4 annotations [#kda2.coalesced_access<>] {
    // expected-error @below {{'kda2.loop' op GPU lowering does not support nested thread loops yet}}
    kda2.loop thread %j to %c4 {
      %v = kda2.load %x[%i, %j] : !kda2.tensor<[4, 4], f32> -> f32
    }
  }
  kda2.return
}
