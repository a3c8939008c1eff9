//===- InitAll.h - Register every kda2 dialect, pass, translation -*- C++ -*-===//
//
// The one place that lists what kda2's tools (and an embedding compiler)
// register: the kda2 dialect plus the upstream dialects our IR and our
// lowering use, our passes and pipelines, and the translations (.tirx
// import, PTX/cubin export). Only what we use is registered, to keep links
// small.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_INITALL_H
#define KDA2_INITALL_H

#include "kda2/Agent/Simulator.h"
#include "kda2/Conversion/Passes.h"
#include "kda2/Dialect/KDA2/IR/KDA2.h"
#include "kda2/Dialect/KDA2/Transforms/Passes.h"
#include "kda2/Frontend/TIRx/ImportTIRx.h"
#include "kda2/Pipelines/Pipelines.h"
#include "kda2/Target/PTX.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::kda2 {

/// Adds the kda2 dialect and the upstream dialects kda2 IR contains.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<KDA2Dialect, arith::ArithDialect>();
}

/// Adds what the GPU lowering creates, the NVVM target and the LLVM IR
/// translations that serialize a gpu.module to PTX.
inline void registerGPUBackendDialects(DialectRegistry &registry) {
  registry.insert<cf::ControlFlowDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                  NVVM::NVVMDialect, nvgpu::NVGPUDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  vector::VectorDialect>();
  // convert-gpu-to-nvvm lowers the other dialects through their
  // ConvertToLLVMPatternInterface implementations.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
}

/// Registers kda2's passes and pipelines and the upstream passes we use.
inline void registerAllPasses() {
  registerKDA2Passes();
  registerKDA2ConversionPasses();
  registerKDA2Pipelines();
  registerTestSimulatorPass();
  registerCanonicalizerPass();
  registerCSEPass();
}

/// Registers kda2's translations (.tirx import, PTX and cubin export).
inline void registerAllTranslations() {
  registerImportTIRxTranslation();
  registerPTXTranslations();
}

} // namespace mlir::kda2

#endif // KDA2_INITALL_H
