// A tile condition and tile values agree in shape.
%c = arith.constant dense<true> : tensor<4xi1>
%v = arith.constant dense<1.0> : tensor<8xf32>
// expected-error @below {{'kda2.select' op condition and value tiles have incompatible shapes}}
%r = kda2.select %c, %v, %v : tensor<4xi1>, tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
