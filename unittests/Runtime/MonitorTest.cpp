//===- MonitorTest.cpp - the statistics monitor, without a GPU --*- C++ -*-===//
//
// Monitor on synthetic snapshots: samples and threshold alerts (kernel-time
// P99, host time per call since the last tick, kernel counters), the
// background thread's start/stop, every rejected option with its message,
// the C ABI's argument checks and the list of unavailable hardware counters.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Monitor.h"
#include "kda2/Runtime/kda2rt.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

using namespace kda2::runtime;

namespace {

/// A source returning one op whose numbers the test sets.
struct Synthetic {
  OpSnapshot snap;
  Monitor::Source source() {
    return [this](bool, std::vector<OpSnapshot> &out) {
      out = {snap};
      return Status::success();
    };
  }
};

OpSnapshot decodeSnapshot(int64_t calls, double hostUsTotal, double p99) {
  OpSnapshot s;
  s.bundle = "b";
  s.op = "decode";
  s.stats.calls = calls;
  s.stats.timedCalls = calls;
  s.stats.hostUsTotal = hostUsTotal;
  s.stats.gpuMsP50 = p99 / 2;
  s.stats.gpuMsP99 = p99;
  s.stats.gpuMsMax = p99;
  return s;
}

std::vector<MonitorEvent> alertsOf(const std::vector<MonitorEvent> &events) {
  std::vector<MonitorEvent> out;
  for (const MonitorEvent &e : events)
    if (e.kind == MonitorEvent::Alert)
      out.push_back(e);
  return out;
}

TEST(Monitor, SampleAndP99Alert) {
  Synthetic data;
  data.snap = decodeSnapshot(10, 50, 0.2);
  MonitorOptions options;
  options.thresholds.gpuP99Ms = 0.1;
  Monitor monitor;
  std::vector<MonitorEvent> events;
  auto collect = [&](const MonitorEvent &e) { events.push_back(e); };
  ASSERT_TRUE(monitor.tick(options, collect, data.source()).ok());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, MonitorEvent::Sample);
  EXPECT_EQ(events[0].newCalls, 10);
  EXPECT_DOUBLE_EQ(events[0].hostUsMean, 5.0);
  EXPECT_NE(events[0].message.find("b/decode: 10 new call(s)"),
            std::string::npos)
      << events[0].message;
  std::vector<MonitorEvent> alerts = alertsOf(events);
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].metric, "gpu_p99_ms");
  EXPECT_DOUBLE_EQ(alerts[0].value, 0.2);
  EXPECT_DOUBLE_EQ(alerts[0].threshold, 0.1);
  EXPECT_NE(alerts[0].message.find("ALERT b/decode: kernel time P99"),
            std::string::npos)
      << alerts[0].message;

  // Below the threshold: no alert.
  events.clear();
  data.snap = decodeSnapshot(20, 100, 0.05);
  ASSERT_TRUE(monitor.tick(options, collect, data.source()).ok());
  EXPECT_TRUE(alertsOf(events).empty());
  EXPECT_EQ(events[0].newCalls, 10); // since the previous tick
  EXPECT_EQ(monitor.ticks(), 2);
}

TEST(Monitor, HostTimeIsPerCallSinceTheLastTick) {
  Synthetic data;
  MonitorOptions options;
  options.thresholds.hostUsMean = 10;
  Monitor monitor;
  std::vector<MonitorEvent> events;
  auto collect = [&](const MonitorEvent &e) { events.push_back(e); };
  data.snap = decodeSnapshot(100, 500, 0); // 5 us/call
  ASSERT_TRUE(monitor.tick(options, collect, data.source()).ok());
  EXPECT_TRUE(alertsOf(events).empty());
  data.snap = decodeSnapshot(110, 700, 0); // 10 calls, 200 us: 20 us/call
  ASSERT_TRUE(monitor.tick(options, collect, data.source()).ok());
  std::vector<MonitorEvent> alerts = alertsOf(events);
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].metric, "host_us_mean");
  EXPECT_DOUBLE_EQ(alerts[0].value, 20.0);
}

TEST(Monitor, CounterThreshold) {
  Synthetic data;
  data.snap = decodeSnapshot(1, 1, 0);
  CounterValue c;
  c.name = "bank_conflicts";
  c.raw = 42;
  data.snap.counters = {c};
  MonitorOptions options;
  options.thresholds.counters = {{"bank_conflicts", 10}};
  Monitor monitor;
  std::vector<MonitorEvent> events;
  bool askedForCounters = false;
  auto source = [&](bool counters, std::vector<OpSnapshot> &out) {
    askedForCounters = counters;
    out = {data.snap};
    return Status::success();
  };
  ASSERT_TRUE(monitor
                  .tick(options,
                        [&](const MonitorEvent &e) { events.push_back(e); },
                        source)
                  .ok());
  EXPECT_TRUE(askedForCounters);
  std::vector<MonitorEvent> alerts = alertsOf(events);
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].metric, "counter:bank_conflicts");
  EXPECT_DOUBLE_EQ(alerts[0].value, 42);
}

TEST(Monitor, ThreadStartsTicksAndStops) {
  Synthetic data;
  data.snap = decodeSnapshot(1, 1, 1);
  MonitorOptions options;
  options.intervalMs = 2;
  options.thresholds.gpuP99Ms = 0.5;
  std::atomic<int> alerts{0};
  Monitor monitor;
  ASSERT_TRUE(monitor
                  .start(options,
                         [&](const MonitorEvent &e) {
                           if (e.kind == MonitorEvent::Alert)
                             ++alerts;
                         },
                         data.source())
                  .ok());
  EXPECT_TRUE(monitor.running());
  Status again = monitor.start(options, nullptr, data.source());
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.message().find("already running"), std::string::npos);
  for (int i = 0; i < 2000 && alerts.load() < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  monitor.stop();
  EXPECT_FALSE(monitor.running());
  EXPECT_GE(alerts.load(), 2);
  int64_t ticks = monitor.ticks();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(monitor.ticks(), ticks); // stopped means stopped
  monitor.stop();                    // a second stop is a no-op
}

TEST(Monitor, BadOptionsAreRejected) {
  auto rejects = [](MonitorOptions o, const char *text) {
    Status s = Monitor::checkOptions(o);
    EXPECT_FALSE(s.ok()) << text;
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(s.message().find(text), std::string::npos) << s.message();
  };
  MonitorOptions o;
  o.intervalMs = 0;
  rejects(o, "interval_ms must be in 1..3600000, got 0");
  o = MonitorOptions();
  o.thresholds.gpuP99Ms = -1;
  rejects(o, "threshold gpu_p99_ms must be a finite number >= 0");
  o = MonitorOptions();
  o.thresholds.hostUsMean = std::nan("");
  rejects(o, "threshold host_us_mean must be a finite number >= 0");
  o = MonitorOptions();
  o.thresholds.counters = {{"", 1}};
  rejects(o, "counter threshold 0 has no name");
  o = MonitorOptions();
  o.thresholds.counters = {{"l2_miss_rate", 0.5}};
  rejects(o, "counter 'l2_miss_rate' is not available: a hardware "
             "performance counter: reading it needs CUPTI");
  o = MonitorOptions();
  o.thresholds.counters = {{"tiles", -2}};
  rejects(o, "counter threshold 'tiles' must be a finite number >= 0");
  Monitor m;
  Status s = m.start(MonitorOptions(), nullptr, nullptr);
  EXPECT_NE(s.message().find("no statistics source"), std::string::npos);
}

void ignoreEvent(const kda2rt_monitor_event *, void *) {}

TEST(MonitorCApi, ArgumentChecks) {
  char err[512];
  EXPECT_EQ(kda2rt_monitor_start(0, nullptr, ignoreEvent, nullptr, 0, err,
                                 sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(err, "interval_ms must be in 1..3600000"), nullptr);
  EXPECT_EQ(kda2rt_monitor_start(100, nullptr, nullptr, nullptr, 0, err,
                                 sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(err, "callback is NULL"), nullptr) << err;
  EXPECT_EQ(kda2rt_monitor_start(100, nullptr, ignoreEvent, nullptr, 64, err,
                                 sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(err, "unknown flags 64"), nullptr) << err;
  kda2rt_monitor_thresholds t = {};
  t.num_counters = 1;
  EXPECT_EQ(kda2rt_monitor_start(100, &t, ignoreEvent, nullptr, 0, err,
                                 sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(err, "thresholds->counters is NULL"), nullptr) << err;
  kda2rt_monitor_counter_threshold hw = {"shared_bank_conflicts", 0};
  t.counters = &hw;
  EXPECT_EQ(kda2rt_monitor_start(100, &t, ignoreEvent, nullptr, 0, err,
                                 sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(err, "'shared_bank_conflicts' is not available"),
            nullptr)
      << err;
  EXPECT_EQ(kda2rt_monitor_running(), 0);

  // Start (no bundle registered: samples of nothing), stop, stop again.
  ASSERT_EQ(kda2rt_monitor_start(5, nullptr, ignoreEvent, nullptr, 0, err,
                                 sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(kda2rt_monitor_running(), 1);
  EXPECT_EQ(kda2rt_monitor_start(5, nullptr, ignoreEvent, nullptr, 0, err,
                                 sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(err, "already running"), nullptr) << err;
  EXPECT_EQ(kda2rt_monitor_stop(err, sizeof(err)), KDA2RT_OK);
  EXPECT_EQ(kda2rt_monitor_running(), 0);
  EXPECT_EQ(kda2rt_monitor_stop(err, sizeof(err)), KDA2RT_OK);
}

TEST(MonitorCApi, UnavailableCountersSayWhy) {
  int n = kda2rt_monitor_unavailable_counters(nullptr, nullptr, 0);
  ASSERT_GT(n, 0);
  std::vector<const char *> names(n), reasons(n);
  EXPECT_EQ(kda2rt_monitor_unavailable_counters(names.data(), reasons.data(),
                                                n),
            n);
  bool l2 = false;
  for (int i = 0; i < n; ++i) {
    l2 |= std::strcmp(names[i], "l2_miss_rate") == 0;
    EXPECT_NE(std::strstr(reasons[i], "CUPTI"), nullptr);
  }
  EXPECT_TRUE(l2);
}

} // namespace
