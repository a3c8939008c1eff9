//===- FinalizeNVVM.cpp - TMA descriptors as grid constants -*- C++ -*-===//
//
// Implements --kda2-finalize-nvvm (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "kda2/Conversion/Passes.h"

namespace mlir::kda2 {
#define GEN_PASS_DEF_FINALIZENVVMPASS
#include "kda2/Conversion/Passes.h.inc"
} // namespace mlir::kda2

using namespace mlir;

namespace {
struct FinalizeNVVMPass
    : kda2::impl::FinalizeNVVMPassBase<FinalizeNVVMPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto descriptor = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 128);
    WalkResult result = getOperation().walk([&](LLVM::LLVMFuncOp func) {
      auto params = func->getAttrOfType<DenseI32ArrayAttr>("kda2.tensor_maps");
      if (!params)
        return WalkResult::advance();
      for (int32_t index : params.asArrayRef()) {
        if (index < 0 || unsigned(index) >= func.getNumArguments() ||
            !isa<LLVM::LLVMPointerType>(func.getArgumentTypes()[index])) {
          func.emitOpError() << "kda2.tensor_maps names parameter #" << index
                             << ", which is not a pointer parameter";
          return WalkResult::interrupt();
        }
        func.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(descriptor));
        func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                        UnitAttr::get(ctx));
        func.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                        IntegerAttr::get(IntegerType::get(ctx, 64), 64));
      }
      func->removeAttr("kda2.tensor_maps");
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    // Dynamic shared memory: an external, zero-sized, 128-byte aligned
    // declaration (the PTX `.extern .shared` array).
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() != 3 || !array || array.getNumElements() != 0 ||
          !global.getSymName().starts_with("__dynamic_shmem__"))
        continue;
      global.setLinkage(LLVM::Linkage::External);
      global.setAlignment(128);
    }
  }
};
} // namespace
