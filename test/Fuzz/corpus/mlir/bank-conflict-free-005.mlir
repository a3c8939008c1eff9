// 8-byte elements are served in half-warp phases: a row of f64 is conflict
// free as is (no padding), a column needs one element of padding.
// CHECK-LABEL: gpu.func @f64_row_and_column(
// CHECK-SAME: workgroup(%{{.*}} : memref<32x32xf64, #gpu.address_space<workgroup>>,
// CHECK-SAME: %{{.*}} : memref<32x33xf64, #gpu.address_space<workgroup>>)
kda2.kernel @f64_row_and_column(%y: !kda2.tensor<[32], f64> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f64>
  %r = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], f64, smem>
  %c = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], f64, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c32 annotations [#kda2.bank_conflict_free] {
    %a = kda2.load %r[%c0, %j] : !kda2.tensor<[32, 32], f64, smem> -> f64
    %b = kda2.load %c[%j, %c0] : !kda2.tensor<[32, 32], f64, smem> -> f64
    %s = kda2.add %a, %b : f64, f64 -> f64
    kda2.store %s, %y[%j] : f64, !kda2.tensor<[32], f64>
  }
  kda2.return
}
