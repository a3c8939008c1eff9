kda2.kernel @wait_in_thread_loop(%x: !kda2.tensor<[n, 64], f32>, %ready: !kda2.tensor<[n], i32>, %y: !kda2.tensor<[n, 64], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y, %ready layout(row_major) packing(none) : !kda2.tensor<[n, 64], f32>, !kda2.tensor<[n, 64], f32>, !kda2.tensor<[n], i32>
  %n = kda2.dim "n" : index
  %c64 = arith.constant 64 : index
  kda2.loop block %i to %n {
    kda2.loop thread %t to %c64 annotations [#kda2.coalesced_access<>] {
      // expected-error @below {{'kda2.wait' op must be reached by every thread of the block (uniform code), not inside a thread loop}}
      kda2.wait %ready[%i] : !kda2.tensor<[n], i32>
      %v = kda2.load %x[%i, %t] : !kda2.tensor<[n, 64], f32> -> f32
      kda2.store %v, %y[%i, %t] : f32, !kda2.tensor<[n, 64], f32>
    }
  }
  kda2.return
}
