// Two loops of the same extent and lanes, one with a token loop inside
// (whose iterations would each wait at the scratch's barriers): both keep
// the lanes in one warp, so a thread holds the same column and part in both
// (a register tile filled in the first is used in the second).
// CHECK-LABEL: gpu.func @lanes_placed_alike(
// CHECK-NOT: workgroup(
// CHECK: gpu.shuffle xor
// CHECK: scf.for
// CHECK: gpu.shuffle xor
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
kda2.kernel @lanes_placed_alike(%x: !kda2.tensor<[t, 32, 64], f32>,
                                %y: !kda2.tensor<[t, 32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[t, 32, 64], f32>, !kda2.tensor<[t, 32], f32>
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %t = kda2.dim "t" : index
  kda2.loop thread %j to %c32 lanes(2) annotations [#kda2.warp_reduce] {
    %row = kda2.load %x[%c0, %j] : !kda2.tensor<[t, 32, 64], f32> -> tensor<64xf32>
    %s = kda2.reduce sum %row : tensor<64xf32> -> f32
    kda2.store %s, %y[%c0, %j] : f32, !kda2.tensor<[t, 32], f32>
  }
  kda2.loop thread %j to %c32 lanes(2) annotations [#kda2.warp_reduce] {
    kda2.loop serial %i to %t {
      %row = kda2.load %x[%i, %j] : !kda2.tensor<[t, 32, 64], f32> -> tensor<64xf32>
      %s = kda2.reduce sum %row : tensor<64xf32> -> f32
      kda2.store %s, %y[%i, %j] : f32, !kda2.tensor<[t, 32], f32>
    }
  }
  kda2.return
}
