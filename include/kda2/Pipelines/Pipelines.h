//===- Pipelines.h - kda2 pass pipelines ------------------------*- C++ -*-===//
//
// Named pass pipelines: kda2 IR all the way to a gpu.binary holding PTX.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_PIPELINES_PIPELINES_H
#define KDA2_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::kda2 {

/// Options of `kda2-lower-to-nvvm-pipeline`.
struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("GPU architecture (sm_80, sm_89, sm_90a)"),
      llvm::cl::init("sm_90a")};
  PassOptions::Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("Fast floating-point math (reassociation, approximate "
                     "exp, flush denormals)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> wgmma{
      *this, "wgmma",
      llvm::cl::desc("On sm_90a, lower eligible tensor-core products to "
                     "wgmma (warpgroup register tiles, swizzled TMA operands)"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimisation level (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit root (for libdevice); default $CUDA_HOME "
                     "or /usr/local/cuda"),
      llvm::cl::init("")};
};

/// Chips the GPU lowering targets.
bool isSupportedChip(llvm::StringRef chip);

/// The PTX ISA version feature (`+ptx80`) to use for `chip`.
std::string ptxFeaturesFor(llvm::StringRef chip);

/// The libdevice bitcode under `cudaPath` (or the default toolkit), or an
/// empty string when it cannot be found.
std::string findLibdevice(llvm::StringRef cudaPath);

/// Builds the pipeline:
///   convert-kda2-to-gpu          post: no kda2 ops; gpu.func kernels over
///                                scf/arith/math/vector/memref/llvm
///   canonicalize, cse            post: folded address arithmetic
///   nvvm-attach-target           post: gpu.module carries #nvvm.target
///   gpu.module(convert-scf-to-cf, convert-gpu-to-nvvm)
///                                post: gpu.module in llvm + nvvm only
///   reconcile-unrealized-casts
///   gpu-module-to-binary{isa}    post: gpu.binary with the PTX text
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// The same pipeline without its first stage: from gpu.func kernels (the
/// output of convert-kda2-to-gpu) to the gpu.binary. Running
/// convert-kda2-to-gpu and then this is buildLowerToNVVMPipeline.
void buildGPUToNVVMPipeline(OpPassManager &pm,
                            const LowerToNVVMOptions &options);

/// Registers `kda2-lower-to-nvvm-pipeline`.
void registerKDA2Pipelines();

} // namespace mlir::kda2

#endif // KDA2_PIPELINES_PIPELINES_H
