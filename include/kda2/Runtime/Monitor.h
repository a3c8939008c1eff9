//===- Monitor.h - background monitor of bundle statistics ------*- C++ -*-===//
//
// Part of libkda2rt. A server starts one Monitor at init: a background
// thread that, every interval, reads the per-call statistics the bundles
// already collect (call counts, host time, CUDA-event kernel times and their
// P50/P99, the kernels' own counter slots), reports them as samples and
// raises an alert when a threshold is crossed. The data source is pluggable
// so the logic runs without a GPU (tests feed synthetic snapshots).
//
// Hardware performance counters (L2 miss rate, shared-memory bank conflicts
// as the hardware counts them, DRAM bytes, occupancy, stall reasons) need
// CUPTI, which libkda2rt does not link: unavailableCounters() lists them
// with the reason, and a threshold on one of them is rejected.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_RUNTIME_MONITOR_H
#define KDA2_RUNTIME_MONITOR_H

#include "kda2/Runtime/Bundle.h"

#include <condition_variable>
#include <functional>
#include <thread>

namespace kda2::runtime {

/// One op of one bundle at one tick.
struct KDA2RT_API OpSnapshot {
  std::string bundle, op;
  /// Cumulative statistics (CallStats: calls, host time, kernel times with
  /// P50/P99 over the last kGpuWindow timed calls).
  CallStats stats;
  /// The op's kernel counter slots summed by name (empty unless the
  /// monitor reads counters and the kernels declare some).
  std::vector<CounterValue> counters;
};

/// A threshold on a kernel counter slot (a `counter` line of the metadata).
struct KDA2RT_API CounterThreshold {
  std::string name;
  double max = 0;
};

/// Alert thresholds; 0 (or an empty list) turns one off.
struct KDA2RT_API MonitorThresholds {
  /// P99 of the kernel time over the window, in ms (needs timing on).
  double gpuP99Ms = 0;
  /// Mean host time per call since the previous tick, in microseconds.
  double hostUsMean = 0;
  /// Kernel counter slots (summed over the op's kernels) above `max`.
  std::vector<CounterThreshold> counters;
};

/// What the monitor reports: a sample of one op, or an alert.
struct KDA2RT_API MonitorEvent {
  enum Kind { Sample, Alert } kind = Sample;
  std::string bundle, op;
  /// Sample: "stats"; alert: "gpu_p99_ms", "host_us_mean" or
  /// "counter:<name>".
  std::string metric;
  double value = 0, threshold = 0;
  /// Calls since the previous tick, and in total.
  int64_t newCalls = 0, calls = 0;
  /// Mean host time per call since the previous tick; kernel-time
  /// percentiles and maximum (0 when not timed).
  double hostUsMean = 0, gpuMsP50 = 0, gpuMsP99 = 0, gpuMsMax = 0;
  /// One line of text (what the stderr log prints).
  std::string message;
};

/// A counter the monitor cannot provide, and why.
struct KDA2RT_API UnavailableCounter {
  const char *name;
  const char *reason;
};

/// Hardware counters libkda2rt cannot read (no CUPTI).
KDA2RT_API const std::vector<UnavailableCounter> &unavailableCounters();

struct KDA2RT_API MonitorOptions {
  /// Tick period, 1 .. 3600000 ms.
  int intervalMs = 1000;
  MonitorThresholds thresholds;
  /// Read the kernels' counter slots each tick (synchronous copies; on when
  /// a counter threshold is set).
  bool readCounters = false;
  /// Print every sample and alert to stderr.
  bool logToStderr = false;
};

class KDA2RT_API Monitor {
public:
  using Callback = std::function<void(const MonitorEvent &)>;
  /// Fills the snapshot of every op to watch.
  using Source =
      std::function<Status(bool readCounters, std::vector<OpSnapshot> &)>;

  Monitor() = default;
  ~Monitor();
  Monitor(const Monitor &) = delete;
  Monitor &operator=(const Monitor &) = delete;

  /// The source reading every registered bundle (Bundle::pollStats, which
  /// never waits for the GPU; readCounters when asked).
  static Source bundleSource();

  /// Checks `options` (interval range, thresholds >= 0, counter names
  /// non-empty and not hardware counters) without starting anything.
  static Status checkOptions(const MonitorOptions &options);

  /// Starts the thread (an error if already running or options are bad).
  Status start(const MonitorOptions &options, Callback callback,
               Source source = bundleSource());
  /// Stops and joins the thread (no-op when not running).
  void stop();
  bool running() const { return thread_.joinable(); }

  /// One tick, synchronously, on the calling thread (what the thread runs
  /// each interval); the monitor need not be started.
  Status tick(const MonitorOptions &options, const Callback &callback,
              const Source &source);
  /// Ticks run so far.
  int64_t ticks() const;

private:
  void run();

  MonitorOptions options_;
  Callback callback_;
  Source source_;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  int64_t ticks_ = 0;
  /// Calls and host time of each op at the previous tick, by "bundle/op".
  std::map<std::string, std::pair<int64_t, double>> previous_;
};

} // namespace kda2::runtime

#endif // KDA2_RUNTIME_MONITOR_H
