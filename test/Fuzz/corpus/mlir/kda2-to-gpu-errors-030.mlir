// An mma register tile is reached element by element only in a fragment
// loop over it (each thread holds its own elements, in fixed registers).
kda2.kernel @mma_element_outside(%x: !kda2.tensor<[b, 16, 8], f32>, %o: !kda2.tensor<[b, 16, 8], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %x, %o layout(row_major) packing(none) : !kda2.tensor<[b, 16, 8], f32>, !kda2.tensor<[b, 16, 8], f32>
  %S = kda2.reg_alloc {mma} : !kda2.tensor<[16, 8], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %c128 = arith.constant 128 : index
    kda2.loop fragment %e to %c128 columns(8) {
      %c8 = arith.constant 8 : index
      %r = kda2.div %e, %c8 : index, index -> index
      %c = kda2.rem %e, %c8 : index, index -> index
      %v = kda2.load %x[%r, %c] : !kda2.tensor<[b, 16, 8], f32> -> f32
      kda2.store %v, %S[%r, %c] : f32, !kda2.tensor<[16, 8], f32, reg>
    }
    %c32 = arith.constant 32 : index
    kda2.loop thread %t to %c32 {
      %c16 = arith.constant 16 : index
      %c8 = arith.constant 8 : index
      %r = kda2.rem %t, %c16 : index, index -> index
      %c = kda2.rem %t, %c8 : index, index -> index
      // expected-error @below {{'kda2.load' op reaches an element of an mma register tile other than at (r, c) of a fragment loop over it ('for r, c in schedule.fragment(t)'); products read and write the tile whole}}
      %v = kda2.load %S[%r, %c] : !kda2.tensor<[16, 8], f32, reg> -> f32
      kda2.store %v, %o[%r, %c] : f32, !kda2.tensor<[b, 16, 8], f32>
    }
  }
  kda2.return
}
