//===- KDA.cpp - Kimi Delta Attention entry points -------------*- C++ -*-===//
//
// Checks the arguments of a KDA decode call against the kernel's metadata
// (no GPU needed) and launches it through Kernel::launch.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/KDA.h"

#include <cmath>
#include <cstring>
#include <string>

namespace kda2::runtime {

namespace {
Status invalid(std::string message) {
  return Status::error(ErrorCode::InvalidArgument, std::move(message));
}

/// The static size of the last dimension of pointer argument `name`, or 0.
int64_t lastStaticDim(const KernelInfo &info, const char *name) {
  const ArgInfo *arg = info.findArg(name);
  if (!arg || arg->kind != ArgInfo::Ptr || arg->shape.empty() ||
      arg->shape.back().kind != ShapeDim::Static)
    return 0;
  return arg->shape.back().size;
}

bool supportedHeadDim(int64_t d) {
  for (int64_t s : kKdaHeadDims)
    if (s == d)
      return true;
  return false;
}
} // namespace

Status checkKdaDecode(const KernelInfo &info, const KdaDecodeArgs &args) {
  const std::string kernel = "kernel '" + info.name + "': ";
  for (const char *name : {"q", "k", "v", "g", "beta", "h0", "o", "ht"})
    if (!info.findArg(name))
      return invalid(kernel + "is not a KDA decode kernel (no argument '" +
                     name + "')");
  if (!supportedHeadDim(args.kDim) || !supportedHeadDim(args.vDim))
    return invalid("unsupported head dimension K=" + std::to_string(args.kDim) +
                   ", V=" + std::to_string(args.vDim) +
                   "; the KDA decode kernels support 64, 128 and 256");
  int64_t kernelK = lastStaticDim(info, "q");
  int64_t kernelV = lastStaticDim(info, "v");
  if (args.kDim != kernelK || args.vDim != kernelV)
    return invalid(kernel + "was compiled for K=" + std::to_string(kernelK) +
                   ", V=" + std::to_string(kernelV) + ", got K=" +
                   std::to_string(args.kDim) + ", V=" +
                   std::to_string(args.vDim));
  const char *dtype = args.dtype ? args.dtype : "bf16";
  DType requested;
  if (!parseDType(dtype, requested) ||
      (requested != DType::BF16 && requested != DType::F16))
    return invalid(std::string("dtype '") + dtype +
                   "' is not a KDA input type; expected bf16 or f16");
  for (const char *name : {"q", "k", "v", "o"})
    if (info.findArg(name)->dtype != requested)
      return invalid(kernel + "argument '" + name + "' is " +
                     dtypeName(info.findArg(name)->dtype) +
                     ", the call passes " + dtype);
  if (args.n <= 0 || args.t <= 0 || args.h <= 0)
    return invalid("sizes must be positive, got n=" + std::to_string(args.n) +
                   ", t=" + std::to_string(args.t) +
                   ", h=" + std::to_string(args.h));
  if (!(args.scale >= 0) || std::isinf(args.scale))
    return invalid("scale must be a finite number >= 0 (0: K^-1/2)");
  const std::pair<const char *, const void *> pointers[] = {
      {"q", args.q},   {"k", args.k},       {"v", args.v}, {"g", args.g},
      {"beta", args.beta}, {"h0", args.h0}, {"o", args.o}, {"ht", args.ht}};
  for (auto [name, ptr] : pointers) {
    if (!ptr)
      return invalid(std::string("argument '") + name + "' is NULL");
    if (reinterpret_cast<uintptr_t>(ptr) % 16 != 0)
      return invalid(std::string("argument '") + name +
                     "' is not 16-byte aligned (the kernel uses 128-bit "
                     "accesses)");
  }
  if (args.h0 == args.ht)
    return invalid("h0 and ht alias: the decode kernel reads h0 and writes "
                   "ht in parallel; pass a separate output buffer");
  return Status::success();
}

Status kdaDecodeLaunchArgs(const KernelInfo &info, const KdaDecodeArgs &args,
                           LaunchArgs &out) {
  out = LaunchArgs();
  KDA2RT_TRY(checkKdaDecode(info, args));
  double scale =
      args.scale > 0 ? args.scale : 1.0 / std::sqrt(static_cast<double>(args.kDim));
  out.ptr("q", args.q).ptr("k", args.k).ptr("v", args.v).ptr("g", args.g);
  out.ptr("beta", args.beta).ptr("h0", args.h0).ptr("o", args.o);
  out.ptr("ht", args.ht);
  out.dim("n", args.n).dim("t", args.t).dim("h", args.h);
  out.floatScalar("scale", scale);
  return Status::success();
}

Status launchKdaDecode(const Kernel &kernel, const KdaDecodeArgs &args,
                       CUstream stream) {
  LaunchArgs launch;
  KDA2RT_TRY(kdaDecodeLaunchArgs(kernel.info(), args, launch));
  return kernel.launch(launch, stream);
}

} // namespace kda2::runtime

//===----------------------------------------------------------------------===//
// KdaDecodePlan
//===----------------------------------------------------------------------===//

namespace kda2::runtime {

namespace {
using Source = KdaDecodePlan::Source;

/// The source of a dimension name (n, t, h), or false.
bool dimSource(std::string_view name, Source &out) {
  if (name == "n")
    out = Source::N;
  else if (name == "t")
    out = Source::T;
  else if (name == "h")
    out = Source::H;
  else
    return false;
  return true;
}

int64_t dimValue(Source s, const KdaDecodeArgs &args) {
  switch (s) {
  case Source::N:
    return args.n;
  case Source::T:
    return args.t;
  case Source::H:
    return args.h;
  default:
    return 0;
  }
}
} // namespace

Status KdaDecodePlan::create(const Kernel &kernel, KdaDecodePlan &out) {
  out = KdaDecodePlan();
  const KernelInfo &info = kernel.info();
  auto unsupported = [&](const std::string &why) {
    return invalid("kernel '" + info.name +
                   "': no prepared decode launch: " + why);
  };
  if (!kernel.valid())
    return invalid("KdaDecodePlan: the kernel is not loaded");
  // The metadata-only part of checkKdaDecode: run it on arguments that
  // satisfy every value check, so only metadata problems remain.
  KdaDecodeArgs probe;
  const void *aligned = reinterpret_cast<const void *>(uintptr_t{16});
  probe.q = probe.k = probe.v = probe.g = probe.beta = aligned;
  probe.h0 = aligned;
  probe.o = reinterpret_cast<void *>(uintptr_t{32});
  probe.ht = reinterpret_cast<void *>(uintptr_t{48});
  probe.n = probe.t = probe.h = 1;
  probe.kDim = lastStaticDim(info, "q");
  probe.vDim = lastStaticDim(info, "v");
  const ArgInfo *q = info.findArg("q");
  probe.dtype = q ? dtypeName(q->dtype) : "bf16";
  KDA2RT_TRY(checkKdaDecode(info, probe));
  out.kDim_ = probe.kDim;
  out.vDim_ = probe.vDim;
  out.dtype_ = q->dtype;

  if (info.args.size() > kMaxParams || info.gridX.size() > kMaxParams ||
      info.gridY.size() > kMaxParams || info.variants.size() > kMaxParams)
    return unsupported("more than " + std::to_string(kMaxParams) +
                       " parameters, grid terms or variants");
  static const std::pair<const char *, Source> kPointers[] = {
      {"q", Source::Q},       {"k", Source::K},   {"v", Source::V},
      {"g", Source::G},       {"beta", Source::Beta}, {"h0", Source::H0},
      {"o", Source::O},       {"ht", Source::Ht}};
  for (const ArgInfo &a : info.args) {
    Source src = Source::Constant;
    bool known = false;
    switch (a.kind) {
    case ArgInfo::Ptr:
      for (const auto &[name, s] : kPointers)
        if (a.name == name) {
          src = s;
          known = true;
        }
      break;
    case ArgInfo::Scalar:
      known = a.name == "scale" && (a.scalarType == ScalarType::F32 ||
                                    a.scalarType == ScalarType::F64);
      src = Source::Scale;
      break;
    case ArgInfo::Dim:
      known = dimSource(a.name, src);
      break;
    case ArgInfo::Counters:
      known = true;
      src = Source::Counters;
      break;
    case ArgInfo::TensorMap:
      break;
    }
    if (!known)
      return unsupported("parameter '" + a.name +
                         "' is not one of the decode arguments");
    out.paramIsF32_[out.numParams_] =
        a.kind == ArgInfo::Scalar && a.scalarType == ScalarType::F32;
    out.params_[out.numParams_++] = src;
  }
  for (const kda2::runtime::GridTerm &t : info.gridX) {
    GridTerm term;
    term.constant = t.constant;
    if (!t.dim.empty() && !dimSource(t.dim, term.source))
      return unsupported("grid.x uses dimension '" + t.dim + "'");
    out.gridX_[out.numGridX_++] = term;
  }
  for (const std::string &d : info.gridY) {
    Source src;
    if (!dimSource(d, src))
      return unsupported("grid.y uses dimension '" + d + "'");
    out.gridY_[out.numGridY_++] = src;
  }
  for (size_t i = 0; i < info.variants.size(); ++i) {
    Source src;
    if (!dimSource(info.variants[i].dim, src))
      return unsupported("variant on dimension '" + info.variants[i].dim +
                         "'");
    out.variantDim_[out.numVariants_] = src;
    out.variantSize_[out.numVariants_] = info.variants[i].value;
    out.variantFunc_[out.numVariants_++] = kernel.variantHandle(i);
  }
  out.kernel_ = &kernel;
  return Status::success();
}

Status KdaDecodePlan::launch(const KdaDecodeArgs &args, CUstream stream,
                             CUdeviceptr counters) const {
  if (!kernel_)
    return invalid("KdaDecodePlan::launch: the plan is empty (create it "
                   "from a loaded kernel first)");
  // The value checks of checkKdaDecode; on a failure it builds the message.
  const char *dtype = args.dtype ? args.dtype : "bf16";
  DType requested = dtype_ == DType::F16 ? DType::F16 : DType::BF16;
  bool dtypeOk = std::strcmp(dtype, dtypeName(requested)) == 0;
  auto bad = [](const void *p) {
    return !p || reinterpret_cast<uintptr_t>(p) % 16 != 0;
  };
  if (!dtypeOk || args.kDim != kDim_ || args.vDim != vDim_ || args.n <= 0 ||
      args.t <= 0 || args.h <= 0 || !(args.scale >= 0) ||
      std::isinf(args.scale) || bad(args.q) || bad(args.k) || bad(args.v) ||
      bad(args.g) || bad(args.beta) || bad(args.h0) || bad(args.o) ||
      bad(args.ht) || args.h0 == args.ht) {
    Status s = checkKdaDecode(kernel_->info(), args);
    return s.ok() ? invalid("kernel '" + kernel_->name() +
                            "': invalid decode arguments")
                  : s;
  }
  uint64_t slots[kMaxParams];
  void *params[kMaxParams];
  double scale = args.scale > 0
                     ? args.scale
                     : 1.0 / std::sqrt(static_cast<double>(args.kDim));
  auto word = [](const void *p) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
  };
  for (size_t i = 0; i < numParams_; ++i) {
    uint64_t slot = 0;
    switch (params_[i]) {
    case Source::Q:
      slot = word(args.q);
      break;
    case Source::K:
      slot = word(args.k);
      break;
    case Source::V:
      slot = word(args.v);
      break;
    case Source::G:
      slot = word(args.g);
      break;
    case Source::Beta:
      slot = word(args.beta);
      break;
    case Source::H0:
      slot = word(args.h0);
      break;
    case Source::O:
      slot = word(args.o);
      break;
    case Source::Ht:
      slot = word(args.ht);
      break;
    case Source::N:
    case Source::T:
    case Source::H: {
      int64_t v = dimValue(params_[i], args);
      std::memcpy(&slot, &v, sizeof(v));
      break;
    }
    case Source::Scale:
      if (paramIsF32_[i]) {
        float f = static_cast<float>(scale);
        std::memcpy(&slot, &f, sizeof(f));
      } else {
        std::memcpy(&slot, &scale, sizeof(scale));
      }
      break;
    case Source::Counters:
      if (!counters)
        return invalid("kernel '" + kernel_->name() +
                       "': missing the counters buffer (it declares " +
                       std::to_string(kernel_->info().counters.size()) +
                       " counter slot(s))");
      slot = counters;
      break;
    case Source::Constant:
      break;
    }
    slots[i] = slot;
    params[i] = &slots[i];
  }
  // gridDim.x = max of the terms; gridDim.y = product (computeLaunchConfig).
  int64_t gx = numGridX_ ? 0 : 1, gy = 1;
  for (size_t i = 0; i < numGridX_; ++i) {
    int64_t v = gridX_[i].source == Source::Constant
                    ? gridX_[i].constant
                    : dimValue(gridX_[i].source, args);
    gx = v > gx ? v : gx;
  }
  for (size_t i = 0; i < numGridY_; ++i) {
    int64_t v = dimValue(gridY_[i], args);
    gy = gy > 65535 / v ? 65536 : gy * v;
  }
  if (gx > 2147483647 || gy > 65535) {
    // computeLaunchConfig words the error with the grid terms.
    LaunchArgs launch;
    Status s = kdaDecodeLaunchArgs(kernel_->info(), args, launch);
    LaunchConfig cfg;
    if (s.ok())
      s = computeLaunchConfig(kernel_->info(), launch, cfg);
    return s.ok() ? Status::error(ErrorCode::LaunchConfig,
                                  "kernel '" + kernel_->name() +
                                      "': grid exceeds the CUDA limits")
                  : s;
  }
  CUfunction func = kernel_->handle();
  for (size_t v = 0; v < numVariants_; ++v)
    if (dimValue(variantDim_[v], args) == variantSize_[v]) {
      func = variantFunc_[v];
      break;
    }
  unsigned grid[3] = {static_cast<unsigned>(gx), static_cast<unsigned>(gy),
                      1};
  return kernel_->launchPrepared(func, grid, numParams_ ? params : nullptr,
                                 stream);
}

} // namespace kda2::runtime
