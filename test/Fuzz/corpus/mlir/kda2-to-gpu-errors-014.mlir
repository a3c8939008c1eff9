// A tile over a named (unbound) feature dimension has no static shape.
kda2.kernel @dynamic_tile(%x: !kda2.tensor<[8, n], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[8, n], f32>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 annotations [#kda2.coalesced_access<dim = "n", modulus = 8>] {
    // expected-error @below {{'kda2.load' op produces the dynamic tile 'tensor<?xf32>'; bind its feature dimension to a size first (kda2-translate --import-tirx --tirx-bind=<dim>=<n>)}}
    %row = kda2.load %x[%j] : !kda2.tensor<[8, n], f32> -> tensor<?xf32>
  }
  kda2.return
}
