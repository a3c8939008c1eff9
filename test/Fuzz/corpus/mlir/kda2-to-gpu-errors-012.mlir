// An operand tile loaded once but used by something else as well.
kda2.kernel @matmul_operand_shared(%y: !kda2.tensor<[16, 16], f32> {kda2.io = #kda2.io<out>}, %z: !kda2.tensor<[16, 16], f16> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y, %z layout(row_major) packing(none) : !kda2.tensor<[16, 16], f32>, !kda2.tensor<[16, 16], f16>
  %s = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], f16, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[16, 16], f16, smem> -> tensor<16x16xf16>
    // expected-error @below {{'kda2.matmul' op operand a is also used by another operation; load the tile again for it}}
    %m = kda2.matmul %a, %a : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
    kda2.store %m, %y[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32>
    kda2.store %a, %z[] : tensor<16x16xf16>, !kda2.tensor<[16, 16], f16>
  }
  kda2.return
}
