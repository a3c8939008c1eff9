//===----------------------------------------------------------------------===//
// Annotation ops
//===----------------------------------------------------------------------===//

// A uint8 mask holds 8-bit integers.
%v = arith.constant 1.0 : f16
%m = arith.constant true
// expected-error @below {{'kda2.delta_masked' op mask_type uint8 needs a mask of 8-bit integers, got 'i1'}}
%r = kda2.delta_masked %v, %m mask_type(uint8) : f16, i1
