// A row access (consecutive words) is already conflict free: no padding.
// CHECK-LABEL: gpu.func @row_f32(
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<32x32xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: memref.load %[[SMEM]][%{{.*}}, %[[TID]]] : memref<32x32xf32, #gpu.address_space<workgroup>>
kda2.kernel @row_f32(%y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  %s = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 32], f32, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c32 annotations [#kda2.bank_conflict_free] {
    %v = kda2.load %s[%c0, %j] : !kda2.tensor<[32, 32], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}
