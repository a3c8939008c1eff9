// A tensor-core matmul needs the whole block: not inside a thread loop.
kda2.kernel @matmul_in_thread_loop(%x: !kda2.tensor<[16, 16], f16>, %y: !kda2.tensor<[16, 16], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none) : !kda2.tensor<[16, 16], f16>, !kda2.tensor<[16, 16], f32>
  %s = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], f16, smem>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[16, 16], f16, smem> -> tensor<16x16xf16>
    %b = kda2.load %s[] : !kda2.tensor<[16, 16], f16, smem> -> tensor<16x16xf16>
    // expected-error @below {{'kda2.matmul' op runs on tensor cores with every warp of the block: write it outside thread and fragment loops}}
    %m = kda2.matmul %a, %b : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
    kda2.store %m, %y[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32>
  }
  kda2.return
}
