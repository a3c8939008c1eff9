// $bank_conflict_free needs a shared-memory access.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '$bank_conflict_free' annotates a loop that accesses no shared memory}}
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %v = kda2.load %x[%i] : !kda2.tensor<[4], f32> -> f32
  }
}
