// RUN: kda2-opt %s --split-input-file --convert-kda2-to-gpu --verify-diagnostics
//
// One case per error of --convert-kda2-to-gpu (KDA2ToGPU.cpp). Every input
// is valid kda2 IR (it passes the dialect verifier) that the GPU lowering
// does not support.
//
// Not reachable from valid IR:
//  * "block loop extent must be a constant or a named dimension": a block
//    loop must be at the top level of the kernel (checked first), where the
//    only index values are arith.constant and kda2.dim (the kernel verifier
//    allows nothing else there, and scalar arguments cannot be index).
//  * "unsupported loop mapping": warp loops, the only mapping that reaches
//    it, are rejected by the analysis before emission.
//  * "internal error: operand not lowered": every value a verified kernel
//    can use is lowered before its users.

// A '?' dimension has no name, so its size cannot become a parameter.
// expected-error @below {{'kda2.kernel' op anonymous dynamic dimension '?' cannot be lowered; name it so its size becomes a kernel parameter}}
kda2.kernel @anonymous_dim(%x: !kda2.tensor<[?, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[?, 4], f32>
  %c4 = arith.constant 4 : index
  kda2.loop thread %j to %c4 annotations [#kda2.coalesced_access<>] {
    %c0 = arith.constant 0 : index
    %v = kda2.load %x[%c0, %j] : !kda2.tensor<[?, 4], f32> -> f32
  }
  kda2.return
}
