kda2.kernel @split_on_thread_loop(%x: !kda2.tensor<[16, 8], f32>) {
  %c = arith.constant 128 : index
  // expected-error @below {{split is only valid on a fragment loop}}
  kda2.loop thread %i to %c split(cols) {
  }
  kda2.return
}
