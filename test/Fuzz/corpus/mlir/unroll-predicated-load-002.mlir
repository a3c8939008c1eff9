// A triangular nest: the inner loop's extent is the outer loop's variable.
// Both carry the pragma; the outer one is unrolled first, which makes each
// copy's inner extent a constant (0, 1, 2, 3), then those are unrolled:
// 0 + 1 + 2 + 3 = 6 loads of x, no loop left.
// CHECK-LABEL: gpu.func @triangular(
// CHECK-NOT: scf.for
// CHECK-COUNT-6: llvm.inline_asm {{.*}}{kda2_predicated_load}
// CHECK-NOT: kda2_predicated_load
// CHECK-NOT: scf.for
// CHECK: gpu.return
kda2.kernel @triangular(%x: !kda2.tensor<[t, 64], f32>,
                        %y: !kda2.tensor<[4, 4, 64], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["x", "y"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[t, 64], f32>, !kda2.tensor<[4, 4, 64], f32>
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  kda2.loop thread %j to %c64 {
    kda2.loop serial %i to %c4 annotations [#kda2.pragma<unroll>] {
      kda2.loop serial %k to %i annotations [#kda2.pragma<unroll>] {
        %v = kda2.load %x[%k, %j] : !kda2.tensor<[t, 64], f32> -> f32
        kda2.store %v, %y[%i, %k, %j] : f32, !kda2.tensor<[4, 4, 64], f32>
      }
    }
  }
  kda2.return
}
