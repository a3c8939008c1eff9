// RUN: kda2-opt %s --convert-kda2-to-gpu | FileCheck %s
// RUN: kda2-translate --kda2-to-ptx %s | FileCheck %s --check-prefix=PTX
// `@coalesced_access if s % 32 == 0 else padding_align32` on a loop whose
// threads walk a row of a [b, s, s] tensor: the fallback pads the rows, so
// the tensors accessed in the loop store `s` rounded up to a multiple of
// 32 elements (every row starts on a 128-byte line for f32, whatever s is)
// and the kernel addresses them with the padded pitch. The metadata lists
// the padding (`pad <arg> <dim> <multiple>`) so the caller allocates and
// lays out the buffers to match. `w`, read outside the annotated loop,
// keeps its pitch.

// CHECK-LABEL: gpu.func @masked_rows(
// The padded pitch of x: (s + 31) / 32 * 32 ...
// CHECK: %[[S:.*]] = arith.index_cast %arg4 : i64 to index
// CHECK: %[[SI:.*]] = arith.index_cast %[[S]] : index to i64
// CHECK-NEXT: %[[C31:.*]] = arith.constant 31 : i64
// CHECK-NEXT: %[[UP:.*]] = arith.addi %[[SI]], %[[C31]] : i64
// CHECK: %[[Q:.*]] = arith.divui %[[UP]], %{{.*}} : i64
// CHECK-NEXT: %[[PITCH:.*]] = arith.muli %[[Q]], %{{.*}} : i64
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %{{.*}}, %[[PITCH]] : i64
// ... while w's row stride is s itself.
// CHECK: arith.constant 1 : i64
// CHECK-NEXT: %[[W1:.*]] = arith.index_cast %[[S]] : index to i64
// CHECK-NEXT: %[[WROW:.*]] = arith.muli %{{.*}}, %[[W1]] : i64
// CHECK: arith.muli %{{.*}}, %[[WROW]] : i64
// CHECK: llvm.getelementptr %arg1
// x[i, j] uses the padded row stride.
// CHECK: arith.muli %{{.*}}, %[[ROW]] : i64
// CHECK: llvm.getelementptr %arg0
// CHECK: llvm.mlir.global{{.*}}@__kda2_meta_masked_rows
// CHECK-SAME: arg ptr x f32 in 3 b s s\0Apad x s 32\0Aarg ptr w f32 in 3 b s s\0Aarg ptr y f32 out 3 b s s\0Apad y s 32\0A

// PTX: .entry masked_rows(
// PTX: add.s64 {{.*}}, 31;
// PTX: and.b64 {{.*}}, -32;

kda2.kernel @masked_rows(%x: !kda2.tensor<[b, s, s], f32>,
                         %w: !kda2.tensor<[b, s, s], f32>,
                         %y: !kda2.tensor<[b, s, s], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["x", "w", "y"], grid = ["b"]} {
  kda2.gmem %x, %w, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, s, s], f32>, !kda2.tensor<[b, s, s], f32>, !kda2.tensor<[b, s, s], f32>
  %s = kda2.dim "s" : index
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  kda2.loop serial %i to %s {
    %w0 = kda2.load %w[%c0, %c0] : !kda2.tensor<[b, s, s], f32> -> f32
    kda2.loop thread %t to %c32 annotations [#kda2.coalesced_access<dim = "s", modulus = 32, fallback = padding_align32>] {
      kda2.loop serial %c to %s {
        %base = kda2.mul %c, %c32 : index, index -> index
        %j = kda2.add %base, %t : index, index -> index
        %v = kda2.load %x[%i, %j] : !kda2.tensor<[b, s, s], f32> -> f32
        %r = kda2.mul %v, %w0 : f32, f32 -> f32
        kda2.store %r, %y[%i, %j] : f32, !kda2.tensor<[b, s, s], f32>
      }
    }
  }
}
