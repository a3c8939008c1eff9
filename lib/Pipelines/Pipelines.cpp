//===- Pipelines.cpp - kda2 pass pipelines ---------------------*- C++ -*-===//
//
// kda2-lower-to-nvvm-pipeline: reuses the upstream GPU/NVVM conversions and
// serialization after our own kda2 -> gpu lowering.
//
//===----------------------------------------------------------------------===//

#include "kda2/Pipelines/Pipelines.h"

#include "kda2/Conversion/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace mlir;
using namespace mlir::kda2;

bool mlir::kda2::isSupportedChip(StringRef chip) {
  return llvm::StringSwitch<bool>(chip)
      .Cases({"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"}, true)
      .Default(false);
}

std::string mlir::kda2::ptxFeaturesFor(StringRef chip) {
  // sm_90a needs PTX ISA 8.0; 7.8 covers sm_89 and below.
  return chip.starts_with("sm_90") ? "+ptx80" : "+ptx78";
}

std::string mlir::kda2::findLibdevice(StringRef cudaPath) {
  SmallVector<std::string> roots;
  if (!cudaPath.empty())
    roots.push_back(cudaPath.str());
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("CUDA_HOME"))
    roots.push_back(*home);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    SmallString<256> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(path))
      return std::string(path);
  }
  return "";
}

void mlir::kda2::buildLowerToNVVMPipeline(OpPassManager &pm,
                                          const LowerToNVVMOptions &options) {
  ConvertKDA2ToGPUPassOptions lowering;
  lowering.fastMath = options.fastMath;
  lowering.wgmma = options.wgmma;
  lowering.chip = options.chip;
  pm.addPass(createConvertKDA2ToGPUPass(lowering));
  buildGPUToNVVMPipeline(pm, options);
}

void mlir::kda2::buildGPUToNVVMPipeline(OpPassManager &pm,
                                        const LowerToNVVMOptions &options) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = ptxFeaturesFor(options.chip);
  target.optLevel = options.optLevel;
  target.fastFlag = options.fastMath;
  target.ftzFlag = options.fastMath;
  std::string libdevice = findLibdevice(options.cudaPath);
  if (!libdevice.empty())
    target.linkLibs.push_back(libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createSCFToControlFlowPass());
  // Tensor-core fragments (nvgpu.ldmatrix) first, then the rest of gpu.
  device.addPass(createConvertNVGPUToNVVMPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  device.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  device.addPass(createFinalizeNVVMPass());
  // NVVM ops without an intrinsic (the mbarrier wait loop) become inline PTX.
  device.addPass(createConvertNVVMToLLVMPass());
  device.addPass(createCanonicalizerPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  // The NVPTX serializer also links <toolkit>/nvvm/libdevice/libdevice.10.bc
  // of its own toolkit ($CUDA_HOME, CUDA_ROOT or CUDA_PATH by default) and
  // reports an error when that file is missing (e.g. CUDA_HOME names another
  // directory): make it the toolkit whose libdevice was found above.
  if (!libdevice.empty())
    binary.toolkitPath = llvm::sys::path::parent_path(
                             llvm::sys::path::parent_path(
                                 llvm::sys::path::parent_path(libdevice)))
                             .str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::kda2::registerKDA2Pipelines() {
  PassPipelineRegistration<LowerToNVVMOptions>(
      "kda2-lower-to-nvvm-pipeline",
      "Lower kda2 kernels through gpu/nvvm to a gpu.binary with PTX",
      buildLowerToNVVMPipeline);
}
