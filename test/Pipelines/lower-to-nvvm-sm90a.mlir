// RUN: kda2-translate %s --kda2-to-ptx --kda2-chip=sm_90a | FileCheck %s
// RUN: kda2-translate %s --kda2-to-ptx --kda2-chip=sm_90a | FileCheck %s --check-prefix=NOMUL
// RUN: kda2-opt %s --kda2-lower-to-nvvm-pipeline="chip=sm_90a" | FileCheck %s --check-prefix=BINARY
// RUN: kda2-opt %s --kda2-lower-to-nvvm-pipeline="chip=sm_90a" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
//
// kda2-lower-to-nvvm-pipeline end to end for sm_90a (lib/Pipelines/Pipelines.cpp),
// through kda2-translate --kda2-to-ptx (lib/Target/PTX.cpp) and kda2-opt.
// The kernels use no math function, so libdevice is not needed.
//  * @decode_step: a lanes(4) thread loop sums a contiguous f32 row (four
//    128-bit loads per lane, two butterfly shuffles), masks the sum with
//    @delta_masked (setp + selp, no multiply) and goes through shared memory
//    (bar.sync between the thread loop writing it and the one reading it);
//  * @row_max: a uniform @warp_reduce max of a 32-element shared row (five
//    butterfly shuffles), stored by thread 0.

// The pass order, with the chip and its PTX ISA version.
// PIPELINE: builtin.module(
// PIPELINE-NEXT: convert-kda2-to-gpu{{[{]}}chip=sm_90a fast-math=false wgmma=false},
// PIPELINE-NEXT: canonicalize{{.*}},
// PIPELINE-NEXT: cse,
// PIPELINE-NEXT: nvvm-attach-target{{.*}} chip=sm_90a {{.*}}features=+ptx80 {{.*}}triple=nvptx64-nvidia-cuda},
// PIPELINE-NEXT: gpu.module(
// PIPELINE-NEXT: convert-scf-to-cf{{.*}},
// PIPELINE-NEXT: convert-nvgpu-to-nvvm,
// PIPELINE-NEXT: convert-gpu-to-nvvm{{.*}},
// PIPELINE-NEXT: kda2-finalize-nvvm,
// PIPELINE-NEXT: convert-nvvm-to-llvm,
// PIPELINE-NEXT: canonicalize{{.*}}
// PIPELINE-NEXT: ),
// PIPELINE-NEXT: reconcile-unrealized-casts,
// PIPELINE-NEXT: gpu-module-to-binary{format=isa {{.*}}}
// PIPELINE-NEXT: )

// kda2-opt stops at a gpu.binary holding the PTX text.
// BINARY: module attributes {{[{]}}gpu.container_module} {
// BINARY-NEXT: gpu.binary @kda2_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80"
// BINARY-SAME: assembly = "{{.*}}.target sm_90a
// BINARY-NOT: kda2.

// CHECK: .version 8.0
// CHECK-NEXT: .target sm_90a
// CHECK-NEXT: .address_size 64

// The launch metadata: "kda2-kernel-v1\n..." as bytes.
// CHECK: .visible .global .align 1 .b8 __kda2_meta_decode_step[{{[0-9]+}}] = {107, 100, 97, 50, 45, 107, 101, 114, 110, 101, 108, 45, 118, 49, 10,
// CHECK: .visible .global .align 1 .b8 __kda2_meta_row_max[{{[0-9]+}}] = {107, 100, 97, 50, 45, 107, 101, 114, 110, 101, 108, 45, 118, 49, 10,

// CHECK-LABEL: .visible .entry decode_step(
// CHECK-COUNT-3: .param .u64 .ptr .global .align 1 decode_step_param_{{[0-2]}},
// CHECK-NEXT: .param .u64 decode_step_param_3
// CHECK: .maxntid 32, 1, 1
// CHECK: .shared .align 4 .b8 __wg_decode_step_0[32];
// CHECK-COUNT-4: ld.global{{(\.nc)?}}.v4.b32
// CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 2, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1, 31, -1;
// CHECK-NOT: shfl.sync
// CHECK: ld.global{{(\.nc)?}}.b8 [[MASK:%rs[0-9]+]],
// CHECK-NEXT: setp.eq.b16 [[ZERO:%p[0-9]+]], [[MASK]], 0;
// CHECK-NEXT: selp.f32 [[V:%r[0-9]+]], 0f00000000, {{%r[0-9]+}}, [[ZERO]];
// CHECK-NEXT: st.shared.b32 [{{%rd[0-9]+}}], [[V]];
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32
// CHECK: st.global.b32
// CHECK-NOT: bar.sync
// CHECK: ret;

// CHECK-LABEL: .visible .entry row_max(
// CHECK: st.shared.b32
// CHECK-NEXT: bar.sync 0;
// CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 16, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 8, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 4, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 2, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1, 31, -1;
// CHECK: max.NaN.f32
// CHECK-NOT: bar.sync
// CHECK: st.global.b32

// The mask is never converted to a float nor multiplied in: no float
// multiply or fused multiply-add anywhere, no integer-to-float conversion.
// NOMUL-NOT: {{(mul|fma)(\.[a-z]+)*\.f(16|32|64)}}
// NOMUL-NOT: cvt.{{[a-z]+}}.f32.{{[us](8|16|32)}}
// NOMUL: .entry decode_step
// NOMUL-NOT: {{(mul|fma)(\.[a-z]+)*\.f(16|32|64)}}
// NOMUL-NOT: cvt.{{[a-z]+}}.f32.{{[us](8|16|32)}}

kda2.kernel @decode_step(%x: !kda2.tensor<[n, 8, 64], f32>, %m: !kda2.tensor<[n, 8], ui8>,
                         %y: !kda2.tensor<[n, 8], f32> {kda2.io = #kda2.io<out>})
    attributes {grid = ["n"], arg_names = ["x", "m", "y"]} {
  kda2.gmem %x, %m, %y layout(row_major) packing(none)
      : !kda2.tensor<[n, 8, 64], f32>, !kda2.tensor<[n, 8], ui8>, !kda2.tensor<[n, 8], f32>
  %s = kda2.smem_alloc size(32) : !kda2.tensor<[8], f32, smem>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 lanes(4) annotations [#kda2.warp_reduce] {
    %row = kda2.load %x[%j] : !kda2.tensor<[n, 8, 64], f32> -> tensor<64xf32>
    %d = kda2.reduce sum %row : tensor<64xf32> -> f32
    %k = kda2.load %m[%j] : !kda2.tensor<[n, 8], ui8> -> ui8
    %v = kda2.delta_masked %d, %k mask_type(uint8) : f32, ui8
    kda2.store %v, %s[%j] : f32, !kda2.tensor<[8], f32, smem>
  }
  kda2.loop thread %j to %c8 {
    %v = kda2.load %s[%j] : !kda2.tensor<[8], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[n, 8], f32>
  }
  kda2.return
}

kda2.kernel @row_max(%x: !kda2.tensor<[n, 32], f32>,
                     %y: !kda2.tensor<[n], f32> {kda2.io = #kda2.io<out>})
    attributes {grid = ["n"], arg_names = ["x", "y"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[n, 32], f32>, !kda2.tensor<[n], f32>
  %s = kda2.smem_alloc size(128) : !kda2.tensor<[32], f32, smem>
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[n, 32], f32> -> f32
    kda2.store %v, %s[%j] : f32, !kda2.tensor<[32], f32, smem>
  }
  kda2.loop block %i to %c1 annotations [#kda2.warp_reduce] {
    %row = kda2.load %s[] : !kda2.tensor<[32], f32, smem> -> tensor<32xf32>
    %mx = kda2.reduce max %row : tensor<32xf32> -> f32
    kda2.store %mx, %y[] : f32, !kda2.tensor<[n], f32>
  }
  kda2.return
}
