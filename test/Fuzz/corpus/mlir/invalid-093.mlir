// The cumsum axis exists (a negative axis too).
%a = arith.constant dense<1.0> : tensor<4x8xf32>
// expected-error @below {{'kda2.cumsum' op axis -1 is out of range for rank 2}}
%r = kda2.cumsum %a {axis = -1 : i64} : tensor<4x8xf32>
