// lanes(4) over 8 iterations (not whole warps): iteration threadIdx.x / 4
// runs on lanes threadIdx.x % 4 of one warp, each loading its 16-element
// quarter of the row with one vector load; the reduction combines the 4
// partial sums with a 2-step butterfly (xor 2, 1). A scalar result is
// stored by the first lane of each iteration.
// CHECK-LABEL: gpu.func @lanes(
// CHECK-SAME: known_block_size = array<i32: 32, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[J:.*]] = arith.divui %[[TID]], %[[C4]] : index
// CHECK: %[[C4B:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[PART:.*]] = arith.remui %[[TID]], %[[C4B]] : index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[START:.*]] = arith.muli %[[PART]], %[[C16]] : index
// CHECK: arith.index_cast %[[J]] : index to i64
// CHECK: arith.index_cast %[[START]] : index to i64
// CHECK: %[[P:.*]] = llvm.getelementptr
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<16xf32>
// CHECK-NEXT: %[[SUM:.*]] = vector.reduction <add>, %[[V]] : vector<16xf32> into f32
// CHECK-NEXT: %[[O2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[W:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[SH2:.*]], %{{.*}} = gpu.shuffle xor %[[SUM]], %[[O2]], %[[W]] : f32
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[SUM]], %[[SH2]] : f32
// CHECK-NEXT: %[[O1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[W1:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[SH1:.*]], %{{.*}} = gpu.shuffle xor %[[S2]], %[[O1]], %[[W1]] : f32
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[S2]], %[[SH1]] : f32
// CHECK-NOT: gpu.shuffle
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[PART]], %{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: llvm.store %[[S1]]
kda2.kernel @lanes(%x: !kda2.tensor<[8, 64], f32>,
                   %y: !kda2.tensor<[8], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[8, 64], f32>, !kda2.tensor<[8], f32>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 lanes(4) annotations [#kda2.warp_reduce] {
    %row = kda2.load %x[%j] : !kda2.tensor<[8, 64], f32> -> tensor<64xf32>
    %s = kda2.reduce sum %row : tensor<64xf32> -> f32
    kda2.store %s, %y[%j] : f32, !kda2.tensor<[8], f32>
  }
  kda2.return
}
