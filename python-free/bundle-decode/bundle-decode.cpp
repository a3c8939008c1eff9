//===- bundle-decode.cpp - KDA decode through a kda2-link bundle ----------===//
//
// Loads a bundle made by kda2-link with dlopen, creates the recurrent states
// of N sequences in libkda2rt's state pool (resident on the GPU for the whole
// run), runs decode steps through the bundle's dispatch table, and checks
// every step's output and the final states against a float64 CPU reference
// (kda2/Runtime/Reference.h: fused_recurrent_kda, K-first fp32 state).
// Prints the per-call host
// overhead and GPU time the bundle measured.
//
//   bundle-decode <bundle.so> [--op kda_decode] [--device 0] [--seqs 64]
//                 [--heads 4] [--dim 128] [--steps 8] [--no-timing]
//
// Exit codes: 0 ok, 1 mismatch or usage error, 2 the bundle or the GPU is not
// usable (the message says why: no driver, no device, bad bundle, ...).
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Reference.h"
#include "kda2/Runtime/kda2rt.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace ref = kda2::runtime::reference;

using HandleFn = int (*)(kda2rt_bundle *, char *, size_t);
using InfoFn = const char *(*)();

struct Options {
  std::string bundle, op = "kda_decode";
  int device = 0;
  int64_t seqs = 64, heads = 4, dim = 128, steps = 8;
  /// CUDA-event timing of every call (--no-timing: host time only).
  bool timing = true;
};

int usage(const char *why) {
  std::fprintf(stderr,
               "bundle-decode: %s\nusage: bundle-decode <bundle.so> [--op "
               "kda_decode] [--device N] [--seqs N] [--heads H] [--dim D] "
               "[--steps S] [--no-timing]\n",
               why);
  return 1;
}

bool parseArgs(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](int64_t &out, int64_t min = 1) {
      if (i + 1 >= argc)
        return false;
      char *end = nullptr;
      out = std::strtoll(argv[++i], &end, 10);
      return *end == '\0' && out >= min;
    };
    int64_t device = 0;
    if (a == "--op" && i + 1 < argc)
      o.op = argv[++i];
    else if (a == "--no-timing")
      o.timing = false;
    else if (a == "--device" && value(device, 0))
      o.device = static_cast<int>(device);
    else if (a == "--seqs" ? value(o.seqs)
             : a == "--heads" ? value(o.heads)
             : a == "--dim"   ? value(o.dim)
             : a == "--steps" ? value(o.steps)
                              : false)
      continue;
    else if (o.bundle.empty() && a[0] != '-')
      o.bundle = a;
    else
      return false;
  }
  return !o.bundle.empty();
}

/// A device buffer of libkda2rt's allocator, freed on scope exit.
struct DeviceBuffer {
  int device = 0;
  void *ptr = nullptr;
  ~DeviceBuffer() {
    if (ptr)
      kda2rt_mem_free(device, ptr, nullptr, 0);
  }
};

bool check(int rc, const char *what, const char *err) {
  if (rc == KDA2RT_OK)
    return true;
  std::fprintf(stderr, "bundle-decode: %s failed: %s (%s)\n", what, err,
               kda2rt_error_name(rc));
  return false;
}

int run(const Options &o) {
  char err[2048] = {0};
  void *lib = dlopen(o.bundle.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    std::fprintf(stderr, "bundle-decode: cannot load the bundle: %s\n",
                 dlerror());
    return 2;
  }
  auto handleFn = reinterpret_cast<HandleFn>(dlsym(lib, "kda2_bundle_handle"));
  auto infoFn = reinterpret_cast<InfoFn>(dlsym(lib, "kda2_bundle_info"));
  if (!handleFn || !infoFn) {
    std::fprintf(stderr,
                 "bundle-decode: '%s' is not a kda2 bundle (no "
                 "kda2_bundle_handle / kda2_bundle_info)\n",
                 o.bundle.c_str());
    dlclose(lib);
    return 2;
  }
  kda2rt_bundle bundle = nullptr;
  if (!check(handleFn(&bundle, err, sizeof(err)), "bundle registration",
             err)) {
    dlclose(lib);
    return 2;
  }
  std::printf("%s", infoFn());

  const int64_t n = o.seqs, h = o.heads, d = o.dim;
  int status = 2;
  kda2rt_state_pool pool = nullptr;
  {
    int count = 0;
    if (!check(kda2rt_device_count(&count, err, sizeof(err)),
               "finding a CUDA device", err) ||
        count == 0) {
      if (count == 0 && err[0] == '\0')
        std::fprintf(stderr, "bundle-decode: no CUDA device\n");
      dlclose(lib);
      return 2;
    }
    size_t stateBytes = static_cast<size_t>(h * d * d) * sizeof(float);
    size_t budget = 2 * stateBytes * static_cast<size_t>(n);
    if (!check(kda2rt_state_pool_create(o.device, h, d, d, "f32", budget, 0,
                                        &pool, err, sizeof(err)),
               "creating the state pool", err)) {
      dlclose(lib);
      return 2;
    }
    std::vector<int64_t> ids(n);
    for (int64_t i = 0; i < n; ++i)
      ids[i] = 1000 + i; // any int64 sequence ids
    if (!check(kda2rt_state_create(pool, ids.data(), static_cast<int>(n),
                                   nullptr, nullptr, err, sizeof(err)),
               "creating the states", err))
      goto done;
    if (!check(kda2rt_bundle_set_profiling(bundle, o.timing ? 1 : 0, 1, err,
                                           sizeof(err)),
               "enabling profiling", err))
      goto done;
    {
      size_t qkElems = static_cast<size_t>(n * h * d);
      DeviceBuffer q{o.device}, k{o.device}, v{o.device}, g{o.device},
          beta{o.device}, out{o.device};
      struct Alloc {
        DeviceBuffer *buf;
        size_t bytes;
      } allocs[] = {{&q, qkElems * 2},     {&k, qkElems * 2},
                    {&v, qkElems * 2},     {&g, qkElems * 4},
                    {&beta, n * h * 4ull}, {&out, qkElems * 2}};
      for (Alloc &a : allocs)
        if (!check(kda2rt_mem_alloc(o.device, a.bytes, &a.buf->ptr, err,
                                    sizeof(err)),
                   "allocating inputs", err))
          goto done;

      // The reference states, float64, K-first [n, h, K, V] (zero, as the
      // pool creates them), carried over the steps.
      std::vector<double> refState(static_cast<size_t>(n * h * d * d), 0.0);
      std::vector<double> refOut, gotOut(qkElems);
      std::vector<uint16_t> ho(qkElems);
      ref::KdaDecodeProblem p;
      p.n = n;
      p.t = 1;
      p.h = h;
      p.kDim = p.vDim = d;
      ref::Random rng{42};
      double scale = 1.0 / std::sqrt(static_cast<double>(d));
      double worstOut = 0, worstState = 0;
      status = 0;
      for (int64_t step = 0; step < o.steps && status == 0; ++step) {
        ref::fillKdaDecodeProblem(rng, p, /*zeroState=*/true);
        const void *src[] = {p.q.data(), p.k.data(), p.v.data(), p.g.data(),
                             p.beta.data()};
        for (int i = 0; i < 5; ++i)
          if (!check(kda2rt_memcpy_htod(o.device, allocs[i].buf->ptr, src[i],
                                        allocs[i].bytes, err, sizeof(err)),
                     "copying inputs", err)) {
            status = 2;
            goto done;
          }
        kda2rt_kda_decode_args a = {};
        a.q = q.ptr;
        a.k = k.ptr;
        a.v = v.ptr;
        a.g = g.ptr;
        a.beta = beta.ptr;
        a.o = out.ptr;
        a.n = n;
        a.t = 1;
        a.h = h;
        a.k_dim = d;
        a.v_dim = d;
        a.scale = scale;
        a.dtype = "bf16";
        // The pool is K-major (created without KDA2RT_STATE_V_FIRST); the
        // kernel's `state` lines must say so too.
        a.state_layout = "kv";
        // h0/ht come from the pool: the states never leave the GPU.
        if (!check(kda2rt_bundle_decode_step(bundle, o.device, o.op.c_str(),
                                             pool, ids.data(),
                                             static_cast<int>(n), &a, nullptr,
                                             err, sizeof(err)),
                   "decode step", err)) {
          status = 2;
          goto done;
        }
        if (!check(kda2rt_memcpy_dtoh(o.device, ho.data(), out.ptr,
                                      qkElems * 2, err, sizeof(err)),
                   "reading the output", err)) {
          status = 2;
          goto done;
        }
        // Reference step; ||o - ref|| / ||ref|| of this step.
        ref::kdaDecodeReference(p, scale, refState, refOut);
        for (size_t i = 0; i < qkElems; ++i)
          gotOut[i] = ref::fromBf16(ho[i]);
        double e = ref::relativeError(gotOut.data(), refOut.data(), qkElems);
        worstOut = e > worstOut ? e : worstOut;
        if (!(worstOut < 2e-2)) {
          std::fprintf(stderr, "bundle-decode: step %lld: output error %g\n",
                       static_cast<long long>(step), worstOut);
          status = 1;
        }
      }
      // Final states: read back once, for the check only.
      void *h0 = nullptr;
      std::vector<float> states(refState.size());
      if (status == 0 &&
          check(kda2rt_state_lookup(pool, ids.data(), static_cast<int>(n),
                                    &h0, nullptr, err, sizeof(err)),
                "looking the states up", err) &&
          check(kda2rt_memcpy_dtoh(o.device, states.data(), h0,
                                   states.size() * 4, err, sizeof(err)),
                "reading the states", err)) {
        std::vector<double> got(states.begin(), states.end());
        worstState = ref::relativeError(got.data(), refState.data(),
                                        got.size());
        if (!(worstState < 1e-3))
          status = 1;
      }
      kda2rt_call_stats stats = {};
      if (check(kda2rt_bundle_stats(bundle, o.op.c_str(), &stats, err,
                                    sizeof(err)),
                "reading the statistics", err) &&
          stats.calls > 0)
        std::printf("%lld decode steps of %lld sequences (H=%lld, K=V=%lld): "
                    "host %.2f us/call (max %.2f: the first call loads the "
                    "module; the others %.2f), GPU %.4f ms/call "
                    "(min %.4f, max %.4f)\n",
                    static_cast<long long>(stats.calls),
                    static_cast<long long>(n), static_cast<long long>(h),
                    static_cast<long long>(d),
                    stats.host_us_total / stats.calls, stats.host_us_max,
                    stats.calls > 1 ? (stats.host_us_total - stats.host_us_max) /
                                          (stats.calls - 1)
                                    : 0.0,
                    stats.timed_calls ? stats.gpu_ms_total / stats.timed_calls
                                      : 0.0,
                    stats.gpu_ms_min, stats.gpu_ms_max);
      int numCounters = 0;
      if (kda2rt_bundle_read_counters(bundle, o.op.c_str(), nullptr, nullptr,
                                      0, &numCounters, err,
                                      sizeof(err)) == KDA2RT_OK)
        std::printf("kernel counters: %d\n", numCounters);
      std::printf("relative error ||x - ref|| / ||ref||: output %.3g, final "
                  "state %.3g: %s\n",
                  worstOut,
                  worstState, status == 0 ? "OK" : "MISMATCH");
    }
  }
done:
  if (pool && !check(kda2rt_state_pool_destroy(pool, err, sizeof(err)),
                     "freeing the states", err))
    status = status ? status : 2;
  dlclose(lib);
  return status;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseArgs(argc, argv, o))
    return usage("bad arguments");
  return run(o);
}
