//===- PTX.cpp - kda2 IR to PTX and cubin ----------------------*- C++ -*-===//
//
// The back end of kda2-translate: runs kda2-lower-to-nvvm-pipeline on a
// clone of the input, takes the PTX out of the resulting gpu.binary and, for
// cubins, runs ptxas from the CUDA toolkit.
//
//===----------------------------------------------------------------------===//

#include "kda2/Target/PTX.h"

#include "kda2/InitAll.h"
#include "kda2/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::kda2;

FailureOr<std::string> mlir::kda2::compileToPTX(ModuleOp module,
                                                const PTXOptions &options) {
  if (!isSupportedChip(options.chip))
    return module.emitError() << "unsupported chip '" << options.chip
                              << "'; expected sm_80, sm_86, sm_89, sm_90 or "
                                 "sm_90a";
  if (options.optLevel > 3)
    return module.emitError() << "optimisation level must be 0-3, got "
                              << options.optLevel;
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(module.getContext());
  LowerToNVVMOptions pipeline;
  pipeline.chip = options.chip;
  pipeline.fastMath = options.fastMath;
  pipeline.optLevel = options.optLevel;
  pipeline.cudaPath = options.cudaPath;
  buildLowerToNVVMPipeline(pm, pipeline);
  if (failed(pm.run(*clone)))
    return failure();
  std::string ptx;
  for (auto binary : clone->getOps<gpu::BinaryOp>())
    for (Attribute attr : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
        ptx += object.getObject().getValue().str();
  if (ptx.empty())
    return module.emitError() << "the module holds no kda2 kernel to compile";
  return ptx;
}

/// Finds ptxas: the explicit option, the toolkit's bin/, then PATH.
static std::string findPtxas(const PTXOptions &options) {
  if (!options.ptxas.empty())
    return llvm::sys::fs::can_execute(options.ptxas) ? options.ptxas : "";
  SmallVector<std::string> roots;
  if (!options.cudaPath.empty())
    roots.push_back(options.cudaPath);
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("CUDA_HOME"))
    roots.push_back(*home);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    SmallString<256> path(root);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
  }
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

bool mlir::kda2::isPtxasAvailable(const PTXOptions &options) {
  return !findPtxas(options).empty();
}

/// The integer just before `suffix` in `line` ("... 64 registers" -> 64).
static unsigned countBefore(StringRef line, StringRef suffix) {
  size_t at = line.find(suffix);
  if (at == StringRef::npos)
    return 0;
  StringRef before = line.substr(0, at).rtrim();
  unsigned value = 0;
  if (before.substr(before.rfind(' ') + 1).getAsInteger(10, value))
    return 0;
  return value;
}

FailureOr<std::string>
mlir::kda2::assembleCubin(Location loc, StringRef ptx,
                          const PTXOptions &options,
                          SmallVectorImpl<KernelResources> *resources) {
  std::string ptxas = findPtxas(options);
  if (ptxas.empty())
    return emitError(loc) << "ptxas not found: install the CUDA toolkit, set "
                             "CUDA_HOME, or pass --kda2-ptxas=<path>";
  SmallString<128> ptxPath, cubinPath, logPath;
  if (llvm::sys::fs::createTemporaryFile("kda2", "ptx", ptxPath) ||
      llvm::sys::fs::createTemporaryFile("kda2", "cubin", cubinPath) ||
      llvm::sys::fs::createTemporaryFile("kda2", "log", logPath))
    return emitError(loc) << "cannot create temporary files for ptxas";
  llvm::FileRemover removePtx(ptxPath), removeCubin(cubinPath),
      removeLog(logPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxPath, ec);
    if (ec)
      return emitError(loc) << "cannot write " << ptxPath << ": "
                            << ec.message();
    os << ptx;
  }
  std::string arch = "-arch=" + options.chip;
  std::string opt = "-O" + std::to_string(options.optLevel);
  SmallVector<StringRef> args = {ptxas, arch, opt, "-v", ptxPath, "-o",
                                 cubinPath};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &message);
  if (rc != 0) {
    auto log = llvm::MemoryBuffer::getFile(logPath);
    return emitError(loc) << "ptxas failed (exit " << rc << ")"
                          << (message.empty() ? "" : ": " + message) << "\n"
                          << (log ? (*log)->getBuffer() : "");
  }
  // ptxas -v: "Function properties for <kernel>" followed by
  // "N bytes stack frame, S bytes spill stores, L bytes spill loads".
  if (auto log = llvm::MemoryBuffer::getFile(logPath)) {
    StringRef kernel;
    SmallVector<StringRef> lines;
    (*log)->getBuffer().split(lines, '\n');
    for (StringRef line : lines) {
      if (options.resourceReport && line.contains("ptxas info"))
        llvm::errs() << line.trim() << "\n";
      if (size_t at = line.find("Function properties for ");
          at != StringRef::npos)
        kernel = line.substr(at + 24).trim();
      // "Compiling entry function 'k' for 'sm_90a'" starts a kernel's
      // report; its "Used N registers" line follows.
      if (size_t at = line.find("Compiling entry function '");
          resources && at != StringRef::npos)
        resources->push_back({line.substr(at + 26).split('\'').first.str()});
      if (resources && !resources->empty() &&
          line.contains("Used ") && line.contains(" registers"))
        resources->back().registers = countBefore(line, " registers");
      size_t spill = line.find(" bytes spill stores");
      if (spill == StringRef::npos)
        continue;
      if (options.resourceReport)
        llvm::errs() << "  " << line.trim() << "\n";
      unsigned bytes = countBefore(line, " bytes spill stores");
      if (resources && !resources->empty() &&
          resources->back().kernel == kernel) {
        resources->back().stackBytes = countBefore(line, " bytes stack frame");
        resources->back().spillStoreBytes = bytes;
        resources->back().spillLoadBytes =
            countBefore(line, " bytes spill loads");
      }
      if (bytes > 0)
        emitWarning(loc) << "kernel '" << kernel << "' spills " << bytes
                         << " bytes of registers to local memory (ptxas: "
                         << line.trim() << ")";
    }
  }
  auto cubin = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false);
  if (!cubin)
    return emitError(loc) << "cannot read the cubin ptxas wrote";
  return (*cubin)->getBuffer().str();
}

//===----------------------------------------------------------------------===//
// Translations
//===----------------------------------------------------------------------===//

namespace {
/// Command-line options shared by the two translations.
struct TranslationOptions {
  llvm::cl::opt<std::string> chip{"kda2-chip",
                                  llvm::cl::desc("GPU architecture"),
                                  llvm::cl::init("sm_90a")};
  llvm::cl::opt<bool> fastMath{"kda2-fast-math",
                               llvm::cl::desc("Fast floating-point math"),
                               llvm::cl::init(false)};
  llvm::cl::opt<unsigned> optLevel{
      "kda2-opt-level", llvm::cl::desc("Optimisation level (0-3)"),
      llvm::cl::init(3)};
  llvm::cl::opt<std::string> cudaPath{
      "kda2-cuda-path", llvm::cl::desc("CUDA toolkit root"),
      llvm::cl::init("")};
  llvm::cl::opt<std::string> ptxas{"kda2-ptxas",
                                   llvm::cl::desc("ptxas executable"),
                                   llvm::cl::init("")};
  llvm::cl::opt<bool> resourceReport{
      "kda2-resource-report",
      llvm::cl::desc("Print ptxas's per-kernel resource report (registers, "
                     "shared memory, stack, spills) to stderr"),
      llvm::cl::init(false)};

  PTXOptions get() const {
    PTXOptions options;
    options.chip = chip;
    options.fastMath = fastMath;
    options.optLevel = optLevel;
    options.cudaPath = cudaPath;
    options.ptxas = ptxas;
    options.resourceReport = resourceReport;
    return options;
  }
};
} // namespace

/// Everything the pipeline parses or creates.
static void registerBackendDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerGPUBackendDialects(registry);
}

void mlir::kda2::registerPTXTranslations() {
  static TranslationOptions options;
  TranslateFromMLIRRegistration toPTX(
      "kda2-to-ptx", "Compile kda2 kernels to PTX",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError() << "expected a builtin.module";
        FailureOr<std::string> ptx = compileToPTX(module, options.get());
        if (failed(ptx))
          return failure();
        os << *ptx;
        return success();
      },
      registerBackendDialects);
  TranslateFromMLIRRegistration toCubin(
      "kda2-to-cubin", "Compile kda2 kernels to a cubin (runs ptxas)",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError() << "expected a builtin.module";
        PTXOptions ptxOptions = options.get();
        FailureOr<std::string> ptx = compileToPTX(module, ptxOptions);
        if (failed(ptx))
          return failure();
        FailureOr<std::string> cubin =
            assembleCubin(module.getLoc(), *ptx, ptxOptions);
        if (failed(cubin))
          return failure();
        os << *cubin;
        return success();
      },
      registerBackendDialects);
}
