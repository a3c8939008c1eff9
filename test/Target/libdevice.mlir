// REQUIRES: libdevice
// RUN: kda2-translate %s --kda2-to-ptx | FileCheck %s
// RUN: rm -rf %t.empty && mkdir -p %t.empty
// RUN: env CUDA_HOME=%t.empty kda2-translate %s --kda2-to-ptx --kda2-cuda-path=%cuda_root 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: kda2-translate %s --kda2-to-ptx --kda2-fast-math | FileCheck %s --check-prefix=FAST
//
// Math functions (here kda2.exp -> math.exp -> __nv_expf) need libdevice:
// kda2-lower-to-nvvm-pipeline links <toolkit>/nvvm/libdevice/libdevice.10.bc
// found under --kda2-cuda-path, $CUDA_HOME or /usr/local/cuda, and the PTX
// holds the inlined implementation instead of a call to an extern function.
// Without libdevice the PTX would declare `.extern .func __nv_expf` and
// ptxas would reject it ("Unresolved extern function").
//
// The serializer of gpu-module-to-binary links libdevice from its own
// toolkit too; the pipeline points it at the toolkit found above, so a
// CUDA_HOME without libdevice (an empty directory) is not reported as an
// error when --kda2-cuda-path names a complete toolkit.

// CHECK-NOT: .extern .func
// CHECK-LABEL: .visible .entry exp_row(
// CHECK-NOT: call
// CHECK: ex2.approx.ftz.f32
// CHECK-NOT: call
// CHECK: ret;

// EMPTY-NOT: error
// EMPTY: .visible .entry exp_row(
// EMPTY-NOT: error

// With fast math, exp(x) is 2^(x·log2 e) by one ex2.approx.ftz.f32 (the
// intrinsic itself: libdevice's exp2 would give ex2.approx.f32, whose SASS
// wraps the MUFU in three instructions for subnormal results).
// FAST-LABEL: .visible .entry exp_row(
// FAST-NOT: call
// FAST-NOT: ex2.approx.f32
// FAST: mul.{{(ftz.)?}}f32
// FAST-NEXT: ex2.approx.ftz.f32
// FAST-NOT: ex2.approx.f32
// FAST: ret;
// exp2(x) likewise, without the scaling.
// FAST-LABEL: .visible .entry exp2_row(
// FAST-NOT: call
// FAST-NOT: ex2.approx.f32
// FAST: ex2.approx.ftz.f32
// FAST-NOT: ex2.approx.f32
// FAST: ret;
kda2.kernel @exp_row(%x: !kda2.tensor<[n, 32], f32>,
                     %y: !kda2.tensor<[n, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {grid = ["n"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[n, 32], f32>, !kda2.tensor<[n, 32], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[n, 32], f32> -> f32
    %e = kda2.exp %v : f32
    kda2.store %e, %y[%j] : f32, !kda2.tensor<[n, 32], f32>
  }
  kda2.return
}

kda2.kernel @exp2_row(%x: !kda2.tensor<[n, 32], f32>,
                      %y: !kda2.tensor<[n, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {grid = ["n"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[n, 32], f32>, !kda2.tensor<[n, 32], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[n, 32], f32> -> f32
    %e = kda2.exp2 %v : f32
    kda2.store %e, %y[%j] : f32, !kda2.tensor<[n, 32], f32>
  }
  kda2.return
}
