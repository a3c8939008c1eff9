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

// -----

// A row access (consecutive words) is already conflict free: no padding.
// CHECK-LABEL: gpu.func @row_f32(
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<32x32xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: memref.load %[[SMEM]][%{{.*}}, %[[TID]]] : memref<32x32xf32, #gpu.address_space<workgroup>>
kda2.kernel @row_f32(%y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  %s = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 32], f32, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c32 annotations [#kda2.bank_conflict_free] {
    %v = kda2.load %s[%c0, %j] : !kda2.tensor<[32, 32], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}

// -----

// The same column access without the annotation: the buffer keeps its shape.
// CHECK-LABEL: gpu.func @column_f32_unannotated(
// CHECK-SAME: workgroup(%{{.*}} : memref<32x32xf32, #gpu.address_space<workgroup>>)
kda2.kernel @column_f32_unannotated(%y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  %s = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 32], f32, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %s[%j, %c0] : !kda2.tensor<[32, 32], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}

// -----

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

// -----

// bf16 column: two lanes never share a word, the row pitch of 16 words
// conflicts, a pitch of 33 halves (16.5 words) does not.
// CHECK-LABEL: gpu.func @column_bf16(
// CHECK-SAME: workgroup(%{{.*}} : memref<32x33xbf16, #gpu.address_space<workgroup>>)
kda2.kernel @column_bf16(%y: !kda2.tensor<[32], bf16> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], bf16>
  %s = kda2.smem_alloc size(2048) : !kda2.tensor<[32, 32], bf16, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c32 annotations [#kda2.bank_conflict_free] {
    %v = kda2.load %s[%j, %c0] : !kda2.tensor<[32, 32], bf16, smem> -> bf16
    kda2.store %v, %y[%j] : bf16, !kda2.tensor<[32], bf16>
  }
  kda2.return
}

// -----

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

// -----

// The thread variable plus a constant in a middle dimension of a rank-3
// buffer: the pitch of that dimension is the padded last dimension.
// CHECK-LABEL: gpu.func @column_rank3(
// CHECK-SAME: workgroup(%{{.*}} : memref<2x32x33xf32, #gpu.address_space<workgroup>>)
kda2.kernel @column_rank3(%y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  %s = kda2.smem_alloc size(8192) : !kda2.tensor<[2, 32, 32], f32, smem>
  %c31 = arith.constant 31 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c31 annotations [#kda2.bank_conflict_free] {
    %j1 = kda2.add %j, %c1 : index, index -> index
    %v = kda2.load %s[%c1, %j1, %c0] : !kda2.tensor<[2, 32, 32], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}
