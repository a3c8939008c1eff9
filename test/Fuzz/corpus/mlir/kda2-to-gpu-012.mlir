// A shared buffer is a workgroup attribution; a barrier goes before a thread
// loop that reads what an earlier one wrote, none after the last.
// CHECK-LABEL: gpu.func @shared(
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: memref.store %{{.*}}, %[[SMEM]][%[[TID]]] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load %[[SMEM]][%[[TID]]] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK: llvm.store
// CHECK-NEXT: gpu.return
kda2.kernel @shared(%x: !kda2.tensor<[32], f32>,
                    %y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[32], f32>, !kda2.tensor<[32], f32>
  %s = kda2.smem_alloc size(128) : !kda2.tensor<[32], f32, smem>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[32], f32> -> f32
    kda2.store %v, %s[%j] : f32, !kda2.tensor<[32], f32, smem>
  }
  kda2.loop thread %j to %c32 {
    %v = kda2.load %s[%j] : !kda2.tensor<[32], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}
