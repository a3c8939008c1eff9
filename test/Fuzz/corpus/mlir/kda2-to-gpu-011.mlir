// A tile along a strided dimension (layout VK stores [8, 4] K-first, so a
// logical row has stride 8) is gathered element by element.
// CHECK-LABEL: gpu.func @strided_gather(
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[ROW:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: llvm.store %[[ROW]], %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
kda2.kernel @strided_gather(%x: !kda2.tensor<[8, 4], f32>,
                            %y: !kda2.tensor<[8, 4], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x layout(VK) packing(none) : !kda2.tensor<[8, 4], f32>
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[8, 4], f32>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 annotations [#kda2.coalesced_access<>] {
    %row = kda2.load %x[%j] : !kda2.tensor<[8, 4], f32> -> tensor<4xf32>
    kda2.store %row, %y[%j] : tensor<4xf32>, !kda2.tensor<[8, 4], f32>
  }
  kda2.return
}
