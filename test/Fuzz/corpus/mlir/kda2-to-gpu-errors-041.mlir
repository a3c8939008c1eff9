// A window is the source of a whole-tile copy into a shared buffer; read
// into a thread's registers it is an error, not a silent element load.
kda2.kernel @window_in_registers(%v: !kda2.tensor<[t, 64], bf16>, %o: !kda2.tensor<[16, 64], f32> {kda2.io = #kda2.io<out>}) attributes {pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[t, 64], bf16>
  kda2.gmem %o layout(row_major) packing(none) : !kda2.tensor<[16, 64], f32>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    kda2.loop thread %x to %c1 {
      // expected-error @below {{'kda2.load' op reads a window: it is copied whole into a shared buffer, in uniform code (a kda2.store of it, outside thread loops)}}
      %w = kda2.load %v[%x] {windows = array<i64: 16>} : !kda2.tensor<[t, 64], bf16> -> tensor<16x64xbf16>
    }
  }
  kda2.return
}
