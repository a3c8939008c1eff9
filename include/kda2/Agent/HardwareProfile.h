//===- HardwareProfile.h - GPU hardware profiles ----------------*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Hardware profiles describe one GPU model (SM resources, memory system,
/// peak throughputs, tiling policy caps) from public datasheet values. They
/// are YAML documents (see profiles/*.yaml for the schema); the ones shipped
/// in profiles/ are compiled into the library, and users can load more from
/// files. This library depends only on LLVM Support.
///
//===----------------------------------------------------------------------===//

#ifndef KDA2_AGENT_HARDWAREPROFILE_H
#define KDA2_AGENT_HARDWAREPROFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir {
namespace kda2 {

/// Timing parameters of the simulator (include/kda2/Agent/Simulator.h) that
/// datasheets do not give. All are optional under the YAML key `simulator`;
/// the defaults are microbenchmark figures for Ampere/Hopper SMs (cycles at
/// the SM clock) and hold for every shipped profile.
struct SimulatorParameters {
  /// `alu_latency`: dependent-issue latency of FP32/INT32 ALU instructions.
  unsigned aluLatency = 4;
  /// `sfu_latency`: latency of SFU (MUFU) instructions: exp2, lg2, rsqrt...
  unsigned sfuLatency = 18;
  /// `sfu_lanes_per_scheduler`: SFU lanes per scheduler; a warp instruction
  /// occupies the SFU for 32 / lanes cycles.
  unsigned sfuLanesPerScheduler = 4;
  /// `mma_latency`: latency of one mma.sync (m16n8k16) instruction.
  unsigned mmaLatency = 32;
  /// `mma_sync_efficiency`: fraction of the tensor peak that mma.sync can
  /// reach; in (0, 1].
  double mmaSyncEfficiency = 0.625;
  /// `wgmma_efficiency`: fraction of the tensor peak that wgmma (sm_90a's
  /// warpgroup products) can reach; in (0, 1]. A dense bf16 GEMM on the
  /// H200 ran at 737 of its 989 TFLOP/s (bench/RESULTS.md, 2026-11-29).
  double wgmmaEfficiency = 0.75;
  /// `shared_latency`: shared-memory load latency without conflicts.
  unsigned sharedLatency = 30;
  /// `shared_banks`: shared-memory banks of `shared_bank_bytes` bytes; one
  /// wavefront per cycle per SM.
  unsigned sharedBanks = 32;
  /// `shared_bank_bytes`: width of one bank, in bytes.
  unsigned sharedBankBytes = 4;
  /// `l2_latency`: global load latency on an L2 hit.
  unsigned l2Latency = 270;
  /// `hbm_latency`: global load latency on an L2 miss.
  unsigned hbmLatency = 600;
  /// `tma_latency`: latency of a TMA (cp.async.bulk.tensor) copy before its
  /// bytes stream in.
  unsigned tmaLatency = 650;
  /// `l2_bytes_per_cycle_per_sm`: cap on one SM's share of the L2 bandwidth.
  double l2BytesPerCyclePerSM = 64;
  /// `barrier_latency`: cycles from the last warp's arrival at bar.sync to
  /// the release of the waiting warps.
  unsigned barrierLatency = 20;
  /// `unroll_threshold`: a loop without barriers, TMA or inner loops whose
  /// trip count times body size (issuing ops) is at most this is unrolled
  /// completely, as LLVM's loop unroller does (its -O3 threshold, 300); the
  /// global loads of an unrolled group of trips issue before the group's
  /// other instructions (ptxas schedules long-latency loads first).
  unsigned unrollThreshold = 300;
  /// `unroll_partial_threshold`: otherwise such a loop is unrolled by the
  /// largest power of two whose unrolled body stays within this size
  /// (NVPTX's partial threshold: a quarter of the full one). 0 disables
  /// unrolling altogether.
  unsigned unrollPartialThreshold = 75;
  /// `list_schedule`: each basic block's instructions issue in the order a
  /// list scheduler gives them (ptxas's: operands ready soonest, the longest
  /// latency path first; shared accesses and global stores in order), not
  /// in the IR's order with only the global loads first.
  bool listSchedule = true;
};

/// One GPU model's resources and peak rates. Field comments give the YAML key.
/// Sizes use the datasheet units: KB = 1024 bytes for shared memory, MB/GB as
/// marketed for L2 and device memory; bandwidths are GB/s (10^9 bytes/s).
struct HardwareProfile {
  /// `name`: unique profile name; equals the YAML file's stem.
  std::string name;
  /// `arch`: CUDA target, one of sm_80, sm_86, sm_89, sm_90, sm_90a.
  std::string arch;

  /// `sm_count`: number of streaming multiprocessors.
  unsigned smCount = 0;
  /// `warp_schedulers_per_sm`: warp schedulers (SM sub-partitions) per SM.
  unsigned warpSchedulersPerSM = 0;
  /// `registers_per_sm`: 32-bit registers per SM.
  unsigned registersPerSM = 0;
  /// `max_registers_per_thread`: architectural per-thread register limit.
  unsigned maxRegistersPerThread = 0;
  /// `max_threads_per_sm`: resident threads per SM.
  unsigned maxThreadsPerSM = 0;
  /// `max_warps_per_sm`: resident warps per SM.
  unsigned maxWarpsPerSM = 0;
  /// `max_threads_per_block`: threads per thread block.
  unsigned maxThreadsPerBlock = 0;

  /// `shared_memory_per_sm_kb`: shared memory capacity per SM, in KB.
  double sharedMemoryPerSMKB = 0;
  /// `shared_memory_per_block_kb`: opt-in shared memory per block, in KB.
  double sharedMemoryPerBlockKB = 0;
  /// `l2_size_mb`: L2 cache size, in MB.
  double l2SizeMB = 0;
  /// `l2_bandwidth_gbps`: L2 bandwidth in GB/s (often an estimate).
  double l2BandwidthGBps = 0;
  /// `hbm_size_gb`: device memory size, in GB.
  double hbmSizeGB = 0;
  /// `hbm_bandwidth_gbps`: device memory bandwidth, in GB/s.
  double hbmBandwidthGBps = 0;
  /// `base_clock_mhz`: base SM clock, in MHz.
  double baseClockMHz = 0;
  /// `boost_clock_mhz`: maximum boost SM clock, in MHz.
  double boostClockMHz = 0;
  /// `tensor_tflops_fp16`: dense FP16 tensor-core peak, in TFLOP/s.
  double tensorTFlopsFP16 = 0;
  /// `tensor_tflops_bf16`: dense BF16 tensor-core peak, in TFLOP/s.
  double tensorTFlopsBF16 = 0;
  /// `fp32_tflops`: non-tensor FP32 peak, in TFLOP/s.
  double fp32TFlops = 0;

  /// `tma`: whether the GPU has a Tensor Memory Accelerator.
  bool tma = false;
  /// `max_tma_tile[0]`: row cap for a `tma_bound` tile (project policy).
  unsigned maxTmaTileRows = 0;
  /// `max_tma_tile[1]`: column cap for a `tma_bound` tile (project policy).
  unsigned maxTmaTileCols = 0;

  /// `sources`: datasheets and other documents the values come from.
  std::vector<std::string> sources;

  /// `simulator`: optional timing parameters of the simulator.
  SimulatorParameters simulator;

  /// Shared memory a single block may use, in bytes.
  uint64_t sharedMemoryPerBlockBytes() const;
  /// Shared memory capacity of one SM, in bytes.
  uint64_t sharedMemoryPerSMBytes() const;
  /// True for Hopper targets (arch starts with "sm_90").
  bool isHopper() const;
};

/// A set of hardware profiles keyed by name.
class ProfileRegistry {
public:
  /// A registry holding the profiles compiled into the library (the files in
  /// profiles/). Aborts if one of them is invalid, which tests rule out.
  static ProfileRegistry withBuiltins();

  /// Parses one YAML profile document from \p yaml and adds it. On failure
  /// returns an llvm::StringError whose message starts with
  /// "<bufferName>:<line>:<col>: error: " and leaves the registry unchanged.
  llvm::Error addFromBuffer(llvm::StringRef yaml, llvm::StringRef bufferName);

  /// Reads the file at \p path and adds the profile it holds; the profile's
  /// `name` must equal the file's stem. Errors name the path.
  llvm::Error addFromFile(llvm::StringRef path);

  /// Returns the profile called \p name, or nullptr when unknown.
  const HardwareProfile *lookup(llvm::StringRef name) const;

  /// Returns the profile called \p name, or an error reading exactly
  /// "unknown hardware profile 'X'; known profiles: A, B, C".
  llvm::Expected<const HardwareProfile *> get(llvm::StringRef name) const;

  /// Returns the registered profile names, sorted.
  std::vector<std::string> names() const;

private:
  /// Parses, validates and adds one profile. When \p expectedName is not
  /// empty the profile's name must equal it.
  llvm::Error add(llvm::StringRef yaml, llvm::StringRef bufferName,
                  llvm::StringRef expectedName);

  /// Profiles by name; std::map keeps names sorted and pointers stable.
  std::map<std::string, HardwareProfile> profiles;
};

} // namespace kda2
} // namespace mlir

#endif // KDA2_AGENT_HARDWAREPROFILE_H
