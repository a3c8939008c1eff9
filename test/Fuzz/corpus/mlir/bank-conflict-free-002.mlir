// The same column access without the annotation: the buffer keeps its shape.
// CHECK-LABEL: gpu.func @column_f32_unannotated(
// CHECK-SAME: workgroup(%{{.*}} : memref<32x32xf32, #gpu.address_space<workgroup>>)
kda2.kernel @column_f32_unannotated(%y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  %s = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 32], f32, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %s[%j, %c0] : !kda2.tensor<[32, 32], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}
