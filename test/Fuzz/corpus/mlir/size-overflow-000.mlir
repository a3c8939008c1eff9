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
