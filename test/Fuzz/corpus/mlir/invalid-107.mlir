kda2.kernel @split_without_mma(%x: !kda2.tensor<[16, 8], f32>) {
  // expected-error @below {{split is only valid on an mma register tile}}
  %s = kda2.reg_alloc {split = "cols"} : !kda2.tensor<[16, 8], f32, reg>
  kda2.return
}
