// Under a tile condition, the result is a tile of the condition's shape.
%c = arith.constant dense<true> : tensor<4xi1>
%a = arith.constant 1.0 : f32
// expected-error @below {{'kda2.select' op expected result type 'tensor<4xf32>', got 'f32'}}
%r = kda2.select %c, %a, %a : tensor<4xi1>, f32, f32 -> f32
