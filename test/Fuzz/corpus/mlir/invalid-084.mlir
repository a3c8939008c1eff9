// A cast keeps the shape.
%a = arith.constant dense<1.0> : tensor<4xf32>
// expected-error @below {{'kda2.cast' op cannot change the shape: 'tensor<4xf32>' -> 'tensor<8xf16>'}}
%r = kda2.cast %a : tensor<4xf32> -> tensor<8xf16>
