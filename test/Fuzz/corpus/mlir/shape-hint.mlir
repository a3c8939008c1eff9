// RUN: kda2-opt %s --convert-kda2-to-gpu | FileCheck %s
// RUN: kda2-translate --kda2-to-ptx %s | FileCheck %s --check-prefix=PTX
// @shape_hint(t, [1, 4]): one copy of the kernel per hinted size, in which
// the size is a constant, plus the generic kernel whose metadata lists the
// copies for the runtime's dispatch (`variant t 1 sh__t_1`).

// The copy for t = 1: the serial loop runs exactly once.
// CHECK-LABEL: gpu.func @sh__t_1(
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>{{( \{[^}]*\})?}}, %{{.*}}: !llvm.ptr<1>{{( \{[^}]*\})?}}, %{{.*}}: !llvm.ptr<1>{{( \{[^}]*\})?}}, %{{.*}}: i64, %{{.*}}: i64)
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[ONE]] step
// CHECK: llvm.mlir.global external constant @__kda2_meta_sh__t_1
// CHECK-SAME: name sh__t_1

// CHECK-LABEL: gpu.func @sh__t_4(
// CHECK: llvm.mlir.global external constant @__kda2_meta_sh__t_4

// The generic kernel takes t from its parameter and lists the copies.
// CHECK-LABEL: gpu.func @sh(
// CHECK-SAME: %{{.*}}: i64, %[[TARG:.*]]: i64)
// CHECK: %[[T:.*]] = arith.index_cast %[[TARG]] : i64 to index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[T]] step
// CHECK: llvm.mlir.global external constant @__kda2_meta_sh(
// CHECK-SAME: variant t 1 sh__t_1\0Avariant t 4 sh__t_4\0Aend

// PTX-DAG: .visible .entry sh__t_1(
// PTX-DAG: .visible .entry sh__t_4(
// PTX-DAG: .visible .entry sh(

kda2.kernel @sh(%x: !kda2.tensor<[n, t, 64], f32>, %w: !kda2.tensor<[n, 64], f32>,
                %y: !kda2.tensor<[n, t, 64], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["x", "w", "y"], grid = ["n"]} {
  kda2.gmem %x, %w, %y layout(row_major) packing(none)
      : !kda2.tensor<[n, t, 64], f32>, !kda2.tensor<[n, 64], f32>, !kda2.tensor<[n, t, 64], f32>
  %c64 = arith.constant 64 : index
  kda2.loop thread %j to %c64 {
    %t = kda2.dim "t" : index
    kda2.loop serial %i to %t annotations [#kda2.shape_hint<"t", [1, 4]>] {
      %row = kda2.load %x[%i] : !kda2.tensor<[n, t, 64], f32> -> tensor<64xf32>
      %sum = kda2.reduce sum %row : tensor<64xf32> -> f32
      %wj = kda2.load %w[%j] : !kda2.tensor<[n, 64], f32> -> f32
      %v = kda2.mul %sum, %wj : f32, f32 -> f32
      kda2.store %v, %y[%i, %j] : f32, !kda2.tensor<[n, t, 64], f32>
    }
  }
}
