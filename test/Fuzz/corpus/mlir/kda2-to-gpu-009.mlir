// A contiguous bf16 row of 64 elements: a 64-bit element offset (index_cast
// to i64, muli by the stride, addi), a getelementptr and one vector load
// aligned to 16 bytes (128-bit accesses).
// CHECK-LABEL: gpu.func @contiguous_bf16(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1>
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : i64
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[ONE]], %[[C64]] : i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[I64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: %[[T1:.*]] = arith.muli %[[I64]], %[[ROW]] : i64
// CHECK-NEXT: %[[O1:.*]] = arith.addi %[[ZERO]], %[[T1]] : i64
// CHECK-NEXT: %[[K64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: %[[T2:.*]] = arith.muli %[[K64]], %[[ONE]] : i64
// CHECK-NEXT: %[[OFF:.*]] = arith.addi %[[O1]], %[[T2]] : i64
// CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %[[X]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<64xbf16>
kda2.kernel @contiguous_bf16(%x: !kda2.tensor<[8, 64], bf16>,
                             %y: !kda2.tensor<[8, 64], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[8, 64], bf16>, !kda2.tensor<[8, 64], f32>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 annotations [#kda2.coalesced_access<>] {
    %row = kda2.load %x[%j] : !kda2.tensor<[8, 64], bf16> -> tensor<64xbf16>
    %f = kda2.cast %row : tensor<64xbf16> -> tensor<64xf32>
    kda2.store %f, %y[%j] : tensor<64xf32>, !kda2.tensor<[8, 64], f32>
  }
  kda2.return
}
