// Kernel inputs are read-only.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    %v = arith.constant 1.0 : f32
    // expected-error @below {{'kda2.store' op writes kernel input argument #0; mark it {kda2.io = #kda2.io<out>} or #kda2.io<inout>}}
    kda2.store %v, %x[%i] : f32, !kda2.tensor<[4], f32>
  }
}
