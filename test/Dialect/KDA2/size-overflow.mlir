// RUN: kda2-opt %s --split-input-file --verify-diagnostics
// Sizes are computed in int64_t: a tensor type whose static dimensions hold
// more than 2^63 - 1 bits is rejected where it is written. (Found with the
// UBSan fuzz build of test/Fuzz: the byte size of such a shared buffer
// overflowed int64_t in KDA2TensorType::getStaticSizeInBytes, undefined
// behaviour; such types used to be accepted.)

kda2.kernel @smem(%x: !kda2.tensor<[4], f32>) {
  // expected-error @below {{tensor too large: its static dimensions hold more than 2^63 - 1 bits}}
  %s = kda2.smem_alloc size(4) : !kda2.tensor<[4611686018427387904, 4], f32, smem>
  kda2.return
}

// -----

// Dynamic dimensions do not count; the static ones still must fit.
// expected-error @below {{tensor too large: its static dimensions hold more than 2^63 - 1 bits}}
kda2.kernel @gmem(%x: !kda2.tensor<[n, 288230376151711744, 32], f32>) {
  kda2.return
}

// -----

// Exactly 2^63 - 1 bits fit (i1 elements).
kda2.kernel @largest(%x: !kda2.tensor<[9223372036854775807], i1>,
                     %y: !kda2.tensor<[9223372036854775807], i1> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[9223372036854775807], i1>, !kda2.tensor<[9223372036854775807], i1>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] {
  }
  kda2.return
}

// -----

// expected-error @below {{tensor too large: its static dimensions hold more than 2^63 - 1 bits}}
kda2.kernel @one_bit_more(%x: !kda2.tensor<[9223372036854775807], i8>) {
  kda2.return
}
