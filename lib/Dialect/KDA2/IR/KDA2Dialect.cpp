//===- KDA2Dialect.cpp - kda2 dialect registration -------------*- C++ -*-===//
//
// Registers the kda2 operations, attributes and types, owns the context's
// hardware-profile registry, and verifies the dialect's discardable
// attributes: the module-level `kda2.target` (a known hardware profile),
// the kernel's `kda2.bindings` (its integer compile-time bindings) and the
// kernel-argument `kda2.io` direction.
//
//===----------------------------------------------------------------------===//

#include "kda2/Dialect/KDA2/IR/KDA2.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::kda2;

#include "kda2/Dialect/KDA2/IR/KDA2OpsDialect.cpp.inc"

void KDA2Dialect::initialize() {
  profiles = std::make_unique<ProfileRegistry>(ProfileRegistry::withBuiltins());
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "kda2/Dialect/KDA2/IR/KDA2Ops.cpp.inc"
      >();
}

LogicalResult KDA2Dialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == getTargetAttrName()) {
    if (!isa<ModuleOp>(op))
      return op->emitError() << "'" << getTargetAttrName()
                             << "' is only valid on a builtin.module";
    auto name = dyn_cast<StringAttr>(attr.getValue());
    if (!name)
      return op->emitError() << "'" << getTargetAttrName()
                             << "' must be a string naming a hardware profile";
    llvm::Expected<const HardwareProfile *> profile =
        getProfiles().get(name.getValue());
    if (!profile)
      return op->emitError() << llvm::toString(profile.takeError());
    return success();
  }
  // Set by the .tirx importer: the integer --tirx-bind values the kernel's
  // source refers to (its compile-time switches), for the launch metadata.
  if (attr.getName() == getBindingsAttrName()) {
    if (!isa<KernelOp>(op))
      return op->emitError() << "'" << getBindingsAttrName()
                             << "' is only valid on a kda2.kernel";
    auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
    if (!dict)
      return op->emitError() << "'" << getBindingsAttrName()
                             << "' must be a dictionary of integers (name -> "
                                "i64)";
    for (NamedAttribute entry : dict) {
      // The metadata's name syntax: the runtime reads these back.
      StringRef name = entry.getName().getValue();
      auto isNameChar = [](char c) {
        return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
      };
      if (name.empty() || llvm::isDigit(name.front()) ||
          !llvm::all_of(name, isNameChar))
        return op->emitError()
               << "'" << getBindingsAttrName() << "' has the bad name '"
               << name << "' (expected [A-Za-z_$.][A-Za-z0-9_$.]*)";
      auto value = dyn_cast<IntegerAttr>(entry.getValue());
      if (!value || !value.getType().isIntOrIndex())
        return op->emitError()
               << "'" << getBindingsAttrName() << "' entry '" << name
               << "' must be an integer, got " << entry.getValue();
      const APInt &bits = value.getValue();
      if (value.getType().isUnsignedInteger() ? bits.getActiveBits() > 63
                                              : bits.getSignificantBits() > 64)
        return op->emitError()
               << "'" << getBindingsAttrName() << "' entry '" << name
               << "' does not fit in 64 bits";
    }
    return success();
  }
  // Written by kda2-agent on each candidate module: the schedule choices
  // (template bindings and annotation switches) it was built with.
  if (attr.getName() == "kda2.config") {
    if (!isa<ModuleOp>(op) || !isa<DictionaryAttr>(attr.getValue()))
      return op->emitError() << "'kda2.config' must be a dictionary on a "
                                "builtin.module";
    return success();
  }
  // Set by convert-kda2-to-gpu on kernels with TMA copies, consumed by
  // kda2-finalize-nvvm: the tensor-map parameters.
  if (attr.getName() == "kda2.tensor_maps") {
    if (!isa<FunctionOpInterface>(op) || !isa<DenseI32ArrayAttr>(attr.getValue()))
      return op->emitError() << "'kda2.tensor_maps' must be an array<i32> of "
                                "parameter indices on a function";
    return success();
  }
  return op->emitError() << "unknown kda2 attribute '"
                         << attr.getName().getValue() << "'";
}

LogicalResult KDA2Dialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  if (attr.getName() == getStateAttrName()) {
    if (!isa<KernelOp>(op))
      return op->emitError() << "'" << getStateAttrName()
                             << "' is only valid on kda2.kernel arguments";
    if (!isa<StateLayoutAttr>(attr.getValue()))
      return op->emitError() << "'" << getStateAttrName() << "' of argument #"
                             << argIndex << " must be #kda2.state<kv|vk>";
    auto type = dyn_cast<KDA2TensorType>(
        cast<KernelOp>(op).getArgumentTypes()[argIndex]);
    if (!type || type.getRank() < 2)
      return op->emitError() << "'" << getStateAttrName() << "' on argument #"
                             << argIndex
                             << ": a state is a tensor of rank 2 or more "
                                "(its last two dimensions are K and V)";
    return success();
  }
  if (attr.getName() == getRangeAttrName()) {
    auto range = dyn_cast<DenseF64ArrayAttr>(attr.getValue());
    if (!isa<KernelOp>(op) || !range || range.size() != 2 ||
        !(range[0] <= range[1]))
      return op->emitError() << "'" << getRangeAttrName() << "' of argument #"
                             << argIndex
                             << " must be array<f64: lo, hi> with lo <= hi on "
                                "a kda2.kernel argument";
    return success();
  }
  if (attr.getName() == getStrideAttrName()) {
    auto kernel = dyn_cast<KernelOp>(op);
    auto index = dyn_cast<IntegerAttr>(attr.getValue());
    if (!kernel || !index)
      return op->emitError() << "'" << getStrideAttrName() << "' of argument #"
                             << argIndex
                             << " must be an integer (the index of the "
                                "parameter holding the stride) on a "
                                "kda2.kernel argument";
    ArrayRef<Type> types = kernel.getArgumentTypes();
    auto tensor = dyn_cast<KDA2TensorType>(types[argIndex]);
    if (!tensor || tensor.getRank() < 1)
      return op->emitError() << "'" << getStrideAttrName() << "' on argument #"
                             << argIndex << ": only a tensor has a stride";
    int64_t param = index.getInt();
    if (param < 0 || param >= static_cast<int64_t>(types.size()) ||
        !types[param].isSignlessInteger() ||
        !llvm::is_contained({32u, 64u}, types[param].getIntOrFloatBitWidth()))
      return op->emitError() << "'" << getStrideAttrName() << "' of argument #"
                             << argIndex << " names argument #" << param
                             << ", which is not an i32 or i64 scalar";
    return success();
  }
  if (attr.getName() != getIOAttrName())
    return op->emitError() << "unknown kda2 argument attribute '"
                           << attr.getName().getValue() << "'";
  if (!isa<KernelOp>(op))
    return op->emitError() << "'" << getIOAttrName()
                           << "' is only valid on kda2.kernel arguments";
  if (!isa<IOKindAttr>(attr.getValue()))
    return op->emitError() << "'" << getIOAttrName() << "' of argument #"
                           << argIndex << " must be #kda2.io<in|out|inout>";
  return success();
}
