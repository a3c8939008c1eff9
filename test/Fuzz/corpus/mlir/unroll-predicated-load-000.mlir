// RUN: kda2-opt %s --split-input-file --convert-kda2-to-gpu | FileCheck %s
// RUN: kda2-translate --kda2-to-ptx %s --split-input-file | FileCheck %s --check-prefix=PTX
// `#pragma unroll` copies a serial loop's body once per iteration (no
// scf.for left), the extent folded from constant arithmetic (4 * 8 / 8).
// A bounds-checked scalar global load (x[r, j] with r < t a runtime check)
// becomes one predicated PTX load (`@p ld.global`, zero when p is false)
// instead of a branch around a load, so the unrolled loads stay in one
// block; stores keep their branch.

// CHECK-LABEL: gpu.func @unrolled(
// CHECK-NOT: scf.for
// CHECK-COUNT-4: llvm.inline_asm {{.*}}{kda2_predicated_load} "mov.b32 $0, 0;\0A\09@$2 ld.global.nc.b32 $0, [$1];", "=r,l,b"
// CHECK-NOT: scf.for
// CHECK: gpu.return

// PTX-LABEL: .entry unrolled(
// PTX-COUNT-4: @%p{{[0-9]+}} ld.global.nc.b32
// PTX: ret;

kda2.kernel @unrolled(%x: !kda2.tensor<[t, 64], f32>,
                      %y: !kda2.tensor<[4, 64], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["x", "y"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[t, 64], f32>, !kda2.tensor<[4, 64], f32>
  %c64 = arith.constant 64 : index
  kda2.loop thread %j to %c64 {
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %n0 = kda2.mul %c4, %c8 : index, index -> index
    %n = kda2.div %n0, %c8 : index, index -> index
    %zero = arith.constant 0.0 : f32
    kda2.loop serial %r to %n annotations [#kda2.pragma<unroll>] {
      %v = kda2.load %x[%r, %j] : !kda2.tensor<[t, 64], f32> -> f32
      kda2.store %v, %y[%r, %j] : f32, !kda2.tensor<[4, 64], f32>
    }
  }
  kda2.return
}
