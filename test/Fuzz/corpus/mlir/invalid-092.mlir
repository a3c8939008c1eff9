// f16 operands accumulate in f32.
%a = arith.constant dense<1.0> : tensor<16x16xf16>
// expected-error @below {{'kda2.matmul' op expected result type 'tensor<16x16xf32>', got 'tensor<16x16xf16>'}}
%r = kda2.matmul %a, %a : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
