kda2.kernel @mma_split_name(%x: !kda2.tensor<[16, 8], f32>) {
  // expected-error @below {{split must be rows, cols, none or gather, got 'diagonal'}}
  %s = kda2.reg_alloc {mma, split = "diagonal"} : !kda2.tensor<[16, 8], f32, reg>
  kda2.return
}
