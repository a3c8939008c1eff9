// tri_solve's result has the right-hand side's type.
%a = arith.constant dense<1.0> : tensor<16x16xf32>
// expected-error @below {{'kda2.tri_solve' op expected result type 'tensor<16x16xf32>', got 'tensor<16x16xf16>'}}
%r = kda2.tri_solve %a, %a : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf16>
