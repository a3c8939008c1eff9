// expected-error @below {{tensor too large: its static dimensions hold more than 2^63 - 1 bits}}
kda2.kernel @one_bit_more(%x: !kda2.tensor<[9223372036854775807], i8>) {
  kda2.return
}
