//===- Passes.h - kda2 conversion passes ------------------------*- C++ -*-===//
//
// Declarations of the passes that lower kda2 out of its dialect.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_CONVERSION_PASSES_H
#define KDA2_CONVERSION_PASSES_H

#include "kda2/Dialect/KDA2/IR/KDA2.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::kda2 {

#define GEN_PASS_DECL
#include "kda2/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kda2/Conversion/Passes.h.inc"

} // namespace mlir::kda2

#endif // KDA2_CONVERSION_PASSES_H
