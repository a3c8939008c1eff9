// Ops of other dialects inside loops are not lowered (arith.constant is).
kda2.kernel @foreign_op(%x: !kda2.tensor<[4], i32>, %y: !kda2.tensor<[4], i32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[4], i32>, !kda2.tensor<[4], i32>
  %c4 = arith.constant 4 : index
  kda2.loop thread %j to %c4 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[4], i32> -> i32
    // expected-error @below {{'arith.addi' op is not supported by the GPU lowering}}
    %w = arith.addi %v, %v : i32
    kda2.store %w, %y[%j] : i32, !kda2.tensor<[4], i32>
  }
  kda2.return
}
