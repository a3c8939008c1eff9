//===- Monitor.cpp - background monitor of bundle statistics --------------===//
//
// Part of libkda2rt (no LLVM/MLIR). The Monitor class and its C ABI
// (kda2rt_monitor_*). See Monitor.h.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Monitor.h"
#include "kda2/Runtime/kda2rt.h"

#include "CApiSupport.h"

#include <chrono>
#include <cmath>
#include <cstdio>

using namespace kda2::runtime;

namespace {
Status invalidArg(std::string message) {
  return Status::error(ErrorCode::InvalidArgument, std::move(message));
}

std::string format(const char *fmt, double a, double b = 0, double c = 0,
                   double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), fmt, a, b, c, d);
  return buf;
}
} // namespace

const std::vector<UnavailableCounter> &kda2::runtime::unavailableCounters() {
  static const char *kNoCupti =
      "a hardware performance counter: reading it needs CUPTI (or Nsight "
      "Compute), which libkda2rt does not link; profile the kernel with "
      "ncu, or declare a kda2.counter in the kernel";
  static const std::vector<UnavailableCounter> list = {
      {"l2_hit_rate", kNoCupti},
      {"l2_miss_rate", kNoCupti},
      {"dram_bytes", kNoCupti},
      {"shared_bank_conflicts", kNoCupti},
      {"achieved_occupancy", kNoCupti},
      {"sm_efficiency", kNoCupti},
      {"warp_stall_reasons", kNoCupti},
      {"instructions_executed", kNoCupti},
  };
  return list;
}

Monitor::~Monitor() { stop(); }

Status Monitor::checkOptions(const MonitorOptions &options) {
  if (options.intervalMs < 1 || options.intervalMs > 3600000)
    return invalidArg("monitor: interval_ms must be in 1..3600000, got " +
                      std::to_string(options.intervalMs));
  const MonitorThresholds &t = options.thresholds;
  if (!(t.gpuP99Ms >= 0) || std::isinf(t.gpuP99Ms))
    return invalidArg("monitor: threshold gpu_p99_ms must be a finite number "
                      ">= 0 (0: off), got " +
                      format("%g", t.gpuP99Ms));
  if (!(t.hostUsMean >= 0) || std::isinf(t.hostUsMean))
    return invalidArg("monitor: threshold host_us_mean must be a finite "
                      "number >= 0 (0: off), got " +
                      format("%g", t.hostUsMean));
  for (size_t i = 0; i < t.counters.size(); ++i) {
    const CounterThreshold &c = t.counters[i];
    if (c.name.empty())
      return invalidArg("monitor: counter threshold " + std::to_string(i) +
                        " has no name");
    for (const UnavailableCounter &u : unavailableCounters())
      if (c.name == u.name)
        return invalidArg("monitor: counter '" + c.name +
                          "' is not available: " + u.reason);
    if (!(c.max >= 0) || std::isinf(c.max))
      return invalidArg("monitor: counter threshold '" + c.name +
                        "' must be a finite number >= 0, got " +
                        format("%g", c.max));
  }
  return Status::success();
}

Monitor::Source Monitor::bundleSource() {
  return [](bool readCounters, std::vector<OpSnapshot> &out) {
    out.clear();
    Status result;
    for (const std::string &name : registeredBundles()) {
      Bundle *bundle = nullptr;
      if (!findBundle(name, bundle).ok())
        continue; // unregistered meanwhile
      for (const std::string &op : bundle->ops()) {
        OpSnapshot snap;
        snap.bundle = name;
        snap.op = op;
        Status s = bundle->pollStats(op, snap.stats);
        if (s.ok() && readCounters && snap.stats.calls > 0)
          s = bundle->readCounters(op, snap.counters);
        if (!s.ok() && result.ok())
          result = s;
        out.push_back(std::move(snap));
      }
    }
    return result;
  };
}

Status Monitor::tick(const MonitorOptions &options, const Callback &callback,
                     const Source &source) {
  bool counters = options.readCounters || !options.thresholds.counters.empty();
  std::vector<OpSnapshot> snaps;
  Status status = source ? source(counters, snaps)
                         : invalidArg("monitor: no statistics source");
  auto emit = [&](MonitorEvent &e) {
    if (options.logToStderr)
      std::fprintf(stderr, "kda2rt monitor: %s\n", e.message.c_str());
    if (callback)
      callback(e);
  };
  for (const OpSnapshot &snap : snaps) {
    const CallStats &st = snap.stats;
    std::string key = snap.bundle + "/" + snap.op;
    std::pair<int64_t, double> before;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      before = previous_[key];
      previous_[key] = {st.calls, st.hostUsTotal};
    }
    int64_t newCalls = st.calls - before.first;
    if (newCalls < 0) { // statistics were reset
      newCalls = st.calls;
      before = {0, 0.0};
    }
    double hostMean =
        newCalls > 0 ? (st.hostUsTotal - before.second) / newCalls : 0;

    MonitorEvent sample;
    sample.bundle = snap.bundle;
    sample.op = snap.op;
    sample.metric = "stats";
    sample.newCalls = newCalls;
    sample.calls = st.calls;
    sample.value = hostMean;
    sample.hostUsMean = hostMean;
    sample.gpuMsP50 = st.gpuMsP50;
    sample.gpuMsP99 = st.gpuMsP99;
    sample.gpuMsMax = st.gpuMsMax;
    sample.message =
        key + ": " + std::to_string(newCalls) + " new call(s), " +
        std::to_string(st.calls) + " total; host " +
        format("%.2f us/call", hostMean) +
        (st.timedCalls ? format("; GPU p50 %.4f ms, p99 %.4f ms, max %.4f ms",
                                st.gpuMsP50, st.gpuMsP99, st.gpuMsMax)
                       : std::string("; GPU not timed"));
    for (const CounterValue &c : snap.counters)
      sample.message += "; " + c.name + " " + format("%g", c.asDouble());
    emit(sample);

    auto alert = [&](const std::string &metric, double value,
                     double threshold, const std::string &what) {
      MonitorEvent a = sample;
      a.kind = MonitorEvent::Alert;
      a.bundle = snap.bundle;
      a.op = snap.op;
      a.metric = metric;
      a.value = value;
      a.threshold = threshold;
      a.newCalls = newCalls;
      a.calls = st.calls;
      a.message = "ALERT " + key + ": " + what + " " + format("%g", value) +
                  " > threshold " + format("%g", threshold);
      emit(a);
    };
    const MonitorThresholds &t = options.thresholds;
    if (t.gpuP99Ms > 0 && st.timedCalls > 0 && st.gpuMsP99 > t.gpuP99Ms)
      alert("gpu_p99_ms", st.gpuMsP99, t.gpuP99Ms, "kernel time P99 (ms)");
    if (t.hostUsMean > 0 && newCalls > 0 && hostMean > t.hostUsMean)
      alert("host_us_mean", hostMean, t.hostUsMean,
            "host time per call (us)");
    for (const CounterThreshold &c : t.counters)
      for (const CounterValue &v : snap.counters)
        if (v.name == c.name && v.asDouble() > c.max)
          alert("counter:" + c.name, v.asDouble(), c.max,
                "counter '" + c.name + "'");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++ticks_;
  return status;
}

int64_t Monitor::ticks() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ticks_;
}

Status Monitor::start(const MonitorOptions &options, Callback callback,
                      Source source) {
  KDA2RT_TRY(checkOptions(options));
  if (running())
    return invalidArg("monitor: already running (stop it first)");
  if (!source)
    return invalidArg("monitor: no statistics source");
  options_ = options;
  callback_ = std::move(callback);
  source_ = std::move(source);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = false;
  }
  thread_ = std::thread([this] { run(); });
  return Status::success();
}

void Monitor::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    auto period = std::chrono::milliseconds(options_.intervalMs);
    if (wake_.wait_for(lock, period, [this] { return stopping_; }))
      break;
    lock.unlock();
    Status s = tick(options_, callback_, source_);
    if (!s.ok() && options_.logToStderr)
      std::fprintf(stderr, "kda2rt monitor: %s\n", s.message().c_str());
    lock.lock();
  }
}

void Monitor::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

//===----------------------------------------------------------------------===//
// C ABI
//===----------------------------------------------------------------------===//

namespace {
/// The process-wide monitor of the C ABI (never destroyed: a server may
/// stop it from a static destructor).
struct CMonitor {
  std::mutex mutex;
  Monitor monitor;
};
CMonitor &cMonitor() {
  static CMonitor *m = new CMonitor;
  return *m;
}
} // namespace

extern "C" {

int kda2rt_monitor_start(int interval_ms,
                         const kda2rt_monitor_thresholds *thresholds,
                         kda2rt_monitor_callback callback, void *user,
                         int flags, char *err, size_t errlen) noexcept {
  using capi::finish;
  MonitorOptions options;
  options.intervalMs = interval_ms;
  options.logToStderr = (flags & KDA2RT_MONITOR_LOG_STDERR) != 0;
  options.readCounters = (flags & KDA2RT_MONITOR_READ_COUNTERS) != 0;
  if (flags & ~(KDA2RT_MONITOR_LOG_STDERR | KDA2RT_MONITOR_READ_COUNTERS))
    return finish(invalidArg("kda2rt_monitor_start: unknown flags " +
                             std::to_string(flags)),
                  err, errlen);
  if (thresholds) {
    options.thresholds.gpuP99Ms = thresholds->gpu_p99_ms;
    options.thresholds.hostUsMean = thresholds->host_us_mean;
    if (thresholds->num_counters < 0 ||
        (thresholds->num_counters > 0 && !thresholds->counters))
      return finish(invalidArg("kda2rt_monitor_start: thresholds->counters "
                               "is NULL or num_counters (" +
                               std::to_string(thresholds->num_counters) +
                               ") is negative"),
                    err, errlen);
    for (int i = 0; i < thresholds->num_counters; ++i) {
      const kda2rt_monitor_counter_threshold &c = thresholds->counters[i];
      options.thresholds.counters.push_back(
          {c.name ? c.name : "", c.max});
    }
  }
  if (!callback && !options.logToStderr)
    return finish(invalidArg("kda2rt_monitor_start: callback is NULL and "
                             "KDA2RT_MONITOR_LOG_STDERR is not set (the "
                             "monitor would report nothing)"),
                  err, errlen);
  Monitor::Callback cb;
  if (callback)
    cb = [callback, user](const MonitorEvent &e) {
      kda2rt_monitor_event c = {};
      c.kind = e.kind == MonitorEvent::Alert ? KDA2RT_MONITOR_ALERT
                                             : KDA2RT_MONITOR_SAMPLE;
      c.bundle = e.bundle.c_str();
      c.op = e.op.c_str();
      c.metric = e.metric.c_str();
      c.value = e.value;
      c.threshold = e.threshold;
      c.new_calls = e.newCalls;
      c.calls = e.calls;
      c.host_us_mean = e.hostUsMean;
      c.gpu_ms_p50 = e.gpuMsP50;
      c.gpu_ms_p99 = e.gpuMsP99;
      c.gpu_ms_max = e.gpuMsMax;
      c.message = e.message.c_str();
      callback(&c, user);
    };
  CMonitor &m = cMonitor();
  std::lock_guard<std::mutex> lock(m.mutex);
  Status s = m.monitor.start(options, std::move(cb));
  if (!s.ok())
    s.prepend("kda2rt_monitor_start");
  return finish(s, err, errlen);
}

int kda2rt_monitor_stop(char *err, size_t errlen) noexcept {
  CMonitor &m = cMonitor();
  std::lock_guard<std::mutex> lock(m.mutex);
  m.monitor.stop();
  return capi::finish(Status::success(), err, errlen);
}

int kda2rt_monitor_running(void) noexcept {
  CMonitor &m = cMonitor();
  std::lock_guard<std::mutex> lock(m.mutex);
  return m.monitor.running() ? 1 : 0;
}

int kda2rt_monitor_unavailable_counters(const char **names,
                                        const char **reasons,
                                        int capacity) noexcept {
  const std::vector<UnavailableCounter> &list = unavailableCounters();
  for (size_t i = 0; i < list.size() && static_cast<int>(i) < capacity; ++i) {
    if (names)
      names[i] = list[i].name;
    if (reasons)
      reasons[i] = list[i].reason;
  }
  return static_cast<int>(list.size());
}

} // extern "C"
