//===- Bundle.h - kernel bundles made by kda2-link --------------*- C++ -*-===//
//
// Part of libkda2rt. A bundle is a set of module images (cubins, one per
// chip and shape specialisation) plus a DispatchTable, usually embedded in a
// shared library made by kda2-link that registers it on load (docs/Bundle.md).
// Bundle loads each image on the device the first time one of its kernels is
// selected, launches by op name and runtime length, and optionally records
// per-call timings (CUDA events) and the kernels' counters.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_RUNTIME_BUNDLE_H
#define KDA2_RUNTIME_BUNDLE_H

#include "kda2/Runtime/Dispatch.h"
#include "kda2/Runtime/KDA.h"
#include "kda2/Runtime/StateManager.h"

#include <map>
#include <memory>
#include <mutex>

namespace kda2::runtime {

/// Per-call statistics of one op (kda2rt_call_stats in the C ABI).
struct KDA2RT_API CallStats {
  int64_t calls = 0;
  int64_t timedCalls = 0;
  double hostUsTotal = 0, hostUsMax = 0;
  double gpuMsTotal = 0, gpuMsMin = 0, gpuMsMax = 0, gpuMsLast = 0;
  /// Percentiles of the kernel times of the last kGpuWindow timed calls
  /// (0 when none was timed).
  double gpuMsP50 = 0, gpuMsP99 = 0;
};

/// Timed calls whose kernel times the percentiles of CallStats cover.
inline constexpr size_t kGpuWindow = 1024;

class KDA2RT_API Bundle {
public:
  /// Validates a descriptor (ABI version, names, image indices, the table)
  /// and builds a bundle referring to its images (not copied).
  static Status create(const kda2rt_bundle_desc &desc,
                       std::unique_ptr<Bundle> &out);
  ~Bundle();
  Bundle(const Bundle &) = delete;
  Bundle &operator=(const Bundle &) = delete;

  const std::string &name() const { return name_; }
  const DispatchTable &table() const { return table_; }
  /// Name, images and the table, as text.
  const std::string &description() const { return description_; }

  /// The kernel for `op` at `length` on `device`; loads its image there on
  /// first use (errors: no driver, wrong arch, CUDA errors, kernel missing).
  Status select(int device, std::string_view op, int64_t length,
                const Kernel *&out);
  /// Launches `op` with the kernel selected by the value of its dispatch
  /// dimension in `args` (an error if `args` does not give it).
  Status launch(int device, std::string_view op, const LaunchArgs &args,
                CUstream stream);
  /// A KDA decode step through the kernel selected for args.t.
  Status launchKdaDecode(int device, std::string_view op,
                         const KdaDecodeArgs &args, CUstream stream);
  /// A decode step of `n` sequences of `states` (created together): h0/ht
  /// come from the manager, which advances them after the launch.
  /// args.stateLayout must be the manager's layout (vFirst: "vk") and the
  /// kernel's.
  Status decodeStep(int device, std::string_view op, StateManager &states,
                    const int64_t *ids, size_t n, KdaDecodeArgs args,
                    CUstream stream);

  /// Turns per-call event timing and the bundle-owned counter buffers on or
  /// off (enabling counters zeroes the buffers).
  Status setProfiling(bool timing, bool counters);
  /// Statistics of `op` (resolves pending timing events: synchronous).
  Status stats(std::string_view op, CallStats &out);
  /// Statistics of `op` without waiting: only the timing events the GPU
  /// has reached are resolved (what a monitor thread reads).
  Status pollStats(std::string_view op, CallStats &out);
  /// The ops of the table, sorted.
  std::vector<std::string> ops() const { return table_.ops(); }
  /// The op's counters summed by name over its kernels' buffers.
  Status readCounters(std::string_view op, std::vector<CounterValue> &out);
  /// Zeroes statistics and counter buffers.
  Status resetStats();

private:
  Bundle() = default;
  struct Loaded;
  struct OpStats;
  struct Device;
  struct Route;
  struct TimedCall;
  Status contextFor(int device, const Device *&out);
  Status loadedEntry(int device, const DispatchEntry &entry, Loaded *&out);
  Status selectLoaded(int device, std::string_view op, int64_t length,
                      Loaded *&out);
  /// The cached (loaded kernel, statistics) of (device, op, length),
  /// selected and loaded on a miss.
  Status route(int device, std::string_view op, int64_t length,
               const Route *&out);
  OpStats &opStats(std::string_view op);
  Status counterBuffer(Loaded &loaded, CUdeviceptr &out);
  Status beginTiming(OpStats &stats, const Context &ctx, CUstream stream,
                     TimedCall &call);
  Status endTiming(OpStats &stats, const TimedCall &call, CUstream stream,
                   Status launched);
  void countCall(OpStats &stats, double hostStartUs);
  Status launchWith(std::string_view op, Loaded &loaded,
                    const LaunchArgs &args, CUstream stream,
                    double hostStartUs);
  /// Records the kernel times of pending timed calls (all of them, waiting,
  /// or without waiting those the GPU has finished) and recycles their
  /// events.
  Status resolvePending(OpStats &stats, bool wait);
  /// stats() (wait) and pollStats() (no wait).
  Status readStats(std::string_view op, CallStats &out, bool wait);
  /// Updates the P50/P99 of the window.
  void percentiles(OpStats &stats);

  std::string name_;
  std::string description_;
  DispatchTable table_;
  std::vector<kda2rt_bundle_image> images_;
  std::recursive_mutex mutex_;
  std::map<int, std::unique_ptr<Device>> devices_;
  /// Recently used routes (a few; replaced round-robin).
  std::vector<std::unique_ptr<Route>> routes_;
  size_t nextRoute_ = 0;
  std::map<std::pair<int, size_t>, std::unique_ptr<Module>> modules_;
  std::map<std::pair<int, const DispatchEntry *>, std::unique_ptr<Loaded>>
      loaded_;
  std::map<std::string, std::unique_ptr<OpStats>, std::less<>> stats_;
  bool timing_ = false, counters_ = false;
};

/// The process-wide registry of bundles (kda2rt_bundle_register etc.).
/// Names are unique; a bundle is owned by the registry until unregistered.
KDA2RT_API Status registerBundle(const kda2rt_bundle_desc *desc, Bundle *&out);
KDA2RT_API Status unregisterBundle(Bundle *bundle);
KDA2RT_API Status findBundle(std::string_view name, Bundle *&out);
KDA2RT_API std::vector<std::string> registeredBundles();

} // namespace kda2::runtime

#endif // KDA2_RUNTIME_BUNDLE_H
