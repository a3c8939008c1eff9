// lanes(4) over 10 iterations: 40 threads, so the guard leaves threads
// 40..63 of warp 1 idle. The butterfly then uses nvvm.shfl.sync with the
// member mask of the active lanes (0xff in warp 1, all lanes elsewhere), not
// a full-mask gpu.shuffle that would wait for the idle lanes.
// CHECK-LABEL: gpu.func @lanes_partial_warp(
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: scf.if
// CHECK: %[[SUM:.*]] = vector.reduction <add>, %{{.*}} : vector<16xf32> into f32
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %{{.*}} : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[WARP]], %[[C1]] : index
// CHECK-NEXT: %[[PART:.*]] = arith.constant 255 : i32
// CHECK-NEXT: %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-NEXT: %[[MASK:.*]] = arith.select %[[LAST]], %[[PART]], %[[ALL]] : i32
// CHECK-NEXT: %[[O2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[CL:.*]] = arith.constant 31 : i32
// CHECK-NEXT: %[[SH2:.*]] = nvvm.shfl.sync bfly %[[MASK]], %[[SUM]], %[[O2]], %[[CL]] : f32 -> f32
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[SUM]], %[[SH2]] : f32
// CHECK: nvvm.shfl.sync bfly %[[MASK]], %[[S2]], %{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
kda2.kernel @lanes_partial_warp(%x: !kda2.tensor<[10, 64], f32>,
                                %y: !kda2.tensor<[10], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[10, 64], f32>, !kda2.tensor<[10], f32>
  %c10 = arith.constant 10 : index
  kda2.loop thread %j to %c10 lanes(4) annotations [#kda2.warp_reduce] {
    %row = kda2.load %x[%j] : !kda2.tensor<[10, 64], f32> -> tensor<64xf32>
    %s = kda2.reduce sum %row : tensor<64xf32> -> f32
    kda2.store %s, %y[%j] : f32, !kda2.tensor<[10], f32>
  }
  kda2.return
}
