//===- HostOverheadBench.cpp - host time of the typed launch paths --------===//
//
// Google Benchmark of libkda2rt's host-side cost per decode call, on the
// fake driver (FakeCuda.h: cuLaunchKernel only counts), so it runs without
// a GPU and measures the runtime alone: dispatch, route and state-pool
// lookups, argument checks, parameter packing. Compare:
//   BundleDecode        kda2rt_bundle_kda_decode (cached route + prepared
//   launch) BundleDecodeTimed   the same with CUDA-event timing on (pooled
//   events) BundleDecodeStep    kda2rt_bundle_decode_step of 64 sequences (pool
//   lookup) KernelDecodePlan    KdaDecodePlan::launch alone KernelDecodeGeneric
//   launchKdaDecode: LaunchArgs by name + computeLaunchConfig
//                       (the path every decode call took before the plan)
//   CApiDecode          kda2rt_kda_decode (the kernel handle's cached plan)
//   CApiPoolDecode      kda2rt_kda_decode_pool of 64 sequences (cached
//                       KdaDecodePoolPlan: every check, no allocation)
//   KernelPoolGeneric   launchKdaDecodePool (the general path the pool entry
//                       point took before its plan)
//   CApiSpecDecode      kda2rt_kda_decode_spec, 64 sequences of 4 tokens
//   CApiPrefill         kda2rt_kda_prefill: 3 sequences, 138 tokens, 4 heads
//                       (prep, scan, out; nine tensor maps)
//   CApiPrefillCheckpoints  the same with checkpoint_blocks and ckpt
//   CApiPrefillOffsets  the same with two checkpoints at token offsets per
//                       sequence (four launches: kda_chunk_ckpt too)
//   KernelPrefillGeneric    launchKdaPrefill (LaunchArgs by name +
//                       computeLaunchConfig for each kernel: the general path)
// On a GPU, kda2-perf --host-overhead reports the same quantity against the
// real driver.
//
//===----------------------------------------------------------------------===//

#include "FakeCuda.h"

#include "kda2/Runtime/Bundle.h"
#include "kda2/Runtime/KDA.h"
#include "kda2/Runtime/kda2rt.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

#ifndef KDA2_FAKE_CUDA
#error "KDA2_FAKE_CUDA (the fake driver library) must be defined"
#endif

using namespace kda2::runtime;

namespace {

const int kUseFakeDriver = setenv("KDA2RT_LIBCUDA", KDA2_FAKE_CUDA, 1);

/// A registered bundle over a fake decode cubin, its buffers and a pool.
struct Fixture {
  std::string image;
  kda2rt_bundle_image imageDesc;
  kda2rt_bundle_entry entry;
  kda2rt_bundle_desc desc;
  kda2rt_bundle bundle = nullptr;
  kda2rt_state_pool pool = nullptr;
  std::vector<int64_t> ids;
  void *buffer = nullptr;
  kda2rt_kda_decode_args args = {};
  Module module;
  Kernel kernel;
  KdaDecodePlan plan;
  std::string error;

  Fixture() {
    (void)kUseFakeDriver;
    image = kda2::fake::fakeCubin(
        {{"dec", kda2::fake::decodeMetadata("dec", 128, true)},
         {"dec__t_1", kda2::fake::decodeMetadata("dec__t_1", 128)}});
    imageDesc = {"fake.cubin", "sm_90a", image.data(), image.size()};
    entry = {"kda_decode", "t", "sm_90a", "dec", 0, 0, 1, 0};
    desc = {KDA2RT_BUNDLE_ABI_VERSION, "bench", 1, &imageDesc, 1, &entry};
    char err[512] = {0};
    const int64_t n = 64, h = 4, d = 128;
    bool ok =
        kda2rt_bundle_register(&desc, &bundle, err, sizeof(err)) == 0 &&
        kda2rt_mem_alloc(0, 8 << 20, &buffer, err, sizeof(err)) == 0 &&
        kda2rt_state_pool_create(0, h, d, d, "f32", 1ull << 30, 0, &pool, err,
                                 sizeof(err)) == 0;
    for (int64_t i = 0; i < n; ++i)
      ids.push_back(100 + i);
    ok = ok && kda2rt_state_create(pool, ids.data(), static_cast<int>(n),
                                   nullptr, nullptr, err, sizeof(err)) == 0;
    char *b = static_cast<char *>(buffer);
    args.q = b;
    args.k = b + (1 << 20);
    args.v = b + (2 << 20);
    args.g = b + (3 << 20);
    args.beta = b + (4 << 20);
    args.h0 = b + (5 << 20);
    args.o = b + (6 << 20);
    args.ht = b + (7 << 20);
    args.n = n;
    args.t = 1;
    args.h = h;
    args.k_dim = args.v_dim = d;
    args.dtype = "bf16";
    args.state_layout = "kv";
    Context ctx;
    Status s = ok ? Context::create(0, ctx) : Status::success();
    if (ok && s.ok())
      s = Module::loadData(ctx, image.data(), image.size(), module);
    if (ok && s.ok())
      s = module.getKernel("dec", kernel);
    if (ok && s.ok())
      s = KdaDecodePlan::create(kernel, plan);
    if (!ok)
      error = err;
    else if (!s.ok())
      error = s.message();
    if (error.empty())
      preparePool();
    if (error.empty())
      preparePrefill();
  }

  /// The three prefill kernels of the fake default binding (K = V = 128,
  /// C = 32, VB = 8, bf16, f32 kv state) through the C ABI: 3 sequences,
  /// 138 tokens (the longest 64; 7 chunk slots), 4 heads, 16 slots.
  std::string prefillImage;
  kda2rt_module prefillModule = nullptr;
  kda2rt_kernel prefillKernels[3] = {};
  /// kda_chunk_ckpt, and the workspace bytes of calls with m = 2.
  kda2rt_kernel prefillCkpt = nullptr;
  size_t prefillOffsetBytes = 0;
  kda2rt_kda_prefill_args prefillArgs = {};
  void *prefillBuffer = nullptr;
  Module prefillCppModule;
  Kernel prefillCpp[3];

  void preparePrefill() {
    prefillImage = kda2::fake::fakeCubin(
        {{"kda_chunk_prep", kda2::fake::prefillPrepMetadata()},
         {"kda_chunk_scan_h", kda2::fake::prefillScanMetadata()},
         {"kda_chunk_out", kda2::fake::prefillOutMetadata()},
         {"kda_chunk_ckpt", kda2::fake::prefillCkptMetadata()}});
    const char *names[] = {"kda_chunk_prep", "kda_chunk_scan_h",
                           "kda_chunk_out"};
    char err[512] = {0};
    bool ok = kda2rt_module_load_data(0, prefillImage.data(),
                                      prefillImage.size(), &prefillModule, err,
                                      sizeof(err)) == 0 &&
              kda2rt_mem_alloc(0, 32 << 20, &prefillBuffer, err,
                               sizeof(err)) == 0;
    for (int i = 0; ok && i < 3; ++i)
      ok = kda2rt_kernel_get(prefillModule, names[i], &prefillKernels[i], err,
                             sizeof(err)) == 0;
    ok = ok && kda2rt_kernel_get(prefillModule, "kda_chunk_ckpt", &prefillCkpt,
                                 err, sizeof(err)) == 0;
    Context ctx;
    Status s = ok ? Context::create(0, ctx) : Status::success();
    if (ok && s.ok())
      s = Module::loadData(ctx, prefillImage.data(), prefillImage.size(),
                           prefillCppModule);
    for (int i = 0; ok && s.ok() && i < 3; ++i)
      s = prefillCppModule.getKernel(names[i], prefillCpp[i]);
    size_t bytes = 0;
    if (ok && s.ok())
      ok = kda2rt_kda_prefill_workspace_size(
               prefillKernels[0], prefillKernels[1], prefillKernels[2], 3, 138,
               4, &bytes, err, sizeof(err)) == 0;
    if (ok && s.ok())
      ok = kda2rt_kda_prefill_workspace_size_offsets(
               prefillKernels[0], prefillKernels[1], prefillKernels[2], 3, 138,
               4, 2, &prefillOffsetBytes, err, sizeof(err)) == 0;
    if (!ok || !s.ok()) {
      error = ok ? s.message() : err;
      return;
    }
    char *b = static_cast<char *>(prefillBuffer);
    kda2rt_kda_prefill_args &a = prefillArgs;
    a.q = b;
    a.k = b + (1 << 20);
    a.v = b + (2 << 20);
    a.g = b + (3 << 20);
    a.beta = b + (4 << 20);
    a.cu_seqlens = b + (5 << 20);
    a.state_indices = b + (5 << 20) + 4096;
    a.has_initial_state = b + (5 << 20) + 8192;
    a.pool = b + (6 << 20); // 16 x 4 x 128 x 128 f32: 4 MiB
    a.o = b + (10 << 20);
    uintptr_t w = (reinterpret_cast<uintptr_t>(b) + (16 << 20) + 1023) &
                  ~uintptr_t(1023);
    a.workspace = reinterpret_cast<void *>(w);
    a.workspace_bytes = bytes;
    a.n = 3;
    a.total_tokens = 138;
    a.max_seqlen = 64;
    a.h = 4;
    a.k_dim = a.v_dim = 128;
    a.slots = 16;
    a.state_layout = "kv";
    a.gate_lower_bound = -5;
  }

  KdaPrefillArgs prefillCppArgs() const {
    const kda2rt_kda_prefill_args &c = prefillArgs;
    KdaPrefillArgs a;
    a.q = c.q;
    a.k = c.k;
    a.v = c.v;
    a.g = c.g;
    a.beta = c.beta;
    a.cuSeqlens = c.cu_seqlens;
    a.stateIndices = c.state_indices;
    a.hasInitialState = c.has_initial_state;
    a.pool = c.pool;
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
    a.stateLayout = c.state_layout;
    a.gateLowerBound = c.gate_lower_bound;
    return a;
  }

  /// Pool and speculative decode kernels (K = V = 128) through the C ABI:
  /// 64 sequences of one token (pool) or four (spec), 4 heads, 256 slots.
  std::string poolImage;
  kda2rt_module poolModule = nullptr;
  kda2rt_kernel poolKernel = nullptr, specKernel = nullptr, decKernel = nullptr;
  kda2rt_kda_decode_pool_args poolArgs = {};
  kda2rt_kda_decode_spec_args specArgs = {};
  void *poolBuffer = nullptr;
  Module poolCppModule;
  Kernel poolCppKernel;

  void preparePool() {
    poolImage = kda2::fake::fakeCubin(
        {{"pool", kda2::fake::poolDecodeMetadata("pool", 128, 128)},
         {"spec", kda2::fake::specDecodeMetadata("spec", 128, 128)},
         {"dec", kda2::fake::decodeMetadata("dec", 128)}});
    char err[512] = {0};
    bool ok = kda2rt_module_load_data(0, poolImage.data(), poolImage.size(),
                                      &poolModule, err, sizeof(err)) == 0 &&
              kda2rt_kernel_get(poolModule, "pool", &poolKernel, err,
                                sizeof(err)) == 0 &&
              kda2rt_kernel_get(poolModule, "spec", &specKernel, err,
                                sizeof(err)) == 0 &&
              kda2rt_kernel_get(poolModule, "dec", &decKernel, err,
                                sizeof(err)) == 0 &&
              kda2rt_mem_alloc(0, 80 << 20, &poolBuffer, err,
                               sizeof(err)) == 0;
    Context ctx;
    Status s = ok ? Context::create(0, ctx) : Status::success();
    if (ok && s.ok())
      s = Module::loadData(ctx, poolImage.data(), poolImage.size(),
                           poolCppModule);
    if (ok && s.ok())
      s = poolCppModule.getKernel("pool", poolCppKernel);
    if (!ok || !s.ok()) {
      error = ok ? s.message() : err;
      return;
    }
    // 1 MiB per operand, the 64 MiB pool (256 x 4 x 128 x 128 f32) at 16.
    char *b = static_cast<char *>(poolBuffer);
    auto at = [&](int mib) { return b + (static_cast<size_t>(mib) << 20); };
    poolArgs = {at(0), at(1), at(2),  at(3),  at(4), at(5), at(6), at(7),
                at(16), at(8), 64,    64,     4,     128,   128,   256,
                0,      "bf16", "f32", "kv"};
    specArgs = {at(0), at(1), at(2),  at(3), at(4), at(5), at(6), at(16),
                at(8), 64,    4,      4,     128,   128,   256,   0,
                "bf16", "f32", "kv"};
  }

  KdaDecodeArgs cppArgs() const {
    KdaDecodeArgs a;
    a.q = args.q;
    a.k = args.k;
    a.v = args.v;
    a.g = args.g;
    a.beta = args.beta;
    a.h0 = args.h0;
    a.o = args.o;
    a.ht = args.ht;
    a.n = args.n;
    a.t = args.t;
    a.h = args.h;
    a.kDim = args.k_dim;
    a.vDim = args.v_dim;
    a.dtype = args.dtype;
    a.stateLayout = args.state_layout;
    return a;
  }
};

Fixture &fixture() {
  static Fixture *f = new Fixture;
  return *f;
}

bool ready(benchmark::State &state) {
  if (fixture().error.empty())
    return true;
  state.SkipWithError(fixture().error.c_str());
  return false;
}

void BundleDecode(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  kda2rt_bundle_set_profiling(f.bundle, 0, 0, nullptr, 0);
  for (auto _ : state)
    if (kda2rt_bundle_kda_decode(f.bundle, 0, "kda_decode", &f.args, nullptr,
                                 nullptr, 0) != 0)
      state.SkipWithError(kda2rt_last_error());
}

void BundleDecodeTimed(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  kda2rt_bundle_set_profiling(f.bundle, 1, 0, nullptr, 0);
  for (auto _ : state)
    if (kda2rt_bundle_kda_decode(f.bundle, 0, "kda_decode", &f.args, nullptr,
                                 nullptr, 0) != 0)
      state.SkipWithError(kda2rt_last_error());
  kda2rt_bundle_set_profiling(f.bundle, 0, 0, nullptr, 0);
}

void BundleDecodeStep(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  for (auto _ : state)
    if (kda2rt_bundle_decode_step(f.bundle, 0, "kda_decode", f.pool,
                                  f.ids.data(), static_cast<int>(f.ids.size()),
                                  &f.args, nullptr, nullptr, 0) != 0)
      state.SkipWithError(kda2rt_last_error());
}

void KernelDecodePlan(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  KdaDecodeArgs a = f.cppArgs();
  for (auto _ : state)
    if (!f.plan.launch(a, nullptr).ok())
      state.SkipWithError("plan launch failed");
}

void KernelDecodeGeneric(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  KdaDecodeArgs a = f.cppArgs();
  for (auto _ : state)
    if (!launchKdaDecode(f.kernel, a, nullptr).ok())
      state.SkipWithError("launch failed");
}

void CApiDecode(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  for (auto _ : state)
    if (kda2rt_kda_decode(f.decKernel, &f.args, nullptr, nullptr, 0) != 0)
      state.SkipWithError(kda2rt_last_error());
}

void CApiPoolDecode(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  for (auto _ : state)
    if (kda2rt_kda_decode_pool(f.poolKernel, &f.poolArgs, nullptr, nullptr,
                               0) != 0)
      state.SkipWithError(kda2rt_last_error());
}

void KernelPoolGeneric(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  KdaDecodePoolArgs a;
  a.q = f.poolArgs.q;
  a.k = f.poolArgs.k;
  a.v = f.poolArgs.v;
  a.g = f.poolArgs.g;
  a.beta = f.poolArgs.beta;
  a.cuSeqlens = f.poolArgs.cu_seqlens;
  a.stateIndices = f.poolArgs.state_indices;
  a.hasInitialState = f.poolArgs.has_initial_state;
  a.pool = f.poolArgs.pool;
  a.o = f.poolArgs.o;
  a.n = f.poolArgs.n;
  a.totalTokens = f.poolArgs.total_tokens;
  a.h = f.poolArgs.h;
  a.kDim = f.poolArgs.k_dim;
  a.vDim = f.poolArgs.v_dim;
  a.slots = f.poolArgs.slots;
  a.stateLayout = f.poolArgs.state_layout;
  for (auto _ : state)
    if (!launchKdaDecodePool(f.poolCppKernel, a, nullptr).ok())
      state.SkipWithError("launch failed");
}

void CApiSpecDecode(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  for (auto _ : state)
    if (kda2rt_kda_decode_spec(f.specKernel, &f.specArgs, nullptr, nullptr,
                               0) != 0)
      state.SkipWithError(kda2rt_last_error());
}

void CApiPrefill(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  kda2rt_kernel *k = f.prefillKernels;
  for (auto _ : state)
    if (kda2rt_kda_prefill(k[0], k[1], k[2], &f.prefillArgs, nullptr, nullptr,
                           0) != 0)
      state.SkipWithError(kda2rt_last_error());
}

void CApiPrefillCheckpoints(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  kda2rt_kernel *k = f.prefillKernels;
  kda2rt_kda_prefill_args a = f.prefillArgs;
  char *b = static_cast<char *>(f.prefillBuffer);
  a.checkpoint_blocks = b + (5 << 20) + 12288;
  a.ckpt = b + (12 << 20); // 8 x 4 x 128 x 128 f32: 2 MiB
  a.blocks = 8;
  for (auto _ : state)
    if (kda2rt_kda_prefill(k[0], k[1], k[2], &a, nullptr, nullptr, 0) != 0)
      state.SkipWithError(kda2rt_last_error());
}

void CApiPrefillOffsets(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  kda2rt_kernel *k = f.prefillKernels;
  kda2rt_kda_prefill_args a = f.prefillArgs;
  char *b = static_cast<char *>(f.prefillBuffer);
  a.ckpt_offsets = b + (5 << 20) + 16384; // [3, 2] int32
  a.offset_blocks = b + (5 << 20) + 20480;
  a.m = 2;
  a.ckpt_kernel = f.prefillCkpt;
  a.ckpt = b + (12 << 20);
  a.blocks = 8;
  a.workspace_bytes = f.prefillOffsetBytes;
  for (auto _ : state)
    if (kda2rt_kda_prefill(k[0], k[1], k[2], &a, nullptr, nullptr, 0) != 0)
      state.SkipWithError(kda2rt_last_error());
}

void KernelPrefillGeneric(benchmark::State &state) {
  if (!ready(state))
    return;
  Fixture &f = fixture();
  KdaPrefillArgs a = f.prefillCppArgs();
  for (auto _ : state)
    if (!launchKdaPrefill(f.prefillCpp[0], f.prefillCpp[1], f.prefillCpp[2], a,
                          nullptr)
             .ok())
      state.SkipWithError("launch failed");
}

BENCHMARK(BundleDecode);
BENCHMARK(BundleDecodeTimed);
BENCHMARK(BundleDecodeStep);
BENCHMARK(KernelDecodePlan);
BENCHMARK(KernelDecodeGeneric);
BENCHMARK(CApiDecode);
BENCHMARK(CApiPoolDecode);
BENCHMARK(KernelPoolGeneric);
BENCHMARK(CApiSpecDecode);
BENCHMARK(CApiPrefill);
BENCHMARK(CApiPrefillCheckpoints);
BENCHMARK(CApiPrefillOffsets);
BENCHMARK(KernelPrefillGeneric);

} // namespace

BENCHMARK_MAIN();
