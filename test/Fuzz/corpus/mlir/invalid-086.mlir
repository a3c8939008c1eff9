//===----------------------------------------------------------------------===//
// Reductions and tile ops
//===----------------------------------------------------------------------===//

// The reduced axis exists.
%a = arith.constant dense<1.0> : tensor<4xf32>
// expected-error @below {{'kda2.reduce' op axis 1 is out of range for rank 1}}
%r = kda2.reduce sum %a {axis = 1 : i64} : tensor<4xf32> -> f32
