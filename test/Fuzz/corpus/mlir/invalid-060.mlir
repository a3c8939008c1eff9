// @coalesced_access over a dynamic extent needs a condition.
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[n], f32>
  %n = kda2.dim "n" : index
  // expected-error @below {{'kda2.loop' op '@coalesced_access' on dynamic dimension 'n' needs a condition, e.g. 'if n % 32 == 0 else padding_align32'}}
  kda2.loop thread %i to %n annotations [#kda2.coalesced_access<>] {
  }
}
