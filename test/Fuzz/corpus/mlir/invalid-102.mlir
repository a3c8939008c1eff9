kda2.kernel @fragment_without_columns(%x: !kda2.tensor<[16, 8], f32>) {
  %c = arith.constant 128 : index
  // expected-error @below {{a fragment loop needs its tile's column count (columns)}}
  kda2.loop fragment %i to %c {
  }
  kda2.return
}
