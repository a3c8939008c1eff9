// Column-wise reductions of a rank-2 tile are not lowered.
kda2.kernel @reduce_axis0(%x: !kda2.tensor<[4, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4, 4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %x[] : !kda2.tensor<[4, 4], f32> -> tensor<4x4xf32>
    // expected-error @below {{'kda2.reduce' op GPU lowering supports reductions of rank-1 tiles and row-wise reductions of rank-2 tiles}}
    %r = kda2.reduce sum %a {axis = 0 : i64} : tensor<4x4xf32> -> tensor<4xf32>
  }
  kda2.return
}
