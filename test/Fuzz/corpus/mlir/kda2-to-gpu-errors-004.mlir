// 512 iterations on 4 lanes each need 2048 threads.
kda2.kernel @too_many_threads(%x: !kda2.tensor<[512], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[512], f32>
  %c512 = arith.constant 512 : index
  // expected-error @below {{'kda2.loop' op thread loop needs 2048 threads, more than 1024 per block}}
  kda2.loop thread %j to %c512 lanes(4) annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[512], f32> -> f32
  }
  kda2.return
}
