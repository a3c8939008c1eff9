//===- PTX.cpp - kda2 IR to PTX and cubin ----------------------*- C++ -*-===//
//
// The back end of kda2-translate: runs kda2-lower-to-nvvm-pipeline on a
// clone of the input, takes the PTX out of the resulting gpu.binary and, for
// cubins, runs ptxas from the CUDA toolkit. kda2-agent also compiles kernels
// one by one (splitKernels) and links their cubins with nvlink.
//
//===----------------------------------------------------------------------===//

#include "kda2/Target/PTX.h"

#include "kda2/InitAll.h"
#include "kda2/Pipelines/Pipelines.h"
#include "kda2/Runtime/Module.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::kda2;

/// Runs kda2-lower-to-nvvm-pipeline (without its first stage when
/// \p fromGPU) on a clone of \p module and returns the PTX of its binaries.
static FailureOr<std::string>
lowerToPTX(ModuleOp module, const PTXOptions &options, bool fromGPU) {
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
  pipeline.wgmma = options.wgmma;
  pipeline.optLevel = options.optLevel;
  pipeline.cudaPath = options.cudaPath;
  if (fromGPU)
    buildGPUToNVVMPipeline(pm, pipeline);
  else
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

FailureOr<std::string> mlir::kda2::compileToPTX(ModuleOp module,
                                                const PTXOptions &options) {
  return lowerToPTX(module, options, /*fromGPU=*/false);
}

FailureOr<std::string> mlir::kda2::compileGPUToPTX(ModuleOp module,
                                                   const PTXOptions &options) {
  return lowerToPTX(module, options, /*fromGPU=*/true);
}

FailureOr<SmallVector<KernelModule>> mlir::kda2::splitKernels(ModuleOp module) {
  SmallVector<std::string> kernels;
  module.walk([&](gpu::GPUFuncOp func) {
    if (func.isKernel())
      kernels.push_back(func.getName().str());
  });
  if (kernels.empty())
    return module.emitError() << "the module holds no kda2 kernel to compile";
  std::string prefix = ::kda2::runtime::kMetadataSymbolPrefix;
  SmallVector<KernelModule> pieces;
  for (const std::string &kernel : kernels) {
    OwningOpRef<ModuleOp> piece = module.clone();
    for (gpu::GPUModuleOp gpuModule :
         llvm::make_early_inc_range(piece->getOps<gpu::GPUModuleOp>())) {
      // The other kernels and their metadata.
      for (Operation &op :
           llvm::make_early_inc_range(gpuModule.getBody()->getOperations())) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (!symbol)
          continue;
        StringRef name = symbol.getName();
        auto func = dyn_cast<gpu::GPUFuncOp>(op);
        bool otherKernel = func && func.isKernel() && name != kernel;
        bool otherMetadata =
            name.starts_with(prefix) && name != prefix + kernel &&
            llvm::is_contained(kernels, name.drop_front(prefix.size()));
        if (otherKernel || otherMetadata)
          op.erase();
      }
      // Then the private symbols nothing uses any more (to a fixed point:
      // a helper may be used only by another helper).
      for (bool erased = true; erased;) {
        erased = false;
        for (Operation &op :
             llvm::make_early_inc_range(gpuModule.getBody()->getOperations())) {
          auto symbol = dyn_cast<SymbolOpInterface>(op);
          if (symbol && symbol.isPrivate() &&
              SymbolTable::symbolKnownUseEmpty(&op, gpuModule)) {
            op.erase();
            erased = true;
          }
        }
      }
      bool hasKernel = false;
      gpuModule.walk(
          [&](gpu::GPUFuncOp func) { hasKernel |= func.isKernel(); });
      if (!hasKernel)
        gpuModule.erase();
    }
    pieces.push_back({kernel, std::move(piece)});
  }
  return pieces;
}

std::string mlir::kda2::combinePTX(ArrayRef<std::string> ptx) {
  std::string out;
  llvm::StringSet<> externs;
  for (auto [index, text] : llvm::enumerate(ptx)) {
    StringRef rest = text;
    // The header ends with `.address_size`; later modules' headers repeat
    // the first one's (same chip and PTX version) and are dropped.
    size_t header = rest.find(".address_size");
    if (index > 0 && header != StringRef::npos)
      rest = rest.substr(rest.find('\n', header) + 1);
    SmallVector<StringRef> lines;
    rest.split(lines, '\n');
    for (auto [n, line] : llvm::enumerate(lines)) {
      // Unindented `.extern` lines are module-scope declarations (the
      // dynamic shared memory): each once.
      if (line.starts_with(".extern ") && !externs.insert(line).second)
        continue;
      out += line;
      if (n + 1 < lines.size())
        out += '\n';
    }
  }
  return out;
}

/// Finds a CUDA toolkit program: the explicit path if given, else
/// --kda2-cuda-path, $CUDA_HOME, /usr/local/cuda (each with bin/), then PATH.
static std::string findCudaTool(StringRef tool, StringRef explicitPath,
                                const PTXOptions &options) {
  if (!explicitPath.empty())
    return llvm::sys::fs::can_execute(explicitPath) ? explicitPath.str() : "";
  SmallVector<std::string> roots;
  if (!options.cudaPath.empty())
    roots.push_back(options.cudaPath);
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("CUDA_HOME"))
    roots.push_back(*home);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    SmallString<256> path(root);
    llvm::sys::path::append(path, "bin", tool);
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
  }
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(tool))
    return *found;
  return "";
}

/// Finds ptxas: the explicit option, the toolkit's bin/, then PATH.
static std::string findPtxas(const PTXOptions &options) {
  return findCudaTool("ptxas", options.ptxas, options);
}

/// Finds nvlink the same way.
static std::string findNvlink(const PTXOptions &options) {
  return findCudaTool("nvlink", options.nvlink, options);
}

bool mlir::kda2::isPtxasAvailable(const PTXOptions &options) {
  return !findPtxas(options).empty();
}

bool mlir::kda2::isNvlinkAvailable(const PTXOptions &options) {
  return !findNvlink(options).empty();
}

/// The integer just before `suffix` in `line` ("... 64 registers" -> 64).
/// Runs a CUDA tool with its stdout and stderr in `logPath`; on failure
/// the error names the tool, its exit status and the log.
static LogicalResult runCudaTool(Location loc, StringRef name, StringRef tool,
                                 ArrayRef<StringRef> args, StringRef logPath) {
  std::optional<StringRef> redirects[] = {std::nullopt, logPath, logPath};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(tool, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &message);
  if (rc == 0)
    return success();
  auto log = llvm::MemoryBuffer::getFile(logPath);
  return emitError(loc) << name << " failed (exit " << rc << ")"
                        << (message.empty() ? "" : ": " + message) << "\n"
                        << (log ? (*log)->getBuffer() : "");
}

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

FailureOr<std::string> mlir::kda2::assembleCubin(
    Location loc, StringRef ptx, const PTXOptions &options,
    SmallVectorImpl<KernelResources> *resources, CubinKind kind) {
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
  SmallVector<StringRef> args = {ptxas, arch, opt, "-v"};
  if (kind == CubinKind::Linkable)
    args.push_back("-ewp");
  args.append({ptxPath, "-o", cubinPath});
  if (failed(runCudaTool(loc, "ptxas", ptxas, args, logPath)))
    return failure();
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
          line.contains("Used ") && line.contains(" registers")) {
        resources->back().registers = countBefore(line, " registers");
        resources->back().sharedBytes = countBefore(line, " bytes smem");
      }
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

FailureOr<std::string> mlir::kda2::linkCubins(Location loc,
                                              ArrayRef<std::string> cubins,
                                              const PTXOptions &options) {
  std::string nvlink = findNvlink(options);
  if (nvlink.empty())
    return emitError(loc) << "nvlink not found: install the CUDA toolkit, "
                             "set CUDA_HOME, or name it explicitly";
  // Inputs, output and log in temporary files removed on every path.
  SmallVector<SmallString<128>> inputs(cubins.size());
  SmallString<128> outPath, logPath;
  std::vector<std::unique_ptr<llvm::FileRemover>> removers;
  for (auto [path, cubin] : llvm::zip(inputs, cubins)) {
    if (llvm::sys::fs::createTemporaryFile("kda2", "cubin", path))
      return emitError(loc) << "cannot create temporary files for nvlink";
    removers.push_back(std::make_unique<llvm::FileRemover>(path));
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return emitError(loc) << "cannot write " << path << ": " << ec.message();
    os << cubin;
  }
  if (llvm::sys::fs::createTemporaryFile("kda2", "cubin", outPath) ||
      llvm::sys::fs::createTemporaryFile("kda2", "log", logPath))
    return emitError(loc) << "cannot create temporary files for nvlink";
  removers.push_back(std::make_unique<llvm::FileRemover>(outPath));
  removers.push_back(std::make_unique<llvm::FileRemover>(logPath));
  std::string arch = "-arch=" + options.chip;
  SmallVector<StringRef> args = {nvlink, arch};
  for (const SmallString<128> &path : inputs)
    args.push_back(path);
  args.append({"-o", outPath});
  if (failed(runCudaTool(loc, "nvlink", nvlink, args, logPath)))
    return failure();
  auto linked = llvm::MemoryBuffer::getFile(outPath, /*IsText=*/false);
  if (!linked || (*linked)->getBufferSize() == 0)
    return emitError(loc) << "cannot read the cubin nvlink wrote";
  return (*linked)->getBuffer().str();
}

//===----------------------------------------------------------------------===//
// Dumps (--dump-asm, --dump-memory-usage)
//===----------------------------------------------------------------------===//

/// The metadata text of every kernel in `ptx`: the byte arrays
/// `__kda2_meta_<K>[N] = {b0, b1, ...}` decoded.
static std::vector<std::pair<std::string, std::string>>
metadataFromPTX(StringRef ptx) {
  std::vector<std::pair<std::string, std::string>> out;
  StringRef prefix = "__kda2_meta_";
  for (size_t at = ptx.find(prefix); at != StringRef::npos;
       at = ptx.find(prefix, at + 1)) {
    StringRef rest = ptx.substr(at + prefix.size());
    size_t bracket = rest.find('[');
    size_t open = rest.find('{'), close = rest.find('}');
    if (bracket == StringRef::npos || open == StringRef::npos ||
        close == StringRef::npos || close < open ||
        rest.substr(0, bracket).contains_insensitive(";"))
      continue;
    std::string text;
    SmallVector<StringRef> bytes;
    rest.substr(open + 1, close - open - 1).split(bytes, ',');
    for (StringRef b : bytes) {
      unsigned v = 0;
      if (b.trim().getAsInteger(10, v) || v == 0)
        break;
      text += static_cast<char>(v);
    }
    out.emplace_back(rest.substr(0, bracket).str(), std::move(text));
  }
  return out;
}

/// Prints the PTX and, when a disassembler is found, the cubin's SASS.
static void dumpAssembly(StringRef ptx, StringRef cubin,
                         const PTXOptions &options, raw_ostream &os) {
  os << "// ===== kda2-translate --dump-asm: PTX (" << options.chip
     << ") =====\n"
     << ptx << "\n";
  std::string tool =
      options.disassembler.empty()
          ? findCudaTool("cuobjdump", "", options)
          : findCudaTool("", options.disassembler, options);
  if (tool.empty() && options.disassembler.empty())
    tool = findCudaTool("nvdisasm", "", options);
  if (tool.empty()) {
    os << "// ===== SASS: not shown: "
       << (options.disassembler.empty()
               ? std::string("neither cuobjdump nor nvdisasm was found (in "
                             "--kda2-cuda-path, $CUDA_HOME or /usr/local/cuda "
                             "bin/, or on PATH)")
               : "the disassembler '" + options.disassembler +
                     "' is not an executable")
       << " =====\n";
    return;
  }
  SmallString<128> cubinPath, outPath;
  if (llvm::sys::fs::createTemporaryFile("kda2", "cubin", cubinPath) ||
      llvm::sys::fs::createTemporaryFile("kda2", "sass", outPath)) {
    os << "// ===== SASS: not shown: cannot create temporary files =====\n";
    return;
  }
  llvm::FileRemover removeCubin(cubinPath), removeOut(outPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream f(cubinPath, ec);
    f << cubin;
  }
  bool nvdisasm = llvm::sys::path::filename(tool).starts_with("nvdisasm");
  SmallVector<StringRef> args = {tool};
  if (!nvdisasm)
    args.push_back("-sass");
  args.push_back(cubinPath);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(outPath),
                                          StringRef(outPath)};
  int rc = llvm::sys::ExecuteAndWait(tool, args, std::nullopt, redirects);
  auto text = llvm::MemoryBuffer::getFile(outPath);
  os << "// ===== SASS (" << tool << (nvdisasm ? "" : " -sass") << ")"
     << (rc != 0 ? " failed with exit code " + std::to_string(rc) : "")
     << " =====\n"
     << (text ? (*text)->getBuffer() : "") << "\n";
}

/// Prints one line per kernel: registers, static and dynamic shared memory,
/// stack and spills.
static void dumpMemoryUsage(ArrayRef<KernelResources> resources,
                            StringRef ptx, const PTXOptions &options,
                            raw_ostream &os) {
  auto metadata = metadataFromPTX(ptx);
  os << "// ===== kda2-translate --dump-memory-usage (" << options.chip
     << ", from ptxas -v and the kernel metadata) =====\n";
  for (const KernelResources &r : resources) {
    unsigned dynamicSmem = 0;
    for (const auto &[kernel, text] : metadata)
      if (kernel == r.kernel) {
        SmallVector<StringRef> lines;
        StringRef(text).split(lines, '\n');
        for (StringRef line : lines)
          if (line.consume_front("smem "))
            (void)line.trim().getAsInteger(10, dynamicSmem);
      }
    os << "kernel " << r.kernel << ": registers " << r.registers
       << ", shared memory " << r.sharedBytes << " bytes static + "
       << dynamicSmem << " bytes dynamic, stack " << r.stackBytes
       << " bytes, spill stores " << r.spillStoreBytes
       << " bytes, spill loads " << r.spillLoadBytes << " bytes\n";
  }
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
  llvm::cl::opt<bool> wgmma{
      "kda2-wgmma",
      llvm::cl::desc("On sm_90a, lower the tensor-core products whose result "
                     "is a warpgroup's split=rows register tile to wgmma"),
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
  llvm::cl::opt<bool> dumpAsm{
      "dump-asm",
      llvm::cl::desc("With --kda2-to-cubin: print the PTX and the SASS "
                     "(cuobjdump or nvdisasm, when found) to stderr"),
      llvm::cl::init(false)};
  llvm::cl::opt<bool> dumpMemoryUsage{
      "dump-memory-usage",
      llvm::cl::desc("With --kda2-to-cubin: print registers, shared memory, "
                     "stack and spills per kernel to stderr"),
      llvm::cl::init(false)};
  llvm::cl::opt<std::string> disassembler{
      "kda2-disassembler",
      llvm::cl::desc("cuobjdump or nvdisasm executable for --dump-asm"),
      llvm::cl::init("")};

  PTXOptions get() const {
    PTXOptions options;
    options.chip = chip;
    options.fastMath = fastMath;
    options.wgmma = wgmma;
    options.optLevel = optLevel;
    options.cudaPath = cudaPath;
    options.ptxas = ptxas;
    options.resourceReport = resourceReport;
    options.dumpAsm = dumpAsm;
    options.dumpMemoryUsage = dumpMemoryUsage;
    options.disassembler = disassembler;
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
  TranslateFromMLIRRegistration toMetadata(
      "kda2-to-metadata",
      "Compile kda2 kernels to PTX and print each kernel's launch metadata "
      "(the text the runtime reads, docs/Runtime.md)",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError() << "expected a builtin.module";
        FailureOr<std::string> ptx = compileToPTX(module, options.get());
        if (failed(ptx))
          return failure();
        for (const auto &[kernel, text] : metadataFromPTX(*ptx))
          os << text;
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
        SmallVector<KernelResources> resources;
        FailureOr<std::string> cubin = assembleCubin(
            module.getLoc(), *ptx, ptxOptions,
            ptxOptions.dumpMemoryUsage ? &resources : nullptr);
        if (failed(cubin))
          return failure();
        if (ptxOptions.dumpAsm)
          dumpAssembly(*ptx, *cubin, ptxOptions, llvm::errs());
        if (ptxOptions.dumpMemoryUsage)
          dumpMemoryUsage(resources, *ptx, ptxOptions, llvm::errs());
        os << *cubin;
        return success();
      },
      registerBackendDialects);
}
