// A bf16 row: the lanes' partial sums are widened to f32 for the shuffles
// and truncated back afterwards.
// CHECK-LABEL: gpu.func @row32_bf16(
// CHECK: %[[E:.*]] = memref.load %{{.*}} : memref<4x32xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[E]] : bf16 to f32
// CHECK-COUNT-5: gpu.shuffle xor %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
kda2.kernel @row32_bf16(%y: !kda2.tensor<[4], bf16> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[4], bf16>
  %s = kda2.smem_alloc size(256) : !kda2.tensor<[4, 32], bf16, smem>
  %c4 = arith.constant 4 : index
  kda2.loop block %i to %c4 annotations [#kda2.warp_reduce] {
    %row = kda2.load %s[%i] : !kda2.tensor<[4, 32], bf16, smem> -> tensor<32xbf16>
    %sum = kda2.reduce sum %row : tensor<32xbf16> -> bf16
    kda2.store %sum, %y[%i] : bf16, !kda2.tensor<[4], bf16>
  }
  kda2.return
}
