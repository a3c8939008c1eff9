// The thread variable plus a constant in a middle dimension of a rank-3
// buffer: the pitch of that dimension is the padded last dimension.
// CHECK-LABEL: gpu.func @column_rank3(
// CHECK-SAME: workgroup(%{{.*}} : memref<2x32x33xf32, #gpu.address_space<workgroup>>)
kda2.kernel @column_rank3(%y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  %s = kda2.smem_alloc size(8192) : !kda2.tensor<[2, 32, 32], f32, smem>
  %c31 = arith.constant 31 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c31 annotations [#kda2.bank_conflict_free] {
    %j1 = kda2.add %j, %c1 : index, index -> index
    %v = kda2.load %s[%c1, %j1, %c0] : !kda2.tensor<[2, 32, 32], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}
