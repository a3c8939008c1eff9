// `#pragma unroll` needs a trip count known at compile time.
kda2.kernel @unroll_dynamic(%x: !kda2.tensor<[t], f32>, %y: !kda2.tensor<[1], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none) : !kda2.tensor<[t], f32>, !kda2.tensor<[1], f32>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 {
    %t = kda2.dim "t" : index
    // expected-error @below {{'kda2.loop' op '#pragma unroll' needs a constant trip count (bind the extent's names with --tirx-bind)}}
    kda2.loop serial %i to %t annotations [#kda2.pragma<unroll>] {
      %v = kda2.load %x[%i] : !kda2.tensor<[t], f32> -> f32
      kda2.store %v, %y[%j] : f32, !kda2.tensor<[1], f32>
    }
  }
  kda2.return
}
