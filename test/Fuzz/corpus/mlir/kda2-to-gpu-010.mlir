// The same for an f32 row of 4 elements (16 bytes): one 128-bit load and
// one 128-bit store.
// CHECK-LABEL: gpu.func @contiguous_f32(
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.store %[[V]], %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
kda2.kernel @contiguous_f32(%x: !kda2.tensor<[32, 4], f32>,
                            %y: !kda2.tensor<[32, 4], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[32, 4], f32>, !kda2.tensor<[32, 4], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %row = kda2.load %x[%j] : !kda2.tensor<[32, 4], f32> -> tensor<4xf32>
    kda2.store %row, %y[%j] : tensor<4xf32>, !kda2.tensor<[32, 4], f32>
  }
  kda2.return
}
