//===- FakeDriverTest.cpp - the launch path on the fake driver --*- C++ -*-===//
//
// libkda2rt on libkda2fakecuda.so (FakeCuda.h), no GPU: a bundle registered
// in memory dispatches decode calls through its cached route and prepared
// launch (variant t = 1 chosen), pools its timing events, counts host time,
// and the decode fast path allocates nothing (global operator new is
// counted in this binary); the state pool's decode steps; the monitor on
// live bundle statistics; errors of the prepared launch name the argument.
//
//===----------------------------------------------------------------------===//

#include "FakeCuda.h"

#include "kda2/Runtime/Bundle.h"
#include "kda2/Runtime/Monitor.h"
#include "kda2/Runtime/kda2rt.h"

#include "gtest/gtest.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <new>

#ifndef KDA2_FAKE_CUDA
#error "KDA2_FAKE_CUDA (the fake driver library) must be defined"
#endif

//===----------------------------------------------------------------------===//
// Allocation counting (replaces the global operator new of the process,
// libkda2rt's included)
//===----------------------------------------------------------------------===//

static std::atomic<int64_t> gAllocations{0};

void *operator new(size_t bytes) {
  ++gAllocations;
  if (void *p = std::malloc(bytes ? bytes : 1))
    return p;
  std::abort();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }

using namespace kda2::runtime;

namespace {

// Before anything loads the driver.
const int kUseFakeDriver = setenv("KDA2RT_LIBCUDA", KDA2_FAKE_CUDA, 1);

int64_t fakeLaunches() {
  void *lib = dlopen(KDA2_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
  auto fn = lib ? reinterpret_cast<kda2_fake_cuda_launches_fn>(
                      dlsym(lib, "kda2_fake_cuda_launches"))
                : nullptr;
  int64_t n = fn ? fn() : -1;
  if (lib)
    dlclose(lib);
  return n;
}

std::string fakeLastKernel() {
  void *lib = dlopen(KDA2_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
  auto fn = lib ? reinterpret_cast<kda2_fake_cuda_last_kernel_fn>(
                      dlsym(lib, "kda2_fake_cuda_last_kernel"))
                : nullptr;
  std::string s = fn ? fn() : "";
  if (lib)
    dlclose(lib);
  return s;
}

/// A bundle "fake_dec" with op "decode": a generic K = V = 128 kernel with
/// its t = 1 copy, registered from memory (no kda2-link).
class FakeBundle : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(kUseFakeDriver, 0);
    image = kda2::fake::fakeCubin(
        {{"dec", kda2::fake::decodeMetadata("dec", 128, true)},
         {"dec__t_1", kda2::fake::decodeMetadata("dec__t_1", 128)}});
    imageDesc = {"fake.cubin", "sm_90a", image.data(), image.size()};
    entry = {"decode", "t", "sm_90a", "dec", 0, 0, /*generic=*/1, 0};
    desc = {KDA2RT_BUNDLE_ABI_VERSION, "fake_dec", 1, &imageDesc, 1, &entry};
    char err[512];
    ASSERT_EQ(kda2rt_bundle_register(&desc, &bundle, err, sizeof(err)),
              KDA2RT_OK)
        << err;
    // 16-byte aligned fake device buffers (host memory on this driver).
    for (void *&p : buffers)
      ASSERT_EQ(kda2rt_mem_alloc(0, 1 << 20, &p, err, sizeof(err)),
                KDA2RT_OK)
          << err;
    args = {};
    args.q = buffers[0];
    args.k = buffers[1];
    args.v = buffers[2];
    args.g = buffers[3];
    args.beta = buffers[4];
    args.h0 = buffers[5];
    args.o = buffers[6];
    args.ht = buffers[7];
    args.n = 2;
    args.t = 1;
    args.h = 4;
    args.k_dim = args.v_dim = 128;
    args.dtype = "bf16";
  }
  void TearDown() override {
    for (void *p : buffers)
      kda2rt_mem_free(0, p, nullptr, 0);
    kda2rt_bundle_unregister(bundle, nullptr, 0);
  }

  std::string image;
  kda2rt_bundle_image imageDesc;
  kda2rt_bundle_entry entry;
  kda2rt_bundle_desc desc;
  kda2rt_bundle bundle = nullptr;
  void *buffers[8] = {};
  kda2rt_kda_decode_args args;
};

TEST_F(FakeBundle, DecodeDispatchesToTheT1Copy) {
  char err[512];
  int64_t before = fakeLaunches();
  ASSERT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &args, nullptr, err,
                                     sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), before + 1);
  EXPECT_EQ(fakeLastKernel(), "dec__t_1");
  args.t = 3;
  ASSERT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &args, nullptr, err,
                                     sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLastKernel(), "dec");
  kda2rt_call_stats stats;
  ASSERT_EQ(kda2rt_bundle_stats(bundle, "decode", &stats, err, sizeof(err)),
            KDA2RT_OK);
  EXPECT_EQ(stats.calls, 2);
  EXPECT_EQ(stats.timed_calls, 0);
  EXPECT_GT(stats.host_us_total, 0);
}

TEST_F(FakeBundle, DecodeFastPathDoesNotAllocate) {
  char err[512];
  // The first call selects, loads and prepares; later ones are the hot path.
  ASSERT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &args, nullptr, err,
                                     sizeof(err)),
            KDA2RT_OK)
      << err;
  int64_t before = gAllocations.load();
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &args, nullptr,
                                       err, sizeof(err)),
              KDA2RT_OK)
        << err;
  EXPECT_EQ(gAllocations.load() - before, 0)
      << "the decode fast path allocated";
}

TEST_F(FakeBundle, TimingPoolsEventsAndGivesPercentiles) {
  char err[512];
  ASSERT_EQ(kda2rt_bundle_set_profiling(bundle, 1, 0, err, sizeof(err)),
            KDA2RT_OK);
  for (int i = 0; i < 10; ++i)
    ASSERT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &args, nullptr,
                                       err, sizeof(err)),
              KDA2RT_OK)
        << err;
  Bundle *b = nullptr;
  ASSERT_TRUE(findBundle("fake_dec", b).ok());
  CallStats st;
  ASSERT_TRUE(b->pollStats("decode", st).ok());
  EXPECT_EQ(st.calls, 10);
  EXPECT_EQ(st.timedCalls, 10);
  EXPECT_GE(st.gpuMsP99, st.gpuMsP50);
  EXPECT_GE(st.gpuMsMax, st.gpuMsP99);
  // Resolved events are reused: timed calls allocate nothing either.
  int64_t before = gAllocations.load();
  for (int i = 0; i < 2; ++i)
    ASSERT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &args, nullptr,
                                       err, sizeof(err)),
              KDA2RT_OK);
  EXPECT_EQ(gAllocations.load() - before, 0);
  ASSERT_TRUE(b->stats("decode", st).ok());
  EXPECT_EQ(st.timedCalls, 12);
}

TEST_F(FakeBundle, DecodeStepThroughThePool) {
  char err[512];
  kda2rt_state_pool pool = nullptr;
  ASSERT_EQ(kda2rt_state_pool_create(0, 4, 128, 128, "f32", 64 << 20, 0,
                                     &pool, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  int64_t ids[2] = {7, 8};
  void *h0 = nullptr, *ht = nullptr;
  ASSERT_EQ(kda2rt_state_create(pool, ids, 2, &h0, &ht, err, sizeof(err)),
            KDA2RT_OK);
  ASSERT_EQ(kda2rt_bundle_decode_step(bundle, 0, "decode", pool, ids, 2,
                                      &args, nullptr, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  int64_t before = gAllocations.load();
  ASSERT_EQ(kda2rt_bundle_decode_step(bundle, 0, "decode", pool, ids, 2,
                                      &args, nullptr, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(gAllocations.load() - before, 0);
  // Two steps: the buffers swapped twice.
  void *r = nullptr;
  ASSERT_EQ(kda2rt_state_lookup(pool, ids, 2, &r, nullptr, err, sizeof(err)),
            KDA2RT_OK);
  EXPECT_EQ(r, h0);
  EXPECT_EQ(kda2rt_state_pool_destroy(pool, err, sizeof(err)), KDA2RT_OK);
}

TEST_F(FakeBundle, PreparedLaunchErrorsNameTheArgument) {
  char err[512];
  ASSERT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &args, nullptr, err,
                                     sizeof(err)),
            KDA2RT_OK);
  kda2rt_kda_decode_args bad = args;
  bad.q = nullptr;
  EXPECT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &bad, nullptr, err,
                                     sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err).find("argument 'q' is NULL"), std::string::npos)
      << err;
  bad = args;
  bad.ht = const_cast<void *>(bad.h0);
  EXPECT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &bad, nullptr, err,
                                     sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err).find("h0 and ht alias"), std::string::npos);
  bad = args;
  bad.k_dim = bad.v_dim = 64;
  EXPECT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &bad, nullptr, err,
                                     sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err).find("was compiled for K=128"),
            std::string::npos)
      << err;
  bad = args;
  bad.dtype = "f16";
  EXPECT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &bad, nullptr, err,
                                     sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err).find("argument 'q' is bf16"), std::string::npos)
      << err;
  bad = args;
  bad.n = 70000; // grid.y = n * h over 65535
  EXPECT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &bad, nullptr, err,
                                     sizeof(err)),
            KDA2RT_ERROR_LAUNCH_CONFIG);
  EXPECT_NE(std::string(err).find("exceeds the CUDA limit"),
            std::string::npos)
      << err;
}

TEST_F(FakeBundle, MonitorAlertsOnLiveStatistics) {
  char err[512];
  ASSERT_EQ(kda2rt_bundle_kda_decode(bundle, 0, "decode", &args, nullptr, err,
                                     sizeof(err)),
            KDA2RT_OK);
  Monitor monitor;
  MonitorOptions options;
  options.thresholds.hostUsMean = 1e-9; // any call crosses it
  std::vector<MonitorEvent> events;
  ASSERT_TRUE(monitor
                  .tick(options,
                        [&](const MonitorEvent &e) { events.push_back(e); },
                        Monitor::bundleSource())
                  .ok());
  bool sample = false, alert = false;
  for (const MonitorEvent &e : events) {
    if (e.bundle != "fake_dec")
      continue;
    sample |= e.kind == MonitorEvent::Sample && e.newCalls == 1;
    alert |= e.kind == MonitorEvent::Alert && e.metric == "host_us_mean";
  }
  EXPECT_TRUE(sample);
  EXPECT_TRUE(alert);
}

TEST(FakeKernel, CApiDecodeUsesThePreparedLaunch) {
  std::string image = kda2::fake::fakeCubin(
      {{"dec", kda2::fake::decodeMetadata("dec", 64)}});
  char err[512];
  kda2rt_module module = nullptr;
  ASSERT_EQ(kda2rt_module_load_data(0, image.data(), image.size(), &module,
                                    err, sizeof(err)),
            KDA2RT_OK)
      << err;
  kda2rt_kernel kernel = nullptr;
  ASSERT_EQ(kda2rt_kernel_get(module, "dec", &kernel, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  void *buf = nullptr;
  ASSERT_EQ(kda2rt_mem_alloc(0, 1 << 16, &buf, err, sizeof(err)), KDA2RT_OK);
  char *b = static_cast<char *>(buf);
  kda2rt_kda_decode_args a = {};
  a.q = b;
  a.k = b + 1024;
  a.v = b + 2048;
  a.g = b + 4096;
  a.beta = b + 8192;
  a.h0 = b + 16384;
  a.o = b + 32768;
  a.ht = b + 49152;
  a.n = a.t = a.h = 1;
  a.k_dim = a.v_dim = 64;
  int64_t before = fakeLaunches();
  ASSERT_EQ(kda2rt_kda_decode(kernel, &a, nullptr, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), before + 1);
  a.beta = b + 8193; // misaligned
  EXPECT_EQ(kda2rt_kda_decode(kernel, &a, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err).find("argument 'beta' is not 16-byte aligned"),
            std::string::npos)
      << err;
  // The capability query answers the same questions without launching.
  a.beta = b + 8192;
  char reason[512] = "stale";
  before = fakeLaunches();
  EXPECT_EQ(kda2rt_kda_decode_query(kernel, &a, reason, sizeof(reason)), 1);
  EXPECT_STREQ(reason, "");
  a.k_dim = a.v_dim = 128; // the kernel was built for 64
  EXPECT_EQ(kda2rt_kda_decode_query(kernel, &a, reason, sizeof(reason)), 0);
  EXPECT_NE(std::string(reason).find("was compiled for K=64, V=64, got "
                                     "K=128, V=128"),
            std::string::npos)
      << reason;
  a.k_dim = a.v_dim = 64;
  a.ht = b + 16384; // = h0
  EXPECT_EQ(kda2rt_kda_decode_query(kernel, &a, reason, sizeof(reason)), 0);
  EXPECT_NE(std::string(reason).find("h0 and ht alias"), std::string::npos)
      << reason;
  a.ht = b + 49152;
  a.dtype = "f32";
  EXPECT_EQ(kda2rt_kda_decode_query(kernel, &a, reason, sizeof(reason)), 0);
  EXPECT_NE(std::string(reason).find("dtype 'f32' is not a KDA input type"),
            std::string::npos)
      << reason;
  EXPECT_EQ(kda2rt_kda_decode_query(nullptr, &a, reason, sizeof(reason)), -1);
  EXPECT_NE(std::string(reason).find("kernel or args is NULL"),
            std::string::npos);
  EXPECT_EQ(kda2rt_kda_decode_query(kernel, nullptr, nullptr, 0), -1);
  EXPECT_EQ(fakeLaunches(), before); // nothing ran
  kda2rt_mem_free(0, buf, nullptr, 0);
  EXPECT_EQ(kda2rt_module_unload(module, err, sizeof(err)), KDA2RT_OK);
}

} // namespace
