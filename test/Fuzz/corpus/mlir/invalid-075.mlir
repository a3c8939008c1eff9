// A store writes what its indices select.
kda2.kernel @k(%y: !kda2.tensor<[4], f32> {kda2.io = #kda2.io<out>}) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    %v = arith.constant 1.0 : f16
    // expected-error @below {{'kda2.store' op expected value type 'f32' for 1 indices into '!kda2.tensor<[4], f32>', got 'f16'}}
    kda2.store %v, %y[%i] : f16, !kda2.tensor<[4], f32>
  }
}
