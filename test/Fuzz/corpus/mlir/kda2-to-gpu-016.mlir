// Uniform code (outside thread loops) runs on every thread; its global and
// shared stores are made by thread 0, and a barrier separates a shared store
// from the reads of it.
// CHECK-LABEL: gpu.func @uniform_store(
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[T0:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[T0]] {
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[BX]]] : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[G0:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : index
// CHECK: scf.if %[[G0]] {
// CHECK: llvm.store
// CHECK-NEXT: {{^ *}}}
kda2.kernel @uniform_store(%x: !kda2.tensor<[4], f32>,
                           %y: !kda2.tensor<[4], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[4], f32>, !kda2.tensor<[4], f32>
  %s = kda2.smem_alloc size(16) : !kda2.tensor<[4], f32, smem>
  %c4 = arith.constant 4 : index
  kda2.loop block %i to %c4 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%i] : !kda2.tensor<[4], f32> -> f32
    kda2.store %v, %s[%i] : f32, !kda2.tensor<[4], f32, smem>
    %w = kda2.load %s[%i] : !kda2.tensor<[4], f32, smem> -> f32
    kda2.store %w, %y[%i] : f32, !kda2.tensor<[4], f32>
  }
  kda2.return
}
