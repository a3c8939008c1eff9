// Windows read global tensors.
kda2.kernel @k(%x: !kda2.tensor<[16, 8], f32>) {
  %s = kda2.smem_alloc size(512) : !kda2.tensor<[16, 8], f32, smem>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op reads windows of a smem tensor; windows are for global tensors}}
    %v = kda2.load %s[%i] {windows = array<i64: 4>} : !kda2.tensor<[16, 8], f32, smem> -> tensor<4x8xf32>
  }
}
