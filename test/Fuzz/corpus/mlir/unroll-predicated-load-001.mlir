// A 16-bit element: the `h` register class, then a bitcast to bf16.
// CHECK-LABEL: gpu.func @bf16_load(
// CHECK: %[[BITS:.*]] = llvm.inline_asm {{.*}}"mov.b16 $0, 0;\0A\09@$2 ld.global.nc.b16 $0, [$1];", "=h,l,b" {{.*}} -> i16
// CHECK: llvm.bitcast %[[BITS]] : i16 to bf16

// PTX-LABEL: .entry bf16_load(
// PTX: ld.global.nc.b16

kda2.kernel @bf16_load(%x: !kda2.tensor<[t], bf16>,
                       %y: !kda2.tensor<[64], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["x", "y"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[t], bf16>, !kda2.tensor<[64], f32>
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c64 {
    kda2.loop serial %r to %c1 annotations [#kda2.pragma<unroll>] {
      %v = kda2.load %x[%j] : !kda2.tensor<[t], bf16> -> bf16
      %f = kda2.cast %v : bf16 -> f32
      kda2.store %f, %y[%j] : f32, !kda2.tensor<[64], f32>
    }
  }
  kda2.return
}
