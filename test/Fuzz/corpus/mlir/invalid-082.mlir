// Under a tile condition, both values have one element type.
%c = arith.constant dense<true> : tensor<4xi1>
%a = arith.constant 1.0 : f32
%b = arith.constant 1.0 : f16
// expected-error @below {{'kda2.select' op operand element types differ: 'f32' vs 'f16'}}
%r = kda2.select %c, %a, %b : tensor<4xi1>, f32, f16 -> tensor<4xf32>
