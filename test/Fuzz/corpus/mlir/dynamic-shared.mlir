// RUN: kda2-opt %s --convert-kda2-to-gpu | FileCheck %s
// RUN: kda2-translate --kda2-to-ptx %s | FileCheck %s --check-prefix=PTX
// Shared buffers beyond the 48 KB a kernel may declare statically (here
// 64 KB + 4 KB) become 128-byte aligned views into dynamic shared memory;
// the metadata's `smem` line asks the launch for that many bytes (the
// runtime raises the kernel's limit above 48 KB). bench/sanitize_kernels.py
// runs it on the GPU.

// CHECK-LABEL: gpu.func @big(
// CHECK-NOT: workgroup(%{{.*}} : memref<128x128xf32
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[DYN]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[DYN]][%c65536{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32x32xf32, #gpu.address_space<workgroup>>
// CHECK: llvm.mlir.global{{.*}}@__kda2_meta_big{{.*}}smem 69632\0A

// PTX: .extern .shared .align 128 .b8 __dynamic_shmem__0[];
// PTX-LABEL: .entry big(

kda2.kernel @big(%x: !kda2.tensor<[n, 128, 128], f32>, %y: !kda2.tensor<[n, 128, 128], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["x", "y"], grid = ["n"]} {
  kda2.gmem %x, %y layout(row_major) packing(none) : !kda2.tensor<[n, 128, 128], f32>, !kda2.tensor<[n, 128, 128], f32>
  %s = kda2.smem_alloc size(65536) : !kda2.tensor<[128, 128], f32, smem>
  %t = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 32], f32, smem>
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c32 = arith.constant 32 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %tx = kda2.load %x[] : !kda2.tensor<[n, 128, 128], f32> -> tensor<128x128xf32>
    kda2.store %tx, %s[] : tensor<128x128xf32>, !kda2.tensor<[128, 128], f32, smem>
    kda2.loop thread %r to %c128 {
      %row = kda2.load %s[%r] : !kda2.tensor<[128, 128], f32, smem> -> tensor<128xf32>
      %e = kda2.mul %row, %row : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
      kda2.store %e, %y[%r] : tensor<128xf32>, !kda2.tensor<[n, 128, 128], f32>
    }
    kda2.loop thread %u to %c32 {
      %su = kda2.load %s[%u] : !kda2.tensor<[128, 128], f32, smem> -> tensor<128xf32>
      %f = kda2.reduce sum %su : tensor<128xf32> -> f32
      kda2.store %f, %t[%u, %u] : f32, !kda2.tensor<[32, 32], f32, smem>
    }
  }
}
