// Exactly 2^63 - 1 bits fit (i1 elements).
kda2.kernel @largest(%x: !kda2.tensor<[9223372036854775807], i1>,
                     %y: !kda2.tensor<[9223372036854775807], i1> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[9223372036854775807], i1>, !kda2.tensor<[9223372036854775807], i1>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] {
  }
  kda2.return
}
