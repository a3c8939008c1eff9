// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="shapes=n=1056" | FileCheck %s
// The grid comes from the launch metadata (grid.x n, resp. 2 * n CTAs).
// 1056 CTAs of 1024 threads fill H200-SXM's 132 SMs two CTAs each: 4 waves
// for @once; twice the grid is twice the waves and twice the cycles.

// CHECK-LABEL: simulator: @once on H200-SXM
// CHECK: grid: 1056x1x1 (1056 CTAs), block: 1024x1x1
// CHECK: CTAs/SM: 2 (limited by warps)
// CHECK: waves: 4 (2 CTAs resident on the simulated SM)
// CHECK: cycles: [[#CYCLES:]]
// CHECK-LABEL: simulator: @twice on H200-SXM
// CHECK: grid: 1056x2x1 (2112 CTAs)
// CHECK: waves: 8 (2 CTAs resident on the simulated SM)
// CHECK: cycles: [[#CYCLES+CYCLES]]
// A partial last wave: 594 CTAs are 2.25 waves of 264. The GPU starts a CTA
// whenever one ends, so the grid takes 2.25 full-wave times (not two full
// waves and a tail after them): 9/16 of @once's four waves.
// CHECK-LABEL: simulator: @partial on H200-SXM
// CHECK: grid: 594x1x1 (594 CTAs)
// CHECK: waves: 3 (2 CTAs resident on the simulated SM)
// CHECK: cycles: [[#div(mul(CYCLES,9),16)]]

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @once(%p: !llvm.ptr<1>, %n: i64) kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c1024 = arith.constant 1024 : index
      %base = arith.muli %bid, %c1024 : index
      %i = arith.addi %base, %tid : index
      %i64 = arith.index_cast %i : index to i64
      %addr = llvm.getelementptr %p[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      %v = llvm.load %addr : !llvm.ptr<1> -> f32
      %w = arith.mulf %v, %v : f32
      llvm.store %w, %addr : f32, !llvm.ptr<1>
      gpu.return
    }
    llvm.mlir.global external constant @__kda2_meta_once("kda2-kernel-v1\0Aname once\0Ablock 1024 1 1\0Agrid.x n\0Aarg ptr p f32 inout 1 ?\0Aarg dim n\0Aend\0A\00") {addr_space = 1 : i32}
    gpu.func @twice(%p: !llvm.ptr<1>, %n: i64) kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c1024 = arith.constant 1024 : index
      %base = arith.muli %bid, %c1024 : index
      %i = arith.addi %base, %tid : index
      %i64 = arith.index_cast %i : index to i64
      %addr = llvm.getelementptr %p[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      %v = llvm.load %addr : !llvm.ptr<1> -> f32
      %w = arith.mulf %v, %v : f32
      llvm.store %w, %addr : f32, !llvm.ptr<1>
      gpu.return
    }
    llvm.mlir.global external constant @__kda2_meta_twice("kda2-kernel-v1\0Aname twice\0Ablock 1024 1 1\0Agrid.x 2 n\0Agrid.y 2\0Aarg ptr p f32 inout 1 ?\0Aarg dim n\0Aend\0A\00") {addr_space = 1 : i32}
    gpu.func @partial(%p: !llvm.ptr<1>, %n: i64) kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c1024 = arith.constant 1024 : index
      %base = arith.muli %bid, %c1024 : index
      %i = arith.addi %base, %tid : index
      %i64 = arith.index_cast %i : index to i64
      %addr = llvm.getelementptr %p[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      %v = llvm.load %addr : !llvm.ptr<1> -> f32
      %w = arith.mulf %v, %v : f32
      llvm.store %w, %addr : f32, !llvm.ptr<1>
      gpu.return
    }
    llvm.mlir.global external constant @__kda2_meta_partial("kda2-kernel-v1\0Aname partial\0Ablock 1024 1 1\0Agrid.x 594\0Aarg ptr p f32 inout 1 ?\0Aarg dim n\0Aend\0A\00") {addr_space = 1 : i32}
  }
}
