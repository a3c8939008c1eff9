//===- GpuTest.cpp - load and launch a hand-written PTX kernel ------------===//
//
// Skipped (GTEST_SKIP) when the CUDA driver cannot be loaded or there is no
// device. The kernel __kda2_test_fill writes out[i] = value + i for i < N and
// counts the written elements in counter slot 0; its metadata global
// __kda2_meta___kda2_test_fill is a PTX byte array, as the compiler emits it.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Bundle.h"
#include "kda2/Runtime/CudaDriver.h"
#include "kda2/Runtime/Module.h"
#include "kda2/Runtime/kda2rt.h"

#include "gtest/gtest.h"

#include <cstring>
#include <string>
#include <vector>

using namespace kda2::runtime;

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)             \
      << "message: " << (haystack) << "\nexpected to contain: " << (needle)

namespace {

const char *kFillMeta = "kda2-kernel-v1\n"
                        "name __kda2_test_fill\n"
                        "block 128 1 1\n"
                        "grid.x 2 NB\n"
                        "grid.y\n"
                        "smem 0\n"
                        "arg ptr out f32 out 1 N\n"
                        "arg scalar value f32\n"
                        "arg dim N\n"
                        "arg counters 1\n"
                        "counter written i64\n"
                        "end\n";

const char *kFillBody = R"(
.visible .entry __kda2_test_fill(
	.param .u64 p_out,
	.param .f32 p_value,
	.param .u64 p_n,
	.param .u64 p_counters)
{
	.reg .pred %p<2>;
	.reg .b32 %r<5>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<10>;

	ld.param.u64 %rd1, [p_out];
	ld.param.f32 %f1, [p_value];
	ld.param.u64 %rd2, [p_n];
	ld.param.u64 %rd3, [p_counters];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	cvt.u64.u32 %rd4, %r4;
	setp.ge.u64 %p1, %rd4, %rd2;
	@%p1 bra DONE;
	cvt.rn.f32.u32 %f2, %r4;
	add.f32 %f3, %f1, %f2;
	cvta.to.global.u64 %rd5, %rd1;
	shl.b64 %rd6, %rd4, 2;
	add.s64 %rd7, %rd5, %rd6;
	st.global.f32 [%rd7], %f3;
	cvta.to.global.u64 %rd8, %rd3;
	atom.global.add.u64 %rd9, [%rd8], 1;
DONE:
	ret;
}

.visible .entry plain_kernel()
{
	ret;
}
)";

/// `text` as a PTX byte-array initializer, NUL included.
std::string byteArray(const std::string &text) {
  std::string init = "{";
  for (unsigned char c : text)
    init += std::to_string(static_cast<unsigned>(c)) + ", ";
  return init + "0}";
}

/// The test module; `linkage` is ".visible .global" or ".global".
std::string fillPtx(const std::string &linkage) {
  std::string meta = kFillMeta;
  return ".version 7.0\n.target sm_60\n.address_size 64\n\n" + linkage +
         " .align 1 .b8 __kda2_meta___kda2_test_fill[" +
         std::to_string(meta.size() + 1) + "] = " + byteArray(meta) + ";\n" +
         kFillBody;
}

class GpuTest : public ::testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    const Driver *driver = nullptr;
    Status s = Driver::get(driver);
    if (!s.ok())
      GTEST_SKIP() << "no usable CUDA driver: " << s.message();
    int count = 0;
    s = Context::deviceCount(count);
    if (!s.ok() || count == 0)
      GTEST_SKIP() << "no CUDA device: " << s.message();
    s = Context::create(0, ctx);
    ASSERT_TRUE(s.ok()) << s.message();
    ptx = fillPtx(GetParam());
  }

  Context ctx;
  std::string ptx;
};

} // namespace

TEST_P(GpuTest, LoadsPtxAndLaunchesFill) {
  Module m;
  Status s = Module::loadData(ctx, ptx.data(), ptx.size(), m);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(m.kernelNames(), std::vector<std::string>{"__kda2_test_fill"});

  Kernel k;
  s = m.getKernel("__kda2_test_fill", k);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(k.metadataText(), kFillMeta);
  EXPECT_EQ(k.info().block[0], 128u);
  ASSERT_EQ(k.info().counters.size(), 1u);

  const int64_t n = 1000;
  CUdeviceptr out = 0, counters = 0;
  ASSERT_TRUE(ctx.allocate(n * sizeof(float), out).ok());
  ASSERT_TRUE(ctx.allocate(sizeof(uint64_t), counters).ok());
  std::vector<float> host(n, -1.0f);
  uint64_t zero = 0;
  ASSERT_TRUE(ctx.copyToDevice(out, host.data(), n * sizeof(float)).ok());
  ASSERT_TRUE(ctx.copyToDevice(counters, &zero, sizeof(zero)).ok());

  LaunchArgs args;
  args.ptr("out", out).ptr("counters", counters);
  args.scalar("value", 1.5).dim("N", n).dim("NB", 8);
  LaunchConfig cfg;
  s = k.launch(args, nullptr, &cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cfg.grid[0], 8u);
  s = ctx.synchronize(nullptr);
  ASSERT_TRUE(s.ok()) << s.message();

  ASSERT_TRUE(ctx.copyToHost(host.data(), out, n * sizeof(float)).ok());
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(host[i], 1.5f + static_cast<float>(i)) << "at " << i;
  std::vector<CounterValue> values;
  s = k.readCounters(counters, values);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(values.size(), 1u);
  EXPECT_EQ(values[0].name, "written");
  EXPECT_EQ(values[0].asInt(), n);
  EXPECT_EQ(values[0].asDouble(), static_cast<double>(n));

  EXPECT_TRUE(ctx.free(out).ok());
  EXPECT_TRUE(ctx.free(counters).ok());
  EXPECT_TRUE(m.unload().ok());
}

TEST_P(GpuTest, KernelErrors) {
  Module m;
  Status s = Module::loadData(ctx, ptx.data(), ptx.size(), m);
  ASSERT_TRUE(s.ok()) << s.message();
  Kernel k;
  s = m.getKernel("nope", k);
  EXPECT_EQ(s.code(), ErrorCode::NotFound);
  EXPECT_EQ(s.message(), "kernel 'nope' not found in module; available: "
                         "__kda2_test_fill");
  s = m.getKernel("plain_kernel", k);
  EXPECT_EQ(s.code(), ErrorCode::NotFound);
  EXPECT_CONTAINS(s.message(), "kernel 'plain_kernel' has no metadata global "
                               "'__kda2_meta_plain_kernel'");
  EXPECT_FALSE(k.valid());

  // Argument errors are reported before anything reaches the driver.
  ASSERT_TRUE(m.getKernel("__kda2_test_fill", k).ok());
  LaunchArgs args;
  args.dim("N", 4).dim("NB", 1).scalar("value", 0.0);
  s = k.launch(args);
  EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
  EXPECT_CONTAINS(s.message(), "missing pointer argument 'out'");
}

TEST_P(GpuTest, BundleDispatchesTimesAndCounts) {
  // A bundle of one PTX image (PTX loads on any chip): op "fill" dispatching
  // on N, with a specialisation for N <= 64 and the generic kernel.
  int major = 0, minor = 0;
  ASSERT_TRUE(ctx.computeCapability(major, minor).ok());
  std::string chip = "sm_" + std::to_string(major) + std::to_string(minor);
  kda2rt_bundle_image images[] = {
      {"fill.ptx", chip.c_str(), ptx.data(), ptx.size()}};
  kda2rt_bundle_entry entries[] = {
      {"fill", "N", chip.c_str(), "__kda2_test_fill", 1, 64, 0, 0},
      {"fill", "N", chip.c_str(), "__kda2_test_fill", 0, 0, 1, 0}};
  kda2rt_bundle_desc desc = {KDA2RT_BUNDLE_ABI_VERSION,
                             GetParam()[1] == 'v' ? "gpu_fill_v" : "gpu_fill",
                             1, images, 2, entries};
  Bundle *bundle = nullptr;
  Status s = registerBundle(&desc, bundle);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(bundle->setProfiling(true, true).ok());

  const int64_t n = 1000;
  CUdeviceptr out = 0;
  ASSERT_TRUE(ctx.allocate(n * sizeof(float), out).ok());
  for (int64_t size : {n, int64_t(10)}) {
    LaunchArgs args;
    args.ptr("out", out).scalar("value", 0.5).dim("N", size).dim("NB", 8);
    s = bundle->launch(0, "fill", args, nullptr);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  LaunchArgs noN;
  noN.ptr("out", out).scalar("value", 0.5).dim("NB", 8);
  EXPECT_CONTAINS(bundle->launch(0, "fill", noN, nullptr).message(),
                  "dispatches on dimension 'N'");
  CallStats stats;
  s = bundle->stats("fill", stats);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(stats.calls, 2);
  EXPECT_EQ(stats.timedCalls, 2);
  EXPECT_GT(stats.gpuMsTotal, 0.0);
  EXPECT_LE(stats.gpuMsMin, stats.gpuMsMax);
  EXPECT_GT(stats.hostUsTotal, 0.0);
  std::vector<CounterValue> counters;
  s = bundle->readCounters("fill", counters);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(counters.size(), 1u); // both entries share the kernel's name
  EXPECT_EQ(counters[0].name, "written");
  EXPECT_EQ(counters[0].asInt(), n + 10);
  ASSERT_TRUE(bundle->resetStats().ok());
  ASSERT_TRUE(bundle->readCounters("fill", counters).ok());
  EXPECT_EQ(counters[0].asInt(), 0);

  // The state pool on the device: zeroed states, usage, eviction.
  std::unique_ptr<StateManager> states;
  std::unique_ptr<DeviceAllocator> allocator = makeContextAllocator(ctx);
  StateManagerOptions options;
  options.layout = {2, 64, 64, DType::F32, false};
  options.budgetBytes = 4 * 2 * 2 * 64 * 64 * 4;
  ASSERT_TRUE(StateManager::create(*allocator, options, states).ok());
  int64_t ids[4] = {1, 2, 3, 4};
  StateView view;
  ASSERT_TRUE(states->createBatch(ids, 4, view).ok());
  std::vector<float> host(4 * 2 * 64 * 64, 1.0f);
  ASSERT_TRUE(ctx.copyToHost(host.data(), view.read,
                             host.size() * sizeof(float))
                  .ok());
  for (float f : host)
    ASSERT_EQ(f, 0.0f);
  EXPECT_CONTAINS(states->create(5, view).message(), "state budget exceeded");
  EXPECT_TRUE(states->clear().ok());
  EXPECT_EQ(states->bytesInUse(), 0u);

  EXPECT_TRUE(ctx.free(out).ok());
  EXPECT_TRUE(unregisterBundle(bundle).ok());
}

INSTANTIATE_TEST_SUITE_P(Linkage, GpuTest,
                         ::testing::Values(".visible .global", ".global"),
                         [](const ::testing::TestParamInfo<const char *> &i) {
                           return std::string(i.param[1] == 'v' ? "Visible"
                                                                : "Plain");
                         });

class GpuOnlyTest : public ::testing::Test {
protected:
  void SetUp() override {
    const Driver *driver = nullptr;
    Status s = Driver::get(driver);
    if (!s.ok())
      GTEST_SKIP() << "no usable CUDA driver: " << s.message();
    int count = 0;
    if (!Context::deviceCount(count).ok() || count == 0)
      GTEST_SKIP() << "no CUDA device";
    s = Context::create(0, ctx);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  Context ctx;
};

TEST_F(GpuOnlyTest, DeviceQueries) {
  int major = 0, minor = 0;
  Status s = ctx.computeCapability(major, minor);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_GE(major, 3);
  std::string name;
  ASSERT_TRUE(ctx.name(name).ok());
  EXPECT_FALSE(name.empty());
  EXPECT_EQ(ctx.ordinal(), 0);

  Context bad;
  s = Context::create(9999, bad);
  EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
  EXPECT_CONTAINS(s.message(), "CUDA device 9999 does not exist");
}

TEST_F(GpuOnlyTest, InvalidImageNamesCudaError) {
  const char garbage[] = "\x7f"
                         "ELF this is not a cubin";
  Module m;
  Status s = Module::loadData(ctx, garbage, sizeof(garbage), m);
  EXPECT_EQ(s.code(), ErrorCode::Cuda);
  EXPECT_CONTAINS(s.message(), "cuModuleLoadData");
  EXPECT_CONTAINS(s.message(), "failed: CUDA_ERROR_");
  EXPECT_FALSE(m.loaded());
}

TEST_F(GpuOnlyTest, BadPtxShowsJitLog) {
  std::string bad = ".version 7.0\n.target sm_60\n.address_size 64\n"
                    ".visible .entry broken()\n{\n\tbogus.instruction;\n}\n";
  Module m;
  Status s = Module::loadData(ctx, bad.data(), bad.size(), m);
  EXPECT_EQ(s.code(), ErrorCode::Cuda);
  EXPECT_CONTAINS(s.message(), "CUDA_ERROR_INVALID_PTX");
  EXPECT_CONTAINS(s.message(), "JIT log:");
}

TEST_F(GpuOnlyTest, MissingFileIsIoError) {
  Module m;
  Status s = Module::loadFile(ctx, "/nonexistent/kernel.cubin", m);
  EXPECT_EQ(s.code(), ErrorCode::Io);
  EXPECT_CONTAINS(s.message(), "cannot open module file "
                               "'/nonexistent/kernel.cubin'");
}

TEST_F(GpuOnlyTest, CApiEndToEnd) {
  char err[1024];
  ASSERT_EQ(kda2rt_init(0, err, sizeof(err)), KDA2RT_OK) << err;
  int count = 0;
  ASSERT_EQ(kda2rt_device_count(&count, err, sizeof(err)), KDA2RT_OK) << err;
  EXPECT_GE(count, 1);

  std::string ptx = fillPtx(".visible .global");
  kda2rt_module m = nullptr;
  ASSERT_EQ(kda2rt_module_load_data(0, ptx.data(), ptx.size(), &m, err,
                                    sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(kda2rt_module_num_kernels(m), 1);
  EXPECT_STREQ(kda2rt_module_kernel_name(m, 0), "__kda2_test_fill");
  EXPECT_EQ(kda2rt_module_kernel_name(m, 1), nullptr);

  kda2rt_kernel k = nullptr, k2 = nullptr;
  ASSERT_EQ(kda2rt_kernel_get(m, "__kda2_test_fill", &k, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(kda2rt_kernel_get(m, "__kda2_test_fill", &k2, err, sizeof(err)),
            KDA2RT_OK);
  EXPECT_EQ(k, k2);
  EXPECT_EQ(kda2rt_kernel_get(m, "nope", &k2, err, sizeof(err)),
            KDA2RT_ERROR_NOT_FOUND);
  EXPECT_STREQ(err, "kernel 'nope' not found in module; available: "
                    "__kda2_test_fill");
  EXPECT_STREQ(kda2rt_kernel_metadata(k), kFillMeta);
  ASSERT_EQ(kda2rt_kernel_num_counters(k), 1);
  EXPECT_STREQ(kda2rt_kernel_counter_name(k, 0), "written");
  EXPECT_EQ(kda2rt_kernel_counter_is_float(k, 0), 0);

  const int64_t n = 300;
  void *out = nullptr, *counters = nullptr;
  ASSERT_EQ(kda2rt_mem_alloc(0, n * sizeof(float), &out, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(kda2rt_mem_alloc(0, 8, &counters, err, sizeof(err)), KDA2RT_OK);
  uint64_t zero = 0;
  ASSERT_EQ(kda2rt_memcpy_htod(0, counters, &zero, 8, err, sizeof(err)),
            KDA2RT_OK);

  const char *ptrNames[] = {"out", "counters"};
  void *ptrs[] = {out, counters};
  const char *dimNames[] = {"N", "NB"};
  const int64_t dims[] = {n, 3};
  const char *scalarNames[] = {"value"};
  const double scalars[] = {-2.0};
  ASSERT_EQ(kda2rt_launch(k, ptrNames, ptrs, 2, dimNames, dims, 2,
                          scalarNames, scalars, 1, nullptr, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  ASSERT_EQ(kda2rt_stream_synchronize(0, nullptr, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  std::vector<float> host(n);
  ASSERT_EQ(kda2rt_memcpy_dtoh(0, host.data(), out, n * sizeof(float), err,
                               sizeof(err)),
            KDA2RT_OK);
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(host[i], -2.0f + static_cast<float>(i)) << "at " << i;
  double values[1] = {0};
  int64_t raw[1] = {0};
  ASSERT_EQ(kda2rt_read_counters(k, counters, values, raw, 1, err,
                                 sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_EQ(values[0], static_cast<double>(n));
  EXPECT_EQ(raw[0], n);
  EXPECT_EQ(kda2rt_read_counters(k, counters, values, raw, 0, err,
                                 sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);

  // A null pointer is named, and nothing is launched.
  void *nullPtrs[] = {nullptr, counters};
  EXPECT_EQ(kda2rt_launch(k, ptrNames, nullPtrs, 2, dimNames, dims, 2,
                          scalarNames, scalars, 1, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "pointer argument 'out' is null");

  EXPECT_EQ(kda2rt_mem_free(0, out, err, sizeof(err)), KDA2RT_OK);
  EXPECT_EQ(kda2rt_mem_free(0, counters, err, sizeof(err)), KDA2RT_OK);
  EXPECT_EQ(kda2rt_module_unload(m, err, sizeof(err)), KDA2RT_OK) << err;
}
