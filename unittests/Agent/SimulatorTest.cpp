//===- SimulatorTest.cpp - Simulator core, trace and speed tests -*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
//
// The simulator's numeric core without IR (bank conflicts, global sectors),
// its Chrome trace JSON (parsed back with llvm::json), and a speed check on
// the real prefill scan kernel that only prints simulated cycles per host
// second (timings vary with the machine; nothing is asserted on them).
//
//===----------------------------------------------------------------------===//

#include "kda2/Agent/Simulator.h"
#include "kda2/Conversion/Passes.h"
#include "kda2/Frontend/TIRx/ImportTIRx.h"
#include "kda2/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <chrono>

using namespace mlir;
using namespace mlir::kda2;

namespace {

/// Lane addresses base + stride * lane.
std::vector<int64_t> strided(int64_t stride, int64_t base = 0) {
  std::vector<int64_t> addrs(32);
  for (int64_t l = 0; l < 32; ++l)
    addrs[l] = base + stride * l;
  return addrs;
}

//===----------------------------------------------------------------------===//
// Bank conflicts
//===----------------------------------------------------------------------===//

TEST(SharedAccessCost, ConsecutiveFloatsAreConflictFree) {
  SharedAccessCost cost = sharedAccessCost(strided(4), ~0u, 4);
  EXPECT_EQ(cost.wavefronts, 1u);
  EXPECT_EQ(cost.idealWavefronts, 1u);
}

TEST(SharedAccessCost, Stride32FloatsSerializeAllLanes) {
  // Every lane in bank 0, 32 distinct words: 32 wavefronts, 31 extra.
  SharedAccessCost cost = sharedAccessCost(strided(128), ~0u, 4);
  EXPECT_EQ(cost.wavefronts, 32u);
  EXPECT_EQ(cost.wavefronts - cost.idealWavefronts, 31u);
}

TEST(SharedAccessCost, Stride2FloatsIsTwoWay) {
  SharedAccessCost cost = sharedAccessCost(strided(8), ~0u, 4);
  EXPECT_EQ(cost.wavefronts, 2u);
}

TEST(SharedAccessCost, SameWordIsBroadcast) {
  SharedAccessCost cost = sharedAccessCost(strided(0, 64), ~0u, 4);
  EXPECT_EQ(cost.wavefronts, 1u);
}

TEST(SharedAccessCost, InactiveLanesDoNotConflict) {
  // Stride 32 floats with only lanes 0 and 1 active: two-way.
  SharedAccessCost cost = sharedAccessCost(strided(128), 0x3u, 4);
  EXPECT_EQ(cost.wavefronts, 2u);
  EXPECT_EQ(sharedAccessCost(strided(128), 0u, 4).wavefronts, 0u);
}

TEST(SharedAccessCost, WideAccessesTakeSeveralPhases) {
  // 8 bytes per lane, consecutive: two half-warp wavefronts, no conflict.
  SharedAccessCost cost8 = sharedAccessCost(strided(8), ~0u, 8);
  EXPECT_EQ(cost8.wavefronts, 2u);
  EXPECT_EQ(cost8.idealWavefronts, 2u);
  // 16 bytes per lane (float4): four quarter-warp wavefronts.
  SharedAccessCost cost16 = sharedAccessCost(strided(16), ~0u, 16);
  EXPECT_EQ(cost16.wavefronts, 4u);
  EXPECT_EQ(cost16.idealWavefronts, 4u);
  // 64 bytes per lane, rows 64 bytes apart: four 16-byte instructions; in
  // each, 8 lanes 64 bytes apart share banks
  // four ways: 4 instructions x 4 phases x 4 wavefronts.
  SharedAccessCost rows = sharedAccessCost(strided(64), ~0u, 64);
  EXPECT_EQ(rows.wavefronts, 64u);
  EXPECT_EQ(rows.idealWavefronts, 16u);
}

TEST(SharedAccessCost, LdmatrixRowsWithUnpaddedPitchConflict) {
  // ldmatrix .x1: lanes 0-7 give 16-byte rows 64 bytes apart (a 32-column
  // bf16 tile): rows 0, 2, 4, 6 share banks 0-3, a four-way conflict.
  SharedAccessCost cost = sharedAccessCost(strided(64), 0xffu, 16);
  EXPECT_EQ(cost.wavefronts, 4u);
  EXPECT_EQ(cost.idealWavefronts, 1u);
  // Padded to 80 bytes (40 bf16) the rows spread over all banks.
  EXPECT_EQ(sharedAccessCost(strided(80), 0xffu, 16).wavefronts, 1u);
}

TEST(GlobalSectors, CoalescedAndStrided) {
  EXPECT_EQ(globalSectors(strided(4), ~0u, 4), 4u);      // 128 contiguous B
  EXPECT_EQ(globalSectors(strided(128), ~0u, 4), 32u);   // one sector a lane
  EXPECT_EQ(globalSectors(strided(4, 16), ~0u, 4), 5u);  // misaligned
  EXPECT_EQ(globalSectors(strided(0), ~0u, 4), 1u);      // broadcast
  EXPECT_EQ(globalSectors(strided(16), ~0u, 16), 16u);   // 512 B of float4
}

//===----------------------------------------------------------------------===//
// Trace JSON
//===----------------------------------------------------------------------===//

TEST(TraceWriter, WritesChromeTraceEvents) {
  TraceWriter trace(/*clockMHz=*/1000);
  trace.beginKernel("scan");
  trace.addTrack(0, 0, "warp 0");
  trace.addTrack(0, 1, "warp 1");
  trace.addSpan(0, 0, "issue", "issue", 0, 10);
  trace.addSpan(0, 1, "barrier", "stall", 5, 2005);
  trace.addSpan(0, 1, "empty", "stall", 7, 7); // dropped: empty
  std::string text;
  llvm::raw_string_ostream os(text);
  trace.write(os);

  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  const llvm::json::Object *root = parsed->getAsObject();
  ASSERT_TRUE(root);
  EXPECT_EQ(root->getString("displayTimeUnit"), "ns");
  const llvm::json::Array *events = root->getArray("traceEvents");
  ASSERT_TRUE(events);
  unsigned threadNames = 0, processNames = 0, spans = 0;
  for (const llvm::json::Value &value : *events) {
    const llvm::json::Object *event = value.getAsObject();
    ASSERT_TRUE(event);
    std::optional<llvm::StringRef> phase = event->getString("ph");
    ASSERT_TRUE(phase);
    ASSERT_TRUE(event->getInteger("pid"));
    if (*phase == "M") {
      if (event->getString("name") == "thread_name")
        ++threadNames;
      else if (event->getString("name") == "process_name") {
        ++processNames;
        EXPECT_EQ(event->getObject("args")->getString("name"),
                  "@scan CTA 0");
      }
      continue;
    }
    ASSERT_EQ(*phase, "X");
    ++spans;
    ASSERT_TRUE(event->getInteger("tid"));
    std::optional<double> ts = event->getNumber("ts");
    std::optional<double> dur = event->getNumber("dur");
    ASSERT_TRUE(ts && dur);
    if (event->getString("name") == "barrier") {
      EXPECT_DOUBLE_EQ(*ts, 0.005); // 5 cycles at 1000 MHz, in us
      EXPECT_DOUBLE_EQ(*dur, 2.0);
      EXPECT_EQ(event->getString("cat"), "stall");
      EXPECT_EQ(*event->getInteger("tid"), 1);
    }
  }
  EXPECT_EQ(threadNames, 2u);
  EXPECT_EQ(processNames, 1u);
  EXPECT_EQ(spans, 2u);
}

TEST(TraceWriter, DropsSpansBeyondTheLimit) {
  TraceWriter trace(1000, /*maxEvents=*/2);
  for (unsigned i = 0; i < 5; ++i)
    trace.addSpan(0, 0, "issue", "issue", i * 2, i * 2 + 1);
  EXPECT_EQ(trace.droppedSpans(), 3u);
}

//===----------------------------------------------------------------------===//
// Speed on the real scan kernel (prints only)
//===----------------------------------------------------------------------===//

TEST(SimulatorSpeed, PrefillScanKernel) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerGPUBackendDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  auto file = llvm::MemoryBuffer::getFile(KDA2_CHUNK_SPLIT_TIRX);
  ASSERT_TRUE(bool(file)) << KDA2_CHUNK_SPLIT_TIRX;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  ImportTIRxOptions options;
  options.bindings = {{"GB", 5}, {"K", 128}, {"V", 128}, {"C", 32}, {"VB", 32},
                      {"NVB", 4}};
  options.typeBindings = {{"IN", "bf16"}, {"IX", "i32"}};
  options.layoutBindings = {{"SL", "row_major"}};
  OwningOpRef<ModuleOp> module = importTIRx(sourceMgr, &context, options);
  ASSERT_TRUE(module);
  PassManager pm(&context);
  pm.addPass(createConvertKDA2ToGPUPass());
  ASSERT_TRUE(succeeded(pm.run(*module)));

  gpu::GPUFuncOp scan;
  module->walk([&](gpu::GPUFuncOp func) {
    if (func.getName() == "kda_chunk_scan")
      scan = func;
  });
  ASSERT_TRUE(scan);
  ProfileRegistry profiles = ProfileRegistry::withBuiltins();
  const HardwareProfile *h200 = profiles.lookup("H200-SXM");
  ASSERT_TRUE(h200);

  LaunchOptions launch;
  launch.sizes = {{"n", 1}, {"h", 8}, {"tt", 4096}, {"np1", 2}, {"ns", 129}};
  launch.data["cu_seqlens"] = {0, 4096};
  auto start = std::chrono::steady_clock::now();
  Simulator simulator(scan, *h200);
  FailureOr<SimulationReport> report = simulator.run(launch);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  ASSERT_TRUE(succeeded(report));
  EXPECT_GT(report->cycles, 0u);
  std::printf("[ speed    ] kda_chunk_scan (1, 4096, 8) on H200-SXM: %llu "
              "simulated cycles in %.3f s host = %.0f cycles/s "
              "(issue requirement: 100000 cycles/s)\n",
              (unsigned long long)report->cycles, seconds,
              double(report->cycles) / std::max(seconds, 1e-9));
}

//===----------------------------------------------------------------------===//
// Tensor-core rates: wgmma against mma.sync
//===----------------------------------------------------------------------===//

/// Simulated cycles of kernel `name` in `source` (one CTA, H200-SXM).
uint64_t simulatedCycles(const std::string &source, StringRef name) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerGPUBackendDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  EXPECT_TRUE(module);
  if (!module)
    return 0;
  gpu::GPUFuncOp kernel;
  module->walk([&](gpu::GPUFuncOp func) {
    if (func.getName() == name)
      kernel = func;
  });
  EXPECT_TRUE(kernel) << name.str();
  ProfileRegistry profiles = ProfileRegistry::withBuiltins();
  const HardwareProfile *h200 = profiles.lookup("H200-SXM");
  EXPECT_TRUE(h200);
  if (!kernel || !h200)
    return 0;
  LaunchOptions launch;
  launch.grid = {1, 1, 1};
  FailureOr<SimulationReport> report = Simulator(kernel, *h200).run(launch);
  EXPECT_TRUE(succeeded(report));
  return succeeded(report) ? report->cycles : 0;
}

/// A kernel `name(params)` of one CTA of 128 threads running `body` 64
/// times (`%t` is true).
std::string loopKernel(StringRef name, StringRef params, StringRef body) {
  return ("module attributes {gpu.container_module} {\n gpu.module @k {\n"
          "  gpu.func @" + name + "(" + params +
          ") kernel attributes {known_block_size = array<i32: 128, 1, 1>} {\n"
          "   %c0 = arith.constant 0 : index\n"
          "   %c1 = arith.constant 1 : index\n"
          "   %c64 = arith.constant 64 : index\n"
          "   %t = llvm.mlir.constant(true) : i1\n"
          "   scf.for %i = %c0 to %c64 step %c1 {\n" + body +
          "   }\n   gpu.return\n  }\n }\n}\n")
      .str();
}

// The same flops on the tensor pipe, independent products (throughput, not
// latency): four warps each issuing 4 x 64 mma.sync m16n8k16, or a
// warpgroup issuing 64 wgmma m64n32k16 (each warp a quarter: the same
// 16 384 flops per warp and step). wgmma runs at simulator.wgmma_efficiency
// of the peak (0.75), mma.sync at mma_sync_efficiency (0.625): the wgmma
// kernel takes about 0.625 / 0.75 of the time, and never as long.
TEST(SimulatorTensorRates, WgmmaOutrunsMmaSyncOnTheSameFlops) {
  std::string products;
  for (int i = 0; i < 4; ++i)
    products += "    %d" + std::to_string(i) +
                " = nvvm.mma.sync A[%a, %a, %a, %a]  B[%b, %b]  C[%c, %c, "
                "%c, %c]  {layoutA = #nvvm.mma_layout<row>, layoutB = "
                "#nvvm.mma_layout<col>, multiplicandAPtxType = "
                "#nvvm.mma_type<bf16>, multiplicandBPtxType = "
                "#nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k "
                "= 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, "
                "f32)>\n";
  const std::string mma =
      loopKernel("mma_tput", "%a: i32, %b: i32, %c: f32", products);
  const std::string wgmma = loopKernel(
      "wgmma_tput", "%a: i32, %d: i64, %c: f32",
      "    %s = llvm.inline_asm has_side_effects asm_dialect = att "
      "{kda2_wgmma = #nvvm.shape<m = 64, n = 32, k = 16>} "
      "\"wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {$0}, {$2, $3, "
      "$4, $5}, $6, $7, 1, 1, 0;\", \"=f,0,r,r,r,r,l,b\" %c, %a, %a, %a, %a, "
      "%d, %t : (f32, i32, i32, i32, i32, i64, i1) -> !llvm.struct<(f32)>\n");
  uint64_t mmaCycles = simulatedCycles(mma, "mma_tput");
  uint64_t wgmmaCycles = simulatedCycles(wgmma, "wgmma_tput");
  ASSERT_GT(mmaCycles, 0u);
  ASSERT_GT(wgmmaCycles, 0u);
  double ratio = double(wgmmaCycles) / double(mmaCycles);
  EXPECT_LT(ratio, 0.9) << wgmmaCycles << " against " << mmaCycles;
  EXPECT_GT(ratio, 0.75) << wgmmaCycles << " against " << mmaCycles;
}

} // namespace
