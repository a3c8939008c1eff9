// Thread loops map to threadIdx.x; blockDim.x is the largest extent (64): the
// loop of 64 is unguarded, the loop of 40 is guarded.
// CHECK-LABEL: gpu.func @thread_loops(
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[C40:.*]] = arith.constant 40 : index
// CHECK-NOT: scf.if
// CHECK: arith.index_cast %[[TID]] : index to i64
// CHECK: llvm.store
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[TID]], %[[C40]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: arith.index_cast %[[TID]] : index to i64
// CHECK: llvm.store
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: gpu.return
kda2.kernel @thread_loops(%x: !kda2.tensor<[64], f32>,
                          %y: !kda2.tensor<[64], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[64], f32>, !kda2.tensor<[64], f32>
  %c64 = arith.constant 64 : index
  %c40 = arith.constant 40 : index
  kda2.loop thread %j to %c64 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[64], f32> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[64], f32>
  }
  kda2.loop thread %j to %c40 {
    %v = kda2.load %x[%j] : !kda2.tensor<[64], f32> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[64], f32>
  }
  kda2.return
}
