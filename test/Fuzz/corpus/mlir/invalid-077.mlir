//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

// Element-wise and tile ops are free of kernel context, so their cases use
// module-level constants as operands.

// Operands share an element type.
%a = arith.constant 1.0 : f32
%b = arith.constant 1.0 : f16
// expected-error @below {{'kda2.add' op operand element types differ: 'f32' vs 'f16'}}
%r = kda2.add %a, %b : f32, f16 -> f32
