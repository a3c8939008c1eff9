// Resource limit: a tile each thread holds stays within 4096 elements.
kda2.kernel @huge_thread_tile(%x: !kda2.tensor<[n, 128, 128], f32>, %y: !kda2.tensor<[n, 128], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["n"]} {
  kda2.gmem %x, %y layout(row_major) packing(none) : !kda2.tensor<[n, 128, 128], f32>, !kda2.tensor<[n, 128], f32>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    // expected-error @below {{'kda2.load' op makes each thread hold a tile of 16384 elements (the limit is 4096): split it over lanes (schedule.thread(n, P)), stage it in shared memory, or multiply it on tensor cores}}
    %t = kda2.load %x[] : !kda2.tensor<[n, 128, 128], f32> -> tensor<128x128xf32>
    %r = kda2.reduce sum %t {axis = 1 : i64} : tensor<128x128xf32> -> tensor<128xf32>
    kda2.store %r, %y[] : tensor<128xf32>, !kda2.tensor<[n, 128], f32>
  }
  kda2.return
}
