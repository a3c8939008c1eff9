//===- KDA.cpp - Kimi Delta Attention entry points -------------*- C++ -*-===//
//
// Checks the arguments of the typed KDA calls (decode, decode through an
// indexed state pool, speculative decode through the pool, chunked
// prefill) against the kernels' metadata (no GPU needed) and launches
// them, through Kernel::launch or a prepared, allocation-free launch (the
// plans).
//
// Every check is written once, split in two: the metadata part resolves a
// KdaKernelFacts (what the value checks need: head dimensions, element
// types, declared layouts), the value part checks one call against it
// without allocating unless it fails. checkKdaDecode* run both on every
// call; a plan runs the first at create() and the second per launch, so
// the general path, the prepared path and the queries give the same
// messages.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/KDA.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace kda2::runtime {

namespace {
Status invalid(std::string message) {
  return Status::error(ErrorCode::InvalidArgument, std::move(message));
}

std::string kernelPrefix(const KernelInfo &info) {
  return "kernel '" + info.name + "': ";
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

double resolvedScale(double scale, int64_t kDim) {
  return scale > 0 ? scale : 1.0 / std::sqrt(static_cast<double>(kDim));
}

uint64_t word(const void *p) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
}

//===----------------------------------------------------------------------===//
// The metadata part
//===----------------------------------------------------------------------===//

/// The inputs the serving entry points pass row strides for, and the
/// names of those strides (the fields of the C arguments, and the value
/// names of the parameter packing).
constexpr const char *kStridedInputs[] = {"q", "k", "v", "g", "beta"};
constexpr const char *kStrideNames[] = {"q_stride", "k_stride", "v_stride",
                                        "g_stride", "beta_stride"};

/// The `stride` lines of kernel `info`: which of kStridedInputs it reads
/// with a runtime row stride (`strided`). A stride on any other operand,
/// or on any operand when the entry point passes no strides
/// (`takesStrides` false), is refused.
Status resolveStrides(const KernelInfo &info, const char *kind,
                      bool takesStrides, bool (&strided)[5]) {
  for (bool &b : strided)
    b = false;
  for (const ArgInfo &a : info.args) {
    if (a.kind != ArgInfo::Ptr || a.strideScalar.empty())
      continue;
    int index = -1;
    for (int i = 0; takesStrides && i < 5; ++i)
      if (a.name == kStridedInputs[i])
        index = i;
    if (index < 0)
      return invalid(kernelPrefix(info) + "argument '" + a.name +
                     "' has a runtime row stride (parameter '" +
                     a.strideScalar + "'), which the " + kind +
                     " entry point does not pass" +
                     (takesStrides ? " (it strides q, k, v, g and beta only)"
                                   : ""));
    strided[index] = true;
  }
  return Status::success();
}

/// Checks that kernel `info` has the pointer arguments `required` (else it
/// "is not a KDA <kind> kernel") and resolves the facts every entry point
/// needs; `takesStrides`: the entry point passes the row strides of q, k,
/// v, g and beta (resolveStrides).
Status resolveFacts(const KernelInfo &info, const char *kind,
                    std::initializer_list<const char *> required,
                    KdaKernelFacts &f, bool takesStrides = true) {
  f = KdaKernelFacts();
  for (const char *name : required) {
    const ArgInfo *a = info.findArg(name);
    if (!a || a->kind != ArgInfo::Ptr)
      return invalid(kernelPrefix(info) + "is not a KDA " + kind +
                     " kernel (no argument '" + name + "')");
  }
  f.info = &info;
  f.kDim = lastStaticDim(info, "q");
  f.vDim = lastStaticDim(info, "v");
  const char *io[] = {"q", "k", "v", "o"};
  for (int i = 0; i < 4; ++i)
    f.io[i] = info.findArg(io[i])->dtype;
  return resolveStrides(info, kind, takesStrides, f.strided);
}

/// resolveFacts for the kernels with a state pool (pool and speculative
/// decode): the index arrays are all int32 or all int64 (the template's IX;
/// f.index), the flag arrays int32, and the pool is inout.
Status resolvePoolFacts(const KernelInfo &info, const char *kind,
                        std::initializer_list<const char *> required,
                        std::initializer_list<const char *> indexArrays,
                        std::initializer_list<const char *> flagArrays,
                        KdaKernelFacts &f);

/// The index, flag and pool part of resolvePoolFacts (f.info set).
Status resolveIndexAndPool(const KernelInfo &info, const char *kind,
                           std::initializer_list<const char *> indexArrays,
                           std::initializer_list<const char *> flagArrays,
                           KdaKernelFacts &f);

Status resolvePoolFacts(const KernelInfo &info, const char *kind,
                        std::initializer_list<const char *> required,
                        std::initializer_list<const char *> indexArrays,
                        std::initializer_list<const char *> flagArrays,
                        KdaKernelFacts &f) {
  KDA2RT_TRY(resolveFacts(info, kind, required, f));
  return resolveIndexAndPool(info, kind, indexArrays, flagArrays, f);
}

Status resolveIndexAndPool(const KernelInfo &info, const char *kind,
                           std::initializer_list<const char *> indexArrays,
                           std::initializer_list<const char *> flagArrays,
                           KdaKernelFacts &f) {
  for (const char *name : indexArrays) {
    DType t = info.findArg(name)->dtype;
    if (t != DType::I32 && t != DType::I64)
      return invalid(kernelPrefix(info) + "argument '" + name + "' is " +
                     dtypeName(t) + "; the " + kind +
                     " entry point passes int32 or int64 index arrays");
    if (!f.indexArg) {
      f.index = t;
      f.indexArg = name;
    } else if (t != f.index) {
      return invalid(kernelPrefix(info) + "argument '" + name + "' is " +
                     dtypeName(t) + " but '" + f.indexArg + "' is " +
                     dtypeName(f.index) + "; the " + kind +
                     " entry point passes its index arrays in one type "
                     "(index_dtype)");
    }
  }
  for (const char *name : flagArrays)
    if (info.findArg(name)->dtype != DType::I32)
      return invalid(kernelPrefix(info) + "argument '" + name + "' is " +
                     dtypeName(info.findArg(name)->dtype) + "; the " + kind +
                     " entry point passes int32 flags");
  const ArgInfo &pool = *info.findArg("pool");
  if (pool.access != Access::InOut)
    return invalid(kernelPrefix(info) + "argument 'pool' is declared '" +
                   accessName(pool.access) +
                   "'; the pool is read and written in place (inout)");
  f.state = pool.dtype;
  f.layout = pool.stateLayout;
  if (pool.shape.size() >= 2) {
    f.poolRows = &pool.shape[pool.shape.size() - 2];
    f.poolCols = &pool.shape.back();
  }
  return Status::success();
}

constexpr const char *kDecodePointers[] = {"q",    "k",  "v", "g",
                                           "beta", "h0", "o", "ht"};
constexpr const char *kDecodeDims[] = {"n", "t", "h"};
constexpr const char *kPoolPointers[] = {
    "q",    "k",          "v",             "g",
    "beta", "cu_seqlens", "state_indices", "has_initial_state",
    "pool", "o"};
/// The row strides of q, k, v, g and beta follow the sizes (kStrideNames).
constexpr const char *kPoolDims[] = {"tt",       "h",        "n",
                                     "np1",      "slots",    "q_stride",
                                     "k_stride", "v_stride", "g_stride",
                                     "beta_stride"};
constexpr const char *kSpecPointers[] = {
    "q", "k", "v", "g", "beta", "state_indices", "num_accepted", "pool", "o"};
/// write_states is an integer scalar of the kernel, passed like a size.
constexpr const char *kSpecDims[] = {
    "n",        "t",        "h",        "slots",      "write_states",
    "q_stride", "k_stride", "v_stride", "g_stride", "beta_stride"};

Status resolveDecodeFacts(const KernelInfo &info, KdaKernelFacts &f) {
  KDA2RT_TRY(resolveFacts(info, "decode",
                          {"q", "k", "v", "g", "beta", "h0", "o", "ht"}, f,
                          /*takesStrides=*/false));
  f.layout = info.findArg("h0")->stateLayout;
  f.layout2 = info.findArg("ht")->stateLayout;
  f.state = info.findArg("ht")->dtype;
  return Status::success();
}

Status resolvePoolDecodeFacts(const KernelInfo &info, KdaKernelFacts &f) {
  return resolvePoolFacts(
      info, "pool decode",
      {"q", "k", "v", "g", "beta", "cu_seqlens", "state_indices",
       "has_initial_state", "pool", "o"},
      {"cu_seqlens", "state_indices"}, {"has_initial_state"}, f);
}

Status resolveSpecFacts(const KernelInfo &info, KdaKernelFacts &f) {
  KDA2RT_TRY(resolvePoolFacts(info, "speculative decode",
                              {"q", "k", "v", "g", "beta", "state_indices",
                               "num_accepted", "pool", "o"},
                              {"state_indices", "num_accepted"}, {}, f));
  const ArgInfo *w = info.findArg("write_states");
  if (!w || w->kind != ArgInfo::Scalar ||
      (w->scalarType != ScalarType::I32 && w->scalarType != ScalarType::I64))
    return invalid(kernelPrefix(info) +
                   "is not a speculative decode kernel (no integer scalar "
                   "argument 'write_states')");
  return Status::success();
}

constexpr const char *kConvPointers[] = {
    "qkv",        "conv_w",        "a",
    "b",          "gout",          "A_log",
    "dt_bias",    "norm_w",        "cu_seqlens",
    "state_indices", "has_initial_state", "conv_state",
    "pool",       "o"};
/// qkv's row stride follows the sizes (the value of its `stride` scalar).
constexpr const char *kConvDims[] = {"tt", "D", "h", "n", "np1", "slots",
                                     "qkv_stride"};
/// The float scalars besides scale, packed per call.
constexpr const char *kConvFloats[] = {"lower_bound", "eps"};

/// The fused layer decode kernel (templates/kda_decode_conv.tirx): its
/// pointer arguments, the float scalars lower_bound and eps, f32 side
/// inputs, a row stride on qkv only, the conv width (conv_w [D, W],
/// conv_state [slots, D, W - 1], inout), then the index arrays and the pool
/// as for the pool kernels.
Status resolveConvDecodeFacts(const KernelInfo &info, KdaKernelFacts &f) {
  f = KdaKernelFacts();
  const char *kind = "conv decode";
  for (const char *name : kConvPointers) {
    const ArgInfo *a = info.findArg(name);
    if (a && a->kind == ArgInfo::Ptr)
      continue;
    std::string hint;
    const ArgInfo *q = info.findArg("q");
    if (q && q->kind == ArgInfo::Ptr && info.findArg("pool"))
      hint = info.findArg("num_accepted")
                 ? "; it takes q, k, v, g and beta: a speculative decode "
                   "kernel, for kda2rt_kda_decode_spec"
                 : "; it takes q, k, v, g and beta: a pool decode kernel, "
                   "for kda2rt_kda_decode_pool";
    return invalid(kernelPrefix(info) + "is not a KDA " + kind +
                   " kernel (no argument '" + name + "')" + hint);
  }
  for (const char *name : kConvFloats) {
    const ArgInfo *a = info.findArg(name);
    if (!a || a->kind != ArgInfo::Scalar ||
        (a->scalarType != ScalarType::F32 && a->scalarType != ScalarType::F64))
      return invalid(kernelPrefix(info) + "is not a KDA " + kind +
                     " kernel (no float scalar argument '" + name + "')");
  }
  f.info = &info;
  f.kDim = lastStaticDim(info, "a");
  f.vDim = lastStaticDim(info, "o");
  const char *io[] = {"qkv", "gout", "conv_state", "o"};
  for (int i = 0; i < 4; ++i)
    f.convIo[i] = f.io[i] = info.findArg(io[i])->dtype;
  for (const char *name : {"conv_w", "a", "b", "A_log", "dt_bias", "norm_w"})
    if (DType t = info.findArg(name)->dtype; t != DType::F32)
      return invalid(kernelPrefix(info) + "argument '" + name + "' is " +
                     dtypeName(t) + "; the " + kind +
                     " entry point passes it as f32");
  for (const ArgInfo &a : info.args) {
    if (a.kind != ArgInfo::Ptr || a.strideScalar.empty())
      continue;
    if (a.name != "qkv")
      return invalid(kernelPrefix(info) + "argument '" + a.name +
                     "' has a runtime row stride (parameter '" +
                     a.strideScalar + "'), which the " + kind +
                     " entry point does not pass (it strides qkv only)");
    f.strided[0] = true;
  }
  const ArgInfo &cs = *info.findArg("conv_state");
  if (cs.access != Access::InOut)
    return invalid(kernelPrefix(info) + "argument 'conv_state' is declared '" +
                   accessName(cs.access) +
                   "'; the conv state is read and written in place (inout)");
  int64_t w = lastStaticDim(info, "conv_w");
  int64_t w1 = lastStaticDim(info, "conv_state");
  if (w < 2)
    return invalid(kernelPrefix(info) +
                   "argument 'conv_w' does not end in a static conv width "
                   "W >= 2 ([D, W])");
  if (w1 != w - 1)
    return invalid(kernelPrefix(info) + "argument 'conv_state' ends in " +
                   (w1 ? std::to_string(w1) : std::string("?")) +
                   ", not W - 1 = " + std::to_string(w - 1) + " (conv_w [D, " +
                   std::to_string(w) + "])");
  f.convWidth = w;
  // A_log and dt_bias are optional inputs of the gate (`bind AL 0`,
  // `bind DB 0`: exp(A_log) is 1, dt_bias 0); kernels without the lines
  // read both.
  f.readsALog = info.binding("AL").value_or(1) != 0;
  f.readsDtBias = info.binding("DB").value_or(1) != 0;
  return resolveIndexAndPool(info, kind, {"cu_seqlens", "state_indices"},
                             {"has_initial_state"}, f);
}

//===----------------------------------------------------------------------===//
// The value part (allocates only to word a failure)
//===----------------------------------------------------------------------===//

/// Supported head sizes, then the sizes the kernel was compiled for.
Status checkHeadDims(const KdaKernelFacts &f, int64_t kDim, int64_t vDim) {
  if (!supportedHeadDim(kDim) || !supportedHeadDim(vDim))
    return invalid("unsupported head dimension K=" + std::to_string(kDim) +
                   ", V=" + std::to_string(vDim) +
                   "; the KDA decode kernels support 64, 128 and 256");
  if (kDim != f.kDim || vDim != f.vDim)
    return invalid(kernelPrefix(*f.info) + "was compiled for K=" +
                   std::to_string(f.kDim) + ", V=" + std::to_string(f.vDim) +
                   ", got K=" + std::to_string(kDim) +
                   ", V=" + std::to_string(vDim));
  return Status::success();
}

/// The call's element type `dtype` (null: bf16) must be bf16 or f16 and the
/// type of the four input/output tensors `names` (declared as `types`).
Status checkIoDType(const KernelInfo &info, const char *dtype,
                    const char *const names[4], const DType types[4]) {
  dtype = dtype ? dtype : "bf16";
  DType requested;
  if (!parseDType(dtype, requested) ||
      (requested != DType::BF16 && requested != DType::F16))
    return invalid(std::string("dtype '") + dtype +
                   "' is not a KDA input type; expected bf16 or f16");
  for (int i = 0; i < 4; ++i)
    if (types[i] != requested)
      return invalid(kernelPrefix(info) + "argument '" + names[i] + "' is " +
                     dtypeName(types[i]) + ", the call passes " + dtype);
  return Status::success();
}

/// The input element type: the type of q, k, v and o in the metadata.
Status checkInputDType(const KdaKernelFacts &f, const char *dtype) {
  static const char *const names[] = {"q", "k", "v", "o"};
  return checkIoDType(*f.info, dtype, names, f.io);
}

/// The index type of a call: `indexDtype` (null: i32) must be i32 or i64
/// and the type kernel `info` reads its index arrays in (`declared`, that of
/// argument `arg`). `size` receives its element size.
Status checkIndexDType(const KernelInfo &info, DType declared,
                       const char *arg, const char *indexDtype,
                       size_t &size) {
  DType requested = DType::I32;
  if (indexDtype && (!parseDType(indexDtype, requested) ||
                     (requested != DType::I32 && requested != DType::I64)))
    return invalid(std::string("argument 'index_dtype' is '") + indexDtype +
                   "': expected \"i32\" (or NULL) or \"i64\", the type of "
                   "the index arrays (cu_seqlens, state_indices, ...)");
  if (requested != declared)
    return invalid(std::string("argument 'index_dtype' is ") +
                   (indexDtype ? "'" + std::string(indexDtype) + "'"
                               : std::string("NULL (i32)")) +
                   " but kernel '" + info.name + "' reads '" + (arg ? arg : "?") +
                   "' as " +
                   (declared == DType::I64 ? "int64" : "int32") +
                   " (its IX binding)");
  size = dtypeSize(declared);
  return Status::success();
}

constexpr const char *kLayoutWords =
    "\"kv\" (K-major [.., K, V]) or \"vk\" (V-major [.., V, K])";

/// checkStateLayout against an already resolved declared layout.
Status checkLayout(const KernelInfo &info, const char *arg,
                   StateOrder declared, const char *layout) {
  if (!layout)
    return invalid(std::string("argument 'state_layout' is NULL: say ") +
                   kLayoutWords);
  StateOrder requested;
  if (!parseStateOrder(layout, requested))
    return invalid(std::string("argument 'state_layout' is '") + layout +
                   "': expected " + kLayoutWords);
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

Status checkScale(double scale) {
  if (!(scale >= 0) || std::isinf(scale))
    return invalid("scale must be a finite number >= 0 (0: K^-1/2)");
  return Status::success();
}

/// The state checks shared by the pool and speculative entry points: head
/// dimensions, input type, state type, layout, and the pool's matrix
/// dimensions (K and V in either declared order: the metadata lists the
/// declared order, the `state` line the storage order). `st` receives the
/// state type.
Status checkStateTypeLayout(const KdaKernelFacts &f, int64_t kDim, int64_t vDim,
                            const char *stateDtype, const char *stateLayout,
                            DType &st);

Status checkPoolState(const KdaKernelFacts &f, int64_t kDim, int64_t vDim,
                      const char *dtype, const char *stateDtype,
                      const char *stateLayout, DType &st) {
  KDA2RT_TRY(checkHeadDims(f, kDim, vDim));
  KDA2RT_TRY(checkInputDType(f, dtype));
  return checkStateTypeLayout(f, kDim, vDim, stateDtype, stateLayout, st);
}

/// The state part of checkPoolState: state_dtype (null: f32) against the
/// pool's type, state_layout against its `state` line, and the pool's
/// matrix dimensions against K and V.
Status checkStateTypeLayout(const KdaKernelFacts &f, int64_t kDim, int64_t vDim,
                            const char *stateDtype, const char *stateLayout,
                            DType &st) {
  stateDtype = stateDtype ? stateDtype : "f32";
  if (!parseDType(stateDtype, st) || (st != DType::F32 && st != DType::BF16))
    return invalid(std::string("state_dtype '") + stateDtype +
                   "' is not a KDA state type; expected f32 or bf16");
  if (f.state != st)
    return invalid(kernelPrefix(*f.info) + "argument 'pool' is " +
                   dtypeName(f.state) + ", the call passes state_dtype " +
                   stateDtype);
  KDA2RT_TRY(checkLayout(*f.info, "pool", f.layout, stateLayout));
  if (!f.poolRows)
    return Status::success();
  const ShapeDim &a = *f.poolRows, &b = *f.poolCols;
  auto is = [](const ShapeDim &d, int64_t size) {
    return d.kind != ShapeDim::Static || d.size == size;
  };
  if ((is(a, kDim) && is(b, vDim)) || (is(a, vDim) && is(b, kDim)))
    return Status::success();
  auto show = [](const ShapeDim &d) {
    return d.kind == ShapeDim::Static ? std::to_string(d.size)
                                      : std::string("?");
  };
  return invalid(kernelPrefix(*f.info) + "argument 'pool' ends in [.., " +
                 show(a) + ", " + show(b) +
                 "], which are not the head dimensions K = " +
                 std::to_string(kDim) + ", V = " + std::to_string(vDim));
}

/// One operand of a call: its name, address, required alignment and byte
/// size (filled after the pointer checks).
struct Operand {
  const char *name;
  const void *ptr;
  uintptr_t alignment;
  uint64_t bytes;
  /// Why the alignment (null: from the alignment: 128-bit accesses, int32
  /// or int64 elements, TMA).
  const char *why = nullptr;
};

/// NULL and alignment of each operand, in order.
Status checkPointers(const Operand *ops, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const Operand &o = ops[i];
    if (!o.ptr)
      return invalid(std::string("argument '") + o.name + "' is NULL");
    if (reinterpret_cast<uintptr_t>(o.ptr) % o.alignment != 0)
      return invalid(std::string("argument '") + o.name + "' is not " +
                     std::to_string(o.alignment) + "-byte aligned (" +
                     (o.why               ? o.why
                      : o.alignment == 16 ? "the kernel uses 128-bit accesses"
                      : o.alignment == 4 ? "int32 elements"
                      : o.alignment == 8 ? "int64 elements"
                                         : "the intermediates inside it are "
                                           "read with TMA") +
                     ")");
  }
  return Status::success();
}

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
  return std::string(o.name) + " at " + hex(word(o.ptr)) + ", " +
         std::to_string(o.bytes) + " bytes";
}

bool overlap(const Operand &a, const Operand &b) {
  if (!a.bytes || !b.bytes)
    return false;
  unsigned __int128 a0 = word(a.ptr), a1 = a0 + a.bytes;
  unsigned __int128 b0 = word(b.ptr), b1 = b0 + b.bytes;
  return a0 < b1 && b0 < a1;
}

/// A written operand (`pool`, updated in place, or another) must not share
/// memory with any other operand. Inputs may share memory with each other.
Status checkWritten(const Operand *ops, size_t count, const Operand &written,
                    bool inPlace) {
  for (size_t i = 0; i < count; ++i)
    if (&ops[i] != &written && overlap(written, ops[i]))
      return invalid(std::string("arguments '") + written.name + "' and '" +
                     ops[i].name + "' overlap (" + range(written) + "; " +
                     range(ops[i]) + "): '" + written.name +
                     (inPlace ? "' is updated in place" : "' is written") +
                     " and must not share memory with another operand");
  return Status::success();
}

/// The written operands (`pool`, updated in place, and `o`) must not share
/// memory with any other.
Status checkOverlaps(const Operand *ops, size_t count, const Operand &pool,
                     const Operand &o) {
  KDA2RT_TRY(checkWritten(ops, count, pool, /*inPlace=*/true));
  return checkWritten(ops, count, o, /*inPlace=*/false);
}

Status checkDecodeValues(const KdaKernelFacts &f, const KdaDecodeArgs &args) {
  KDA2RT_TRY(checkHeadDims(f, args.kDim, args.vDim));
  KDA2RT_TRY(checkInputDType(f, args.dtype));
  if (f.layout != StateOrder::None && f.layout2 != StateOrder::None &&
      f.layout != f.layout2)
    return invalid(kernelPrefix(*f.info) + "declares state 'h0' " +
                   stateOrderName(f.layout) + " but 'ht' " +
                   stateOrderName(f.layout2) +
                   "; the decode entry point takes one layout for both");
  KDA2RT_TRY(checkLayout(*f.info, "h0", f.layout, args.stateLayout));
  KDA2RT_TRY(checkLayout(*f.info, "ht", f.layout2, args.stateLayout));
  if (args.n <= 0 || args.t <= 0 || args.h <= 0)
    return invalid("sizes must be positive, got n=" + std::to_string(args.n) +
                   ", t=" + std::to_string(args.t) +
                   ", h=" + std::to_string(args.h));
  KDA2RT_TRY(checkScale(args.scale));
  const Operand ops[] = {{"q", args.q, 16, 0},   {"k", args.k, 16, 0},
                         {"v", args.v, 16, 0},   {"g", args.g, 16, 0},
                         {"beta", args.beta, 16, 0}, {"h0", args.h0, 16, 0},
                         {"o", args.o, 16, 0},   {"ht", args.ht, 16, 0}};
  KDA2RT_TRY(checkPointers(ops, 8));
  if (args.h0 == args.ht)
    return invalid("h0 and ht alias: the decode kernel reads h0 and writes "
                   "ht in parallel; pass a separate output buffer");
  return Status::success();
}

/// The sizes the pool entry points share: heads, slots, the scale.
Status checkHeadsSlotsScale(int64_t h, int64_t slots, double scale) {
  if (h <= 0)
    return invalid("h must be positive (the number of heads), got " +
                   std::to_string(h));
  if (slots <= 0)
    return invalid("slots must be positive (the states in the pool), got " +
                   std::to_string(slots));
  return checkScale(scale);
}

/// The byte extent of the pool operand.
Status poolBytes(int64_t slots, int64_t h, int64_t k, int64_t v, DType st,
                 Operand &pool) {
  if (!byteCount({slots, h, k, v}, dtypeSize(st), pool.bytes))
    return invalid("the pool of slots = " + std::to_string(slots) +
                   ", h = " + std::to_string(h) +
                   " states is larger than 2^63 bytes");
  return Status::success();
}

/// A call's row strides of q, k, v, g and beta (kStrideNames order): 0
/// stands for the dense row size.
struct RowStrides {
  int64_t value[5];
  RowStrides(int64_t q, int64_t k, int64_t v, int64_t g, int64_t beta)
      : value{q, k, v, g, beta} {}
};

/// The dense row sizes (elements) of q, k, v, g and beta for rows of
/// `tokens` tokens of h heads, and their element sizes.
struct RowShape {
  int64_t size[5];
  size_t element[5];
  RowShape(int64_t tokens, int64_t h, int64_t k, int64_t v, size_t in)
      : RowShape(tokens, h, h, k, v, in) {}
  /// q and k with hqk heads (grouped value heads), the others with h.
  RowShape(int64_t tokens, int64_t hqk, int64_t h, int64_t k, int64_t v,
           size_t in)
      : size{product(tokens, hqk, k), product(tokens, hqk, k),
             product(tokens, h, v), product(tokens, h, k),
             product(tokens, h, 1)},
        element{in, in, in, 4, 4} {}
  /// a·b·c, saturated at INT64_MAX (the byte counts refuse such sizes).
  static int64_t product(int64_t a, int64_t b, int64_t c) {
    unsigned __int128 p = static_cast<unsigned __int128>(a > 0 ? a : 0) *
                          static_cast<uint64_t>(b > 0 ? b : 0) *
                          static_cast<uint64_t>(c > 0 ? c : 0);
    return p > INT64_MAX ? INT64_MAX : static_cast<int64_t>(p);
  }
};

/// The stride a kernel gets: the dense row size for 0.
int64_t resolvedStride(int64_t stride, int64_t dense) {
  return stride ? stride : dense;
}

/// The row strides of one call: 0 (dense), or at least the dense row size
/// and a multiple of 16 bytes, and a non-dense stride only for an operand
/// the kernel reads with a runtime stride. `rowWords` describes the dense
/// row for messages ("h·K").
Status checkStrides(const KdaKernelFacts &f, const RowStrides &s,
                    const RowShape &row, const char *const (&rowWords)[5]) {
  for (int i = 0; i < 5; ++i) {
    int64_t st = s.value[i], dense = row.size[i];
    if (st == 0 || st == dense)
      continue;
    if (st < dense)
      return invalid(std::string("argument '") + kStrideNames[i] + "' is " +
                     std::to_string(st) +
                     ": a row stride is 0 (dense) or at least the row "
                     "size, " +
                     rowWords[i] + " = " + std::to_string(dense) +
                     " elements");
    size_t eb = row.element[i];
    if ((static_cast<uint64_t>(st) * eb) % 16 != 0)
      return invalid(std::string("argument '") + kStrideNames[i] + "' is " +
                     std::to_string(st) +
                     ": the row stride must be a multiple of 16 bytes (" +
                     std::to_string(16 / eb) + " elements of " +
                     (i < 3 ? dtypeName(f.io[i]) : "f32") + ")");
    if (!f.strided[i])
      return invalid("kernel '" + f.info->name + "' reads '" + kStridedInputs[i] +
                     "' densely (no stride parameter); rebuild it from a "
                     "template with stride= (GMEM {stride=...} " +
                     kStridedInputs[i] + "), or pass " + kStrideNames[i] +
                     " = 0");
  }
  return Status::success();
}

/// The byte extent of `rows` rows of `row` elements of `element` bytes,
/// `stride` elements apart (0: dense): (rows - 1) * stride + row elements;
/// false past 2^63 bytes.
bool stridedBytes(int64_t rows, int64_t stride, int64_t row, size_t element,
                  uint64_t &out) {
  stride = resolvedStride(stride, row);
  if (rows <= 0 || row <= 0) {
    out = 0;
    return true;
  }
  unsigned __int128 total =
      (static_cast<unsigned __int128>(rows - 1) * static_cast<uint64_t>(stride) +
       static_cast<uint64_t>(row)) *
      element;
  if (total > static_cast<unsigned __int128>(INT64_MAX))
    return false;
  out = static_cast<uint64_t>(total);
  return true;
}

/// The byte extents of q, k, v, g and beta (ops[0..4]): `rows` rows of
/// `row`, strided by `s`.
bool inputBytes(int64_t rows, const RowShape &row, const RowStrides &s,
                Operand *ops) {
  for (int i = 0; i < 5; ++i)
    if (!stridedBytes(rows, s.value[i], row.size[i], row.element[i],
                      ops[i].bytes))
      return false;
  return true;
}

constexpr const char *kTokenRowWords[] = {"h·K", "h·K", "h·V", "h·K", "h"};
/// The prefill's rows with grouped value heads (hqk q/k heads).
constexpr const char *kGroupedTokenRowWords[] = {"hqk·K", "hqk·K", "h·V",
                                                 "h·K", "h"};
constexpr const char *kSequenceRowWords[] = {"t·h·K", "t·h·K", "t·h·V",
                                             "t·h·K", "t·h"};

/// The byte extents of a packed batch's operands, in the pool entry
/// points' order: q, k, v, g, beta (rows strided by `s`), cu_seqlens,
/// state_indices (`ix` bytes an element), has_initial_state, (pool:
/// poolBytes), o.
Status packedBatchBytes(int64_t n, int64_t tt, int64_t h, int64_t k,
                        int64_t v, size_t in, size_t ix, const RowStrides &s,
                        Operand *ops, int64_t hqk = 0) {
  if (!(inputBytes(tt, RowShape(1, hqk ? hqk : h, h, k, v, in), s, ops) &&
        byteCount({n + 1}, ix, ops[5].bytes) &&
        byteCount({n}, ix, ops[6].bytes) &&
        byteCount({n}, 4, ops[7].bytes) &&
        byteCount({tt, h, v}, in, ops[9].bytes)))
    return invalid("total_tokens = " + std::to_string(tt) +
                   " and h = " + std::to_string(h) +
                   " make an operand larger than 2^63 bytes");
  return Status::success();
}

Status checkPoolValues(const KdaKernelFacts &f, const KdaDecodePoolArgs &a) {
  DType st;
  KDA2RT_TRY(checkPoolState(f, a.kDim, a.vDim, a.dtype, a.stateDtype,
                            a.stateLayout, st));
  size_t ix;
  KDA2RT_TRY(checkIndexDType(*f.info, f.index, f.indexArg, a.indexDtype, ix));
  if (a.n <= 0)
    return invalid("n must be positive (the number of sequences), got " +
                   std::to_string(a.n));
  if (a.totalTokens < 0)
    return invalid("total_tokens must be >= 0, got " +
                   std::to_string(a.totalTokens));
  if (ix == 4 && a.totalTokens > INT32_MAX)
    return invalid("total_tokens = " + std::to_string(a.totalTokens) +
                   " does not fit the int32 cu_seqlens (index_dtype "
                   "\"i64\" with an IX=i64 kernel does)");
  KDA2RT_TRY(checkHeadsSlotsScale(a.h, a.slots, a.scale));
  Operand ops[] = {{"q", a.q, 16, 0},
                   {"k", a.k, 16, 0},
                   {"v", a.v, 16, 0},
                   {"g", a.g, 16, 0},
                   {"beta", a.beta, 16, 0},
                   {"cu_seqlens", a.cuSeqlens, ix, 0},
                   {"state_indices", a.stateIndices, ix, 0},
                   {"has_initial_state", a.hasInitialState, 4, 0},
                   {"pool", a.pool, 16, 0},
                   {"o", a.o, 16, 0}};
  KDA2RT_TRY(checkPointers(ops, 10));
  size_t in = dtypeSize(f.io[0]);
  int64_t h = a.h, k = a.kDim, v = a.vDim;
  const RowStrides strides(a.qStride, a.kStride, a.vStride, a.gStride,
                           a.betaStride);
  KDA2RT_TRY(checkStrides(f, strides, RowShape(1, h, k, v, in),
                          kTokenRowWords));
  // Byte extents (the inputs' strided ones): the written operands (pool,
  // o) must not overlap anything.
  KDA2RT_TRY(
      packedBatchBytes(a.n, a.totalTokens, h, k, v, in, ix, strides, ops));
  KDA2RT_TRY(poolBytes(a.slots, h, k, v, st, ops[8]));
  return checkOverlaps(ops, 10, ops[8], ops[9]);
}

Status checkSpecValues(const KdaKernelFacts &f, const KdaDecodeSpecArgs &a) {
  DType st;
  KDA2RT_TRY(checkPoolState(f, a.kDim, a.vDim, a.dtype, a.stateDtype,
                            a.stateLayout, st));
  size_t ix;
  KDA2RT_TRY(checkIndexDType(*f.info, f.index, f.indexArg, a.indexDtype, ix));
  if (a.n <= 0)
    return invalid("n must be positive (the number of sequences), got " +
                   std::to_string(a.n));
  if (a.writeStates != 0 && a.writeStates != 1)
    return invalid("write_states must be 0 (output only: the pool is only "
                   "read) or 1 (the state after each token to its slot), "
                   "got " +
                   std::to_string(a.writeStates));
  if (a.t < 1 || a.t > kKdaSpecMaxTokens)
    return invalid("t must be in [1, " + std::to_string(kKdaSpecMaxTokens) +
                   "] (tokens per sequence), got " + std::to_string(a.t) +
                   ": speculative decode verifies at most " +
                   std::to_string(kKdaSpecMaxTokens) +
                   " tokens per step (the last accepted token and the "
                   "drafts); longer runs are prefill");
  KDA2RT_TRY(checkHeadsSlotsScale(a.h, a.slots, a.scale));
  Operand ops[] = {{"q", a.q, 16, 0},
                   {"k", a.k, 16, 0},
                   {"v", a.v, 16, 0},
                   {"g", a.g, 16, 0},
                   {"beta", a.beta, 16, 0},
                   {"state_indices", a.stateIndices, ix, 0},
                   {"num_accepted", a.numAccepted, ix, 0},
                   {"pool", a.pool, 16, 0},
                   {"o", a.o, 16, 0}};
  KDA2RT_TRY(checkPointers(ops, 9));
  size_t in = dtypeSize(f.io[0]);
  int64_t n = a.n, t = a.t, h = a.h, k = a.kDim, v = a.vDim;
  // A row of the inputs is one sequence (its t tokens, dense).
  const RowStrides strides(a.qStride, a.kStride, a.vStride, a.gStride,
                           a.betaStride);
  const RowShape row(t, h, k, v, in);
  KDA2RT_TRY(checkStrides(f, strides, row, kSequenceRowWords));
  if (!(inputBytes(n, row, strides, ops) &&
        byteCount({n, t}, ix, ops[5].bytes) &&
        byteCount({n}, ix, ops[6].bytes) &&
        byteCount({n, t, h, v}, in, ops[8].bytes)))
    return invalid("n = " + std::to_string(n) + ", t = " + std::to_string(t) +
                   " and h = " + std::to_string(h) +
                   " make an operand larger than 2^63 bytes");
  KDA2RT_TRY(poolBytes(a.slots, h, k, v, st, ops[7]));
  return checkOverlaps(ops, 9, ops[7], ops[8]);
}

/// The channels of the packed projection, D = 2·h·K + h·V (saturated at
/// INT64_MAX; the byte counts refuse such sizes).
int64_t convChannels(int64_t h, int64_t k, int64_t v) {
  unsigned __int128 d =
      static_cast<unsigned __int128>(RowShape::product(2, h, k)) +
      static_cast<uint64_t>(RowShape::product(1, h, v));
  return d > INT64_MAX ? INT64_MAX : static_cast<int64_t>(d);
}

/// The element type of the fused decode's qkv, gout, conv_state and o:
/// `dtype` (null: bf16), bf16 or f16.
Status checkConvDType(const KdaKernelFacts &f, const char *dtype) {
  static const char *const names[] = {"qkv", "gout", "conv_state", "o"};
  return checkIoDType(*f.info, dtype, names, f.convIo);
}

/// A_log or dt_bias of a conv decode call as launched: a kernel built
/// without it (`bind AL 0` / `bind DB 0`) never reads it and the call may
/// leave it NULL, so it gets `a` (a valid device pointer) in its place and
/// the launch's non-NULL checks hold; a kernel that reads it was refused a
/// NULL one by checkConvValues.
const void *convGateInput(const void *ptr, const KdaDecodeConvArgs &a) {
  return ptr ? ptr : a.a;
}

Status checkConvValues(const KdaKernelFacts &f, const KdaDecodeConvArgs &a) {
  KDA2RT_TRY(checkHeadDims(f, a.kDim, a.vDim));
  KDA2RT_TRY(checkConvDType(f, a.dtype));
  DType st;
  KDA2RT_TRY(checkStateTypeLayout(f, a.kDim, a.vDim, a.stateDtype,
                                  a.stateLayout, st));
  size_t ix;
  KDA2RT_TRY(checkIndexDType(*f.info, f.index, f.indexArg, a.indexDtype, ix));
  if (a.convWidth != f.convWidth)
    return invalid(kernelPrefix(*f.info) + "was compiled for conv width W = " +
                   std::to_string(f.convWidth) + " (conv_w [D, " +
                   std::to_string(f.convWidth) + "], conv_state [slots, D, " +
                   std::to_string(f.convWidth - 1) + "]), got conv_width = " +
                   std::to_string(a.convWidth));
  if (a.n <= 0)
    return invalid("n must be positive (the number of sequences), got " +
                   std::to_string(a.n));
  if (a.totalTokens < 0)
    return invalid("total_tokens must be >= 0, got " +
                   std::to_string(a.totalTokens));
  if (ix == 4 && a.totalTokens > INT32_MAX)
    return invalid("total_tokens = " + std::to_string(a.totalTokens) +
                   " does not fit the int32 cu_seqlens (index_dtype "
                   "\"i64\" with an IX=i64 kernel does)");
  KDA2RT_TRY(checkHeadsSlotsScale(a.h, a.slots, a.scale));
  if (!std::isfinite(a.lowerBound))
    return invalid("lower_bound must be a finite number (the bound of gate "
                   "family 1; GF 2 kernels ignore it)");
  if (!(a.eps >= 0) || std::isinf(a.eps))
    return invalid("eps must be a finite number >= 0 (the RMSNorm epsilon)");
  Operand ops[] = {{"qkv", a.qkv, 16, 0},
                   {"conv_w", a.convW, 16, 0},
                   {"a", a.a, 16, 0},
                   {"b", a.b, 16, 0},
                   {"gout", a.gout, 16, 0},
                   {"A_log", f.readsALog ? a.aLog : convGateInput(a.aLog, a), 16, 0},
                   {"dt_bias", f.readsDtBias ? a.dtBias : convGateInput(a.dtBias, a),
                    16, 0},
                   {"norm_w", a.normW, 16, 0},
                   {"cu_seqlens", a.cuSeqlens, ix, 0},
                   {"state_indices", a.stateIndices, ix, 0},
                   {"has_initial_state", a.hasInitialState, 4, 0},
                   {"conv_state", a.convState, 16, 0},
                   {"pool", a.pool, 16, 0},
                   {"o", a.o, 16, 0}};
  constexpr size_t N = std::size(ops);
  // A_log and dt_bias a kernel does not read may be NULL (they get `a` in
  // their place, convGateInput); the ones it reads may not.
  KDA2RT_TRY(checkPointers(ops, N));
  size_t in = dtypeSize(f.convIo[0]);
  int64_t n = a.n, tt = a.totalTokens, h = a.h, k = a.kDim, v = a.vDim;
  int64_t d = convChannels(h, k, v), w = f.convWidth;
  if (a.qkvStride != 0 && a.qkvStride != d) {
    if (a.qkvStride < d)
      return invalid("argument 'qkv_stride' is " +
                     std::to_string(a.qkvStride) +
                     ": a row stride is 0 (dense) or at least the row size, "
                     "D = 2·h·K + h·V = " +
                     std::to_string(d) + " elements");
    if ((static_cast<uint64_t>(a.qkvStride) * in) % 16 != 0)
      return invalid("argument 'qkv_stride' is " +
                     std::to_string(a.qkvStride) +
                     ": the row stride must be a multiple of 16 bytes (" +
                     std::to_string(16 / in) + " elements of " +
                     dtypeName(f.convIo[0]) + ")");
    if (!f.strided[0])
      return invalid("kernel '" + f.info->name +
                     "' reads 'qkv' densely (no stride parameter); rebuild "
                     "it from a template with stride= (GMEM {stride=...} "
                     "qkv), or pass qkv_stride = 0");
  }
  // Byte extents (qkv's strided one): the written operands (conv_state,
  // pool, o) must not overlap anything.
  if (!(stridedBytes(tt, a.qkvStride, d, in, ops[0].bytes) &&
        byteCount({d, w}, 4, ops[1].bytes) &&
        byteCount({tt, h, k}, 4, ops[2].bytes) &&
        byteCount({tt, h}, 4, ops[3].bytes) &&
        byteCount({tt, h, v}, in, ops[4].bytes) &&
        byteCount({h}, 4, ops[5].bytes) &&
        byteCount({h, k}, 4, ops[6].bytes) &&
        byteCount({v}, 4, ops[7].bytes) &&
        byteCount({n + 1}, ix, ops[8].bytes) &&
        byteCount({n}, ix, ops[9].bytes) && byteCount({n}, 4, ops[10].bytes) &&
        byteCount({tt, h, v}, in, ops[13].bytes)))
    return invalid("total_tokens = " + std::to_string(tt) +
                   " and h = " + std::to_string(h) +
                   " make an operand larger than 2^63 bytes");
  if (!byteCount({a.slots, d, w - 1}, in, ops[11].bytes))
    return invalid("the conv state of slots = " + std::to_string(a.slots) +
                   ", D = " + std::to_string(d) +
                   " channels is larger than 2^63 bytes");
  KDA2RT_TRY(poolBytes(a.slots, h, k, v, st, ops[12]));
  if (!f.readsALog)
    ops[5].bytes = 0;
  if (!f.readsDtBias)
    ops[6].bytes = 0;
  KDA2RT_TRY(checkWritten(ops, N, ops[11], /*inPlace=*/true));
  KDA2RT_TRY(checkWritten(ops, N, ops[12], /*inPlace=*/true));
  return checkWritten(ops, N, ops[13], /*inPlace=*/false);
}

/// Kernel arguments of a typed call: the pointers, the sizes of the
/// dimensions among `dimNames` the kernel names (computeLaunchConfig
/// rejects others) and the scale (none when null).
/// Pointers of the prefill tables that only some kernels take (the ready
/// flags of kernels built with RDY=1): passed where the kernel has them.
bool isOptionalPointer(const char *name) {
  return !std::strcmp(name, "ready");
}

template <size_t NP, size_t ND>
void fillLaunchArgs(const KernelInfo &info, const char *const (&ptrNames)[NP],
                    const void *const (&ptrs)[NP],
                    const char *const (&dimNames)[ND],
                    const int64_t (&dims)[ND], const double *scale,
                    LaunchArgs &out) {
  for (size_t i = 0; i < NP; ++i)
    if (!isOptionalPointer(ptrNames[i]) || info.findArg(ptrNames[i]))
      out.ptr(ptrNames[i], ptrs[i]);
  const std::vector<std::string> known = info.dimNames();
  for (size_t i = 0; i < ND; ++i) {
    for (const std::string &d : known)
      if (d == dimNames[i])
        out.dim(dimNames[i], dims[i]);
    // An integer scalar of the entry point (write_states).
    if (const ArgInfo *a = info.findArg(dimNames[i]);
        a && a->kind == ArgInfo::Scalar)
      out.intScalar(dimNames[i], dims[i]);
  }
  // The row strides: value "<operand>_stride" to the scalar the operand's
  // `stride` line names (the entry points' checks refused the others).
  for (const ArgInfo &a : info.args) {
    if (a.kind != ArgInfo::Ptr || a.strideScalar.empty())
      continue;
    for (size_t i = 0; i < ND; ++i)
      if (a.name + "_stride" == dimNames[i])
        out.intScalar(a.strideScalar, dims[i]);
  }
  if (scale)
    out.floatScalar("scale", *scale);
}

/// The values of a typed call for PreparedLaunch: its pointers, then its
/// dimensions, in the order of the name lists above.
template <size_t NP, size_t ND>
void packValues(const void *const (&ptrs)[NP], const int64_t (&dims)[ND],
                uint64_t *out) {
  for (size_t i = 0; i < NP; ++i)
    out[i] = word(ptrs[i]);
  for (size_t i = 0; i < ND; ++i)
    out[NP + i] = static_cast<uint64_t>(dims[i]);
}
} // namespace

Status checkStateLayout(const KernelInfo &info, const char *arg,
                        const char *layout) {
  const ArgInfo *a = info.findArg(arg);
  return checkLayout(info, arg, a ? a->stateLayout : StateOrder::None,
                     layout);
}

//===----------------------------------------------------------------------===//
// The three entry points
//===----------------------------------------------------------------------===//

namespace {
/// An entry point without float scalars besides scale (kNumFloats: the
/// scalars of Operands::floats, named by kFloatNames).
struct NoFloats {
  static constexpr size_t kNumFloats = 0;
  static constexpr const char *const *kFloatNames = nullptr;
};

/// What distinguishes an entry point: its arguments, their kernel
/// parameter names (pointers, then dimensions, in the order of `Operands`),
/// and its metadata and value checks.
struct DecodeEntry : NoFloats {
  using Args = KdaDecodeArgs;
  struct Operands {
    const void *ptrs[8];
    int64_t dims[3];
    explicit Operands(const Args &a)
        : ptrs{a.q, a.k, a.v, a.g, a.beta, a.h0, a.o, a.ht},
          dims{a.n, a.t, a.h} {}
  };
  static constexpr const char *kName = "decode";
  static constexpr const auto &kPointers = kDecodePointers;
  static constexpr const auto &kDims = kDecodeDims;
  static Status resolve(const KernelInfo &info, KdaKernelFacts &f) {
    return resolveDecodeFacts(info, f);
  }
  static Status values(const KdaKernelFacts &f, const Args &a) {
    return checkDecodeValues(f, a);
  }
};

struct PoolEntry : NoFloats {
  using Args = KdaDecodePoolArgs;
  struct Operands {
    const void *ptrs[10];
    int64_t dims[10];
    explicit Operands(const Args &a)
        : ptrs{a.q,    a.k,         a.v,            a.g,
               a.beta, a.cuSeqlens, a.stateIndices, a.hasInitialState,
               a.pool, a.o},
          dims{a.totalTokens,
               a.h,
               a.n,
               a.n + 1,
               a.slots,
               resolvedStride(a.qStride, a.h * a.kDim),
               resolvedStride(a.kStride, a.h * a.kDim),
               resolvedStride(a.vStride, a.h * a.vDim),
               resolvedStride(a.gStride, a.h * a.kDim),
               resolvedStride(a.betaStride, a.h)} {}
  };
  static constexpr const char *kName = "pool decode";
  static constexpr const auto &kPointers = kPoolPointers;
  static constexpr const auto &kDims = kPoolDims;
  static Status resolve(const KernelInfo &info, KdaKernelFacts &f) {
    return resolvePoolDecodeFacts(info, f);
  }
  static Status values(const KdaKernelFacts &f, const Args &a) {
    return checkPoolValues(f, a);
  }
};

struct SpecEntry : NoFloats {
  using Args = KdaDecodeSpecArgs;
  struct Operands {
    const void *ptrs[9];
    int64_t dims[10];
    explicit Operands(const Args &a)
        : ptrs{a.q,           a.k,           a.v,    a.g, a.beta,
               a.stateIndices, a.numAccepted, a.pool, a.o},
          dims{a.n,
               a.t,
               a.h,
               a.slots,
               a.writeStates,
               resolvedStride(a.qStride, a.t * a.h * a.kDim),
               resolvedStride(a.kStride, a.t * a.h * a.kDim),
               resolvedStride(a.vStride, a.t * a.h * a.vDim),
               resolvedStride(a.gStride, a.t * a.h * a.kDim),
               resolvedStride(a.betaStride, a.t * a.h)} {}
  };
  static constexpr const char *kName = "speculative decode";
  static constexpr const auto &kPointers = kSpecPointers;
  static constexpr const auto &kDims = kSpecDims;
  static Status resolve(const KernelInfo &info, KdaKernelFacts &f) {
    return resolveSpecFacts(info, f);
  }
  static Status values(const KdaKernelFacts &f, const Args &a) {
    return checkSpecValues(f, a);
  }
};

struct ConvEntry {
  using Args = KdaDecodeConvArgs;
  static constexpr size_t kNumFloats = std::size(kConvFloats);
  static constexpr const char *const *kFloatNames = kConvFloats;
  struct Operands {
    const void *ptrs[14];
    int64_t dims[7];
    double floats[2];
    explicit Operands(const Args &a)
        : ptrs{a.qkv,          a.convW,        a.a,
               a.b,            a.gout,         convGateInput(a.aLog, a),
               convGateInput(a.dtBias, a), a.normW, a.cuSeqlens,
               a.stateIndices, a.hasInitialState, a.convState,
               a.pool,         a.o},
          dims{a.totalTokens,
               convChannels(a.h, a.kDim, a.vDim),
               a.h,
               a.n,
               a.n + 1,
               a.slots,
               resolvedStride(a.qkvStride, convChannels(a.h, a.kDim, a.vDim))},
          floats{a.lowerBound, a.eps} {}
  };
  static constexpr const char *kName = "conv decode";
  static constexpr const auto &kPointers = kConvPointers;
  static constexpr const auto &kDims = kConvDims;
  static Status resolve(const KernelInfo &info, KdaKernelFacts &f) {
    return resolveConvDecodeFacts(info, f);
  }
  static Status values(const KdaKernelFacts &f, const Args &a) {
    return checkConvValues(f, a);
  }
};

template <typename E>
Status checkEntry(const KernelInfo &info, const typename E::Args &args) {
  KdaKernelFacts f;
  KDA2RT_TRY(E::resolve(info, f));
  return E::values(f, args);
}

template <typename E>
Status entryLaunchArgs(const KernelInfo &info, const typename E::Args &args,
                       LaunchArgs &out) {
  out = LaunchArgs();
  KDA2RT_TRY(checkEntry<E>(info, args));
  typename E::Operands ops(args);
  double scale = resolvedScale(args.scale, args.kDim);
  fillLaunchArgs(info, E::kPointers, ops.ptrs, E::kDims, ops.dims, &scale, out);
  if constexpr (E::kNumFloats > 0)
    for (size_t i = 0; i < E::kNumFloats; ++i)
      out.floatScalar(E::kFloatNames[i], ops.floats[i]);
  return Status::success();
}

template <typename E>
Status launchEntry(const Kernel &kernel, const typename E::Args &args,
                   CUstream stream) {
  LaunchArgs launch;
  KDA2RT_TRY(entryLaunchArgs<E>(kernel.info(), args, launch));
  return kernel.launch(launch, stream);
}
} // namespace

Status checkKdaDecode(const KernelInfo &info, const KdaDecodeArgs &args) {
  return checkEntry<DecodeEntry>(info, args);
}
Status kdaDecodeLaunchArgs(const KernelInfo &info, const KdaDecodeArgs &args,
                           LaunchArgs &out) {
  return entryLaunchArgs<DecodeEntry>(info, args, out);
}
Status launchKdaDecode(const Kernel &kernel, const KdaDecodeArgs &args,
                       CUstream stream) {
  return launchEntry<DecodeEntry>(kernel, args, stream);
}

Status checkKdaDecodePool(const KernelInfo &info,
                          const KdaDecodePoolArgs &args) {
  return checkEntry<PoolEntry>(info, args);
}
Status kdaDecodePoolLaunchArgs(const KernelInfo &info,
                               const KdaDecodePoolArgs &args,
                               LaunchArgs &out) {
  return entryLaunchArgs<PoolEntry>(info, args, out);
}
Status launchKdaDecodePool(const Kernel &kernel, const KdaDecodePoolArgs &args,
                           CUstream stream) {
  return launchEntry<PoolEntry>(kernel, args, stream);
}

Status checkKdaDecodeConv(const KernelInfo &info,
                          const KdaDecodeConvArgs &args) {
  return checkEntry<ConvEntry>(info, args);
}
Status kdaDecodeConvLaunchArgs(const KernelInfo &info,
                               const KdaDecodeConvArgs &args,
                               LaunchArgs &out) {
  return entryLaunchArgs<ConvEntry>(info, args, out);
}
Status launchKdaDecodeConv(const Kernel &kernel, const KdaDecodeConvArgs &args,
                           CUstream stream) {
  return launchEntry<ConvEntry>(kernel, args, stream);
}

Status checkKdaDecodeSpec(const KernelInfo &info,
                          const KdaDecodeSpecArgs &args) {
  return checkEntry<SpecEntry>(info, args);
}
Status kdaDecodeSpecLaunchArgs(const KernelInfo &info,
                               const KdaDecodeSpecArgs &args,
                               LaunchArgs &out) {
  return entryLaunchArgs<SpecEntry>(info, args, out);
}
Status launchKdaDecodeSpec(const Kernel &kernel, const KdaDecodeSpecArgs &args,
                           CUstream stream) {
  return launchEntry<SpecEntry>(kernel, args, stream);
}

//===----------------------------------------------------------------------===//
// PreparedLaunch
//===----------------------------------------------------------------------===//

Status PreparedLaunch::create(const Kernel &kernel, const char *entry,
                              const char *const *pointers, size_t numPointers,
                              const char *const *dims, size_t numDims,
                              bool counters, PreparedLaunch &out,
                              const char *const *floats, size_t numFloats) {
  out = PreparedLaunch();
  if (!kernel.valid())
    return invalid(std::string("prepared ") + entry +
                   " launch: the kernel is not loaded");
  const KernelInfo &info = kernel.info();
  auto unsupported = [&](const std::string &why) {
    return invalid(kernelPrefix(info) + "no prepared " + entry +
                   " launch: " + why);
  };
  if (info.args.size() > kMaxParams || info.gridX.size() > kMaxParams ||
      info.gridY.size() > kMaxParams || info.variants.size() > kMaxParams ||
      numPointers + numDims + numFloats >= kScaleF32)
    return unsupported("more than " + std::to_string(kMaxParams) +
                       " parameters, grid terms or variants");
  auto find = [](const std::string &name, const char *const *names,
                 size_t count, size_t base, uint8_t &index) {
    for (size_t i = 0; i < count; ++i)
      if (name == names[i]) {
        index = static_cast<uint8_t>(base + i);
        return true;
      }
    return false;
  };
  auto dim = [&](const std::string &name, uint8_t &index) {
    return find(name, dims, numDims, numPointers, index);
  };
  for (const ArgInfo &a : info.args) {
    uint8_t src = kConstant;
    bool known = false;
    switch (a.kind) {
    case ArgInfo::Ptr:
      known = find(a.name, pointers, numPointers, 0, src);
      break;
    case ArgInfo::Scalar:
      if (a.scalarType == ScalarType::I32 || a.scalarType == ScalarType::I64) {
        // The row stride of a pointer argument (its `stride` line): the
        // entry point's value "<operand>_stride".
        const ArgInfo *strided = nullptr;
        for (const ArgInfo &p : info.args)
          if (p.kind == ArgInfo::Ptr && p.strideScalar == a.name)
            strided = &p;
        if (strided) {
          if (!dim(strided->name + "_stride", src))
            return unsupported("parameter '" + a.name +
                               "' is the row stride of '" + strided->name +
                               "', which the " + entry +
                               " entry point does not pass");
          known = true;
          break;
        }
        // An integer scalar of the entry point, passed like a size (its
        // low bytes are the value).
        known = dim(a.name, src);
        break;
      }
      if (a.scalarType != ScalarType::F32 && a.scalarType != ScalarType::F64)
        break;
      if (a.name == "scale") {
        known = true;
        src = a.scalarType == ScalarType::F32 ? kScaleF32 : kScaleF64;
        break;
      }
      // Another float scalar of the entry point: a value holding a double.
      known = find(a.name, floats, numFloats, numPointers + numDims, src);
      if (known)
        out.floatParams_[out.numParams_] =
            a.scalarType == ScalarType::F32 ? 1 : 2;
      break;
    case ArgInfo::Dim:
      known = dim(a.name, src);
      break;
    case ArgInfo::Counters:
      if (!counters)
        return unsupported("it declares counters, which the " +
                           std::string(entry) + " entry point does not pass");
      known = true;
      src = kCounters;
      break;
    case ArgInfo::TensorMap:
      break;
    }
    if (!known)
      return unsupported("parameter '" + a.name + "' is not one of the " +
                         entry + " arguments");
    out.params_[out.numParams_++] = src;
  }
  for (const GridTerm &t : info.gridX) {
    uint8_t src = kConstant;
    if (!t.dim.empty() && !dim(t.dim, src))
      return unsupported("grid.x uses dimension '" + t.dim + "'");
    out.gridXConstant_[out.numGridX_] = t.constant;
    out.gridX_[out.numGridX_++] = src;
  }
  for (const std::string &d : info.gridY) {
    uint8_t src;
    if (!dim(d, src))
      return unsupported("grid.y uses dimension '" + d + "'");
    out.gridY_[out.numGridY_++] = src;
  }
  for (size_t i = 0; i < info.variants.size(); ++i) {
    uint8_t src;
    if (!dim(info.variants[i].dim, src))
      return unsupported("variant on dimension '" + info.variants[i].dim +
                         "'");
    out.variantDim_[out.numVariants_] = src;
    out.variantSize_[out.numVariants_] = info.variants[i].value;
    out.variantFunc_[out.numVariants_++] = kernel.variantHandle(i);
  }
  out.kernel_ = &kernel;
  return Status::success();
}

bool PreparedLaunch::grid(const uint64_t *values, unsigned out[3]) const {
  // gridDim.x = max of the terms; gridDim.y = product (computeLaunchConfig).
  int64_t gx = numGridX_ ? 0 : 1, gy = 1;
  for (size_t i = 0; i < numGridX_; ++i) {
    int64_t v = gridX_[i] == kConstant ? gridXConstant_[i]
                                       : static_cast<int64_t>(values[gridX_[i]]);
    gx = v > gx ? v : gx;
  }
  for (size_t i = 0; i < numGridY_; ++i) {
    int64_t v = static_cast<int64_t>(values[gridY_[i]]);
    if (v <= 0) {
      gy = 0;
      break;
    }
    gy = gy > 65535 / v ? 65536 : gy * v;
  }
  if (gx > 2147483647 || gy > 65535)
    return false;
  out[0] = static_cast<unsigned>(gx);
  out[1] = static_cast<unsigned>(gy);
  out[2] = 1;
  return true;
}

Status PreparedLaunch::launch(const unsigned grid[3], const uint64_t *values,
                              double scale, CUdeviceptr counters,
                              CUstream stream) const {
  if (!kernel_)
    return invalid("prepared launch: the plan is empty (create it from a "
                   "loaded kernel first)");
  uint64_t slots[kMaxParams];
  void *params[kMaxParams];
  for (size_t i = 0; i < numParams_; ++i) {
    uint64_t slot = 0;
    switch (params_[i]) {
    case kScaleF32: {
      float f = static_cast<float>(scale);
      std::memcpy(&slot, &f, sizeof(f));
      break;
    }
    case kScaleF64:
      std::memcpy(&slot, &scale, sizeof(scale));
      break;
    case kCounters:
      if (!counters)
        return invalid("kernel '" + kernel_->name() +
                       "': missing the counters buffer (it declares " +
                       std::to_string(kernel_->info().counters.size()) +
                       " counter slot(s))");
      slot = counters;
      break;
    case kConstant:
      break;
    default:
      slot = values[params_[i]];
      if (floatParams_[i] == 1) { // a double's bits, passed as f32
        double d;
        std::memcpy(&d, &slot, sizeof(d));
        float f = static_cast<float>(d);
        slot = 0;
        std::memcpy(&slot, &f, sizeof(f));
      }
      break;
    }
    slots[i] = slot;
    params[i] = &slots[i];
  }
  CUfunction func = kernel_->handle();
  for (size_t v = 0; v < numVariants_; ++v)
    if (static_cast<int64_t>(values[variantDim_[v]]) == variantSize_[v]) {
      func = variantFunc_[v];
      break;
    }
  return kernel_->launchPrepared(func, grid, numParams_ ? params : nullptr,
                                 stream);
}

//===----------------------------------------------------------------------===//
// The typed plans
//===----------------------------------------------------------------------===//

namespace {
/// The error of a grid over the CUDA limits, worded by computeLaunchConfig
/// (with the grid terms) through the general path; only on failure.
template <typename E>
Status gridError(const Kernel &kernel, const typename E::Args &args) {
  LaunchArgs launch;
  Status s = entryLaunchArgs<E>(kernel.info(), args, launch);
  LaunchConfig cfg;
  if (s.ok())
    s = computeLaunchConfig(kernel.info(), launch, cfg);
  return s.ok() ? Status::error(ErrorCode::LaunchConfig,
                                "kernel '" + kernel.name() +
                                    "': grid exceeds the CUDA limits")
                : s;
}

/// A typed plan's create(): the metadata checks (KdaKernelFacts) and the
/// parameter packing. Metadata the value checks refuse at every call (no
/// `state` line, an unsupported head size, ...) still makes a plan: its
/// launch() gives the same message as the general path.
template <typename E>
Status createPlan(const Kernel &kernel, const char *what, bool counters,
                  PreparedLaunch &launch, KdaKernelFacts &facts) {
  if (!kernel.valid())
    return invalid(std::string(what) + ": the kernel is not loaded");
  KDA2RT_TRY(E::resolve(kernel.info(), facts));
  return PreparedLaunch::create(
      kernel, E::kName, E::kPointers, std::size(E::kPointers), E::kDims,
      std::size(E::kDims), counters, launch, E::kFloatNames, E::kNumFloats);
}

/// A typed plan's launch(): the value checks against the plan's facts,
/// then the prepared launch.
template <typename E>
Status launchPlanned(const PreparedLaunch &plan, const KdaKernelFacts &facts,
                     const char *what, const typename E::Args &args,
                     CUstream stream, CUdeviceptr counters) {
  if (!plan.valid())
    return invalid(std::string(what) + "::launch: the plan is empty (create "
                                       "it from a loaded kernel first)");
  KDA2RT_TRY(E::values(facts, args));
  typename E::Operands ops(args);
  constexpr size_t NP = std::size(E::kPointers), ND = std::size(E::kDims),
                   NF = E::kNumFloats;
  uint64_t values[NP + ND + NF];
  packValues(ops.ptrs, ops.dims, values);
  if constexpr (NF > 0)
    for (size_t i = 0; i < NF; ++i)
      std::memcpy(&values[NP + ND + i], &ops.floats[i], sizeof(double));
  unsigned grid[3];
  if (!plan.grid(values, grid))
    return gridError<E>(*plan.kernel(), args);
  return plan.launch(grid, values, resolvedScale(args.scale, args.kDim),
                     counters, stream);
}
} // namespace

Status KdaDecodePlan::create(const Kernel &kernel, KdaDecodePlan &out) {
  out = KdaDecodePlan();
  return createPlan<DecodeEntry>(kernel, "KdaDecodePlan", /*counters=*/true,
                                 out.launch_, out.facts_);
}

Status KdaDecodePlan::launch(const KdaDecodeArgs &args, CUstream stream,
                             CUdeviceptr counters) const {
  return launchPlanned<DecodeEntry>(launch_, facts_, "KdaDecodePlan", args,
                                    stream, counters);
}

Status KdaDecodePoolPlan::create(const Kernel &kernel, KdaDecodePoolPlan &out) {
  out = KdaDecodePoolPlan();
  return createPlan<PoolEntry>(kernel, "KdaDecodePoolPlan",
                               /*counters=*/false, out.launch_, out.facts_);
}

Status KdaDecodePoolPlan::launch(const KdaDecodePoolArgs &args,
                                 CUstream stream) const {
  return launchPlanned<PoolEntry>(launch_, facts_, "KdaDecodePoolPlan", args,
                                  stream, 0);
}

Status KdaDecodeConvPlan::create(const Kernel &kernel, KdaDecodeConvPlan &out) {
  out = KdaDecodeConvPlan();
  return createPlan<ConvEntry>(kernel, "KdaDecodeConvPlan",
                               /*counters=*/false, out.launch_, out.facts_);
}

Status KdaDecodeConvPlan::launch(const KdaDecodeConvArgs &args,
                                 CUstream stream) const {
  return launchPlanned<ConvEntry>(launch_, facts_, "KdaDecodeConvPlan", args,
                                  stream, 0);
}

Status KdaDecodeSpecPlan::create(const Kernel &kernel, KdaDecodeSpecPlan &out) {
  out = KdaDecodeSpecPlan();
  return createPlan<SpecEntry>(kernel, "KdaDecodeSpecPlan",
                               /*counters=*/false, out.launch_, out.facts_);
}

Status KdaDecodeSpecPlan::launch(const KdaDecodeSpecArgs &args,
                                 CUstream stream) const {
  return launchPlanned<SpecEntry>(launch_, facts_, "KdaDecodeSpecPlan", args,
                                  stream, 0);
}

//===----------------------------------------------------------------------===//
// Prefill: kda_chunk_prep, kda_chunk_scan_h, kda_chunk_out (or prep and the
// fused-output scan kda_chunk_scan_o)
//===----------------------------------------------------------------------===//

namespace {
/// What the prefill checks need from the three kernels' metadata (the
/// metadata part, as KdaKernelFacts for the decode entry points).
using PrefillFacts = KdaPrefillFacts;

/// Which kernel of the three a role expects, for messages.
struct PrefillRole {
  const char *argument; // prep_kernel, ...
  const char *kind;     // "KDA prefill prep kernel (kda_chunk_prep)"
};

Status requirePrefillArgs(const KernelInfo &info, const PrefillRole &role,
                          std::initializer_list<const char *> pointers,
                          const char *intScalar) {
  auto notIt = [&](const char *what, const char *name) {
    return invalid(std::string("argument '") + role.argument + "': kernel '" +
                   info.name + "' is not a " + role.kind + " (no " + what +
                   " '" + name + "')");
  };
  for (const char *name : pointers) {
    const ArgInfo *a = info.findArg(name);
    if (!a || a->kind != ArgInfo::Ptr)
      return notIt("argument", name);
  }
  if (intScalar) {
    const ArgInfo *a = info.findArg(intScalar);
    if (!a || a->kind != ArgInfo::Scalar ||
        (a->scalarType != ScalarType::I32 && a->scalarType != ScalarType::I64))
      return notIt("integer scalar argument", intScalar);
  }
  return Status::success();
}

std::string showShape(const std::vector<ShapeDim> &shape, size_t from) {
  std::string s = "[";
  for (size_t i = from; i < shape.size(); ++i) {
    const ShapeDim &d = shape[i];
    s += (i > from ? ", " : "") +
         (d.kind == ShapeDim::Static  ? std::to_string(d.size)
          : d.kind == ShapeDim::Named ? d.name
                                      : std::string("?"));
  }
  return s + "]";
}

/// One argument of one kernel: its element type and its trailing static
/// dimensions must be those the prep kernel fixes.
Status checkPrefillArg(const PrefillFacts &f, const KernelInfo &info,
                       const char *name, DType dtype,
                       std::initializer_list<int64_t> tail) {
  const ArgInfo &a = *info.findArg(name);
  const bool pb = !std::strcmp(name, "pb");
  const bool mid = !std::strcmp(name, "tp") || !std::strcmp(name, "us");
  if (a.dtype != dtype)
    return invalid(kernelPrefix(info) + "argument '" + name + "' is " +
                   dtypeName(a.dtype) + ", expected " + dtypeName(dtype) +
                   (&info == f.prep ? std::string()
                    : pb && f.pb != f.in
                        ? " (the type of kernel '" + f.prep->name +
                              "''s pb: PB)"
                    : mid && f.mid != f.in
                        ? " (the type of kernel '" + f.prep->name +
                              "''s tp and us: TP)"
                    : !std::strcmp(name, "kl") && f.kl != f.in
                        ? " (the type of kernel '" + f.prep->name +
                              "''s kl: KL)"
                    : dtype == f.in
                        ? " (the input type of kernel '" + f.prep->name + "')"
                        : std::string()));
  bool ok = a.shape.size() >= tail.size();
  size_t base = ok ? a.shape.size() - tail.size() : 0;
  size_t i = 0;
  for (int64_t want : tail) {
    if (!ok)
      break;
    const ShapeDim &d = a.shape[base + i++];
    ok = d.kind == ShapeDim::Static && d.size == want;
  }
  if (ok)
    return Status::success();
  std::string want = "[..";
  for (int64_t t : tail)
    want += ", " + std::to_string(t);
  return invalid(kernelPrefix(info) + "argument '" + name + "' ends in " +
                 "[.., " + showShape(a.shape, base).substr(1) + ", expected " +
                 want + "] (C = " + std::to_string(f.chunk) + ", K = " +
                 std::to_string(f.kDim) + ", V = " + std::to_string(f.vDim) +
                 " of kernel '" + f.prep->name + "')");
}

/// An intermediate of the prefill kernels is per (head, chunk slot):
/// [h, ns, ..] (`slots`). Kernels built before the chunk
/// slots laid them out per (sequence, head, chunk of the longest sequence),
/// [n, h, nc, ..]: refused with what to rebuild.
Status checkSlotLayout(const KernelInfo &info, const char *name,
                       const char *slots) {
  const ArgInfo &a = *info.findArg(name);
  auto named = [&](size_t i, const char *dim) {
    return a.shape.size() > i && a.shape[i].kind == ShapeDim::Named &&
           a.shape[i].name == dim;
  };
  if (named(0, "h") && named(1, slots))
    return Status::success();
  if (named(0, "n") && named(1, "h"))
    return invalid(kernelPrefix(info) + "argument '" + name + "' is " +
                   showShape(a.shape, 0) +
                   ", per (sequence, head, chunk): the layout of prefill "
                   "kernels built before chunk slots; rebuild the three "
                   "kernels from templates/kda_chunk_split.tirx (or "
                   "templates/kda_chunk_prep_act.tirx) and "
                   "templates/kda_chunk_h.tirx, whose intermediates are per "
                   "chunk slot ([h, ns, ..])");
  return invalid(kernelPrefix(info) + "argument '" + name + "' is " +
                 showShape(a.shape, 0) + ", expected [h, " + slots +
                 ", ..] (per head and chunk slot)");
}

constexpr const char *kRebuildOffsets =
    "rebuild the prefill kernels from templates/kda_chunk_split.tirx (or "
    "templates/kda_chunk_prep_act.tirx) and templates/kda_chunk_h.tirx, "
    "which take ckpt_offsets (checkpoints at token offsets; "
    "kda_chunk_ckpt completes them)";

/// The arguments of checkpoints at token offsets (`pointers`, and the
/// integer scalar `intScalar` when not null): kernels built before them
/// lack them and are refused by name with what to rebuild.
Status requireOffsetArgs(const KernelInfo &info,
                         std::initializer_list<const char *> pointers,
                         const char *intScalar) {
  auto old = [&](const std::string &what) {
    return invalid(kernelPrefix(info) + "has no " + what +
                   ": a prefill kernel built before checkpoints at token "
                   "offsets; " +
                   kRebuildOffsets);
  };
  for (const char *name : pointers) {
    const ArgInfo *a = info.findArg(name);
    if (!a || a->kind != ArgInfo::Ptr)
      return old(std::string("argument '") + name + "'");
  }
  if (intScalar) {
    const ArgInfo *a = info.findArg(intScalar);
    if (!a || a->kind != ArgInfo::Scalar ||
        (a->scalarType != ScalarType::I32 && a->scalarType != ScalarType::I64))
      return old(std::string("integer scalar argument '") + intScalar + "'");
  }
  return Status::success();
}

/// The offset checkpoints' intermediates kc and ec are per (head, entry
/// seq·m + j): [h, nm, ..].
Status checkEntryLayout(const KernelInfo &info, const char *name) {
  const ArgInfo &a = *info.findArg(name);
  auto named = [&](size_t i, const char *dim) {
    return a.shape.size() > i && a.shape[i].kind == ShapeDim::Named &&
           a.shape[i].name == dim;
  };
  if (named(0, "h") && named(1, "nm"))
    return Status::success();
  return invalid(kernelPrefix(info) + "argument '" + name + "' is " +
                 showShape(a.shape, 0) +
                 ", expected [h, nm, ..] (per head and offset checkpoint, "
                 "nm = n·m)");
}

/// The static size of dimension `index` of pointer argument `name` (0 when
/// it has no such static dimension).
int64_t staticDim(const KernelInfo &info, const char *name, size_t index) {
  const ArgInfo *a = info.findArg(name);
  if (!a || a->shape.size() <= index ||
      a->shape[index].kind != ShapeDim::Static)
    return 0;
  return a->shape[index].size;
}

/// The activation prep (templates/kda_chunk_prep_act.tirx): a prep kernel
/// with the pointer A_log also takes the pointer dt_bias [h, K] f32 and the
/// f32 scalar lower_bound, and records its switches as `bind` lines: GF
/// (required, 0, 1 or 2), BS and QKN (0 when absent). Other prep kernels
/// leave f.activation false.
Status resolveActivationPrep(PrefillFacts &f, const KernelInfo &prep) {
  const ArgInfo *aLog = prep.findArg("A_log");
  if (!aLog || aLog->kind != ArgInfo::Ptr)
    return Status::success();
  const PrefillRole role = {
      "prep_kernel",
      "KDA prefill activation prep kernel (kda_chunk_prep with A_log)"};
  KDA2RT_TRY(requirePrefillArgs(prep, role, {"dt_bias"}, nullptr));
  const ArgInfo *lb = prep.findArg("lower_bound");
  if (!lb || lb->kind != ArgInfo::Scalar || lb->scalarType != ScalarType::F32)
    return invalid(std::string("argument 'prep_kernel': kernel '") +
                   prep.name + "' is not a " + role.kind +
                   " (no f32 scalar argument 'lower_bound')");
  KDA2RT_TRY(checkPrefillArg(f, prep, "A_log", DType::F32, {}));
  KDA2RT_TRY(checkPrefillArg(f, prep, "dt_bias", DType::F32, {f.kDim}));
  const std::optional<int64_t> gf = prep.binding("GF");
  if (!gf)
    return invalid(kernelPrefix(prep) +
                   "takes A_log (an activation prep) but records no gate "
                   "family (no 'bind GF' line in its metadata); rebuild it "
                   "with a kda2 that records its bindings");
  if (*gf < 0 || *gf > 2)
    return invalid(kernelPrefix(prep) + "was built with gate family GF = " +
                   std::to_string(*gf) +
                   " (its 'bind GF' line); the prefill entry point knows "
                   "GF 0 (g is the log decay), 1 (lower_bound·sigmoid) and 2 "
                   "(−exp(A_log)·softplus)");
  f.activation = true;
  f.gateFamily = static_cast<int>(*gf);
  f.betaLogits = prep.binding("BS").value_or(0) == 1;
  f.qkNorm = prep.binding("QKN").value_or(0) == 1;
  // A_log and dt_bias are optional inputs of the gate (`bind AL 0`,
  // `bind DB 0`: exp(A_log) is 1, dt_bias 0); kernels without the lines
  // read both.
  f.readsALog = f.gateFamily != 0 && prep.binding("AL").value_or(1) != 0;
  f.readsDtBias = f.gateFamily != 0 && prep.binding("DB").value_or(1) != 0;
  return Status::success();
}

/// Argument 'ckpt' of kernel `info` (the scan itself, or the checkpoint
/// kernel) against the scan's pool: one state layout, and the pool's shape
/// past the leading [blocks] (checkpoints are states of the pool).
Status checkCkptLikePool(const KernelInfo &info, const KernelInfo &scan) {
  const ArgInfo &ckpt = *info.findArg("ckpt"), &pool = *scan.findArg("pool");
  const std::string owner =
      &info == &scan ? "" : "kernel '" + scan.name + "' declares ";
  if (pool.stateLayout != StateOrder::None &&
      ckpt.stateLayout != StateOrder::None &&
      pool.stateLayout != ckpt.stateLayout)
    return invalid(kernelPrefix(info) + "declares state 'ckpt' " +
                   stateOrderName(ckpt.stateLayout) + " but " + owner +
                   "'pool' " + stateOrderName(pool.stateLayout) +
                   "; the prefill entry point takes one layout for the pool "
                   "and its checkpoints");
  if (ckpt.shape.size() != pool.shape.size() ||
      showShape(ckpt.shape, 1) != showShape(pool.shape, 1))
    return invalid(kernelPrefix(info) + "argument 'ckpt' is [blocks, " +
                   showShape(ckpt.shape, 1).substr(1) + " but " +
                   (&info == &scan ? "'pool' is "
                                   : "kernel '" + scan.name + "' has 'pool' ") +
                   showShape(pool.shape, 0) +
                   "; checkpoints are states of the pool's shape");
  return Status::success();
}

} // namespace

bool isKdaPrefillFusedScan(const KernelInfo &scan) {
  auto pointer = [&](const char *name) {
    const ArgInfo *a = scan.findArg(name);
    return a && a->kind == ArgInfo::Ptr;
  };
  return pointer("o") && pointer("qd") && pointer("pb") && !scan.findArg("hs");
}

namespace {
/// The output kernel against the scan: kda_chunk_scan_h needs
/// kda_chunk_out (it writes hs, which kda_chunk_out turns into o), a
/// fused-output scan writes o itself and takes none.
Status checkOutForScan(const KernelInfo &scan, const KernelInfo *out,
                       bool fused) {
  if (fused && out)
    return invalid("argument 'out_kernel': kernel '" + out->name +
                   "' is given, but scan kernel '" + scan.name +
                   "' is a fused-output scan (kda_chunk_scan_o: it takes o, "
                   "qd and pb and writes o itself); pass NULL as out_kernel "
                   "with it (kda_chunk_out runs only after kda_chunk_scan_h)");
  if (!fused && !out)
    return invalid("argument 'out_kernel' is NULL, but scan kernel '" +
                   scan.name +
                   "' is a state scan that writes hs, not o "
                   "(kda_chunk_scan_h); pass kda_chunk_out as out_kernel, or "
                   "the fused-output scan kda_chunk_scan_o as scan_kernel "
                   "with out_kernel NULL");
  return Status::success();
}

/// `out` null: a fused-output scan (checkOutForScan).
/// Ready flags (kernels built with RDY=1): the prep's `ready` out and the
/// scan's `ready` in, both [h, ns] i32, or neither. Sets f.readyFlags.
Status resolveReadyFlags(PrefillFacts &f, const KernelInfo &prep,
                         const KernelInfo &scan) {
  const ArgInfo *set = prep.findArg("ready");
  const ArgInfo *wait = scan.findArg("ready");
  if (!set && !wait)
    return Status::success();
  if (!set || !wait)
    return invalid(
        kernelPrefix(set ? prep : scan) +
        (set ? "sets ready flags per chunk slot (built with RDY=1) but the "
               "scan '" + scan.name + "' does not wait for them"
             : "waits for ready flags per chunk slot (built with RDY=1) but "
               "the prep '" + prep.name + "' does not set them") +
        "; build the prep and the scan both with RDY=1 or both without");
  struct Side {
    const KernelInfo *info;
    const ArgInfo *a;
    Access access;
  };
  for (const Side &side : {Side{&prep, set, Access::Out},
                           Side{&scan, wait, Access::In}}) {
    const KernelInfo *info = side.info;
    const ArgInfo *a = side.a;
    const Access access = side.access;
    if (a->kind != ArgInfo::Ptr || a->access != access)
      return invalid(kernelPrefix(*info) + "argument 'ready' is declared '" +
                     accessName(a->access) + "', expected '" +
                     accessName(access) +
                     "' (the prep sets the flags, the scan reads them)");
    KDA2RT_TRY(checkSlotLayout(*info, "ready", "ns"));
    KDA2RT_TRY(checkPrefillArg(f, *info, "ready", DType::I32, {}));
    if (a->shape.size() != 2)
      return invalid(kernelPrefix(*info) + "argument 'ready' is " +
                     showShape(a->shape, 0) +
                     ", expected [h, ns] (one flag per head and chunk slot)");
  }
  f.readyFlags = true;
  return Status::success();
}

Status resolvePrefillFacts(const KernelInfo &prep, const KernelInfo &scan,
                           const KernelInfo *out, PrefillFacts &f) {
  f = PrefillFacts();
  // Kernels built before the scans read v in place: the prep copied the
  // values (vc) for scans that read the copy.
  for (const KernelInfo *k : {&prep, &scan})
    if (k->findArg("vc"))
      return invalid(
          kernelPrefix(*k) +
          "takes 'vc', the values copied per chunk by prefill kernels built "
          "before the scans read v in place; rebuild the prefill kernels "
          "from templates/kda_chunk_split.tirx (or "
          "templates/kda_chunk_prep_act.tirx) and templates/kda_chunk_h.tirx");
  KDA2RT_TRY(requirePrefillArgs(
      prep, {"prep_kernel", "KDA prefill prep kernel (kda_chunk_prep)"},
      {"q", "k", "g", "beta", "cu_seqlens", "qd", "kl", "wn", "tp", "pb",
       "gl"},
      nullptr));
  const bool fused = isKdaPrefillFusedScan(scan);
  if (fused)
    KDA2RT_TRY(requirePrefillArgs(
        scan,
        {"scan_kernel",
         "KDA prefill fused-output state scan kernel (kda_chunk_scan_o)"},
        {"v", "qd", "kl", "wn", "tp", "pb", "gl", "cu_seqlens",
         "state_indices", "has_initial_state", "checkpoint_blocks", "pool",
         "o", "us", "ckpt"},
        nullptr));
  else
    KDA2RT_TRY(requirePrefillArgs(
        scan,
        {"scan_kernel", "KDA prefill state scan kernel (kda_chunk_scan_h)"},
        {"v", "kl", "wn", "tp", "gl", "cu_seqlens", "state_indices",
         "has_initial_state", "checkpoint_blocks", "pool", "hs", "us", "ckpt"},
        nullptr));
  KDA2RT_TRY(checkOutForScan(scan, out, fused));
  if (out)
    KDA2RT_TRY(requirePrefillArgs(
        *out, {"out_kernel", "KDA prefill output kernel (kda_chunk_out)"},
        {"qd", "pb", "hs", "us", "cu_seqlens", "state_indices", "o"},
        "nslots"));
  f.prep = &prep;
  f.scan = &scan;
  f.out = out;
  f.fusedScan = fused;
  // The arguments only one kind of scan has (hs: kda_chunk_scan_h; qd, pb
  // and o: the fused-output scan), and the output kernel's: null where the
  // kernels at hand have none, so that the tables below skip them.
  const KernelInfo *scanH = fused ? nullptr : &scan;
  const KernelInfo *scanO = fused ? &scan : nullptr;
  // Every intermediate per chunk slot, in the kernels' order: an old set
  // is refused at prep's qd, a mixed one at its first old kernel.
  struct Intermediate {
    const KernelInfo *info;
    const char *name, *slots;
  };
  const Intermediate intermediates[] = {
      {&prep, "qd", "ns"},  {&prep, "kl", "ns"},  {&prep, "wn", "ns"},
      {&prep, "tp", "ns"},  {&prep, "pb", "ns"},  {&prep, "gl", "ns"},
      {scanO, "qd", "ns"},
      {&scan, "kl", "ns"},  {&scan, "wn", "ns"},  {&scan, "tp", "ns"},
      {scanO, "pb", "ns"},  {&scan, "gl", "ns"},  {scanH, "hs", "ns"},
      {&scan, "us", "ns"},  {out, "qd", "ns"},    {out, "pb", "ns"},
      {out, "hs", "ns"},    {out, "us", "ns"}};
  for (const Intermediate &m : intermediates)
    if (m.info)
      KDA2RT_TRY(checkSlotLayout(*m.info, m.name, m.slots));
  // Checkpoints at token offsets: prep reads ckpt_offsets and writes kc and
  // ec, the scan reads both tables and the scalar boundaries.
  KDA2RT_TRY(requireOffsetArgs(prep, {"ckpt_offsets", "kc", "ec"}, nullptr));
  KDA2RT_TRY(
      requireOffsetArgs(scan, {"ckpt_offsets", "offset_blocks"}, "boundaries"));
  KDA2RT_TRY(checkEntryLayout(prep, "kc"));
  KDA2RT_TRY(checkEntryLayout(prep, "ec"));
  // C from the intermediates' shapes (qd [h, ns, C, K]), V from the
  // scan's v.
  f.chunk = staticDim(prep, "qd", 2);
  f.kDim = lastStaticDim(prep, "q");
  f.vDim = lastStaticDim(scan, "v");
  f.in = prep.findArg("q")->dtype;
  // The intermediates' types: tp, us and pb 16-bit (the input type or the
  // other one) or f32 (TF32 products); kl 16-bit.
  auto intermediate = [&](const char *name, bool f32, DType &out) {
    out = prep.findArg(name)->dtype;
    if (out == DType::BF16 || out == DType::F16 || (f32 && out == DType::F32))
      return Status::success();
    return invalid(kernelPrefix(prep) + "argument '" + name + "' is " +
                   dtypeName(out) + ", expected bf16 or f16" +
                   (f32 ? " (the 16-bit intermediates) or f32 (the TF32 ones)"
                        : ""));
  };
  KDA2RT_TRY(intermediate("tp", true, f.mid));
  KDA2RT_TRY(intermediate("pb", true, f.pb));
  KDA2RT_TRY(intermediate("kl", false, f.kl));
  if (!f.chunk || !f.kDim)
    return invalid(kernelPrefix(prep) +
                   "has no static chunk size or key dimension (expected qd "
                   "[h, ns, C, K], q [.., K])");
  if (!f.vDim)
    return invalid(kernelPrefix(scan) +
                   "has no static value dimension (expected v [.., V])");
  const ArgInfo &pool = *scan.findArg("pool");
  if (pool.access != Access::InOut)
    return invalid(kernelPrefix(scan) + "argument 'pool' is declared '" +
                   accessName(pool.access) +
                   "'; the pool is read and written in place (inout)");
  f.state = pool.dtype;
  f.index = prep.findArg("cu_seqlens")->dtype;
  if (f.index != DType::I32 && f.index != DType::I64)
    return invalid(kernelPrefix(prep) + "argument 'cu_seqlens' is " +
                   dtypeName(f.index) +
                   ", expected i32 or i64 (the index type, IX)");
  // Grouped value heads: q and k [tt, hqk, K] (the template's hqk
  // dimension) or, in kernels built before it, [tt, h, K].
  const ArgInfo &q = *prep.findArg("q"), &k = *prep.findArg("k");
  auto heads = [](const ArgInfo &a) {
    return a.shape.size() == 3 && a.shape[1].kind == ShapeDim::Named
               ? a.shape[1].name
               : std::string();
  };
  f.groupedHeads = heads(q) == "hqk";
  if (heads(q) != heads(k))
    return invalid(kernelPrefix(prep) + "argument 'q' is " +
                   showShape(q.shape, 0) + " but 'k' is " +
                   showShape(k.shape, 0) +
                   "; q and k must have the same heads (hqk or h)");
  const int64_t C = f.chunk, K = f.kDim, V = f.vDim;
  const DType in = f.in, f32 = DType::F32, i32 = DType::I32, ix = f.index,
              mid = f.mid;
  struct Expect {
    const KernelInfo *info;
    const char *name;
    DType dtype;
    std::initializer_list<int64_t> tail;
  };
  const Expect expected[] = {
      {&prep, "k", in, {K}},
      {&prep, "g", f32, {K}},
      {&prep, "beta", f32, {}},
      {&prep, "cu_seqlens", ix, {}},
      {&prep, "qd", in, {C, K}},
      {&prep, "kl", f.kl, {C, K}},
      {&prep, "wn", in, {C, K}},
      {&prep, "tp", mid, {C, C}},
      {&prep, "pb", f.pb, {C, C}},
      {&prep, "gl", f32, {K}},
      {&prep, "ckpt_offsets", ix, {}},
      {&prep, "kc", in, {C, K}},
      {&prep, "ec", f32, {K}},
      {&scan, "v", in, {V}},
      {scanO, "qd", in, {C, K}},
      {&scan, "kl", f.kl, {C, K}},
      {&scan, "wn", in, {C, K}},
      {&scan, "tp", mid, {C, C}},
      {scanO, "pb", f.pb, {C, C}},
      {&scan, "gl", f32, {K}},
      {&scan, "cu_seqlens", ix, {}},
      {&scan, "state_indices", ix, {}},
      {&scan, "has_initial_state", i32, {}},
      {&scan, "checkpoint_blocks", ix, {}},
      {&scan, "ckpt_offsets", ix, {}},
      {&scan, "offset_blocks", ix, {}},
      {scanH, "hs", in, {V, K}},
      {scanO, "o", in, {V}},
      {&scan, "us", mid, {V, C}},
      {&scan, "ckpt", f.state, {}},
      {out, "qd", in, {C, K}},
      {out, "pb", f.pb, {C, C}},
      {out, "hs", in, {V, K}},
      {out, "us", mid, {V, C}},
      {out, "cu_seqlens", ix, {}},
      {out, "state_indices", ix, {}},
      {out, "o", in, {V}},
  };
  for (const Expect &e : expected)
    if (e.info)
      KDA2RT_TRY(checkPrefillArg(f, *e.info, e.name, e.dtype, e.tail));
  KDA2RT_TRY(resolveActivationPrep(f, prep));
  KDA2RT_TRY(resolveReadyFlags(f, prep, scan));
  KDA2RT_TRY(checkCkptLikePool(scan, scan));
  // Row strides: prep reads q, k, g and beta, the scan v (maybe strided);
  // the others read only dense intermediates and write dense outputs.
  KDA2RT_TRY(resolveStrides(prep, "prefill", true, f.io.strided));
  bool scanStrided[5];
  KDA2RT_TRY(resolveStrides(scan, "prefill", true, scanStrided));
  for (int i = 0; i < 5; ++i)
    f.io.strided[i] |= scanStrided[i];
  bool none[5];
  if (out)
    KDA2RT_TRY(resolveStrides(*out, "prefill", false, none));
  // The facts the shared value checks read.
  f.io.info = &prep;
  f.io.kDim = K;
  f.io.vDim = V;
  for (DType &t : f.io.io)
    t = in;
  f.pool.info = &scan;
  f.pool.kDim = K;
  f.pool.vDim = V;
  f.pool.state = f.state;
  f.pool.layout = pool.stateLayout;
  if (pool.shape.size() >= 2) {
    f.pool.poolRows = &pool.shape[pool.shape.size() - 2];
    f.pool.poolCols = &pool.shape.back();
  }
  return Status::success();
}

/// The checkpoint kernel (kda_chunk_ckpt, templates/kda_chunk_h.tirx) of
/// the three resolved in `f`: its kind (by its arguments), its
/// intermediates per entry (kc, ec) and chunk slot (us) of the prep
/// kernel's C, K, V and input type, its index arrays of the kernels' IX,
/// and ckpt inout, of the pool's type, layout and shape. Sets f.ckpt.
Status resolveCkptFacts(PrefillFacts &f, const KernelInfo &ckpt) {
  KDA2RT_TRY(requirePrefillArgs(
      ckpt, {"ckpt_kernel", "KDA prefill checkpoint kernel (kda_chunk_ckpt)"},
      {"kc", "ec", "us", "cu_seqlens", "state_indices", "ckpt_offsets",
       "offset_blocks", "ckpt"},
      "nslots"));
  KDA2RT_TRY(checkEntryLayout(ckpt, "kc"));
  KDA2RT_TRY(checkEntryLayout(ckpt, "ec"));
  KDA2RT_TRY(checkSlotLayout(ckpt, "us", "ns"));
  const int64_t C = f.chunk, K = f.kDim, V = f.vDim;
  const DType in = f.in, ix = f.index;
  struct Expect {
    const char *name;
    DType dtype;
    std::initializer_list<int64_t> tail;
  };
  const Expect expected[] = {
      {"kc", in, {C, K}},        {"ec", DType::F32, {K}},
      {"us", f.mid, {V, C}},        {"cu_seqlens", ix, {}},
      {"state_indices", ix, {}}, {"ckpt_offsets", ix, {}},
      {"offset_blocks", ix, {}}, {"ckpt", f.state, {}}};
  for (const Expect &e : expected)
    KDA2RT_TRY(checkPrefillArg(f, ckpt, e.name, e.dtype, e.tail));
  const ArgInfo &c = *ckpt.findArg("ckpt");
  if (c.access != Access::InOut)
    return invalid(kernelPrefix(ckpt) + "argument 'ckpt' is declared '" +
                   accessName(c.access) +
                   "'; the checkpoint kernel completes the scan's states "
                   "in place (inout)");
  KDA2RT_TRY(checkCkptLikePool(ckpt, *f.scan));
  bool none[5];
  KDA2RT_TRY(resolveStrides(ckpt, "prefill", false, none));
  f.ckpt = &ckpt;
  return Status::success();
}

/// resolvePrefillFacts, then resolveCkptFacts when `ckpt` is not null.
Status resolvePrefillFacts(const KernelInfo &prep, const KernelInfo &scan,
                           const KernelInfo *out, const KernelInfo *ckpt,
                           PrefillFacts &f) {
  KDA2RT_TRY(resolvePrefillFacts(prep, scan, out, f));
  return ckpt ? resolveCkptFacts(f, *ckpt) : Status::success();
}

constexpr const char *kPrefillBufferNames[] = {
    "qd", "kl", "wn", "tp", "pb", "gl", "hs", "us", "kc", "ec", "ready"};

/// The most offset checkpoints of one call, n·m: the grid.x of
/// kda_chunk_ckpt and the kernels' entry index seq·m + j.
constexpr int64_t kMaxOffsetEntries = INT32_MAX;

/// The workspace of n sequences of totalTokens tokens in all, h heads and
/// m offset checkpoints per sequence: every intermediate per (head, chunk
/// slot), ns = floor(totalTokens / C) + n slots (chunk c of sequence i in
/// slot floor(cu_seqlens[i] / C) + i + c, the templates' headers), then kc
/// and ec per (head, entry), nm = n·m entries, each buffer at the next
/// multiple of kKdaPrefillAlignment; with a fused-output scan hs has no
/// bytes (the scan keeps each chunk's state in registers and writes o
/// itself). The sizes are worded as the call's
/// (n, total_tokens, h, m): the call checks total_tokens first, so the
/// token checks here word only kdaPrefillWorkspace's.
Status prefillLayout(const PrefillFacts &f, int64_t n, int64_t totalTokens,
                     int64_t h, int64_t m, KdaPrefillWorkspace &ws) {
  ws = KdaPrefillWorkspace();
  if (n <= 0)
    return invalid("n must be positive (the number of sequences), got " +
                   std::to_string(n));
  if (m < 0)
    return invalid("m must be >= 0 (the offset checkpoints per sequence, "
                   "the columns of ckpt_offsets; 0: none), got " +
                   std::to_string(m));
  if (m > 0 && n > kMaxOffsetEntries / m) {
    const bool wide = n > INT64_MAX / m;
    return invalid(
        "n = " + std::to_string(n) + " and m = " + std::to_string(m) +
        " make n·m = " +
        (wide ? std::string("more than 2^63") : std::to_string(n * m)) +
        " offset checkpoints, more than 2^31 - 1 (the grid.x of "
        "kda_chunk_ckpt, one program per (sequence, offset))");
  }
  if (totalTokens < 0)
    return invalid("total_tokens must be >= 0 (the tokens of the call, "
                   "padding included), got " +
                   std::to_string(totalTokens));
  if (f.index == DType::I32 && totalTokens > INT32_MAX)
    return invalid("total_tokens = " + std::to_string(totalTokens) +
                   " does not fit the int32 cu_seqlens of kernel '" +
                   f.prep->name +
                   "' (at most 2^31 - 1; kernels built with "
                   "IX=i64 take more)");
  if (h <= 0)
    return invalid("h must be positive (the number of heads), got " +
                   std::to_string(h));
  const int64_t C = f.chunk, K = f.kDim, V = f.vDim;
  ws.chunk = C;
  ws.nm = n * m;
  // ns within 63 bits, then every buffer's bytes.
  bool ok = n <= INT64_MAX - totalTokens / C;
  if (ok)
    ws.ns = totalTokens / C + n;
  const size_t in = dtypeSize(f.in), mid = dtypeSize(f.mid),
               pb = dtypeSize(f.pb);
  const int64_t ns = ws.ns;
  const int64_t hsSlots = f.fusedScan ? 0 : ns;
  using B = KdaPrefillWorkspace;
  ok = ok && byteCount({h, ns, C, K}, in, ws.size[B::QD]) &&
       byteCount({h, ns, C, K}, dtypeSize(f.kl), ws.size[B::KL]) &&
       byteCount({h, ns, C, K}, in, ws.size[B::WN]) &&
       byteCount({h, ns, C, C}, mid, ws.size[B::TP]) &&
       byteCount({h, ns, C, C}, pb, ws.size[B::PB]) &&
       byteCount({h, ns, K}, 4, ws.size[B::GL]) &&
       byteCount({h, hsSlots, K, V}, in, ws.size[B::HS]) &&
       byteCount({h, ns, C, V}, mid, ws.size[B::US]) &&
       byteCount({h, ws.nm, C, K}, in, ws.size[B::KC]) &&
       byteCount({h, ws.nm, K}, 4, ws.size[B::EC]) &&
       byteCount({h, f.readyFlags ? ns : 0}, 4, ws.size[B::READY]);
  unsigned __int128 end = 0;
  for (int b = 0; ok && b < B::Count; ++b) {
    ws.offset[b] = static_cast<uint64_t>(end);
    end += ws.size[b];
    end = (end + kKdaPrefillAlignment - 1) / kKdaPrefillAlignment *
          kKdaPrefillAlignment;
    ok = end <= static_cast<unsigned __int128>(INT64_MAX);
  }
  if (!ok)
    return invalid(
        "n = " + std::to_string(n) +
        ", total_tokens = " + std::to_string(totalTokens) +
        (m ? ", h = " + std::to_string(h) + " and m = " + std::to_string(m)
           : " and h = " + std::to_string(h)) +
        " make a workspace larger than 2^63 bytes");
  ws.bytes = static_cast<uint64_t>(end);
  return Status::success();
}

/// The value part: one call against the facts; `ckptKernel`: the call
/// passes a checkpoint kernel (resolved in f.ckpt); `ws` receives the
/// layout.
Status checkPrefillValues(const PrefillFacts &f, const KdaPrefillArgs &a,
                          bool ckptKernel, KdaPrefillWorkspace &ws) {
  if (a.kDim != f.kDim || a.vDim != f.vDim)
    return invalid(
        kernelPrefix(*f.prep) + "was compiled for K=" + std::to_string(f.kDim) +
        ", V=" + std::to_string(f.vDim) + ", got K=" + std::to_string(a.kDim) +
        ", V=" + std::to_string(a.vDim));
  KDA2RT_TRY(checkInputDType(f.io, a.dtype));
  DType st;
  KDA2RT_TRY(checkStateTypeLayout(f.pool, a.kDim, a.vDim, a.stateDtype,
                                  a.stateLayout, st));
  KDA2RT_TRY(checkLayout(*f.scan, "ckpt", f.scan->findArg("ckpt")->stateLayout,
                         a.stateLayout));
  // The gate bound against the range of g the prep kernel is safe for,
  // when g is the log decay itself: any prep but an activation prep of
  // gate family 1 or 2, which computes the gate from the raw activation in
  // g and needs no bound (gate_lower_bound is ignored).
  const bool gateInKernel = f.activation && f.gateFamily != 0;
  if (!gateInKernel) {
    const ArgInfo &g = *f.prep->findArg("g");
    if (!g.hasRange)
      return invalid("kernel '" + f.prep->name +
                     "' does not declare the range of g it is safe for (no "
                     "'range g' line in its metadata); rebuild it with a "
                     "kda2 that records it");
    if (std::isnan(a.gateLowerBound))
      return invalid("gate_lower_bound is NaN: give the lowest per-step log "
                     "decay the gate can produce (-inf when unbounded)");
    if (a.gateLowerBound < g.rangeLo)
      return invalid(
          "the gate can reach " + formatRangeBound(a.gateLowerBound) +
          " per step (gate_lower_bound) but kernel '" + f.prep->name +
          "' was compiled for g in [" + formatRangeBound(g.rangeLo) + ", " +
          formatRangeBound(g.rangeHi) +
          "] (its chunked products would overflow); use a kernel "
          "built with a wider bound (GB) or a smaller chunk");
  }
  // Gate family 1: lower_bound·sigmoid(..), a bound <= 0 that stays finite
  // as the kernel's f32 (NaN fails both comparisons).
  if (f.activation && f.gateFamily == 1 &&
      !(a.lowerBound >= -static_cast<double>(FLT_MAX) && a.lowerBound <= 0))
    return invalid("argument 'lower_bound' is " +
                   (std::isnan(a.lowerBound) ? std::string("NaN")
                                             : formatRangeBound(a.lowerBound)) +
                   ": kernel '" + f.prep->name +
                   "' computes the gate lower_bound·sigmoid(exp(A_log)·(g + "
                   "dt_bias)) (GF 1), which needs a finite lower_bound <= 0 "
                   "(in f32: >= -3.40282e+38)");
  size_t ix;
  KDA2RT_TRY(
      checkIndexDType(*f.prep, f.index, "cu_seqlens", a.indexDtype, ix));
  if (a.totalTokens < 0)
    return invalid("total_tokens must be >= 0, got " +
                   std::to_string(a.totalTokens));
  if (ix == 4 && a.totalTokens > INT32_MAX)
    return invalid("total_tokens = " + std::to_string(a.totalTokens) +
                   " does not fit the int32 cu_seqlens (index_dtype "
                   "\"i64\" with IX=i64 kernels does)");
  KDA2RT_TRY(prefillLayout(f, a.n, a.totalTokens, a.h, a.m, ws));
  // max_seqlen sizes only a caller's checkpoint table (nc = ceil(max_seqlen
  // / C) columns); a longer sequence is no error: the scan reads column
  // min(chunk, nc − 1), so its later checkpoints repeat the last column's.
  if (a.maxSeqlen < 1 || a.maxSeqlen > INT32_MAX)
    return invalid("max_seqlen must be in [1, 2^31 - 1] (the tokens of the "
                   "longest sequence; it sets nc = ceil(max_seqlen / C), the "
                   "columns of checkpoint_blocks), got " +
                   std::to_string(a.maxSeqlen));
  KDA2RT_TRY(checkHeadsSlotsScale(a.h, a.slots, a.scale));
  // Grouped value heads: hqk q/k heads (0: h), h a multiple of it.
  if (a.hqk < 0 || (a.hqk > 0 && a.h % a.hqk != 0))
    return invalid("argument 'hqk' is " + std::to_string(a.hqk) + ": h = " +
                   std::to_string(a.h) +
                   " must be a multiple of it (the q/k heads of grouped "
                   "value heads; 0: h)");
  const int64_t hqk = a.hqk ? a.hqk : a.h;
  if (hqk != a.h && !f.groupedHeads)
    return invalid("kernel '" + f.prep->name +
                   "' reads q and k with h heads (no hqk dimension); "
                   "rebuild it from templates/kda_chunk_split.tirx for "
                   "grouped value heads (hqk = " +
                   std::to_string(hqk) + " < h = " + std::to_string(a.h) +
                   "), or pass hqk = 0");
  // Checkpoints at chunk boundaries (checkpoint_blocks) and at token
  // offsets (ckpt_offsets, offset_blocks [n, m], completed by the
  // checkpoint kernel): independent, both into ckpt.
  const bool boundaries = a.checkpointBlocks != nullptr;
  const bool offsets = a.ckptOffsets != nullptr;
  if (offsets != (a.offsetBlocks != nullptr))
    return invalid(offsets
                       ? "argument 'offset_blocks' is NULL but 'ckpt_offsets' "
                         "is not: pass both (checkpoints at token offsets) "
                         "or neither"
                       : "argument 'ckpt_offsets' is NULL but "
                         "'offset_blocks' is not: pass both (checkpoints at "
                         "token offsets) or neither");
  if (offsets && a.m == 0)
    return invalid("argument 'm' is 0 but 'ckpt_offsets' is not NULL: m is "
                   "the columns of ckpt_offsets and offset_blocks [n, m] "
                   "(>= 1 with them)");
  if (!offsets && a.m != 0)
    return invalid("argument 'm' is " + std::to_string(a.m) +
                   " but 'ckpt_offsets' is NULL: m is the columns of "
                   "ckpt_offsets and offset_blocks, 0 without them");
  if (offsets && !ckptKernel)
    return invalid("argument 'ckpt_kernel' is NULL but 'ckpt_offsets' is "
                   "not: checkpoints at token offsets need kda_chunk_ckpt "
                   "(the module of the scan kernel, "
                   "templates/kda_chunk_h.tirx)");
  if (!offsets && ckptKernel)
    return invalid("argument 'ckpt_kernel' is given but 'ckpt_offsets' is "
                   "NULL: the checkpoint kernel runs only for checkpoints at "
                   "token offsets; pass NULL without them");
  const bool checkpoints = boundaries || offsets;
  if (checkpoints != (a.ckpt != nullptr))
    return invalid(
        boundaries ? "argument 'ckpt' is NULL but 'checkpoint_blocks' is "
                     "not: pass both (checkpoints) or neither"
        : offsets  ? "argument 'ckpt' is NULL but 'ckpt_offsets' is not: "
                     "checkpoints at token offsets are written to ckpt"
                   : "argument 'ckpt' is not NULL but 'checkpoint_blocks' "
                     "and 'ckpt_offsets' are: ckpt receives checkpoints; "
                     "pass a table of them, or ckpt NULL");
  if (checkpoints && a.blocks <= 0)
    return invalid("blocks must be positive (the states ckpt holds), got " +
                   std::to_string(a.blocks));
  // Operands in checking order; checkpoint_blocks, ckpt and the offset
  // tables only when given, A_log and dt_bias (appended: the indices above
  // stay) only when the kernel reads them (an activation prep of GF 1 or
  // 2). Those not checked stay at 0 bytes and overlap nothing.
  Operand ops[] = {{"q", a.q, 16, 0},
                   {"k", a.k, 16, 0},
                   {"v", a.v, 16, 0},
                   {"g", a.g, 16, 0},
                   {"beta", a.beta, 16, 0},
                   {"cu_seqlens", a.cuSeqlens, ix, 0},
                   {"state_indices", a.stateIndices, ix, 0},
                   {"has_initial_state", a.hasInitialState, 4, 0},
                   {"pool", a.pool, 16, 0},
                   {"o", a.o, 16, 0},
                   {"workspace", a.workspace, kKdaPrefillAlignment, 0},
                   {"checkpoint_blocks", a.checkpointBlocks, ix, 0},
                   {"ckpt", a.ckpt, 16, 0},
                   {"A_log", a.aLog, 4, 0, "f32 elements"},
                   {"dt_bias", a.dtBias, 4, 0, "f32 elements"},
                   {"ckpt_offsets", a.ckptOffsets, ix, 0},
                   {"offset_blocks", a.offsetBlocks, ix, 0}};
  enum {
    kPool = 8,
    kO,
    kWorkspace,
    kTable,
    kCkpt,
    kALog,
    kDtBias,
    kOffsets,
    kOffsetBlocks
  };
  KDA2RT_TRY(checkPointers(ops, kTable));
  if (boundaries)
    KDA2RT_TRY(checkPointers(ops + kTable, 1));
  if (checkpoints)
    KDA2RT_TRY(checkPointers(ops + kCkpt, 1));
  if (offsets)
    KDA2RT_TRY(checkPointers(ops + kOffsets, 2));
  if (f.readsALog)
    KDA2RT_TRY(checkPointers(ops + kALog, 1));
  if (f.readsDtBias)
    KDA2RT_TRY(checkPointers(ops + kDtBias, 1));
  if (a.workspaceBytes < ws.bytes)
    return invalid(
        "workspace_bytes = " + std::to_string(a.workspaceBytes) +
        " is too small: n = " + std::to_string(a.n) +
        (a.m ? ", total_tokens = " + std::to_string(a.totalTokens) +
                   " and m = " + std::to_string(a.m)
             : " and total_tokens = " + std::to_string(a.totalTokens)) +
        " with h = " + std::to_string(a.h) + " need " +
        std::to_string(ws.bytes) +
        (a.m ? " bytes (kda2rt_kda_prefill_workspace_size_offsets with m_max "
               ">= m)"
             : " bytes (kda2rt_kda_prefill_workspace_size)"));
  size_t in = dtypeSize(f.in);
  int64_t h = a.h, k = a.kDim, v = a.vDim;
  const RowStrides strides(a.qStride, a.kStride, a.vStride, a.gStride,
                           a.betaStride);
  KDA2RT_TRY(checkStrides(f.io, strides, RowShape(1, hqk, h, k, v, in),
                          hqk == h ? kTokenRowWords : kGroupedTokenRowWords));
  KDA2RT_TRY(packedBatchBytes(a.n, a.totalTokens, h, k, v, in, ix, strides,
                              ops, hqk));
  KDA2RT_TRY(poolBytes(a.slots, h, k, v, st, ops[kPool]));
  // The workspace: the bytes the call writes (the layout's), not all of
  // workspace_bytes. The caller's checkpoint table [n, nc]; without
  // boundary checkpoints the scan reads state_indices in its place (an
  // operand already) and checkpoint_blocks keeps 0 bytes, ckpt too
  // without any checkpoints.
  ops[kWorkspace].bytes = ws.bytes;
  const int64_t nc = (a.maxSeqlen + ws.chunk - 1) / ws.chunk;
  if (boundaries && !byteCount({a.n, nc}, ix, ops[kTable].bytes))
    return invalid("checkpoint_blocks of n = " + std::to_string(a.n) +
                   " rows of nc = " + std::to_string(nc) +
                   " entries is larger than 2^63 bytes");
  if (checkpoints &&
      !byteCount({a.blocks, h, k, v}, dtypeSize(st), ops[kCkpt].bytes))
    return invalid("ckpt of blocks = " + std::to_string(a.blocks) + ", h = " +
                   std::to_string(h) + " states is larger than 2^63 bytes");
  // The offset tables [n, m] (n·m <= 2^31 - 1: the layout checked it).
  if (offsets)
    ops[kOffsets].bytes = ops[kOffsetBlocks].bytes =
        static_cast<uint64_t>(ws.nm) * ix;
  // A_log [h] and dt_bias [h, K] f32, inputs of the gate in the kernel:
  // the written operands must not overlap them either. Unread (GF 0, AL 0,
  // DB 0 or an older prep), they keep 0 bytes and overlap nothing.
  if (gateInKernel) {
    // No overflow: the workspace's layout (< 2^63 bytes) holds qd, kl
    // and wn, each of at least h·K·2 bytes.
    if (f.readsALog)
      ops[kALog].bytes = static_cast<uint64_t>(h) * 4;
    if (f.readsDtBias)
      ops[kDtBias].bytes =
          static_cast<uint64_t>(h) * static_cast<uint64_t>(k) * 4;
  }
  const size_t all = std::size(ops);
  KDA2RT_TRY(checkWritten(ops, all, ops[kPool], /*inPlace=*/true));
  KDA2RT_TRY(checkWritten(ops, all, ops[kO], /*inPlace=*/false));
  KDA2RT_TRY(checkWritten(ops, all, ops[kWorkspace], /*inPlace=*/false));
  if (checkpoints)
    KDA2RT_TRY(checkWritten(ops, all, ops[kCkpt], /*inPlace=*/false));
  return Status::success();
}

constexpr const char *kPrepPointers[] = {
    "q",  "k",  "g",  "beta", "cu_seqlens",   "qd", "kl",
    "wn", "tp", "pb", "gl",   "ckpt_offsets", "kc", "ec", "ready"};
/// An activation prep's pointers: kPrepPointers, then A_log and dt_bias
/// (LaunchArgs refuses names a kernel does not have, so older preps get
/// the table above).
constexpr const char *kPrepActPointers[] = {
    "q",  "k",  "g",  "beta",         "cu_seqlens", "qd",   "kl",
    "wn", "tp", "pb", "gl",           "ckpt_offsets", "kc", "ec",
    "ready", "A_log", "dt_bias"};
constexpr const char *kScanPointers[] = {"v",
                                         "kl",
                                         "wn",
                                         "tp",
                                         "gl",
                                         "cu_seqlens",
                                         "state_indices",
                                         "has_initial_state",
                                         "checkpoint_blocks",
                                         "pool",
                                         "hs",
                                         "us",
                                         "ckpt",
                                         "ckpt_offsets",
                                         "offset_blocks",
                                         "ready"};
/// A fused-output scan's (kda_chunk_scan_o): kScanPointers without hs, with
/// qd, pb and o.
constexpr const char *kScanOPointers[] = {"v",
                                          "qd",
                                          "kl",
                                          "wn",
                                          "tp",
                                          "pb",
                                          "gl",
                                          "cu_seqlens",
                                          "state_indices",
                                          "has_initial_state",
                                          "checkpoint_blocks",
                                          "pool",
                                          "o",
                                          "us",
                                          "ckpt",
                                          "ckpt_offsets",
                                          "offset_blocks",
                                          "ready"};
constexpr const char *kOutPointers[] = {
    "qd", "pb", "hs", "us", "cu_seqlens", "state_indices", "o"};
/// The checkpoint kernel's (kda_chunk_ckpt).
constexpr const char *kCkptPointers[] = {"kc",
                                         "ec",
                                         "us",
                                         "cu_seqlens",
                                         "state_indices",
                                         "ckpt_offsets",
                                         "offset_blocks",
                                         "ckpt"};
/// Every size a prefill kernel may name: ns the chunk slots of the
/// intermediates, nc the columns of the scan's checkpoint table;
/// nslots is kda_chunk_out's and kda_chunk_ckpt's integer scalar (the
/// pool's slots); then the row strides of prep's inputs and hqk, the q/k
/// heads (h when the call gives 0); m the columns of the offset tables,
/// nm = n·m their entries, boundaries the scan's integer scalar (1: it
/// writes the checkpoint table's chunk-boundary checkpoints).
constexpr const char *kPrefillDims[] = {
    "tt",       "h",        "np1",      "n",         "ns",
    "nc",       "slots",    "blocks",    "nslots",
    "q_stride", "k_stride", "v_stride", "g_stride",  "beta_stride",
    "hqk",      "m",        "nm",       "boundaries"};
constexpr size_t kNumPrefillDims = std::size(kPrefillDims);

/// The values of a checked call's launches: each kernel's pointers
/// (kPrepPointers, kScanPointers, kOutPointers, kCkptPointers order;
/// prepAct in kPrepActPointers order for an activation prep, scanO in
/// kScanOPointers order for a fused-output scan), the sizes (kPrefillDims
/// order), the resolved scale and lower_bound, and whether the checkpoint
/// kernel runs (offset checkpoints).
struct PrefillValues {
  const void *prep[std::size(kPrepPointers)];
  const void *prepAct[std::size(kPrepActPointers)];
  const void *scan[std::size(kScanPointers)];
  const void *scanO[std::size(kScanOPointers)];
  const void *out[std::size(kOutPointers)];
  const void *ckpt[std::size(kCkptPointers)];
  int64_t dims[kNumPrefillDims];
  double scale = 0, lowerBound = 0;
  bool withCkpt = false;
};

void prefillValues(const KdaPrefillArgs &a, const KdaPrefillWorkspace &ws,
                   PrefillValues &out) {
  using B = KdaPrefillWorkspace;
  char *base = static_cast<char *>(a.workspace);
  const void *buf[B::Count];
  for (int b = 0; b < B::Count; ++b)
    buf[b] = base + ws.offset[b];
  // Without boundary checkpoints the scan gets boundaries = 0 and
  // state_indices as a table of one column (nc = 1; it reads column
  // min(chunk, nc − 1)); without any checkpoints also blocks = 0 and the
  // pool as ckpt: it writes ckpt[blk] only for 0 <= blk < blocks, so it
  // writes none, whatever the table holds; state_indices is a valid [n]
  // array of the index type and the pool a valid state buffer of ckpt's
  // type and layout (no table to fill, no dummy allocation). Without
  // offset checkpoints prep and scan get state_indices as ckpt_offsets and
  // offset_blocks with m = 0: they read no entry.
  const bool boundaries = a.checkpointBlocks != nullptr;
  const bool offsets = a.ckptOffsets != nullptr;
  const bool checkpoints = boundaries || offsets;
  const void *table = boundaries ? a.checkpointBlocks : a.stateIndices;
  const void *ckpt = checkpoints ? a.ckpt : a.pool;
  const void *ckptOffsets = offsets ? a.ckptOffsets : a.stateIndices;
  const void *offsetBlocks = offsets ? a.offsetBlocks : a.stateIndices;
  const int64_t blocks = checkpoints ? a.blocks : 0;
  const int64_t nc = boundaries ? (a.maxSeqlen + ws.chunk - 1) / ws.chunk : 1;
  const int64_t m = offsets ? a.m : 0;
  const int64_t hqk = a.hqk ? a.hqk : a.h;
  const int64_t dims[] = {a.totalTokens,
                          a.h,
                          a.n + 1,
                          a.n,
                          ws.ns,
                          nc,
                          a.slots,
                          blocks,
                          a.slots,
                          resolvedStride(a.qStride, hqk * a.kDim),
                          resolvedStride(a.kStride, hqk * a.kDim),
                          resolvedStride(a.vStride, a.h * a.vDim),
                          resolvedStride(a.gStride, a.h * a.kDim),
                          resolvedStride(a.betaStride, a.h),
                          hqk,
                          m,
                          a.n * m,
                          boundaries ? 1 : 0};
  const void *prepPtrs[] = {a.q,        a.k,        a.g,        a.beta,
                            a.cuSeqlens, buf[B::QD], buf[B::KL], buf[B::WN],
                            buf[B::TP], buf[B::PB], buf[B::GL], ckptOffsets,
                            buf[B::KC], buf[B::EC], buf[B::READY]};
  const void *scanPtrs[] = {a.v,     buf[B::KL],        buf[B::WN],
                            buf[B::TP],     buf[B::GL],        a.cuSeqlens,
                            a.stateIndices, a.hasInitialState, table,
                            a.pool,         buf[B::HS],        buf[B::US],
                            ckpt,           ckptOffsets,       offsetBlocks,
                            buf[B::READY]};
  const void *scanOPtrs[] = {a.v,     buf[B::QD],
                             buf[B::KL],     buf[B::WN],
                             buf[B::TP],     buf[B::PB],
                             buf[B::GL],     a.cuSeqlens,
                             a.stateIndices, a.hasInitialState,
                             table,          a.pool,
                             a.o,            buf[B::US],
                             ckpt,           ckptOffsets,
                             offsetBlocks,   buf[B::READY]};
  const void *outPtrs[] = {buf[B::QD],  buf[B::PB],     buf[B::HS], buf[B::US],
                           a.cuSeqlens, a.stateIndices, a.o};
  const void *ckptPtrs[] = {
      buf[B::KC],     buf[B::EC],  buf[B::US],   a.cuSeqlens,
      a.stateIndices, ckptOffsets, offsetBlocks, ckpt};
  static_assert(std::size(dims) == kNumPrefillDims);
  static_assert(std::size(scanOPtrs) == std::size(kScanOPointers));
  static_assert(std::size(prepPtrs) + 2 == std::size(kPrepActPointers));
  std::memcpy(out.prep, prepPtrs, sizeof(prepPtrs));
  std::memcpy(out.prepAct, prepPtrs, sizeof(prepPtrs));
  // An activation prep of gate family 0 (or built with AL 0 / DB 0) has
  // the parameters A_log and dt_bias but never reads them, and the call may
  // leave them NULL: it gets g (a valid device pointer) in their place, so
  // that the launch's non-NULL checks hold. The ones it reads were checked
  // non-NULL.
  out.prepAct[std::size(prepPtrs)] = a.aLog ? a.aLog : a.g;
  out.prepAct[std::size(prepPtrs) + 1] = a.dtBias ? a.dtBias : a.g;
  out.lowerBound = a.lowerBound;
  std::memcpy(out.scan, scanPtrs, sizeof(scanPtrs));
  std::memcpy(out.scanO, scanOPtrs, sizeof(scanOPtrs));
  std::memcpy(out.out, outPtrs, sizeof(outPtrs));
  std::memcpy(out.ckpt, ckptPtrs, sizeof(ckptPtrs));
  std::memcpy(out.dims, dims, sizeof(dims));
  out.scale = resolvedScale(a.scale, a.kDim);
  // The checkpoint kernel runs on (n·m, h) after the scan; m >= 1 with
  // offsets (checked).
  out.withCkpt = offsets && m > 0;
}
} // namespace

const char *kdaPrefillBufferName(KdaPrefillWorkspace::Buffer b) {
  return b >= 0 && b < KdaPrefillWorkspace::Count ? kPrefillBufferNames[b] : "";
}

Status kdaPrefillWorkspace(const KernelInfo &prep, const KernelInfo &scan,
                           const KernelInfo &out, int64_t n,
                           int64_t totalTokens, int64_t h,
                           KdaPrefillWorkspace &ws) {
  return kdaPrefillWorkspace(prep, scan, out, n, totalTokens, h, 0, ws);
}

Status kdaPrefillWorkspace(const KernelInfo &prep, const KernelInfo &scan,
                           const KernelInfo &out, int64_t n,
                           int64_t totalTokens, int64_t h, int64_t m,
                           KdaPrefillWorkspace &ws) {
  return kdaPrefillWorkspace(prep, scan, &out, n, totalTokens, h, m, ws);
}

Status kdaPrefillWorkspace(const KernelInfo &prep, const KernelInfo &scan,
                           const KernelInfo *out, int64_t n,
                           int64_t totalTokens, int64_t h, int64_t m,
                           KdaPrefillWorkspace &ws) {
  ws = KdaPrefillWorkspace();
  PrefillFacts f;
  KDA2RT_TRY(resolvePrefillFacts(prep, scan, out, f));
  return prefillLayout(f, n, totalTokens, h, m, ws);
}

namespace {
/// The checkpoint kernel's metadata a call passes (args.ckptKernel).
const KernelInfo *ckptInfo(const KdaPrefillArgs &a) {
  return a.ckptKernel ? &a.ckptKernel->info() : nullptr;
}
} // namespace

Status checkKdaPrefill(const KernelInfo &prep, const KernelInfo &scan,
                       const KernelInfo &out, const KdaPrefillArgs &args) {
  return checkKdaPrefill(prep, scan, out, ckptInfo(args), args);
}

Status checkKdaPrefill(const KernelInfo &prep, const KernelInfo &scan,
                       const KernelInfo &out, const KernelInfo *ckpt,
                       const KdaPrefillArgs &args) {
  return checkKdaPrefill(prep, scan, &out, ckpt, args);
}

Status checkKdaPrefill(const KernelInfo &prep, const KernelInfo &scan,
                       const KernelInfo *out, const KernelInfo *ckpt,
                       const KdaPrefillArgs &args) {
  PrefillFacts f;
  KDA2RT_TRY(resolvePrefillFacts(prep, scan, out, ckpt, f));
  KdaPrefillWorkspace ws;
  return checkPrefillValues(f, args, ckpt != nullptr, ws);
}

Status kdaPrefillLaunchArgs(const KernelInfo &prep, const KernelInfo &scan,
                            const KernelInfo &out, const KdaPrefillArgs &a,
                            KdaPrefillLaunch &launch) {
  return kdaPrefillLaunchArgs(prep, scan, out, ckptInfo(a), a, launch);
}

Status kdaPrefillLaunchArgs(const KernelInfo &prep, const KernelInfo &scan,
                            const KernelInfo &out, const KernelInfo *ckpt,
                            const KdaPrefillArgs &a, KdaPrefillLaunch &launch) {
  return kdaPrefillLaunchArgs(prep, scan, &out, ckpt, a, launch);
}

Status kdaPrefillLaunchArgs(const KernelInfo &prep, const KernelInfo &scan,
                            const KernelInfo *out, const KernelInfo *ckpt,
                            const KdaPrefillArgs &a, KdaPrefillLaunch &launch) {
  launch = KdaPrefillLaunch();
  PrefillFacts f;
  KDA2RT_TRY(resolvePrefillFacts(prep, scan, out, ckpt, f));
  KdaPrefillWorkspace ws;
  KDA2RT_TRY(checkPrefillValues(f, a, ckpt != nullptr, ws));
  PrefillValues v;
  prefillValues(a, ws, v);
  if (f.readyFlags) {
    launch.ready = reinterpret_cast<CUdeviceptr>(a.workspace) +
                   ws.offset[KdaPrefillWorkspace::READY];
    launch.readyWords = ws.size[KdaPrefillWorkspace::READY] / 4;
  }
  if (f.activation) {
    fillLaunchArgs(prep, kPrepActPointers, v.prepAct, kPrefillDims, v.dims,
                   &v.scale, launch.prep);
    launch.prep.floatScalar("lower_bound", v.lowerBound);
  } else {
    fillLaunchArgs(prep, kPrepPointers, v.prep, kPrefillDims, v.dims,
                   &v.scale, launch.prep);
  }
  if (f.fusedScan)
    fillLaunchArgs(scan, kScanOPointers, v.scanO, kPrefillDims, v.dims,
                   nullptr, launch.scan);
  else
    fillLaunchArgs(scan, kScanPointers, v.scan, kPrefillDims, v.dims, nullptr,
                   launch.scan);
  launch.withOut = out != nullptr;
  if (out)
    fillLaunchArgs(*out, kOutPointers, v.out, kPrefillDims, v.dims, nullptr,
                   launch.out);
  if (v.withCkpt) {
    fillLaunchArgs(*ckpt, kCkptPointers, v.ckpt, kPrefillDims, v.dims, nullptr,
                   launch.ckpt);
    launch.withCkpt = true;
  }
  return Status::success();
}

Status prepareKdaPrefill(const Kernel &prep, const Kernel &scan,
                         const Kernel &out, const KdaPrefillArgs &args,
                         KdaPrefillLaunch &launch) {
  return prepareKdaPrefill(prep, scan, &out, args, launch);
}

Status prepareKdaPrefill(const Kernel &prep, const Kernel &scan,
                         const Kernel *out, const KdaPrefillArgs &args,
                         KdaPrefillLaunch &launch) {
  launch = KdaPrefillLaunch();
  const char *roles[] = {"prep_kernel", "scan_kernel", "out_kernel",
                         "ckpt_kernel"};
  const Kernel *kernels[] = {&prep, &scan, out, args.ckptKernel};
  for (int i = 0; i < 4; ++i)
    if (kernels[i] && !kernels[i]->valid())
      return invalid(std::string("argument '") + roles[i] +
                     "': the kernel is not loaded");
  KDA2RT_TRY(kdaPrefillLaunchArgs(prep.info(), scan.info(),
                                  out ? &out->info() : nullptr,
                                  ckptInfo(args), args, launch));
  // Every launch configuration before the first launch: a call that fails
  // runs nothing. prep and out (not with a fused-output scan) run on (ns,
  // h): ns <= 2^31 - 1 and h <= 65535; the scan on (NVB, n·h): n·h <=
  // 65535. That last limit also keeps n below 2^16, which the binary
  // search of cu_seqlens in prep and out (16 halvings of [0, n]) assumes.
  // The checkpoint kernel runs on (n·m, h), n·m <= 2^31 - 1 (checked with
  // the values).
  LaunchConfig cfg;
  KDA2RT_TRY(computeLaunchConfig(prep.info(), launch.prep, cfg));
  KDA2RT_TRY(computeLaunchConfig(scan.info(), launch.scan, cfg));
  if (launch.withCkpt)
    KDA2RT_TRY(computeLaunchConfig(args.ckptKernel->info(), launch.ckpt, cfg));
  return out ? computeLaunchConfig(out->info(), launch.out, cfg)
             : Status::success();
}

Status launchKdaPrefill(const Kernel &prep, const Kernel &scan,
                        const Kernel &out, const KdaPrefillArgs &args,
                        CUstream stream) {
  return launchKdaPrefill(prep, scan, &out, args, stream);
}

Status launchKdaPrefill(const Kernel &prep, const Kernel &scan,
                        const Kernel *out, const KdaPrefillArgs &args,
                        CUstream stream) {
  KdaPrefillLaunch launch;
  KDA2RT_TRY(prepareKdaPrefill(prep, scan, out, args, launch));
  // The scan waits for flags the prep sets: cleared first, in stream order.
  KDA2RT_TRY(prep.clearWords(launch.ready, launch.readyWords, stream));
  KDA2RT_TRY(prep.launch(launch.prep, stream));
  KDA2RT_TRY(scan.launch(launch.scan, stream));
  // After the scan, which wrote the states the checkpoint kernel completes.
  if (launch.withCkpt)
    KDA2RT_TRY(args.ckptKernel->launch(launch.ckpt, stream));
  return launch.withOut ? out->launch(launch.out, stream) : Status::success();
}

//===----------------------------------------------------------------------===//
// The prepared prefill launch
//===----------------------------------------------------------------------===//

namespace {
using Packing = KdaPrefillPlan::Packing;

Status noPrefillPlan(const KernelInfo &info, const std::string &why) {
  return invalid("no prepared prefill launch: kernel '" + info.name + "' " +
                 why);
}

/// Maps kernel `k`'s parameters, grid and variants to the values of
/// fillLaunchArgs (pointers `ptrNames`, then kPrefillDims; the scale when
/// `scale`; the activation prep's float scalar lower_bound when
/// `lowerBound`): the parameters computeLaunchConfig would build from those
/// LaunchArgs. Refuses what computeLaunchConfig would refuse for any
/// values (unknown, duplicate or missing names) and what the packing
/// cannot hold.
Status createPacking(const Kernel &k, const char *const *ptrNames,
                     size_t numPtrs, bool scale, bool lowerBound, Packing &p) {
  p = Packing();
  const KernelInfo &info = k.info();
  constexpr uint8_t kNone = Packing::kNone;
  constexpr uint8_t kScale = 0xFE, kLowerBound = 0xFD;
  // The sizes fillLaunchArgs gives (the kernel's dimensions among
  // kPrefillDims) and its scalars: (name, value index or kScale).
  const std::vector<std::string> known = info.dimNames();
  bool givenDim[kNumPrefillDims] = {};
  std::vector<std::pair<std::string, uint8_t>> scalars;
  for (size_t i = 0; i < kNumPrefillDims; ++i) {
    for (const std::string &d : known)
      if (d == kPrefillDims[i])
        givenDim[i] = true;
    if (const ArgInfo *a = info.findArg(kPrefillDims[i]);
        a && a->kind == ArgInfo::Scalar)
      scalars.emplace_back(kPrefillDims[i], numPtrs + i);
  }
  // The value index of pointer `name`'s row stride ("<name>_stride"), or
  // -1 when the entry point passes none.
  auto strideIndex = [&](const std::string &name) -> int {
    for (size_t i = 0; i < kNumPrefillDims; ++i)
      if (name + "_stride" == kPrefillDims[i])
        return static_cast<int>(numPtrs + i);
    return -1;
  };
  for (const ArgInfo &a : info.args)
    if (a.kind == ArgInfo::Ptr && !a.strideScalar.empty())
      if (int i = strideIndex(a.name); i >= 0)
        scalars.emplace_back(a.strideScalar, static_cast<uint8_t>(i));
  if (scale)
    scalars.emplace_back("scale", kScale);
  if (lowerBound)
    scalars.emplace_back("lower_bound", kLowerBound);
  for (size_t i = 0; i < scalars.size(); ++i) {
    const ArgInfo *a = info.findArg(scalars[i].first);
    if (!a || a->kind != ArgInfo::Scalar)
      return noPrefillPlan(info, "has no scalar '" + scalars[i].first + "'");
    for (size_t j = 0; j < i; ++j)
      if (scalars[j].first == scalars[i].first)
        return noPrefillPlan(info, "gets scalar '" + scalars[i].first +
                                       "' twice");
  }
  auto dimIndex = [&](const std::string &name) -> int {
    for (size_t i = 0; i < kNumPrefillDims; ++i)
      if (givenDim[i] && name == kPrefillDims[i])
        return static_cast<int>(numPtrs + i);
    return -1;
  };
  auto ptrIndex = [&](const std::string &name) -> int {
    int found = -1;
    for (size_t i = 0; i < numPtrs; ++i)
      if (name == ptrNames[i])
        found = static_cast<int>(i);
    return found;
  };
  if (info.args.size() > KdaPrefillPlan::kMaxParams)
    return noPrefillPlan(info, "has more than " +
                                   std::to_string(KdaPrefillPlan::kMaxParams) +
                                   " parameters");
  for (const ArgInfo &a : info.args) {
    size_t slot = p.numParams++;
    switch (a.kind) {
    case ArgInfo::Ptr:
    case ArgInfo::Counters: {
      int i = ptrIndex(a.name);
      if (i < 0)
        return noPrefillPlan(info, "takes pointer '" + a.name +
                                       "', which the entry point does not "
                                       "pass");
      p.source[slot] = Packing::Value;
      p.index[slot] = static_cast<uint8_t>(i);
      break;
    }
    case ArgInfo::Scalar: {
      const std::pair<std::string, uint8_t> *given = nullptr;
      for (const auto &sc : scalars)
        if (sc.first == a.name)
          given = &sc;
      if (!given)
        return noPrefillPlan(info, "takes scalar '" + a.name +
                                       "', which the entry point does not "
                                       "pass");
      p.index[slot] = given->second;
      const bool isScale = given->second == kScale;
      const bool isBound = given->second == kLowerBound;
      switch (a.scalarType) {
      case ScalarType::F32:
        p.source[slot] = isScale   ? Packing::ScaleF32
                         : isBound ? Packing::LowerBoundF32
                                   : Packing::ValueF32;
        break;
      case ScalarType::F64:
        p.source[slot] = isScale   ? Packing::ScaleF64
                         : isBound ? Packing::LowerBoundF64
                                   : Packing::ValueF64;
        break;
      case ScalarType::I32:
      case ScalarType::I64:
        // (resolvePrefillFacts already requires an f32 lower_bound.)
        if (isScale || isBound)
          return noPrefillPlan(info, "takes an integer '" + a.name + "'");
        p.source[slot] = a.scalarType == ScalarType::I32 ? Packing::ValueI32
                                                         : Packing::Value;
        break;
      }
      break;
    }
    case ArgInfo::Dim: {
      int i = dimIndex(a.name);
      if (i < 0)
        return noPrefillPlan(info, "takes dimension '" + a.name +
                                       "', which the entry point does not "
                                       "pass");
      p.source[slot] = Packing::Value;
      p.index[slot] = static_cast<uint8_t>(i);
      break;
    }
    case ArgInfo::TensorMap: {
      const ArgInfo *src = info.findArg(a.source);
      int pointer = ptrIndex(a.source);
      const size_t rank = a.mapDims.size();
      if (!src || src->kind != ArgInfo::Ptr || pointer < 0 || rank < 1 ||
          rank > PreparedTensorMap::kMaxRank || a.box.size() != rank ||
          p.numMaps == KdaPrefillPlan::kMaxTensorMaps)
        return noPrefillPlan(info, "has a tensor map ('" + a.name +
                                       "') the plan cannot express");
      Packing::Map &m = p.maps[p.numMaps];
      p.source[slot] = Packing::TensorMap;
      p.index[slot] = static_cast<uint8_t>(p.numMaps++);
      m.param = static_cast<uint8_t>(slot);
      m.pointer = static_cast<uint8_t>(pointer);
      m.dtype = src->dtype;
      m.rank = static_cast<uint32_t>(rank);
      m.swizzle = a.swizzle;
      // A source with a runtime row stride: the map's outermost dimension
      // steps by it (the value of "<source>_stride").
      if (!src->strideScalar.empty()) {
        if (int i = strideIndex(src->name); i >= 0)
          m.rowStride = static_cast<uint8_t>(i);
        else
          return noPrefillPlan(info, "has a tensor map ('" + a.name +
                                         "') over a row stride the entry "
                                         "point does not pass");
      }
      for (size_t i = 0; i < rank; ++i) {
        m.box[i] = a.box[i];
        if (a.mapDims[i] < 0 ||
            static_cast<size_t>(a.mapDims[i]) >= src->shape.size())
          return noPrefillPlan(info, "has a tensor map ('" + a.name +
                                         "') the plan cannot express");
        const ShapeDim &d = src->shape[a.mapDims[i]];
        m.padTo[i] = d.padTo;
        m.extent[i] = d.size;
        m.dim[i] = kNone;
        if (d.kind != ShapeDim::Static) {
          int v = d.kind == ShapeDim::Named ? dimIndex(d.name) : -1;
          if (v < 0)
            return noPrefillPlan(info, "has a tensor map ('" + a.name +
                                           "') over a dimension the entry "
                                           "point does not pass");
          m.dim[i] = static_cast<uint8_t>(v);
        }
      }
      break;
    }
    }
  }
  for (const GridTerm &t : info.gridX) {
    size_t i = p.numGridX++;
    p.gridX[i] = kNone;
    p.gridXConstant[i] = t.constant;
    if (!t.dim.empty()) {
      int v = dimIndex(t.dim);
      if (v < 0)
        return noPrefillPlan(info, "has grid.x term '" + t.dim +
                                       "', which the entry point does not "
                                       "pass");
      p.gridX[i] = static_cast<uint8_t>(v);
    }
  }
  for (const std::string &name : info.gridY) {
    int v = dimIndex(name);
    if (v < 0)
      return noPrefillPlan(info, "has grid.y factor '" + name +
                                     "', which the entry point does not pass");
    p.gridY[p.numGridY++] = static_cast<uint8_t>(v);
  }
  if (info.gridX.size() > KdaPrefillPlan::kMaxParams ||
      info.gridY.size() > KdaPrefillPlan::kMaxParams ||
      info.variants.size() > KdaPrefillPlan::kMaxParams)
    return noPrefillPlan(info, "has too many grid terms or variants");
  for (size_t v = 0; v < info.variants.size(); ++v) {
    int i = dimIndex(info.variants[v].dim);
    p.variantDim[v] = i < 0 ? kNone : static_cast<uint8_t>(i);
    p.variantSize[v] = info.variants[v].value;
    p.variantFunc[v] = k.variantHandle(v);
  }
  p.numVariants = info.variants.size();
  p.kernel = &k;
  return Status::success();
}

/// One launch of a prepared prefill call, computed before any driver call.
struct StagedLaunch {
  uint64_t slots[KdaPrefillPlan::kMaxParams];
  void *params[KdaPrefillPlan::kMaxParams];
  PreparedTensorMap maps[KdaPrefillPlan::kMaxTensorMaps];
  unsigned grid[3];
  CUfunction func;
};

/// A float parameter's slot: `value` as f32 (its 4 bytes) or f64.
uint64_t floatSlot(double value, bool f32) {
  uint64_t slot = 0;
  if (f32) {
    const float f = static_cast<float>(value);
    std::memcpy(&slot, &f, sizeof(f));
  } else {
    std::memcpy(&slot, &value, sizeof(value));
  }
  return slot;
}

/// computeLaunchConfig on the packing: false when it would fail for these
/// values (a negative size, a NULL pointer, an i32 scalar out of range, a
/// tensor map over an unaligned tensor or rows, a grid over the CUDA
/// limits); the general path then words the failure.
bool stageLaunch(const Packing &p, const uint64_t *values, double scale,
                 double lowerBound, StagedLaunch &out) {
  for (size_t i = 0; i < p.numParams; ++i) {
    uint64_t slot = 0;
    // Only the Value* sources index `values` (the others hold a marker).
    const bool indexed = p.source[i] == Packing::Value ||
                         p.source[i] == Packing::ValueI32 ||
                         p.source[i] == Packing::ValueF32 ||
                         p.source[i] == Packing::ValueF64;
    const uint64_t value = indexed ? values[p.index[i]] : 0;
    switch (p.source[i]) {
    case Packing::Value:
      slot = value;
      break;
    case Packing::ValueI32: {
      const int64_t v = static_cast<int64_t>(value);
      if (v < INT32_MIN || v > INT32_MAX)
        return false;
      const int32_t w = static_cast<int32_t>(v);
      std::memcpy(&slot, &w, sizeof(w));
      break;
    }
    case Packing::ValueF32:
    case Packing::ValueF64:
      slot = floatSlot(static_cast<double>(static_cast<int64_t>(value)),
                       p.source[i] == Packing::ValueF32);
      break;
    case Packing::ScaleF32:
    case Packing::ScaleF64:
      slot = floatSlot(scale, p.source[i] == Packing::ScaleF32);
      break;
    case Packing::LowerBoundF32:
    case Packing::LowerBoundF64:
      slot = floatSlot(lowerBound, p.source[i] == Packing::LowerBoundF32);
      break;
    case Packing::TensorMap:
      break;
    }
    out.slots[i] = slot;
    out.params[i] = &out.slots[i];
  }
  for (size_t i = 0; i < p.numMaps; ++i) {
    const Packing::Map &m = p.maps[i];
    PreparedTensorMap &r = out.maps[i];
    r.param = m.param;
    r.dtype = m.dtype;
    r.rank = m.rank;
    r.address = values[m.pointer];
    r.swizzle = m.swizzle;
    uint64_t stride = dtypeSize(m.dtype);
    for (uint32_t d = 0; d < m.rank; ++d) {
      const int64_t extent = m.dim[d] == Packing::kNone
                                 ? m.extent[d]
                                 : static_cast<int64_t>(values[m.dim[d]]);
      if (d > 0) {
        if (m.rowStride != Packing::kNone && d + 1 == m.rank)
          stride = static_cast<uint64_t>(values[m.rowStride]) *
                   dtypeSize(m.dtype);
        if (stride % 16 != 0)
          return false;
        r.strides[d - 1] = stride;
      }
      r.dims[d] = static_cast<uint64_t>(extent);
      r.box[d] = m.box[d];
      const int64_t stored = (extent + m.padTo[d] - 1) / m.padTo[d] * m.padTo[d];
      stride *= static_cast<uint64_t>(stored);
    }
    if (r.address % 16 != 0)
      return false;
  }
  int64_t gx = p.numGridX ? 0 : 1;
  for (size_t i = 0; i < p.numGridX; ++i) {
    const int64_t v = p.gridX[i] == Packing::kNone
                          ? p.gridXConstant[i]
                          : static_cast<int64_t>(values[p.gridX[i]]);
    gx = v > gx ? v : gx;
  }
  if (gx > INT32_MAX)
    return false;
  int64_t gy = 1;
  for (size_t i = 0; i < p.numGridY; ++i) {
    const int64_t d = static_cast<int64_t>(values[p.gridY[i]]);
    if (d != 0 && gy > INT64_MAX / d)
      return false;
    gy *= d;
  }
  if (gy > 65535)
    return false;
  out.grid[0] = static_cast<unsigned>(gx);
  out.grid[1] = static_cast<unsigned>(gy);
  out.grid[2] = 1;
  // The first `variant` whose dimension has its size (Kernel::launch).
  const CUfunction base = p.kernel->handle();
  out.func = base;
  for (size_t v = 0; v < p.numVariants && out.func == base; ++v)
    if (p.variantDim[v] != Packing::kNone &&
        static_cast<int64_t>(values[p.variantDim[v]]) == p.variantSize[v])
      out.func = p.variantFunc[v];
  return true;
}

/// A kernel's values: its `np` pointers, then the sizes (`out` holds np +
/// kNumPrefillDims); false when a pointer is NULL or a size negative
/// (computeLaunchConfig refuses them).
bool kernelValues(const void *const *ptrs, size_t np, const int64_t *dims,
                  uint64_t *out) {
  for (size_t i = 0; i < np; ++i) {
    out[i] = word(ptrs[i]);
    if (!out[i])
      return false;
  }
  for (size_t i = 0; i < kNumPrefillDims; ++i) {
    if (dims[i] < 0)
      return false;
    out[np + i] = static_cast<uint64_t>(dims[i]);
  }
  return true;
}
} // namespace

Status KdaPrefillPlan::create(const Kernel &prep, const Kernel &scan,
                              const Kernel &out, KdaPrefillPlan &plan) {
  return create(prep, scan, out, nullptr, plan);
}

Status KdaPrefillPlan::create(const Kernel &prep, const Kernel &scan,
                              const Kernel &out, const Kernel *ckpt,
                              KdaPrefillPlan &plan) {
  return create(prep, scan, &out, ckpt, plan);
}

Status KdaPrefillPlan::create(const Kernel &prep, const Kernel &scan,
                              const Kernel *out, const Kernel *ckpt,
                              KdaPrefillPlan &plan) {
  plan = KdaPrefillPlan();
  const Kernel *kernels[] = {&prep, &scan, out, ckpt};
  for (const Kernel *k : kernels)
    if (k && !k->valid())
      return invalid("no prepared prefill launch: a kernel is not loaded");
  KdaPrefillFacts f;
  KDA2RT_TRY(resolvePrefillFacts(prep.info(), scan.info(),
                                 out ? &out->info() : nullptr,
                                 ckpt ? &ckpt->info() : nullptr, f));
  Packing p[4];
  if (f.activation)
    KDA2RT_TRY(createPacking(prep, kPrepActPointers,
                             std::size(kPrepActPointers), /*scale=*/true,
                             /*lowerBound=*/true, p[0]));
  else
    KDA2RT_TRY(createPacking(prep, kPrepPointers, std::size(kPrepPointers),
                             /*scale=*/true, /*lowerBound=*/false, p[0]));
  if (f.fusedScan)
    KDA2RT_TRY(createPacking(scan, kScanOPointers, std::size(kScanOPointers),
                             /*scale=*/false, /*lowerBound=*/false, p[1]));
  else
    KDA2RT_TRY(createPacking(scan, kScanPointers, std::size(kScanPointers),
                             /*scale=*/false, /*lowerBound=*/false, p[1]));
  if (out)
    KDA2RT_TRY(createPacking(*out, kOutPointers, std::size(kOutPointers),
                             /*scale=*/false, /*lowerBound=*/false, p[2]));
  if (ckpt)
    KDA2RT_TRY(createPacking(*ckpt, kCkptPointers, std::size(kCkptPointers),
                             /*scale=*/false, /*lowerBound=*/false, p[3]));
  plan.facts_ = f;
  for (int i = 0; i < 4; ++i)
    plan.kernels_[i] = p[i];
  return Status::success();
}

Status KdaPrefillPlan::launch(const KdaPrefillArgs &args,
                              CUstream stream) const {
  if (!valid())
    return invalid("launch of an invalid (not created) prefill plan");
  // Another checkpoint kernel than the plan's: the general path resolves
  // and checks it (same messages).
  if (args.ckptKernel && args.ckptKernel != ckpt())
    return launchKdaPrefill(*prep(), *scan(), out(), args, stream);
  KdaPrefillWorkspace ws;
  KDA2RT_TRY(checkPrefillValues(facts_, args, args.ckptKernel != nullptr, ws));
  PrefillValues v;
  prefillValues(args, ws, v);
  const bool withOut = out() != nullptr;
  uint64_t prepValues[std::size(kPrepActPointers) + kNumPrefillDims];
  uint64_t scanValues[std::max(std::size(kScanPointers),
                               std::size(kScanOPointers)) +
                      kNumPrefillDims];
  uint64_t outValues[std::size(kOutPointers) + kNumPrefillDims];
  uint64_t ckptValues[std::size(kCkptPointers) + kNumPrefillDims];
  StagedLaunch staged[4];
  const double lb = v.lowerBound;
  const bool ready =
      (facts_.activation ? kernelValues(v.prepAct, std::size(kPrepActPointers),
                                        v.dims, prepValues)
                         : kernelValues(v.prep, std::size(kPrepPointers),
                                        v.dims, prepValues)) &&
      (facts_.fusedScan ? kernelValues(v.scanO, std::size(kScanOPointers),
                                       v.dims, scanValues)
                        : kernelValues(v.scan, std::size(kScanPointers),
                                       v.dims, scanValues)) &&
      stageLaunch(kernels_[0], prepValues, v.scale, lb, staged[0]) &&
      stageLaunch(kernels_[1], scanValues, v.scale, lb, staged[1]) &&
      (!withOut ||
       (kernelValues(v.out, std::size(kOutPointers), v.dims, outValues) &&
        stageLaunch(kernels_[2], outValues, v.scale, lb, staged[2]))) &&
      (!v.withCkpt ||
       (kernelValues(v.ckpt, std::size(kCkptPointers), v.dims, ckptValues) &&
        stageLaunch(kernels_[3], ckptValues, v.scale, lb, staged[3])));
  // What the prepared checks cannot word, the general path does (the same
  // checks again, then the message).
  if (!ready)
    return launchKdaPrefill(*prep(), *scan(), out(), args, stream);
  // The encoded maps of one launch (cuLaunchKernel copies the parameters,
  // so the launches reuse the storage). Order: prep, scan, the checkpoint
  // kernel (after the scan's states), out (none after a fused-output
  // scan).
  alignas(64) unsigned char maps[kMaxTensorMaps * 128];
  if (facts_.readyFlags)
    KDA2RT_TRY(prep()->clearWords(
        reinterpret_cast<CUdeviceptr>(args.workspace) +
            ws.offset[KdaPrefillWorkspace::READY],
        ws.size[KdaPrefillWorkspace::READY] / 4, stream));
  const int order[] = {0, 1, 3, 2};
  for (int i : order) {
    if ((i == 3 && !v.withCkpt) || (i == 2 && !withOut))
      continue;
    KDA2RT_TRY(kernels_[i].kernel->launchPreparedMaps(
        staged[i].func, staged[i].grid, staged[i].params, staged[i].maps,
        kernels_[i].numMaps, maps, stream));
  }
  return Status::success();
}

} // namespace kda2::runtime
