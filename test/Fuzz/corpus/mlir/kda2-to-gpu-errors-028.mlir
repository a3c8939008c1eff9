// ... and one of bounded size (code size).
kda2.kernel @unroll_huge(%y: !kda2.tensor<[1], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[1], f32>
  %c1 = arith.constant 1 : index
  %big = arith.constant 100000 : index
  kda2.loop thread %j to %c1 {
    // expected-error @below {{'kda2.loop' op '#pragma unroll' on a loop of 100000 iterations (at most 1024)}}
    kda2.loop serial %i to %big annotations [#kda2.pragma<unroll>] {
      %v = arith.constant 1.0 : f32
      kda2.store %v, %y[%j] : f32, !kda2.tensor<[1], f32>
    }
  }
  kda2.return
}
