// RUN: kda2-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(kda2-finalize-nvvm))' --verify-diagnostics | FileCheck %s
// kda2-finalize-nvvm turns the parameters convert-kda2-to-gpu lists
// in `kda2.tensor_maps` into 128-byte by-value grid constants (PTX
// `.param .align 64 .b8 p[128]`, what a CUtensorMap needs) once the kernel
// is an llvm.func, and drops the list; it makes the dynamic shared memory
// symbol an external 128-byte aligned declaration.

// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<0 x i8>
// Other shared globals keep their linkage.
// CHECK: llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x f32>

// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>,
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK-SAME: attributes {gpu.kernel, nvvm.kernel}
// CHECK-NOT: kda2.tensor_maps
gpu.module @m {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x f32>
  llvm.func @k(%x: !llvm.ptr<1>, %map: !llvm.ptr {llvm.align = 64 : i64}) attributes {gpu.kernel, nvvm.kernel, kda2.tensor_maps = array<i32: 1>} {
    llvm.return
  }
}
