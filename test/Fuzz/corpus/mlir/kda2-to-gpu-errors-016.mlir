// Lanes reading every other f32 of a row: lanes l and l + 16 share a bank
// whatever the row pitch, so no padding of the last dimension helps.
kda2.kernel @stride2_last_dim(%y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  // expected-error @below {{'kda2.smem_alloc' op no padding of the last dimension makes every access in the '$bank_conflict_free' loops conflict free}}
  %s = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 64], f32, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  kda2.loop thread %j to %c32 annotations [#kda2.bank_conflict_free] {
    %j2 = kda2.mul %j, %c2 : index, index -> index
    %v = kda2.load %s[%c0, %j2] : !kda2.tensor<[32, 64], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}
