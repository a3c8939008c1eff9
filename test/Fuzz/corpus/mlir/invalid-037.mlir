// A kernel declares a layout.
// expected-error @below {{'kda2.kernel' op has no layout declaration (kda2.gmem, kda2.smem_alloc or kda2.reg_alloc)}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] {
  }
}
