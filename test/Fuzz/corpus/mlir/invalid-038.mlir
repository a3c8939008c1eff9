// A kernel has a schedule.
// expected-error @below {{'kda2.kernel' op has no schedule loop (kda2.loop)}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {pragmas = [#kda2.pragma<sm_shuffle>]} {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
}
