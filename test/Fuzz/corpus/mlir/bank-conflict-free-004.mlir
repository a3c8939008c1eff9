// bf16 column: two lanes never share a word, the row pitch of 16 words
// conflicts, a pitch of 33 halves (16.5 words) does not.
// CHECK-LABEL: gpu.func @column_bf16(
// CHECK-SAME: workgroup(%{{.*}} : memref<32x33xbf16, #gpu.address_space<workgroup>>)
kda2.kernel @column_bf16(%y: !kda2.tensor<[32], bf16> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], bf16>
  %s = kda2.smem_alloc size(2048) : !kda2.tensor<[32, 32], bf16, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c32 annotations [#kda2.bank_conflict_free] {
    %v = kda2.load %s[%j, %c0] : !kda2.tensor<[32, 32], bf16, smem> -> bf16
    kda2.store %v, %y[%j] : bf16, !kda2.tensor<[32], bf16>
  }
  kda2.return
}
