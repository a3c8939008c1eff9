//===- kda2-perf.cpp - time a kda2 kernel or bundle on the GPU ------------===//
//
// Runs one kernel of a cubin/PTX module (by kernel name) or one op of a
// kda2-link bundle (by op name) on given shapes: checks a KDA decode kernel
// against the CPU reference (kda2/Runtime/Reference.h) with NaN-poisoned
// outputs, then times --iters launches after --warmup ones with CUDA events
// around each launch (and, with --graph, one-launch CUDA graphs), and
// reports the median / P99 / min kernel time, the host time of the launch
// call, TFLOP/s and GB/s against the hardware profile's peaks, the kernel's
// counter slots (--collect-counters), as text or as JSON (schema
// kda2-perf-v1, docs/Tools.md). Links only libkda2rt: no LLVM/MLIR.
//
// Exit codes: 0 ok (or timing only), 1 bad arguments / input / no GPU /
// launch failure, 2 the results differ from the reference.
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"

#include "kda2/Runtime/Bundle.h"
#include "kda2/Runtime/KDA.h"
#include "kda2/Runtime/Reference.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace kda2;
using namespace kda2::runtime;
using namespace kda2::tools;
namespace ref = kda2::runtime::reference;

namespace {

const char *kUsage =
    "usage: kda2-perf <module.cubin|module.ptx|bundle.so> [options]\n"
    "  --kernel NAME          kernel of a module (default: its only kernel)\n"
    "  --op NAME              op of a bundle (default: its only op)\n"
    "  --shape a=1,b=2        dimension sizes (decode default n=64,h=4,t=1)\n"
    "  --scalar name=value    a scalar argument of a non-decode kernel\n"
    "  --warmup N             untimed launches first (default 10)\n"
    "  --iters N              timed launches (default 100)\n"
    "  --graph                also time one-launch CUDA graphs\n"
    "  --collect-counters     read the kernel's counter slots\n"
    "  --no-check             skip the reference check\n"
    "  --profile NAME|FILE    hardware profile for the peaks (default: by "
    "device name)\n"
    "  --peak-tflops X        peak TFLOP/s (overrides the profile)\n"
    "  --peak-gbps X          peak memory bandwidth in GB/s (overrides)\n"
    "  --device N             CUDA device ordinal (default 0)\n"
    "  --seed N               random inputs seed (default 1)\n"
    "  --json                 machine-readable output (schema kda2-perf-v1)\n";

struct Options {
  std::string input, kernel, op, profile;
  std::vector<std::pair<std::string, int64_t>> dims;
  std::vector<std::pair<std::string, double>> scalars;
  int64_t warmup = 10, iters = 100, device = 0, seed = 1;
  double peakTflops = 0, peakGbps = 0;
  bool graph = false, counters = false, check = true, json = false;
};

int fail(const std::string &message) {
  std::fprintf(stderr, "kda2-perf: error: %s\n", message.c_str());
  return 1;
}

bool endsWith(const std::string &s, const char *suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

/// Parses argv; on failure `error` names the option.
bool parseOptions(int argc, char **argv, Options &o, std::string &error) {
  ArgReader args(argc, argv);
  while (args.next()) {
    const std::string &arg = args.arg();
    bool hasValue = args.hasInlineValue();
    auto next = [&](std::string &out) { return args.value(out, error); };
    std::string v;
    if (arg == "--help" || arg == "-h") {
      error = "help";
      return false;
    } else if (arg == "--graph" || arg == "--collect-counters" ||
               arg == "--no-check" || arg == "--json") {
      if (hasValue) {
        error = arg + " takes no value";
        return false;
      }
      (arg == "--graph"              ? o.graph
       : arg == "--collect-counters" ? o.counters
       : arg == "--json"             ? o.json
                                     : o.check) = arg != "--no-check";
    } else if (arg == "--kernel" || arg == "--op" || arg == "--profile") {
      if (!next(v))
        return false;
      if (v.empty()) {
        error = arg + " needs a non-empty value";
        return false;
      }
      (arg == "--kernel" ? o.kernel : arg == "--op" ? o.op : o.profile) = v;
    } else if (arg == "--shape") {
      if (!next(v) || !parseDims(arg, v, o.dims, error))
        return false;
    } else if (arg == "--scalar") {
      if (!next(v))
        return false;
      size_t eq = v.find('=');
      double x = 0;
      if (eq == std::string::npos || eq == 0) {
        error = "--scalar expects name=value, got '" + v + "'";
        return false;
      }
      if (!parseNumber("--scalar " + v.substr(0, eq), v.substr(eq + 1),
                       -1e300, true, x, error))
        return false;
      o.scalars.emplace_back(v.substr(0, eq), x);
    } else if (arg == "--warmup" || arg == "--iters" || arg == "--device" ||
               arg == "--seed") {
      if (!next(v))
        return false;
      int64_t lo = arg == "--iters" ? 1 : 0;
      int64_t hi = arg == "--seed" ? INT64_MAX : arg == "--device" ? 1023
                                                                 : 10000000;
      int64_t &dst = arg == "--warmup"   ? o.warmup
                     : arg == "--iters"  ? o.iters
                     : arg == "--device" ? o.device
                                         : o.seed;
      if (!parseInt(arg, v, lo, hi, dst, error))
        return false;
    } else if (arg == "--peak-tflops" || arg == "--peak-gbps") {
      if (!next(v) || !parseNumber(arg, v, 0, false,
                                   arg == "--peak-tflops" ? o.peakTflops
                                                          : o.peakGbps,
                                   error))
        return false;
    } else if (arg.rfind("-", 0) == 0) {
      error = "unknown option '" + arg + "' (see --help)";
      return false;
    } else if (o.input.empty()) {
      o.input = arg;
    } else {
      error = "more than one input: '" + o.input + "' and '" + arg + "'";
      return false;
    }
  }
  if (o.input.empty()) {
    error = "no input: give a .cubin, .ptx or bundle .so";
    return false;
  }
  return true;
}

/// A decode problem's FLOPs and bytes: per token and (sequence, head) the
/// decay (KV), S^T k (2KV), the update (2KV) and S^T q (2KV); the state is
/// read and written once per call, q/k/v/g/beta read and o written per token.
void decodeWork(const ref::KdaDecodeProblem &p, double &flops,
                double &bytes) {
  double nh = static_cast<double>(p.n * p.h), K = p.kDim, V = p.vDim;
  flops = nh * p.t * 7 * K * V;
  bytes = nh * (2 * K * V * 4 + p.t * (2 * K * 2 + 2 * V * 2 + K * 4 + 4));
}

/// Random values for a buffer of `dtype` (integers are zero).
std::vector<unsigned char> randomBytes(DType dtype, size_t count,
                                       ref::Random &rng) {
  std::vector<unsigned char> bytes(count * dtypeSize(dtype), 0);
  for (size_t i = 0; i < count; ++i) {
    float x = static_cast<float>(rng.nonZero(-1, 1));
    switch (dtype) {
    case DType::F32:
      std::memcpy(&bytes[i * 4], &x, 4);
      break;
    case DType::F64: {
      double d = x;
      std::memcpy(&bytes[i * 8], &d, 8);
      break;
    }
    case DType::BF16:
    case DType::F16: {
      uint16_t b = dtype == DType::BF16 ? ref::toBf16(x) : ref::toF16(x);
      std::memcpy(&bytes[i * 2], &b, 2);
      break;
    }
    default:
      break;
    }
  }
  return bytes;
}

/// Everything one run needs, filled by prepare().
struct Run {
  Context ctx;
  // Input
  void *library = nullptr;
  Bundle *bundle = nullptr;
  Module module;
  Kernel moduleKernel;
  const Kernel *kernel = nullptr;
  std::string what; // "bundle X op Y" or "module X kernel Y"
  // Decode
  bool decode = false;
  std::string noReference; // why there is no reference ("" if there is)
  ref::KdaDecodeProblem problem;
  KdaDecodeArgs args;
  KdaDecodePlan plan;
  // Generic
  LaunchArgs launch;
  std::vector<DeviceBuffer> buffers;
  std::vector<std::string> notes;
  DeviceBuffer counters;
  double flops = 0, bytes = 0;
  CUstream stream = nullptr;
  std::function<Status()> launchOnce;

  Run() = default;
  Run(const Run &) = delete;
  Run &operator=(const Run &) = delete;
  ~Run() {
    if (stream && ctx.driver().api().cuStreamDestroy)
      (void)ctx.driver().api().cuStreamDestroy(stream);
  }
};

int64_t dimOr(const Options &o, const std::string &name, int64_t fallback) {
  for (const auto &d : o.dims)
    if (d.first == name)
      return d.second;
  return fallback;
}

bool hasDim(const Options &o, const std::string &name) {
  for (const auto &d : o.dims)
    if (d.first == name)
      return true;
  return false;
}

/// Loads the kernel (module or bundle op).
Status loadKernel(const Options &o, Run &r) {
  struct stat st;
  if (stat(o.input.c_str(), &st) != 0)
    return Status::error(ErrorCode::Io, "cannot read input '" + o.input +
                                            "': " + std::strerror(errno));
  if (endsWith(o.input, ".so") || o.input.find(".so.") != std::string::npos) {
    if (!o.kernel.empty())
      return Status::error(ErrorCode::InvalidArgument,
                           "--kernel is for modules; a bundle takes --op");
    std::string path = o.input.find('/') == std::string::npos
                           ? "./" + o.input
                           : o.input;
    r.library = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!r.library)
      return Status::error(ErrorCode::Io, std::string("cannot load bundle '") +
                                              o.input + "': " + dlerror());
    using HandleFn = int (*)(kda2rt_bundle *, char *, size_t);
    auto handle =
        reinterpret_cast<HandleFn>(dlsym(r.library, "kda2_bundle_handle"));
    char err[1024] = {0};
    kda2rt_bundle h = nullptr;
    if (!handle)
      return Status::error(ErrorCode::InvalidArgument,
                           "'" + o.input +
                               "' is not a kda2 bundle (no kda2_bundle_handle)");
    if (handle(&h, err, sizeof(err)) != KDA2RT_OK)
      return Status::error(ErrorCode::InvalidArgument,
                           std::string("bundle registration failed: ") + err);
    KDA2RT_TRY(findBundle(kda2rt_bundle_name(h), r.bundle));
    std::vector<std::string> ops = r.bundle->ops();
    std::string op = o.op;
    std::string list;
    for (const std::string &x : ops)
      list += (list.empty() ? "" : ", ") + x;
    if (op.empty() && ops.size() == 1)
      op = ops[0];
    if (op.empty())
      return Status::error(ErrorCode::InvalidArgument,
                           "the bundle has several ops (" + list +
                               "): choose one with --op");
    std::string dim = r.bundle->table().dimOf(op);
    if (dim.empty())
      return Status::error(ErrorCode::InvalidArgument,
                           "--op: unknown op '" + op + "'; the bundle has: " +
                               list);
    int64_t length = dimOr(o, dim, dim == "t" ? 1 : -1);
    if (length < 0)
      return Status::error(ErrorCode::InvalidArgument,
                           "op '" + op + "' dispatches on dimension '" + dim +
                               "': give it with --shape " + dim + "=N");
    KDA2RT_TRY(r.bundle->select(static_cast<int>(o.device), op, length,
                                r.kernel));
    r.what = "bundle " + r.bundle->name() + " op " + op + " (kernel " +
             r.kernel->name() + ")";
    return Status::success();
  }
  if (!o.op.empty())
    return Status::error(ErrorCode::InvalidArgument,
                         "--op is for bundles; a module takes --kernel");
  KDA2RT_TRY(Module::loadFile(r.ctx, o.input, r.module));
  std::string name = o.kernel;
  // The module's kernels, without the shape-specialised copies that a
  // kernel's `variant` lines dispatch to (Kernel::launch picks them).
  std::vector<std::string> names = r.module.kernelNames(), variants;
  for (const std::string &k : names) {
    std::string text;
    KernelInfo info;
    if (r.module.readMetadata(k.c_str(), text).ok() &&
        parseKernelMetadata(text, info).ok())
      for (const VariantInfo &v : info.variants)
        variants.push_back(v.kernel);
  }
  for (const std::string &v : variants)
    names.erase(std::remove(names.begin(), names.end(), v), names.end());
  if (name.empty() && names.size() == 1)
    name = names[0];
  if (name.empty()) {
    std::string list;
    for (const std::string &x : names)
      list += (list.empty() ? "" : ", ") + x;
    return Status::error(ErrorCode::InvalidArgument,
                         "the module has " + std::to_string(names.size()) +
                             " kernels (" + (list.empty() ? "none found" : list) +
                             "): choose one with --kernel");
  }
  KDA2RT_TRY(r.module.getKernel(name.c_str(), r.moduleKernel).prepend("--kernel"));
  r.kernel = &r.moduleKernel;
  r.what = "module " + o.input + " kernel " + name;
  return Status::success();
}

/// Whether the kernel takes the decode arguments, and whether the reference
/// applies to it.
void classify(Run &r) {
  const KernelInfo &info = r.kernel->info();
  // Exactly the decode arguments (kda_decode_gate / _varlen take others).
  r.decode = true;
  for (const char *a : {"q", "k", "v", "g", "beta", "h0", "o", "ht"})
    r.decode &= info.findArg(a) != nullptr;
  for (const ArgInfo &a : info.args)
    r.decode &= a.kind == ArgInfo::Counters ||
                (a.kind == ArgInfo::Ptr &&
                 (a.name == "q" || a.name == "k" || a.name == "v" ||
                  a.name == "g" || a.name == "beta" || a.name == "h0" ||
                  a.name == "o" || a.name == "ht")) ||
                (a.kind == ArgInfo::Scalar && a.name == "scale") ||
                (a.kind == ArgInfo::Dim &&
                 (a.name == "n" || a.name == "t" || a.name == "h"));
  if (!r.decode)
    r.noReference = "no reference for kernel " + info.name + "; timing only";
  else if (info.name.find("fused") != std::string::npos)
    r.noReference = "no reference for kernel " + info.name +
                    " (it normalises q/k and applies sigmoid(beta) in the "
                    "kernel; the reference does not); timing only";
}

Status prepareDecode(const Options &o, Run &r) {
  const KernelInfo &info = r.kernel->info();
  ref::KdaDecodeProblem &p = r.problem;
  const ArgInfo *q = info.findArg("q"), *v = info.findArg("v");
  p.kDim = q->shape.empty() ? 0 : q->shape.back().size;
  p.vDim = v->shape.empty() ? 0 : v->shape.back().size;
  p.n = dimOr(o, "n", 64);
  p.t = dimOr(o, "t", 1);
  p.h = dimOr(o, "h", 4);
  for (const auto &d : o.dims)
    if (d.first != "n" && d.first != "t" && d.first != "h")
      return Status::error(ErrorCode::InvalidArgument,
                           "--shape: a decode kernel takes n, t and h, not '" +
                               d.first + "'");
  if (p.n <= 0 || p.t <= 0 || p.h <= 0)
    return Status::error(ErrorCode::InvalidArgument,
                         "--shape: n, t and h must be positive");
  p.f16 = q->dtype == DType::F16;
  // The state layout the kernel's metadata declares (its `state h0` line);
  // a kernel without one is refused by checkKdaDecode at the launch.
  StateOrder layout = info.findArg("h0")->stateLayout;
  p.vFirst = layout == StateOrder::VK;
  ref::Random rng{static_cast<uint64_t>(o.seed)};
  ref::fillKdaDecodeProblem(rng, p);
  decodeWork(p, r.flops, r.bytes);
  // q k v g beta h0 | o ht
  const void *host[] = {p.q.data(), p.k.data(), p.v.data(),
                        p.g.data(), p.beta.data(), p.h0.data()};
  size_t sizes[] = {p.q.size() * 2,    p.k.size() * 2, p.v.size() * 2,
                    p.g.size() * 4,    p.beta.size() * 4,
                    p.h0.size() * 4,   p.vElements() * 2,
                    p.stateElements() * 4};
  r.buffers.resize(8);
  for (size_t i = 0; i < 8; ++i) {
    KDA2RT_TRY(r.buffers[i].allocate(r.ctx, sizes[i]));
    if (i < 6)
      KDA2RT_TRY(r.ctx.copyToDevice(r.buffers[i].get(), host[i], sizes[i]));
  }
  KdaDecodeArgs &a = r.args;
  a.q = r.buffers[0].pointer();
  a.k = r.buffers[1].pointer();
  a.v = r.buffers[2].pointer();
  a.g = r.buffers[3].pointer();
  a.beta = r.buffers[4].pointer();
  a.h0 = r.buffers[5].pointer();
  a.o = r.buffers[6].pointer();
  a.ht = r.buffers[7].pointer();
  a.n = p.n;
  a.t = p.t;
  a.h = p.h;
  a.kDim = p.kDim;
  a.vDim = p.vDim;
  a.dtype = p.f16 ? "f16" : "bf16";
  a.stateLayout = p.vFirst ? "vk" : "kv";
  if (!r.bundle)
    KDA2RT_TRY(KdaDecodePlan::create(*r.kernel, r.plan));
  return Status::success();
}

Status prepareGeneric(const Options &o, Run &r) {
  const KernelInfo &info = r.kernel->info();
  ref::Random rng{static_cast<uint64_t>(o.seed)};
  for (const auto &d : o.dims)
    r.launch.dim(d.first, d.second);
  for (const std::string &d : info.dimNames())
    if (!hasDim(o, d))
      return Status::error(ErrorCode::InvalidArgument,
                           "--shape: kernel '" + info.name +
                               "' needs the size of dimension '" + d + "'");
  r.buffers.reserve(info.args.size());
  for (const ArgInfo &a : info.args) {
    if (a.kind == ArgInfo::Scalar) {
      bool given = false;
      for (const auto &s : o.scalars)
        if (s.first == a.name) {
          r.launch.floatScalar(a.name, s.second);
          given = true;
        }
      if (!given) {
        r.launch.floatScalar(a.name, 1.0);
        r.notes.push_back("scalar '" + a.name +
                          "' not given (--scalar): using 1");
      }
      continue;
    }
    if (a.kind != ArgInfo::Ptr)
      continue;
    size_t count = 1;
    for (const ShapeDim &d : a.shape) {
      int64_t extent = d.size;
      if (d.kind == ShapeDim::Dynamic)
        return Status::error(ErrorCode::InvalidArgument,
                             "argument '" + a.name +
                                 "' has a dynamic ('?') dimension: kda2-perf "
                                 "cannot size its buffer");
      if (d.kind == ShapeDim::Named)
        extent = (dimOr(o, d.name, 0) + d.padTo - 1) / d.padTo * d.padTo;
      count *= static_cast<size_t>(extent);
    }
    DeviceBuffer buf;
    size_t bytes = count * dtypeSize(a.dtype);
    KDA2RT_TRY(buf.allocate(r.ctx, bytes));
    if (a.access == Access::Out) {
      KDA2RT_TRY(r.ctx.driver().check(
          r.ctx.driver().api().cuMemsetD8(buf.get(), 0xFF, bytes ? bytes : 16),
          "cuMemsetD8"));
    } else {
      std::vector<unsigned char> host = randomBytes(a.dtype, count, rng);
      KDA2RT_TRY(r.ctx.copyToDevice(buf.get(), host.data(), host.size()));
    }
    r.bytes += static_cast<double>(bytes) * (a.access == Access::InOut ? 2 : 1);
    r.launch.ptr(a.name, buf.get());
    r.buffers.push_back(std::move(buf));
  }
  for (const auto &s : o.scalars)
    if (!info.findArg(s.first))
      return Status::error(ErrorCode::InvalidArgument,
                           "--scalar: kernel '" + info.name +
                               "' has no scalar argument '" + s.first + "'");
  return Status::success();
}

/// Runs the decode kernel once on NaN-poisoned outputs and compares them
/// with the reference.
Status checkDecode(Run &r, double &outErr, double &stateErr) {
  const ref::KdaDecodeProblem &p = r.problem;
  const Driver::Api &api = r.ctx.driver().api();
  for (int i : {6, 7})
    KDA2RT_TRY(r.ctx.driver().check(
        api.cuMemsetD8(r.buffers[i].get(), 0xFF, r.buffers[i].size()),
        "cuMemsetD8 (poisoning the outputs with NaN)"));
  KDA2RT_TRY(r.launchOnce());
  KDA2RT_TRY(r.ctx.synchronize(r.stream));
  std::vector<uint16_t> o(p.vElements());
  std::vector<float> ht(p.stateElements());
  KDA2RT_TRY(r.ctx.copyToHost(o.data(), r.buffers[6].get(), o.size() * 2));
  KDA2RT_TRY(r.ctx.copyToHost(ht.data(), r.buffers[7].get(), ht.size() * 4));
  std::vector<double> state, refOut;
  ref::kdaDecodeReference(p, 0, state, refOut);
  std::vector<double> got(o.size());
  for (size_t i = 0; i < o.size(); ++i)
    got[i] = p.decode(o[i]);
  outErr = ref::relativeError(got.data(), refOut.data(), got.size());
  std::vector<double> gotState(ht.begin(), ht.end());
  stateErr = ref::relativeError(gotState.data(), state.data(), state.size());
  return Status::success();
}

struct Timing {
  Summary gpuMs, hostUs;
  double pipelinedMs = 0; // first start event to last stop event / iters
};

Status timeLaunches(const Options &o, Run &r,
                    const std::function<Status()> &launch, const char *label,
                    Timing &out) {
  for (int64_t i = 0; i < o.warmup; ++i)
    KDA2RT_TRY(launch());
  EventPool events(r.ctx);
  KDA2RT_TRY(events.create(2 * static_cast<size_t>(o.iters)));
  const Driver &d = r.ctx.driver();
  std::vector<double> host(o.iters), gpu(o.iters);
  Progress progress(label, o.iters);
  for (int64_t i = 0; i < o.iters; ++i) {
    KDA2RT_TRY(d.check(d.api().cuEventRecord(events[2 * i], r.stream),
                       "cuEventRecord"));
    auto t0 = std::chrono::steady_clock::now();
    KDA2RT_TRY(launch());
    auto t1 = std::chrono::steady_clock::now();
    KDA2RT_TRY(d.check(d.api().cuEventRecord(events[2 * i + 1], r.stream),
                       "cuEventRecord"));
    host[i] = std::chrono::duration<double, std::micro>(t1 - t0).count();
    progress.update(i + 1);
  }
  KDA2RT_TRY(r.ctx.synchronize(r.stream));
  for (int64_t i = 0; i < o.iters; ++i)
    KDA2RT_TRY(events.elapsed(2 * i, 2 * i + 1, gpu[i]));
  double all = 0;
  KDA2RT_TRY(events.elapsed(0, 2 * o.iters - 1, all));
  out.pipelinedMs = all / o.iters;
  out.gpuMs = summarize(gpu);
  out.hostUs = summarize(host);
  return Status::success();
}

/// Captures one launch into a CUDA graph and times graph launches.
Status timeGraph(const Options &o, Run &r, Timing &out, std::string &why) {
  const Driver &d = r.ctx.driver();
  const Driver::Api &api = d.api();
  if (!api.cuStreamBeginCapture || !api.cuStreamEndCapture ||
      !api.cuGraphInstantiateWithFlags || !api.cuGraphLaunch || !r.stream) {
    why = "CUDA graphs unavailable (the driver lacks cuStreamBeginCapture_v2 "
          "/ cuGraphInstantiateWithFlags / cuGraphLaunch, or no stream)";
    return Status::success();
  }
  KDA2RT_TRY(d.check(api.cuStreamBeginCapture(r.stream,
                                              cu::StreamCaptureModeThreadLocal),
                     "cuStreamBeginCapture"));
  Status launched = r.launchOnce();
  CUgraph graph = nullptr;
  Status ended = d.check(api.cuStreamEndCapture(r.stream, &graph),
                         "cuStreamEndCapture");
  KDA2RT_TRY(launched.prepend("launch during graph capture"));
  KDA2RT_TRY(ended);
  CUgraphExec exec = nullptr;
  Status s = d.check(api.cuGraphInstantiateWithFlags(&exec, graph, 0),
                     "cuGraphInstantiate");
  if (s.ok())
    s = timeLaunches(o, r,
                     [&] {
                       return d.check(api.cuGraphLaunch(exec, r.stream),
                                      "cuGraphLaunch");
                     },
                     "graph", out);
  if (exec)
    (void)api.cuGraphExecDestroy(exec);
  (void)api.cuGraphDestroy(graph);
  return s;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  std::string error;
  if (!parseOptions(argc, argv, o, error))
    return reportOptionError("kda2-perf", error, kUsage);
  Profile profile;
  bool haveProfile = false;
  if (!o.profile.empty()) {
    if (!loadProfile(o.profile, profile, error))
      return fail("--profile: " + error);
    haveProfile = true;
  }
  Run r;
  Status s = Context::create(static_cast<int>(o.device), r.ctx);
  if (!s.ok())
    return fail("no usable CUDA device " + std::to_string(o.device) + ": " +
                s.message());
  std::string deviceName;
  (void)r.ctx.name(deviceName);
  int major = 0, minor = 0;
  (void)r.ctx.computeCapability(major, minor);
  if (!haveProfile) {
    std::string guess = profileForDevice(deviceName);
    haveProfile = !guess.empty() && loadProfile(guess, profile, error);
  }
  const Driver::Api &api = r.ctx.driver().api();
  if (api.cuStreamCreate)
    (void)api.cuStreamCreate(&r.stream, cu::StreamNonBlocking);

  s = loadKernel(o, r);
  if (!s.ok())
    return fail(s.message());
  // Pool and speculative decode kernels index a state pool through
  // state_indices: the generic path's zero-filled index arrays would make
  // every sequence update slot 0 at once (undefined behaviour on the GPU)
  // and measure nothing meaningful. Refuse them rather than launch that.
  if (const ArgInfo *a = r.kernel->info().findArg("state_indices"))
    if (a->kind == ArgInfo::Ptr)
      return fail("kernel '" + r.kernel->name() +
                  "' reads and writes a state pool through state_indices (a "
                  "pool or speculative decode kernel): kda2-perf cannot "
                  "generate valid slots for it yet and will not launch it "
                  "with made-up ones; time it with bench/kda_serving.py");
  classify(r);
  s = r.decode ? prepareDecode(o, r) : prepareGeneric(o, r);
  if (!s.ok())
    return fail(s.message());
  size_t numCounters = r.kernel->info().counters.size();
  if (numCounters && !r.bundle) {
    s = r.counters.allocate(r.ctx, numCounters * 8);
    if (s.ok())
      s = r.ctx.zero(r.counters.get(), numCounters * 8);
    if (!s.ok())
      return fail(s.message());
    if (!r.decode)
      r.launch.ptr("counters", r.counters.get());
  }
  if (r.bundle) {
    s = r.bundle->setProfiling(false, o.counters);
    if (!s.ok())
      return fail(s.message());
  }
  int device = static_cast<int>(o.device);
  std::string op = o.op.empty() && r.bundle ? r.bundle->ops()[0] : o.op;
  r.launchOnce = [&]() -> Status {
    if (r.bundle)
      return r.decode ? r.bundle->launchKdaDecode(device, op, r.args, r.stream)
                      : r.bundle->launch(device, op, r.launch, r.stream);
    return r.decode ? r.plan.launch(r.args, r.stream, r.counters.get())
                    : r.kernel->launch(r.launch, r.stream);
  };

  // Reference check.
  std::string checkStatus = "skipped";
  double outErr = NAN, stateErr = NAN;
  const double outTol = 2e-2, stateTol = 1e-3;
  if (!r.noReference.empty()) {
    checkStatus = "no-reference";
    if (!o.json)
      std::printf("%s\n", r.noReference.c_str());
  } else if (o.check) {
    s = checkDecode(r, outErr, stateErr);
    if (!s.ok())
      return fail(s.message());
    checkStatus = outErr < outTol && stateErr < stateTol ? "ok" : "mismatch";
  }

  Timing timing, graph;
  s = timeLaunches(o, r, r.launchOnce, "kda2-perf", timing);
  if (!s.ok())
    return fail(s.message());
  std::string graphNote;
  bool haveGraph = false;
  if (o.graph) {
    s = timeGraph(o, r, graph, graphNote);
    if (!s.ok())
      return fail("--graph: " + s.message());
    haveGraph = graphNote.empty();
  }

  // Counters.
  std::vector<CounterValue> counters;
  std::string counterNote;
  if (o.counters) {
    if (!numCounters) {
      counterNote = "kernel " + r.kernel->name() +
                    " declares no counter slots (kda2.counter)";
    } else {
      s = r.ctx.synchronize(r.stream);
      if (s.ok())
        s = r.bundle ? r.bundle->readCounters(op, counters)
                     : r.kernel->readCounters(r.counters.get(), counters);
      if (!s.ok())
        return fail(s.message());
      counterNote = "summed over every launch of the run";
    }
  }
  CallStats bundleStats;
  if (r.bundle)
    (void)r.bundle->stats(op, bundleStats);

  // Rates against the peaks.
  double peakTflops = o.peakTflops, peakGbps = o.peakGbps;
  std::string peakSource = "options";
  if (haveProfile) {
    double v = 0;
    if (peakTflops == 0 &&
        profile.number(r.decode ? "fp32_tflops" : "tensor_tflops_bf16", v))
      peakTflops = v;
    if (peakGbps == 0 && profile.number("hbm_bandwidth_gbps", v))
      peakGbps = v;
    peakSource = o.peakTflops && o.peakGbps ? "options" : profile.name;
  }
  double seconds = timing.gpuMs.median * 1e-3;
  double tflops = r.flops > 0 && seconds > 0 ? r.flops / seconds / 1e12 : NAN;
  double gbps = r.bytes > 0 && seconds > 0 ? r.bytes / seconds / 1e9 : NAN;
  auto pct = [](double x, double peak) {
    return peak > 0 && std::isfinite(x) ? 100 * x / peak : NAN;
  };
  bool mismatch = checkStatus == "mismatch";

  if (o.json) {
    auto summary = [](const Summary &s, double scale) {
      return "{\"median\": " + jsonNumber(s.median * scale) +
             ", \"p99\": " + jsonNumber(s.p99 * scale) +
             ", \"min\": " + jsonNumber(s.min * scale) +
             ", \"max\": " + jsonNumber(s.max * scale) +
             ", \"mean\": " + jsonNumber(s.mean * scale) + "}";
    };
    std::string j = "{\n  \"schema\": \"kda2-perf-v1\",\n";
    j += "  \"device\": {\"ordinal\": " + std::to_string(o.device) +
         ", \"name\": " + jsonString(deviceName) + ", \"compute_capability\": " +
         jsonString(std::to_string(major) + "." + std::to_string(minor)) +
         "},\n";
    j += "  \"input\": {\"path\": " + jsonString(o.input) + ", \"kind\": " +
         jsonString(r.bundle ? "bundle" : "module") + ", \"op\": " +
         (r.bundle ? jsonString(op) : "null") + ", \"kernel\": " +
         jsonString(r.kernel->name()) + "},\n";
    j += "  \"shape\": {";
    if (r.decode) {
      const ref::KdaDecodeProblem &p = r.problem;
      j += "\"n\": " + std::to_string(p.n) + ", \"t\": " +
           std::to_string(p.t) + ", \"h\": " + std::to_string(p.h) +
           ", \"k\": " + std::to_string(p.kDim) + ", \"v\": " +
           std::to_string(p.vDim);
    } else {
      for (size_t i = 0; i < o.dims.size(); ++i)
        j += (i ? ", " : "") + jsonString(o.dims[i].first) + ": " +
             std::to_string(o.dims[i].second);
    }
    j += "},\n";
    j += "  \"warmup\": " + std::to_string(o.warmup) + ", \"iters\": " +
         std::to_string(o.iters) + ",\n";
    j += "  \"check\": {\"status\": " + jsonString(checkStatus) +
         ", \"output_rel_error\": " + jsonNumber(outErr) +
         ", \"state_rel_error\": " + jsonNumber(stateErr) +
         ", \"output_tolerance\": " + jsonNumber(outTol) +
         ", \"state_tolerance\": " + jsonNumber(stateTol) +
         ", \"message\": " + jsonString(r.noReference) + "},\n";
    j += "  \"gpu_ms\": " + summary(timing.gpuMs, 1) + ",\n";
    j += "  \"gpu_ms_pipelined\": " + jsonNumber(timing.pipelinedMs) + ",\n";
    j += "  \"host_us\": " + summary(timing.hostUs, 1) + ",\n";
    j += "  \"bundle_host_us_mean\": " +
         (r.bundle && bundleStats.calls
              ? jsonNumber(bundleStats.hostUsTotal / bundleStats.calls)
              : std::string("null")) +
         ",\n";
    j += "  \"graph\": " +
         (haveGraph ? "{\"gpu_ms\": " + summary(graph.gpuMs, 1) +
                          ", \"host_us\": " + summary(graph.hostUs, 1) + "}"
                    : (o.graph ? "{\"unavailable\": " + jsonString(graphNote) +
                                     "}"
                               : std::string("null"))) +
         ",\n";
    j += "  \"flops\": " + jsonNumber(r.flops > 0 ? r.flops : NAN) +
         ", \"bytes\": " + jsonNumber(r.bytes) + ",\n";
    j += "  \"tflops\": " + jsonNumber(tflops) + ", \"gbps\": " +
         jsonNumber(gbps) + ",\n";
    j += "  \"peak\": {\"source\": " +
         (peakTflops > 0 || peakGbps > 0 ? jsonString(peakSource)
                                         : std::string("null")) +
         ", \"tflops\": " + jsonNumber(peakTflops > 0 ? peakTflops : NAN) +
         ", \"gbps\": " + jsonNumber(peakGbps > 0 ? peakGbps : NAN) +
         ", \"tflops_pct\": " + jsonNumber(pct(tflops, peakTflops)) +
         ", \"gbps_pct\": " + jsonNumber(pct(gbps, peakGbps)) + "},\n";
    j += "  \"counters\": [";
    for (size_t i = 0; i < counters.size(); ++i)
      j += (i ? ", " : "") + std::string("{\"name\": ") +
           jsonString(counters[i].name) + ", \"value\": " +
           jsonNumber(counters[i].asDouble()) + "}";
    j += "], \"counters_note\": " + jsonString(counterNote) + ",\n";
    j += "  \"notes\": [";
    for (size_t i = 0; i < r.notes.size(); ++i)
      j += (i ? ", " : "") + jsonString(r.notes[i]);
    j += "]\n}\n";
    std::printf("%s", j.c_str());
    return mismatch ? 2 : 0;
  }

  std::printf("%s on %s (sm_%d%d)\n", r.what.c_str(), deviceName.c_str(),
              major, minor);
  if (r.decode)
    std::printf("shape n=%lld t=%lld h=%lld K=%lld V=%lld (%s, state %s)\n",
                static_cast<long long>(r.problem.n),
                static_cast<long long>(r.problem.t),
                static_cast<long long>(r.problem.h),
                static_cast<long long>(r.problem.kDim),
                static_cast<long long>(r.problem.vDim),
                r.problem.f16 ? "f16" : "bf16",
                r.problem.vFirst ? "vk" : "kv");
  for (const std::string &n : r.notes)
    std::printf("note: %s\n", n.c_str());
  if (checkStatus == "ok" || mismatch)
    std::printf("check: ||o - ref|| / ||ref|| = %.3g (tolerance %.0e), "
                "||ht - ref|| / ||ref|| = %.3g (tolerance %.0e): %s\n",
                outErr, outTol, stateErr, stateTol,
                mismatch ? "MISMATCH" : "OK");
  std::printf("gpu   : median %.4f ms, p99 %.4f ms, min %.4f ms (%lld iters, "
              "%lld warmup); back-to-back %.4f ms/launch\n",
              timing.gpuMs.median, timing.gpuMs.p99, timing.gpuMs.min,
              static_cast<long long>(o.iters),
              static_cast<long long>(o.warmup), timing.pipelinedMs);
  std::printf("host  : launch call median %.2f us, p99 %.2f us, mean %.2f us "
              "(GPU median %.2f us)\n",
              timing.hostUs.median, timing.hostUs.p99, timing.hostUs.mean,
              timing.gpuMs.median * 1e3);
  if (r.bundle && bundleStats.calls)
    std::printf("bundle: %lld calls, host %.2f us/call inside the bundle\n",
                static_cast<long long>(bundleStats.calls),
                bundleStats.hostUsTotal / bundleStats.calls);
  if (haveGraph)
    std::printf("graph : median %.4f ms, p99 %.4f ms per graph launch; host "
                "cuGraphLaunch median %.2f us\n",
                graph.gpuMs.median, graph.gpuMs.p99, graph.hostUs.median);
  else if (o.graph)
    std::printf("graph : %s\n", graphNote.c_str());
  std::printf("rate  : ");
  if (std::isfinite(tflops))
    std::printf("%.3f TFLOP/s", tflops);
  else
    std::printf("TFLOP/s n/a (unknown FLOP count)");
  std::printf(", %.1f GB/s", gbps);
  if (peakTflops > 0 || peakGbps > 0)
    std::printf(" (%.1f %% of %.1f TFLOP/s, %.1f %% of %.0f GB/s; %s)",
                pct(tflops, peakTflops), peakTflops, pct(gbps, peakGbps),
                peakGbps, peakSource.c_str());
  else
    std::printf(" (no peaks: unknown device; give --profile or "
                "--peak-tflops/--peak-gbps)");
  std::printf("\n");
  if (o.counters) {
    std::printf("counters: %s\n", counterNote.c_str());
    for (const CounterValue &c : counters)
      std::printf("  %s = %g\n", c.name.c_str(), c.asDouble());
  }
  return mismatch ? 2 : 0;
}
