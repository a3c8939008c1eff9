// Ready flags: the block meets at a signal (its stores, then the flag), so
// every thread must reach it: not in a thread loop. Likewise a wait outside
// a pipelined loop's top level.
kda2.kernel @signal_in_thread_loop(%x: !kda2.tensor<[n, 64], f32>, %y: !kda2.tensor<[n, 64], f32> {kda2.io = #kda2.io<out>}, %ready: !kda2.tensor<[n], i32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y, %ready layout(row_major) packing(none) : !kda2.tensor<[n, 64], f32>, !kda2.tensor<[n, 64], f32>, !kda2.tensor<[n], i32>
  %n = kda2.dim "n" : index
  %c64 = arith.constant 64 : index
  kda2.loop block %i to %n {
    kda2.loop thread %t to %c64 annotations [#kda2.coalesced_access<>] {
      %v = kda2.load %x[%i, %t] : !kda2.tensor<[n, 64], f32> -> f32
      kda2.store %v, %y[%i, %t] : f32, !kda2.tensor<[n, 64], f32>
      // expected-error @below {{'kda2.signal' op must be reached by every thread of the block (uniform code), not inside a thread loop}}
      kda2.signal %ready[%i] : !kda2.tensor<[n], i32>
    }
  }
  kda2.return
}
