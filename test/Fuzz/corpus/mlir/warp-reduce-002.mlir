// The same kernel without #kda2.warp_reduce: every thread reduces the whole
// row with vector.reduction, and no shuffle is emitted.
// CHECK-LABEL: gpu.func @row64_exp_max_plain(
// CHECK: %[[ROW:.*]] = vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x64xf32, #gpu.address_space<workgroup>>, vector<64xf32>
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[ROW]] : vector<64xf32>
// CHECK-NEXT: vector.reduction <maximumf>, %[[EXP]] : vector<64xf32> into f32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
kda2.kernel @row64_exp_max_plain(%y: !kda2.tensor<[8], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[8], f32>
  %s = kda2.smem_alloc size(2048) : !kda2.tensor<[8, 64], f32, smem>
  %c8 = arith.constant 8 : index
  kda2.loop block %i to %c8 annotations [#kda2.coalesced_access<>] {
    %row = kda2.load %s[%i] : !kda2.tensor<[8, 64], f32, smem> -> tensor<64xf32>
    %e = kda2.exp %row : tensor<64xf32>
    %m = kda2.reduce max %e : tensor<64xf32> -> f32
    kda2.store %m, %y[%i] : f32, !kda2.tensor<[8], f32>
  }
  kda2.return
}
