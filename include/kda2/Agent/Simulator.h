//===- Simulator.h - Cycle-level simulator of lowered GPU kernels -*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An analysis that estimates the run time of a lowered kernel (a `gpu.func`
/// produced by --convert-kda2-to-gpu) on a hardware profile, for one launch.
///
/// The simulator interprets the kernel's IR once per warp of the CTAs
/// resident on one SM: index arithmetic is evaluated concretely for the 32
/// lanes of the warp (thread and block ids, loop counters and the launch's
/// sizes are known; loaded data is not), loops run their real trip counts,
/// and every instruction-like op becomes one entry of the warp's instruction
/// stream, with its pipe, its operands' producers and, for memory accesses,
/// its shared-memory wavefronts or global sectors. A cycle-level model then
/// replays the streams: per-SM warp schedulers issuing one instruction per
/// cycle each, pipes with latency and throughput, a per-warp scoreboard,
/// bar.sync, mbarrier phases completed by TMA copies, and a per-SM memory
/// port sharing the L2 bandwidth. The one-SM time is scaled by the number of
/// CTA waves and bounded below by the grid's L2 and DRAM traffic.
/// docs/Simulator.md describes the model and what it ignores.
///
//===----------------------------------------------------------------------===//

#ifndef KDA2_AGENT_SIMULATOR_H
#define KDA2_AGENT_SIMULATOR_H

#include "kda2/Agent/HardwareProfile.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace kda2 {

//===----------------------------------------------------------------------===//
// Numeric core (no IR)
//===----------------------------------------------------------------------===//

/// Result of one warp-wide shared-memory access.
struct SharedAccessCost {
  /// Wavefronts (shared-memory cycles) the access takes.
  unsigned wavefronts = 0;
  /// Wavefronts a conflict-free access of the same shape would take; the
  /// difference is the bank-conflict count.
  unsigned idealWavefronts = 0;
};

/// Wavefronts of a warp-wide shared-memory access in which lane `l` (bit `l`
/// of \p activeMask set) accesses \p accessBytes bytes at byte address
/// `laneAddresses[l]`. Accesses wider than 16 bytes are split into 16-byte
/// instructions. Within one instruction the lanes are served in phases of
/// `numBanks * bankBytes / accessBytes` lanes (a full warp for 4-byte
/// accesses, 16 lanes for 8-byte, 8 lanes for 16-byte); a phase takes as many
/// wavefronts as the largest number of distinct `bankBytes` words any single
/// bank holds among the words its lanes touch (the same word is broadcast).
SharedAccessCost sharedAccessCost(ArrayRef<int64_t> laneAddresses,
                                  uint32_t activeMask, unsigned accessBytes,
                                  unsigned numBanks = 32,
                                  unsigned bankBytes = 4);

/// Number of distinct 32-byte sectors touched by a warp-wide global access
/// (same arguments as sharedAccessCost).
unsigned globalSectors(ArrayRef<int64_t> laneAddresses, uint32_t activeMask,
                       unsigned accessBytes);

//===----------------------------------------------------------------------===//
// Trace output
//===----------------------------------------------------------------------===//

/// Collects a timeline and writes it as Chrome trace-event JSON (the format
/// chrome://tracing and ui.perfetto.dev open): one process per simulated
/// CTA, one thread (track) per warp, complete ("X") events for issue spans,
/// stalls and barrier waits, timestamps in microseconds.
class TraceWriter {
public:
  /// \p clockMHz converts cycles to microseconds.
  explicit TraceWriter(double clockMHz, size_t maxEvents = 400000);

  /// Starts the timeline of kernel \p name: later CTAs get process ids after
  /// those of the kernels before it, and process names carry the kernel.
  void beginKernel(StringRef name);
  /// Names the track of warp \p warp of CTA \p cta.
  void addTrack(unsigned cta, unsigned warp, StringRef name);
  /// Adds a span [\p beginCycle, \p endCycle) named \p name (category
  /// \p category) on the track of warp \p warp of CTA \p cta. Spans beyond
  /// the event limit are counted and dropped.
  void addSpan(unsigned cta, unsigned warp, StringRef name, StringRef category,
               uint64_t beginCycle, uint64_t endCycle);
  /// Number of spans dropped because of the event limit.
  size_t droppedSpans() const { return dropped; }
  /// Writes the JSON document.
  void write(raw_ostream &os) const;

private:
  struct Span {
    unsigned cta, warp;
    std::string name, category;
    uint64_t begin, end;
  };
  struct Track {
    unsigned cta, warp;
    std::string name, process;
  };
  double clockMHz;
  size_t maxEvents;
  size_t dropped = 0;
  /// Process id of CTA 0 of the current kernel, and the next free one.
  unsigned processBase = 0, nextProcess = 0;
  std::string kernelName;
  std::vector<Track> tracks;
  std::vector<Span> spans;
};

//===----------------------------------------------------------------------===//
// Simulator
//===----------------------------------------------------------------------===//

/// What the simulated launch looks like.
struct LaunchOptions {
  /// Sizes of the named dimensions (`n`, `h`, `t`, ...) used by the kernel's
  /// launch metadata and its `arg dim` parameters.
  llvm::StringMap<int64_t> sizes;
  /// Grid dimensions; all zero: computed from the launch metadata.
  std::array<int64_t, 3> grid = {0, 0, 0};
  /// Registers per thread (ptxas's count); 0: estimated from the IR.
  unsigned registersPerThread = 0;
  /// Dynamic shared memory per CTA in bytes; negative: from the metadata.
  int64_t dynamicSharedBytes = -1;
  /// Loops with more iterations are simulated for this many and for twice
  /// as many, and the results extrapolated linearly; 0: only when a warp's
  /// instruction stream would exceed the simulator's budget.
  int64_t maxTripCount = 0;
  /// Contents of small integer input tensors by parameter name (e.g. the
  /// `cu_seqlens` of a packed batch): loads from them give these values, so
  /// loops bounded by them run their real trip counts. Other loaded data is
  /// unknown.
  llvm::StringMap<std::vector<int64_t>> data;
};

/// Warp-cycles a warp spent without issuing, by reason.
struct StallBreakdown {
  /// Waiting for an operand produced by an ALU, SFU or tensor instruction.
  uint64_t dependency = 0;
  /// Waiting for a load (shared, global, ldmatrix) or an mbarrier phase.
  uint64_t memory = 0;
  /// Waiting at bar.sync for the other warps of the CTA.
  uint64_t barrier = 0;
  /// Ready, but its pipe (or the shared-memory queue) was busy.
  uint64_t pipeBusy = 0;
  /// Ready, but the scheduler issued another warp.
  uint64_t notSelected = 0;
};

/// Instructions issued per pipe.
struct PipeCounts {
  uint64_t alu = 0, sfu = 0, tensor = 0, shared = 0, global = 0, tma = 0,
           sync = 0;
  uint64_t total() const {
    return alu + sfu + tensor + shared + global + tma + sync;
  }
};

/// The simulator's estimate for one kernel and launch.
struct SimulationReport {
  std::string kernel;
  std::string profile;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  int64_t ctas = 0;
  unsigned registersPerThread = 0;
  bool registersEstimated = false;
  uint64_t sharedBytesPerCTA = 0;
  /// CTAs one SM holds at once and what limits it.
  unsigned ctasPerSM = 0;
  std::string occupancyLimiter;
  double theoreticalOccupancy = 0;
  /// Mean resident warps / max warps per SM over the simulated SM's run.
  double achievedOccupancy = 0;
  int64_t waves = 0;
  /// CTAs resident on the simulated SM in its first wave.
  unsigned residentCTAs = 0;

  /// Cycles of the simulated SM over all waves (the latency-bound time).
  uint64_t cycles = 0;
  double computeMicros = 0, l2Micros = 0, dramMicros = 0;
  /// max(compute, L2, DRAM) and which of the three it is.
  double predictedMicros = 0;
  std::string bound;

  /// Whole-grid estimates (per-CTA figures of the simulated SM times CTAs).
  uint64_t instructions = 0;
  uint64_t bankConflicts = 0;
  uint64_t sharedWavefronts = 0;
  double globalBytes = 0, dramBytes = 0;
  double l2Utilisation = 0;
  /// Figures of the simulated SM (first wave).
  PipeCounts smPipes;
  StallBreakdown smStalls;
  uint64_t smBankConflicts = 0;

  /// Host time spent simulating and simulated cycles per host second.
  double hostSeconds = 0;
  double cyclesPerHostSecond = 0;
  /// Approximations taken (loop sampling, unknown trip counts, ...).
  std::vector<std::string> notes;

  /// Prints the report as text, one `key: value` line each.
  void print(raw_ostream &os) const;
};

/// The analysis. Constructed from a kernel `gpu.func` and a profile; run()
/// simulates one launch. Errors (missing sizes, no launch shape, resources
/// over the profile) are emitted as diagnostics located at the kernel.
class Simulator {
public:
  Simulator(gpu::GPUFuncOp kernel, const HardwareProfile &profile);
  ~Simulator();

  /// Simulates \p launch; writes a timeline to \p trace when given.
  FailureOr<SimulationReport> run(const LaunchOptions &launch,
                                  TraceWriter *trace = nullptr);

  /// Registers per thread estimated from the IR: the peak number of 32-bit
  /// values live at once, plus a fixed reserve, clamped to the profile.
  unsigned estimateRegisters() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Registers the `kda2-test-simulator` pass (lib/Agent/TestSimulator.cpp).
void registerTestSimulatorPass();

} // namespace kda2
} // namespace mlir

#endif // KDA2_AGENT_SIMULATOR_H
