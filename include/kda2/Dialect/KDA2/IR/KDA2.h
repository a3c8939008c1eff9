//===- KDA2.h - kda2 dialect public header ----------------------*- C++ -*-===//
//
// The one header a user of the kda2 dialect includes: the dialect, its
// enums, attributes, types and operations.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_DIALECT_KDA2_IR_KDA2_H
#define KDA2_DIALECT_KDA2_IR_KDA2_H

#include "kda2/Agent/HardwareProfile.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "kda2/Dialect/KDA2/IR/KDA2Enums.h.inc"

#include "kda2/Dialect/KDA2/IR/KDA2OpsDialect.h.inc"

#include "kda2/Dialect/KDA2/IR/KDA2AttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "kda2/Dialect/KDA2/IR/KDA2Attrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "kda2/Dialect/KDA2/IR/KDA2OpsTypes.h.inc"

#define GET_OP_CLASSES
#include "kda2/Dialect/KDA2/IR/KDA2Ops.h.inc"

namespace mlir::kda2 {

/// The permutation from logical to physical dimension order that `layout`
/// denotes for a tensor of rank `rank` (physical[i] = logical[perm[i]]), or
/// std::nullopt when the layout does not apply to that rank.
std::optional<llvm::SmallVector<int64_t>> getLayoutPermutation(Layout layout,
                                                               unsigned rank);

/// The type a `kda2.load` of `tensor` with `numIndices` indices returns when
/// `gridRank` leading dimensions are implicit: the element type, or a builtin
/// ranked tensor of the remaining dimensions. Null when there are too many
/// indices.
Type getAccessType(KDA2TensorType tensor, unsigned gridRank, unsigned numIndices);

/// Number of implicit grid dimensions for accesses of `tensor` inside
/// `kernel` (the kernel's grid rank for global tensors, 0 otherwise).
unsigned getImplicitGridRank(KDA2TensorType tensor, KernelOp kernel);

/// The numerics check (KDA2Numerics.cpp): from the value ranges the
/// kernel's arguments declare (`kda2.range`), reports every exp / exp2 whose
/// argument can overflow its type. Part of the kernel verifier.
LogicalResult verifyKernelNumerics(KernelOp kernel);

} // namespace mlir::kda2

#endif // KDA2_DIALECT_KDA2_IR_KDA2_H
