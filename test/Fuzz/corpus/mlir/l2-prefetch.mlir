// RUN: kda2-opt %s --convert-kda2-to-gpu | FileCheck %s
// RUN: kda2-translate --kda2-to-ptx %s | FileCheck %s --check-prefix=PTX
// RUN: kda2-translate --kda2-to-ptx --kda2-chip=sm_80 %s 2>&1 | FileCheck %s --check-prefix=SM80
// #pragma l2_prefetch over a serial loop: at the start of iteration i, the
// global rows that iteration i + 1 loads are prefetched into L2 (guarded by
// i + 1 < t; one 128-byte line per lane). Loads not indexed by the serial
// variable (w[j]) are not prefetched.

// CHECK-LABEL: gpu.func @pf(
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[T:.*]] step
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[NEXT]], %[[T]] : index
// (The line's address is computed in front of the guards: a guarded block of
// one access keeps only the access.)
// CHECK: %[[LINE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: nvvm.prefetch level = L2, %[[LINE]] : !llvm.ptr<1>
// CHECK-NOT: nvvm.prefetch
// CHECK: vector.reduction

// PTX: prefetch.global.L2

// LLVM 22's NVPTX back end selects prefetch.global.L2 from sm_90 on: on
// sm_80 the pragma is dropped with a warning instead of crashing ISel.
// SM80: warning: '#pragma l2_prefetch' is ignored on sm_80: prefetch.global.L2 needs sm_90 or newer
// SM80: .target sm_80
// SM80-NOT: prefetch

kda2.kernel @pf(%x: !kda2.tensor<[n, t, 64], f32>, %w: !kda2.tensor<[n, 64], f32>,
                %y: !kda2.tensor<[n, t, 64], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["x", "w", "y"], grid = ["n"]} {
  kda2.gmem %x, %w, %y layout(row_major) packing(none)
      : !kda2.tensor<[n, t, 64], f32>, !kda2.tensor<[n, 64], f32>, !kda2.tensor<[n, t, 64], f32>
  %c64 = arith.constant 64 : index
  kda2.loop thread %j to %c64 annotations [#kda2.pragma<l2_prefetch>] {
    %t = kda2.dim "t" : index
    kda2.loop serial %i to %t {
      %row = kda2.load %x[%i] : !kda2.tensor<[n, t, 64], f32> -> tensor<64xf32>
      %sum = kda2.reduce sum %row : tensor<64xf32> -> f32
      %wj = kda2.load %w[%j] : !kda2.tensor<[n, 64], f32> -> f32
      %v = kda2.mul %sum, %wj : f32, f32 -> f32
      kda2.store %v, %y[%i, %j] : f32, !kda2.tensor<[n, t, 64], f32>
    }
  }
}
