// Two tiles have compatible shapes.
%a = arith.constant dense<1.0> : tensor<4xf32>
%b = arith.constant dense<1.0> : tensor<8xf32>
// expected-error @below {{'kda2.mul' op operand tiles have incompatible shapes}}
%r = kda2.mul %a, %b : tensor<4xf32>, tensor<8xf32> -> tensor<4xf32>
