kda2.kernel @columns_on_thread_loop(%x: !kda2.tensor<[16, 8], f32>) {
  %c = arith.constant 128 : index
  // expected-error @below {{columns are only valid on a fragment loop}}
  kda2.loop thread %i to %c columns(8) {
  }
  kda2.return
}
