//===- BackEndTest.cpp - Per-kernel compilation pieces ----------*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
//
// What kda2-agent's compile cache builds on (include/kda2/Target/PTX.h):
// splitKernels gives each kernel alone with its own metadata, combinePTX
// joins PTX modules into one, and linkCubins reports a missing or failing
// nvlink.
//
//===----------------------------------------------------------------------===//

#include "kda2/Conversion/Passes.h"
#include "kda2/InitAll.h"
#include "kda2/Target/PTX.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::kda2;

namespace {

/// Two kernels: `first` and `second` (a wider row).
constexpr const char *kTwoKernels = R"mlir(
kda2.kernel @first(%x: !kda2.tensor<[n, 32], f32>,
                   %y: !kda2.tensor<[n, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {grid = ["n"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[n, 32], f32>, !kda2.tensor<[n, 32], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[n, 32], f32> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[n, 32], f32>
  }
  kda2.return
}
kda2.kernel @second(%x: !kda2.tensor<[n, 64], f32>,
                    %y: !kda2.tensor<[n, 64], f32> {kda2.io = #kda2.io<out>})
    attributes {grid = ["n"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[n, 64], f32>, !kda2.tensor<[n, 64], f32>
  %c64 = arith.constant 64 : index
  kda2.loop thread %j to %c64 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[n, 64], f32> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[n, 64], f32>
  }
  kda2.return
}
)mlir";

class BackEndTest : public ::testing::Test {
protected:
  BackEndTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerGPUBackendDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
  }

  /// \p text after convert-kda2-to-gpu.
  OwningOpRef<ModuleOp> lower(StringRef text) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, context.get());
    if (!module)
      return nullptr;
    PassManager pm(context.get());
    pm.addPass(createConvertKDA2ToGPUPass());
    if (failed(pm.run(*module)))
      return nullptr;
    return module;
  }

  /// The symbol names directly in \p module's gpu.modules.
  static std::vector<std::string> symbols(ModuleOp module) {
    std::vector<std::string> names;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
      for (Operation &op : gpuModule.getBody()->getOperations())
        if (auto symbol = dyn_cast<SymbolOpInterface>(op))
          names.push_back(symbol.getName().str());
    return names;
  }

  std::unique_ptr<MLIRContext> context;
};

TEST_F(BackEndTest, SplitKernelsKeepsEachKernelWithItsMetadata) {
  OwningOpRef<ModuleOp> module = lower(kTwoKernels);
  ASSERT_TRUE(module);
  FailureOr<SmallVector<KernelModule>> pieces = splitKernels(*module);
  ASSERT_TRUE(succeeded(pieces));
  ASSERT_EQ(pieces->size(), 2u);
  EXPECT_EQ((*pieces)[0].kernel, "first");
  EXPECT_EQ((*pieces)[1].kernel, "second");
  std::vector<std::string> first = symbols(*(*pieces)[0].module);
  std::vector<std::string> second = symbols(*(*pieces)[1].module);
  llvm::sort(first);
  llvm::sort(second);
  EXPECT_EQ(first, (std::vector<std::string>{"__kda2_meta_first", "first"}));
  EXPECT_EQ(second, (std::vector<std::string>{"__kda2_meta_second", "second"}));
  // The input is left whole.
  EXPECT_EQ(symbols(*module).size(), 4u);
}

TEST_F(BackEndTest, SplitKernelsOfAModuleWithoutKernelsFails) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>("module {}", context.get());
  ASSERT_TRUE(module);
  std::string message;
  ScopedDiagnosticHandler handler(context.get(), [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(splitKernels(*module)));
  EXPECT_EQ(message, "the module holds no kda2 kernel to compile");
}

TEST(CombinePTXTest, OneHeaderAndEachExternOnce) {
  std::string a = "//\n.version 8.0\n.target sm_90a\n.address_size 64\n\n"
                  ".extern .shared .align 16 .b8 __dynamic_shmem__0[];\n"
                  ".visible .entry first()\n{\n\tret;\n}\n";
  std::string b = "//\n.version 8.0\n.target sm_90a\n.address_size 64\n\n"
                  ".extern .shared .align 16 .b8 __dynamic_shmem__0[];\n"
                  ".visible .entry second()\n{\n\tret;\n}\n";
  EXPECT_EQ(combinePTX({a, b}),
            "//\n.version 8.0\n.target sm_90a\n.address_size 64\n\n"
            ".extern .shared .align 16 .b8 __dynamic_shmem__0[];\n"
            ".visible .entry first()\n{\n\tret;\n}\n"
            "\n"
            ".visible .entry second()\n{\n\tret;\n}\n");
  EXPECT_EQ(combinePTX({a}), a);
}

/// The error linkCubins reports with \p options.
std::string linkError(MLIRContext &context, const PTXOptions &options) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  FailureOr<std::string> cubin =
      linkCubins(UnknownLoc::get(&context), {"not a cubin"}, options);
  EXPECT_TRUE(failed(cubin));
  return message;
}

TEST(LinkCubinsTest, MissingNvlinkIsNamed) {
  MLIRContext context;
  PTXOptions options;
  options.nvlink = "/nonexistent/bin/nvlink";
  EXPECT_FALSE(isNvlinkAvailable(options));
  EXPECT_EQ(linkError(context, options),
            "nvlink not found: install the CUDA toolkit, set CUDA_HOME, or "
            "name it explicitly");
}

TEST(LinkCubinsTest, FailingNvlinkGivesItsExitCodeAndOutput) {
  SmallString<128> script;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("nvlink", "sh", script));
  llvm::FileRemover remove(script);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(script, ec);
    ASSERT_FALSE(ec);
    os << "#!/bin/sh\necho \"nvlink error : bad input\" >&2\nexit 3\n";
  }
  ASSERT_FALSE(llvm::sys::fs::setPermissions(script, llvm::sys::fs::owner_all));
  MLIRContext context;
  PTXOptions options;
  options.nvlink = std::string(script);
  EXPECT_TRUE(isNvlinkAvailable(options));
  EXPECT_EQ(linkError(context, options),
            "nvlink failed (exit 3)\nnvlink error : bad input\n");
}

} // namespace
