// A register tile is a private memref.alloca at the top of the kernel,
// accessed with vector loads and stores.
// CHECK-LABEL: gpu.func @register_tile(
// CHECK-NEXT: %[[REG:.*]] = memref.alloca() : memref<4xf32>
// CHECK: vector.store %{{.*}}, %[[REG]][%{{.*}}] : memref<4xf32>, vector<4xf32>
// CHECK: vector.load %[[REG]][%{{.*}}] : memref<4xf32>, vector<4xf32>
kda2.kernel @register_tile(%x: !kda2.tensor<[32, 4], f32>,
                           %y: !kda2.tensor<[32, 4], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[32, 4], f32>, !kda2.tensor<[32, 4], f32>
  %r = kda2.reg_alloc : !kda2.tensor<[4], f32, reg>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %row = kda2.load %x[%j] : !kda2.tensor<[32, 4], f32> -> tensor<4xf32>
    kda2.store %row, %r[] : tensor<4xf32>, !kda2.tensor<[4], f32, reg>
    %back = kda2.load %r[] : !kda2.tensor<[4], f32, reg> -> tensor<4xf32>
    kda2.store %back, %y[%j] : tensor<4xf32>, !kda2.tensor<[32, 4], f32>
  }
  kda2.return
}
