// RUN: kda2-opt %s --convert-kda2-to-gpu="chip=sm_86" --verify-diagnostics
// RUN: kda2-opt %s --convert-kda2-to-gpu="chip=sm_90a" | FileCheck %s
// A block's shared memory (here 96 KB + 8 KB of buffers, in the dynamic
// window) is held to what the chip lets one block have: 99 KB on sm_86 and
// sm_89, 163 KB on sm_80, 227 KB on sm_90. Past it the kernel would compile
// and only fail at launch, so the lowering refuses it, located at the
// kernel. On sm_90a it fits.

// CHECK-LABEL: gpu.func @wide(
// CHECK: llvm.mlir.global{{.*}}@__kda2_meta_wide{{.*}}smem 106496\0A

// expected-error @below {{'kda2.kernel' op needs 106496 bytes of shared memory per block (buffers, scratch and barriers), more than the 101376 a block may hold on sm_86}}
kda2.kernel @wide(%x: !kda2.tensor<[n, 192, 128], f32>, %y: !kda2.tensor<[n, 192, 128], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["x", "y"], grid = ["n"]} {
  kda2.gmem %x, %y layout(row_major) packing(none) : !kda2.tensor<[n, 192, 128], f32>, !kda2.tensor<[n, 192, 128], f32>
  %s = kda2.smem_alloc size(98304) : !kda2.tensor<[192, 128], f32, smem>
  %t = kda2.smem_alloc size(8192) : !kda2.tensor<[64, 32], f32, smem>
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c32 = arith.constant 32 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %tx = kda2.load %x[] : !kda2.tensor<[n, 192, 128], f32> -> tensor<192x128xf32>
    kda2.store %tx, %s[] : tensor<192x128xf32>, !kda2.tensor<[192, 128], f32, smem>
    kda2.loop thread %r to %c128 {
      %row = kda2.load %s[%r] : !kda2.tensor<[192, 128], f32, smem> -> tensor<128xf32>
      %e = kda2.mul %row, %row : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
      kda2.store %e, %y[%r] : tensor<128xf32>, !kda2.tensor<[n, 192, 128], f32>
    }
    kda2.loop thread %u to %c32 {
      %su = kda2.load %s[%u] : !kda2.tensor<[192, 128], f32, smem> -> tensor<128xf32>
      %f = kda2.reduce sum %su : tensor<128xf32> -> f32
      kda2.store %f, %t[%u, %u] : f32, !kda2.tensor<[64, 32], f32, smem>
    }
  }
}
