// The mask is shaped like the value.
%v = arith.constant dense<1.0> : tensor<4xf16>
%m = arith.constant 1 : i8
// expected-error @below {{'kda2.delta_masked' op mask shape does not match the value: 'i8' vs 'tensor<4xf16>'}}
%r = kda2.delta_masked %v, %m mask_type(uint8) : tensor<4xf16>, i8
