// RUN: kda2-opt %s --split-input-file --convert-kda2-to-gpu --verify-diagnostics | FileCheck %s
// RUN: kda2-translate --kda2-to-ptx --split-input-file %s 2>/dev/null | FileCheck %s --check-prefix=PTX
// #pragma tma_pipeline on a serial loop: its TMA copies go to two stages of
// their destination buffers (a leading dimension of 2). Iteration 0's tiles
// are issued before the loop; iteration i issues iteration i + 1's into
// the other stage (mbarrier 1 + (i+1)%2), then waits for its own (mbarrier
// 1 + i%2) and computes on stage i%2, so the next tiles travel meanwhile.
// Copies that wait in place keep mbarrier 0.

// CHECK-LABEL: gpu.func @pipelined(
// CHECK-SAME: workgroup(%[[SA:.*]] : memref<2x64x32xbf16, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}, %[[BAR:.*]] : memref<3xi64, #gpu.address_space<workgroup>> {llvm.align = 8 : i64})
// CHECK-COUNT-3: nvvm.mbarrier.init
// Prologue: iteration 0 into stage 0 on mbarrier 1.
// CHECK: scf.if
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// Each iteration starts at a barrier (the previous one is done with the
// stage the next copies overwrite), so its body needs none at its end.
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[STAGE:.*]] = arith.remui %[[I]], %c2{{.*}} : index
// CHECK-NEXT: gpu.barrier
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %c1{{.*}} : index
// CHECK: %[[MORE:.*]] = arith.cmpi ult, %[[NEXT]], %{{.*}} : index
// CHECK: scf.if %[[MORE]] {
// CHECK: arith.remui %[[NEXT]], %c2{{.*}} : index
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: }
// The stage's phase parity is picked with selects (registers, not an
// indexed local array).
// CHECK: %[[WAITBAR:.*]] = arith.addi %c1{{.*}}, %[[STAGE]] : index
// CHECK: %[[P1:.*]] = memref.load %{{.*}}[%c1{{.*}}] : memref<3xi32>
// CHECK: %[[P2:.*]] = memref.load %{{.*}}[%c2{{.*}}] : memref<3xi32>
// CHECK: %[[IS2:.*]] = arith.cmpi eq, %[[WAITBAR]], %c2
// CHECK: %[[PHASE:.*]] = arith.select %[[IS2]], %[[P2]], %{{.*}} : i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PHASE]]
// The body reads the current stage.
// CHECK: vector.load %[[SA]][%[[STAGE]], %{{.*}}, %{{.*}}] : memref<2x64x32xbf16, #gpu.address_space<workgroup>>, vector<32xbf16>

// PTX-LABEL: .entry pipelined(
// PTX: cp.async.bulk.tensor.4d
// PTX: mbarrier.try_wait.parity

kda2.kernel @pipelined(%a: !kda2.tensor<[b, c, 64, 32], bf16>,
                       %y: !kda2.tensor<[b, c, 64, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "y"], grid = ["b"]} {
  kda2.gmem %a, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, c, 64, 32], bf16>, !kda2.tensor<[b, c, 64, 32], f32>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %n = kda2.dim "c" : index
  %c64 = arith.constant 64 : index
  kda2.loop serial %ci to %n annotations [#kda2.pragma<tma_coalesce>, #kda2.pragma<tma_pipeline>] {
    %t = kda2.load %a[%ci] : !kda2.tensor<[b, c, 64, 32], bf16> -> tensor<64x32xbf16>
    kda2.store %t, %sa[] : tensor<64x32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
    kda2.loop thread %r to %c64 {
      %row = kda2.load %sa[%r] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<32xbf16>
      %f = kda2.cast %row : tensor<32xbf16> -> tensor<32xf32>
      kda2.store %f, %y[%ci, %r] : tensor<32xf32>, !kda2.tensor<[b, c, 64, 32], f32>
    }
  }
}

// -----

// A destination that the loop also writes cannot be staged.
kda2.kernel @written(%a: !kda2.tensor<[b, c, 64, 32], bf16>,
                     %y: !kda2.tensor<[b, c, 64, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "y"], grid = ["b"]} {
  kda2.gmem %a, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, c, 64, 32], bf16>, !kda2.tensor<[b, c, 64, 32], f32>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %n = kda2.dim "c" : index
  %c64 = arith.constant 64 : index
  // expected-warning @below {{'#pragma tma_pipeline' does not apply (a destination buffer is also written in the loop); the copies wait where they are}}
  kda2.loop serial %ci to %n annotations [#kda2.pragma<tma_coalesce>, #kda2.pragma<tma_pipeline>] {
    %t = kda2.load %a[%ci] : !kda2.tensor<[b, c, 64, 32], bf16> -> tensor<64x32xbf16>
    kda2.store %t, %sa[] : tensor<64x32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
    kda2.loop thread %r to %c64 {
      %row = kda2.load %sa[%r] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<32xbf16>
      kda2.store %row, %sa[%r] : tensor<32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
      %f = kda2.cast %row : tensor<32xbf16> -> tensor<32xf32>
      kda2.store %f, %y[%ci, %r] : tensor<32xf32>, !kda2.tensor<[b, c, 64, 32], f32>
    }
  }
}

// -----

// @producer_warp needs the loop in the kernel's uniform code under block
// loops only (the extra warp replays what leads to it): inside a serial
// loop, the block issues the copies itself (one warp, no empty barriers).
// CHECK-LABEL: gpu.func @nested_producer(
// CHECK-SAME: known_block_size = array<i32: 32, 1, 1>
// CHECK-COUNT-3: nvvm.mbarrier.init
// CHECK-NOT: nvvm.mbarrier.init
kda2.kernel @nested_producer(%a: !kda2.tensor<[b, c, 64, 32], bf16>,
                             %y: !kda2.tensor<[b, c, 64, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "y"], grid = ["b"]} {
  kda2.gmem %a, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, c, 64, 32], bf16>, !kda2.tensor<[b, c, 64, 32], f32>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %n = kda2.dim "c" : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  kda2.loop serial %o to %c2 {
    // expected-warning @below {{'@producer_warp' does not apply (the loop is not in the kernel's uniform code under block loops only); the block's threads issue the copies}}
    kda2.loop serial %ci to %n annotations [#kda2.pragma<tma_coalesce>, #kda2.pragma<tma_pipeline>, #kda2.producer_warp] {
      %t = kda2.load %a[%ci] : !kda2.tensor<[b, c, 64, 32], bf16> -> tensor<64x32xbf16>
      kda2.store %t, %sa[] : tensor<64x32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
      kda2.loop thread %r to %c32 {
        %row = kda2.load %sa[%r] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<32xbf16>
        %f = kda2.cast %row : tensor<32xbf16> -> tensor<32xf32>
        kda2.store %f, %y[%ci, %r] : tensor<32xf32>, !kda2.tensor<[b, c, 64, 32], f32>
      }
    }
  }
}
