// The accumulator is shaped like the product.
%a = arith.constant dense<1.0> : tensor<16x16xf16>
%c = arith.constant dense<1.0> : tensor<16x8xf32>
// expected-error @below {{'kda2.matmul' op accumulator must be shaped like 'tensor<16x16xf32>', got 'tensor<16x8xf32>'}}
%r = kda2.matmul %a, %a acc(%c) : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x8xf32> -> tensor<16x8xf32>
