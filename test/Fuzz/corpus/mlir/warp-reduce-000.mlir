// RUN: kda2-opt %s --split-input-file --convert-kda2-to-gpu | FileCheck %s
//
// #kda2.warp_reduce (@warp_reduce) on a block loop: a uniform reduction of a
// rank-1 tile whose size is a multiple of 32 is distributed over the lanes of
// the warp (lane l holds elements l + 32 k), reduced per lane, and combined
// with a 5-step shfl.sync.bfly butterfly. Without the annotation the whole
// tile is reduced by every thread with vector.reduction.

// A 32-element shared row: one element per lane, no per-lane reduction, 5
// butterfly steps (xor 16, 8, 4, 2, 1); thread 0 stores the result.
// CHECK-LABEL: gpu.func @row32(
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %{{.*}} : index
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[K0:.*]] = arith.addi %[[LANE]], %{{.*}} : index
// CHECK-NEXT: %[[E:.*]] = memref.load %[[SMEM]][%[[BX]], %[[K0]]] : memref<8x32xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: vector.reduction
// CHECK: %[[O16:.*]] = arith.constant 16 : i32
// CHECK: %[[SH16:.*]], %{{.*}} = gpu.shuffle xor %[[E]], %[[O16]], %{{.*}} : f32
// CHECK-NEXT: %[[R16:.*]] = arith.addf %[[E]], %[[SH16]] : f32
// CHECK: %[[O8:.*]] = arith.constant 8 : i32
// CHECK: %[[SH8:.*]], %{{.*}} = gpu.shuffle xor %[[R16]], %[[O8]], %{{.*}} : f32
// CHECK-NEXT: %[[R8:.*]] = arith.addf %[[R16]], %[[SH8]] : f32
// CHECK: %[[O4:.*]] = arith.constant 4 : i32
// CHECK: %[[SH4:.*]], %{{.*}} = gpu.shuffle xor %[[R8]], %[[O4]], %{{.*}} : f32
// CHECK-NEXT: %[[R4:.*]] = arith.addf %[[R8]], %[[SH4]] : f32
// CHECK: %[[O2:.*]] = arith.constant 2 : i32
// CHECK: %[[SH2:.*]], %{{.*}} = gpu.shuffle xor %[[R4]], %[[O2]], %{{.*}} : f32
// CHECK-NEXT: %[[R2:.*]] = arith.addf %[[R4]], %[[SH2]] : f32
// CHECK: %[[O1:.*]] = arith.constant 1 : i32
// CHECK: %[[SH1:.*]], %{{.*}} = gpu.shuffle xor %[[R2]], %[[O1]], %{{.*}} : f32
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[R2]], %[[SH1]] : f32
// CHECK-NOT: gpu.shuffle
// CHECK: %[[T0:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : index
// CHECK: scf.if %[[T0]] {
// CHECK: llvm.store %[[SUM]]
kda2.kernel @row32(%y: !kda2.tensor<[8], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[8], f32>
  %s = kda2.smem_alloc size(1024) : !kda2.tensor<[8, 32], f32, smem>
  %c8 = arith.constant 8 : index
  kda2.loop block %i to %c8 annotations [#kda2.warp_reduce] {
    %row = kda2.load %s[%i] : !kda2.tensor<[8, 32], f32, smem> -> tensor<32xf32>
    %sum = kda2.reduce sum %row : tensor<32xf32> -> f32
    kda2.store %sum, %y[%i] : f32, !kda2.tensor<[8], f32>
  }
  kda2.return
}
