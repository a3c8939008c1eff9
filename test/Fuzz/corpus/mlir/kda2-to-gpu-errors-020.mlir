// l2norm of a rank-2 tile.
kda2.kernel @l2norm_rank2(%x: !kda2.tensor<[4, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4, 4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %x[] : !kda2.tensor<[4, 4], f32> -> tensor<4x4xf32>
    // expected-error @below {{'kda2.l2norm' op GPU lowering supports l2norm of rank-1 tiles}}
    %n = kda2.l2norm %a : tensor<4x4xf32>
  }
  kda2.return
}
