//===- serve-mixed.cpp - a mixed serving batch through the state pool -----===//
//
// What an inference engine does each step, through libkda2rt's C ABI only
// (docs/Runtime.md, "The serving contract"): one engine-owned device pool of
// recurrent states [slots, h, K, V] (f32, K-major "kv"), indexed by slot,
// and three steps of mixed batches on it:
//   1. prefill of new requests A (100 tokens), B (37), C (1) into slots 2,
//      5, 7 from zero states, with prefix-caching checkpoints of A at every
//      chunk end and one checkpoint at a token offset per request (A after
//      93 tokens, B after 30, C after 1: kda_chunk_ckpt) into spare blocks
//      (kda2rt_kda_prefill), and in the same step one decode token of the
//      running requests D, E in slots 9, 11 (kda2rt_kda_decode_pool);
//   2. one decode token of A, B, C, D and a padding entry (slot -1);
//   3. speculative verify of 4 tokens of A and E (kda2rt_kda_decode_spec).
// Each call is asked first (its _query, all at start-up); every output,
// every written slot, every checkpoint and the untouched slots are checked
// against a float64 host mirror of the pool (kda2/Runtime/Reference.h);
// then the host time per call through the C ABI is measured.
//
//   serve-mixed <kernels-dir> [--device 0] [--heads 4] [--iters 20]
//               [--check-only]
//
// <kernels-dir> holds the cubins of scripts/build-kernels.sh. --check-only
// stops after the queries (nothing is launched); --iters 0 skips the timing.
// Exit codes: 0 ok, 1 mismatch or usage error, 2 the GPU, the driver or a
// kernel is not usable (the message says why: no driver, no device, a
// missing cubin, a call its query refuses, ...).
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Reference.h"
#include "kda2/Runtime/kda2rt.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace ref = kda2::runtime::reference;

constexpr int64_t kDim = 128;   // K = V, the kernels' head dimensions
constexpr int64_t kSlots = 16;  // states in the pool
constexpr int64_t kChunk = 32;  // C of the prefill kernels
constexpr double kTolerance = 1e-2;

struct Options {
  std::string dir;
  int device = 0;
  int64_t heads = 4, iters = 20;
  bool checkOnly = false;
};

int usage(const char *why) {
  std::fprintf(stderr,
               "serve-mixed: %s\nusage: serve-mixed <kernels-dir> [--device "
               "N] [--heads H] [--iters N] [--check-only]\n",
               why);
  return 1;
}

bool parseArgs(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](int64_t &out, int64_t min) {
      if (i + 1 >= argc)
        return false;
      char *end = nullptr;
      out = std::strtoll(argv[++i], &end, 10);
      return *end == '\0' && out >= min;
    };
    int64_t device = 0;
    if (a == "--check-only")
      o.checkOnly = true;
    else if (a == "--device" && value(device, 0))
      o.device = static_cast<int>(device);
    else if (a == "--heads" ? value(o.heads, 1)
             : a == "--iters" ? value(o.iters, 0)
                              : false)
      continue;
    else if (o.dir.empty() && !a.empty() && a[0] != '-')
      o.dir = a;
    else
      return false;
  }
  return !o.dir.empty();
}

/// A device buffer of libkda2rt's allocator, freed on scope exit.
struct DeviceBuffer {
  int device = 0;
  void *ptr = nullptr;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() {
    if (ptr)
      kda2rt_mem_free(device, ptr, nullptr, 0);
  }
};

/// A loaded module, unloaded on scope exit.
struct Module {
  kda2rt_module handle = nullptr;
  Module() = default;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module() { kda2rt_module_unload(handle, nullptr, 0); }
};

/// The device and the error text of the last failed call.
struct Gpu {
  int device = 0;
  char err[2048] = {0};

  bool ok(int rc, const char *what) {
    if (rc == KDA2RT_OK)
      return true;
    std::fprintf(stderr, "serve-mixed: %s failed: %s (%s)\n", what, err,
                 kda2rt_error_name(rc));
    return false;
  }
  bool alloc(DeviceBuffer &b, size_t bytes) {
    b.device = device;
    return ok(kda2rt_mem_alloc(device, bytes, &b.ptr, err, sizeof(err)),
              "allocating device memory");
  }
  /// Allocates `b` (first use) and copies `host` into it.
  template <class T> bool put(DeviceBuffer &b, const std::vector<T> &host) {
    size_t bytes = host.size() * sizeof(T);
    return (b.ptr || alloc(b, bytes)) &&
           ok(kda2rt_memcpy_htod(device, b.ptr, host.data(), bytes, err,
                                 sizeof(err)),
              "copying to the device");
  }
  template <class T> bool get(std::vector<T> &host, const void *src) {
    return ok(kda2rt_memcpy_dtoh(device, host.data(), src,
                                 host.size() * sizeof(T), err, sizeof(err)),
              "copying from the device");
  }
  bool sync() {
    return ok(kda2rt_stream_synchronize(device, nullptr, err, sizeof(err)),
              "synchronising the stream");
  }
};

/// The packed per-token inputs of one call on the host (q, k, v as bf16
/// bits: the reference reads exactly the rounded values the GPU reads) and
/// on the device, with its output o.
struct Tokens {
  ref::KdaTokenInputs in;
  int64_t count = 0;
  DeviceBuffer q, k, v, g, beta, o;
};

/// Random non-zero inputs of `count` tokens: fillKdaDecodeProblem's
/// [n, t = 1, h, K] arrays are the packed [tokens, h, K] ones (q, k, v
/// rounded to bf16, g in [-0.1, 0), beta in [0.1, 0.9)).
bool makeTokens(Gpu &gpu, ref::Random &rng, int64_t count, int64_t h,
                Tokens &t) {
  ref::KdaDecodeProblem p;
  p.n = count;
  p.t = 1;
  p.h = h;
  p.kDim = p.vDim = kDim;
  ref::fillKdaDecodeProblem(rng, p, /*zeroState=*/true);
  t.count = count;
  t.in.h = h;
  t.in.kDim = t.in.vDim = kDim;
  t.in.q = std::move(p.q);
  t.in.k = std::move(p.k);
  t.in.v = std::move(p.v);
  t.in.g = std::move(p.g);
  t.in.beta = std::move(p.beta);
  return gpu.put(t.q, t.in.q) && gpu.put(t.k, t.in.k) && gpu.put(t.v, t.in.v) &&
         gpu.put(t.g, t.in.g) && gpu.put(t.beta, t.in.beta) &&
         gpu.alloc(t.o, t.in.v.size() * 2);
}

/// Tokens first .. first + count - 1 of `in`.
ref::KdaTokenInputs slice(const ref::KdaTokenInputs &in, int64_t first,
                          int64_t count) {
  ref::KdaTokenInputs s;
  s.h = in.h;
  s.kDim = in.kDim;
  s.vDim = in.vDim;
  auto cut = [&](const auto &from, auto &to, int64_t perToken) {
    to.assign(from.begin() + first * perToken,
              from.begin() + (first + count) * perToken);
  };
  cut(in.q, s.q, in.h * in.kDim);
  cut(in.k, s.k, in.h * in.kDim);
  cut(in.g, s.g, in.h * in.kDim);
  cut(in.v, s.v, in.h * in.vDim);
  cut(in.beta, s.beta, in.h);
  return s;
}

/// Fills the device output with bf16 NaN (0xFFFF): a row the kernel does
/// not write fails the check.
bool poison(Gpu &gpu, Tokens &t) {
  std::vector<uint16_t> nan(t.in.v.size(), 0xFFFF);
  return gpu.put(t.o, nan);
}

/// ||o - ref|| / ||ref|| of the device output `o`.
double outputError(Gpu &gpu, const Tokens &t, const std::vector<double> &want,
                   bool &readOk) {
  std::vector<uint16_t> bits(t.in.v.size());
  readOk = gpu.get(bits, t.o.ptr);
  std::vector<double> got(bits.size());
  for (size_t i = 0; i < bits.size(); ++i)
    got[i] = ref::fromBf16(bits[i]);
  return ref::relativeError(got.data(), want.data(), got.size());
}

/// ||pool - ref|| / ||ref|| over `slots` of the device pool (read back into
/// `gpuPool`) against the host mirror.
double stateError(const std::vector<float> &gpuPool,
                  const ref::KdaStatePool &mirror,
                  const std::vector<int> &slots) {
  size_t per = static_cast<size_t>(mirror.h * kDim * kDim);
  std::vector<double> got, want;
  for (int s : slots) {
    size_t at = mirror.offset(s, 0, 0, 0);
    got.insert(got.end(), gpuPool.begin() + at, gpuPool.begin() + at + per);
    want.insert(want.end(), mirror.f32.begin() + at,
                mirror.f32.begin() + at + per);
  }
  return ref::relativeError(got.data(), want.data(), got.size());
}

/// The slots outside `written` whose bytes changed from `before` to
/// `after` (the contract: a call touches only the slots it names).
std::vector<int> changedSlots(const std::vector<float> &before,
                              const std::vector<float> &after,
                              const std::vector<int> &written, int64_t h) {
  size_t per = static_cast<size_t>(h * kDim * kDim);
  std::vector<int> changed;
  for (int s = 0; s < kSlots; ++s)
    if (std::find(written.begin(), written.end(), s) == written.end() &&
        std::memcmp(&before[s * per], &after[s * per], per * 4) != 0)
      changed.push_back(s);
  return changed;
}

/// The answer of a _query function: true when the call is accepted.
bool accepted(int answer, const char *fn, const char *reason) {
  if (answer == 1) {
    std::printf("  %s: accepted\n", fn);
    return true;
  }
  std::fprintf(stderr, "serve-mixed: %s refused the call: %s\n", fn,
               answer < 0 ? "a NULL kernel or arguments" : reason);
  return false;
}

/// Median host time (us) of `iters` calls: steady_clock around the call
/// only (the C ABI's host overhead), a stream synchronisation after each.
/// -1 when a call fails.
template <class Call> double medianHostUs(Gpu &gpu, int64_t iters, Call call) {
  std::vector<double> us;
  for (int64_t i = 0; i < iters; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    int rc = call();
    auto t1 = std::chrono::steady_clock::now();
    if (!gpu.ok(rc, "a timed call") || !gpu.sync())
      return -1;
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::nth_element(us.begin(), us.begin() + us.size() / 2, us.end());
  return us[us.size() / 2];
}

int run(const Options &o) {
  Gpu gpu;
  gpu.device = o.device;
  const int64_t h = o.heads;
  const size_t stateElems = static_cast<size_t>(h * kDim * kDim);

  int count = 0;
  if (!gpu.ok(kda2rt_device_count(&count, gpu.err, sizeof(gpu.err)),
              "finding a CUDA device"))
    return 2;
  if (count <= o.device) {
    std::fprintf(stderr, "serve-mixed: no CUDA device %d (%d found)\n",
                 o.device, count);
    return 2;
  }

  // The kernels, as scripts/build-kernels.sh names them.
  Module prepModule, chunkModule, poolModule, specModule;
  kda2rt_kernel prep = nullptr, scan = nullptr, out = nullptr,
                ckptKernel = nullptr, decode = nullptr, spec = nullptr;
  struct {
    Module *module;
    const char *file;
    std::vector<std::pair<const char *, kda2rt_kernel *>> kernels;
  } loads[] = {
      {&prepModule, "kda_chunk_split_c32_vb16_k128.sm_90a.cubin",
       {{"kda_chunk_prep", &prep}}},
      {&chunkModule, "kda_chunk_h_c32_vb16_k128.sm_90a.cubin",
       {{"kda_chunk_scan_h", &scan},
        {"kda_chunk_out", &out},
        {"kda_chunk_ckpt", &ckptKernel}}},
      {&poolModule, "kda_decode_pool_k128_f32_kv.sm_90a.cubin",
       {{"kda_decode_pool", &decode}}},
      {&specModule, "kda_decode_spec_k128_f32_kv.sm_90a.cubin",
       {{"kda_decode_spec", &spec}}},
  };
  for (auto &l : loads) {
    std::string path = o.dir + "/" + l.file;
    std::string what = "loading " + path + " (scripts/build-kernels.sh)";
    if (!gpu.ok(kda2rt_module_load_file(o.device, path.c_str(),
                                        &l.module->handle, gpu.err,
                                        sizeof(gpu.err)),
                what.c_str()))
      return 2;
    for (auto &[name, kernel] : l.kernels) {
      what = std::string("finding kernel ") + name + " in " + l.file;
      if (!gpu.ok(kda2rt_kernel_get(l.module->handle, name, kernel, gpu.err,
                                    sizeof(gpu.err)),
                  what.c_str()))
        return 2;
    }
  }
  std::printf("serve-mixed: %lld heads, K = V = %lld, bf16 inputs, a pool "
              "of %lld f32 K-major states on device %d%s\n",
              static_cast<long long>(h), static_cast<long long>(kDim),
              static_cast<long long>(kSlots), o.device,
              o.checkOnly ? " (check only: nothing is launched)" : "");

  // The engine's pool: one device buffer [slots, h, K, V]. The running
  // requests D and E (slots 9, 11) hold states of earlier steps: random
  // here, and so is every other slot (a new request's has_initial_state 0
  // must ignore what its slot held). `mirror` is the float64-computed,
  // f32-stored host copy that evolves as the device pool must.
  ref::Random rng{2024};
  ref::KdaStatePool mirror;
  mirror.slots = kSlots;
  mirror.h = h;
  mirror.kDim = mirror.vDim = kDim;
  mirror.allocate();
  for (float &x : mirror.f32)
    x = static_cast<float>(rng.nonZero(-0.1, 0.1));
  DeviceBuffer pool;
  if (!gpu.put(pool, mirror.f32))
    return 2;
  std::vector<float> before = mirror.f32, after(mirror.f32.size());

  int status = 0;
  auto verdict = [&](const char *what, double oErr, double sErr,
                     const std::vector<int> &changed) {
    bool good = oErr < kTolerance && sErr < kTolerance && changed.empty();
    std::printf("  %s: ||o - ref|| / ||ref|| = %.3g, states %.3g%s: %s\n",
                what, oErr, sErr,
                changed.empty() ? "" : ", slots it does not name changed",
                good ? "OK" : "MISMATCH");
    if (!good)
      status = 1;
  };
  auto refCall = [&](const kda2::runtime::Status &s) {
    if (!s.ok())
      std::fprintf(stderr, "serve-mixed: reference: %s\n",
                   s.message().c_str());
    return s.ok();
  };

  //===------------------------------------------------------------------===//
  // The batches of the three steps, built first so that every call can be
  // asked at start-up.
  // Step 1: prefill A, B, C (slots 2, 5, 7, from zeros) with checkpoints of
  // A; decode D, E (slots 9, 11) in the same step.
  //===------------------------------------------------------------------===//
  const int64_t lenA = 100, maxSeqlen = lenA;
  const int64_t nc = (maxSeqlen + kChunk - 1) / kChunk; // chunks: 4
  Tokens pre, dec1;
  if (!makeTokens(gpu, rng, 100 + 37 + 1, h, pre) ||
      !makeTokens(gpu, rng, 2, h, dec1))
    return 2;
  ref::KdaPoolDecodeProblem preRef;
  static_cast<ref::KdaTokenInputs &>(preRef) = pre.in;
  preRef.n = 3;
  preRef.totalTokens = pre.count;
  preRef.cuSeqlens = {0, 100, 137, 138};
  preRef.stateIndices = {2, 5, 7};
  preRef.hasInitialState = {0, 0, 0};
  // checkpoint_blocks [n, nc]: A's state at the end of chunk j goes to
  // block j of `ckpt` (prefix caching); -1: none (B and C, which the
  // engine would not cache).
  std::vector<int32_t> ckptTable(static_cast<size_t>(3 * nc), -1);
  for (int64_t j = 0; j < nc; ++j)
    ckptTable[j] = static_cast<int32_t>(j);
  // Checkpoints at token offsets, m = 1 per request: the state after the
  // first t tokens (inside a chunk: A's 93 = len - 7 and B's 30; C's 1,
  // its whole length, the final state) into the spare blocks nc .. nc + 2.
  const int64_t m = 1, blocks = nc + 3;
  const std::vector<int32_t> offsets = {93, 30, 1};
  const std::vector<int32_t> offsetBlocks = {
      static_cast<int32_t>(nc), static_cast<int32_t>(nc + 1),
      static_cast<int32_t>(nc + 2)};
  DeviceBuffer preCu, preSlots, preInit, preTable, preOffsets,
      preOffsetBlocks, ckpt, wsRaw;
  size_t wsBytes = 0;
  if (!gpu.put(preCu, preRef.cuSeqlens) ||
      !gpu.put(preSlots, preRef.stateIndices) ||
      !gpu.put(preInit, preRef.hasInitialState) ||
      !gpu.put(preTable, ckptTable) || !gpu.put(preOffsets, offsets) ||
      !gpu.put(preOffsetBlocks, offsetBlocks) ||
      !gpu.alloc(ckpt, static_cast<size_t>(blocks) * stateElems * 4) ||
      // Sized by the call's sequences, tokens and offsets (its
      // intermediates are per chunk slot: floor(138 / 32) + 3 = 7 slots per
      // head, and per offset), whatever the lengths; an engine sizes it
      // once for its most.
      !gpu.ok(kda2rt_kda_prefill_workspace_size_offsets(
                  prep, scan, out, preRef.n, pre.count, h, m, &wsBytes,
                  gpu.err, sizeof(gpu.err)),
              "sizing the prefill workspace") ||
      // The workspace must be 1024-byte aligned; kda2rt_mem_alloc
      // (cuMemAlloc) promises 256: over-allocate and round up.
      !gpu.alloc(wsRaw, wsBytes + 1023))
    return 2;
  void *ws = reinterpret_cast<void *>(
      (reinterpret_cast<uintptr_t>(wsRaw.ptr) + 1023) & ~uintptr_t(1023));

  kda2rt_kda_prefill_args pa = {};
  pa.q = pre.q.ptr;
  pa.k = pre.k.ptr;
  pa.v = pre.v.ptr;
  pa.g = pre.g.ptr;
  pa.beta = pre.beta.ptr;
  pa.cu_seqlens = preCu.ptr;
  pa.state_indices = preSlots.ptr;
  pa.has_initial_state = preInit.ptr;
  pa.checkpoint_blocks = preTable.ptr;
  pa.pool = pool.ptr;
  pa.ckpt = ckpt.ptr;
  pa.o = pre.o.ptr;
  pa.workspace = ws;
  pa.workspace_bytes = wsBytes;
  pa.n = preRef.n;
  pa.total_tokens = pre.count;
  pa.max_seqlen = maxSeqlen;
  pa.h = h;
  pa.k_dim = pa.v_dim = kDim;
  pa.slots = kSlots;
  pa.blocks = blocks;
  pa.scale = 0; // K^-1/2, as the reference's scale 0
  pa.dtype = "bf16";
  pa.state_dtype = "f32";
  pa.state_layout = "kv";
  // The model's gate is bounded at -5 per step (the prep kernel's `range
  // g`, GB=5); these inputs stay in [-0.1, 0).
  pa.gate_lower_bound = -5.0;
  pa.ckpt_offsets = preOffsets.ptr;
  pa.offset_blocks = preOffsetBlocks.ptr;
  pa.m = m;
  pa.ckpt_kernel = ckptKernel;

  ref::KdaPoolDecodeProblem dec1Ref;
  static_cast<ref::KdaTokenInputs &>(dec1Ref) = dec1.in;
  dec1Ref.n = 2;
  dec1Ref.totalTokens = 2;
  dec1Ref.cuSeqlens = {0, 1, 2};
  dec1Ref.stateIndices = {9, 11};
  dec1Ref.hasInitialState = {1, 1};
  DeviceBuffer dec1Cu, dec1Slots, dec1Init;
  if (!gpu.put(dec1Cu, dec1Ref.cuSeqlens) ||
      !gpu.put(dec1Slots, dec1Ref.stateIndices) ||
      !gpu.put(dec1Init, dec1Ref.hasInitialState))
    return 2;
  auto poolArgs = [&](const Tokens &t, const ref::KdaPoolDecodeProblem &p,
                      const DeviceBuffer &cu, const DeviceBuffer &slots,
                      const DeviceBuffer &init) {
    kda2rt_kda_decode_pool_args a = {};
    a.q = t.q.ptr;
    a.k = t.k.ptr;
    a.v = t.v.ptr;
    a.g = t.g.ptr;
    a.beta = t.beta.ptr;
    a.cu_seqlens = cu.ptr;
    a.state_indices = slots.ptr;
    a.has_initial_state = init.ptr;
    a.pool = pool.ptr;
    a.o = t.o.ptr;
    a.n = p.n;
    a.total_tokens = p.totalTokens;
    a.h = h;
    a.k_dim = a.v_dim = kDim;
    a.slots = kSlots;
    a.scale = 0;
    a.dtype = "bf16";
    a.state_dtype = "f32";
    a.state_layout = "kv";
    return a;
  };
  kda2rt_kda_decode_pool_args da1 =
      poolArgs(dec1, dec1Ref, dec1Cu, dec1Slots, dec1Init);

  //===------------------------------------------------------------------===//
  // Step 2: decode A, B, C, D (one token each, from their slots) and a
  // padding entry (slot -1, as a CUDA graph captured at a larger batch
  // would carry): its o row must come out zero, the pool untouched.
  //===------------------------------------------------------------------===//
  Tokens dec2;
  if (!makeTokens(gpu, rng, 5, h, dec2))
    return 2;
  ref::KdaPoolDecodeProblem dec2Ref;
  static_cast<ref::KdaTokenInputs &>(dec2Ref) = dec2.in;
  dec2Ref.n = 5;
  dec2Ref.totalTokens = 5;
  dec2Ref.cuSeqlens = {0, 1, 2, 3, 4, 5};
  dec2Ref.stateIndices = {2, 5, 7, 9, -1};
  dec2Ref.hasInitialState = {1, 1, 1, 1, 1};
  DeviceBuffer dec2Cu, dec2Slots, dec2Init;
  if (!gpu.put(dec2Cu, dec2Ref.cuSeqlens) ||
      !gpu.put(dec2Slots, dec2Ref.stateIndices) ||
      !gpu.put(dec2Init, dec2Ref.hasInitialState))
    return 2;
  kda2rt_kda_decode_pool_args da2 =
      poolArgs(dec2, dec2Ref, dec2Cu, dec2Slots, dec2Init);

  //===------------------------------------------------------------------===//
  // Step 3: speculative verify of A and E, t = 4 tokens each (the last
  // accepted token and 3 drafts), write_states 1. num_accepted = 1 and each
  // sequence's current slot at state_indices[seq, 0]: the recurrence starts
  // from pool[state_indices[seq, 0]] (read once, before any store).
  //   A: [2, 12, 13, 14]  the state after every token: after token 0 back
  //      into A's own slot 2, after the drafts into the scratch slots
  //      12..14; accepting a tokens the engine keeps slot row[a - 1] and
  //      passes num_accepted = a with the same row next step.
  //   E: [11, -1, -1, -1] the state after token 0 only (its own slot), the
  //      drafts' outputs only (nothing stored for them).
  //===------------------------------------------------------------------===//
  const int64_t t = 4;
  Tokens sp;
  if (!makeTokens(gpu, rng, 2 * t, h, sp))
    return 2;
  ref::KdaSpecDecodeProblem spRef;
  static_cast<ref::KdaTokenInputs &>(spRef) = sp.in;
  spRef.n = 2;
  spRef.t = t;
  spRef.stateIndices = {2, 12, 13, 14, 11, -1, -1, -1};
  spRef.numAccepted = {1, 1};
  DeviceBuffer spSlots, spAccepted;
  if (!gpu.put(spSlots, spRef.stateIndices) ||
      !gpu.put(spAccepted, spRef.numAccepted))
    return 2;
  kda2rt_kda_decode_spec_args sa = {};
  sa.q = sp.q.ptr;
  sa.k = sp.k.ptr;
  sa.v = sp.v.ptr;
  sa.g = sp.g.ptr;
  sa.beta = sp.beta.ptr;
  sa.state_indices = spSlots.ptr;
  sa.num_accepted = spAccepted.ptr;
  sa.pool = pool.ptr;
  sa.o = sp.o.ptr;
  sa.n = spRef.n;
  sa.t = t;
  sa.h = h;
  sa.k_dim = sa.v_dim = kDim;
  sa.slots = kSlots;
  sa.scale = 0;
  sa.dtype = "bf16";
  sa.state_dtype = "f32";
  sa.state_layout = "kv";
  sa.write_states = 1;

  //===------------------------------------------------------------------===//
  // Start-up: every call of the three steps asked once, before anything is
  // launched (an engine asks per shape class; a refusal says why).
  //===------------------------------------------------------------------===//
  char reason[1024] = {0};
  if (!accepted(kda2rt_kda_prefill_query(prep, scan, out, &pa, reason,
                                         sizeof(reason)),
                "kda2rt_kda_prefill_query (step 1)", reason) ||
      !accepted(kda2rt_kda_decode_pool_query(decode, &da1, reason,
                                             sizeof(reason)),
                "kda2rt_kda_decode_pool_query (step 1)", reason) ||
      !accepted(kda2rt_kda_decode_pool_query(decode, &da2, reason,
                                             sizeof(reason)),
                "kda2rt_kda_decode_pool_query (step 2)", reason) ||
      !accepted(kda2rt_kda_decode_spec_query(spec, &sa, reason,
                                             sizeof(reason)),
                "kda2rt_kda_decode_spec_query (step 3)", reason))
    return 2;
  if (o.checkOnly) {
    std::printf("serve-mixed: every call accepted by its query (workspace "
                "%zu bytes); nothing launched\n",
                wsBytes);
    return 0;
  }

  //===------------------------------------------------------------------===//
  // The three steps, each checked against the host mirror.
  //===------------------------------------------------------------------===//
  std::printf("step 1: prefill A (100 tokens), B (37), C (1) -> slots 2, 5, "
              "7 with %lld checkpoints of A and one at a token offset each; "
              "decode D, E -> slots 9, 11\n",
              static_cast<long long>(nc));
  {
    std::vector<float> nan(static_cast<size_t>(blocks) * stateElems);
    std::memset(nan.data(), 0xFF, nan.size() * 4);
    if (!poison(gpu, pre) || !poison(gpu, dec1) || !gpu.put(ckpt, nan) ||
        !gpu.ok(kda2rt_kda_prefill(prep, scan, out, &pa, nullptr, gpu.err,
                                   sizeof(gpu.err)),
                "kda2rt_kda_prefill") ||
        !gpu.ok(kda2rt_kda_decode_pool(decode, &da1, nullptr, gpu.err,
                                       sizeof(gpu.err)),
                "kda2rt_kda_decode_pool") ||
        !gpu.sync() || !gpu.get(after, pool.ptr))
      return 2;
    std::vector<double> refO;
    bool readOk = true;
    if (!refCall(ref::kdaDecodePoolReference(preRef, 0, mirror, refO)))
      return 2;
    double oErr = outputError(gpu, pre, refO, readOk);
    std::vector<int> changed =
        changedSlots(before, after, {2, 5, 7, 9, 11}, h);
    verdict("prefill", oErr, stateError(after, mirror, {2, 5, 7}), changed);
    // Block `block` of ckpt against the state after tokens first .. first
    // + count - 1 from a zero state (the reference over them in a 1-slot
    // pool); false when the reference fails.
    std::vector<float> gotCkpt(static_cast<size_t>(blocks) * stateElems);
    if (!readOk || !gpu.get(gotCkpt, ckpt.ptr))
      return 2;
    auto ckptError = [&](int64_t block, int64_t first, int64_t count,
                         double &err) {
      ref::KdaPoolDecodeProblem cp;
      static_cast<ref::KdaTokenInputs &>(cp) = slice(pre.in, first, count);
      cp.n = 1;
      cp.totalTokens = count;
      cp.cuSeqlens = {0, static_cast<int32_t>(count)};
      cp.stateIndices = {0};
      cp.hasInitialState = {0};
      ref::KdaStatePool one;
      one.slots = 1;
      one.h = h;
      one.kDim = one.vDim = kDim;
      one.allocate();
      std::vector<double> cpO;
      if (!refCall(ref::kdaDecodePoolReference(cp, 0, one, cpO)))
        return false;
      std::vector<double> got(gotCkpt.begin() + block * stateElems,
                              gotCkpt.begin() + (block + 1) * stateElems);
      std::vector<double> want(one.f32.begin(), one.f32.end());
      err = std::max(err,
                     ref::relativeError(got.data(), want.data(), got.size()));
      return true;
    };
    // A's checkpoint j: its state after min((j + 1) C, 100) tokens.
    double worstCkpt = 0;
    for (int64_t j = 0; j < nc; ++j)
      if (!ckptError(j, 0, std::min((j + 1) * kChunk, lenA), worstCkpt))
        return 2;
    // One line per kind of checkpoint; a mismatch fails the run.
    auto report = [&](const char *what, double worst) {
      bool ok = worst < kTolerance;
      std::printf("  %s: ||ckpt - ref|| / ||ref|| = %.3g: %s\n", what, worst,
                  ok ? "OK" : "MISMATCH");
      if (!ok)
        status = 1;
    };
    report("checkpoints of A (after 32, 64, 96, 100 tokens)", worstCkpt);
    // The checkpoints at token offsets: request i's state after its first
    // offsets[i] tokens, in block offsetBlocks[i].
    double worstOffset = 0;
    for (size_t i = 0; i < offsets.size(); ++i)
      if (!ckptError(offsetBlocks[i], preRef.cuSeqlens[i], offsets[i],
                     worstOffset))
        return 2;
    report("checkpoints at token offsets (A after 93, B after 30, C after 1 "
           "tokens)",
           worstOffset);
    if (!refCall(ref::kdaDecodePoolReference(dec1Ref, 0, mirror, refO)))
      return 2;
    oErr = outputError(gpu, dec1, refO, readOk);
    if (!readOk)
      return 2;
    verdict("decode ", oErr, stateError(after, mirror, {9, 11}), changed);
    before = after;
  }

  std::printf("step 2: decode A, B, C, D (slots 2, 5, 7, 9) and a padding "
              "entry (slot -1)\n");
  {
    if (!poison(gpu, dec2) ||
        !gpu.ok(kda2rt_kda_decode_pool(decode, &da2, nullptr, gpu.err,
                                       sizeof(gpu.err)),
                "kda2rt_kda_decode_pool") ||
        !gpu.sync() || !gpu.get(after, pool.ptr))
      return 2;
    std::vector<double> refO;
    bool readOk = true;
    if (!refCall(ref::kdaDecodePoolReference(dec2Ref, 0, mirror, refO)))
      return 2;
    // relativeError counts the padding row too: NaN (not written) is inf.
    double oErr = outputError(gpu, dec2, refO, readOk);
    if (!readOk)
      return 2;
    verdict("decode ", oErr, stateError(after, mirror, {2, 5, 7, 9}),
            changedSlots(before, after, {2, 5, 7, 9}, h));
    before = after;
  }

  std::printf("step 3: speculative verify of A (slots 2, 12, 13, 14) and E "
              "(slot 11), %lld tokens each\n",
              static_cast<long long>(t));
  {
    if (!poison(gpu, sp) ||
        !gpu.ok(kda2rt_kda_decode_spec(spec, &sa, nullptr, gpu.err,
                                       sizeof(gpu.err)),
                "kda2rt_kda_decode_spec") ||
        !gpu.sync() || !gpu.get(after, pool.ptr))
      return 2;
    std::vector<double> refO;
    bool readOk = true;
    if (!refCall(ref::kdaDecodeSpecReference(spRef, 0, mirror, refO)))
      return 2;
    double oErr = outputError(gpu, sp, refO, readOk);
    if (!readOk)
      return 2;
    verdict("verify ", oErr, stateError(after, mirror, {2, 12, 13, 14, 11}),
            changedSlots(before, after, {2, 12, 13, 14, 11}, h));
  }

  // Host overhead per call through the C ABI, on the same buffers (the
  // pool's contents no longer matter).
  if (o.iters > 0) {
    struct {
      const char *what;
      double us;
    } times[] = {
        {"kda2rt_kda_prefill (3 sequences, 138 tokens, 4 launches)",
         medianHostUs(gpu, o.iters,
                      [&] {
                        return kda2rt_kda_prefill(prep, scan, out, &pa,
                                                  nullptr, gpu.err,
                                                  sizeof(gpu.err));
                      })},
        {"kda2rt_kda_decode_pool (2 sequences)",
         medianHostUs(gpu, o.iters,
                      [&] {
                        return kda2rt_kda_decode_pool(decode, &da1, nullptr,
                                                      gpu.err,
                                                      sizeof(gpu.err));
                      })},
        {"kda2rt_kda_decode_pool (4 sequences + padding)",
         medianHostUs(gpu, o.iters,
                      [&] {
                        return kda2rt_kda_decode_pool(decode, &da2, nullptr,
                                                      gpu.err,
                                                      sizeof(gpu.err));
                      })},
        {"kda2rt_kda_decode_spec (2 sequences x 4 tokens)",
         medianHostUs(gpu, o.iters,
                      [&] {
                        return kda2rt_kda_decode_spec(spec, &sa, nullptr,
                                                      gpu.err,
                                                      sizeof(gpu.err));
                      })},
    };
    std::printf("host time per call (median of %lld):\n",
                static_cast<long long>(o.iters));
    for (auto &c : times) {
      if (c.us < 0)
        return 2;
      std::printf("  %-58s %8.2f us\n", c.what, c.us);
    }
  }
  std::printf("serve-mixed: %s\n", status == 0 ? "OK" : "MISMATCH");
  return status;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseArgs(argc, argv, o))
    return usage("bad arguments");
  return run(o);
}
