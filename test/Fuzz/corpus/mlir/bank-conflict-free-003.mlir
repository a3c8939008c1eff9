// The annotation on an enclosing block loop covers the thread loop inside it;
// a row written in uniform code (every lane the same word) needs nothing,
// the column read in the thread loop pads the buffer; the uniform row load
// uses the padded buffer too.
// CHECK-LABEL: gpu.func @enclosing_block_loop(
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>)
// CHECK: vector.load %[[SMEM]][%{{.*}}, %{{.*}}] : memref<32x33xf32, #gpu.address_space<workgroup>>, vector<32xf32>
// CHECK: memref.load %[[SMEM]][%{{.*}}, %{{.*}}] : memref<32x33xf32, #gpu.address_space<workgroup>>
kda2.kernel @enclosing_block_loop(%y: !kda2.tensor<[32, 32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32, 32], f32>
  %s = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 32], f32, smem>
  %c32 = arith.constant 32 : index
  kda2.loop block %i to %c32 annotations [#kda2.bank_conflict_free] {
    %row = kda2.load %s[%i] : !kda2.tensor<[32, 32], f32, smem> -> tensor<32xf32>
    %m = kda2.reduce max %row : tensor<32xf32> -> f32
    kda2.loop thread %j to %c32 {
      %v = kda2.load %s[%j, %i] : !kda2.tensor<[32, 32], f32, smem> -> f32
      %d = kda2.sub %v, %m : f32, f32 -> f32
      kda2.store %d, %y[%i, %j] : f32, !kda2.tensor<[32, 32], f32>
    }
  }
  kda2.return
}
