// Under $bank_conflict_free the index must be affine in the thread variable.
kda2.kernel @non_affine_shared_index(%y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  %s = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 32], f32, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c32 annotations [#kda2.bank_conflict_free] {
    %jj = kda2.mul %j, %j : index, index -> index
    // expected-error @below {{'kda2.load' op index is not an affine function of the thread variable; '$bank_conflict_free' cannot be proven}}
    %v = kda2.load %s[%jj, %c0] : !kda2.tensor<[32, 32], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}
