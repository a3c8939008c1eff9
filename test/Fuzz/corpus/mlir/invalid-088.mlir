// matmul takes 2-D tiles.
%a = arith.constant dense<1.0> : tensor<16xf16>
// expected-error @below {{'kda2.matmul' op operands must be 2-D tiles}}
%r = kda2.matmul %a, %a : tensor<16xf16>, tensor<16xf16> -> tensor<16x16xf32>
