// The contraction sizes agree.
%a = arith.constant dense<1.0> : tensor<16x32xf16>
%b = arith.constant dense<1.0> : tensor<16x8xf16>
// expected-error @below {{'kda2.matmul' op contraction sizes differ: 32 vs 16}}
%r = kda2.matmul %a, %b : tensor<16x32xf16>, tensor<16x8xf16> -> tensor<16x8xf32>
