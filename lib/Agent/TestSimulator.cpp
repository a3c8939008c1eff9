//===- TestSimulator.cpp - Print the simulator's report per kernel -*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
//
// Implements --kda2-test-simulator: runs the Simulator analysis on every
// kernel gpu.func of the module and prints its report to stdout, for lit
// tests and for people. Option errors (unknown profile, malformed shape
// bindings) are located at the module; launch errors at the kernel.
//
//   kda2-opt scan.mlir -o /dev/null --kda2-test-simulator="profile=H200-SXM
//       shapes=n=1,h=8,tt=4096,np1=2,ns=129 data=cu_seqlens=0/4096
//       trace=scan.json"
//
// `kernel=name,...` restricts it to the named kernels (e.g. to pass each
// kernel its own ptxas register count).
//
//===----------------------------------------------------------------------===//

#include "kda2/Agent/Simulator.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::kda2;

namespace {
struct TestSimulatorPass
    : PassWrapper<TestSimulatorPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestSimulatorPass)

  TestSimulatorPass() = default;
  TestSimulatorPass(const TestSimulatorPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "kda2-test-simulator"; }
  StringRef getDescription() const final {
    return "Simulate every kernel gpu.func on a hardware profile and print "
           "the report";
  }
  void runOnOperation() override;

  Option<std::string> profile{*this, "profile",
                              llvm::cl::desc("Hardware profile name"),
                              llvm::cl::init("")};
  Option<std::string> profileFile{
      *this, "profile-file",
      llvm::cl::desc("YAML file with an extra hardware profile"),
      llvm::cl::init("")};
  ListOption<std::string> shapes{
      *this, "shapes",
      llvm::cl::desc("Sizes of named dimensions: name=value,...")};
  ListOption<int64_t> grid{*this, "grid",
                           llvm::cl::desc("Grid dimensions x,y,z (overrides "
                                          "the launch metadata)")};
  Option<unsigned> registers{
      *this, "registers",
      llvm::cl::desc("Registers per thread (0: estimate from the IR)"),
      llvm::cl::init(0)};
  Option<int64_t> sharedBytes{
      *this, "smem",
      llvm::cl::desc("Dynamic shared memory per CTA in bytes (-1: from the "
                     "launch metadata)"),
      llvm::cl::init(-1)};
  Option<int64_t> maxTripCount{
      *this, "max-trip-count",
      llvm::cl::desc("Sample loops longer than this and extrapolate (0: only "
                     "when over the simulator's budget)"),
      llvm::cl::init(0)};
  Option<std::string> traceFile{
      *this, "trace",
      llvm::cl::desc("Write a Chrome/Perfetto trace JSON to this file")};
  ListOption<std::string> kernelNames{
      *this, "kernel",
      llvm::cl::desc("Simulate only the kernels of these names (default: "
                     "every kernel)")};
  ListOption<std::string> data{
      *this, "data",
      llvm::cl::desc("Contents of integer input tensors: name=v0/v1/...,... "
                     "(e.g. cu_seqlens=0/1000/4096)")};
};
} // namespace

void TestSimulatorPass::runOnOperation() {
  ModuleOp module = getOperation();
  ProfileRegistry registry = ProfileRegistry::withBuiltins();
  if (!profileFile.empty())
    if (llvm::Error err = registry.addFromFile(profileFile)) {
      module.emitError() << llvm::toString(std::move(err));
      return signalPassFailure();
    }
  // Default: the module's target, else H200-SXM.
  std::string profileName = profile;
  if (profileName.empty()) {
    auto target = module->getAttrOfType<StringAttr>("kda2.target");
    profileName = target ? target.getValue().str() : "H200-SXM";
  }
  llvm::Expected<const HardwareProfile *> found = registry.get(profileName);
  if (!found) {
    module.emitError() << llvm::toString(found.takeError());
    return signalPassFailure();
  }

  LaunchOptions launch;
  for (StringRef binding : shapes) {
    auto [name, value] = binding.split('=');
    int64_t size;
    if (name.trim().empty() || value.trim().getAsInteger(10, size) ||
        size < 0) {
      module.emitError() << "malformed shape binding '" << binding
                         << "'; expected name=size with a non-negative "
                            "integer size";
      return signalPassFailure();
    }
    launch.sizes[name.trim()] = size;
  }
  for (StringRef binding : data) {
    auto [name, list] = binding.split('=');
    SmallVector<StringRef> items;
    list.split(items, '/');
    std::vector<int64_t> contents;
    for (StringRef item : items) {
      int64_t value;
      if (item.trim().getAsInteger(10, value)) {
        contents.clear();
        break;
      }
      contents.push_back(value);
    }
    if (name.trim().empty() || contents.empty()) {
      module.emitError() << "malformed data binding '" << binding
                         << "'; expected name=v0/v1/... with integers";
      return signalPassFailure();
    }
    launch.data[name.trim()] = std::move(contents);
  }
  if (!grid.empty()) {
    if (grid.size() > 3 || llvm::any_of(grid, [](int64_t d) { return d < 1; })) {
      module.emitError() << "grid takes one to three positive dimensions";
      return signalPassFailure();
    }
    for (auto [i, dim] : llvm::enumerate(grid))
      launch.grid[i] = dim;
    for (size_t i = grid.size(); i < 3; ++i)
      launch.grid[i] = 1;
  }
  launch.registersPerThread = registers;
  launch.dynamicSharedBytes = sharedBytes;
  launch.maxTripCount = maxTripCount;

  std::unique_ptr<TraceWriter> trace;
  if (!traceFile.empty())
    trace = std::make_unique<TraceWriter>((*found)->boostClockMHz);

  bool failedAny = false;
  unsigned kernels = 0;
  module.walk([&](gpu::GPUFuncOp func) {
    if (!func.isKernel())
      return;
    if (!kernelNames.empty() &&
        !llvm::is_contained(kernelNames, func.getName().str()))
      return;
    ++kernels;
    Simulator simulator(func, **found);
    if (trace)
      trace->beginKernel(func.getName());
    FailureOr<SimulationReport> report = simulator.run(launch, trace.get());
    if (failed(report)) {
      failedAny = true;
      return;
    }
    report->print(llvm::outs());
  });
  llvm::outs().flush();
  if (failedAny)
    return signalPassFailure();
  if (trace && kernels) {
    std::string message;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(traceFile, &message);
    if (!file) {
      module.emitError() << "cannot write trace '" << traceFile
                         << "': " << message;
      return signalPassFailure();
    }
    trace->write(file->os());
    file->keep();
  }
  markAllAnalysesPreserved();
}

void mlir::kda2::registerTestSimulatorPass() {
  PassRegistration<TestSimulatorPass>();
}
