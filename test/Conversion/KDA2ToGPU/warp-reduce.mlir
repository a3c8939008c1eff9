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

// -----

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

// -----

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

// -----

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
