// A fragment loop walks a tile of its own split: the threads of a
// split=none loop hold other elements than those of a split=cols tile.
kda2.kernel @mma_fragment_split(%o: !kda2.tensor<[b, 16, 32], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %o layout(row_major) packing(none) : !kda2.tensor<[b, 16, 32], f32>
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 32], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %c512 = arith.constant 512 : index
    kda2.loop fragment %e to %c512 columns(32) split(none) {
      %c32 = arith.constant 32 : index
      %r = kda2.div %e, %c32 : index, index -> index
      %c = kda2.rem %e, %c32 : index, index -> index
      // expected-error @below {{'kda2.load' op reaches an mma register tile in a fragment loop over a tile of another split (the threads hold different elements)}}
      %v = kda2.load %T[%r, %c] : !kda2.tensor<[16, 32], f32, reg> -> f32
      kda2.store %v, %o[%r, %c] : f32, !kda2.tensor<[b, 16, 32], f32>
    }
  }
  kda2.return
}
