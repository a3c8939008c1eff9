// Block loops map to blockIdx.x: the widest loop (gridDim.x) runs unguarded,
// a narrower one is guarded by its own extent.
// CHECK-LABEL: gpu.func @block_loops(
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[BX0:.*]] = gpu.block_id x
// CHECK-NOT: scf.if
// CHECK: arith.index_cast %[[BX0]] : index to i64
// CHECK: %[[BX1:.*]] = gpu.block_id x
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[BX1]], %[[C8]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: arith.index_cast %[[BX1]] : index to i64
// CHECK: grid.x 16 8\0A
kda2.kernel @block_loops(%x: !kda2.tensor<[16], f32>,
                         %y: !kda2.tensor<[16], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[16], f32>, !kda2.tensor<[16], f32>
  %c16 = arith.constant 16 : index
  %c8 = arith.constant 8 : index
  kda2.loop block %i to %c16 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%i] : !kda2.tensor<[16], f32> -> f32
    kda2.store %v, %y[%i] : f32, !kda2.tensor<[16], f32>
  }
  kda2.loop block %i to %c8 {
    %v = kda2.load %x[%i] : !kda2.tensor<[16], f32> -> f32
    kda2.store %v, %y[%i] : f32, !kda2.tensor<[16], f32>
  }
  kda2.return
}
