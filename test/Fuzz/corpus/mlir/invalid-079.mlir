// The result is the broadcast type (for kda2.cmp, with i1 elements).
%a = arith.constant dense<1.0> : tensor<4xf32>
%b = arith.constant 1.0 : f32
// expected-error @below {{'kda2.cmp' op expected result type 'tensor<4xi1>', got 'i1'}}
%r = kda2.cmp lt %a, %b : tensor<4xf32>, f32 -> i1
