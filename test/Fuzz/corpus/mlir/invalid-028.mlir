//===----------------------------------------------------------------------===//
// kda2.kernel
//===----------------------------------------------------------------------===//

// A kernel has a body (custom parser; reported where the body should start).
kda2.kernel @k(%x: !kda2.tensor<[4], f32>)
// expected-error @below {{expected a kernel body}}
%c = arith.constant 0 : index
