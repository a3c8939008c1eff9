//===- FakeDriverTest.cpp - the launch path on the fake driver --*- C++ -*-===//
//
// libkda2rt on libkda2fakecuda.so (FakeCuda.h), no GPU: a bundle registered
// in memory dispatches decode calls through its cached route and prepared
// launch (variant t = 1 chosen), pools its timing events, counts host time,
// and the decode fast path allocates nothing (global operator new is
// counted in this binary); the state pool's decode steps and their layout
// checks; the monitor on live bundle statistics; errors of the prepared
// launch name the argument; the state-layout checks of kda2rt_kda_decode;
// kda2rt_kda_decode_pool's, kda2rt_kda_decode_spec's and
// kda2rt_kda_decode_conv's launches (pointers,
// sizes and scale as the kernel receives them, no allocation after the
// first call) and their queries agreeing with the calls.
//
//===----------------------------------------------------------------------===//

#include "FakeCuda.h"
#include "Replaced.h"

#include "kda2/Runtime/Bundle.h"
#include "kda2/Runtime/KDA.h"
#include "kda2/Runtime/Monitor.h"
#include "kda2/Runtime/kda2rt.h"

#include "gtest/gtest.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <new>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

/// Calls the fake driver's hook `name` (FakeCuda.h, of type Fn) with
/// `args`; `missing` when the library or the hook is not loaded.
template <typename Fn, typename R, typename... Args>
R callFakeHook(const char *name, R missing, Args... args) {
  void *lib = dlopen(KDA2_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
  auto fn = lib ? reinterpret_cast<Fn>(dlsym(lib, name)) : nullptr;
  R result = fn ? fn(args...) : missing;
  if (lib)
    dlclose(lib);
  return result;
}

int64_t fakeLaunches() {
  return callFakeHook<kda2_fake_cuda_launches_fn>("kda2_fake_cuda_launches",
                                                  int64_t(-1));
}

/// The grid and parameter slots of the last launch (FakeCuda.h).
int fakeLastLaunch(unsigned grid[3], std::vector<uint64_t> &params) {
  void *lib = dlopen(KDA2_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
  auto fn = lib ? reinterpret_cast<kda2_fake_cuda_last_launch_fn>(
                      dlsym(lib, "kda2_fake_cuda_last_launch"))
                : nullptr;
  params.assign(64, 0);
  int n = fn ? fn(grid, params.data(), 64) : -1;
  params.resize(n > 0 ? n : 0);
  if (lib)
    dlclose(lib);
  return n;
}

int64_t fakeProgrammaticLaunches() {
  return callFakeHook<kda2_fake_cuda_programmatic_launches_fn>(
      "kda2_fake_cuda_programmatic_launches", int64_t(-1));
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
    args.state_layout = "kv";
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
  a.state_layout = "kv";
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

TEST_F(FakeBundle, DecodeStepChecksThePoolLayout) {
  char err[512];
  auto contains = [&](const char *text) {
    return std::string(err).find(text) != std::string::npos;
  };
  int64_t ids[2] = {7, 8};
  // A V-major pool (KDA2RT_STATE_V_FIRST) and a call that says K-major.
  kda2rt_state_pool vk = nullptr;
  ASSERT_EQ(kda2rt_state_pool_create(0, 4, 128, 128, "f32", 64 << 20,
                                     KDA2RT_STATE_V_FIRST, &vk, err,
                                     sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(kda2rt_state_create(vk, ids, 2, nullptr, nullptr, err,
                                sizeof(err)),
            KDA2RT_OK);
  int64_t before = fakeLaunches();
  EXPECT_EQ(kda2rt_bundle_decode_step(bundle, 0, "decode", vk, ids, 2, &args,
                                      nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains("decode step: the state pool stores its states V-major "
                       "(vk) (created with KDA2RT_STATE_V_FIRST), the call "
                       "says K-major (kv)"))
      << err;
  // The call agrees with the pool, not with the (K-major) kernel.
  args.state_layout = "vk";
  EXPECT_EQ(kda2rt_bundle_decode_step(bundle, 0, "decode", vk, ids, 2, &args,
                                      nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains("kernel 'dec' stores its state K-major (kv), the call "
                       "says V-major (vk)"))
      << err;
  EXPECT_EQ(fakeLaunches(), before);
  EXPECT_EQ(kda2rt_state_pool_destroy(vk, err, sizeof(err)), KDA2RT_OK);

  // A K-major pool and a call that says V-major.
  kda2rt_state_pool kv = nullptr;
  ASSERT_EQ(kda2rt_state_pool_create(0, 4, 128, 128, "f32", 64 << 20, 0, &kv,
                                     err, sizeof(err)),
            KDA2RT_OK);
  ASSERT_EQ(kda2rt_state_create(kv, ids, 2, nullptr, nullptr, err,
                                sizeof(err)),
            KDA2RT_OK);
  EXPECT_EQ(kda2rt_bundle_decode_step(bundle, 0, "decode", kv, ids, 2, &args,
                                      nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains("decode step: the state pool stores its states K-major "
                       "(kv) (created without KDA2RT_STATE_V_FIRST), the call "
                       "says V-major (vk)"))
      << err;
  args.state_layout = nullptr;
  EXPECT_EQ(kda2rt_bundle_decode_step(bundle, 0, "decode", kv, ids, 2, &args,
                                      nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains("argument 'state_layout' is NULL")) << err;
  EXPECT_EQ(fakeLaunches(), before);
  args.state_layout = "kv";
  EXPECT_EQ(kda2rt_bundle_decode_step(bundle, 0, "decode", kv, ids, 2, &args,
                                      nullptr, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), before + 1);
  EXPECT_EQ(kda2rt_state_pool_destroy(kv, err, sizeof(err)), KDA2RT_OK);
}

/// A module of one fake kernel (its own module per test).
struct FakeModule {
  kda2rt_module module = nullptr;
  kda2rt_kernel kernel = nullptr;
  std::string image;

  FakeModule(const std::string &name, const std::string &metadata)
      : image(kda2::fake::fakeCubin({{name, metadata}})) {
    char err[512];
    EXPECT_EQ(kda2rt_module_load_data(0, image.data(), image.size(), &module,
                                      err, sizeof(err)),
              KDA2RT_OK)
        << err;
    EXPECT_EQ(kda2rt_kernel_get(module, name.c_str(), &kernel, err,
                                sizeof(err)),
              KDA2RT_OK)
        << err;
  }
  ~FakeModule() { kda2rt_module_unload(module, nullptr, 0); }
};

TEST(FakeKernel, PdlKernelLaunchesAsProgrammaticDependent) {
  // A kernel whose metadata says `pdl 1` (it waits for the ready flags of
  // the kernel before it, templates built with RDY=1) goes through
  // cuLaunchKernelEx with programmatic stream serialization; others are
  // ordinary launches.
  const std::string head = "kda2-kernel-v1\nname w\nblock 64 1 1\n"
                           "grid.y n\narg ptr x f32 in 2 n 4\narg dim n\n";
  FakeModule pdl("w", head + "pdl 1\nend\n");
  FakeModule plain("w", head + "end\n");
  std::vector<float> x(8, 1.0f);
  const char *ptrNames[] = {"x"};
  void *ptrVals[] = {x.data()};
  const char *dimNames[] = {"n"};
  const int64_t dimVals[] = {2};
  char err[512];
  for (bool programmatic : {true, false}) {
    int64_t launches = fakeLaunches();
    int64_t dependents = fakeProgrammaticLaunches();
    ASSERT_EQ(kda2rt_launch((programmatic ? pdl : plain).kernel, ptrNames,
                            ptrVals, 1, dimNames, dimVals, 1, nullptr,
                            nullptr, 0, nullptr, err, sizeof(err)),
              KDA2RT_OK)
        << err;
    EXPECT_EQ(fakeLaunches(), launches + 1);
    EXPECT_EQ(fakeProgrammaticLaunches(), dependents + (programmatic ? 1 : 0));
  }
}

TEST(FakeKernel, PersistentKernelLaunchesResidentBlocks) {
  // `persistent 2`: at most 2 blocks per SM (the fake device has 132) in
  // one dimension, whatever the metadata's grid; fewer work items than
  // that: one block each.
  FakeModule persistent("p", "kda2-kernel-v1\nname p\nblock 128 1 1\n"
                             "grid.x ns\ngrid.y h\n"
                             "arg ptr x f32 in 2 h ns\narg dim ns\n"
                             "arg dim h\npersistent 2\nend\n");
  std::vector<float> x(8000, 1.0f);
  const char *ptrNames[] = {"x"};
  void *ptrVals[] = {x.data()};
  const char *dimNames[] = {"ns", "h"};
  char err[512];
  for (auto [ns, h, want] : {std::tuple{int64_t(1000), int64_t(8), 264u},
                             std::tuple{int64_t(10), int64_t(2), 20u}}) {
    const int64_t dimVals[] = {ns, h};
    ASSERT_EQ(kda2rt_launch(persistent.kernel, ptrNames, ptrVals, 1, dimNames,
                            dimVals, 2, nullptr, nullptr, 0, nullptr, err,
                            sizeof(err)),
              KDA2RT_OK)
        << err;
    unsigned grid[3] = {};
    std::vector<uint64_t> params;
    fakeLastLaunch(grid, params);
    EXPECT_EQ(grid[0], want) << ns << " x " << h;
    EXPECT_EQ(grid[1], 1u);
    EXPECT_EQ(grid[2], 1u);
  }
}

TEST(FakeKernel, CApiReadsTheKernelsBindings) {
  // The compile-time switches a kernel was built with, from its `bind`
  // lines (kda2-translate --tirx-bind=GF=2,BS=1,QKN=0,...).
  FakeModule bound("serve", "kda2-kernel-v1\n"
                            "name serve\n"
                            "block 128 1 1\n"
                            "grid.y n\n"
                            "arg ptr x f32 in 2 n 128\n"
                            "arg dim n\n"
                            "bind BS 1\n"
                            "bind GF 2\n"
                            "bind MIN -9223372036854775808\n"
                            "bind QKN 0\n"
                            "end\n");
  FakeModule old("dec", kda2::fake::decodeMetadata("dec", 64));
  ASSERT_NE(bound.kernel, nullptr);
  ASSERT_NE(old.kernel, nullptr);
  int64_t value = -7;
  EXPECT_EQ(kda2rt_kernel_binding(bound.kernel, "GF", &value), 1);
  EXPECT_EQ(value, 2);
  EXPECT_EQ(kda2rt_kernel_binding(bound.kernel, "QKN", &value), 1);
  EXPECT_EQ(value, 0);
  EXPECT_EQ(kda2rt_kernel_binding(bound.kernel, "MIN", &value), 1);
  EXPECT_EQ(value, INT64_MIN);
  // Not built with it: 0, *value untouched.
  value = -7;
  EXPECT_EQ(kda2rt_kernel_binding(bound.kernel, "LANES", &value), 0);
  EXPECT_EQ(kda2rt_kernel_binding(bound.kernel, "gf", &value), 0);
  EXPECT_EQ(kda2rt_kernel_binding(bound.kernel, "", &value), 0);
  EXPECT_EQ(kda2rt_kernel_binding(old.kernel, "GF", &value), 0);
  EXPECT_EQ(value, -7);
  // NULL arguments: a negative error code, the message in last_error.
  EXPECT_EQ(kda2rt_kernel_binding(bound.kernel, nullptr, &value),
            -KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(kda2rt_last_error(),
               "kda2rt_kernel_binding: kernel, name or value is NULL");
  EXPECT_EQ(kda2rt_kernel_binding(bound.kernel, "GF", nullptr),
            -KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(kda2rt_kernel_binding(nullptr, "GF", &value),
            -KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(value, -7);
  // The metadata text the handle returns carries the lines.
  EXPECT_NE(std::string(kda2rt_kernel_metadata(bound.kernel))
                .find("bind BS 1\nbind GF 2\n"),
            std::string::npos);
}

TEST(FakeKernel, CApiDecodeChecksTheStateLayout) {
  // K == V = 64: a transposed state has the same shape; only the layout
  // tells them apart.
  FakeModule vk("dec", kda2::fake::decodeMetadata("dec", 64, false, "vk"));
  FakeModule undeclared("old",
                        kda2::fake::decodeMetadata("old", 64, false, ""));
  ASSERT_NE(vk.kernel, nullptr);
  ASSERT_NE(undeclared.kernel, nullptr);
  char err[512], reason[512];
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
  a.state_layout = "kv";
  int64_t before = fakeLaunches();
  const char *mismatch =
      "kernel 'dec' stores its state V-major (vk), the call says K-major (kv)";
  // Twice: the first call prepares the launch, the second takes it.
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(kda2rt_kda_decode(vk.kernel, &a, nullptr, err, sizeof(err)),
              KDA2RT_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(err, mismatch);
  }
  EXPECT_EQ(kda2rt_kda_decode_query(vk.kernel, &a, reason, sizeof(reason)), 0);
  EXPECT_STREQ(reason, mismatch);
  a.state_layout = nullptr;
  EXPECT_EQ(kda2rt_kda_decode(vk.kernel, &a, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "argument 'state_layout' is NULL: say \"kv\" (K-major "
                    "[.., K, V]) or \"vk\" (V-major [.., V, K])");
  EXPECT_EQ(fakeLaunches(), before);
  a.state_layout = "vk";
  EXPECT_EQ(kda2rt_kda_decode_query(vk.kernel, &a, reason, sizeof(reason)), 1);
  ASSERT_EQ(kda2rt_kda_decode(vk.kernel, &a, nullptr, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), before + 1);
  // A kernel from a kda2 that did not record its layout.
  EXPECT_EQ(kda2rt_kda_decode(undeclared.kernel, &a, nullptr, err,
                              sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kernel 'old' does not declare the layout of its state "
                    "'h0' (no 'state' line in its metadata); rebuild it with "
                    "a kda2 that records it");
  EXPECT_EQ(fakeLaunches(), before + 1);
  kda2rt_mem_free(0, buf, nullptr, 0);
}

/// A pool decode kernel (K = 128, V = 64, K-major f32 pool) and a valid
/// call: n = 4 sequences, 10 tokens, 8 heads, 16 slots, in one 16 MiB
/// buffer (1 MiB per operand, the 4 MiB pool at 12 MiB).
class FakePoolKernel : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(kUseFakeDriver, 0);
    ASSERT_NE(module.kernel, nullptr);
    char err[512];
    ASSERT_EQ(kda2rt_mem_alloc(0, 16 << 20, &buffer, err, sizeof(err)),
              KDA2RT_OK)
        << err;
    char *b = static_cast<char *>(buffer);
    args = {};
    args.q = b;
    args.k = b + (1 << 20);
    args.v = b + (2 << 20);
    args.g = b + (3 << 20);
    args.beta = b + (4 << 20);
    args.cu_seqlens = b + (5 << 20);
    args.state_indices = b + (6 << 20);
    args.has_initial_state = b + (7 << 20);
    args.o = b + (8 << 20);
    args.pool = b + (12 << 20);
    args.n = 4;
    args.total_tokens = 10;
    args.h = 8;
    args.k_dim = 128;
    args.v_dim = 64;
    args.slots = 16;
    args.scale = 0.125;
    args.state_layout = "kv";
  }
  void TearDown() override { kda2rt_mem_free(0, buffer, nullptr, 0); }

  FakeModule module{"kda_decode_pool",
                    kda2::fake::poolDecodeMetadata("kda_decode_pool", 128,
                                                   64)};
  void *buffer = nullptr;
  kda2rt_kda_decode_pool_args args;
};

TEST_F(FakePoolKernel, LaunchPassesTheOperands) {
  char err[512];
  int64_t before = fakeLaunches();
  ASSERT_EQ(kda2rt_kda_decode_pool(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_STREQ(err, "");
  EXPECT_EQ(fakeLaunches(), before + 1);
  EXPECT_EQ(fakeLastKernel(), "kda_decode_pool");
  unsigned grid[3] = {};
  std::vector<uint64_t> p;
  ASSERT_EQ(fakeLastLaunch(grid, p), 21);
  EXPECT_EQ(grid[0], 1u);
  EXPECT_EQ(grid[1], 4u * 8u); // grid.y n h
  EXPECT_EQ(grid[2], 1u);
  auto addr = [](const void *ptr) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ptr));
  };
  // The `arg` order of templates/kda_decode_pool.tirx.
  EXPECT_EQ(p[0], addr(args.q));
  EXPECT_EQ(p[1], addr(args.k));
  EXPECT_EQ(p[2], addr(args.v));
  EXPECT_EQ(p[3], addr(args.g));
  EXPECT_EQ(p[4], addr(args.beta));
  EXPECT_EQ(p[5], addr(args.cu_seqlens));
  EXPECT_EQ(p[6], addr(args.state_indices));
  EXPECT_EQ(p[7], addr(args.has_initial_state));
  EXPECT_EQ(p[8], addr(args.pool));
  float scale = 0;
  std::memcpy(&scale, &p[9], sizeof(scale)); // f32 in the low bytes
  EXPECT_EQ(scale, 0.125f);
  // sq, sk, sv, sg, sb: the dense row sizes for the zero-initialised fields.
  EXPECT_EQ(p[10], 8u * 128u);
  EXPECT_EQ(p[11], 8u * 128u);
  EXPECT_EQ(p[12], 8u * 64u);
  EXPECT_EQ(p[13], 8u * 128u);
  EXPECT_EQ(p[14], 8u);
  EXPECT_EQ(p[15], addr(args.o));
  EXPECT_EQ(p[16], 10u); // tt
  EXPECT_EQ(p[17], 8u);  // h
  EXPECT_EQ(p[18], 5u);  // np1 = n + 1
  EXPECT_EQ(p[19], 4u);  // n
  EXPECT_EQ(p[20], 16u); // slots

  // No tokens (only empty or padded sequences) still launches: the kernel
  // writes the states of empty sequences back.
  args.total_tokens = 0;
  args.scale = 0; // K^-1/2
  ASSERT_EQ(kda2rt_kda_decode_pool(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), before + 2);
  ASSERT_EQ(fakeLastLaunch(grid, p), 21);
  std::memcpy(&scale, &p[9], sizeof(scale));
  EXPECT_FLOAT_EQ(scale, 1.0f / std::sqrt(128.0f));
  EXPECT_EQ(p[16], 0u);
}

TEST_F(FakePoolKernel, RowStridesReachThePreparedLaunch) {
  // Rows of one fused projection (vLLM's beta: 6288 elements apart).
  char err[512];
  args.q_stride = args.k_stride = args.v_stride = 6288;
  args.g_stride = 2048;
  args.beta_stride = 6288;
  ASSERT_EQ(kda2rt_kda_decode_pool(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  unsigned grid[3] = {};
  std::vector<uint64_t> p;
  ASSERT_EQ(fakeLastLaunch(grid, p), 21);
  const uint64_t want[] = {6288, 6288, 6288, 2048, 6288};
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(p[10 + i], want[i]) << i;
  // Per call, without allocating: the next call's strides reach the kernel.
  int64_t allocations = gAllocations.load();
  for (int64_t i = 0; i < 50; ++i) {
    args.beta_stride = 8 + 4 * i;
    ASSERT_EQ(kda2rt_kda_decode_pool(module.kernel, &args, nullptr, err,
                                     sizeof(err)),
              KDA2RT_OK)
        << err;
  }
  EXPECT_EQ(gAllocations.load() - allocations, 0)
      << "the pool decode entry point allocated";
  ASSERT_EQ(fakeLastLaunch(grid, p), 21);
  EXPECT_EQ(p[14], 8u + 4u * 49u);
  // Refused by name, through the plan.
  args.beta_stride = 6287;
  EXPECT_EQ(kda2rt_kda_decode_pool(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "argument 'beta_stride' is 6287: the row stride must be "
                    "a multiple of 16 bytes (4 elements of f32)");
  // o inside q's strided extent, (10 - 1)·6288 + 1024 bf16 = 115232 bytes.
  args.beta_stride = 0;
  void *o = args.o;
  args.o = static_cast<char *>(const_cast<void *>(args.q)) + 115232 - 16;
  EXPECT_EQ(kda2rt_kda_decode_pool(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err).find("arguments 'o' and 'q' overlap"),
            std::string::npos)
      << err;
  args.o = o;
}

TEST(FakeKernel, DenseKernelRefusesRowStrides) {
  // A pool kernel built before the strides (no `stride` lines): dense calls
  // work, a non-dense stride is refused, through the plan and the query.
  FakeModule module{"kda_decode_pool",
                    kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64,
                                                   "kv", "f32", "bf16", "i32",
                                                   /*strided=*/false)};
  void *buffer = nullptr;
  char err[512];
  ASSERT_EQ(kda2rt_mem_alloc(0, 16 << 20, &buffer, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  char *b = static_cast<char *>(buffer);
  kda2rt_kda_decode_pool_args args = {};
  const void **in[] = {&args.q, &args.k, &args.v, &args.g, &args.beta,
                       &args.cu_seqlens, &args.state_indices,
                       &args.has_initial_state};
  for (int i = 0; i < 8; ++i)
    *in[i] = b + (size_t(i) << 20);
  args.o = b + (8 << 20);
  args.pool = b + (12 << 20);
  args.n = 4;
  args.total_tokens = 10;
  args.h = 8;
  args.k_dim = 128;
  args.v_dim = 64;
  args.slots = 16;
  args.state_layout = "kv";
  EXPECT_EQ(kda2rt_kda_decode_pool(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  unsigned grid[3] = {};
  std::vector<uint64_t> p;
  EXPECT_EQ(fakeLastLaunch(grid, p), 16);
  args.q_stride = 2048;
  EXPECT_EQ(kda2rt_kda_decode_pool(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kernel 'kda_decode_pool' reads 'q' densely (no stride "
                    "parameter); rebuild it from a template with stride= "
                    "(GMEM {stride=...} q), or pass q_stride = 0");
  char reason[512];
  EXPECT_EQ(kda2rt_kda_decode_pool_query(module.kernel, &args, reason,
                                         sizeof(reason)),
            0);
  EXPECT_STREQ(reason, err);
  kda2rt_mem_free(0, buffer, nullptr, 0);
}

TEST_F(FakePoolKernel, QueryAgreesWithTheCall) {
  char err[512], reason[512] = "stale";
  EXPECT_EQ(kda2rt_kda_decode_pool_query(module.kernel, &args, reason,
                                         sizeof(reason)),
            1);
  EXPECT_STREQ(reason, "");
  char *b = static_cast<char *>(buffer);
  struct Case {
    const char *what;
    void (*change)(kda2rt_kda_decode_pool_args &, char *);
    int code;
    const char *message;
  };
  const Case cases[] = {
      {"state_layout NULL",
       [](kda2rt_kda_decode_pool_args &a, char *) { a.state_layout = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'state_layout' is NULL: say \"kv\" (K-major [.., K, V]) or "
       "\"vk\" (V-major [.., V, K])"},
      {"state_layout transposed",
       [](kda2rt_kda_decode_pool_args &a, char *) { a.state_layout = "vk"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_pool' stores its state K-major (kv), the call says "
       "V-major (vk)"},
      {"dtype",
       [](kda2rt_kda_decode_pool_args &a, char *) { a.dtype = "f16"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_pool': argument 'q' is bf16, the call passes f16"},
      {"state_dtype",
       [](kda2rt_kda_decode_pool_args &a, char *) { a.state_dtype = "bf16"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_pool': argument 'pool' is f32, the call passes "
       "state_dtype bf16"},
      {"head dims",
       [](kda2rt_kda_decode_pool_args &a, char *) { a.v_dim = 128; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_pool': was compiled for K=128, V=64, got K=128, "
       "V=128"},
      {"slots", [](kda2rt_kda_decode_pool_args &a, char *) { a.slots = 0; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "slots must be positive (the states in the pool), got 0"},
      {"misaligned cu_seqlens",
       [](kda2rt_kda_decode_pool_args &a, char *b) {
         a.cu_seqlens = b + (5 << 20) + 2;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'cu_seqlens' is not 4-byte aligned (int32 elements)"},
      {"o inside the pool",
       [](kda2rt_kda_decode_pool_args &a, char *b) { a.o = b + (13 << 20); },
       KDA2RT_ERROR_INVALID_ARGUMENT, nullptr},
      {"grid.y over 65535",
       [](kda2rt_kda_decode_pool_args &a, char *) { a.n = 70000; },
       KDA2RT_ERROR_LAUNCH_CONFIG,
       "kernel 'kda_decode_pool': grid.y = n(70000) * h(8) = 560000 exceeds "
       "the CUDA limit of 65535"},
  };
  int64_t before = fakeLaunches();
  for (const Case &c : cases) {
    kda2rt_kda_decode_pool_args a = args;
    c.change(a, b);
    EXPECT_EQ(kda2rt_kda_decode_pool_query(module.kernel, &a, reason,
                                           sizeof(reason)),
              0)
        << c.what;
    EXPECT_EQ(kda2rt_kda_decode_pool(module.kernel, &a, nullptr, err,
                                     sizeof(err)),
              c.code)
        << c.what;
    EXPECT_STREQ(reason, err) << c.what;
    if (c.message)
      EXPECT_STREQ(err, c.message) << c.what;
    else
      EXPECT_EQ(std::string(err).rfind("arguments 'pool' and 'o' overlap", 0),
                0u)
          << err;
  }
  EXPECT_EQ(fakeLaunches(), before); // nothing ran
  EXPECT_EQ(kda2rt_kda_decode_pool_query(nullptr, &args, reason,
                                         sizeof(reason)),
            -1);
  EXPECT_STREQ(reason,
               "kda2rt_kda_decode_pool_query: kernel or args is NULL");
  EXPECT_EQ(kda2rt_kda_decode_pool_query(module.kernel, nullptr, nullptr, 0),
            -1);
  EXPECT_EQ(kda2rt_kda_decode_pool(module.kernel, nullptr, nullptr, err,
                                   sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kda2rt_kda_decode_pool: kernel or args is NULL");
}

TEST(FakeKernel, PoolDecodeOnADecodeKernel) {
  FakeModule dec("dec", kda2::fake::decodeMetadata("dec", 128));
  kda2rt_kda_decode_pool_args a = {};
  char reason[512];
  EXPECT_EQ(kda2rt_kda_decode_pool_query(dec.kernel, &a, reason,
                                         sizeof(reason)),
            0);
  EXPECT_STREQ(reason, "kernel 'dec': is not a KDA pool decode kernel (no "
                       "argument 'cu_seqlens')");
}

TEST_F(FakePoolKernel, IndexDtypeSelectsTheKernelsIndexType) {
  // The same call on an IX=i64 kernel: index_dtype must say "i64", through
  // the general path, the prepared plan (second call) and the query alike.
  FakeModule i64("kda_decode_pool",
                 kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64,
                                                "kv", "f32", "bf16", "i64"));
  ASSERT_NE(i64.kernel, nullptr);
  char err[512], reason[512];
  int64_t before = fakeLaunches();
  const char *refusedNull =
      "argument 'index_dtype' is NULL (i32) but kernel 'kda_decode_pool' "
      "reads 'cu_seqlens' as int64 (its IX binding)";
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(kda2rt_kda_decode_pool(i64.kernel, &args, nullptr, err,
                                     sizeof(err)),
              KDA2RT_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(err, refusedNull);
  }
  EXPECT_EQ(kda2rt_kda_decode_pool_query(i64.kernel, &args, reason,
                                         sizeof(reason)),
            0);
  EXPECT_STREQ(reason, refusedNull);
  args.index_dtype = "i32";
  EXPECT_EQ(kda2rt_kda_decode_pool(i64.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "argument 'index_dtype' is 'i32' but kernel "
                    "'kda_decode_pool' reads 'cu_seqlens' as int64 (its IX "
                    "binding)");
  EXPECT_EQ(fakeLaunches(), before);
  args.index_dtype = "i64";
  EXPECT_EQ(kda2rt_kda_decode_pool_query(i64.kernel, &args, reason,
                                         sizeof(reason)),
            1);
  ASSERT_EQ(kda2rt_kda_decode_pool(i64.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), before + 1);
  // The int32 kernel refuses "i64", and an unknown index_dtype.
  EXPECT_EQ(kda2rt_kda_decode_pool(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "argument 'index_dtype' is 'i64' but kernel "
                    "'kda_decode_pool' reads 'cu_seqlens' as int32 (its IX "
                    "binding)");
  args.index_dtype = "int32";
  EXPECT_EQ(kda2rt_kda_decode_pool_query(module.kernel, &args, reason,
                                         sizeof(reason)),
            0);
  EXPECT_STREQ(reason, "argument 'index_dtype' is 'int32': expected \"i32\" "
                       "(or NULL) or \"i64\", the type of the index arrays "
                       "(cu_seqlens, state_indices, ...)");
  EXPECT_EQ(fakeLaunches(), before + 1);
}

TEST(FakeKernel, SpecDecodeWithInt64IndexArrays) {
  FakeModule i64("kda_decode_spec",
                 kda2::fake::specDecodeMetadata("kda_decode_spec", 128, 64,
                                                "kv", "f32", "bf16", "i64"));
  ASSERT_NE(i64.kernel, nullptr);
  char err[512];
  void *buffer = nullptr;
  ASSERT_EQ(kda2rt_mem_alloc(0, 16 << 20, &buffer, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  char *b = static_cast<char *>(buffer);
  kda2rt_kda_decode_spec_args a = {};
  const void **in[] = {&a.q, &a.k, &a.v, &a.g, &a.beta, &a.state_indices,
                       &a.num_accepted};
  for (int i = 0; i < 7; ++i)
    *in[i] = b + (i << 20);
  a.o = b + (8 << 20);
  a.pool = b + (12 << 20);
  a.n = 4;
  a.t = 3;
  a.h = 8;
  a.k_dim = 128;
  a.v_dim = 64;
  a.slots = 16;
  a.state_layout = "kv";
  a.write_states = 1;
  int64_t before = fakeLaunches();
  EXPECT_EQ(kda2rt_kda_decode_spec(i64.kernel, &a, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "argument 'index_dtype' is NULL (i32) but kernel "
                    "'kda_decode_spec' reads 'state_indices' as int64 (its "
                    "IX binding)");
  a.index_dtype = "i64";
  // num_accepted: 8-byte elements.
  a.num_accepted = b + (6 << 20) + 4;
  EXPECT_EQ(kda2rt_kda_decode_spec(i64.kernel, &a, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "argument 'num_accepted' is not 8-byte aligned (int64 "
                    "elements)");
  a.num_accepted = b + (6 << 20);
  ASSERT_EQ(kda2rt_kda_decode_spec(i64.kernel, &a, nullptr, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), before + 1);
  kda2rt_mem_free(0, buffer, nullptr, 0);
}

TEST_F(FakePoolKernel, PreparedLaunchDoesNotAllocate) {
  char err[512];
  // The first call prepares the kernel's plan; later ones are the hot path.
  ASSERT_EQ(kda2rt_kda_decode_pool(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  int64_t before = gAllocations.load();
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(kda2rt_kda_decode_pool(module.kernel, &args, nullptr, err,
                                     sizeof(err)),
              KDA2RT_OK)
        << err;
  EXPECT_EQ(gAllocations.load() - before, 0)
      << "the pool decode entry point allocated";
}

/// A speculative decode kernel (K = 128, V = 64, K-major f32 pool) and a
/// valid call: n = 4 sequences of t = 3 tokens, 8 heads, 16 slots, in one
/// 16 MiB buffer (1 MiB per operand, the 4 MiB pool at 12 MiB).
class FakeSpecKernel : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(kUseFakeDriver, 0);
    ASSERT_NE(module.kernel, nullptr);
    char err[512];
    ASSERT_EQ(kda2rt_mem_alloc(0, 16 << 20, &buffer, err, sizeof(err)),
              KDA2RT_OK)
        << err;
    char *b = static_cast<char *>(buffer);
    args = {};
    const void **in[] = {&args.q, &args.k, &args.v, &args.g, &args.beta,
                         &args.state_indices, &args.num_accepted};
    for (int i = 0; i < 7; ++i)
      *in[i] = b + (i << 20);
    args.o = b + (8 << 20);
    args.pool = b + (12 << 20);
    args.n = 4;
    args.t = 3;
    args.h = 8;
    args.k_dim = 128;
    args.v_dim = 64;
    args.slots = 16;
    args.scale = 0.125;
    args.state_layout = "kv";
    args.write_states = 1;
  }
  void TearDown() override { kda2rt_mem_free(0, buffer, nullptr, 0); }

  FakeModule module{"kda_decode_spec",
                    kda2::fake::specDecodeMetadata("kda_decode_spec", 128,
                                                   64)};
  void *buffer = nullptr;
  kda2rt_kda_decode_spec_args args;
};

TEST_F(FakeSpecKernel, LaunchPassesTheOperands) {
  char err[512];
  int64_t before = fakeLaunches();
  ASSERT_EQ(kda2rt_kda_decode_spec(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_STREQ(err, "");
  EXPECT_EQ(fakeLaunches(), before + 1);
  EXPECT_EQ(fakeLastKernel(), "kda_decode_spec");
  unsigned grid[3] = {};
  std::vector<uint64_t> p;
  ASSERT_EQ(fakeLastLaunch(grid, p), 20);
  EXPECT_EQ(grid[0], 2u);      // grid.x 2
  EXPECT_EQ(grid[1], 4u * 8u); // grid.y n h
  EXPECT_EQ(grid[2], 1u);
  auto addr = [](const void *ptr) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ptr));
  };
  // The `arg` order of templates/kda_decode_spec.tirx.
  const void *pointers[] = {args.q,    args.k,    args.v,
                            args.g,    args.beta, args.state_indices,
                            args.num_accepted, args.pool};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(p[i], addr(pointers[i])) << i;
  float scale = 0;
  std::memcpy(&scale, &p[8], sizeof(scale)); // f32 in the low bytes
  EXPECT_EQ(scale, 0.125f);
  EXPECT_EQ(p[9] & 0xffffffffu, 1u); // write_states (i32, low bytes)
  // sq .. sb: the dense sequence rows t·h·K, t·h·V, t·h.
  const uint64_t dense[] = {3 * 8 * 128, 3 * 8 * 128, 3 * 8 * 64,
                            3 * 8 * 128, 3 * 8};
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(p[10 + i], dense[i]) << i;
  EXPECT_EQ(p[15], addr(args.o));
  EXPECT_EQ(p[16], 4u);  // n
  EXPECT_EQ(p[17], 3u);  // t
  EXPECT_EQ(p[18], 8u);  // h
  EXPECT_EQ(p[19], 16u); // slots

  // The largest verify step; scale 0 is K^-1/2.
  args.t = 16;
  args.scale = 0;
  ASSERT_EQ(kda2rt_kda_decode_spec(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(fakeLastLaunch(grid, p), 20);
  std::memcpy(&scale, &p[8], sizeof(scale));
  EXPECT_FLOAT_EQ(scale, 1.0f / std::sqrt(128.0f));
  EXPECT_EQ(p[17], 16u);
  EXPECT_EQ(p[10], 16u * 8u * 128u);

  // Output only: write_states 0 reaches the kernel.
  args.write_states = 0;
  ASSERT_EQ(kda2rt_kda_decode_spec(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(fakeLastLaunch(grid, p), 20);
  EXPECT_EQ(p[9] & 0xffffffffu, 0u);
  args.write_states = 1;

  // Row strides between sequences reach the kernel.
  args.q_stride = 16 * 8 * 128 + 64;
  args.beta_stride = 16 * 8 + 4;
  ASSERT_EQ(kda2rt_kda_decode_spec(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(fakeLastLaunch(grid, p), 20);
  EXPECT_EQ(p[10], 16u * 8u * 128u + 64u);
  EXPECT_EQ(p[14], 16u * 8u + 4u);

  // Allocation-free after the first call (which prepared the plan).
  int64_t allocations = gAllocations.load();
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(kda2rt_kda_decode_spec(module.kernel, &args, nullptr, err,
                                     sizeof(err)),
              KDA2RT_OK)
        << err;
  EXPECT_EQ(gAllocations.load() - allocations, 0)
      << "the speculative decode entry point allocated";
}

TEST_F(FakeSpecKernel, QueryAgreesWithTheCall) {
  char err[512], reason[512] = "stale";
  EXPECT_EQ(kda2rt_kda_decode_spec_query(module.kernel, &args, reason,
                                         sizeof(reason)),
            1);
  EXPECT_STREQ(reason, "");
  char *b = static_cast<char *>(buffer);
  struct Case {
    const char *what;
    void (*change)(kda2rt_kda_decode_spec_args &, char *);
    int code;
    const char *message;
  };
  const Case cases[] = {
      {"t over 16", [](kda2rt_kda_decode_spec_args &a, char *) { a.t = 17; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "t must be in [1, 16] (tokens per sequence), got 17: speculative "
       "decode verifies at most 16 tokens per step (the last accepted token "
       "and the drafts); longer runs are prefill"},
      {"state_layout transposed",
       [](kda2rt_kda_decode_spec_args &a, char *) { a.state_layout = "vk"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_spec' stores its state K-major (kv), the call says "
       "V-major (vk)"},
      {"state_dtype",
       [](kda2rt_kda_decode_spec_args &a, char *) { a.state_dtype = "bf16"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_spec': argument 'pool' is f32, the call passes "
       "state_dtype bf16"},
      {"head dims",
       [](kda2rt_kda_decode_spec_args &a, char *) { a.k_dim = 64; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_spec': was compiled for K=128, V=64, got K=64, "
       "V=64"},
      {"NULL num_accepted",
       [](kda2rt_kda_decode_spec_args &a, char *) {
         a.num_accepted = nullptr;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT, "argument 'num_accepted' is NULL"},
      {"misaligned state_indices",
       [](kda2rt_kda_decode_spec_args &a, char *b) {
         a.state_indices = b + (5 << 20) + 1;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'state_indices' is not 4-byte aligned (int32 elements)"},
      {"o in the pool",
       [](kda2rt_kda_decode_spec_args &a, char *b) { a.o = b + (12 << 20); },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "arguments 'pool' and 'o' overlap (pool at " /* address follows */},
      {"grid.y over 65535",
       [](kda2rt_kda_decode_spec_args &a, char *) {
         // Operands of 70000 sequences do not fit the buffer: addresses 1
         // GiB apart (nothing is dereferenced, the grid is refused first).
         const void **ptrs[] = {&a.q, &a.k, &a.v, &a.g, &a.beta,
                                &a.state_indices, &a.num_accepted};
         for (uintptr_t i = 0; i < 7; ++i)
           *ptrs[i] = reinterpret_cast<void *>((i + 1) << 30);
         a.pool = reinterpret_cast<void *>(uintptr_t(8) << 30);
         a.o = reinterpret_cast<void *>(uintptr_t(9) << 30);
         a.n = 70000;
         a.t = 1;
       },
       KDA2RT_ERROR_LAUNCH_CONFIG,
       "kernel 'kda_decode_spec': grid.y = n(70000) * h(8) = 560000 exceeds "
       "the CUDA limit of 65535"},
  };
  int64_t before = fakeLaunches();
  for (const Case &c : cases) {
    kda2rt_kda_decode_spec_args a = args;
    c.change(a, b);
    EXPECT_EQ(kda2rt_kda_decode_spec_query(module.kernel, &a, reason,
                                           sizeof(reason)),
              0)
        << c.what;
    EXPECT_EQ(kda2rt_kda_decode_spec(module.kernel, &a, nullptr, err,
                                     sizeof(err)),
              c.code)
        << c.what;
    EXPECT_STREQ(reason, err) << c.what;
    EXPECT_EQ(std::string(err).rfind(c.message, 0), 0u) << err;
  }
  EXPECT_EQ(fakeLaunches(), before); // nothing ran
  EXPECT_EQ(kda2rt_kda_decode_spec_query(nullptr, &args, reason,
                                         sizeof(reason)),
            -1);
  EXPECT_STREQ(reason,
               "kda2rt_kda_decode_spec_query: kernel or args is NULL");
  EXPECT_EQ(kda2rt_kda_decode_spec_query(module.kernel, nullptr, nullptr, 0),
            -1);
  EXPECT_EQ(kda2rt_kda_decode_spec(nullptr, &args, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kda2rt_kda_decode_spec: kernel or args is NULL");
}

TEST(FakeKernel, SpecDecodeOnAPoolKernel) {
  FakeModule pool("kda_decode_pool",
                  kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64));
  kda2rt_kda_decode_spec_args a = {};
  char err[512], reason[512];
  EXPECT_EQ(kda2rt_kda_decode_spec_query(pool.kernel, &a, reason,
                                         sizeof(reason)),
            0);
  EXPECT_STREQ(reason, "kernel 'kda_decode_pool': is not a KDA speculative "
                       "decode kernel (no argument 'num_accepted')");
  EXPECT_EQ(kda2rt_kda_decode_spec(pool.kernel, &a, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, reason);
}

/// A pool kernel the prepared launch cannot express (it declares counters,
/// which the entry point does not pass) takes the general path, with the
/// same answers as its query.
TEST(FakeKernel, PoolKernelWithCountersTakesTheGeneralPath) {
  std::string m = kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64);
  m.replace(m.find("end\n"), 4, "arg counters 1\ncounter steps i64\nend\n");
  FakeModule pool("kda_decode_pool", m);
  ASSERT_NE(pool.kernel, nullptr);
  void *buf = nullptr;
  char err[512], reason[512];
  ASSERT_EQ(kda2rt_mem_alloc(0, 16 << 20, &buf, err, sizeof(err)), KDA2RT_OK);
  char *b = static_cast<char *>(buf);
  kda2rt_kda_decode_pool_args a = {};
  const void **in[] = {&a.q, &a.k, &a.v, &a.g, &a.beta, &a.cu_seqlens,
                       &a.state_indices, &a.has_initial_state};
  for (int i = 0; i < 8; ++i)
    *in[i] = b + (i << 20);
  a.o = b + (8 << 20);
  a.pool = b + (12 << 20);
  a.n = 4;
  a.total_tokens = 10;
  a.h = 8;
  a.k_dim = 128;
  a.v_dim = 64;
  a.slots = 16;
  a.state_layout = "kv";
  EXPECT_EQ(kda2rt_kda_decode_pool_query(pool.kernel, &a, reason,
                                         sizeof(reason)),
            0);
  EXPECT_EQ(kda2rt_kda_decode_pool(pool.kernel, &a, nullptr, err,
                                   sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, reason);
  EXPECT_STREQ(err, "kernel 'kda_decode_pool': missing the counters buffer "
                    "(pointer argument 'counters', 1 8-byte slots)");
  kda2rt_mem_free(0, buf, nullptr, 0);
}

/// A fused layer decode kernel (the metadata of
/// templates/kda_decode_conv.tirx, K = V = 128, W = 4, K-major f32 pool)
/// and a valid call: n = 4 sequences, 10 tokens, h = 4 (D = 1536), 16
/// slots, in one 32 MiB buffer (1 MiB per input, conv_state at 11 MiB, o at
/// 12 MiB, the 4 MiB pool at 16 MiB).
class FakeConvKernel : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(kUseFakeDriver, 0);
    ASSERT_NE(module.kernel, nullptr);
    char err[512];
    ASSERT_EQ(kda2rt_mem_alloc(0, 32 << 20, &buffer, err, sizeof(err)),
              KDA2RT_OK)
        << err;
    char *b = static_cast<char *>(buffer);
    args = {};
    const void **in[] = {&args.qkv,       &args.conv_w,        &args.a,
                         &args.b,         &args.gout,          &args.A_log,
                         &args.dt_bias,   &args.norm_w,        &args.cu_seqlens,
                         &args.state_indices, &args.has_initial_state};
    for (int i = 0; i < 11; ++i)
      *in[i] = b + (size_t(i) << 20);
    args.conv_state = b + (11 << 20);
    args.o = b + (12 << 20);
    args.pool = b + (16 << 20);
    args.n = 4;
    args.total_tokens = 10;
    args.h = 4;
    args.k_dim = args.v_dim = 128;
    args.conv_width = 4;
    args.slots = 16;
    args.scale = 0.125;
    args.lower_bound = -5;
    args.eps = 1e-6;
    args.state_layout = "kv";
  }
  void TearDown() override { kda2rt_mem_free(0, buffer, nullptr, 0); }

  static uint64_t addr(const void *p) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
  }
  static float f32(uint64_t slot) {
    float f;
    std::memcpy(&f, &slot, sizeof(f)); // f32 in the low bytes
    return f;
  }

  FakeModule module{"kda_decode_conv", kda2::fake::convDecodeMetadata()};
  void *buffer = nullptr;
  kda2rt_kda_decode_conv_args args;
};

TEST_F(FakeConvKernel, LaunchPassesTheOperands) {
  char err[512];
  int64_t before = fakeLaunches();
  ASSERT_EQ(kda2rt_kda_decode_conv(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_STREQ(err, "");
  EXPECT_EQ(fakeLaunches(), before + 1);
  EXPECT_EQ(fakeLastKernel(), "kda_decode_conv");
  unsigned grid[3] = {};
  std::vector<uint64_t> p;
  ASSERT_EQ(fakeLastLaunch(grid, p), 24);
  EXPECT_EQ(grid[0], 1u);
  EXPECT_EQ(grid[1], 4u * 4u); // grid.y n h
  EXPECT_EQ(grid[2], 1u);
  // The `arg` order of templates/kda_decode_conv.tirx.
  const void *ptrs[] = {args.qkv,           args.conv_w,     args.a,
                        args.b,             args.gout,       args.A_log,
                        args.dt_bias,       args.norm_w,     args.cu_seqlens,
                        args.state_indices, args.has_initial_state,
                        args.conv_state,    args.pool};
  for (int i = 0; i < 13; ++i)
    EXPECT_EQ(p[i], addr(ptrs[i])) << i;
  EXPECT_EQ(p[13], 1536u); // sx: D for qkv_stride 0
  EXPECT_EQ(f32(p[14]), 0.125f);
  EXPECT_EQ(f32(p[15]), -5.0f);
  EXPECT_EQ(f32(p[16]), 1e-6f);
  EXPECT_EQ(p[17], addr(args.o));
  const uint64_t dims[] = {10, 1536, 4, 5, 4, 16}; // tt D h np1 n slots
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(p[18 + i], dims[i]) << i;

  // The same values through the generic kda2rt_launch: the same slots.
  const char *ptrNames[] = {"qkv",        "conv_w",        "a",
                            "b",          "gout",          "A_log",
                            "dt_bias",    "norm_w",        "cu_seqlens",
                            "state_indices", "has_initial_state",
                            "conv_state", "pool",          "o"};
  void *ptrVals[14];
  for (int i = 0; i < 13; ++i)
    ptrVals[i] = const_cast<void *>(ptrs[i]);
  ptrVals[13] = args.o;
  const char *dimNames[] = {"tt", "D", "h", "np1", "n", "slots"};
  const int64_t dimVals[] = {10, 1536, 4, 5, 4, 16};
  const char *scalarNames[] = {"sx", "scale", "lower_bound", "eps"};
  const double scalarVals[] = {1536, 0.125, -5, 1e-6};
  ASSERT_EQ(kda2rt_launch(module.kernel, ptrNames, ptrVals, 14, dimNames,
                          dimVals, 6, scalarNames, scalarVals, 4, nullptr, err,
                          sizeof(err)),
            KDA2RT_OK)
      << err;
  std::vector<uint64_t> generic;
  unsigned genericGrid[3] = {};
  ASSERT_EQ(fakeLastLaunch(genericGrid, generic), 24);
  EXPECT_EQ(generic, p);
  EXPECT_EQ(genericGrid[1], grid[1]);

  // The prepared second call honours every changed per-call value.
  args.total_tokens = 7;
  args.n = 3;
  args.h = 2; // D = 768
  args.slots = 9;
  args.qkv_stride = 2048;
  args.scale = 0; // K^-1/2
  args.lower_bound = -3;
  args.eps = 1e-5;
  ASSERT_EQ(kda2rt_kda_decode_conv(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), before + 3);
  ASSERT_EQ(fakeLastLaunch(grid, p), 24);
  EXPECT_EQ(grid[1], 3u * 2u);
  EXPECT_EQ(p[13], 2048u);
  EXPECT_FLOAT_EQ(f32(p[14]), 1.0f / std::sqrt(128.0f));
  EXPECT_EQ(f32(p[15]), -3.0f);
  EXPECT_EQ(f32(p[16]), 1e-5f);
  const uint64_t dims2[] = {7, 768, 2, 4, 3, 9};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(p[18 + i], dims2[i]) << i;
}

TEST_F(FakeConvKernel, QueryAgreesWithTheCall) {
  char err[512], reason[512] = "stale";
  EXPECT_EQ(kda2rt_kda_decode_conv_query(module.kernel, &args, reason,
                                         sizeof(reason)),
            1);
  EXPECT_STREQ(reason, "");
  char *b = static_cast<char *>(buffer);
  using A = kda2rt_kda_decode_conv_args;
  struct Case {
    const char *what;
    void (*change)(A &, char *);
    int code;
    const char *message;
  };
  const Case cases[] = {
      {"state_layout NULL", [](A &a, char *) { a.state_layout = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'state_layout' is NULL: say \"kv\" (K-major [.., K, V]) or "
       "\"vk\" (V-major [.., V, K])"},
      {"state_layout transposed", [](A &a, char *) { a.state_layout = "vk"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_conv' stores its state K-major (kv), the call says "
       "V-major (vk)"},
      {"dtype", [](A &a, char *) { a.dtype = "f16"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_conv': argument 'qkv' is bf16, the call passes "
       "f16"},
      {"state_dtype", [](A &a, char *) { a.state_dtype = "bf16"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_conv': argument 'pool' is f32, the call passes "
       "state_dtype bf16"},
      {"index_dtype", [](A &a, char *) { a.index_dtype = "i64"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'index_dtype' is 'i64' but kernel 'kda_decode_conv' reads "
       "'cu_seqlens' as int32 (its IX binding)"},
      {"head dims", [](A &a, char *) { a.k_dim = 64; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_conv': was compiled for K=128, V=128, got K=64, "
       "V=128"},
      {"conv_width", [](A &a, char *) { a.conv_width = 0; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_decode_conv': was compiled for conv width W = 4 (conv_w "
       "[D, 4], conv_state [slots, D, 3]), got conv_width = 0"},
      {"h", [](A &a, char *) { a.h = 0; }, KDA2RT_ERROR_INVALID_ARGUMENT,
       "h must be positive (the number of heads), got 0"},
      {"n", [](A &a, char *) { a.n = 0; }, KDA2RT_ERROR_INVALID_ARGUMENT,
       "n must be positive (the number of sequences), got 0"},
      {"total_tokens over int32",
       [](A &a, char *) { a.total_tokens = int64_t(1) << 31; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "total_tokens = 2147483648 does not fit the int32 cu_seqlens "
       "(index_dtype \"i64\" with an IX=i64 kernel does)"},
      {"slots", [](A &a, char *) { a.slots = 0; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "slots must be positive (the states in the pool), got 0"},
      {"scale", [](A &a, char *) { a.scale = -1; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "scale must be a finite number >= 0 (0: K^-1/2)"},
      {"eps", [](A &a, char *) { a.eps = INFINITY; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "eps must be a finite number >= 0 (the RMSNorm epsilon)"},
      {"lower_bound", [](A &a, char *) { a.lower_bound = NAN; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "lower_bound must be a finite number (the bound of gate family 1; GF "
       "2 kernels ignore it)"},
      {"qkv_stride below D", [](A &a, char *) { a.qkv_stride = 1000; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'qkv_stride' is 1000: a row stride is 0 (dense) or at least "
       "the row size, D = 2·h·K + h·V = 1536 elements"},
      {"qkv_stride not 16 bytes", [](A &a, char *) { a.qkv_stride = 1537; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'qkv_stride' is 1537: the row stride must be a multiple of "
       "16 bytes (8 elements of bf16)"},
      {"NULL qkv", [](A &a, char *) { a.qkv = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT, "argument 'qkv' is NULL"},
      {"NULL conv_state", [](A &a, char *) { a.conv_state = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT, "argument 'conv_state' is NULL"},
      {"misaligned gout",
       [](A &a, char *b) { a.gout = b + (4 << 20) + 8; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'gout' is not 16-byte aligned (the kernel uses 128-bit "
       "accesses)"},
      {"misaligned state_indices",
       [](A &a, char *b) { a.state_indices = b + (9 << 20) + 2; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'state_indices' is not 4-byte aligned (int32 elements)"},
      {"pool over conv_w",
       [](A &a, char *b) { a.pool = b + (1 << 20); },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "arguments 'pool' and 'conv_w' overlap"},
      {"o inside qkv's strided extent",
       // (10 - 1)·4096 + 1536 bf16 = 76800 bytes from qkv.
       [](A &a, char *b) {
         a.qkv_stride = 4096;
         a.o = b + 76800 - 16;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT, "arguments 'o' and 'qkv' overlap"},
      {"conv_state inside the pool",
       [](A &a, char *b) { a.conv_state = b + (17 << 20); },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "arguments 'conv_state' and 'pool' overlap"},
      {"grid.y over 65535", [](A &a, char *) { a.n = 20000; },
       KDA2RT_ERROR_LAUNCH_CONFIG,
       "kernel 'kda_decode_conv': grid.y = n(20000) * h(4) = 80000 exceeds "
       "the CUDA limit of 65535"},
  };
  int64_t before = fakeLaunches();
  // Twice: the first round's first call prepares the plan.
  for (int round = 0; round < 2; ++round)
    for (const Case &c : cases) {
      A a = args;
      c.change(a, b);
      EXPECT_EQ(kda2rt_kda_decode_conv_query(module.kernel, &a, reason,
                                             sizeof(reason)),
                0)
          << c.what;
      EXPECT_EQ(kda2rt_kda_decode_conv(module.kernel, &a, nullptr, err,
                                       sizeof(err)),
                c.code)
          << c.what;
      EXPECT_STREQ(reason, err) << c.what;
      EXPECT_EQ(std::string(err).rfind(c.message, 0), 0u)
          << c.what << ": " << err;
    }
  EXPECT_EQ(fakeLaunches(), before); // nothing ran
  EXPECT_EQ(kda2rt_kda_decode_conv_query(nullptr, &args, reason,
                                         sizeof(reason)),
            -1);
  EXPECT_STREQ(reason,
               "kda2rt_kda_decode_conv_query: kernel or args is NULL");
  EXPECT_EQ(kda2rt_kda_decode_conv(module.kernel, nullptr, nullptr, err,
                                   sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kda2rt_kda_decode_conv: kernel or args is NULL");
}

TEST(FakeKernel, ConvDecodeOnAPoolKernel) {
  FakeModule pool("kda_decode_pool",
                  kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 128));
  kda2rt_kda_decode_conv_args a = {};
  char err[512], reason[512];
  int64_t before = fakeLaunches();
  EXPECT_EQ(kda2rt_kda_decode_conv_query(pool.kernel, &a, reason,
                                         sizeof(reason)),
            0);
  EXPECT_STREQ(reason, "kernel 'kda_decode_pool': is not a KDA conv decode "
                       "kernel (no argument 'qkv'); it takes q, k, v, g and "
                       "beta: a pool decode kernel, for "
                       "kda2rt_kda_decode_pool");
  EXPECT_EQ(kda2rt_kda_decode_conv(pool.kernel, &a, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, reason);
  // And the other way round: the pool entry point refuses a conv kernel.
  FakeModule conv("kda_decode_conv", kda2::fake::convDecodeMetadata());
  kda2rt_kda_decode_pool_args p = {};
  EXPECT_EQ(kda2rt_kda_decode_pool_query(conv.kernel, &p, reason,
                                         sizeof(reason)),
            0);
  EXPECT_STREQ(reason, "kernel 'kda_decode_conv': is not a KDA pool decode "
                       "kernel (no argument 'q')");
  EXPECT_EQ(fakeLaunches(), before);
}

TEST_F(FakeConvKernel, PreparedLaunchDoesNotAllocate) {
  char err[512];
  // The first call prepares the kernel's plan; later ones are the hot path,
  // with per-call values changing.
  ASSERT_EQ(kda2rt_kda_decode_conv(module.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_OK)
      << err;
  int64_t before = gAllocations.load();
  for (int i = 0; i < 100; ++i) {
    args.total_tokens = 4 + i % 7;
    args.eps = 1e-6 * (1 + i);
    args.qkv_stride = i % 2 ? 2048 : 0;
    ASSERT_EQ(kda2rt_kda_decode_conv(module.kernel, &args, nullptr, err,
                                     sizeof(err)),
              KDA2RT_OK)
        << err;
  }
  EXPECT_EQ(gAllocations.load() - before, 0)
      << "the conv decode entry point allocated";
  unsigned grid[3] = {};
  std::vector<uint64_t> p;
  ASSERT_EQ(fakeLastLaunch(grid, p), 24);
  EXPECT_EQ(p[13], 2048u);
  EXPECT_EQ(f32(p[16]), static_cast<float>(1e-6 * 100));
  EXPECT_EQ(p[18], uint64_t(4 + 99 % 7));
}

/// A conv kernel the prepared launch cannot express (it declares counters)
/// takes the general path, with the same answers as its query.
TEST_F(FakeConvKernel, KernelWithCountersTakesTheGeneralPath) {
  std::string m = kda2::fake::convDecodeMetadata();
  m.replace(m.find("end\n"), 4, "arg counters 1\ncounter steps i64\nend\n");
  FakeModule counted("kda_decode_conv", m);
  ASSERT_NE(counted.kernel, nullptr);
  char err[512], reason[512];
  EXPECT_EQ(kda2rt_kda_decode_conv_query(counted.kernel, &args, reason,
                                         sizeof(reason)),
            0);
  EXPECT_EQ(kda2rt_kda_decode_conv(counted.kernel, &args, nullptr, err,
                                   sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, reason);
  EXPECT_STREQ(err, "kernel 'kda_decode_conv': missing the counters buffer "
                    "(pointer argument 'counters', 1 8-byte slots)");
}

} // namespace

//===----------------------------------------------------------------------===//
// Prefill: kda2rt_kda_prefill's three launches
//===----------------------------------------------------------------------===//

namespace {
/// One recorded event of the fake driver (FakeCuda.h), 0 the latest.
struct FakeEvent {
  std::string name;
  unsigned grid[3] = {};
  std::vector<uint64_t> params;
};
bool fakeEvent(int back, FakeEvent &e) {
  void *lib = dlopen(KDA2_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
  auto fn = lib ? reinterpret_cast<kda2_fake_cuda_event_fn>(
                      dlsym(lib, "kda2_fake_cuda_event"))
                : nullptr;
  const char *name = nullptr;
  e.params.assign(64, 0);
  int n = fn ? fn(back, &name, e.grid, e.params.data(), 64) : -2;
  e.name = n >= 0 && name ? name : "";
  e.params.resize(n > 0 ? n : 0);
  if (lib)
    dlclose(lib);
  return n >= 0;
}
void fakeClearEvents() {
  void *lib = dlopen(KDA2_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
  if (auto fn = lib ? reinterpret_cast<kda2_fake_cuda_clear_events_fn>(
                          dlsym(lib, "kda2_fake_cuda_clear_events"))
                    : nullptr)
    fn();
  if (lib)
    dlclose(lib);
}
uint64_t addr(const void *p) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
}

/// The three prefill kernels of the default binding (K = V = 128, C = 32,
/// VB = 8, bf16, f32 kv state, range g -5 0) in one module, and a valid
/// call: n = 2 sequences of 40 tokens, 80 in all (ns = floor(80 / 32) + 2
/// = 4 chunk slots; nc = 2 for a checkpoint table), h = 1.
/// A prefill call of 2 sequences, 80 tokens, 1 head, K = V = 128 with its
/// operands in `buffer` (32 MiB: q, k, v, g, beta, the index arrays, the
/// pool, o, and a 1024-aligned workspace from 16 MiB; workspace_bytes 0).
kda2rt_kda_prefill_args fakePrefillArgs(void *buffer) {
  char *b = static_cast<char *>(buffer);
  kda2rt_kda_prefill_args args = {};
  args.q = b;
  args.k = b + (1 << 20);
  args.v = b + (2 << 20);
  args.g = b + (3 << 20);
  args.beta = b + (4 << 20);
  args.cu_seqlens = b + (5 << 20);
  args.state_indices = b + (5 << 20) + 4096;
  args.has_initial_state = b + (5 << 20) + 8192;
  args.pool = b + (6 << 20);
  args.o = b + (10 << 20);
  // 1024-aligned (kda2rt_mem_alloc gives 256).
  uintptr_t w =
      (reinterpret_cast<uintptr_t>(b) + (16 << 20) + 1023) & ~uintptr_t(1023);
  args.workspace = reinterpret_cast<void *>(w);
  args.n = 2;
  args.total_tokens = 80;
  args.max_seqlen = 40;
  args.h = 1;
  args.k_dim = 128;
  args.v_dim = 128;
  args.slots = 4;
  args.scale = 0.125;
  args.state_layout = "kv";
  args.gate_lower_bound = -5;
  return args;
}

class FakePrefill : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(kUseFakeDriver, 0);
    char err[512];
    ASSERT_EQ(kda2rt_module_load_data(0, image.data(), image.size(), &module,
                                      err, sizeof(err)),
              KDA2RT_OK)
        << err;
    for (auto [name, out] : {std::pair{"kda_chunk_prep", &prep},
                             std::pair{"kda_chunk_scan_h", &scan},
                             std::pair{"kda_chunk_out", &out}})
      ASSERT_EQ(kda2rt_kernel_get(module, name, out, err, sizeof(err)),
                KDA2RT_OK)
          << err;
    // The checkpoint kernel, in the images that have it.
    if (image.find("__kda2_meta_kda_chunk_ckpt") != std::string::npos) {
      ASSERT_EQ(kda2rt_kernel_get(module, "kda_chunk_ckpt", &ckptKernel, err,
                                  sizeof(err)),
                KDA2RT_OK)
          << err;
    }
    ASSERT_EQ(kda2rt_mem_alloc(0, 32 << 20, &buffer, err, sizeof(err)),
              KDA2RT_OK)
        << err;
    args = fakePrefillArgs(buffer);
    args.workspace_bytes = 280576; // KdaPrefill.WorkspaceLayout
  }
  void TearDown() override {
    kda2rt_mem_free(0, buffer, nullptr, 0);
    kda2rt_module_unload(module, nullptr, 0);
  }

  /// args with one checkpoint at a token offset per sequence (m = 1: the
  /// tables at buffer + 5 MiB + 12288 and + 16384, blocks 8 of ckpt at
  /// buffer + 12 MiB) and a workspace of 297984 bytes
  /// (KdaPrefill.WorkspaceWithOffsetCheckpoints).
  kda2rt_kda_prefill_args withOffsets() const {
    kda2rt_kda_prefill_args a = args;
    char *b = static_cast<char *>(buffer);
    a.ckpt_offsets = b + (5 << 20) + 12288;
    a.offset_blocks = b + (5 << 20) + 16384;
    a.m = 1;
    a.ckpt_kernel = ckptKernel;
    a.ckpt = b + (12 << 20);
    a.blocks = 8;
    a.workspace_bytes = 297984;
    return a;
  }

  std::string image = kda2::fake::fakeCubin(
      {{"kda_chunk_prep", kda2::fake::prefillPrepMetadata()},
       {"kda_chunk_scan_h", kda2::fake::prefillScanMetadata()},
       {"kda_chunk_out", kda2::fake::prefillOutMetadata()},
       {"kda_chunk_ckpt", kda2::fake::prefillCkptMetadata()}});
  kda2rt_module module = nullptr;
  kda2rt_kernel prep = nullptr, scan = nullptr, out = nullptr,
                ckptKernel = nullptr;
  void *buffer = nullptr;
  kda2rt_kda_prefill_args args;
};
} // namespace

TEST_F(FakePrefill, WorkspaceSize) {
  char err[512], reason[512];
  size_t bytes = 0;
  // n_max = 2, max_total_tokens = 80, h = 1: 4 chunk slots.
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, out, 2, 80, 1, &bytes,
                                              err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(bytes, 280576u); // worked out in KdaPrefill.WorkspaceLayout
  // A workspace sized for (n_max, max_total_tokens) holds any call with no
  // more sequences and tokens, however uneven (one sequence of 79 tokens
  // and one of 1: the longest is no input of the size).
  for (int64_t n : {1, 2})
    for (int64_t tt : {0, 1, 31, 32, 79, 80}) {
      kda2rt_kda_prefill_args a = args;
      a.n = n;
      a.total_tokens = tt;
      a.max_seqlen = tt ? tt : 1;
      EXPECT_EQ(
          kda2rt_kda_prefill_query(prep, scan, out, &a, reason, sizeof(reason)),
          1)
          << n << " " << tt << ": " << reason;
    }
  const std::pair<int64_t, const char *> refused[] = {
      {-1, "total_tokens must be >= 0 (the tokens of the call, padding "
           "included), got -1"},
      {int64_t(1) << 31,
       "total_tokens = 2147483648 does not fit the int32 cu_seqlens of "
       "kernel 'kda_chunk_prep' (at most 2^31 - 1; kernels built with IX=i64 "
       "take more)"}};
  for (const auto &[tt, want] : refused) {
    EXPECT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, out, 2, tt, 1,
                                                &bytes, err, sizeof(err)),
              KDA2RT_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(err, want);
  }
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, out, 0, 80, 1, &bytes,
                                              err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "n must be positive (the number of sequences), got 0");
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, out, 2, 80, 0, &bytes,
                                              err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "h must be positive (the number of heads), got 0");
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, out, int64_t(1) << 40,
                                              INT32_MAX, 1024, &bytes, err,
                                              sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "n = 1099511627776, total_tokens = 2147483647 and h = "
                    "1024 make a workspace larger than 2^63 bytes");
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, out, 2, 80, 1,
                                              nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kda2rt_kda_prefill_workspace_size: bytes is NULL");
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size(prep, nullptr, out, 2, 80, 1,
                                              &bytes, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kda2rt_kda_prefill_workspace_size: scan_kernel is NULL");
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size(out, scan, prep, 2, 80, 1, &bytes,
                                              err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "argument 'prep_kernel': kernel 'kda_chunk_out' is not a "
                    "KDA prefill prep kernel (kda_chunk_prep) (no argument "
                    "'q')");
}

TEST_F(FakePrefill, RowStridesReachThePrepKernel) {
  // q, k, v as column slices of one bf16 [80, 448] projection, g and beta
  // of an f32 [80, 132] one (rows 896 and 528 bytes apart).
  char err[512];
  char *fused = static_cast<char *>(const_cast<void *>(args.q));
  args.k = fused + 128 * 2;
  args.v = fused + 256 * 2;
  args.q_stride = args.k_stride = args.v_stride = 448;
  char *gates = static_cast<char *>(const_cast<void *>(args.g));
  args.beta = gates + 128 * 4;
  args.g_stride = args.beta_stride = 132;
  fakeClearEvents();
  ASSERT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_OK)
      << err;
  FakeEvent p, s;
  ASSERT_TRUE(fakeEvent(2, p));
  EXPECT_EQ(p.name, "kda_chunk_prep");
  ASSERT_EQ(p.params.size(), 27u);
  EXPECT_EQ(p.params[1], addr(args.k));
  EXPECT_EQ(p.params[3], addr(args.beta));
  const uint64_t want[] = {448, 448, 132, 132}; // sq, sk, sg, sb
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(p.params[7 + i], want[i]) << i;
  // v's stride goes to the scan, which reads v in place.
  ASSERT_TRUE(fakeEvent(1, s));
  EXPECT_EQ(s.name, "kda_chunk_scan_h");
  EXPECT_EQ(s.params[0], addr(args.v));
  EXPECT_EQ(s.params[12], 448u); // sv
  // Refused by name, before any launch.
  args.g_stride = 130; // 520 bytes
  int64_t before = fakeLaunches();
  EXPECT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "argument 'g_stride' is 130: the row stride must be a "
                    "multiple of 16 bytes (4 elements of f32)");
  EXPECT_EQ(fakeLaunches(), before);
}

/// FakePrefill with h = 8 value heads (hqk set by each test).
static void groupedHeads(kda2rt_kda_prefill_args &a) {
  a.h = 8;
  a.workspace_bytes = 15 << 20;
}

TEST_F(FakePrefill, GroupedValueHeadsReachThePrepKernel) {
  char err[512], reason[512];
  groupedHeads(args);
  // hqk (prep parameter 20, after tt) and the dense q/k row strides
  // (parameters 7, 8) follow it; g and beta keep h = 8 heads.
  auto prepParams = [&](std::vector<uint64_t> &params) {
    fakeClearEvents();
    ASSERT_EQ(
        kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
        KDA2RT_OK)
        << err;
    FakeEvent p;
    ASSERT_TRUE(fakeEvent(2, p));
    ASSERT_EQ(p.name, "kda_chunk_prep");
    EXPECT_EQ(p.grid[0], 4u); // ns
    EXPECT_EQ(p.grid[1], 8u); // h
    params = p.params;
  };
  const struct {
    int64_t hqk;
    uint64_t bound, qkStride;
  } cases[] = {{0, 8, 1024}, {8, 8, 1024}, {2, 2, 256}, {1, 1, 128},
               {4, 4, 512}};
  for (const auto &c : cases) {
    args.hqk = c.hqk;
    EXPECT_EQ(kda2rt_kda_prefill_query(prep, scan, out, &args, reason,
                                       sizeof(reason)),
              1)
        << reason;
    std::vector<uint64_t> params;
    prepParams(params);
    ASSERT_EQ(params.size(), 27u);
    EXPECT_EQ(params[20], c.bound) << c.hqk;
    EXPECT_EQ(params[21], 8u) << c.hqk; // h
    EXPECT_EQ(params[7], c.qkStride) << c.hqk;
    EXPECT_EQ(params[8], c.qkStride) << c.hqk;
    EXPECT_EQ(params[9], 1024u) << c.hqk; // g: h·K
    EXPECT_EQ(params[10], 8u) << c.hqk;   // beta: h
  }
  // hqk must divide h; refused by name before any launch.
  const std::pair<int64_t, const char *> refused[] = {
      {3, "argument 'hqk' is 3: h = 8 must be a multiple of it (the q/k "
          "heads of grouped value heads; 0: h)"},
      {16, "argument 'hqk' is 16: h = 8 must be a multiple of it (the q/k "
           "heads of grouped value heads; 0: h)"},
      {-2, "argument 'hqk' is -2: h = 8 must be a multiple of it (the q/k "
           "heads of grouped value heads; 0: h)"}};
  for (const auto &[hqk, want] : refused) {
    args.hqk = hqk;
    int64_t before = fakeLaunches();
    EXPECT_EQ(
        kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
        KDA2RT_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(err, want);
    EXPECT_EQ(kda2rt_kda_prefill_query(prep, scan, out, &args, reason,
                                       sizeof(reason)),
              0);
    EXPECT_STREQ(reason, want);
    EXPECT_EQ(fakeLaunches(), before);
  }
  // q/k row strides are checked against hqk·K.
  args.hqk = 2;
  args.q_stride = 200;
  EXPECT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "argument 'q_stride' is 200: a row stride is 0 (dense) "
                    "or at least the row size, hqk·K = 256 elements");
  args.q_stride = 256;
  EXPECT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_OK)
      << err;
}

namespace {
/// FakePrefill with a prep kernel built before grouped value heads: q and
/// k [tt, h, K], no hqk dimension.
class FakePrefillOldPrep : public FakePrefill {
protected:
  FakePrefillOldPrep() {
    kda2::fake::PrefillBinding b;
    b.grouped = false;
    image = kda2::fake::fakeCubin(
        {{"kda_chunk_prep", kda2::fake::prefillPrepMetadata(b)},
         {"kda_chunk_scan_h", kda2::fake::prefillScanMetadata(b)},
         {"kda_chunk_out", kda2::fake::prefillOutMetadata(b)}});
  }
};
} // namespace

TEST_F(FakePrefillOldPrep, TakesOnlyHqkZeroOrH) {
  char err[512], reason[512];
  groupedHeads(args);
  for (int64_t hqk : {0, 8}) {
    args.hqk = hqk;
    fakeClearEvents();
    ASSERT_EQ(
        kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
        KDA2RT_OK)
        << err;
    FakeEvent p;
    ASSERT_TRUE(fakeEvent(2, p));
    ASSERT_EQ(p.name, "kda_chunk_prep");
    ASSERT_EQ(p.params.size(), 26u); // no hqk parameter
    EXPECT_EQ(p.params[7], 1024u);   // sq: h·K
    EXPECT_EQ(p.params[19], 80u);    // tt
    EXPECT_EQ(p.params[20], 8u);     // h
  }
  args.hqk = 2;
  const char *want = "kernel 'kda_chunk_prep' reads q and k with h heads (no "
                     "hqk dimension); rebuild it from "
                     "templates/kda_chunk_split.tirx for grouped value heads "
                     "(hqk = 2 < h = 8), or pass hqk = 0";
  int64_t before = fakeLaunches();
  EXPECT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, want);
  EXPECT_EQ(
      kda2rt_kda_prefill_query(prep, scan, out, &args, reason, sizeof(reason)),
      0);
  EXPECT_STREQ(reason, want);
  EXPECT_EQ(fakeLaunches(), before);
}

namespace {
/// FakePrefill with a state scan whose tiles take 40 KB of dynamic shared
/// memory (as kda_chunk_scan_hk's, next to 16 KB of static scratch: past
/// the 48 KB a launch gets without opting in).
class FakePrefillSharedScan : public FakePrefill {
protected:
  FakePrefillSharedScan() {
    image = kda2::fake::fakeCubin(
        {{"kda_chunk_prep", kda2::fake::prefillPrepMetadata()},
         {"kda_chunk_scan_h",
          kda2::test::replaced(kda2::fake::prefillScanMetadata(), "smem 0\n",
                               "smem 40960\n")},
         {"kda_chunk_out", kda2::fake::prefillOutMetadata()}});
  }
};
} // namespace

TEST_F(FakePrefillSharedScan, OptsInToDynamicSharedMemoryBelow48KB) {
  // The fake refuses a launch with more dynamic shared memory than the
  // function's MAX_DYNAMIC_SHARED_SIZE_BYTES (it cannot know the static
  // part): the runtime asks for the kernel's size however small it is.
  char err[512];
  fakeClearEvents();
  ASSERT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_OK)
      << err;
  FakeEvent s;
  ASSERT_TRUE(fakeEvent(1, s));
  EXPECT_EQ(s.name, "kda_chunk_scan_h");
}

TEST_F(FakePrefill, LaunchesThreeKernelsInOrder) {
  char err[512];
  const uint64_t ws = addr(args.workspace);
  // The layout of KdaPrefill.WorkspaceLayout (n = 2, 80 tokens: ns = 4,
  // h = 1).
  const uint64_t qd = ws, kl = ws + 32768, wn = ws + 65536, tp = ws + 98304,
                 pb = ws + 106496, gl = ws + 114688, hs = ws + 116736,
                 us = ws + 247808;
  fakeClearEvents();
  int64_t before = fakeLaunches();
  ASSERT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_OK)
      << err;
  EXPECT_STREQ(err, "");
  EXPECT_EQ(fakeLaunches(), before + 3);
  FakeEvent none, p, s, o;
  EXPECT_FALSE(fakeEvent(3, none)); // the three launches only: no memset
  ASSERT_TRUE(fakeEvent(2, p));
  ASSERT_TRUE(fakeEvent(1, s));
  ASSERT_TRUE(fakeEvent(0, o));
  // kda_chunk_prep: grid (ns, h); the `arg` order of the metadata.
  EXPECT_EQ(p.name, "kda_chunk_prep");
  EXPECT_EQ(p.grid[0], 4u);
  EXPECT_EQ(p.grid[1], 1u);
  ASSERT_EQ(p.params.size(), 27u);
  const uint64_t prepWant[] = {addr(args.q),
                               addr(args.k),
                               addr(args.g),
                               addr(args.beta),
                               addr(args.cu_seqlens),
                               addr(args.state_indices) /* ckpt_offsets */,
                               0 /* scale */,
                               128 /* sq: dense h·K */,
                               128 /* sk */,
                               128 /* sg */,
                               1 /* sb: h */,
                               qd,
                               kl,
                               wn,
                               tp,
                               pb,
                               gl,
                               ws + 280576 /* kc: 0 bytes */,
                               ws + 280576 /* ec: 0 bytes */,
                               80 /* tt */,
                               1 /* hqk: 0 gives h */,
                               1 /* h */,
                               3 /* np1 */,
                               2 /* n */,
                               0 /* m */,
                               4 /* ns */,
                               0 /* nm */};
  for (int i = 0; i < 27; ++i) {
    if (i != 6) {
      EXPECT_EQ(p.params[i], prepWant[i]) << "prep parameter " << i;
    }
  }
  float scale = 0;
  std::memcpy(&scale, &p.params[6], sizeof(scale));
  EXPECT_EQ(scale, 0.125f);
  // kda_chunk_scan_h: grid (NVB = 16, n h); the fake tensor maps carry the
  // address of their tensor. No checkpoints: state_indices as the table of
  // one column (nc = 1) and as both offset tables (m = 0), boundaries = 0,
  // blocks = 0, the pool as ckpt; v read in place (sv its dense row).
  EXPECT_EQ(s.name, "kda_chunk_scan_h");
  EXPECT_EQ(s.grid[0], 16u);
  EXPECT_EQ(s.grid[1], 2u);
  ASSERT_EQ(s.params.size(), 31u);
  const uint64_t scanWant[] = {addr(args.v),
                               kl,
                               wn,
                               tp,
                               gl,
                               addr(args.cu_seqlens),
                               addr(args.state_indices),
                               addr(args.has_initial_state),
                               addr(args.state_indices) /* table */,
                               addr(args.state_indices) /* ckpt_offsets */,
                               addr(args.state_indices) /* offset_blocks */,
                               0 /* boundaries */,
                               128 /* sv: h·V */,
                               addr(args.pool),
                               hs,
                               us,
                               addr(args.pool) /* ckpt */,
                               80 /* tt */,
                               1 /* h */,
                               4 /* ns */,
                               3 /* np1 */,
                               2 /* n */,
                               1 /* nc */,
                               0 /* m */,
                               4 /* slots */,
                               0 /* blocks */,
                               kl,
                               wn,
                               tp,
                               gl,
                               addr(args.v)};
  for (int i = 0; i < 31; ++i)
    EXPECT_EQ(s.params[i] & (i == 11 ? 0xFFFFFFFFu : ~uint64_t(0)),
              scanWant[i])
        << "scan parameter " << i;
  // kda_chunk_out: grid (ns, h), nslots = slots.
  EXPECT_EQ(o.name, "kda_chunk_out");
  EXPECT_EQ(o.grid[0], 4u);
  EXPECT_EQ(o.grid[1], 1u);
  ASSERT_EQ(o.params.size(), 17u);
  const uint64_t outWant[] = {qd,
                              pb,
                              hs,
                              us,
                              addr(args.cu_seqlens),
                              addr(args.state_indices),
                              4 /* nslots */,
                              addr(args.o),
                              1 /* h */,
                              4 /* ns */,
                              3 /* np1 */,
                              2 /* n */,
                              80 /* tt */,
                              qd,
                              pb,
                              hs,
                              us};
  for (int i = 0; i < 17; ++i)
    EXPECT_EQ(o.params[i] & (i == 6 ? 0xFFFFFFFFu : ~uint64_t(0)), outWant[i])
        << "out parameter " << i;

  // With checkpoints: the caller's table of nc = ceil(40 / 32) = 2
  // columns, ckpt and blocks; nothing else changes.
  char *b = static_cast<char *>(buffer);
  args.checkpoint_blocks = b + (5 << 20) + 12288;
  args.ckpt = b + (12 << 20);
  args.blocks = 8;
  fakeClearEvents();
  ASSERT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), before + 6);
  EXPECT_FALSE(fakeEvent(3, none));
  ASSERT_TRUE(fakeEvent(2, p));
  EXPECT_EQ(p.name, "kda_chunk_prep");
  for (int i = 0; i < 27; ++i) {
    if (i != 6) {
      EXPECT_EQ(p.params[i], prepWant[i]) << "prep parameter " << i;
    }
  }
  ASSERT_TRUE(fakeEvent(1, s));
  ASSERT_EQ(s.params.size(), 31u);
  for (int i = 0; i < 31; ++i)
    EXPECT_EQ(s.params[i] & (i == 11 ? 0xFFFFFFFFu : ~uint64_t(0)),
              i == 8    ? addr(args.checkpoint_blocks)
              : i == 11 ? 1u /* boundaries */
              : i == 16 ? addr(args.ckpt)
              : i == 22 ? 2u
              : i == 25 ? 8u
                        : scanWant[i])
        << "scan parameter " << i;
  // A longer max_seqlen widens only the table (nc = 5).
  args.max_seqlen = 150;
  ASSERT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_OK)
      << err;
  ASSERT_TRUE(fakeEvent(1, s));
  EXPECT_EQ(s.params[22], 5u);
  ASSERT_TRUE(fakeEvent(2, p));
  EXPECT_EQ(p.params[25], 4u); // ns
}

/// FakePrefill with the kernels of IX=i64: int64 cu_seqlens, state_indices
/// and checkpoint_blocks.
class FakePrefillI64 : public FakePrefill {
protected:
  FakePrefillI64() {
    kda2::fake::PrefillBinding b;
    b.ix = "i64";
    image = kda2::fake::fakeCubin(
        {{"kda_chunk_prep", kda2::fake::prefillPrepMetadata(b)},
         {"kda_chunk_scan_h", kda2::fake::prefillScanMetadata(b)},
         {"kda_chunk_out", kda2::fake::prefillOutMetadata(b)}});
  }
};

TEST_F(FakePrefillI64, PassesInt64StateIndicesAsTheTable) {
  char err[512], reason[512];
  // The workspace holds no index array: the size of the int32 kernels.
  size_t bytes = 0;
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, out, 2, 80, 1, &bytes,
                                              err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(bytes, 280576u);
  // ... and more than 2^31 - 1 tokens (ns = 2^26 + 2).
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, out, 2,
                                              int64_t(1) << 31, 1, &bytes, err,
                                              sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(bytes, ((uint64_t(1) << 26) + 2) * 70144u);
  fakeClearEvents();
  int64_t before = fakeLaunches();
  const char *refused = "argument 'index_dtype' is NULL (i32) but kernel "
                        "'kda_chunk_prep' reads 'cu_seqlens' as int64 (its "
                        "IX binding)";
  EXPECT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, refused);
  EXPECT_EQ(
      kda2rt_kda_prefill_query(prep, scan, out, &args, reason, sizeof(reason)),
      0);
  EXPECT_STREQ(reason, refused);
  EXPECT_EQ(fakeLaunches(), before);
  args.index_dtype = "i64";
  ASSERT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), before + 3);
  FakeEvent none, s;
  EXPECT_FALSE(fakeEvent(3, none)); // no memset
  ASSERT_TRUE(fakeEvent(1, s));
  EXPECT_EQ(s.name, "kda_chunk_scan_h");
  EXPECT_EQ(s.params[8], addr(args.state_indices)); // the int64 table
  EXPECT_EQ(s.params[22], 1u);                      // nc
  EXPECT_EQ(s.params[25], 0u);                      // blocks
  // cu_seqlens needs 8-byte alignment.
  args.cu_seqlens = static_cast<const char *>(args.cu_seqlens) + 4;
  EXPECT_EQ(
      kda2rt_kda_prefill_query(prep, scan, out, &args, reason, sizeof(reason)),
      0);
  EXPECT_STREQ(reason, "argument 'cu_seqlens' is not 8-byte aligned (int64 "
                       "elements)");
}

namespace {
/// FakePrefill with the three kernels of an older kda2 (binding `b`).
class FakePrefillOlder : public FakePrefill {
protected:
  explicit FakePrefillOlder(const kda2::fake::PrefillBinding &b) {
    image = kda2::fake::fakeCubin(
        {{"kda_chunk_prep", kda2::fake::prefillPrepMetadata(b)},
         {"kda_chunk_scan_h", kda2::fake::prefillScanMetadata(b)},
         {"kda_chunk_out", kda2::fake::prefillOutMetadata(b)}});
  }
  /// The workspace size (without and with offsets), the query and the call
  /// (without offsets: the kernels lack arguments every call passes) refuse
  /// them with `want`, and nothing is launched.
  void expectRefused(const char *want) {
    char err[512], reason[512];
    size_t bytes = 7;
    EXPECT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, out, 2, 80, 1,
                                                &bytes, err, sizeof(err)),
              KDA2RT_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(err, want);
    EXPECT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                  prep, scan, out, 2, 80, 1, 1, &bytes, err, sizeof(err)),
              KDA2RT_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(err, want);
    EXPECT_EQ(bytes, 7u);
    const int64_t before = fakeLaunches();
    EXPECT_EQ(kda2rt_kda_prefill_query(prep, scan, out, &args, reason,
                                       sizeof(reason)),
              0);
    EXPECT_STREQ(reason, want);
    EXPECT_EQ(
        kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
        KDA2RT_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(err, want);
    EXPECT_EQ(fakeLaunches(), before);
  }
};

kda2::fake::PrefillBinding withoutChunkSlots() {
  kda2::fake::PrefillBinding b;
  b.chunkSlots = false;
  return b;
}

/// Kernels of a kda2 before chunk slots (qd [n, h, nc, C, K], ...).
class FakePrefillOldLayout : public FakePrefillOlder {
protected:
  FakePrefillOldLayout() : FakePrefillOlder(withoutChunkSlots()) {}
};
} // namespace

TEST_F(FakePrefillOldLayout, RefusedByTheCallTheQueryAndTheSize) {
  char err[512];
  expectRefused(
      "kernel 'kda_chunk_prep': argument 'qd' is [n, h, nc, 32, 128], per "
      "(sequence, head, chunk): the layout of prefill kernels built before "
      "chunk slots; rebuild the three kernels from "
      "templates/kda_chunk_split.tirx (or templates/kda_chunk_prep_act.tirx) "
      "and templates/kda_chunk_h.tirx, whose intermediates are per chunk "
      "slot ([h, ns, ..])");
  const int64_t before = fakeLaunches();
  // A new prep kernel with the old scan and out: the scan is named.
  std::string mixed = kda2::fake::fakeCubin(
      {{"kda_chunk_prep", kda2::fake::prefillPrepMetadata()}});
  kda2rt_module m = nullptr;
  kda2rt_kernel newPrep = nullptr;
  ASSERT_EQ(kda2rt_module_load_data(0, mixed.data(), mixed.size(), &m, err,
                                    sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(kda2rt_kernel_get(m, "kda_chunk_prep", &newPrep, err, sizeof(err)),
            KDA2RT_OK);
  EXPECT_EQ(
      kda2rt_kda_prefill(newPrep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(err).rfind("kernel 'kda_chunk_scan_h': argument 'kl' "
                                   "is [n, h, nc, 32, 128], per (sequence, "
                                   "head, chunk): ",
                                   0),
            0u)
      << err;
  EXPECT_EQ(fakeLaunches(), before);
  kda2rt_module_unload(m, nullptr, 0);
}

TEST_F(FakePrefill, QueryAgreesWithTheCall) {
  char err[512], reason[512] = "stale";
  EXPECT_EQ(
      kda2rt_kda_prefill_query(prep, scan, out, &args, reason, sizeof(reason)),
      1);
  EXPECT_STREQ(reason, "");
  using A = kda2rt_kda_prefill_args;
  struct Case {
    const char *what;
    void (*change)(A &, char *);
    int code;
    const char *message;
  };
  const Case cases[] = {
      {"gate below the range", [](A &a, char *) { a.gate_lower_bound = -6; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "the gate can reach -6 per step (gate_lower_bound) but kernel "
       "'kda_chunk_prep' was compiled for g in [-5, 0] (its chunked products "
       "would overflow); use a kernel built with a wider bound (GB) or a "
       "smaller chunk"},
      {"unbounded gate", [](A &a, char *) { a.gate_lower_bound = -INFINITY; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "the gate can reach -inf per step (gate_lower_bound) but kernel "
       "'kda_chunk_prep' was compiled for g in [-5, 0] (its chunked products "
       "would overflow); use a kernel built with a wider bound (GB) or a "
       "smaller chunk"},
      {"gate NaN", [](A &a, char *) { a.gate_lower_bound = NAN; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "gate_lower_bound is NaN: give the lowest per-step log decay the gate "
       "can produce (-inf when unbounded)"},
      {"head dims", [](A &a, char *) { a.v_dim = 64; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_chunk_prep': was compiled for K=128, V=128, got K=128, "
       "V=64"},
      {"dtype", [](A &a, char *) { a.dtype = "f16"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_chunk_prep': argument 'q' is bf16, the call passes f16"},
      {"state_dtype", [](A &a, char *) { a.state_dtype = "bf16"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_chunk_scan_h': argument 'pool' is f32, the call passes "
       "state_dtype bf16"},
      {"state_layout", [](A &a, char *) { a.state_layout = "vk"; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_chunk_scan_h' stores its state K-major (kv), the call "
       "says V-major (vk)"},
      {"state_layout NULL", [](A &a, char *) { a.state_layout = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'state_layout' is NULL: say \"kv\" (K-major [.., K, V]) or "
       "\"vk\" (V-major [.., V, K])"},
      {"total_tokens", [](A &a, char *) { a.total_tokens = -1; },
       KDA2RT_ERROR_INVALID_ARGUMENT, "total_tokens must be >= 0, got -1"},
      {"total_tokens int32",
       [](A &a, char *) { a.total_tokens = int64_t(1) << 31; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "total_tokens = 2147483648 does not fit the int32 cu_seqlens "
       "(index_dtype \"i64\" with IX=i64 kernels does)"},
      {"n", [](A &a, char *) { a.n = 0; }, KDA2RT_ERROR_INVALID_ARGUMENT,
       "n must be positive (the number of sequences), got 0"},
      {"max_seqlen", [](A &a, char *) { a.max_seqlen = 0; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "max_seqlen must be in [1, 2^31 - 1] (the tokens of the longest "
       "sequence; it sets nc = ceil(max_seqlen / C), the columns of "
       "checkpoint_blocks), got 0"},
      {"max_seqlen 2^31", [](A &a, char *) { a.max_seqlen = int64_t(1) << 31; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "max_seqlen must be in [1, 2^31 - 1] (the tokens of the longest "
       "sequence; it sets nc = ceil(max_seqlen / C), the columns of "
       "checkpoint_blocks), got 2147483648"},
      {"h", [](A &a, char *) { a.h = 0; }, KDA2RT_ERROR_INVALID_ARGUMENT,
       "h must be positive (the number of heads), got 0"},
      {"slots", [](A &a, char *) { a.slots = 0; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "slots must be positive (the states in the pool), got 0"},
      {"scale", [](A &a, char *) { a.scale = -1; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "scale must be a finite number >= 0 (0: K^-1/2)"},
      {"ckpt without checkpoint_blocks",
       [](A &a, char *b) { a.ckpt = b + (12 << 20); },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'ckpt' is not NULL but 'checkpoint_blocks' and "
       "'ckpt_offsets' are: ckpt receives checkpoints; pass a table of them, "
       "or ckpt NULL"},
      {"checkpoint_blocks without ckpt",
       [](A &a, char *b) { a.checkpoint_blocks = b + (5 << 20) + 12288; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'ckpt' is NULL but 'checkpoint_blocks' is not: pass both "
       "(checkpoints) or neither"},
      {"blocks",
       [](A &a, char *b) {
         a.checkpoint_blocks = b + (5 << 20) + 12288;
         a.ckpt = b + (12 << 20);
         a.blocks = 0;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "blocks must be positive (the states ckpt holds), got 0"},
      {"q NULL", [](A &a, char *) { a.q = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT, "argument 'q' is NULL"},
      {"workspace NULL", [](A &a, char *) { a.workspace = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT, "argument 'workspace' is NULL"},
      {"misaligned g", [](A &a, char *b) { a.g = b + (3 << 20) + 8; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'g' is not 16-byte aligned (the kernel uses 128-bit "
       "accesses)"},
      {"misaligned state_indices",
       [](A &a, char *b) { a.state_indices = b + (5 << 20) + 4098; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'state_indices' is not 4-byte aligned (int32 elements)"},
      {"misaligned workspace",
       [](A &a, char *) {
         a.workspace = static_cast<char *>(a.workspace) + 512;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'workspace' is not 1024-byte aligned (the intermediates "
       "inside it are read with TMA)"},
      {"workspace too small", [](A &a, char *) { a.workspace_bytes = 280575; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "workspace_bytes = 280575 is too small: n = 2 and total_tokens = 80 "
       "with h = 1 need 280576 bytes (kda2rt_kda_prefill_workspace_size)"},
      {"one more slot than the workspace holds",
       [](A &a, char *) { a.total_tokens = 96; }, KDA2RT_ERROR_INVALID_ARGUMENT,
       "workspace_bytes = 280576 is too small: n = 2 and total_tokens = 96 "
       "with h = 1 need 351232 bytes (kda2rt_kda_prefill_workspace_size)"},
      {"o inside the pool", [](A &a, char *b) { a.o = b + (6 << 20) + 1024; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       nullptr /* arguments 'pool' and 'o' overlap */},
      {"workspace over q",
       [](A &a, char *) { a.q = static_cast<char *>(a.workspace) + 4096; },
       KDA2RT_ERROR_INVALID_ARGUMENT, nullptr},
      {"ckpt over the workspace",
       [](A &a, char *b) {
         a.checkpoint_blocks = b + (5 << 20) + 12288;
         a.ckpt = static_cast<char *>(a.workspace) + 1024;
         a.blocks = 1;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT, nullptr},
      {"scan grid.y over 65535",
       [](A &a, char *) {
         a.n = 70000;
         a.workspace_bytes = SIZE_MAX;
       },
       KDA2RT_ERROR_LAUNCH_CONFIG,
       "kernel 'kda_chunk_scan_h': grid.y = n(70000) * h(1) = 70000 exceeds "
       "the CUDA limit of 65535"},
  };
  // The overlap cases, by the start of their message.
  const char *overlaps[] = {"arguments 'pool' and 'o' overlap",
                            "arguments 'workspace' and 'q' overlap",
                            "arguments 'workspace' and 'ckpt' overlap"};
  size_t overlap = 0;
  char *b = static_cast<char *>(buffer);
  int64_t before = fakeLaunches();
  fakeClearEvents();
  for (const Case &c : cases) {
    A a = args;
    c.change(a, b);
    EXPECT_EQ(
        kda2rt_kda_prefill_query(prep, scan, out, &a, reason, sizeof(reason)),
        0)
        << c.what;
    EXPECT_EQ(
        kda2rt_kda_prefill(prep, scan, out, &a, nullptr, err, sizeof(err)),
        c.code)
        << c.what;
    EXPECT_STREQ(reason, err) << c.what;
    if (c.message)
      EXPECT_STREQ(err, c.message) << c.what;
    else
      EXPECT_EQ(std::string(err).rfind(overlaps[overlap++], 0), 0u)
          << c.what << ": " << err;
  }
  EXPECT_EQ(overlap, 3u);
  EXPECT_EQ(fakeLaunches(), before); // nothing ran
  FakeEvent e;
  EXPECT_FALSE(fakeEvent(0, e));
  // NULL handles: -1 from the query, the argument named by both.
  EXPECT_EQ(kda2rt_kda_prefill_query(prep, scan, nullptr, &args, reason,
                                     sizeof(reason)),
            -1);
  EXPECT_STREQ(reason, "kda2rt_kda_prefill_query: out_kernel is NULL");
  EXPECT_EQ(kda2rt_kda_prefill_query(prep, scan, out, nullptr, reason,
                                     sizeof(reason)),
            -1);
  EXPECT_STREQ(reason, "kda2rt_kda_prefill_query: args is NULL");
  EXPECT_EQ(
      kda2rt_kda_prefill(nullptr, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kda2rt_kda_prefill: prep_kernel is NULL");
}

//===----------------------------------------------------------------------===//
// Prefill: checkpoints at token offsets through the C ABI (ckpt_offsets,
// offset_blocks, m, ckpt_kernel; kda2rt_kda_prefill_workspace_size_offsets)
//===----------------------------------------------------------------------===//

TEST_F(FakePrefill, WorkspaceSizeWithOffsets) {
  char err[512], reason[512];
  size_t bytes = 0, old = 0;
  const char *fn = "kda2rt_kda_prefill_workspace_size_offsets";
  // m_max = 0: the size without offsets.
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, out, 2, 80, 1, &old,
                                              err, sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                prep, scan, out, 2, 80, 1, 0, &bytes, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(bytes, old);
  EXPECT_EQ(bytes, 280576u);
  // n = 2, m = 1, h = 1: kc [1, 2, 32, 128] bf16 (16384 bytes) and ec
  // [1, 2, 128] f32 (1024) after us: 297984 bytes.
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                prep, scan, out, 2, 80, 1, 1, &bytes, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(bytes, 297984u);
  // h = 3, m = 5 (nm = 10): 3 · 280576 + 3 · 10 · 8192 + 3 · 10 · 512.
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                prep, scan, out, 2, 80, 3, 5, &bytes, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(bytes, 3u * 280576u + 245760u + 15360u);
  // The call needs the size for its own n, total_tokens, h and m: exactly
  // 297984 passes, one byte less is refused by name, nothing launched.
  kda2rt_kda_prefill_args a = withOffsets();
  EXPECT_EQ(
      kda2rt_kda_prefill_query(prep, scan, out, &a, reason, sizeof(reason)), 1)
      << reason;
  a.workspace_bytes = 297983;
  const char *small = "workspace_bytes = 297983 is too small: n = 2, "
                      "total_tokens = 80 and m = 1 with h = 1 need 297984 "
                      "bytes (kda2rt_kda_prefill_workspace_size_offsets with "
                      "m_max >= m)";
  const int64_t before = fakeLaunches();
  EXPECT_EQ(kda2rt_kda_prefill(prep, scan, out, &a, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, small);
  EXPECT_EQ(
      kda2rt_kda_prefill_query(prep, scan, out, &a, reason, sizeof(reason)), 0);
  EXPECT_STREQ(reason, small);
  EXPECT_EQ(fakeLaunches(), before);
  // A workspace sized for (n_max, T_max, m_max) holds the smaller calls.
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                prep, scan, out, 2, 80, 1, 4, &bytes, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  for (int64_t m : {1, 2, 4})
    for (int64_t n : {1, 2}) {
      a = withOffsets();
      a.workspace_bytes = bytes;
      a.m = m;
      a.n = n;
      EXPECT_EQ(kda2rt_kda_prefill_query(prep, scan, out, &a, reason,
                                         sizeof(reason)),
                1)
          << m << " " << n << ": " << reason;
    }
  // Refusals, named.
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                prep, scan, out, 2, 80, 1, -1, &bytes, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "m must be >= 0 (the offset checkpoints per sequence, the "
                    "columns of ckpt_offsets; 0: none), got -1");
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                prep, scan, out, 4, 80, 1, int64_t(1) << 29, &bytes, err,
                sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "n = 4 and m = 536870912 make n·m = 2147483648 offset "
                    "checkpoints, more than 2^31 - 1 (the grid.x of "
                    "kda_chunk_ckpt, one program per (sequence, offset))");
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                prep, scan, out, 2, 80, 1, 1, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(err), std::string(fn) + ": bytes is NULL");
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                prep, nullptr, out, 2, 80, 1, 1, &bytes, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(err), std::string(fn) + ": scan_kernel is NULL");
}

TEST_F(FakePrefill, LaunchesFourKernelsWithOffsetCheckpoints) {
  char err[512];
  const uint64_t ws = addr(args.workspace);
  // KdaPrefill.WorkspaceLayout and WorkspaceWithOffsetCheckpoints (n = 2,
  // 80 tokens, h = 1, m = 1).
  const uint64_t us = ws + 247808, kc = ws + 280576, ec = ws + 296960;
  kda2rt_kda_prefill_args a = withOffsets();
  // Three table cases: offsets only, offsets and chunk-boundary
  // checkpoints, then neither (three launches, as before).
  for (int tables = 0; tables < 3; ++tables) {
    const bool boundaries = tables == 1, offsets = tables < 2;
    kda2rt_kda_prefill_args c = offsets ? a : args;
    if (boundaries)
      c.checkpoint_blocks = static_cast<char *>(buffer) + (5 << 20) + 20480;
    fakeClearEvents();
    const int64_t before = fakeLaunches();
    ASSERT_EQ(
        kda2rt_kda_prefill(prep, scan, out, &c, nullptr, err, sizeof(err)),
        KDA2RT_OK)
        << err;
    const int launches = offsets ? 4 : 3;
    EXPECT_EQ(fakeLaunches(), before + launches) << tables;
    FakeEvent none, p, s, k, o;
    EXPECT_FALSE(fakeEvent(launches, none)) << tables; // no memset
    // Launch order: prep, scan, the checkpoint kernel, out.
    ASSERT_TRUE(fakeEvent(launches - 1, p));
    ASSERT_TRUE(fakeEvent(launches - 2, s));
    ASSERT_TRUE(fakeEvent(0, o));
    EXPECT_EQ(p.name, "kda_chunk_prep");
    EXPECT_EQ(s.name, "kda_chunk_scan_h");
    EXPECT_EQ(o.name, "kda_chunk_out");
    // prep: ckpt_offsets, kc, ec, n, m, nm.
    ASSERT_EQ(p.params.size(), 27u);
    EXPECT_EQ(p.params[5],
              addr(offsets ? c.ckpt_offsets : c.state_indices));
    EXPECT_EQ(p.params[17], kc);
    EXPECT_EQ(p.params[18], offsets ? ec : kc);
    EXPECT_EQ(p.params[23], 2u);
    EXPECT_EQ(p.params[24], offsets ? 1u : 0u);
    EXPECT_EQ(p.params[26], offsets ? 2u : 0u);
    // scan: the table, both offset tables, boundaries, ckpt, nc, m, blocks.
    ASSERT_EQ(s.params.size(), 31u);
    EXPECT_EQ(s.params[8],
              addr(boundaries ? c.checkpoint_blocks : c.state_indices));
    EXPECT_EQ(s.params[9], addr(offsets ? c.ckpt_offsets : c.state_indices));
    EXPECT_EQ(s.params[10],
              addr(offsets ? c.offset_blocks : c.state_indices));
    EXPECT_EQ(s.params[11] & 0xFFFFFFFFu, boundaries ? 1u : 0u) << tables;
    EXPECT_EQ(s.params[16], addr(offsets ? c.ckpt : c.pool));
    EXPECT_EQ(s.params[22], boundaries ? 2u : 1u); // nc
    EXPECT_EQ(s.params[23], offsets ? 1u : 0u);    // m
    EXPECT_EQ(s.params[25], offsets ? 8u : 0u);    // blocks
    if (!offsets)
      continue;
    // kda_chunk_ckpt: grid (n·m, h) = (2, 1).
    ASSERT_TRUE(fakeEvent(1, k));
    EXPECT_EQ(k.name, "kda_chunk_ckpt");
    EXPECT_EQ(k.grid[0], 2u);
    EXPECT_EQ(k.grid[1], 1u);
    const uint64_t want[] = {kc,
                             ec,
                             us,
                             addr(c.cu_seqlens),
                             addr(c.state_indices),
                             addr(c.ckpt_offsets),
                             addr(c.offset_blocks),
                             4 /* nslots */,
                             addr(c.ckpt),
                             1 /* h */,
                             2 /* nm */,
                             4 /* ns */,
                             3 /* np1 */,
                             2 /* n */,
                             1 /* m */,
                             8 /* blocks */,
                             kc /* its tensor maps: kc, ec, us */,
                             ec,
                             us};
    ASSERT_EQ(k.params.size(), std::size(want));
    for (size_t i = 0; i < std::size(want); ++i)
      EXPECT_EQ(k.params[i] & (i == 7 ? 0xFFFFFFFFu : ~uint64_t(0)), want[i])
          << "ckpt parameter " << i << ", case " << tables;
  }
  // m = 3 offsets per sequence and h = 2 heads: grid (6, 2).
  size_t bytes = 0;
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                prep, scan, out, 2, 80, 2, 3, &bytes, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  a.m = 3;
  a.h = 2;
  a.workspace_bytes = bytes;
  a.ckpt = static_cast<char *>(buffer) + (24 << 20);
  fakeClearEvents();
  ASSERT_EQ(kda2rt_kda_prefill(prep, scan, out, &a, nullptr, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  FakeEvent k;
  ASSERT_TRUE(fakeEvent(1, k));
  EXPECT_EQ(k.name, "kda_chunk_ckpt");
  EXPECT_EQ(k.grid[0], 6u);
  EXPECT_EQ(k.grid[1], 2u);
}

namespace {
kda2::fake::PrefillBinding withoutOffsets() {
  kda2::fake::PrefillBinding b;
  b.offsets = false;
  return b;
}

/// Kernels of a kda2 before checkpoints at token offsets (no ckpt_offsets,
/// kc, ec, offset_blocks, boundaries).
class FakePrefillBeforeOffsets : public FakePrefillOlder {
protected:
  FakePrefillBeforeOffsets() : FakePrefillOlder(withoutOffsets()) {}
};
} // namespace

TEST_F(FakePrefillBeforeOffsets, RefusedByTheCallTheQueryAndTheSize) {
  expectRefused(
      "kernel 'kda_chunk_prep': has no argument 'ckpt_offsets': a prefill "
      "kernel built before checkpoints at token offsets; rebuild the prefill "
      "kernels from templates/kda_chunk_split.tirx (or "
      "templates/kda_chunk_prep_act.tirx) and templates/kda_chunk_h.tirx, "
      "which take ckpt_offsets (checkpoints at token offsets; kda_chunk_ckpt "
      "completes them)");
}

TEST_F(FakePrefill, OffsetCheckpointRefusalsAgreeWithTheQuery) {
  char err[512], reason[512];
  // A checkpoint kernel of another binding (V-major ckpt) and a kernel of
  // another kind, in a second module.
  kda2::fake::PrefillBinding vk;
  vk.layout = "vk";
  const std::string other = kda2::fake::fakeCubin(
      {{"kda_chunk_ckpt", kda2::fake::prefillCkptMetadata(vk)}});
  kda2rt_module m2 = nullptr;
  kda2rt_kernel ckptVk = nullptr;
  ASSERT_EQ(kda2rt_module_load_data(0, other.data(), other.size(), &m2, err,
                                    sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(kda2rt_kernel_get(m2, "kda_chunk_ckpt", &ckptVk, err, sizeof(err)),
            KDA2RT_OK);
  using A = kda2rt_kda_prefill_args;
  struct Case {
    const char *what;
    std::function<void(A &)> change;
    int code;
    std::string message;
  };
  char *b = static_cast<char *>(buffer);
  const Case cases[] = {
      {"m < 0", [](A &a) { a.m = -1; }, KDA2RT_ERROR_INVALID_ARGUMENT,
       "m must be >= 0 (the offset checkpoints per sequence, the columns of "
       "ckpt_offsets; 0: none), got -1"},
      {"m 0 with tables", [](A &a) { a.m = 0; }, KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'm' is 0 but 'ckpt_offsets' is not NULL: m is the columns "
       "of ckpt_offsets and offset_blocks [n, m] (>= 1 with them)"},
      {"m without tables",
       [](A &a) { a.ckpt_offsets = a.offset_blocks = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'm' is 1 but 'ckpt_offsets' is NULL: m is the columns of "
       "ckpt_offsets and offset_blocks, 0 without them"},
      {"offset_blocks NULL", [](A &a) { a.offset_blocks = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'offset_blocks' is NULL but 'ckpt_offsets' is not: pass "
       "both (checkpoints at token offsets) or neither"},
      {"ckpt_offsets NULL", [](A &a) { a.ckpt_offsets = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'ckpt_offsets' is NULL but 'offset_blocks' is not: pass "
       "both (checkpoints at token offsets) or neither"},
      {"ckpt_kernel NULL", [](A &a) { a.ckpt_kernel = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'ckpt_kernel' is NULL but 'ckpt_offsets' is not: "
       "checkpoints at token offsets need kda_chunk_ckpt (the module of the "
       "scan kernel, templates/kda_chunk_h.tirx)"},
      {"ckpt_kernel without offsets",
       [](A &a) {
         a.ckpt_offsets = a.offset_blocks = nullptr;
         a.m = 0;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'ckpt_kernel' is given but 'ckpt_offsets' is NULL: the "
       "checkpoint kernel runs only for checkpoints at token offsets; pass "
       "NULL without them"},
      {"ckpt_kernel of another kind", [this](A &a) { a.ckpt_kernel = out; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'ckpt_kernel': kernel 'kda_chunk_out' is not a KDA prefill "
       "checkpoint kernel (kda_chunk_ckpt) (no argument 'kc')"},
      {"ckpt_kernel of another layout",
       [ckptVk](A &a) { a.ckpt_kernel = ckptVk; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_chunk_ckpt': declares state 'ckpt' vk but kernel "
       "'kda_chunk_scan_h' declares 'pool' kv; the prefill entry point takes "
       "one layout for the pool and its checkpoints"},
      {"ckpt NULL", [](A &a) { a.ckpt = nullptr; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'ckpt' is NULL but 'ckpt_offsets' is not: checkpoints at "
       "token offsets are written to ckpt"},
      {"blocks 0", [](A &a) { a.blocks = 0; }, KDA2RT_ERROR_INVALID_ARGUMENT,
       "blocks must be positive (the states ckpt holds), got 0"},
      {"misaligned ckpt_offsets",
       [](A &a) {
         a.ckpt_offsets = static_cast<const char *>(a.ckpt_offsets) + 2;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'ckpt_offsets' is not 4-byte aligned (int32 elements)"},
      {"misaligned offset_blocks",
       [](A &a) {
         a.offset_blocks = static_cast<const char *>(a.offset_blocks) + 2;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'offset_blocks' is not 4-byte aligned (int32 elements)"},
      {"workspace without kc, ec",
       [](A &a) { a.workspace_bytes = 280576; }, KDA2RT_ERROR_INVALID_ARGUMENT,
       "workspace_bytes = 280576 is too small: n = 2, total_tokens = 80 and "
       "m = 1 with h = 1 need 297984 bytes "
       "(kda2rt_kda_prefill_workspace_size_offsets with m_max >= m)"},
      {"n·m past 2^31 - 1",
       [](A &a) {
         a.m = int64_t(1) << 30;
         a.workspace_bytes = SIZE_MAX;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "n = 2 and m = 1073741824 make n·m = 2147483648 offset checkpoints, "
       "more than 2^31 - 1 (the grid.x of kda_chunk_ckpt, one program per "
       "(sequence, offset))"},
      {"ckpt_offsets in the pool",
       [](A &a) { a.ckpt_offsets = static_cast<char *>(a.pool) + 4096; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "arguments 'pool' and 'ckpt_offsets' overlap"},
      {"offset_blocks in o",
       [](A &a) { a.offset_blocks = static_cast<char *>(a.o) + 64; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "arguments 'o' and 'offset_blocks' overlap"},
      {"ckpt_offsets in the workspace (ec)",
       [](A &a) {
         a.ckpt_offsets = static_cast<char *>(a.workspace) + 296960;
       },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "arguments 'workspace' and 'ckpt_offsets' overlap"},
      {"offset_blocks in ckpt",
       [b](A &a) { a.offset_blocks = b + (12 << 20) + 1024; },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "arguments 'ckpt' and 'offset_blocks' overlap"},
  };
  const int64_t before = fakeLaunches();
  fakeClearEvents();
  for (const Case &c : cases) {
    A a = withOffsets();
    c.change(a);
    EXPECT_EQ(
        kda2rt_kda_prefill_query(prep, scan, out, &a, reason, sizeof(reason)),
        0)
        << c.what;
    EXPECT_EQ(
        kda2rt_kda_prefill(prep, scan, out, &a, nullptr, err, sizeof(err)),
        c.code)
        << c.what;
    EXPECT_STREQ(reason, err) << c.what;
    // Overlaps by the start of their message; the others whole.
    if (c.message.rfind("arguments '", 0) == 0)
      EXPECT_EQ(std::string(err).rfind(c.message, 0), 0u)
          << c.what << ": " << err;
    else
      EXPECT_EQ(std::string(err), c.message) << c.what;
  }
  EXPECT_EQ(fakeLaunches(), before); // nothing ran
  FakeEvent e;
  EXPECT_FALSE(fakeEvent(0, e));
  kda2rt_module_unload(m2, nullptr, 0);
}

//===----------------------------------------------------------------------===//
// The prepared prefill (KdaPrefillPlan, cached on the prep kernel's handle)
//===----------------------------------------------------------------------===//

namespace {
/// The driver calls of the events since the last fakeClearEvents: fills
/// and launches (name, grid, the first 8 bytes of each parameter) and the
/// arguments of each cuTensorMapEncodeTiled, oldest first, as text.
std::string fakeTrace() {
  std::string t;
  FakeEvent e;
  for (int back = 15; back >= 0; --back) {
    if (!fakeEvent(back, e))
      continue;
    t += e.name + " grid " + std::to_string(e.grid[0]) + "x" +
         std::to_string(e.grid[1]) + "x" + std::to_string(e.grid[2]) + ":";
    for (uint64_t p : e.params)
      t += " " + std::to_string(p);
    t += "\n";
  }
  void *lib = dlopen(KDA2_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
  auto fn = lib ? reinterpret_cast<kda2_fake_cuda_tensor_map_fn>(
                      dlsym(lib, "kda2_fake_cuda_tensor_map"))
                : nullptr;
  uint64_t words[32];
  for (int back = 15; fn && back >= 0; --back) {
    int n = fn(back, words, 32);
    if (n < 0)
      continue;
    t += "map:";
    for (int i = 0; i < n; ++i)
      t += " " + std::to_string(words[i]);
    t += "\n";
  }
  if (lib)
    dlclose(lib);
  return t;
}

KdaPrefillArgs toCpp(const kda2rt_kda_prefill_args &c) {
  KdaPrefillArgs a;
  a.q = c.q;
  a.k = c.k;
  a.v = c.v;
  a.g = c.g;
  a.beta = c.beta;
  a.cuSeqlens = c.cu_seqlens;
  a.stateIndices = c.state_indices;
  a.hasInitialState = c.has_initial_state;
  a.checkpointBlocks = c.checkpoint_blocks;
  a.pool = c.pool;
  a.ckpt = c.ckpt;
  a.o = c.o;
  a.workspace = c.workspace;
  a.workspaceBytes = c.workspace_bytes;
  a.n = c.n;
  a.totalTokens = c.total_tokens;
  a.maxSeqlen = c.max_seqlen;
  a.h = c.h;
  a.kDim = c.k_dim;
  a.vDim = c.v_dim;
  a.slots = c.slots;
  a.blocks = c.blocks;
  a.scale = c.scale;
  a.dtype = c.dtype;
  a.stateDtype = c.state_dtype;
  a.stateLayout = c.state_layout;
  a.gateLowerBound = c.gate_lower_bound;
  a.indexDtype = c.index_dtype;
  a.qStride = c.q_stride;
  a.kStride = c.k_stride;
  a.vStride = c.v_stride;
  a.gStride = c.g_stride;
  a.betaStride = c.beta_stride;
  a.hqk = c.hqk;
  a.aLog = c.A_log;
  a.dtBias = c.dt_bias;
  a.lowerBound = c.lower_bound;
  a.ckptOffsets = c.ckpt_offsets;
  a.offsetBlocks = c.offset_blocks;
  a.m = c.m;
  // ckptKernel: the caller's C++ Kernel for c.ckpt_kernel.
  return a;
}

/// Per-call values of a prefill call (PlanMatches tests): each must reach
/// the kernels through the plan as the general path passes it.
struct PlanChange {
  const char *what;
  void (*change)(kda2rt_kda_prefill_args &, char *);
};
using A = kda2rt_kda_prefill_args;
const PlanChange kPlanChanges[] = {
    {"total_tokens (ns = 2)", [](A &a, char *) { a.total_tokens = 30; }},
    {"no tokens", [](A &a, char *) { a.total_tokens = 0; }},
    {"total_tokens, the same ns", [](A &a, char *) { a.total_tokens = 95; }},
    {"n", [](A &a, char *) { a.n = 1; }},
    {"scale 0 (K^-1/2)", [](A &a, char *) { a.scale = 0; }},
    {"slots", [](A &a, char *) { a.slots = 3; }},
    {"pointers",
     [](A &a, char *b) {
       a.q = b + (11 << 20);
       a.o = b + (13 << 20);
       a.cu_seqlens = b + (5 << 20) + 256;
       a.workspace = static_cast<char *>(a.workspace) + 1024 * 64;
     }},
    {"row strides",
     [](A &a, char *) {
       a.q_stride = 256;
       a.beta_stride = 4;
     }},
    // v's reaches the scans' tensor map of v (its outermost stride) and
    // their sv, not the prep.
    {"v's row stride", [](A &a, char *) { a.v_stride = 256; }},
    {"checkpoints",
     [](A &a, char *b) {
       a.checkpoint_blocks = b + (5 << 20) + 12288;
       a.ckpt = b + (12 << 20);
       a.blocks = 8;
     }},
    {"checkpoints, max_seqlen 20 (nc = 1)",
     [](A &a, char *b) {
       a.checkpoint_blocks = b + (5 << 20) + 12288;
       a.ckpt = b + (12 << 20);
       a.blocks = 8;
       a.max_seqlen = 20;
     }},
};

/// FakePrefill with the same kernels loaded a second time through the C++
/// API, for launchKdaPrefill: the general path the C entry point took
/// before its plan.
class FakePrefillPlan : public FakePrefill {
protected:
  void SetUp() override {
    FakePrefill::SetUp();
    ASSERT_TRUE(Context::create(0, ctx).ok());
    ASSERT_TRUE(Module::loadData(ctx, image.data(), image.size(), cpp).ok());
    const char *names[] = {"kda_chunk_prep", "kda_chunk_scan_h",
                           "kda_chunk_out", "kda_chunk_ckpt"};
    for (int i = 0; i < 3; ++i)
      ASSERT_TRUE(cpp.getKernel(names[i], kernels[i]).ok());
    if (ckptKernel) {
      ASSERT_TRUE(cpp.getKernel(names[3], kernels[3]).ok());
    }
  }
  /// The trace of one call through the C entry point (its plan), with the
  /// state scan and output kernel, or a fused scan and `outKernel` null.
  std::string prepared(const kda2rt_kda_prefill_args &a) {
    return prepared(a, scan, out);
  }
  std::string prepared(const kda2rt_kda_prefill_args &a,
                       kda2rt_kernel scanKernel, kda2rt_kernel outKernel) {
    char err[512];
    fakeClearEvents();
    EXPECT_EQ(kda2rt_kda_prefill(prep, scanKernel, outKernel, &a, nullptr, err,
                                 sizeof(err)),
              KDA2RT_OK)
        << err;
    return fakeTrace();
  }
  /// The trace of the same call through launchKdaPrefill (the C++
  /// checkpoint kernel for a.ckpt_kernel).
  std::string general(const kda2rt_kda_prefill_args &a) {
    return general(a, kernels[1], &kernels[2]);
  }
  std::string general(const kda2rt_kda_prefill_args &a,
                      const Kernel &scanKernel, const Kernel *outKernel) {
    fakeClearEvents();
    KdaPrefillArgs c = toCpp(a);
    c.ckptKernel = a.ckpt_kernel ? &kernels[3] : nullptr;
    Status s = launchKdaPrefill(kernels[0], scanKernel, outKernel, c, nullptr);
    EXPECT_TRUE(s.ok()) << s.message();
    return fakeTrace();
  }
  /// Every kPlanChanges entry changes the general path's trace (`want`,
  /// of args) and the plan makes the same driver calls as it.
  void expectChangesFollowTheGeneralPath(const std::string &want,
                                         kda2rt_kernel scanC,
                                         const Kernel &scanCpp,
                                         kda2rt_kernel outC,
                                         const Kernel *outCpp) {
    char *b = static_cast<char *>(buffer);
    for (const PlanChange &c : kPlanChanges) {
      A a = args;
      c.change(a, b);
      const std::string g = general(a, scanCpp, outCpp);
      EXPECT_NE(g, want) << c.what;
      EXPECT_EQ(prepared(a, scanC, outC), g) << c.what;
    }
  }
  Context ctx;
  Module cpp;
  Kernel kernels[4];
};
} // namespace

TEST_F(FakePrefillPlan, CallsMatchTheGeneralPath) {
  // The first call makes the plan, the second reuses it: both make the
  // general path's driver calls (prep, scan, out; nine maps).
  const std::string want = general(args);
  EXPECT_EQ(std::count(want.begin(), want.end(), '\n'), 3 + 9) << want;
  EXPECT_EQ(prepared(args), want);
  EXPECT_EQ(prepared(args), want);
  // Each per-call value reaches the kernels as the general path passes it.
  expectChangesFollowTheGeneralPath(want, scan, kernels[1], out, &kernels[2]);
  // Without checkpoints max_seqlen reaches no kernel.
  A same = args;
  same.max_seqlen = 20;
  EXPECT_EQ(general(same), want);
  EXPECT_EQ(prepared(same), want);
  // A later call's sizes reach the kernels: tt (prep parameter 19).
  A a = args;
  a.total_tokens = 30;
  prepared(a);
  FakeEvent p;
  ASSERT_TRUE(fakeEvent(2, p));
  ASSERT_EQ(p.name, "kda_chunk_prep");
  EXPECT_EQ(p.params[19], 30u);
}

// Each tensor map is encoded with its metadata line's swizzle
// (CUtensorMapSwizzle: none 0, 32B 1, 64B 2, 128B 3): the scan's kl and wn
// (256-byte rows) 128 bytes, tp (C x C, 64-byte rows) 64, gl and v's
// windows (VB = 8: 16-byte rows) none; the output kernel's qd and hs 128, pb and us 64.
TEST_F(FakePrefillPlan, TensorMapsCarryTheirSwizzle) {
  std::istringstream trace(general(args));
  std::string line, swizzles;
  while (std::getline(trace, line)) {
    if (line.rfind("map:", 0) != 0)
      continue;
    std::istringstream words(line.substr(4));
    uint64_t w[5] = {};
    for (uint64_t &x : w)
      words >> x;
    swizzles += std::to_string(w[4]);
  }
  EXPECT_EQ(swizzles, "332003232");
}

TEST_F(FakePrefillPlan, SecondCallHonoursAChangedHqk) {
  // The plan is made at the first call (hqk 0: h); later calls' hqk reach
  // the prep kernel as the general path passes them.
  groupedHeads(args);
  const std::string first = general(args);
  EXPECT_EQ(prepared(args), first);
  for (int64_t hqk : {2, 4, 0, 1}) {
    kda2rt_kda_prefill_args a = args;
    a.hqk = hqk;
    const std::string g = general(a);
    if (hqk != 0) {
      EXPECT_NE(g, first) << hqk;
    }
    EXPECT_EQ(prepared(a), g) << hqk;
    FakeEvent p;
    ASSERT_TRUE(fakeEvent(2, p));
    ASSERT_EQ(p.name, "kda_chunk_prep");
    EXPECT_EQ(p.params[20], uint64_t(hqk ? hqk : 8)) << hqk;
    EXPECT_EQ(p.params[7], uint64_t((hqk ? hqk : 8) * 128)) << hqk;
  }
  // A refused hqk after the plan exists: the same message, no launch.
  kda2rt_kda_prefill_args a = args;
  a.hqk = 3;
  char err[512];
  int64_t before = fakeLaunches();
  EXPECT_EQ(kda2rt_kda_prefill(prep, scan, out, &a, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "argument 'hqk' is 3: h = 8 must be a multiple of it "
                    "(the q/k heads of grouped value heads; 0: h)");
  EXPECT_EQ(fakeLaunches(), before);
}

TEST_F(FakePrefillPlan, IndexTypeAndCrossModuleKernels) {
  // The IX=i64 kernels, prep from one module and scan/out from another:
  // one plan per (scan, out) pair on the prep handle.
  kda2::fake::PrefillBinding i64;
  i64.ix = "i64";
  std::string image64 = kda2::fake::fakeCubin(
      {{"kda_chunk_prep", kda2::fake::prefillPrepMetadata(i64)},
       {"kda_chunk_scan_h", kda2::fake::prefillScanMetadata(i64)},
       {"kda_chunk_out", kda2::fake::prefillOutMetadata(i64)}});
  char err[512];
  kda2rt_module m64 = nullptr, again = nullptr;
  kda2rt_kernel k64[3] = {}, k2[3] = {};
  const char *names[] = {"kda_chunk_prep", "kda_chunk_scan_h",
                         "kda_chunk_out"};
  ASSERT_EQ(kda2rt_module_load_data(0, image64.data(), image64.size(), &m64,
                                    err, sizeof(err)),
            KDA2RT_OK);
  ASSERT_EQ(kda2rt_module_load_data(0, image.data(), image.size(), &again,
                                    err, sizeof(err)),
            KDA2RT_OK);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(kda2rt_kernel_get(m64, names[i], &k64[i], err, sizeof(err)),
              KDA2RT_OK);
    ASSERT_EQ(kda2rt_kernel_get(again, names[i], &k2[i], err, sizeof(err)),
              KDA2RT_OK);
  }
  const std::string want = general(args);
  // prep of this module, scan and out of the other (same metadata).
  fakeClearEvents();
  ASSERT_EQ(kda2rt_kda_prefill(prep, k2[1], k2[2], &args, nullptr, err,
                               sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeTrace(), want);
  EXPECT_EQ(prepared(args), want); // the first pair's plan
  // int64 indices: refused by the same words, then honoured.
  kda2rt_kda_prefill_args a = args;
  EXPECT_EQ(kda2rt_kda_prefill(k64[0], k64[1], k64[2], &a, nullptr, err,
                               sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "argument 'index_dtype' is NULL (i32) but kernel "
                    "'kda_chunk_prep' reads 'cu_seqlens' as int64 (its IX "
                    "binding)");
  a.index_dtype = "i64";
  fakeClearEvents();
  ASSERT_EQ(kda2rt_kda_prefill(k64[0], k64[1], k64[2], &a, nullptr, err,
                               sizeof(err)),
            KDA2RT_OK)
      << err;
  // The index type changes no launch value: the same driver calls (the
  // int64 state_indices as the scan's table).
  EXPECT_EQ(fakeTrace(), want);
  kda2rt_module_unload(m64, nullptr, 0);
  kda2rt_module_unload(again, nullptr, 0);
}

TEST_F(FakePrefillPlan, AllocationFreeAfterTheFirstCall) {
  char err[512];
  kda2rt_kda_prefill_args withCkpt = args;
  char *b = static_cast<char *>(buffer);
  withCkpt.checkpoint_blocks = b + (5 << 20) + 12288;
  withCkpt.ckpt = b + (12 << 20);
  withCkpt.blocks = 8;
  for (const kda2rt_kda_prefill_args *a : {&args, &withCkpt}) {
    ASSERT_EQ(
        kda2rt_kda_prefill(prep, scan, out, a, nullptr, err, sizeof(err)),
        KDA2RT_OK)
        << err;
    kda2rt_kda_prefill_args c = *a;
    int64_t launches = fakeLaunches();
    int64_t allocations = gAllocations.load();
    for (int i = 0; i < 100; ++i) {
      c.total_tokens = 10 + i % 40; // per-call values, same plan
      ASSERT_EQ(
          kda2rt_kda_prefill(prep, scan, out, &c, nullptr, err, sizeof(err)),
          KDA2RT_OK)
          << err;
    }
    EXPECT_EQ(gAllocations.load() - allocations, 0)
        << "the prefill entry point allocated";
    EXPECT_EQ(fakeLaunches(), launches + 300);
  }
}

TEST_F(FakePrefillPlan, LaterErrorsKeepTheirMessages) {
  char err[512], reason[512];
  ASSERT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_OK)
      << err;
  using A = kda2rt_kda_prefill_args;
  struct Case {
    void (*change)(A &);
    int code;
    const char *message;
  };
  const Case cases[] = {
      {[](A &a) { a.g_stride = 130; }, KDA2RT_ERROR_INVALID_ARGUMENT,
       "argument 'g_stride' is 130: the row stride must be a multiple of 16 "
       "bytes (4 elements of f32)"},
      {[](A &a) { a.workspace_bytes = 1024; }, KDA2RT_ERROR_INVALID_ARGUMENT,
       "workspace_bytes = 1024 is too small: n = 2 and total_tokens = 80 "
       "with h = 1 need 280576 bytes (kda2rt_kda_prefill_workspace_size)"},
      // Worded by the general path (computeLaunchConfig).
      {[](A &a) {
         a.n = 70000;
         a.workspace_bytes = SIZE_MAX;
       },
       KDA2RT_ERROR_LAUNCH_CONFIG,
       "kernel 'kda_chunk_scan_h': grid.y = n(70000) * h(1) = 70000 exceeds "
       "the CUDA limit of 65535"},
      // 2^31 slots (the pool above every other operand): out's i32 nslots.
      {[](A &a) {
         a.slots = int64_t(1) << 31;
         a.pool = static_cast<char *>(const_cast<void *>(a.q)) + (31 << 20);
       },
       KDA2RT_ERROR_INVALID_ARGUMENT,
       "kernel 'kda_chunk_out': scalar argument 'nslots' (i32) needs an "
       "integer in [-2147483648, 2147483647], got 2147483648"},
  };
  const int64_t launches = fakeLaunches();
  for (const Case &c : cases) {
    A a = args;
    c.change(a);
    EXPECT_EQ(
        kda2rt_kda_prefill(prep, scan, out, &a, nullptr, err, sizeof(err)),
        c.code);
    EXPECT_STREQ(err, c.message);
    EXPECT_EQ(kda2rt_kda_prefill_query(prep, scan, out, &a, reason,
                                       sizeof(reason)),
              0);
    EXPECT_STREQ(reason, err);
  }
  EXPECT_EQ(fakeLaunches(), launches);
  // And the next valid call runs.
  ASSERT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), launches + 3);
}

TEST_F(FakePrefillPlan, OffsetCheckpointsMatchTheGeneralPath) {
  // Four launches (prep, scan, kda_chunk_ckpt, out; twelve maps), the same
  // driver calls through the plan (made with the checkpoint kernel at the
  // first call that passes one) and launchKdaPrefill.
  const kda2rt_kda_prefill_args base = withOffsets();
  const std::string want = general(base);
  EXPECT_EQ(std::count(want.begin(), want.end(), '\n'), 4 + 12) << want;
  EXPECT_EQ(prepared(base), want);
  EXPECT_EQ(prepared(base), want);
  using A = kda2rt_kda_prefill_args;
  struct Change {
    const char *what;
    void (*change)(A &, char *);
  };
  const Change changes[] = {
      {"m = 2 (nm = 4)",
       [](A &a, char *) {
         a.m = 2;
         a.workspace_bytes = 1 << 20;
       }},
      {"n = 1 (nm = 1)", [](A &a, char *) { a.n = 1; }},
      {"and boundary checkpoints",
       [](A &a, char *b) { a.checkpoint_blocks = b + (5 << 20) + 20480; }},
      {"blocks", [](A &a, char *) { a.blocks = 3; }},
      {"table pointers",
       [](A &a, char *b) {
         a.ckpt_offsets = b + (5 << 20) + 24576;
         a.offset_blocks = b + (5 << 20) + 28672;
       }},
      {"ckpt", [](A &a, char *b) { a.ckpt = b + (20 << 20); }},
      {"slots (nslots)", [](A &a, char *) { a.slots = 3; }},
  };
  char *b = static_cast<char *>(buffer);
  for (const Change &c : changes) {
    A a = base;
    c.change(a, b);
    const std::string g = general(a);
    EXPECT_NE(g, want) << c.what;
    EXPECT_EQ(prepared(a), g) << c.what;
  }
  // Calls without offsets after it take the same plan, as before.
  const std::string plain = general(args);
  EXPECT_EQ(std::count(plain.begin(), plain.end(), '\n'), 3 + 9) << plain;
  EXPECT_EQ(prepared(args), plain);
  EXPECT_EQ(prepared(base), want);
  // A checkpoint kernel of another handle (the same metadata in a second
  // module): its own plan, the same driver calls.
  char err[512];
  kda2rt_module again = nullptr;
  kda2rt_kernel other = nullptr;
  ASSERT_EQ(kda2rt_module_load_data(0, image.data(), image.size(), &again,
                                    err, sizeof(err)),
            KDA2RT_OK);
  ASSERT_EQ(kda2rt_kernel_get(again, "kda_chunk_ckpt", &other, err,
                              sizeof(err)),
            KDA2RT_OK);
  A a = base;
  a.ckpt_kernel = other;
  EXPECT_EQ(prepared(a), want);
  EXPECT_EQ(prepared(base), want);
  EXPECT_EQ(prepared(args), plain);
  kda2rt_module_unload(again, nullptr, 0);
}

TEST_F(FakePrefillPlan, OffsetCallsAllocateNothingAfterTheFirst) {
  // Calls with and without offsets, interleaved, through one plan: no
  // operator new after the first of each.
  char err[512];
  const kda2rt_kda_prefill_args base = withOffsets();
  for (const kda2rt_kda_prefill_args *a :
       {&base, static_cast<const kda2rt_kda_prefill_args *>(&args)})
    ASSERT_EQ(kda2rt_kda_prefill(prep, scan, out, a, nullptr, err, sizeof(err)),
              KDA2RT_OK)
        << err;
  const int64_t launches = fakeLaunches();
  const int64_t allocations = gAllocations.load();
  for (int i = 0; i < 100; ++i) {
    kda2rt_kda_prefill_args c = i % 2 ? args : base;
    c.total_tokens = 10 + i % 40;
    ASSERT_EQ(
        kda2rt_kda_prefill(prep, scan, out, &c, nullptr, err, sizeof(err)),
        KDA2RT_OK)
        << err;
  }
  EXPECT_EQ(gAllocations.load() - allocations, 0)
      << "the prefill entry point allocated";
  EXPECT_EQ(fakeLaunches(), launches + 50 * 4 + 50 * 3);
}

TEST_F(FakePrefillPlan, CheckpointKernelOfTheCppApi) {
  // launchKdaPrefill and the plan with a checkpoint kernel that is not
  // loaded (a default Kernel): refused by name, nothing launched.
  KdaPrefillArgs a = toCpp(withOffsets());
  Kernel unloaded;
  a.ckptKernel = &unloaded;
  const int64_t before = fakeLaunches();
  KdaPrefillLaunch launch;
  EXPECT_EQ(prepareKdaPrefill(kernels[0], kernels[1], kernels[2], a, launch)
                .message(),
            "argument 'ckpt_kernel': the kernel is not loaded");
  EXPECT_EQ(launchKdaPrefill(kernels[0], kernels[1], kernels[2], a, nullptr)
                .message(),
            "argument 'ckpt_kernel': the kernel is not loaded");
  KdaPrefillPlan plan;
  EXPECT_EQ(KdaPrefillPlan::create(kernels[0], kernels[1], kernels[2],
                                   &unloaded, plan)
                .message(),
            "no prepared prefill launch: a kernel is not loaded");
  EXPECT_FALSE(plan.valid());
  EXPECT_EQ(fakeLaunches(), before);
  // A plan made with the checkpoint kernel launches it; one made without
  // hands an offset call to the general path: the same driver calls.
  a.ckptKernel = &kernels[3];
  const std::string want = general(withOffsets());
  const Kernel *withAndWithout[] = {&kernels[3], nullptr};
  for (const Kernel *ck : withAndWithout) {
    ASSERT_TRUE(
        KdaPrefillPlan::create(kernels[0], kernels[1], kernels[2], ck, plan)
            .ok());
    EXPECT_EQ(plan.ckpt(), ck);
    fakeClearEvents();
    Status s = plan.launch(a, nullptr);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(fakeTrace(), want);
  }
  // The launches of prepareKdaPrefill: the fourth only with offsets.
  ASSERT_TRUE(
      prepareKdaPrefill(kernels[0], kernels[1], kernels[2], a, launch).ok());
  EXPECT_TRUE(launch.withCkpt);
  ASSERT_TRUE(prepareKdaPrefill(kernels[0], kernels[1], kernels[2],
                                toCpp(args), launch)
                  .ok());
  EXPECT_FALSE(launch.withCkpt);
}

//===----------------------------------------------------------------------===//
// Prefill with the fused-output scan: prep and kda_chunk_scan_o, out_kernel
// NULL
//===----------------------------------------------------------------------===//

namespace {
/// FakePrefillPlan with the fused-output scan kda_chunk_scan_o in the same
/// module: the C handle scanO and the C++ kernel fusedScan.
class FakePrefillFused : public FakePrefillPlan {
protected:
  FakePrefillFused() {
    image = kda2::fake::fakeCubin(
        {{"kda_chunk_prep", kda2::fake::prefillPrepMetadata()},
         {"kda_chunk_scan_h", kda2::fake::prefillScanMetadata()},
         {"kda_chunk_scan_o", kda2::fake::prefillScanOMetadata()},
         {"kda_chunk_out", kda2::fake::prefillOutMetadata()},
         {"kda_chunk_ckpt", kda2::fake::prefillCkptMetadata()}});
  }
  void SetUp() override {
    FakePrefillPlan::SetUp();
    if (HasFatalFailure())
      return;
    char err[512];
    ASSERT_EQ(kda2rt_kernel_get(module, "kda_chunk_scan_o", &scanO, err,
                                sizeof(err)),
              KDA2RT_OK)
        << err;
    ASSERT_TRUE(cpp.getKernel("kda_chunk_scan_o", fusedScan).ok());
  }
  std::string preparedFused(const kda2rt_kda_prefill_args &a) {
    return prepared(a, scanO, nullptr);
  }
  std::string generalFused(const kda2rt_kda_prefill_args &a) {
    return general(a, fusedScan, nullptr);
  }
  /// Loads a module of one fused scan of metadata `scanMetadata` into
  /// `m` and returns its handle.
  kda2rt_kernel otherScan(const std::string &scanMetadata, kda2rt_module &m) {
    char err[512];
    const std::string one =
        kda2::fake::fakeCubin({{"kda_chunk_scan_o", scanMetadata}});
    kda2rt_kernel k = nullptr;
    EXPECT_EQ(kda2rt_module_load_data(0, one.data(), one.size(), &m, err,
                                      sizeof(err)),
              KDA2RT_OK)
        << err;
    EXPECT_EQ(kda2rt_kernel_get(m, "kda_chunk_scan_o", &k, err, sizeof(err)),
              KDA2RT_OK)
        << err;
    return k;
  }
  kda2rt_kernel scanO = nullptr;
  Kernel fusedScan;
};

} // namespace

TEST_F(FakePrefillFused, LaunchesPrepThenTheFusedScan) {
  char err[512];
  const uint64_t ws = addr(args.workspace);
  // KdaPrefill.WorkspaceLayout without hs (0 bytes): us moves down to
  // where hs was, kc and ec after it at 149504.
  const uint64_t qd = ws, kl = ws + 32768, wn = ws + 65536, tp = ws + 98304,
                 pb = ws + 106496, gl = ws + 114688, us = ws + 116736,
                 kc = ws + 149504;
  args.workspace_bytes = 149504; // the fused size is enough
  fakeClearEvents();
  const int64_t before = fakeLaunches();
  ASSERT_EQ(kda2rt_kda_prefill(prep, scanO, nullptr, &args, nullptr, err,
                               sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_STREQ(err, "");
  // Two launches, prep then the fused scan: no out, no memset.
  EXPECT_EQ(fakeLaunches(), before + 2);
  FakeEvent none, p, s;
  EXPECT_FALSE(fakeEvent(2, none));
  ASSERT_TRUE(fakeEvent(1, p));
  ASSERT_TRUE(fakeEvent(0, s));
  EXPECT_EQ(p.name, "kda_chunk_prep");
  EXPECT_EQ(p.grid[0], 4u); // ns
  EXPECT_EQ(p.grid[1], 1u); // h
  ASSERT_EQ(p.params.size(), 27u);
  const uint64_t prepBuffers[] = {qd, kl, wn, tp, pb, gl, kc, kc};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(p.params[11 + i], prepBuffers[i]) << "prep parameter " << 11 + i;
  // kda_chunk_scan_o: grid (NVB = 16, n·h); its pointers in `arg` order
  // (the fake tensor maps carry their tensor's address). No checkpoints:
  // state_indices as the table and both offset tables, boundaries = 0,
  // the pool as ckpt, nc = 1, m = 0, blocks = 0.
  EXPECT_EQ(s.name, "kda_chunk_scan_o");
  EXPECT_EQ(s.grid[0], 16u);
  EXPECT_EQ(s.grid[1], 2u);
  const uint64_t scanWant[] = {addr(args.v),
                               qd,
                               kl,
                               wn,
                               tp,
                               pb,
                               gl,
                               addr(args.cu_seqlens),
                               addr(args.state_indices),
                               addr(args.has_initial_state),
                               addr(args.state_indices) /* table */,
                               addr(args.state_indices) /* ckpt_offsets */,
                               addr(args.state_indices) /* offset_blocks */,
                               0 /* boundaries */,
                               128 /* sv: h·V */,
                               addr(args.pool),
                               addr(args.o),
                               us,
                               addr(args.pool) /* ckpt */,
                               80 /* tt */,
                               1 /* h */,
                               4 /* ns */,
                               3 /* np1 */,
                               2 /* n */,
                               1 /* nc */,
                               0 /* m */,
                               4 /* slots */,
                               0 /* blocks */,
                               qd,
                               kl,
                               wn,
                               tp,
                               pb,
                               gl,
                               addr(args.v)};
  ASSERT_EQ(s.params.size(), std::size(scanWant));
  for (size_t i = 0; i < std::size(scanWant); ++i)
    EXPECT_EQ(s.params[i] & (i == 13 ? 0xFFFFFFFFu : ~uint64_t(0)),
              scanWant[i])
        << "scan parameter " << i;

  // Offsets and boundary checkpoints: prep, the scan, then kda_chunk_ckpt
  // (grid (n·m, h)), which reads the fused scan's us; still no out.
  kda2rt_kda_prefill_args a = withOffsets();
  a.checkpoint_blocks = static_cast<char *>(buffer) + (5 << 20) + 20480;
  a.workspace_bytes = 166912; // 149504 + kc 16384 + ec 1024
  fakeClearEvents();
  ASSERT_EQ(
      kda2rt_kda_prefill(prep, scanO, nullptr, &a, nullptr, err, sizeof(err)),
      KDA2RT_OK)
      << err;
  EXPECT_EQ(fakeLaunches(), before + 5);
  FakeEvent k;
  EXPECT_FALSE(fakeEvent(3, none));
  ASSERT_TRUE(fakeEvent(2, p));
  ASSERT_TRUE(fakeEvent(1, s));
  ASSERT_TRUE(fakeEvent(0, k));
  EXPECT_EQ(p.name, "kda_chunk_prep");
  EXPECT_EQ(s.name, "kda_chunk_scan_o");
  EXPECT_EQ(k.name, "kda_chunk_ckpt");
  EXPECT_EQ(p.params[17], kc);
  EXPECT_EQ(p.params[18], kc + 16384); // ec
  ASSERT_EQ(s.params.size(), std::size(scanWant));
  for (size_t i = 0; i < std::size(scanWant); ++i)
    EXPECT_EQ(s.params[i] & (i == 13 ? 0xFFFFFFFFu : ~uint64_t(0)),
              i == 10   ? addr(a.checkpoint_blocks)
              : i == 11 ? addr(a.ckpt_offsets)
              : i == 12 ? addr(a.offset_blocks)
              : i == 13 ? 1u /* boundaries */
              : i == 18 ? addr(a.ckpt)
              : i == 24 ? 2u /* nc */
              : i == 25 ? 1u /* m */
              : i == 27 ? 8u /* blocks */
                        : scanWant[i])
        << "scan parameter " << i;
  EXPECT_EQ(k.grid[0], 2u);
  EXPECT_EQ(k.grid[1], 1u);
  ASSERT_EQ(k.params.size(), 19u); // 16, then the maps of kc, ec, us
  EXPECT_EQ(k.params[0], kc);
  EXPECT_EQ(k.params[1], kc + 16384);
  EXPECT_EQ(k.params[2], us);
  EXPECT_EQ(k.params[8], addr(a.ckpt));
}

TEST_F(FakePrefillFused, WorkspaceSizeHoldsNoHs) {
  char err[512], reason[512];
  size_t bytes = 0;
  // hs ([h, ns, V, K] bf16: 4 · 32768 bytes here) is not in it.
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size(prep, scanO, nullptr, 2, 80, 1,
                                              &bytes, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(bytes, 149504u);
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, out, 2, 80, 1,
                                              &bytes, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(bytes, 280576u); // the three-kernel path's, unchanged
  const struct {
    int64_t h, m;
    size_t want;
  } sizes[] = {{1, 0, 149504},
               {1, 1, 166912},
               {3, 5, 3 * 149504 + 245760 + 15360},
               {2, 0, 2 * 149504}};
  for (const auto &c : sizes) {
    ASSERT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                  prep, scanO, nullptr, 2, 80, c.h, c.m, &bytes, err,
                  sizeof(err)),
              KDA2RT_OK)
        << err;
    EXPECT_EQ(bytes, c.want) << c.h << " " << c.m;
  }
  // The call checks the smaller size: exactly it passes, a byte less is
  // refused by name and launches nothing.
  args.workspace_bytes = 149504;
  EXPECT_EQ(kda2rt_kda_prefill_query(prep, scanO, nullptr, &args, reason,
                                     sizeof(reason)),
            1)
      << reason;
  args.workspace_bytes = 149503;
  const char *small = "workspace_bytes = 149503 is too small: n = 2 and "
                      "total_tokens = 80 with h = 1 need 149504 bytes "
                      "(kda2rt_kda_prefill_workspace_size)";
  const int64_t before = fakeLaunches();
  EXPECT_EQ(kda2rt_kda_prefill(prep, scanO, nullptr, &args, nullptr, err,
                               sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, small);
  EXPECT_EQ(kda2rt_kda_prefill_query(prep, scanO, nullptr, &args, reason,
                                     sizeof(reason)),
            0);
  EXPECT_STREQ(reason, small);
  EXPECT_EQ(fakeLaunches(), before);
}

TEST_F(FakePrefillFused, OutputKernelMustGoWithTheScan) {
  char err[512], reason[512];
  size_t bytes = 7;
  const int64_t before = fakeLaunches();
  // A fused scan with an output kernel: refused by out_kernel everywhere.
  const char *notWithFused =
      "argument 'out_kernel': kernel 'kda_chunk_out' is given, but scan "
      "kernel 'kda_chunk_scan_o' is a fused-output scan (kda_chunk_scan_o: "
      "it takes o, qd and pb and writes o itself); pass NULL as out_kernel "
      "with it (kda_chunk_out runs only after kda_chunk_scan_h)";
  EXPECT_EQ(
      kda2rt_kda_prefill(prep, scanO, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, notWithFused);
  EXPECT_EQ(kda2rt_kda_prefill_query(prep, scanO, out, &args, reason,
                                     sizeof(reason)),
            0);
  EXPECT_STREQ(reason, notWithFused);
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size(prep, scanO, out, 2, 80, 1,
                                              &bytes, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, notWithFused);
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size_offsets(
                prep, scanO, out, 2, 80, 1, 1, &bytes, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, notWithFused);
  EXPECT_EQ(bytes, 7u);
  // kda_chunk_scan_h with a NULL out_kernel: the NULL-handle refusal of
  // the three-kernel path, as before (the query answers -1).
  EXPECT_EQ(kda2rt_kda_prefill(prep, scan, nullptr, &args, nullptr, err,
                               sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kda2rt_kda_prefill: out_kernel is NULL");
  EXPECT_EQ(kda2rt_kda_prefill_query(prep, scan, nullptr, &args, reason,
                                     sizeof(reason)),
            -1);
  EXPECT_STREQ(reason, "kda2rt_kda_prefill_query: out_kernel is NULL");
  EXPECT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, nullptr, 2, 80, 1,
                                              &bytes, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kda2rt_kda_prefill_workspace_size: out_kernel is NULL");
  // NULL prep and scan handles are named first, as before.
  EXPECT_EQ(kda2rt_kda_prefill(prep, nullptr, nullptr, &args, nullptr, err,
                               sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kda2rt_kda_prefill: scan_kernel is NULL");
  EXPECT_EQ(kda2rt_kda_prefill(nullptr, scanO, nullptr, &args, nullptr, err,
                               sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kda2rt_kda_prefill: prep_kernel is NULL");
  EXPECT_EQ(kda2rt_kda_prefill_query(prep, scanO, nullptr, nullptr, reason,
                                     sizeof(reason)),
            -1);
  EXPECT_STREQ(reason, "kda2rt_kda_prefill_query: args is NULL");
  // The C++ entry points word both mismatches by out_kernel.
  const char *scanHNeedsOut =
      "argument 'out_kernel' is NULL, but scan kernel 'kda_chunk_scan_h' is "
      "a state scan that writes hs, not o (kda_chunk_scan_h); pass "
      "kda_chunk_out as out_kernel, or the fused-output scan "
      "kda_chunk_scan_o as scan_kernel with out_kernel NULL";
  const KdaPrefillArgs a = toCpp(args);
  EXPECT_EQ(launchKdaPrefill(kernels[0], kernels[1], nullptr, a, nullptr)
                .message(),
            scanHNeedsOut);
  EXPECT_EQ(launchKdaPrefill(kernels[0], fusedScan, kernels[2], a, nullptr)
                .message(),
            notWithFused);
  KdaPrefillLaunch launch;
  EXPECT_EQ(prepareKdaPrefill(kernels[0], kernels[1], nullptr, a, launch)
                .message(),
            scanHNeedsOut);
  KdaPrefillPlan plan;
  EXPECT_EQ(
      KdaPrefillPlan::create(kernels[0], kernels[1], nullptr, nullptr, plan)
          .message(),
      scanHNeedsOut);
  EXPECT_FALSE(plan.valid());
  EXPECT_EQ(KdaPrefillPlan::create(kernels[0], fusedScan, &kernels[2],
                                   nullptr, plan)
                .message(),
            notWithFused);
  EXPECT_FALSE(plan.valid());
  EXPECT_EQ(fakeLaunches(), before);
}

TEST_F(FakePrefillFused, MistypedScanIsRefused) {
  // Fused scans whose o, qd, pb or us do not agree with the prep kernel:
  // the call, the query and the size name the argument; nothing runs.
  const std::string scanO = kda2::fake::prefillScanOMetadata();
  const std::pair<std::string, const char *> cases[] = {
      {kda2::test::replaced(scanO, "arg ptr o bf16", "arg ptr o f16"),
       "kernel 'kda_chunk_scan_o': argument 'o' is f16, expected bf16 (the "
       "input type of kernel 'kda_chunk_prep')"},
      {kda2::test::replaced(scanO, "arg ptr qd bf16", "arg ptr qd f16"),
       "kernel 'kda_chunk_scan_o': argument 'qd' is f16, expected bf16 (the "
       "input type of kernel 'kda_chunk_prep')"},
      {kda2::test::replaced(scanO, "arg ptr pb bf16 in 4 h ns",
                    "arg ptr pb bf16 in 4 h nsv"),
       "kernel 'kda_chunk_scan_o': argument 'pb' is [h, nsv, 32, 32], "
       "expected [h, ns, ..] (per head and chunk slot)"},
      {kda2::test::replaced(scanO, "arg ptr us bf16 out 4 h ns 128 32",
                    "arg ptr us bf16 out 4 h ns 32 128"),
       "kernel 'kda_chunk_scan_o': argument 'us' ends in [.., 32, 128], "
       "expected [.., 128, 32] (C = 32, K = 128, V = 128 of kernel "
       "'kda_chunk_prep')"},
  };
  char err[512], reason[512];
  const int64_t before = fakeLaunches();
  for (const auto &[metadata, want] : cases) {
    kda2rt_module m = nullptr;
    kda2rt_kernel bad = otherScan(metadata, m);
    ASSERT_NE(bad, nullptr) << want;
    EXPECT_EQ(kda2rt_kda_prefill(prep, bad, nullptr, &args, nullptr, err,
                                 sizeof(err)),
              KDA2RT_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(err, want);
    EXPECT_EQ(kda2rt_kda_prefill_query(prep, bad, nullptr, &args, reason,
                                       sizeof(reason)),
              0);
    EXPECT_STREQ(reason, want);
    size_t bytes = 0;
    EXPECT_EQ(kda2rt_kda_prefill_workspace_size(prep, bad, nullptr, 2, 80, 1,
                                                &bytes, err, sizeof(err)),
              KDA2RT_ERROR_INVALID_ARGUMENT);
    EXPECT_STREQ(err, want);
    kda2rt_module_unload(m, nullptr, 0);
  }
  EXPECT_EQ(fakeLaunches(), before);
}

TEST_F(FakePrefillFused, PlanMatchesTheGeneralPath) {
  // Two launches and seven maps (qd, kl, wn, tp, pb, gl, vc of the scan),
  // the same driver calls through the plan and launchKdaPrefill.
  const std::string want = generalFused(args);
  EXPECT_EQ(std::count(want.begin(), want.end(), '\n'), 2 + 7) << want;
  EXPECT_EQ(want.find("kda_chunk_out"), std::string::npos) << want;
  EXPECT_EQ(preparedFused(args), want);
  EXPECT_EQ(preparedFused(args), want);
  expectChangesFollowTheGeneralPath(want, scanO, fusedScan, nullptr, nullptr);
  // Offset checkpoints: three launches (the checkpoint kernel's three maps).
  const std::string offsets = generalFused(withOffsets());
  EXPECT_EQ(std::count(offsets.begin(), offsets.end(), '\n'), 3 + 10)
      << offsets;
  EXPECT_EQ(preparedFused(withOffsets()), offsets);
  // The three-kernel path on the same prep handle keeps its own plan.
  const std::string split = general(args);
  EXPECT_EQ(std::count(split.begin(), split.end(), '\n'), 3 + 9) << split;
  EXPECT_EQ(prepared(args), split);
  EXPECT_EQ(preparedFused(args), want);
  EXPECT_EQ(prepared(args), split);
  // A C++ plan of prep and the fused scan (no out).
  KdaPrefillPlan plan;
  Status s =
      KdaPrefillPlan::create(kernels[0], fusedScan, nullptr, &kernels[3], plan);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(plan.out(), nullptr);
  EXPECT_EQ(plan.scan(), &fusedScan);
  KdaPrefillArgs c = toCpp(withOffsets());
  c.ckptKernel = &kernels[3];
  fakeClearEvents();
  s = plan.launch(c, nullptr);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(fakeTrace(), offsets);
  // No allocation after the first call of each kind.
  char err[512];
  const int64_t launches = fakeLaunches();
  const int64_t allocations = gAllocations.load();
  for (int i = 0; i < 100; ++i) {
    A a = args;
    a.total_tokens = 10 + i % 40;
    ASSERT_EQ(kda2rt_kda_prefill(prep, scanO, nullptr, &a, nullptr, err,
                                 sizeof(err)),
              KDA2RT_OK)
        << err;
  }
  EXPECT_EQ(gAllocations.load() - allocations, 0)
      << "the fused prefill allocated";
  EXPECT_EQ(fakeLaunches(), launches + 200);
}

TEST(FakeKernel, PrefillRefusesAKernelWithoutARangeOfG) {
  kda2::fake::PrefillBinding noRange;
  noRange.range = "";
  std::string image = kda2::fake::fakeCubin(
      {{"kda_chunk_prep", kda2::fake::prefillPrepMetadata(noRange)},
       {"kda_chunk_scan_h", kda2::fake::prefillScanMetadata()},
       {"kda_chunk_out", kda2::fake::prefillOutMetadata()}});
  kda2rt_module module = nullptr;
  kda2rt_kernel k[3] = {};
  char err[512], reason[512];
  ASSERT_EQ(kda2rt_module_load_data(0, image.data(), image.size(), &module, err,
                                    sizeof(err)),
            KDA2RT_OK)
      << err;
  const char *names[] = {"kda_chunk_prep", "kda_chunk_scan_h", "kda_chunk_out"};
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(kda2rt_kernel_get(module, names[i], &k[i], err, sizeof(err)),
              KDA2RT_OK);
  kda2rt_kda_prefill_args a = {};
  a.k_dim = a.v_dim = 128;
  a.state_layout = "kv";
  a.gate_lower_bound = -1;
  const char *want = "kernel 'kda_chunk_prep' does not declare the range of "
                     "g it is safe for (no 'range g' line in its metadata); "
                     "rebuild it with a kda2 that records it";
  EXPECT_EQ(
      kda2rt_kda_prefill_query(k[0], k[1], k[2], &a, reason, sizeof(reason)),
      0);
  EXPECT_STREQ(reason, want);
  EXPECT_EQ(kda2rt_kda_prefill(k[0], k[1], k[2], &a, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, want);
  kda2rt_module_unload(module, nullptr, 0);
}

//===----------------------------------------------------------------------===//
// The activation prep (templates/kda_chunk_prep_act.tirx): A_log, dt_bias
// and lower_bound through kda2rt_kda_prefill, by its `bind` lines
//===----------------------------------------------------------------------===//

namespace {
/// The metadata of the real activation prep, compiled at build time from
/// templates/kda_chunk_prep_act.tirx (GF=2, AL=1, DB=1, BS=1, QKN=1, K=V=128,
/// C=32, HC=16, VB=8, NVB=16; unittests/Runtime/CMakeLists.txt) by
/// `kda2-translate --kda2-to-metadata`.
std::string realMetadata(const char *name) {
  std::ifstream in(std::string(KDA2_REAL_METADATA_DIR) + "/" + name + ".meta");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The activation prep's parameter slots (its metadata's order).
enum PrepActParam : size_t {
  kActG = 2,
  kActALog = 4,
  kActDtBias = 5,
  kActCkptOffsets = 7,
  kActScale = 8,
  kActLowerBound = 9,
  kActParams = 30
};

float floatParam(uint64_t slot) {
  float f;
  std::memcpy(&f, &slot, sizeof(f));
  return f;
}

std::string prefillImage(const std::string &prepMetadata) {
  return kda2::fake::fakeCubin(
      {{"kda_chunk_prep", prepMetadata},
       {"kda_chunk_scan_h", kda2::fake::prefillScanMetadata()},
       {"kda_chunk_out", kda2::fake::prefillOutMetadata()}});
}

/// FakePrefillPlan with an activation prep of gate family `gf` (BS = 1,
/// QKN = 1) and a call that passes A_log [1] and dt_bias [1, 128].
class FakePrefillAct : public FakePrefillPlan {
protected:
  explicit FakePrefillAct(int gf = 2, int al = 1, int db = 1) {
    kda2::fake::PrepActBinding b;
    b.gf = gf;
    b.al = al;
    b.db = db;
    image = prefillImage(kda2::fake::prefillPrepActMetadata(b));
  }
  void SetUp() override {
    FakePrefillPlan::SetUp();
    char *b = static_cast<char *>(buffer);
    args.A_log = b + (5 << 20) + 16384;
    args.dt_bias = b + (5 << 20) + 20480;
    args.lower_bound = -5;
  }
  /// The prep launch of the last call (prep, scan, out).
  std::vector<uint64_t> prepParams() {
    FakeEvent p;
    EXPECT_TRUE(fakeEvent(2, p));
    EXPECT_EQ(p.name, "kda_chunk_prep");
    return p.params;
  }
  /// A refused call: the call and the query give `message`, nothing runs.
  void refused(const kda2rt_kda_prefill_args &a, const std::string &message,
               const char *what) {
    char err[512], reason[512];
    const int64_t before = fakeLaunches();
    EXPECT_EQ(
        kda2rt_kda_prefill(prep, scan, out, &a, nullptr, err, sizeof(err)),
        KDA2RT_ERROR_INVALID_ARGUMENT)
        << what;
    EXPECT_EQ(std::string(err), message) << what;
    EXPECT_EQ(
        kda2rt_kda_prefill_query(prep, scan, out, &a, reason, sizeof(reason)),
        0)
        << what;
    EXPECT_STREQ(reason, err) << what;
    EXPECT_EQ(fakeLaunches(), before) << what;
  }
  /// An accepted call: the query says yes and both paths make the same
  /// driver calls; returns the prep launch's parameters.
  std::vector<uint64_t> accepted(const kda2rt_kda_prefill_args &a,
                                 const char *what) {
    char reason[512] = "stale";
    EXPECT_EQ(
        kda2rt_kda_prefill_query(prep, scan, out, &a, reason, sizeof(reason)),
        1)
        << what << ": " << reason;
    EXPECT_STREQ(reason, "") << what;
    const std::string g = general(a);
    EXPECT_EQ(prepared(a), g) << what;
    return prepParams();
  }
};
class FakePrefillActGF1 : public FakePrefillAct {
protected:
  FakePrefillActGF1() : FakePrefillAct(1) {}
};
class FakePrefillActGF0 : public FakePrefillAct {
protected:
  FakePrefillActGF0() : FakePrefillAct(0) {}
};
/// GF 1 built without A_log (AL = 0: the gate lower_bound·sigmoid(g +
/// dt_bias)), and without either (AL = DB = 0).
class FakePrefillActNoALog : public FakePrefillAct {
protected:
  FakePrefillActNoALog() : FakePrefillAct(1, 0, 1) {}
};
class FakePrefillActNoGateInputs : public FakePrefillAct {
protected:
  FakePrefillActNoGateInputs() : FakePrefillAct(1, 0, 0) {}
};
} // namespace

TEST(KdaPrefillAct, FakeHelperIsTheRealKernelsMetadata) {
  const std::string real = realMetadata("prep_act");
  ASSERT_FALSE(real.empty()) << "no " KDA2_REAL_METADATA_DIR "/prep_act.meta";
  EXPECT_EQ(kda2::fake::prefillPrepActMetadata(), real);
}

TEST_F(FakePrefillAct, GateInputsReachThePrepKernel) {
  // GF 2: A_log, dt_bias and lower_bound (passed, unread) in their slots,
  // the same through the plan and launchKdaPrefill.
  const std::string want = general(args);
  EXPECT_EQ(std::count(want.begin(), want.end(), '\n'), 3 + 9) << want;
  EXPECT_EQ(prepared(args), want);
  EXPECT_EQ(prepared(args), want); // the plan again
  std::vector<uint64_t> p = prepParams();
  ASSERT_EQ(p.size(), size_t(kActParams));
  EXPECT_EQ(p[0], addr(args.q));
  EXPECT_EQ(p[kActG], addr(args.g));
  EXPECT_EQ(p[3], addr(args.beta));
  EXPECT_EQ(p[kActALog], addr(args.A_log));
  EXPECT_EQ(p[kActDtBias], addr(args.dt_bias));
  EXPECT_EQ(p[6], addr(args.cu_seqlens));
  EXPECT_EQ(p[kActCkptOffsets], addr(args.state_indices)); // m = 0
  EXPECT_EQ(floatParam(p[kActScale]), 0.125f);
  EXPECT_EQ(floatParam(p[kActLowerBound]), -5.0f);
  EXPECT_EQ(p[10], 128u); // sq, dense
  EXPECT_EQ(p[22], 80u);  // tt
  // Each new value reaches the kernel as the general path passes it.
  char *b = static_cast<char *>(buffer);
  struct Change {
    const char *what;
    void (*change)(kda2rt_kda_prefill_args &, char *);
  };
  const Change changes[] = {
      {"A_log", [](kda2rt_kda_prefill_args &a,
                   char *b) { a.A_log = b + (5 << 20) + 24576; }},
      {"dt_bias", [](kda2rt_kda_prefill_args &a,
                     char *b) { a.dt_bias = b + (5 << 20) + 28672; }},
      {"lower_bound",
       [](kda2rt_kda_prefill_args &a, char *) { a.lower_bound = -0.25; }},
  };
  for (const Change &c : changes) {
    kda2rt_kda_prefill_args a = args;
    c.change(a, b);
    p = accepted(a, c.what);
    EXPECT_NE(general(a), want) << c.what;
    ASSERT_EQ(p.size(), size_t(kActParams)) << c.what;
    EXPECT_EQ(p[kActALog], addr(a.A_log)) << c.what;
    EXPECT_EQ(p[kActDtBias], addr(a.dt_bias)) << c.what;
    EXPECT_EQ(floatParam(p[kActLowerBound]), float(a.lower_bound)) << c.what;
  }
  // The gate is computed in the kernel: gate_lower_bound is not checked
  // (the kernel needs no bound), whatever it is, NaN included.
  for (double gate : {double(NAN), -double(INFINITY), 3.0}) {
    kda2rt_kda_prefill_args a = args;
    a.gate_lower_bound = gate;
    accepted(a, "gate_lower_bound");
    EXPECT_EQ(general(a), want);
  }
}

TEST_F(FakePrefillAct, GateInputsAreChecked) {
  using A = kda2rt_kda_prefill_args;
  A a = args;
  a.A_log = nullptr;
  refused(a, "argument 'A_log' is NULL", "A_log NULL");
  a = args;
  a.dt_bias = nullptr;
  refused(a, "argument 'dt_bias' is NULL", "dt_bias NULL");
  a = args;
  a.A_log = static_cast<const char *>(args.A_log) + 2;
  refused(a, "argument 'A_log' is not 4-byte aligned (f32 elements)",
          "A_log misaligned");
  a = args;
  a.dt_bias = static_cast<const char *>(args.dt_bias) + 1;
  refused(a, "argument 'dt_bias' is not 4-byte aligned (f32 elements)",
          "dt_bias misaligned");
  // An old operand's check comes first (the order of the old fields).
  a = args;
  a.A_log = nullptr;
  a.beta = nullptr;
  refused(a, "argument 'beta' is NULL", "beta before A_log");
  // Overlaps with what the call writes, by the operands' extents: A_log
  // h·4 bytes, dt_bias h·K·4.
  char *o = static_cast<char *>(args.o);
  char *pool = static_cast<char *>(args.pool);
  char *ws = static_cast<char *>(args.workspace);
  auto prefixed = [&](A c, const std::string &prefix, const char *what) {
    char err[512], reason[512];
    const int64_t before = fakeLaunches();
    EXPECT_EQ(
        kda2rt_kda_prefill(prep, scan, out, &c, nullptr, err, sizeof(err)),
        KDA2RT_ERROR_INVALID_ARGUMENT)
        << what;
    EXPECT_EQ(std::string(err).rfind(prefix, 0), 0u) << what << ": " << err;
    EXPECT_EQ(
        kda2rt_kda_prefill_query(prep, scan, out, &c, reason, sizeof(reason)),
        0)
        << what;
    EXPECT_STREQ(reason, err) << what;
    EXPECT_EQ(fakeLaunches(), before) << what;
  };
  a = args;
  a.A_log = o + 64;
  prefixed(a, "arguments 'o' and 'A_log' overlap (o at ", "A_log in o");
  a = args;
  a.dt_bias = pool - 256; // its 512 bytes reach into the pool
  prefixed(a, "arguments 'pool' and 'dt_bias' overlap (pool at ",
           "dt_bias into pool");
  a = args;
  a.A_log = ws + 1024;
  prefixed(a, "arguments 'workspace' and 'A_log' overlap (workspace at ",
           "A_log in workspace");
  a = args;
  a.checkpoint_blocks = static_cast<char *>(buffer) + (5 << 20) + 12288;
  a.ckpt = static_cast<char *>(buffer) + (12 << 20);
  a.blocks = 8;
  accepted(a, "checkpoints");
  a.dt_bias = static_cast<char *>(a.ckpt) + 4096;
  prefixed(a, "arguments 'ckpt' and 'dt_bias' overlap (ckpt at ",
           "dt_bias in ckpt");
  // Just outside: A_log's 4 bytes end where o starts, dt_bias's 512 where
  // the pool starts; inputs may share memory (A_log inside g).
  a = args;
  a.A_log = o - 4;
  a.dt_bias = pool - 512;
  accepted(a, "adjacent");
  a.A_log = args.g;
  accepted(a, "A_log inside g");
}

TEST_F(FakePrefillActGF1, LowerBoundMustBeFiniteAndNotPositive) {
  const std::string tail =
      ": kernel 'kda_chunk_prep' computes the gate "
      "lower_bound·sigmoid(exp(A_log)·(g + dt_bias)) (GF 1), which needs a "
      "finite lower_bound <= 0 (in f32: >= -3.40282e+38)";
  struct Bad {
    double value;
    const char *shown;
  };
  for (const Bad &bad : {Bad{NAN, "NaN"}, Bad{INFINITY, "inf"},
                         Bad{-INFINITY, "-inf"}, Bad{0.5, "0.5"},
                         Bad{-1e300, "-1e+300"}}) {
    kda2rt_kda_prefill_args a = args;
    a.lower_bound = bad.value;
    refused(a, std::string("argument 'lower_bound' is ") + bad.shown + tail,
            bad.shown);
  }
  for (double lb : {0.0, -5.0, -1e30}) {
    kda2rt_kda_prefill_args a = args;
    a.lower_bound = lb;
    std::vector<uint64_t> p = accepted(a, "lower_bound");
    ASSERT_EQ(p.size(), size_t(kActParams));
    EXPECT_EQ(floatParam(p[kActLowerBound]), float(lb)) << lb;
  }
  // A_log and dt_bias are read: required.
  kda2rt_kda_prefill_args a = args;
  a.dt_bias = nullptr;
  refused(a, "argument 'dt_bias' is NULL", "dt_bias NULL");
  // gate_lower_bound is ignored.
  a = args;
  a.gate_lower_bound = NAN;
  accepted(a, "gate_lower_bound NaN");
}

TEST_F(FakePrefillActGF0, GivenGateNeedsNoGateInputs) {
  // GF 0: g is the log decay, A_log and dt_bias are not read and may be
  // NULL; the kernel gets g in their place. lower_bound is not read.
  kda2rt_kda_prefill_args a = args;
  a.A_log = nullptr;
  a.dt_bias = nullptr;
  a.lower_bound = NAN;
  std::vector<uint64_t> p = accepted(a, "NULL A_log, dt_bias");
  ASSERT_EQ(p.size(), size_t(kActParams));
  EXPECT_EQ(p[kActALog], addr(args.g));
  EXPECT_EQ(p[kActDtBias], addr(args.g));
  // Given, they are passed as they are (unchecked: never read).
  a.A_log = static_cast<const char *>(args.A_log) + 2;
  a.dt_bias = args.dt_bias;
  p = accepted(a, "given");
  EXPECT_EQ(p[kActALog], addr(a.A_log));
  EXPECT_EQ(p[kActDtBias], addr(a.dt_bias));
  // The gate bound is checked against the kernel's range g [-inf, inf]:
  // any value passes, NaN does not.
  a.gate_lower_bound = -INFINITY;
  accepted(a, "gate_lower_bound -inf");
  a.gate_lower_bound = NAN;
  refused(a,
          "gate_lower_bound is NaN: give the lowest per-step log decay the "
          "gate can produce (-inf when unbounded)",
          "gate_lower_bound NaN");
}

TEST_F(FakePrefillActNoALog, OptionalALog) {
  // AL = 0: A_log is not read and may be NULL (g fills its parameter);
  // dt_bias still is, and a NULL one is refused by name.
  kda2rt_kda_prefill_args a = args;
  a.A_log = nullptr;
  std::vector<uint64_t> p = accepted(a, "NULL A_log");
  ASSERT_EQ(p.size(), size_t(kActParams));
  EXPECT_EQ(p[kActALog], addr(args.g));
  EXPECT_EQ(p[kActDtBias], addr(args.dt_bias));
  a.dt_bias = nullptr;
  refused(a, "argument 'dt_bias' is NULL", "NULL dt_bias");
  // An unread A_log overlapping the output is no conflict.
  a = args;
  a.A_log = args.o;
  accepted(a, "A_log on o");
}

TEST_F(FakePrefillActNoGateInputs, NeitherGateInputIsRead) {
  kda2rt_kda_prefill_args a = args;
  a.A_log = nullptr;
  a.dt_bias = nullptr;
  std::vector<uint64_t> p = accepted(a, "NULL A_log and dt_bias");
  EXPECT_EQ(p[kActALog], addr(args.g));
  EXPECT_EQ(p[kActDtBias], addr(args.g));
  // lower_bound is still the family-1 bound.
  a.lower_bound = NAN;
  refused(a,
          "argument 'lower_bound' is NaN: kernel 'kda_chunk_prep' computes "
          "the gate lower_bound·sigmoid(exp(A_log)·(g + dt_bias)) (GF 1), "
          "which needs a finite lower_bound <= 0 (in f32: >= -3.40282e+38)",
          "lower_bound NaN");
}

TEST_F(FakePrefillAct, AllocationFreeAfterTheFirstCall) {
  char err[512];
  ASSERT_EQ(
      kda2rt_kda_prefill(prep, scan, out, &args, nullptr, err, sizeof(err)),
      KDA2RT_OK)
      << err;
  kda2rt_kda_prefill_args c = args;
  const int64_t launches = fakeLaunches();
  const int64_t allocations = gAllocations.load();
  for (int i = 0; i < 100; ++i) {
    c.total_tokens = 10 + i % 40;
    c.lower_bound = -1.0 - i;
    ASSERT_EQ(kda2rt_kda_prefill(prep, scan, out, &c, nullptr, err, sizeof(err)),
              KDA2RT_OK)
        << err;
  }
  EXPECT_EQ(gAllocations.load() - allocations, 0)
      << "the prefill entry point allocated";
  EXPECT_EQ(fakeLaunches(), launches + 300);
}

TEST_F(FakePrefillPlan, OldPrepIgnoresTheActivationFields) {
  // A prep kernel without A_log never reads the new fields: garbage there
  // changes nothing (31 parameters, the same driver calls).
  const std::string want = general(args);
  kda2rt_kda_prefill_args a = args;
  a.A_log = reinterpret_cast<const void *>(uintptr_t(3));
  a.dt_bias = args.o; // would overlap o if it were checked
  a.lower_bound = NAN;
  char reason[512];
  EXPECT_EQ(
      kda2rt_kda_prefill_query(prep, scan, out, &a, reason, sizeof(reason)),
      1)
      << reason;
  EXPECT_EQ(general(a), want);
  EXPECT_EQ(prepared(a), want);
  FakeEvent p;
  ASSERT_TRUE(fakeEvent(2, p));
  EXPECT_EQ(p.params.size(), 27u);
}

TEST(FakeKernel, PrefillActivationPrepMetadataIsChecked) {
  // Prep kernels with A_log whose metadata the entry point cannot use:
  // refused by the query, the call and the workspace size alike.
  const auto edit = kda2::test::replaced;
  const std::string real = kda2::fake::prefillPrepActMetadata();
  kda2::fake::PrepActBinding noGF, noBindings;
  noGF.gf = -1;
  noBindings.bindings = false;
  const std::string noGFMessage =
      "kernel 'kda_chunk_prep': takes A_log (an activation prep) but records "
      "no gate family (no 'bind GF' line in its metadata); rebuild it with a "
      "kda2 that records its bindings";
  const std::string notAct =
      "argument 'prep_kernel': kernel 'kda_chunk_prep' is not a KDA prefill "
      "activation prep kernel (kda_chunk_prep with A_log) ";
  auto gfMessage = [](const char *gf) {
    return std::string("kernel 'kda_chunk_prep': was built with gate family "
                       "GF = ") +
           gf +
           " (its 'bind GF' line); the prefill entry point knows GF 0 (g is "
           "the log decay), 1 (lower_bound·sigmoid) and 2 "
           "(−exp(A_log)·softplus)";
  };
  struct Case {
    const char *what;
    std::string metadata, message;
  };
  const Case cases[] = {
      {"no bind GF", kda2::fake::prefillPrepActMetadata(noGF), noGFMessage},
      {"no bindings", kda2::fake::prefillPrepActMetadata(noBindings),
       noGFMessage},
      {"GF 3", edit(real, "bind GF 2", "bind GF 3"), gfMessage("3")},
      {"GF -1", edit(real, "bind GF 2", "bind GF -1"), gfMessage("-1")},
      {"no dt_bias", edit(real, "arg ptr dt_bias f32 in 2 h 128\n", ""),
       notAct + "(no argument 'dt_bias')"},
      {"no lower_bound", edit(real, "arg scalar lower_bound f32\n", ""),
       notAct + "(no f32 scalar argument 'lower_bound')"},
      {"f64 lower_bound",
       edit(real, "arg scalar lower_bound f32", "arg scalar lower_bound f64"),
       notAct + "(no f32 scalar argument 'lower_bound')"},
      {"bf16 A_log", edit(real, "arg ptr A_log f32", "arg ptr A_log bf16"),
       "kernel 'kda_chunk_prep': argument 'A_log' is bf16, expected f32"},
      {"dt_bias [h, 64]",
       edit(real, "arg ptr dt_bias f32 in 2 h 128", "arg ptr dt_bias f32 in 2 h 64"),
       "kernel 'kda_chunk_prep': argument 'dt_bias' ends in [.., 64], "
       "expected [.., 128] (C = 32, K = 128, V = 128 of kernel "
       "'kda_chunk_prep')"},
  };
  const char *names[] = {"kda_chunk_prep", "kda_chunk_scan_h", "kda_chunk_out"};
  for (const Case &c : cases) {
    const std::string image = prefillImage(c.metadata);
    kda2rt_module module = nullptr;
    kda2rt_kernel k[3] = {};
    char err[512], reason[512];
    ASSERT_EQ(kda2rt_module_load_data(0, image.data(), image.size(), &module,
                                      err, sizeof(err)),
              KDA2RT_OK)
        << c.what << ": " << err;
    for (int i = 0; i < 3; ++i)
      ASSERT_EQ(kda2rt_kernel_get(module, names[i], &k[i], err, sizeof(err)),
                KDA2RT_OK)
          << c.what;
    kda2rt_kda_prefill_args a = {};
    a.k_dim = a.v_dim = 128;
    a.state_layout = "kv";
    EXPECT_EQ(
        kda2rt_kda_prefill_query(k[0], k[1], k[2], &a, reason, sizeof(reason)),
        0)
        << c.what;
    EXPECT_EQ(std::string(reason), c.message) << c.what;
    EXPECT_EQ(
        kda2rt_kda_prefill(k[0], k[1], k[2], &a, nullptr, err, sizeof(err)),
        KDA2RT_ERROR_INVALID_ARGUMENT)
        << c.what;
    EXPECT_EQ(std::string(err), c.message) << c.what;
    size_t bytes = 0;
    EXPECT_EQ(kda2rt_kda_prefill_workspace_size(k[0], k[1], k[2], 2, 80, 1,
                                                &bytes, err, sizeof(err)),
              KDA2RT_ERROR_INVALID_ARGUMENT)
        << c.what;
    EXPECT_EQ(std::string(err), c.message) << c.what;
    kda2rt_module_unload(module, nullptr, 0);
  }
}

//===----------------------------------------------------------------------===//
// Ready flags (kernels built with RDY=1)
//===----------------------------------------------------------------------===//

namespace {
/// The metadata block of kernel `name` in real metadata file `file`.
std::string realKernelBlock(const char *file, const std::string &name) {
  const std::string all = realMetadata(file);
  const std::string head = "kda2-kernel-v1\nname " + name + "\n";
  size_t at = all.find(head);
  size_t end = at == std::string::npos ? at : all.find("\nend\n", at);
  return end == std::string::npos ? "" : all.substr(at, end + 5 - at);
}

/// The parameter slot of pointer `arg` in `metadata` (-1: none): `arg`
/// lines in order, the dims and counters after the named arguments, the
/// tensor maps last (the runtime's parameter order).
int paramSlot(const std::string &metadata, const std::string &arg) {
  std::istringstream lines(metadata);
  std::string line;
  int slot = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("arg ", 0) != 0)
      continue;
    if (line.rfind("arg ptr " + arg + " ", 0) == 0)
      return slot;
    ++slot;
  }
  return -1;
}

KernelInfo parsedInfo(const std::string &text) {
  KernelInfo info;
  Status st = parseKernelMetadata(text, info);
  EXPECT_TRUE(st.ok()) << st.message();
  return info;
}

int64_t fakeMemsets32(uint64_t &dst, unsigned &value, uint64_t &count) {
  return callFakeHook<kda2_fake_cuda_memsets32_fn>(
      "kda2_fake_cuda_memsets32", int64_t(-1), &dst, &value, &count);
}
} // namespace

TEST(FakePrefillReady, ClearsTheFlagsThenLaunchesTheScanAsDependent) {
  // The real prep and split-key scan built with RDY=1: every call clears
  // the [h, ns] flags in the workspace (cuMemsetD32Async on the call's
  // stream), then launches the prep, then the scan as the prep's
  // programmatic dependent (cuLaunchKernelEx), both given the flags'
  // address; through the C entry point (its prepared plan) and
  // launchKdaPrefill (the general path) alike.
  ASSERT_EQ(kUseFakeDriver, 0);
  const std::string prepMeta =
      realKernelBlock("chunk_split_rdy", "kda_chunk_prep");
  const std::string scanMeta =
      realKernelBlock("chunk_h_rdy", "kda_chunk_scan_ok");
  ASSERT_FALSE(prepMeta.empty() || scanMeta.empty());
  const std::string image = kda2::fake::fakeCubin(
      {{"kda_chunk_prep", prepMeta}, {"kda_chunk_scan_ok", scanMeta}});
  char err[512];
  kda2rt_module module = nullptr;
  kda2rt_kernel prep = nullptr, scan = nullptr;
  ASSERT_EQ(kda2rt_module_load_data(0, image.data(), image.size(), &module,
                                    err, sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(kda2rt_kernel_get(module, "kda_chunk_prep", &prep, err,
                              sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(kda2rt_kernel_get(module, "kda_chunk_scan_ok", &scan, err,
                              sizeof(err)),
            KDA2RT_OK)
      << err;
  void *buffer = nullptr;
  ASSERT_EQ(kda2rt_mem_alloc(0, 32 << 20, &buffer, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  kda2rt_kda_prefill_args args = fakePrefillArgs(buffer);
  const uintptr_t w = reinterpret_cast<uintptr_t>(args.workspace);
  size_t bytes = 0;
  ASSERT_EQ(kda2rt_kda_prefill_workspace_size(prep, scan, nullptr, 2, 80, 1,
                                              &bytes, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  args.workspace_bytes = bytes;
  // Poison the flags: the call must clear them.
  KdaPrefillWorkspace ws;
  ASSERT_TRUE(kdaPrefillWorkspace(parsedInfo(prepMeta), parsedInfo(scanMeta),
                                  nullptr,
                                  2, 80, 1, 0, ws)
                  .ok());
  ASSERT_EQ(ws.bytes, bytes);
  const uint64_t flags = w + ws.offset[KdaPrefillWorkspace::READY];
  ASSERT_EQ(ws.size[KdaPrefillWorkspace::READY], 16u); // h·ns = 4 flags
  const int prepSlot = paramSlot(prepMeta, "ready");
  const int scanSlot = paramSlot(scanMeta, "ready");
  ASSERT_GE(prepSlot, 0);
  ASSERT_GE(scanSlot, 0);
  auto expectCall = [&](const char *path, auto &&call) {
    std::memset(reinterpret_cast<void *>(flags), 0x5a, 16);
    uint64_t dst = 0, count = 0;
    unsigned value = 1;
    const int64_t memsets = fakeMemsets32(dst, value, count);
    const int64_t launches = fakeLaunches();
    const int64_t dependents = fakeProgrammaticLaunches();
    fakeClearEvents();
    call();
    EXPECT_EQ(fakeMemsets32(dst, value, count), memsets + 1) << path;
    EXPECT_EQ(dst, flags) << path;
    EXPECT_EQ(value, 0u) << path;
    EXPECT_EQ(count, 4u) << path;
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(reinterpret_cast<const uint32_t *>(flags)[i], 0u) << path;
    EXPECT_EQ(fakeLaunches(), launches + 2) << path;
    EXPECT_EQ(fakeProgrammaticLaunches(), dependents + 1) << path;
    FakeEvent p, s;
    ASSERT_TRUE(fakeEvent(1, p)) << path;
    ASSERT_TRUE(fakeEvent(0, s)) << path;
    EXPECT_EQ(p.name, "kda_chunk_prep") << path;
    EXPECT_EQ(s.name, "kda_chunk_scan_ok") << path;
    ASSERT_GT(p.params.size(), size_t(prepSlot)) << path;
    ASSERT_GT(s.params.size(), size_t(scanSlot)) << path;
    EXPECT_EQ(p.params[prepSlot], flags) << path;
    EXPECT_EQ(s.params[scanSlot], flags) << path;
  };
  expectCall("C entry point", [&] {
    EXPECT_EQ(kda2rt_kda_prefill(prep, scan, nullptr, &args, nullptr, err,
                                 sizeof(err)),
              KDA2RT_OK)
        << err;
  });
  Context ctx;
  Module cpp;
  Kernel kernels[2];
  ASSERT_TRUE(Context::create(0, ctx).ok());
  ASSERT_TRUE(Module::loadData(ctx, image.data(), image.size(), cpp).ok());
  ASSERT_TRUE(cpp.getKernel("kda_chunk_prep", kernels[0]).ok());
  ASSERT_TRUE(cpp.getKernel("kda_chunk_scan_ok", kernels[1]).ok());
  expectCall("launchKdaPrefill", [&] {
    Status st = launchKdaPrefill(kernels[0], kernels[1], nullptr, toCpp(args),
                                 nullptr);
    EXPECT_TRUE(st.ok()) << st.message();
  });
  kda2rt_mem_free(0, buffer, nullptr, 0);
  kda2rt_module_unload(module, nullptr, 0);
}
