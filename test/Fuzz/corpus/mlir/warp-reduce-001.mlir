// A 64-element row under exp: each lane loads elements lane and lane + 32,
// replays the exp on its 2-element slice, reduces it, then 5 butterfly
// steps combine the lanes' maxima. (The whole-row exp is emitted too and
// left to canonicalization to remove.)
// CHECK-LABEL: gpu.func @row64_exp_max(
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<8x64xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %{{.*}} : index
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: math.exp %{{.*}} : vector<64xf32>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[K0:.*]] = arith.addi %[[LANE]], %[[C0]] : index
// CHECK-NEXT: %[[E0:.*]] = memref.load %[[SMEM]][%[[BX]], %[[K0]]]
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[LANE]], %[[C32]] : index
// CHECK-NEXT: %[[E1:.*]] = memref.load %[[SMEM]][%[[BX]], %[[K1]]]
// CHECK-NEXT: %[[SLICE:.*]] = vector.from_elements %[[E0]], %[[E1]] : vector<2xf32>
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[SLICE]] : vector<2xf32>
// CHECK-NEXT: %[[PART:.*]] = vector.reduction <maximumf>, %[[EXP]] : vector<2xf32> into f32
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
kda2.kernel @row64_exp_max(%y: !kda2.tensor<[8], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[8], f32>
  %s = kda2.smem_alloc size(2048) : !kda2.tensor<[8, 64], f32, smem>
  %c8 = arith.constant 8 : index
  kda2.loop block %i to %c8 annotations [#kda2.warp_reduce] {
    %row = kda2.load %s[%i] : !kda2.tensor<[8, 64], f32, smem> -> tensor<64xf32>
    %e = kda2.exp %row : tensor<64xf32>
    %m = kda2.reduce max %e : tensor<64xf32> -> f32
    kda2.store %m, %y[%i] : f32, !kda2.tensor<[8], f32>
  }
  kda2.return
}
