// The result drops the reduced axis.
%a = arith.constant dense<1.0> : tensor<4x8xf32>
// expected-error @below {{'kda2.reduce' op expected result type 'tensor<4xf32>', got 'tensor<8xf32>'}}
%r = kda2.reduce max %a : tensor<4x8xf32> -> tensor<8xf32>
