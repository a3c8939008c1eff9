// Grid prefix: blockIdx.y enumerates (b, h) row-major, h fastest: the
// remainder by h is h's index, the quotient is divided again by b.
// CHECK-LABEL: gpu.func @grid_prefix(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1>{{( \{[^}]*\})?}}, %[[Y:[^:]*]]: !llvm.ptr<1>{{( \{[^}]*\})?}}, %[[B:[^:]*]]: i64, %[[H:[^:]*]]: i64)
// CHECK-DAG: %[[BI:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK-DAG: %[[HI:.*]] = arith.index_cast %[[H]] : i64 to index
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK-NEXT: %[[HIDX:.*]] = arith.remui %[[BY]], %[[HI]] : index
// CHECK-NEXT: %[[REST:.*]] = arith.divui %[[BY]], %[[HI]] : index
// CHECK-NEXT: %[[BIDX:.*]] = arith.remui %[[REST]], %[[BI]] : index
// CHECK: %[[BIDX64:.*]] = arith.index_cast %[[BIDX]] : index to i64
// CHECK: %[[HIDX64:.*]] = arith.index_cast %[[HIDX]] : index to i64
// CHECK: llvm.getelementptr %[[X]]
kda2.kernel @grid_prefix(%x: !kda2.tensor<[b, h, 32], f32>,
                         %y: !kda2.tensor<[b, h, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {grid = ["b", "h"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, h, 32], f32>, !kda2.tensor<[b, h, 32], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[b, h, 32], f32> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[b, h, 32], f32>
  }
  kda2.return
}
