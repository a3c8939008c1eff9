// l2norm needs a dimension to normalise along.
%a = arith.constant dense<1.0> : tensor<f32>
// expected-error @below {{'kda2.l2norm' op input must have at least one dimension}}
%r = kda2.l2norm %a : tensor<f32>
