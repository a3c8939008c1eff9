kda2.kernel @fragment_split_name(%x: !kda2.tensor<[16, 8], f32>) {
  %c = arith.constant 128 : index
  // expected-error @below {{split must be rows, cols, none or gather, got 'diagonal'}}
  kda2.loop fragment %i to %c columns(8) split(diagonal) {
  }
  kda2.return
}
