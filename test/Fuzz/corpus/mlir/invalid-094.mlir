// tri_solve's matrix is square.
%a = arith.constant dense<1.0> : tensor<16x8xf32>
// expected-error @below {{'kda2.tri_solve' op matrix must be a square 2-D tile, got 'tensor<16x8xf32>'}}
%r = kda2.tri_solve %a, %a : tensor<16x8xf32>, tensor<16x8xf32> -> tensor<16x8xf32>
