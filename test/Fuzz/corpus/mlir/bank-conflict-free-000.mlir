// RUN: kda2-opt %s --split-input-file --convert-kda2-to-gpu | FileCheck %s
//
// #kda2.bank_conflict_free ($bank_conflict_free): the lowering pads the last
// dimension of each shared buffer accessed in an annotated loop by the
// smallest number of elements that makes every access of a warp conflict
// free (chooseSharedPadding in KDA2ToGPU.cpp). The failures are in
// kda2-to-gpu-errors.mlir.

// The thread variable walks a column of a [32, 32] f32 buffer: a row pitch
// of 32 words puts every lane in bank 0, a pitch of 33 in 32 banks.
// CHECK-LABEL: gpu.func @column_f32(
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: memref.load %[[SMEM]][%[[TID]], %{{.*}}] : memref<32x33xf32, #gpu.address_space<workgroup>>
kda2.kernel @column_f32(%y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  %s = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 32], f32, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c32 annotations [#kda2.bank_conflict_free] {
    %v = kda2.load %s[%j, %c0] : !kda2.tensor<[32, 32], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}
