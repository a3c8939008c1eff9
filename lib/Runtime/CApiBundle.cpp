//===- CApiBundle.cpp - C ABI of bundles and the state pool ---------------===//
//
// The kda2rt_bundle_* and kda2rt_state_* functions of kda2rt.h: thin noexcept
// wrappers over Bundle, the bundle registry and StateManager.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Bundle.h"
#include "kda2/Runtime/kda2rt.h"

#include "CApiSupport.h"

#include <map>
#include <memory>
#include <mutex>

using namespace kda2::runtime;
using namespace kda2::runtime::capi;

/// The C handle of a registered bundle, with the kernel handles it gave out.
struct kda2rt_bundle_s {
  Bundle *bundle = nullptr;
  std::mutex mutex; // guards kernels and counters
  std::map<const Kernel *, std::unique_ptr<kda2rt_kernel_s>> kernels;
  /// The last kda2rt_bundle_read_counters result (its names are returned).
  std::vector<CounterValue> counters;
};

struct kda2rt_state_pool_s {
  std::unique_ptr<DeviceAllocator> allocator;
  std::unique_ptr<StateManager> states;
};

namespace {

struct Handles {
  std::mutex mutex;
  std::map<Bundle *, std::unique_ptr<kda2rt_bundle_s>> byBundle;
};

/// Never destroyed (bundles unregister from library destructors).
Handles &handles() {
  static Handles *h = new Handles;
  return *h;
}

kda2rt_bundle handleOf(Bundle *bundle) {
  Handles &h = handles();
  std::lock_guard<std::mutex> lock(h.mutex);
  auto &slot = h.byBundle[bundle];
  if (!slot) {
    slot = std::make_unique<kda2rt_bundle_s>();
    slot->bundle = bundle;
  }
  return slot.get();
}

CUstream streamOf(void *stream) { return static_cast<CUstream>(stream); }

/// "f(): <what> is NULL" for the first null of `named`.
Status nulls(const char *fn,
             std::initializer_list<std::pair<const char *, const void *>>
                 named) {
  for (auto [name, p] : named)
    if (!p)
      return invalid(std::string(fn) + ": " + name + " is NULL");
  return Status::success();
}

Status idCount(const char *fn, const int64_t *ids, int n) {
  if (!ids || n <= 0)
    return invalid(std::string(fn) + ": ids is NULL or n (" +
                   std::to_string(n) + ") is not positive");
  return Status::success();
}

void *hostptr(CUdeviceptr p) {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(p));
}

} // namespace

extern "C" {

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

int kda2rt_bundle_register(const kda2rt_bundle_desc *desc, kda2rt_bundle *out,
                           char *err, size_t errlen) noexcept {
  if (out)
    *out = nullptr;
  Status s = nulls("kda2rt_bundle_register", {{"desc", desc}, {"out", out}});
  Bundle *bundle = nullptr;
  if (s.ok())
    s = registerBundle(desc, bundle);
  if (s.ok())
    *out = handleOf(bundle);
  return finish(s, err, errlen);
}

int kda2rt_bundle_unregister(kda2rt_bundle bundle, char *err,
                             size_t errlen) noexcept {
  if (!bundle)
    return finish(Status::success(), err, errlen);
  std::unique_ptr<kda2rt_bundle_s> owned;
  {
    Handles &h = handles();
    std::lock_guard<std::mutex> lock(h.mutex);
    auto it = h.byBundle.find(bundle->bundle);
    if (it == h.byBundle.end() || it->second.get() != bundle)
      return finish(invalid("kda2rt_bundle_unregister: not a registered "
                            "bundle handle"),
                    err, errlen);
    owned = std::move(it->second);
    h.byBundle.erase(it);
  }
  return finish(unregisterBundle(owned->bundle), err, errlen);
}

int kda2rt_bundle_count(void) noexcept {
  return static_cast<int>(registeredBundles().size());
}

const char *kda2rt_bundle_name_at(int index) noexcept {
  std::vector<std::string> names = registeredBundles();
  if (index < 0 || static_cast<size_t>(index) >= names.size())
    return nullptr;
  Bundle *bundle = nullptr;
  if (!findBundle(names[index], bundle).ok())
    return nullptr;
  return bundle->name().c_str();
}

int kda2rt_bundle_find(const char *name, kda2rt_bundle *out, char *err,
                       size_t errlen) noexcept {
  if (out)
    *out = nullptr;
  Status s = nulls("kda2rt_bundle_find", {{"name", name}, {"out", out}});
  Bundle *bundle = nullptr;
  if (s.ok())
    s = findBundle(name, bundle);
  if (s.ok())
    *out = handleOf(bundle);
  return finish(s, err, errlen);
}

const char *kda2rt_bundle_name(kda2rt_bundle bundle) noexcept {
  return bundle ? bundle->bundle->name().c_str() : nullptr;
}

const char *kda2rt_bundle_describe(kda2rt_bundle bundle) noexcept {
  return bundle ? bundle->bundle->description().c_str() : nullptr;
}

//===----------------------------------------------------------------------===//
// Dispatch and launch
//===----------------------------------------------------------------------===//

int kda2rt_bundle_query(kda2rt_bundle bundle, const char *op, int major,
                        int minor, int64_t length, const char **kernel,
                        int *generic, char *err, size_t errlen) noexcept {
  Status s = nulls("kda2rt_bundle_query", {{"bundle", bundle}, {"op", op}});
  const DispatchEntry *entry = nullptr;
  if (s.ok())
    s = bundle->bundle->table().select(op, major, minor, length, entry);
  if (kernel)
    *kernel = s.ok() ? entry->kernel.c_str() : nullptr;
  if (generic)
    *generic = s.ok() && entry->generic ? 1 : 0;
  return finish(s, err, errlen);
}

int kda2rt_bundle_select(kda2rt_bundle bundle, int device, const char *op,
                         int64_t length, kda2rt_kernel *out, char *err,
                         size_t errlen) noexcept {
  if (out)
    *out = nullptr;
  Status s = nulls("kda2rt_bundle_select",
                   {{"bundle", bundle}, {"op", op}, {"out", out}});
  const Kernel *kernel = nullptr;
  if (s.ok())
    s = bundle->bundle->select(device, op, length, kernel);
  if (!s.ok())
    return finish(s, err, errlen);
  std::lock_guard<std::mutex> lock(bundle->mutex);
  auto &slot = bundle->kernels[kernel];
  if (!slot) {
    slot = std::make_unique<kda2rt_kernel_s>();
    slot->kernel = *kernel;
  }
  *out = slot.get();
  return finish(s, err, errlen);
}

int kda2rt_bundle_launch(kda2rt_bundle bundle, int device, const char *op,
                         const char **ptr_names, void *const *ptrs, int nptr,
                         const char **dim_names, const int64_t *dims, int ndim,
                         const char **scalar_names, const double *scalars,
                         int nscalar, void *stream, char *err,
                         size_t errlen) noexcept {
  Status s = nulls("kda2rt_bundle_launch", {{"bundle", bundle}, {"op", op}});
  LaunchArgs args;
  if (s.ok())
    s = launchArgsFromC("kda2rt_bundle_launch", ptr_names, ptrs, nptr,
                        dim_names, dims, ndim, scalar_names, scalars, nscalar,
                        args);
  if (s.ok())
    s = bundle->bundle->launch(device, op, args, streamOf(stream));
  return finish(s, err, errlen);
}

int kda2rt_bundle_kda_decode(kda2rt_bundle bundle, int device, const char *op,
                             const kda2rt_kda_decode_args *args, void *stream,
                             char *err, size_t errlen) noexcept {
  Status s = nulls("kda2rt_bundle_kda_decode",
                   {{"bundle", bundle}, {"op", op}, {"args", args}});
  if (s.ok())
    s = bundle->bundle->launchKdaDecode(device, op, toKdaDecodeArgs(*args),
                                        streamOf(stream));
  return finish(s, err, errlen);
}

int kda2rt_bundle_decode_step(kda2rt_bundle bundle, int device, const char *op,
                              kda2rt_state_pool pool, const int64_t *ids,
                              int n, const kda2rt_kda_decode_args *args,
                              void *stream, char *err, size_t errlen) noexcept {
  Status s = nulls("kda2rt_bundle_decode_step", {{"bundle", bundle},
                                                 {"op", op},
                                                 {"pool", pool},
                                                 {"args", args}});
  if (s.ok())
    s = idCount("kda2rt_bundle_decode_step", ids, n);
  if (s.ok())
    s = bundle->bundle->decodeStep(device, op, *pool->states, ids,
                                   static_cast<size_t>(n),
                                   toKdaDecodeArgs(*args), streamOf(stream));
  return finish(s, err, errlen);
}

//===----------------------------------------------------------------------===//
// Profiling
//===----------------------------------------------------------------------===//

int kda2rt_bundle_set_profiling(kda2rt_bundle bundle, int timing, int counters,
                                char *err, size_t errlen) noexcept {
  Status s = nulls("kda2rt_bundle_set_profiling", {{"bundle", bundle}});
  if (s.ok())
    s = bundle->bundle->setProfiling(timing != 0, counters != 0);
  return finish(s, err, errlen);
}

int kda2rt_bundle_stats(kda2rt_bundle bundle, const char *op,
                        kda2rt_call_stats *out, char *err,
                        size_t errlen) noexcept {
  Status s = nulls("kda2rt_bundle_stats",
                   {{"bundle", bundle}, {"op", op}, {"out", out}});
  CallStats stats;
  if (s.ok())
    s = bundle->bundle->stats(op, stats);
  if (out) {
    out->calls = stats.calls;
    out->timed_calls = stats.timedCalls;
    out->host_us_total = stats.hostUsTotal;
    out->host_us_max = stats.hostUsMax;
    out->gpu_ms_total = stats.gpuMsTotal;
    out->gpu_ms_min = stats.gpuMsMin;
    out->gpu_ms_max = stats.gpuMsMax;
    out->gpu_ms_last = stats.gpuMsLast;
  }
  return finish(s, err, errlen);
}

int kda2rt_bundle_read_counters(kda2rt_bundle bundle, const char *op,
                                const char **names, double *values,
                                int capacity, int *count, char *err,
                                size_t errlen) noexcept {
  if (count)
    *count = 0;
  Status s = nulls("kda2rt_bundle_read_counters",
                   {{"bundle", bundle}, {"op", op}, {"count", count}});
  std::vector<CounterValue> counters;
  if (s.ok())
    s = bundle->bundle->readCounters(op, counters);
  if (!s.ok())
    return finish(s, err, errlen);
  *count = static_cast<int>(counters.size());
  std::lock_guard<std::mutex> lock(bundle->mutex);
  bundle->counters = std::move(counters);
  for (int i = 0; i < *count && i < capacity; ++i) {
    if (values)
      values[i] = bundle->counters[i].asDouble();
    if (names)
      names[i] = bundle->counters[i].name.c_str();
  }
  return finish(s, err, errlen);
}

int kda2rt_bundle_reset_stats(kda2rt_bundle bundle, char *err,
                              size_t errlen) noexcept {
  Status s = nulls("kda2rt_bundle_reset_stats", {{"bundle", bundle}});
  if (s.ok())
    s = bundle->bundle->resetStats();
  return finish(s, err, errlen);
}

//===----------------------------------------------------------------------===//
// State pool
//===----------------------------------------------------------------------===//

int kda2rt_state_pool_create(int device, int64_t heads, int64_t k_dim,
                             int64_t v_dim, const char *dtype,
                             size_t budget_bytes, int flags,
                             kda2rt_state_pool *out, char *err,
                             size_t errlen) noexcept {
  if (out)
    *out = nullptr;
  Status s = nulls("kda2rt_state_pool_create", {{"out", out}});
  StateManagerOptions options;
  options.layout.heads = heads;
  options.layout.kDim = k_dim;
  options.layout.vDim = v_dim;
  options.layout.vFirst = (flags & KDA2RT_STATE_V_FIRST) != 0;
  options.budgetBytes = budget_bytes;
  options.doubleBuffer = (flags & KDA2RT_STATE_SINGLE_BUFFER) == 0;
  options.evictLru = (flags & KDA2RT_STATE_EVICT_LRU) != 0;
  options.zeroOnCreate = (flags & KDA2RT_STATE_NO_ZERO) == 0;
  if (s.ok() && dtype && !parseDType(dtype, options.layout.dtype))
    s = invalid(std::string("kda2rt_state_pool_create: unknown dtype '") +
                dtype + "'");
  const Context *ctx = nullptr;
  if (s.ok())
    s = deviceContext(device, ctx);
  if (!s.ok())
    return finish(s, err, errlen);
  auto pool = std::make_unique<kda2rt_state_pool_s>();
  pool->allocator = makeContextAllocator(*ctx);
  s = StateManager::create(*pool->allocator, options, pool->states);
  if (s.ok())
    *out = pool.release();
  return finish(s, err, errlen);
}

int kda2rt_state_pool_destroy(kda2rt_state_pool pool, char *err,
                              size_t errlen) noexcept {
  if (!pool)
    return finish(Status::success(), err, errlen);
  Status s = pool->states->clear();
  delete pool;
  return finish(s, err, errlen);
}

static int stateBatch(const char *fn, kda2rt_state_pool pool,
                      const int64_t *ids, int n, void **h0, void **ht,
                      bool create, char *err, size_t errlen) {
  if (h0)
    *h0 = nullptr;
  if (ht)
    *ht = nullptr;
  Status s = nulls(fn, {{"pool", pool}});
  if (s.ok())
    s = idCount(fn, ids, n);
  StateView view;
  if (s.ok())
    s = create ? pool->states->createBatch(ids, static_cast<size_t>(n), view)
               : pool->states->lookupBatch(ids, static_cast<size_t>(n), view);
  if (s.ok() && h0)
    *h0 = hostptr(view.read);
  if (s.ok() && ht)
    *ht = hostptr(view.write);
  return finish(s, err, errlen);
}

int kda2rt_state_create(kda2rt_state_pool pool, const int64_t *ids, int n,
                        void **h0, void **ht, char *err,
                        size_t errlen) noexcept {
  return stateBatch("kda2rt_state_create", pool, ids, n, h0, ht,
                    /*create=*/true, err, errlen);
}

int kda2rt_state_lookup(kda2rt_state_pool pool, const int64_t *ids, int n,
                        void **h0, void **ht, char *err,
                        size_t errlen) noexcept {
  return stateBatch("kda2rt_state_lookup", pool, ids, n, h0, ht,
                    /*create=*/false, err, errlen);
}

int kda2rt_state_advance(kda2rt_state_pool pool, const int64_t *ids, int n,
                         char *err, size_t errlen) noexcept {
  Status s = nulls("kda2rt_state_advance", {{"pool", pool}});
  if (s.ok())
    s = idCount("kda2rt_state_advance", ids, n);
  if (s.ok())
    s = pool->states->advance(ids, static_cast<size_t>(n));
  return finish(s, err, errlen);
}

int kda2rt_state_evict(kda2rt_state_pool pool, int64_t id, char *err,
                       size_t errlen) noexcept {
  Status s = nulls("kda2rt_state_evict", {{"pool", pool}});
  if (s.ok())
    s = pool->states->evict(id);
  return finish(s, err, errlen);
}

int kda2rt_state_evict_lru(kda2rt_state_pool pool, int64_t *evicted,
                           int capacity, int *count, char *err,
                           size_t errlen) noexcept {
  if (count)
    *count = 0;
  Status s = nulls("kda2rt_state_evict_lru", {{"pool", pool}});
  std::vector<int64_t> ids;
  if (s.ok())
    s = pool->states->evictLeastRecentlyUsed(ids);
  if (count)
    *count = static_cast<int>(ids.size());
  for (size_t i = 0; evicted && i < ids.size() &&
                     i < static_cast<size_t>(capacity > 0 ? capacity : 0);
       ++i)
    evicted[i] = ids[i];
  return finish(s, err, errlen);
}

int kda2rt_state_pool_usage(kda2rt_state_pool pool, size_t *bytes_in_use,
                            size_t *budget_bytes, int64_t *sequences) noexcept {
  if (!pool)
    return finish(invalid("kda2rt_state_pool_usage: pool is NULL"), nullptr,
                  0);
  if (bytes_in_use)
    *bytes_in_use = pool->states->bytesInUse();
  if (budget_bytes)
    *budget_bytes = pool->states->budgetBytes();
  if (sequences)
    *sequences = static_cast<int64_t>(pool->states->numSequences());
  return KDA2RT_OK;
}

} // extern "C"
