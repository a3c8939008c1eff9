// RUN: kda2-opt %s --split-input-file --convert-kda2-to-gpu | FileCheck %s
//
// --convert-kda2-to-gpu (lib/Conversion/KDA2ToGPU/KDA2ToGPU.cpp): kernel
// signatures, the mapping of grid/block/thread/serial loops, lanes, global
// addressing and vector accesses, shared and register buffers, masks,
// counters, uniform stores and the launch metadata. The output is not
// canonicalized, so the checks skip the repeated constants.

// Signature: tensors become !llvm.ptr<1>, scalars stay, one i64 per named
// dimension in order of first use, the counter buffer last; the kernel goes
// into a gpu.module of a gpu.container_module with its known block size and
// the __kda2_meta_<kernel> launch metadata.
// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @kda2_kernels
// CHECK-LABEL: gpu.func @signature(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1>{{( \{[^}]*\})?}}, %[[S:[^:]*]]: f32, %[[C:[^:]*]]: i32,
// CHECK-SAME: %[[Y:[^:]*]]: !llvm.ptr<1>{{( \{[^}]*\})?}}, %[[B:[^:]*]]: i64, %[[N:[^:]*]]: i64,
// CHECK-SAME: %[[CNT:[^:]*]]: !llvm.ptr<1>)
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 32, 1, 1>}
// CHECK: llvm.atomicrmw add
// CHECK: gpu.return
// CHECK: llvm.mlir.global external constant @__kda2_meta_signature("kda2-kernel-v1\0A
// CHECK-SAME: block 32 1 1\0Agrid.x n\0Agrid.y b\0A
// CHECK-SAME: arg ptr x bf16 in 3 b n 64\0Aarg scalar s f32\0Aarg scalar c i32\0Aarg ptr y bf16 out 3 b n 64\0A
// CHECK-SAME: arg dim b\0Aarg dim n\0Aarg counters 1\0Acounter rows i64\0Aend\0A\00")
// CHECK-SAME: {addr_space = 1 : i32, alignment = 1 : i64}
kda2.kernel @signature(%x: !kda2.tensor<[b, n, 64], bf16>, %s: f32, %c: i32,
                       %y: !kda2.tensor<[b, n, 64], bf16> {kda2.io = #kda2.io<out>})
    attributes {grid = ["b"], arg_names = ["x", "s", "c", "y"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, n, 64], bf16>, !kda2.tensor<[b, n, 64], bf16>
  %n = kda2.dim "n" : index
  kda2.loop block %i to %n annotations [#kda2.coalesced_access<dim = "n", modulus = 8>] {
    %row = kda2.load %x[%i] : !kda2.tensor<[b, n, 64], bf16> -> tensor<64xbf16>
    kda2.store %row, %y[%i] : tensor<64xbf16>, !kda2.tensor<[b, n, 64], bf16>
    kda2.counter "rows", %c : i32
  }
  kda2.return
}
