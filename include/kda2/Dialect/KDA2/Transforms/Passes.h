//===- Passes.h - kda2 transformation passes --------------------*- C++ -*-===//
//
// Declarations (generated from Passes.td) of the passes over the kda2
// dialect, and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_DIALECT_KDA2_TRANSFORMS_PASSES_H
#define KDA2_DIALECT_KDA2_TRANSFORMS_PASSES_H

#include "kda2/Dialect/KDA2/IR/KDA2.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::kda2 {

#define GEN_PASS_DECL
#include "kda2/Dialect/KDA2/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kda2/Dialect/KDA2/Transforms/Passes.h.inc"

} // namespace mlir::kda2

#endif // KDA2_DIALECT_KDA2_TRANSFORMS_PASSES_H
