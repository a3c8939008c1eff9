// The body takes exactly one index (generic form).
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op body must take one index induction variable}}
  "kda2.loop"(%c1) <{mapping = 0 : i32}> ({
  ^bb0(%i: index, %j: index):
  }) : (index) -> ()
}
