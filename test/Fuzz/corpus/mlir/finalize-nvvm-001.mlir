gpu.module @m {
  // expected-error @below {{'llvm.func' op kda2.tensor_maps names parameter #0, which is not a pointer parameter}}
  llvm.func @k(%x: i64) attributes {gpu.kernel, nvvm.kernel, kda2.tensor_maps = array<i32: 0>} {
    llvm.return
  }
}
