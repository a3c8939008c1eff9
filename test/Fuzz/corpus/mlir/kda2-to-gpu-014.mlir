// kda2.delta_masked selects on the mask bits (mask != 0) and never
// multiplies by the mask.
// CHECK-LABEL: gpu.func @delta_masked(
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: %[[M:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<1> -> i8
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT: %[[KEEP:.*]] = arith.cmpi ne, %[[M]], %[[Z]] : i8
// CHECK-NEXT: %[[FILL:.*]] = arith.constant -1.000000e+30 : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[KEEP]], %[[V]], %[[FILL]] : f32
// CHECK-NOT: arith.mulf
// CHECK: llvm.store %[[R]]
// CHECK-NOT: arith.mulf
// CHECK: gpu.return
kda2.kernel @delta_masked(%x: !kda2.tensor<[32], f32>, %m: !kda2.tensor<[32], ui8>,
                          %y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %m, %y layout(row_major) packing(none)
      : !kda2.tensor<[32], f32>, !kda2.tensor<[32], ui8>, !kda2.tensor<[32], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 {
    %v = kda2.load %x[%j] : !kda2.tensor<[32], f32> -> f32
    %k = kda2.load %m[%j] : !kda2.tensor<[32], ui8> -> ui8
    %r = kda2.delta_masked %v, %k mask_type(uint8) {fill = -1.0e+30 : f64} : f32, ui8
    kda2.store %r, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}
