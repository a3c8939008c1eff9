//===- Bundle.cpp - kernel bundles and their registry ---------------------===//
//
// Part of libkda2rt (no LLVM/MLIR). Modules are loaded lazily, per device,
// the first time one of their kernels is selected, so registering a bundle
// (the constructor of a kda2-link library) needs no driver.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Bundle.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace kda2::runtime;

namespace {
Status invalid(std::string message) {
  return Status::error(ErrorCode::InvalidArgument, std::move(message));
}

double nowUs() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Timing events beyond this many pending calls are resolved at launch.
constexpr size_t kMaxPendingEvents = 1024;
/// Routes (device, op, length) -> kernel kept for the launch fast path.
constexpr size_t kMaxRoutes = 16;
} // namespace

/// The events of one timed call.
struct Bundle::TimedCall {
  const Context *ctx = nullptr;
  CUevent start = nullptr, stop = nullptr;
};

/// A device's context and compute capability (queried once).
struct Bundle::Device {
  Context ctx;
  int major = 0, minor = 0;
};

/// A selected table entry on one device: its kernel, its prepared decode
/// launch and its counter buffer.
struct Bundle::Loaded {
  const Context *ctx = nullptr;
  Kernel kernel;
  /// Prepared on the first decode call; invalid when the kernel's metadata
  /// does not fit it (launchKdaDecode then takes the general path).
  KdaDecodePlan plan;
  bool planTried = false;
  CUdeviceptr counters = 0; // bundle-owned, when counters are enabled
};

struct Bundle::OpStats {
  CallStats stats;
  std::vector<TimedCall> pending;
  /// Events of resolved calls, reused by later calls.
  std::vector<CUevent> freeEvents;
  const Context *eventCtx = nullptr;
  /// Kernel times of the last kGpuWindow timed calls (a ring).
  std::vector<float> window;
  size_t windowNext = 0;
};

/// What the launch fast path needs for one (device, op, length).
struct Bundle::Route {
  int device = 0;
  std::string op;
  int64_t length = 0;
  Loaded *loaded = nullptr;
  OpStats *stats = nullptr;
};

Bundle::~Bundle() {
  // Errors are ignored: at process exit the driver may be gone already.
  for (auto &[key, loaded] : loaded_)
    if (loaded->counters)
      (void)loaded->ctx->free(loaded->counters);
  for (auto &[op, stats] : stats_) {
    for (TimedCall &call : stats->pending) {
      (void)call.ctx->driver().api().cuEventDestroy(call.start);
      (void)call.ctx->driver().api().cuEventDestroy(call.stop);
    }
    for (CUevent e : stats->freeEvents)
      (void)stats->eventCtx->driver().api().cuEventDestroy(e);
  }
  routes_.clear();
  loaded_.clear();
  modules_.clear();
}

Status Bundle::create(const kda2rt_bundle_desc &desc,
                      std::unique_ptr<Bundle> &out) {
  out.reset();
  if (desc.abi_version != KDA2RT_BUNDLE_ABI_VERSION)
    return invalid("bundle descriptor ABI version " +
                   std::to_string(desc.abi_version) + ", this libkda2rt reads " +
                   std::to_string(KDA2RT_BUNDLE_ABI_VERSION) +
                   " (rebuild the bundle with a matching kda2-link)");
  if (!desc.name || !*desc.name)
    return invalid("bundle descriptor: the name is empty");
  std::string what = "bundle '" + std::string(desc.name) + "'";
  if (desc.num_images < 0 || desc.num_entries <= 0 ||
      (desc.num_images && !desc.images) || !desc.entries)
    return invalid(what + ": no images or no entries (num_images=" +
                   std::to_string(desc.num_images) + ", num_entries=" +
                   std::to_string(desc.num_entries) + ")");
  std::unique_ptr<Bundle> b(new Bundle());
  b->name_ = desc.name;
  for (int i = 0; i < desc.num_images; ++i) {
    const kda2rt_bundle_image &img = desc.images[i];
    if (!img.data || img.size == 0)
      return invalid(what + ": image " + std::to_string(i) + " is empty");
    b->images_.push_back(img);
  }
  for (int i = 0; i < desc.num_entries; ++i) {
    const kda2rt_bundle_entry &e = desc.entries[i];
    if (e.image < 0 || e.image >= desc.num_images)
      return invalid(what + ": entry " + std::to_string(i) + " names image " +
                     std::to_string(e.image) + " of " +
                     std::to_string(desc.num_images));
    DispatchEntry entry;
    entry.op = e.op ? e.op : "";
    entry.dim = e.dim ? e.dim : "";
    entry.chip = e.chip ? e.chip : "";
    entry.kernel = e.kernel ? e.kernel : "";
    entry.minLength = e.min_length;
    entry.maxLength = e.max_length;
    entry.generic = e.generic != 0;
    entry.image = static_cast<size_t>(e.image);
    Status s = b->table_.add(std::move(entry));
    if (!s.ok())
      return s.prepend(what);
  }
  std::string d = "bundle " + b->name_ + " (" + kda2rt_version() + ")\n";
  for (size_t i = 0; i < b->images_.size(); ++i) {
    const kda2rt_bundle_image &img = b->images_[i];
    d += "image " + std::to_string(i) + " " +
         (img.chip ? img.chip : "?") + " " + std::to_string(img.size) +
         " bytes " + (img.label ? img.label : "") + "\n";
  }
  b->description_ = d + b->table_.describe();
  out = std::move(b);
  return Status::success();
}

Status Bundle::contextFor(int device, const Device *&out) {
  auto it = devices_.find(device);
  if (it == devices_.end()) {
    auto d = std::make_unique<Device>();
    KDA2RT_TRY(Context::create(device, d->ctx));
    KDA2RT_TRY(d->ctx.computeCapability(d->major, d->minor));
    it = devices_.emplace(device, std::move(d)).first;
  }
  out = it->second.get();
  return out->ctx.makeCurrent();
}

Status Bundle::loadedEntry(int device, const DispatchEntry &entry,
                           Loaded *&out) {
  auto key = std::make_pair(device, &entry);
  auto it = loaded_.find(key);
  if (it != loaded_.end()) {
    out = it->second.get();
    return Status::success();
  }
  const Device *dev = nullptr;
  KDA2RT_TRY(contextFor(device, dev));
  const Context *ctx = &dev->ctx;
  auto &module = modules_[{device, entry.image}];
  if (!module) {
    auto m = std::make_unique<Module>();
    const kda2rt_bundle_image &img = images_[entry.image];
    Status s = Module::loadData(*ctx, img.data, img.size, *m);
    if (!s.ok()) {
      modules_.erase({device, entry.image});
      return s.prepend("bundle '" + name_ + "': loading image " +
                       std::to_string(entry.image) + " (" +
                       (img.label ? img.label : "") + ", " + entry.chip + ")");
    }
    module = std::move(m);
  }
  auto loaded = std::make_unique<Loaded>();
  loaded->ctx = ctx;
  Status s = module->getKernel(entry.kernel.c_str(), loaded->kernel);
  if (!s.ok())
    return s.prepend("bundle '" + name_ + "', op '" + entry.op + "'");
  out = loaded.get();
  loaded_.emplace(key, std::move(loaded));
  return Status::success();
}

Status Bundle::selectLoaded(int device, std::string_view op, int64_t length,
                            Loaded *&out) {
  out = nullptr;
  const Device *dev = nullptr;
  KDA2RT_TRY(contextFor(device, dev));
  const DispatchEntry *entry = nullptr;
  Status s = table_.select(op, dev->major, dev->minor, length, entry);
  if (!s.ok())
    return s.prepend("bundle '" + name_ + "'");
  return loadedEntry(device, *entry, out);
}

Bundle::OpStats &Bundle::opStats(std::string_view op) {
  auto it = stats_.find(op);
  if (it == stats_.end())
    it = stats_.emplace(std::string(op), std::make_unique<OpStats>()).first;
  return *it->second;
}

Status Bundle::route(int device, std::string_view op, int64_t length,
                     const Route *&out) {
  for (const auto &r : routes_)
    if (r->device == device && r->length == length && r->op == op) {
      out = r.get();
      return Status::success();
    }
  Loaded *loaded = nullptr;
  KDA2RT_TRY(selectLoaded(device, op, length, loaded));
  auto r = std::make_unique<Route>();
  r->device = device;
  r->op = std::string(op);
  r->length = length;
  r->loaded = loaded;
  r->stats = &opStats(op);
  out = r.get();
  if (routes_.size() < kMaxRoutes) {
    routes_.push_back(std::move(r));
  } else {
    routes_[nextRoute_] = std::move(r);
    nextRoute_ = (nextRoute_ + 1) % kMaxRoutes;
  }
  return Status::success();
}

Status Bundle::select(int device, std::string_view op, int64_t length,
                      const Kernel *&out) {
  out = nullptr;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Loaded *loaded = nullptr;
  KDA2RT_TRY(selectLoaded(device, op, length, loaded));
  out = &loaded->kernel;
  return Status::success();
}

Status Bundle::counterBuffer(Loaded &loaded, CUdeviceptr &out) {
  out = 0;
  size_t n = loaded.kernel.info().counters.size();
  if (!counters_ || n == 0)
    return Status::success();
  if (!loaded.counters) {
    KDA2RT_TRY(loaded.ctx->allocate(n * sizeof(uint64_t), loaded.counters));
    KDA2RT_TRY(loaded.ctx->zero(loaded.counters, n * sizeof(uint64_t)));
  }
  out = loaded.counters;
  return Status::success();
}

Status Bundle::beginTiming(OpStats &stats, const Context &ctx,
                           CUstream stream, TimedCall &call) {
  if (stats.pending.size() >= kMaxPendingEvents)
    KDA2RT_TRY(resolvePending(stats, /*wait=*/true));
  // Recycle the events of finished calls before creating new ones
  // (cuEventCreate costs microseconds; cuEventQuery does not wait).
  if (stats.freeEvents.size() < 2 && !stats.pending.empty() &&
      ctx.driver().api().cuEventQuery)
    KDA2RT_TRY(resolvePending(stats, /*wait=*/false));
  const Driver &driver = ctx.driver();
  const Driver::Api &api = driver.api();
  call.ctx = &ctx;
  CUevent *events[] = {&call.start, &call.stop};
  for (CUevent *e : events) {
    // Reuse the events of resolved calls (same context) before creating.
    if (!stats.freeEvents.empty() && stats.eventCtx == &ctx) {
      *e = stats.freeEvents.back();
      stats.freeEvents.pop_back();
      continue;
    }
    Status s = driver.check(api.cuEventCreate(e, 0), "cuEventCreate");
    if (!s.ok()) {
      if (call.start)
        stats.freeEvents.push_back(call.start);
      return s;
    }
  }
  Status s = driver.check(api.cuEventRecord(call.start, stream),
                          "cuEventRecord");
  if (!s.ok()) {
    stats.freeEvents.push_back(call.start);
    stats.freeEvents.push_back(call.stop);
  }
  stats.eventCtx = &ctx;
  return s;
}

Status Bundle::endTiming(OpStats &stats, const TimedCall &call,
                         CUstream stream, Status launched) {
  const Driver &driver = call.ctx->driver();
  if (launched.ok())
    launched = driver.check(driver.api().cuEventRecord(call.stop, stream),
                            "cuEventRecord");
  if (launched.ok()) {
    stats.pending.push_back(call);
  } else {
    stats.freeEvents.push_back(call.start);
    stats.freeEvents.push_back(call.stop);
  }
  return launched;
}

void Bundle::countCall(OpStats &stats, double hostStartUs) {
  double us = nowUs() - hostStartUs;
  ++stats.stats.calls;
  stats.stats.hostUsTotal += us;
  stats.stats.hostUsMax = std::max(stats.stats.hostUsMax, us);
}

Status Bundle::launchWith(std::string_view op, Loaded &loaded,
                          const LaunchArgs &args, CUstream stream,
                          double hostStartUs) {
  const Kernel &kernel = loaded.kernel;
  const LaunchArgs *use = &args;
  LaunchArgs withCounters;
  CUdeviceptr counters = 0;
  KDA2RT_TRY(counterBuffer(loaded, counters));
  if (counters) {
    bool given = false;
    for (const LaunchArgs::Pointer &p : args.pointers())
      given |= p.name == "counters";
    if (!given) {
      withCounters = args;
      withCounters.ptr("counters", counters);
      use = &withCounters;
    }
  }
  OpStats &stats = opStats(op);
  TimedCall call;
  if (timing_)
    KDA2RT_TRY(beginTiming(stats, *loaded.ctx, stream, call));
  Status s = kernel.launch(*use, stream);
  if (timing_)
    s = endTiming(stats, call, stream, s);
  if (!s.ok())
    return s.prepend("bundle '" + name_ + "', op '" + std::string(op) + "'");
  countCall(stats, hostStartUs);
  return Status::success();
}

Status Bundle::launch(int device, std::string_view op, const LaunchArgs &args,
                      CUstream stream) {
  double start = nowUs();
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::string dim = table_.dimOf(op);
  const DispatchEntry *unused = nullptr;
  if (dim.empty())
    return table_.select(op, 0, 0, 0, unused).prepend("bundle '" + name_ +
                                                      "'");
  int64_t length = -1;
  for (const LaunchArgs::Size &size : args.dims())
    if (size.name == dim)
      length = size.value;
  // An op with only generic kernels needs no length.
  bool specialised = false;
  for (const DispatchEntry &e : table_.entries())
    specialised |= e.op == op && !e.generic;
  if (length < 0 && !specialised)
    length = 0;
  if (length < 0)
    return invalid("bundle '" + name_ + "', op '" + std::string(op) +
                   "' dispatches on dimension '" + dim +
                   "': give its size with the launch arguments");
  const Route *r = nullptr;
  KDA2RT_TRY(route(device, op, length, r));
  return launchWith(op, *r->loaded, args, stream, start);
}

// The decode hot path: a cached route, the kernel's prepared launch, pooled
// timing events. Without timing and counters it allocates nothing, waits for
// nothing and looks nothing up by name beyond comparing the op with the few
// cached routes.
Status Bundle::launchKdaDecode(int device, std::string_view op,
                               const KdaDecodeArgs &args, CUstream stream) {
  double start = nowUs();
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const Route *r = nullptr;
  KDA2RT_TRY(route(device, op, args.t, r));
  Loaded &loaded = *r->loaded;
  if (!loaded.planTried) {
    loaded.planTried = true;
    (void)KdaDecodePlan::create(loaded.kernel, loaded.plan);
  }
  if (!loaded.plan.valid()) {
    LaunchArgs launch;
    Status s = kdaDecodeLaunchArgs(loaded.kernel.info(), args, launch);
    if (!s.ok())
      return s.prepend("bundle '" + name_ + "', op '" + std::string(op) +
                       "'");
    return launchWith(op, loaded, launch, stream, start);
  }
  CUdeviceptr counters = 0;
  KDA2RT_TRY(counterBuffer(loaded, counters));
  OpStats &stats = *r->stats;
  TimedCall call;
  if (timing_)
    KDA2RT_TRY(beginTiming(stats, *loaded.ctx, stream, call));
  Status s = loaded.plan.launch(args, stream, counters);
  if (timing_)
    s = endTiming(stats, call, stream, s);
  if (!s.ok())
    return s.prepend("bundle '" + name_ + "', op '" + std::string(op) + "'");
  countCall(stats, start);
  return Status::success();
}

Status Bundle::decodeStep(int device, std::string_view op,
                          StateManager &states, const int64_t *ids, size_t n,
                          KdaDecodeArgs args, CUstream stream) {
  const StateLayout &layout = states.options().layout;
  if (args.n == 0)
    args.n = static_cast<int64_t>(n);
  if (args.n != static_cast<int64_t>(n))
    return invalid("decode step: args.n = " + std::to_string(args.n) +
                   " but " + std::to_string(n) + " sequence id(s) given");
  if (args.h != layout.heads || args.kDim != layout.kDim ||
      args.vDim != layout.vDim)
    return invalid("decode step: the state pool holds [" +
                   std::to_string(layout.heads) + ", " +
                   std::to_string(layout.kDim) + ", " +
                   std::to_string(layout.vDim) + "] states, the call has h=" +
                   std::to_string(args.h) + ", k_dim=" +
                   std::to_string(args.kDim) + ", v_dim=" +
                   std::to_string(args.vDim));
  if (layout.dtype != DType::F32)
    return invalid("decode step: the KDA decode kernels take f32 states, "
                   "the pool holds " +
                   std::string(dtypeName(layout.dtype)));
  // The pool's layout must be the call's; checkKdaDecode then holds the
  // call to the kernel's `state` lines, so pool and kernel agree.
  StateOrder poolOrder = layout.vFirst ? StateOrder::VK : StateOrder::KV;
  StateOrder callOrder;
  if (args.stateLayout && parseStateOrder(args.stateLayout, callOrder) &&
      callOrder != poolOrder)
    return invalid(std::string("decode step: the state pool stores its "
                               "states ") +
                   stateOrderDescription(poolOrder) +
                   (layout.vFirst ? " (created with KDA2RT_STATE_V_FIRST)"
                                  : " (created without KDA2RT_STATE_V_FIRST)") +
                   ", the call says " + stateOrderDescription(callOrder));
  StateView view;
  KDA2RT_TRY(states.lookupBatch(ids, n, view));
  auto ptr = [](CUdeviceptr p) {
    return reinterpret_cast<void *>(static_cast<uintptr_t>(p));
  };
  args.h0 = ptr(view.read);
  args.ht = ptr(view.write);
  KDA2RT_TRY(launchKdaDecode(device, op, args, stream));
  return states.advance(ids, n);
}

Status Bundle::resolvePending(OpStats &op, bool wait) {
  Status result;
  size_t kept = 0;
  for (size_t i = 0; i < op.pending.size(); ++i) {
    TimedCall &call = op.pending[i];
    const Driver &driver = call.ctx->driver();
    const Driver::Api &api = driver.api();
    float ms = 0;
    if (op.eventCtx && op.eventCtx != call.ctx) {
      // Pooled events belong to one context: drop those of another.
      for (CUevent e : op.freeEvents)
        (void)op.eventCtx->driver().api().cuEventDestroy(e);
      op.freeEvents.clear();
    }
    Status s = call.ctx->makeCurrent();
    if (s.ok() && !wait && api.cuEventQuery) {
      CUresult rc = api.cuEventQuery(call.stop);
      if (rc == cu::ErrorNotReady) {
        // Still running: keep it and the later calls (they complete in
        // launch order on a stream) for later.
        for (size_t j = i; j < op.pending.size(); ++j)
          op.pending[kept++] = op.pending[j];
        break;
      }
      s = driver.check(rc, "cuEventQuery");
    } else if (s.ok()) {
      s = driver.check(api.cuEventSynchronize(call.stop),
                       "cuEventSynchronize");
    }
    if (s.ok())
      s = driver.check(api.cuEventElapsedTime(&ms, call.start, call.stop),
                       "cuEventElapsedTime");
    op.freeEvents.push_back(call.start);
    op.freeEvents.push_back(call.stop);
    op.eventCtx = call.ctx;
    if (!s.ok()) {
      if (result.ok())
        result = s;
      continue;
    }
    CallStats &st = op.stats;
    st.gpuMsMin = st.timedCalls ? std::min<double>(st.gpuMsMin, ms) : ms;
    st.gpuMsMax = std::max<double>(st.gpuMsMax, ms);
    st.gpuMsLast = ms;
    st.gpuMsTotal += ms;
    ++st.timedCalls;
    if (op.window.size() < kGpuWindow) {
      op.window.push_back(ms);
    } else {
      op.window[op.windowNext] = ms;
      op.windowNext = (op.windowNext + 1) % kGpuWindow;
    }
  }
  op.pending.resize(kept);
  return result;
}

void Bundle::percentiles(OpStats &op) {
  // Nearest rank over the window of the last kGpuWindow timed calls.
  if (!op.window.empty()) {
    std::vector<float> sorted = op.window;
    std::sort(sorted.begin(), sorted.end());
    auto rank = [&](double p) {
      size_t i = static_cast<size_t>(std::ceil(p * sorted.size()));
      return static_cast<double>(sorted[i ? i - 1 : 0]);
    };
    op.stats.gpuMsP50 = rank(0.50);
    op.stats.gpuMsP99 = rank(0.99);
  }
}

Status Bundle::setProfiling(bool timing, bool counters) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  timing_ = timing;
  if (counters && !counters_)
    for (auto &[key, loaded] : loaded_)
      if (loaded->counters)
        KDA2RT_TRY(loaded->ctx->zero(loaded->counters,
                                     loaded->kernel.info().counters.size() *
                                         sizeof(uint64_t)));
  counters_ = counters;
  return Status::success();
}

Status Bundle::readStats(std::string_view op, CallStats &out, bool wait) {
  out = CallStats();
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (table_.dimOf(op).empty()) {
    const DispatchEntry *unused = nullptr;
    return table_.select(op, 0, 0, 0, unused).prepend("bundle '" + name_ +
                                                      "'");
  }
  auto it = stats_.find(op);
  if (it == stats_.end())
    return Status::success();
  Status s = resolvePending(*it->second, wait);
  percentiles(*it->second);
  out = it->second->stats;
  return s;
}

Status Bundle::stats(std::string_view op, CallStats &out) {
  return readStats(op, out, /*wait=*/true);
}

Status Bundle::pollStats(std::string_view op, CallStats &out) {
  return readStats(op, out, /*wait=*/false);
}

Status Bundle::readCounters(std::string_view op,
                            std::vector<CounterValue> &out) {
  out.clear();
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (table_.dimOf(op).empty()) {
    const DispatchEntry *unused = nullptr;
    return table_.select(op, 0, 0, 0, unused).prepend("bundle '" + name_ +
                                                      "'");
  }
  for (auto &[key, loaded] : loaded_) {
    if (key.second->op != op || !loaded->counters)
      continue;
    KDA2RT_TRY(loaded->ctx->synchronize(nullptr));
    std::vector<CounterValue> values;
    KDA2RT_TRY(loaded->kernel.readCounters(loaded->counters, values));
    for (CounterValue &v : values) {
      auto same = std::find_if(out.begin(), out.end(), [&](const auto &o) {
        return o.name == v.name && o.isFloat == v.isFloat;
      });
      if (same == out.end()) {
        out.push_back(v);
      } else if (v.isFloat) {
        double sum = same->asDouble() + v.asDouble();
        std::memcpy(&same->raw, &sum, sizeof(sum));
      } else {
        same->raw += v.raw;
      }
    }
  }
  return Status::success();
}

Status Bundle::resetStats() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Status result;
  for (auto &[op, stats] : stats_) {
    Status s = resolvePending(*stats, /*wait=*/true);
    if (result.ok())
      result = s;
    stats->stats = CallStats();
    stats->window.clear();
    stats->windowNext = 0;
  }
  for (auto &[key, loaded] : loaded_)
    if (loaded->counters) {
      Status s = loaded->ctx->zero(loaded->counters,
                                   loaded->kernel.info().counters.size() *
                                       sizeof(uint64_t));
      if (result.ok())
        result = s;
    }
  return result;
}

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

namespace {
struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<Bundle>> bundles; // registration order
  /// Bundles unregistered while the process exits: kept, not destroyed.
  std::vector<std::unique_ptr<Bundle>> atExit;
  bool exiting = false;
};

/// Never destroyed: bundles may unregister from their own destructors after
/// this library's statics are gone.
Registry &registry() {
  static Registry *r = [] {
    auto *r = new Registry;
    // Handlers registered with atexit run before the libraries' destructors
    // (_dl_fini), so a bundle whose destructor runs at exit (not dlclose)
    // does not unload modules through a driver that may be torn down by then.
    std::atexit([] {
      Registry &r = registry();
      std::lock_guard<std::mutex> lock(r.mutex);
      r.exiting = true;
    });
    return r;
  }();
  return *r;
}
} // namespace

Status kda2::runtime::registerBundle(const kda2rt_bundle_desc *desc,
                                     Bundle *&out) {
  out = nullptr;
  if (!desc)
    return invalid("registerBundle: the descriptor is NULL");
  std::unique_ptr<Bundle> bundle;
  KDA2RT_TRY(Bundle::create(*desc, bundle));
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &b : r.bundles)
    if (b->name() == bundle->name())
      return invalid("a bundle named '" + bundle->name() +
                     "' is already registered (two libraries with the same "
                     "bundle name?)");
  out = bundle.get();
  r.bundles.push_back(std::move(bundle));
  return Status::success();
}

Status kda2::runtime::unregisterBundle(Bundle *bundle) {
  if (!bundle)
    return Status::success();
  std::unique_ptr<Bundle> owned;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = std::find_if(r.bundles.begin(), r.bundles.end(),
                           [&](const auto &b) { return b.get() == bundle; });
    if (it == r.bundles.end())
      return invalid("unregisterBundle: not a registered bundle");
    owned = std::move(*it);
    r.bundles.erase(it);
    if (r.exiting) {
      r.atExit.push_back(std::move(owned)); // still reachable, never freed
      return Status::success();
    }
  }
  return Status::success(); // `owned` unloads its modules here
}

Status kda2::runtime::findBundle(std::string_view name, Bundle *&out) {
  out = nullptr;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::string names;
  for (const auto &b : r.bundles) {
    if (b->name() == name) {
      out = b.get();
      return Status::success();
    }
    names += (names.empty() ? "" : ", ") + b->name();
  }
  return Status::error(ErrorCode::NotFound,
                       "no bundle named '" + std::string(name) +
                           "' is registered; registered: " +
                           (names.empty() ? "none" : names));
}

std::vector<std::string> kda2::runtime::registeredBundles() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto &b : r.bundles)
    names.push_back(b->name());
  return names;
}
