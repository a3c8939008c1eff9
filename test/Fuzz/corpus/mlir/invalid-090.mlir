// Both operands have one element type.
%a = arith.constant dense<1.0> : tensor<16x16xf16>
%b = arith.constant dense<1.0> : tensor<16x16xbf16>
// expected-error @below {{'kda2.matmul' op operand element types differ: 'f16' vs 'bf16'}}
%r = kda2.matmul %a, %b : tensor<16x16xf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
