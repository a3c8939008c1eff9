// The same limit for register tiles.
kda2.kernel @huge_register_tile(%y: !kda2.tensor<[4], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  // expected-error @below {{'kda2.reg_alloc' op makes each thread hold a tile of 8192 elements (the limit is 4096)}}
  %r = kda2.reg_alloc : !kda2.tensor<[8192], f32, reg>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %r[%j] : !kda2.tensor<[8192], f32, reg> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[4], f32>
  }
  kda2.return
}
