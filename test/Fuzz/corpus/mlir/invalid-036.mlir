// Counter names are unique within a kernel.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    kda2.counter "hits", %i : index
    // expected-error @below {{'kda2.counter' op custom counter 'hits' is defined more than once in the kernel}}
    kda2.counter "hits", %i : index
  }
}
