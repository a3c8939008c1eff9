// A serial loop is an scf.for from 0 to its extent, here a size parameter.
// CHECK-LABEL: gpu.func @serial(
// CHECK-SAME: %[[T:[^:]*]]: i64)
// CHECK: %[[TI:.*]] = arith.index_cast %[[T]] : i64 to index
// CHECK: scf.if
// CHECK: %[[STEP:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[LB:.*]] = arith.constant 0 : index
// CHECK-NEXT: scf.for %[[I:.*]] = %[[LB]] to %[[TI]] step %[[STEP]] {
// CHECK: arith.index_cast %[[I]] : index to i64
// CHECK: llvm.load
// CHECK: arith.addf
// CHECK: memref.store
// CHECK-NEXT: {{^ *}}}
kda2.kernel @serial(%x: !kda2.tensor<[t], f32>,
                    %y: !kda2.tensor<[1], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[t], f32>, !kda2.tensor<[1], f32>
  %r = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %t = kda2.dim "t" : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<dim = "t", modulus = 4>] {
    kda2.loop serial %i to %t {
      %v = kda2.load %x[%i] : !kda2.tensor<[t], f32> -> f32
      %a = kda2.load %r[%c0] : !kda2.tensor<[1], f32, reg> -> f32
      %s = kda2.add %a, %v : f32, f32 -> f32
      kda2.store %s, %r[%c0] : f32, !kda2.tensor<[1], f32, reg>
    }
    %a = kda2.load %r[%c0] : !kda2.tensor<[1], f32, reg> -> f32
    kda2.store %a, %y[%j] : f32, !kda2.tensor<[1], f32>
  }
  kda2.return
}
