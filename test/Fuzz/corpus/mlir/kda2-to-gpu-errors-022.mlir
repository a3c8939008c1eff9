// cumsum of a tile distributed over the lanes of a lanes(4) loop.
kda2.kernel @cumsum_distributed(%x: !kda2.tensor<[8, 16], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[8, 16], f32>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 lanes(4) annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %x[%j] : !kda2.tensor<[8, 16], f32> -> tensor<16xf32>
    // expected-error @below {{'kda2.cumsum' op GPU lowering supports cumsum of rank-1 tiles outside lanes(P) loops}}
    %c = kda2.cumsum %a : tensor<16xf32>
  }
  kda2.return
}
