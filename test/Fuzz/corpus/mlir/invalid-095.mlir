// tri_solve's right-hand side has as many rows as the matrix.
%a = arith.constant dense<1.0> : tensor<16x16xf32>
%b = arith.constant dense<1.0> : tensor<8x16xf32>
// expected-error @below {{'kda2.tri_solve' op right-hand side must be a 2-D tile with 16 rows, got 'tensor<8x16xf32>'}}
%r = kda2.tri_solve %a, %b : tensor<16x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
