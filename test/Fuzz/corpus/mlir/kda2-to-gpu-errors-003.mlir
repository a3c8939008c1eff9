// The block size is static: a thread loop over a named size is rejected.
kda2.kernel @dynamic_thread_extent(%x: !kda2.tensor<[n], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[n], f32>
  %n = kda2.dim "n" : index
  // expected-error @below {{'kda2.loop' op thread loop extent must be a constant for the GPU lowering}}
  kda2.loop thread %j to %n annotations [#kda2.coalesced_access<dim = "n", modulus = 32>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[n], f32> -> f32
  }
  kda2.return
}
