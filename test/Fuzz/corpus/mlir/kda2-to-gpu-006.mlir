// lanes(2) over an extent of whole warps (32): the lanes of an iteration sit
// in different warps (iteration threadIdx.x % 32, part threadIdx.x / 32), so
// each warp loads whole rows' halves; the partial sums meet in a shared
// scratch of one f32 per thread, between two barriers, instead of shuffles.
// CHECK-LABEL: gpu.func @lanes_across_warps(
// CHECK-SAME: workgroup(%[[SCRATCH:.*]] : memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]] : index
// CHECK: %[[J:.*]] = arith.remui %[[TID]], %{{.*}} : index
// CHECK: %[[PART:.*]] = arith.divui %[[TID]], %{{.*}} : index
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<32xf32>
// CHECK-NEXT: %[[SUM:.*]] = vector.reduction <add>, %[[V]] : vector<32xf32> into f32
// CHECK: %[[SLOT:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK-NEXT: memref.store %[[SUM]], %[[SCRATCH]][%[[SLOT]]]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[P0:.*]] = memref.load %[[SCRATCH]]
// CHECK: %[[P1:.*]] = memref.load %[[SCRATCH]]
// CHECK-NEXT: %[[TOTAL:.*]] = arith.addf %[[P0]], %[[P1]] : f32
// CHECK-NEXT: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[PART]], %{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: llvm.store %[[TOTAL]]
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
kda2.kernel @lanes_across_warps(%x: !kda2.tensor<[32, 64], f32>,
                                %y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[32, 64], f32>, !kda2.tensor<[32], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 lanes(2) annotations [#kda2.warp_reduce] {
    %row = kda2.load %x[%j] : !kda2.tensor<[32, 64], f32> -> tensor<64xf32>
    %s = kda2.reduce sum %row : tensor<64xf32> -> f32
    kda2.store %s, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}
