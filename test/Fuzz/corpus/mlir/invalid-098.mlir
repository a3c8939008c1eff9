// l2norm's eps is positive.
%a = arith.constant dense<1.0> : tensor<4xf32>
// expected-error @below {{'kda2.l2norm' op eps must be positive, got 0}}
%r = kda2.l2norm %a {eps = 0.0 : f64} : tensor<4xf32>
