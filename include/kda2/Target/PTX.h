//===- PTX.h - kda2 IR to PTX and cubin -------------------------*- C++ -*-===//
//
// Compiles a module of kda2 kernels to PTX (through
// kda2-lower-to-nvvm-pipeline) and to a cubin (through ptxas), and registers
// the `--kda2-to-ptx` / `--kda2-to-cubin` translations. For callers that
// compile kernels one by one (kda2-agent's compile cache): splitting a
// lowered module into one module per kernel, linkable cubins (`ptxas -ewp`)
// and linking them into one loadable cubin (`nvlink`).
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_TARGET_PTX_H
#define KDA2_TARGET_PTX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::kda2 {

/// Options of the PTX/cubin back end.
struct PTXOptions {
  /// GPU architecture: sm_80, sm_86, sm_89, sm_90 or sm_90a.
  std::string chip = "sm_90a";
  /// Fast floating-point math.
  bool fastMath = false;
  /// On sm_90a, eligible tensor-core products as wgmma.
  bool wgmma = false;
  /// LLVM and ptxas optimisation level (0-3).
  unsigned optLevel = 3;
  /// CUDA toolkit root; empty: $CUDA_HOME, then /usr/local/cuda.
  std::string cudaPath;
  /// ptxas to run; empty: found under the toolkit or on PATH.
  std::string ptxas;
  /// nvlink to run (linkCubins); empty: found under the toolkit or on PATH.
  std::string nvlink;
  /// Print ptxas's resource report (registers, shared memory, stack and
  /// spills per kernel) to stderr.
  bool resourceReport = false;
  /// --dump-asm: print the PTX and, when cuobjdump or nvdisasm is found, the
  /// SASS of the cubin to stderr (saying so plainly when neither is).
  bool dumpAsm = false;
  /// --dump-memory-usage: print registers, shared memory (static, from
  /// ptxas, and dynamic, from the kernel metadata), stack and spills per
  /// kernel to stderr.
  bool dumpMemoryUsage = false;
  /// The disassembler for --dump-asm (cuobjdump or nvdisasm); empty: found
  /// under the toolkit's bin/ or on PATH.
  std::string disassembler;
};

/// What ptxas reports for one kernel (`ptxas -v`).
struct KernelResources {
  std::string kernel;
  /// Registers per thread ("Used N registers").
  unsigned registers = 0;
  /// Stack frame and spill bytes ("N bytes stack frame, S bytes spill
  /// stores, L bytes spill loads").
  unsigned stackBytes = 0, spillStoreBytes = 0, spillLoadBytes = 0;
  /// Static shared memory ("N bytes smem"), in bytes.
  unsigned sharedBytes = 0;
};

/// Lowers a clone of `module` (kda2 kernels) to PTX text. Diagnostics go to
/// the module's context.
FailureOr<std::string> compileToPTX(ModuleOp module, const PTXOptions &options);

/// Lowers a clone of `module`, already through convert-kda2-to-gpu (its
/// kernels are gpu.func), to PTX: the rest of kda2-lower-to-nvvm-pipeline.
/// compileToPTX(m) gives the same PTX as this on m after
/// convert-kda2-to-gpu.
FailureOr<std::string> compileGPUToPTX(ModuleOp module,
                                       const PTXOptions &options);

/// One kernel of a lowered module, alone in a module of its own.
struct KernelModule {
  std::string kernel;
  OwningOpRef<ModuleOp> module;
};

/// Splits `module` (after convert-kda2-to-gpu) into one module per kernel,
/// in the order of the kernels: each a clone without the other kernels and
/// their `__kda2_meta_<kernel>` globals, nor the private symbols only they
/// used. Compiling a piece gives the PTX and, with ptxas, the SASS that the
/// kernel has when the whole module is compiled. Fails (with an error on
/// the module) when the module holds no kernel.
FailureOr<SmallVector<KernelModule>> splitKernels(ModuleOp module);

/// Joins the PTX of modules compiled apart (splitKernels' pieces, same
/// chip) into one PTX module: the first header, then every body, with
/// module-scope `.extern` declarations that repeat kept once.
std::string combinePTX(ArrayRef<std::string> ptx);

/// What assembleCubin makes.
enum class CubinKind {
  /// A loadable cubin (whole-program ptxas).
  Executable,
  /// A cubin for linkCubins (`ptxas -ewp`, extensible whole program): the
  /// same SASS and resources as Executable, but it must be linked.
  Linkable,
};

/// Assembles PTX into a cubin with ptxas; errors name the missing tool or
/// carry ptxas's own messages. When \p resources is given, ptxas's report
/// for each kernel is appended to it.
FailureOr<std::string>
assembleCubin(Location loc, StringRef ptx, const PTXOptions &options,
              SmallVectorImpl<KernelResources> *resources = nullptr,
              CubinKind kind = CubinKind::Executable);

/// Links Linkable cubins of one chip into one loadable cubin with nvlink;
/// errors at \p loc name the missing tool or carry nvlink's messages.
FailureOr<std::string> linkCubins(Location loc, ArrayRef<std::string> cubins,
                                  const PTXOptions &options);

/// True when assembleCubin can find ptxas (the explicit option, the
/// toolkit's bin/, then PATH).
bool isPtxasAvailable(const PTXOptions &options);

/// True when linkCubins can find nvlink (the same places).
bool isNvlinkAvailable(const PTXOptions &options);

/// Registers `--kda2-to-ptx` and `--kda2-to-cubin` (with `--kda2-chip`,
/// `--kda2-fast-math`, `--kda2-opt-level`, `--kda2-cuda-path`,
/// `--kda2-ptxas`).
void registerPTXTranslations();

} // namespace mlir::kda2

#endif // KDA2_TARGET_PTX_H
