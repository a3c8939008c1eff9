//===- KDA.cpp - Kimi Delta Attention entry points -------------*- C++ -*-===//
//
// Checks the arguments of a KDA decode call against the kernel's metadata
// (no GPU needed) and launches it through Kernel::launch.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/KDA.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
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

/// The head-dimension checks shared by the decode entry points: supported
/// sizes, then the sizes the kernel was compiled for (the last static
/// dimension of q and of v).
Status checkHeadDims(const KernelInfo &info, int64_t kDim, int64_t vDim) {
  if (!supportedHeadDim(kDim) || !supportedHeadDim(vDim))
    return invalid("unsupported head dimension K=" + std::to_string(kDim) +
                   ", V=" + std::to_string(vDim) +
                   "; the KDA decode kernels support 64, 128 and 256");
  int64_t kernelK = lastStaticDim(info, "q");
  int64_t kernelV = lastStaticDim(info, "v");
  if (kDim != kernelK || vDim != kernelV)
    return invalid("kernel '" + info.name + "': was compiled for K=" +
                   std::to_string(kernelK) + ", V=" + std::to_string(kernelV) +
                   ", got K=" + std::to_string(kDim) +
                   ", V=" + std::to_string(vDim));
  return Status::success();
}

/// The input element type: `dtype` (null: bf16) must be bf16 or f16 and the
/// type of q, k, v and o in the metadata.
Status checkInputDType(const KernelInfo &info, const char *dtype) {
  dtype = dtype ? dtype : "bf16";
  DType requested;
  if (!parseDType(dtype, requested) ||
      (requested != DType::BF16 && requested != DType::F16))
    return invalid(std::string("dtype '") + dtype +
                   "' is not a KDA input type; expected bf16 or f16");
  for (const char *name : {"q", "k", "v", "o"})
    if (info.findArg(name)->dtype != requested)
      return invalid("kernel '" + info.name + "': argument '" + name +
                     "' is " + dtypeName(info.findArg(name)->dtype) +
                     ", the call passes " + dtype);
  return Status::success();
}

Status checkScale(double scale) {
  if (!(scale >= 0) || std::isinf(scale))
    return invalid("scale must be a finite number >= 0 (0: K^-1/2)");
  return Status::success();
}

/// NULL and alignment of one operand.
Status checkPointer(const char *name, const void *ptr, uintptr_t alignment,
                    const char *why) {
  if (!ptr)
    return invalid(std::string("argument '") + name + "' is NULL");
  if (reinterpret_cast<uintptr_t>(ptr) % alignment != 0)
    return invalid(std::string("argument '") + name + "' is not " +
                   std::to_string(alignment) + "-byte aligned (" + why + ")");
  return Status::success();
}

constexpr const char *kLayoutWords =
    "\"kv\" (K-major [.., K, V]) or \"vk\" (V-major [.., V, K])";
} // namespace

Status checkStateLayout(const KernelInfo &info, const char *arg,
                        const char *layout) {
  if (!layout)
    return invalid(std::string("argument 'state_layout' is NULL: say ") +
                   kLayoutWords);
  StateOrder requested;
  if (!parseStateOrder(layout, requested))
    return invalid(std::string("argument 'state_layout' is '") + layout +
                   "': expected " + kLayoutWords);
  const ArgInfo *a = info.findArg(arg);
  StateOrder declared = a ? a->stateLayout : StateOrder::None;
  if (declared == StateOrder::None)
    return invalid("kernel '" + info.name +
                   "' does not declare the layout of its state '" + arg +
                   "' (no 'state' line in its metadata); rebuild it with a "
                   "kda2 that records it");
  if (declared != requested)
    return invalid("kernel '" + info.name + "' stores its state " +
                   stateOrderDescription(declared) + ", the call says " +
                   stateOrderDescription(requested));
  return Status::success();
}

Status checkKdaDecode(const KernelInfo &info, const KdaDecodeArgs &args) {
  const std::string kernel = "kernel '" + info.name + "': ";
  for (const char *name : {"q", "k", "v", "g", "beta", "h0", "o", "ht"})
    if (!info.findArg(name))
      return invalid(kernel + "is not a KDA decode kernel (no argument '" +
                     name + "')");
  KDA2RT_TRY(checkHeadDims(info, args.kDim, args.vDim));
  KDA2RT_TRY(checkInputDType(info, args.dtype));
  const ArgInfo *h0 = info.findArg("h0"), *ht = info.findArg("ht");
  if (h0->stateLayout != StateOrder::None &&
      ht->stateLayout != StateOrder::None &&
      h0->stateLayout != ht->stateLayout)
    return invalid(kernel + "declares state 'h0' " +
                   stateOrderName(h0->stateLayout) + " but 'ht' " +
                   stateOrderName(ht->stateLayout) +
                   "; the decode entry point takes one layout for both");
  KDA2RT_TRY(checkStateLayout(info, "h0", args.stateLayout));
  KDA2RT_TRY(checkStateLayout(info, "ht", args.stateLayout));
  if (args.n <= 0 || args.t <= 0 || args.h <= 0)
    return invalid("sizes must be positive, got n=" + std::to_string(args.n) +
                   ", t=" + std::to_string(args.t) +
                   ", h=" + std::to_string(args.h));
  KDA2RT_TRY(checkScale(args.scale));
  const std::pair<const char *, const void *> pointers[] = {
      {"q", args.q},   {"k", args.k},       {"v", args.v}, {"g", args.g},
      {"beta", args.beta}, {"h0", args.h0}, {"o", args.o}, {"ht", args.ht}};
  for (auto [name, ptr] : pointers)
    KDA2RT_TRY(checkPointer(name, ptr, 16, "the kernel uses 128-bit accesses"));
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

//===----------------------------------------------------------------------===//
// Decode through an indexed, in-place state pool
//===----------------------------------------------------------------------===//

namespace {
/// One operand of a pool decode call: its name, address and byte size.
struct Operand {
  const char *name;
  const void *ptr;
  uint64_t bytes;
};

/// Bytes of a product of sizes times an element size; false on overflow
/// of 63 bits.
bool byteCount(std::initializer_list<int64_t> sizes, size_t element,
               uint64_t &out) {
  unsigned __int128 total = element;
  for (int64_t s : sizes) {
    total *= static_cast<uint64_t>(s);
    if (total > static_cast<unsigned __int128>(INT64_MAX))
      return false;
  }
  out = static_cast<uint64_t>(total);
  return true;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%llx",
                static_cast<unsigned long long>(v));
  return buf;
}

std::string range(const Operand &o) {
  return std::string(o.name) + " at " +
         hex(reinterpret_cast<uintptr_t>(o.ptr)) + ", " +
         std::to_string(o.bytes) + " bytes";
}

bool overlap(const Operand &a, const Operand &b) {
  if (!a.bytes || !b.bytes)
    return false;
  unsigned __int128 a0 = reinterpret_cast<uintptr_t>(a.ptr), a1 = a0 + a.bytes;
  unsigned __int128 b0 = reinterpret_cast<uintptr_t>(b.ptr), b1 = b0 + b.bytes;
  return a0 < b1 && b0 < a1;
}

constexpr const char *kPoolArgs[] = {
    "q",    "k",          "v",             "g",
    "beta", "cu_seqlens", "state_indices", "has_initial_state",
    "pool", "o"};
} // namespace

Status checkKdaDecodePool(const KernelInfo &info,
                          const KdaDecodePoolArgs &args) {
  const std::string kernel = "kernel '" + info.name + "': ";
  // What the metadata must say (templates/kda_decode_pool.tirx).
  for (const char *name : kPoolArgs) {
    const ArgInfo *a = info.findArg(name);
    if (!a || a->kind != ArgInfo::Ptr)
      return invalid(kernel + "is not a KDA pool decode kernel (no argument '" +
                     name + "')");
  }
  for (const char *name : {"cu_seqlens", "state_indices", "has_initial_state"})
    if (info.findArg(name)->dtype != DType::I32)
      return invalid(kernel + "argument '" + name + "' is " +
                     dtypeName(info.findArg(name)->dtype) +
                     "; the pool decode entry point passes int32 arrays");
  const ArgInfo &pool = *info.findArg("pool");
  if (pool.access != Access::InOut)
    return invalid(kernel + "argument 'pool' is declared '" +
                   accessName(pool.access) +
                   "'; the pool is read and written in place (inout)");

  KDA2RT_TRY(checkHeadDims(info, args.kDim, args.vDim));
  KDA2RT_TRY(checkInputDType(info, args.dtype));
  const char *stateDtype = args.stateDtype ? args.stateDtype : "f32";
  DType st;
  if (!parseDType(stateDtype, st) || (st != DType::F32 && st != DType::BF16))
    return invalid(std::string("state_dtype '") + stateDtype +
                   "' is not a KDA state type; expected f32 or bf16");
  if (pool.dtype != st)
    return invalid(kernel + "argument 'pool' is " + dtypeName(pool.dtype) +
                   ", the call passes state_dtype " + stateDtype);
  KDA2RT_TRY(checkStateLayout(info, "pool", args.stateLayout));
  // The pool's matrix dimensions are K and V. The metadata lists a tensor's
  // dimensions in declared order, which need not be the storage order (the
  // templates declare [.., V, K] and pick the order with `state`): the
  // `state` line, not the shape, says which is innermost.
  if (pool.shape.size() >= 2) {
    const ShapeDim &a = pool.shape[pool.shape.size() - 2];
    const ShapeDim &b = pool.shape.back();
    auto is = [](const ShapeDim &d, int64_t size) {
      return d.kind != ShapeDim::Static || d.size == size;
    };
    bool matches = (is(a, args.kDim) && is(b, args.vDim)) ||
                   (is(a, args.vDim) && is(b, args.kDim));
    auto show = [](const ShapeDim &d) {
      return d.kind == ShapeDim::Static ? std::to_string(d.size)
                                        : std::string("?");
    };
    if (!matches)
      return invalid(kernel + "argument 'pool' ends in [.., " + show(a) +
                     ", " + show(b) +
                     "], which are not the head dimensions K = " +
                     std::to_string(args.kDim) +
                     ", V = " + std::to_string(args.vDim));
  }

  if (args.n <= 0)
    return invalid("n must be positive (the number of sequences), got " +
                   std::to_string(args.n));
  if (args.totalTokens < 0)
    return invalid("total_tokens must be >= 0, got " +
                   std::to_string(args.totalTokens));
  if (args.totalTokens > INT32_MAX)
    return invalid("total_tokens = " + std::to_string(args.totalTokens) +
                   " does not fit the int32 cu_seqlens");
  if (args.h <= 0)
    return invalid("h must be positive (the number of heads), got " +
                   std::to_string(args.h));
  if (args.slots <= 0)
    return invalid("slots must be positive (the states in the pool), got " +
                   std::to_string(args.slots));
  KDA2RT_TRY(checkScale(args.scale));

  const char *vector = "the kernel uses 128-bit accesses";
  KDA2RT_TRY(checkPointer("q", args.q, 16, vector));
  KDA2RT_TRY(checkPointer("k", args.k, 16, vector));
  KDA2RT_TRY(checkPointer("v", args.v, 16, vector));
  KDA2RT_TRY(checkPointer("g", args.g, 16, vector));
  KDA2RT_TRY(checkPointer("beta", args.beta, 16, vector));
  KDA2RT_TRY(checkPointer("cu_seqlens", args.cuSeqlens, 4, "int32 elements"));
  KDA2RT_TRY(
      checkPointer("state_indices", args.stateIndices, 4, "int32 elements"));
  KDA2RT_TRY(checkPointer("has_initial_state", args.hasInitialState, 4,
                          "int32 elements"));
  KDA2RT_TRY(checkPointer("pool", args.pool, 16, vector));
  KDA2RT_TRY(checkPointer("o", args.o, 16, vector));

  // Byte extents: the written operands (pool, o) must not overlap anything.
  size_t in = dtypeSize(info.findArg("q")->dtype);
  int64_t tt = args.totalTokens, h = args.h, k = args.kDim, v = args.vDim;
  Operand ops[] = {{"q", args.q, 0},
                   {"k", args.k, 0},
                   {"v", args.v, 0},
                   {"g", args.g, 0},
                   {"beta", args.beta, 0},
                   {"cu_seqlens", args.cuSeqlens, 0},
                   {"state_indices", args.stateIndices, 0},
                   {"has_initial_state", args.hasInitialState, 0},
                   {"pool", args.pool, 0},
                   {"o", args.o, 0}};
  bool ok = byteCount({tt, h, k}, in, ops[0].bytes) &&
            byteCount({tt, h, k}, in, ops[1].bytes) &&
            byteCount({tt, h, v}, in, ops[2].bytes) &&
            byteCount({tt, h, k}, 4, ops[3].bytes) &&
            byteCount({tt, h}, 4, ops[4].bytes) &&
            byteCount({args.n + 1}, 4, ops[5].bytes) &&
            byteCount({args.n}, 4, ops[6].bytes) &&
            byteCount({args.n}, 4, ops[7].bytes) &&
            byteCount({tt, h, v}, in, ops[9].bytes);
  if (!ok)
    return invalid("total_tokens = " + std::to_string(tt) +
                   " and h = " + std::to_string(h) +
                   " make an operand larger than 2^63 bytes");
  if (!byteCount({args.slots, h, k, v}, dtypeSize(st), ops[8].bytes))
    return invalid("the pool of slots = " + std::to_string(args.slots) +
                   ", h = " + std::to_string(h) +
                   " states is larger than 2^63 bytes");
  for (const Operand *written : {&ops[8], &ops[9]})
    for (const Operand &other : ops)
      if (&other != written && overlap(*written, other))
        return invalid(std::string("arguments '") + written->name +
                       "' and '" + other.name + "' overlap (" +
                       range(*written) + "; " + range(other) + "): '" +
                       written->name +
                       (written == &ops[8]
                            ? "' is updated in place"
                            : "' is written") +
                       " and must not share memory with another operand");
  return Status::success();
}

Status kdaDecodePoolLaunchArgs(const KernelInfo &info,
                               const KdaDecodePoolArgs &args,
                               LaunchArgs &out) {
  out = LaunchArgs();
  KDA2RT_TRY(checkKdaDecodePool(info, args));
  double scale = args.scale > 0
                     ? args.scale
                     : 1.0 / std::sqrt(static_cast<double>(args.kDim));
  out.ptr("q", args.q).ptr("k", args.k).ptr("v", args.v).ptr("g", args.g);
  out.ptr("beta", args.beta).ptr("cu_seqlens", args.cuSeqlens);
  out.ptr("state_indices", args.stateIndices);
  out.ptr("has_initial_state", args.hasInitialState);
  out.ptr("pool", args.pool).ptr("o", args.o);
  // Only the dimensions the kernel names (computeLaunchConfig rejects
  // others).
  const std::vector<std::string> known = info.dimNames();
  const std::pair<const char *, int64_t> dims[] = {
      {"tt", args.totalTokens}, {"h", args.h},         {"n", args.n},
      {"np1", args.n + 1},      {"slots", args.slots}};
  for (const auto &[name, size] : dims)
    for (const std::string &d : known)
      if (d == name)
        out.dim(name, size);
  out.floatScalar("scale", scale);
  return Status::success();
}

Status launchKdaDecodePool(const Kernel &kernel, const KdaDecodePoolArgs &args,
                           CUstream stream) {
  LaunchArgs launch;
  KDA2RT_TRY(kdaDecodePoolLaunchArgs(kernel.info(), args, launch));
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
  const ArgInfo *q = info.findArg("q"), *h0 = info.findArg("h0");
  probe.dtype = q ? dtypeName(q->dtype) : "bf16";
  // A kernel without a `state` line fails here (checkKdaDecode says why).
  StateOrder layout = h0 ? h0->stateLayout : StateOrder::None;
  probe.stateLayout =
      layout == StateOrder::None ? "kv" : stateOrderName(layout);
  KDA2RT_TRY(checkKdaDecode(info, probe));
  out.kDim_ = probe.kDim;
  out.vDim_ = probe.vDim;
  out.dtype_ = q->dtype;
  out.stateLayout_ = layout;

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
  bool layoutOk = args.stateLayout &&
                  std::strcmp(args.stateLayout,
                              stateOrderName(stateLayout_)) == 0;
  auto bad = [](const void *p) {
    return !p || reinterpret_cast<uintptr_t>(p) % 16 != 0;
  };
  if (!dtypeOk || !layoutOk || args.kDim != kDim_ || args.vDim != vDim_ ||
      args.n <= 0 || args.t <= 0 || args.h <= 0 || !(args.scale >= 0) ||
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
