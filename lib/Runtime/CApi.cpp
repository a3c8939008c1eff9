//===- CApi.cpp - C ABI of libkda2rt (kda2rt.h) ---------------------------===//
//
// Thin C wrappers over the C++ runtime. The library is built without
// exceptions and every entry point is noexcept, so nothing unwinds through
// the ABI.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/kda2rt.h"
#include "kda2/Runtime/KDA.h"
#include "kda2/Runtime/CudaDriver.h"
#include "kda2/Runtime/Module.h"

#include "CApiSupport.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

using namespace kda2::runtime;

struct kda2rt_module_s {
  Module module;
  std::mutex mutex; // guards kernels
  std::map<std::string, std::unique_ptr<kda2rt_kernel_s>> kernels;
};

namespace {
thread_local std::string tLastError;
} // namespace

namespace kda2::runtime::capi {

void copyString(const std::string &s, char *buf, size_t len) {
  if (!buf || len == 0)
    return;
  size_t n = s.size() < len - 1 ? s.size() : len - 1;
  std::memcpy(buf, s.data(), n);
  buf[n] = '\0';
}

int finish(const Status &s, char *err, size_t errlen) {
  if (s.ok()) {
    if (err && errlen)
      err[0] = '\0';
    return KDA2RT_OK;
  }
  tLastError = s.message();
  copyString(s.message(), err, errlen);
  return static_cast<int>(s.code());
}

Status invalid(const std::string &msg) {
  return Status::error(ErrorCode::InvalidArgument, msg);
}

/// The retained primary context of `device`, created on first use and kept
/// for the life of the process (never destroyed: the driver may be torn down
/// before static destructors run).
Status deviceContext(int device, const Context *&out) {
  static std::mutex *mutex = new std::mutex;
  static auto *contexts = new std::map<int, Context *>;
  std::lock_guard<std::mutex> lock(*mutex);
  auto it = contexts->find(device);
  if (it != contexts->end()) {
    out = it->second;
    return Status::success();
  }
  auto ctx = std::make_unique<Context>();
  KDA2RT_TRY(Context::create(device, *ctx));
  out = ctx.get();
  (*contexts)[device] = ctx.release();
  return Status::success();
}

CUdeviceptr devptr(const void *p) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p));
}

Status launchArgsFromC(const char *fn, const char **ptr_names,
                       void *const *ptrs, int nptr, const char **dim_names,
                       const int64_t *dims, int ndim,
                       const char **scalar_names, const double *scalars,
                       int nscalar, LaunchArgs &out) {
  std::string f = fn;
  out = LaunchArgs();
  if (nptr < 0 || ndim < 0 || nscalar < 0)
    return invalid(f + ": negative argument count");
  if ((nptr && (!ptr_names || !ptrs)) || (ndim && (!dim_names || !dims)) ||
      (nscalar && (!scalar_names || !scalars)))
    return invalid(f + ": NULL array with a non-zero count");
  for (int i = 0; i < nptr; ++i) {
    if (!ptr_names[i])
      return invalid(f + ": ptr_names[" + std::to_string(i) + "] is NULL");
    out.ptr(ptr_names[i], static_cast<const void *>(ptrs[i]));
  }
  for (int i = 0; i < ndim; ++i) {
    if (!dim_names[i])
      return invalid(f + ": dim_names[" + std::to_string(i) + "] is NULL");
    out.dim(dim_names[i], dims[i]);
  }
  for (int i = 0; i < nscalar; ++i) {
    if (!scalar_names[i])
      return invalid(f + ": scalar_names[" + std::to_string(i) +
                     "] is NULL");
    out.floatScalar(scalar_names[i], scalars[i]);
  }
  return Status::success();
}

KdaDecodeArgs toKdaDecodeArgs(const kda2rt_kda_decode_args &args) {
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
  a.scale = args.scale;
  a.dtype = args.dtype;
  a.stateLayout = args.state_layout;
  return a;
}

KdaDecodePoolArgs toKdaDecodePoolArgs(const kda2rt_kda_decode_pool_args &args) {
  KdaDecodePoolArgs a;
  a.q = args.q;
  a.k = args.k;
  a.v = args.v;
  a.g = args.g;
  a.beta = args.beta;
  a.cuSeqlens = args.cu_seqlens;
  a.stateIndices = args.state_indices;
  a.hasInitialState = args.has_initial_state;
  a.pool = args.pool;
  a.o = args.o;
  a.n = args.n;
  a.totalTokens = args.total_tokens;
  a.h = args.h;
  a.kDim = args.k_dim;
  a.vDim = args.v_dim;
  a.slots = args.slots;
  a.scale = args.scale;
  a.dtype = args.dtype;
  a.stateDtype = args.state_dtype;
  a.stateLayout = args.state_layout;
  a.indexDtype = args.index_dtype;
  a.qStride = args.q_stride;
  a.kStride = args.k_stride;
  a.vStride = args.v_stride;
  a.gStride = args.g_stride;
  a.betaStride = args.beta_stride;
  return a;
}

KdaDecodeConvArgs toKdaDecodeConvArgs(const kda2rt_kda_decode_conv_args &args) {
  KdaDecodeConvArgs a;
  a.qkv = args.qkv;
  a.convW = args.conv_w;
  a.a = args.a;
  a.b = args.b;
  a.gout = args.gout;
  a.aLog = args.A_log;
  a.dtBias = args.dt_bias;
  a.normW = args.norm_w;
  a.cuSeqlens = args.cu_seqlens;
  a.stateIndices = args.state_indices;
  a.hasInitialState = args.has_initial_state;
  a.convState = args.conv_state;
  a.pool = args.pool;
  a.o = args.o;
  a.n = args.n;
  a.totalTokens = args.total_tokens;
  a.h = args.h;
  a.kDim = args.k_dim;
  a.vDim = args.v_dim;
  a.convWidth = args.conv_width;
  a.slots = args.slots;
  a.qkvStride = args.qkv_stride;
  a.scale = args.scale;
  a.lowerBound = args.lower_bound;
  a.eps = args.eps;
  a.dtype = args.dtype;
  a.stateDtype = args.state_dtype;
  a.stateLayout = args.state_layout;
  a.indexDtype = args.index_dtype;
  return a;
}

KdaDecodeSpecArgs toKdaDecodeSpecArgs(const kda2rt_kda_decode_spec_args &args) {
  KdaDecodeSpecArgs a;
  a.q = args.q;
  a.k = args.k;
  a.v = args.v;
  a.g = args.g;
  a.beta = args.beta;
  a.stateIndices = args.state_indices;
  a.numAccepted = args.num_accepted;
  a.pool = args.pool;
  a.o = args.o;
  a.n = args.n;
  a.t = args.t;
  a.h = args.h;
  a.kDim = args.k_dim;
  a.vDim = args.v_dim;
  a.slots = args.slots;
  a.scale = args.scale;
  a.dtype = args.dtype;
  a.stateDtype = args.state_dtype;
  a.stateLayout = args.state_layout;
  a.writeStates = args.write_states;
  a.indexDtype = args.index_dtype;
  a.qStride = args.q_stride;
  a.kStride = args.k_stride;
  a.vStride = args.v_stride;
  a.gStride = args.g_stride;
  a.betaStride = args.beta_stride;
  return a;
}

KdaPrefillArgs toKdaPrefillArgs(const kda2rt_kda_prefill_args &args) {
  KdaPrefillArgs a;
  a.q = args.q;
  a.k = args.k;
  a.v = args.v;
  a.g = args.g;
  a.beta = args.beta;
  a.cuSeqlens = args.cu_seqlens;
  a.stateIndices = args.state_indices;
  a.hasInitialState = args.has_initial_state;
  a.checkpointBlocks = args.checkpoint_blocks;
  a.pool = args.pool;
  a.ckpt = args.ckpt;
  a.o = args.o;
  a.workspace = args.workspace;
  a.workspaceBytes = args.workspace_bytes;
  a.n = args.n;
  a.totalTokens = args.total_tokens;
  a.maxSeqlen = args.max_seqlen;
  a.h = args.h;
  a.kDim = args.k_dim;
  a.vDim = args.v_dim;
  a.slots = args.slots;
  a.blocks = args.blocks;
  a.scale = args.scale;
  a.dtype = args.dtype;
  a.stateDtype = args.state_dtype;
  a.stateLayout = args.state_layout;
  a.gateLowerBound = args.gate_lower_bound;
  a.indexDtype = args.index_dtype;
  a.qStride = args.q_stride;
  a.kStride = args.k_stride;
  a.vStride = args.v_stride;
  a.gStride = args.g_stride;
  a.betaStride = args.beta_stride;
  a.hqk = args.hqk;
  a.aLog = args.A_log;
  a.dtBias = args.dt_bias;
  a.lowerBound = args.lower_bound;
  a.ckptOffsets = args.ckpt_offsets;
  a.offsetBlocks = args.offset_blocks;
  a.m = args.m;
  a.ckptKernel = args.ckpt_kernel ? &args.ckpt_kernel->kernel : nullptr;
  return a;
}

/// The NULL checks of the prefill entry points: "<fn>: scan_kernel is NULL".
/// out_kernel is NULL with a fused-output scan (isKdaPrefillFusedScan),
/// required with any other (a non-NULL one with a fused scan is refused by
/// the kernel checks, which name it).
Status prefillHandles(const char *fn, kda2rt_kernel prep, kda2rt_kernel scan,
                      kda2rt_kernel out, bool argsGiven) {
  const char *names[] = {"prep_kernel", "scan_kernel", "out_kernel"};
  kda2rt_kernel kernels[] = {prep, scan, out};
  for (int i = 0; i < 3; ++i)
    if (!kernels[i] &&
        !(i == 2 && isKdaPrefillFusedScan(scan->kernel.info())))
      return invalid(std::string(fn) + ": " + names[i] + " is NULL");
  if (!argsGiven)
    return invalid(std::string(fn) + ": args is NULL");
  return Status::success();
}

/// The prefill plan of (prep, scan, out) and the call's checkpoint kernel
/// `ckpt` (out NULL with a fused-output scan), made at the first call that
/// needs it: the last one used
/// without a lock, else found or made under the prep handle's mutex. A
/// call without a checkpoint kernel takes any valid plan of the pair (one
/// made with a checkpoint kernel launches it only for offset
/// checkpoints), so calls with and without offsets share one. Null past
/// kMaxPrefillPlans plans.
const kda2rt_kernel_s::PrefillPlan *prefillPlan(kda2rt_kernel prep,
                                                kda2rt_kernel scan,
                                                kda2rt_kernel out,
                                                kda2rt_kernel ckpt) {
  using Plan = kda2rt_kernel_s::PrefillPlan;
  auto matches = [&](const Plan *p) {
    return p && p->scan == scan && p->scanId == scan->id && p->out == out &&
           (!out || p->outId == out->id) &&
           (ckpt ? p->ckpt == ckpt && p->ckptId == ckpt->id
                 : !p->ckpt || p->plan.valid());
  };
  const Plan *last = prep->prefillLast.load(std::memory_order_acquire);
  if (matches(last))
    return last;
  std::lock_guard<std::mutex> lock(prep->prefillMutex);
  const Plan *found = nullptr;
  for (const std::unique_ptr<Plan> &p : prep->prefillPlans)
    if (matches(p.get()))
      found = p.get();
  if (!found) {
    if (prep->prefillPlans.size() >= kda2rt_kernel_s::kMaxPrefillPlans)
      return nullptr;
    auto p = std::make_unique<Plan>();
    p->scan = scan;
    p->out = out;
    p->ckpt = ckpt;
    p->scanId = scan->id;
    p->outId = out ? out->id : 0;
    p->ckptId = ckpt ? ckpt->id : 0;
    (void)KdaPrefillPlan::create(prep->kernel, scan->kernel,
                                 out ? &out->kernel : nullptr,
                                 ckpt ? &ckpt->kernel : nullptr, p->plan);
    found = p.get();
    prep->prefillPlans.push_back(std::move(p));
  }
  prep->prefillLast.store(found, std::memory_order_release);
  return found;
}

/// The body of a typed entry point (decode, pool, speculative): prepares
/// the kernel's plan at the first call, then launches through it, or
/// through the general path when the metadata does not fit a plan.
template <typename Plan, typename CArgs, typename Args>
int launchTyped(const char *fn, kda2rt_kernel kernel, const CArgs *args,
                std::once_flag kda2rt_kernel_s::*once, Plan kda2rt_kernel_s::*plan,
                Args (*convert)(const CArgs &),
                Status (*general)(const Kernel &, const Args &, CUstream),
                void *stream, char *err, size_t errlen) {
  if (!kernel || !args)
    return finish(invalid(std::string(fn) + ": kernel or args is NULL"), err,
                  errlen);
  Plan &p = kernel->*plan;
  std::call_once(kernel->*once,
                 [&] { (void)Plan::create(kernel->kernel, p); });
  Args a = convert(*args);
  CUstream s = static_cast<CUstream>(stream);
  return finish(p.valid() ? p.launch(a, s) : general(kernel->kernel, a, s),
                err, errlen);
}

/// The body of a typed query: everything the call checks before the
/// driver (the arguments, then the launch configuration: dimensions the
/// kernel needs, grid limits); 1 or 0 with the reason, -1 for NULL.
template <typename CArgs, typename Args>
int queryTyped(const char *fn, kda2rt_kernel kernel, const CArgs *args,
               Args (*convert)(const CArgs &),
               Status (*build)(const KernelInfo &, const Args &, LaunchArgs &),
               char *reason, size_t reasonlen) {
  if (!kernel || !args) {
    (void)finish(invalid(std::string(fn) + ": kernel or args is NULL"),
                 reason, reasonlen);
    return -1;
  }
  // A "no" is an answer, not an error: the last-error slot stays as it is.
  const KernelInfo &info = kernel->kernel.info();
  LaunchArgs launch;
  Status s = build(info, convert(*args), launch);
  LaunchConfig config;
  if (s.ok())
    s = computeLaunchConfig(info, launch, config);
  copyString(s.ok() ? std::string() : s.message(), reason, reasonlen);
  return s.ok() ? 1 : 0;
}
} // namespace kda2::runtime::capi

using namespace kda2::runtime::capi;

extern "C" {

const char *kda2rt_version(void) noexcept {
  return "kda2rt 0.1 (kda2-kernel-v1)";
}

const char *kda2rt_error_name(int code) noexcept {
  switch (code) {
  case KDA2RT_OK:
    return "KDA2RT_OK";
  case KDA2RT_ERROR_INVALID_ARGUMENT:
    return "KDA2RT_ERROR_INVALID_ARGUMENT";
  case KDA2RT_ERROR_NO_DRIVER:
    return "KDA2RT_ERROR_NO_DRIVER";
  case KDA2RT_ERROR_CUDA:
    return "KDA2RT_ERROR_CUDA";
  case KDA2RT_ERROR_METADATA:
    return "KDA2RT_ERROR_METADATA";
  case KDA2RT_ERROR_NOT_FOUND:
    return "KDA2RT_ERROR_NOT_FOUND";
  case KDA2RT_ERROR_IO:
    return "KDA2RT_ERROR_IO";
  case KDA2RT_ERROR_LAUNCH_CONFIG:
    return "KDA2RT_ERROR_LAUNCH_CONFIG";
  default:
    return "KDA2RT_ERROR_UNKNOWN";
  }
}

const char *kda2rt_last_error(void) noexcept { return tLastError.c_str(); }

int kda2rt_metadata_check(const char *text, char *name_out, size_t name_len,
                          char *err, size_t errlen) noexcept {
  if (!text)
    return finish(invalid("kda2rt_metadata_check: text is NULL"), err, errlen);
  KernelInfo info;
  Status s = parseKernelMetadata(text, info);
  if (s.ok())
    copyString(info.name, name_out, name_len);
  return finish(s, err, errlen);
}

int kda2rt_init(int device, char *err, size_t errlen) noexcept {
  const Context *ctx = nullptr;
  Status s = deviceContext(device, ctx);
  if (s.ok())
    s = ctx->makeCurrent();
  return finish(s, err, errlen);
}

int kda2rt_device_count(int *count, char *err, size_t errlen) noexcept {
  if (!count)
    return finish(invalid("kda2rt_device_count: count is NULL"), err, errlen);
  return finish(Context::deviceCount(*count), err, errlen);
}

static int loadModule(int device, const void *image, size_t size,
                      const char *path, kda2rt_module *out, char *err,
                      size_t errlen) {
  if (!out)
    return finish(invalid("module output handle is NULL"), err, errlen);
  *out = nullptr;
  const Context *ctx = nullptr;
  Status s = deviceContext(device, ctx);
  if (!s.ok())
    return finish(s, err, errlen);
  auto m = std::make_unique<kda2rt_module_s>();
  s = path ? Module::loadFile(*ctx, path, m->module)
           : Module::loadData(*ctx, image, size, m->module);
  if (!s.ok())
    return finish(s, err, errlen);
  *out = m.release();
  return finish(s, err, errlen);
}

int kda2rt_module_load_file(int device, const char *path, kda2rt_module *out,
                            char *err, size_t errlen) noexcept {
  if (!path)
    return finish(invalid("kda2rt_module_load_file: path is NULL"), err,
                  errlen);
  return loadModule(device, nullptr, 0, path, out, err, errlen);
}

int kda2rt_module_load_data(int device, const void *image, size_t size,
                            kda2rt_module *out, char *err,
                            size_t errlen) noexcept {
  if (!image || size == 0)
    return finish(invalid("kda2rt_module_load_data: empty image"), err,
                  errlen);
  return loadModule(device, image, size, nullptr, out, err, errlen);
}

int kda2rt_module_unload(kda2rt_module module, char *err,
                         size_t errlen) noexcept {
  if (!module)
    return finish(Status::success(), err, errlen);
  Status s = module->module.unload();
  delete module;
  return finish(s, err, errlen);
}

int kda2rt_module_num_kernels(kda2rt_module module) noexcept {
  return module ? static_cast<int>(module->module.kernelNames().size()) : 0;
}

const char *kda2rt_module_kernel_name(kda2rt_module module,
                                      int index) noexcept {
  if (!module || index < 0 ||
      static_cast<size_t>(index) >= module->module.kernelNames().size())
    return nullptr;
  return module->module.kernelNames()[index].c_str();
}

int kda2rt_kernel_get(kda2rt_module module, const char *name,
                      kda2rt_kernel *out, char *err, size_t errlen) noexcept {
  if (!out)
    return finish(invalid("kernel output handle is NULL"), err, errlen);
  *out = nullptr;
  if (!module || !name)
    return finish(invalid("kda2rt_kernel_get: module or name is NULL"), err,
                  errlen);
  std::lock_guard<std::mutex> lock(module->mutex);
  auto it = module->kernels.find(name);
  if (it != module->kernels.end()) {
    *out = it->second.get();
    return finish(Status::success(), err, errlen);
  }
  auto k = std::make_unique<kda2rt_kernel_s>();
  Status s = module->module.getKernel(name, k->kernel);
  if (!s.ok())
    return finish(s, err, errlen);
  *out = k.get();
  module->kernels.emplace(name, std::move(k));
  return finish(s, err, errlen);
}

const char *kda2rt_kernel_metadata(kda2rt_kernel kernel) noexcept {
  return kernel ? kernel->kernel.metadataText().c_str() : nullptr;
}

int kda2rt_kernel_num_counters(kda2rt_kernel kernel) noexcept {
  return kernel ? static_cast<int>(kernel->kernel.info().counters.size()) : 0;
}

const char *kda2rt_kernel_counter_name(kda2rt_kernel kernel,
                                       int index) noexcept {
  if (!kernel || index < 0 ||
      static_cast<size_t>(index) >= kernel->kernel.info().counters.size())
    return nullptr;
  return kernel->kernel.info().counters[index].name.c_str();
}

int kda2rt_kernel_counter_is_float(kda2rt_kernel kernel, int index) noexcept {
  if (!kernel || index < 0 ||
      static_cast<size_t>(index) >= kernel->kernel.info().counters.size())
    return -1;
  return kernel->kernel.info().counters[index].isFloat ? 1 : 0;
}

int kda2rt_kernel_binding(kda2rt_kernel kernel, const char *name,
                          int64_t *value) noexcept {
  if (!kernel || !name || !value) {
    finish(invalid("kda2rt_kernel_binding: kernel, name or value is NULL"),
           nullptr, 0);
    return -KDA2RT_ERROR_INVALID_ARGUMENT;
  }
  std::optional<int64_t> bound = kernel->kernel.info().binding(name);
  if (!bound)
    return 0;
  *value = *bound;
  return 1;
}

int kda2rt_launch(kda2rt_kernel kernel, const char **ptr_names,
                  void *const *ptrs, int nptr, const char **dim_names,
                  const int64_t *dims, int ndim, const char **scalar_names,
                  const double *scalars, int nscalar, void *stream, char *err,
                  size_t errlen) noexcept {
  if (!kernel)
    return finish(invalid("kda2rt_launch: kernel is NULL"), err, errlen);
  LaunchArgs args;
  Status s = launchArgsFromC("kda2rt_launch", ptr_names, ptrs, nptr,
                             dim_names, dims, ndim, scalar_names, scalars,
                             nscalar, args);
  if (s.ok())
    s = kernel->kernel.launch(args, static_cast<CUstream>(stream));
  return finish(s, err, errlen);
}

int kda2rt_kda_decode(kda2rt_kernel kernel, const kda2rt_kda_decode_args *args,
                      void *stream, char *err, size_t errlen) noexcept {
  return launchTyped("kda2rt_kda_decode", kernel, args,
                     &kda2rt_kernel_s::planOnce, &kda2rt_kernel_s::plan,
                     toKdaDecodeArgs, launchKdaDecode, stream, err, errlen);
}

int kda2rt_kda_decode_query(kda2rt_kernel kernel,
                            const kda2rt_kda_decode_args *args, char *reason,
                            size_t reasonlen) noexcept {
  return queryTyped("kda2rt_kda_decode_query", kernel, args, toKdaDecodeArgs,
                    kdaDecodeLaunchArgs, reason, reasonlen);
}

int kda2rt_kda_decode_pool(kda2rt_kernel kernel,
                           const kda2rt_kda_decode_pool_args *args,
                           void *stream, char *err, size_t errlen) noexcept {
  return launchTyped("kda2rt_kda_decode_pool", kernel, args,
                     &kda2rt_kernel_s::poolPlanOnce,
                     &kda2rt_kernel_s::poolPlan, toKdaDecodePoolArgs,
                     launchKdaDecodePool, stream, err, errlen);
}

int kda2rt_kda_decode_pool_query(kda2rt_kernel kernel,
                                 const kda2rt_kda_decode_pool_args *args,
                                 char *reason, size_t reasonlen) noexcept {
  return queryTyped("kda2rt_kda_decode_pool_query", kernel, args,
                    toKdaDecodePoolArgs, kdaDecodePoolLaunchArgs, reason,
                    reasonlen);
}

int kda2rt_kda_decode_conv(kda2rt_kernel kernel,
                           const kda2rt_kda_decode_conv_args *args,
                           void *stream, char *err, size_t errlen) noexcept {
  return launchTyped("kda2rt_kda_decode_conv", kernel, args,
                     &kda2rt_kernel_s::convPlanOnce,
                     &kda2rt_kernel_s::convPlan, toKdaDecodeConvArgs,
                     launchKdaDecodeConv, stream, err, errlen);
}

int kda2rt_kda_decode_conv_query(kda2rt_kernel kernel,
                                 const kda2rt_kda_decode_conv_args *args,
                                 char *reason, size_t reasonlen) noexcept {
  return queryTyped("kda2rt_kda_decode_conv_query", kernel, args,
                    toKdaDecodeConvArgs, kdaDecodeConvLaunchArgs, reason,
                    reasonlen);
}

int kda2rt_kda_decode_spec(kda2rt_kernel kernel,
                           const kda2rt_kda_decode_spec_args *args,
                           void *stream, char *err, size_t errlen) noexcept {
  return launchTyped("kda2rt_kda_decode_spec", kernel, args,
                     &kda2rt_kernel_s::specPlanOnce,
                     &kda2rt_kernel_s::specPlan, toKdaDecodeSpecArgs,
                     launchKdaDecodeSpec, stream, err, errlen);
}

int kda2rt_kda_decode_spec_query(kda2rt_kernel kernel,
                                 const kda2rt_kda_decode_spec_args *args,
                                 char *reason, size_t reasonlen) noexcept {
  return queryTyped("kda2rt_kda_decode_spec_query", kernel, args,
                    toKdaDecodeSpecArgs, kdaDecodeSpecLaunchArgs, reason,
                    reasonlen);
}

/// The body of both workspace size functions (`fn` names the caller).
static int prefillWorkspaceSize(const char *fn, kda2rt_kernel prep_kernel,
                                kda2rt_kernel scan_kernel,
                                kda2rt_kernel out_kernel, int64_t n_max,
                                int64_t max_total_tokens, int64_t h,
                                int64_t m_max, size_t *bytes, char *err,
                                size_t errlen) {
  Status s = prefillHandles(fn, prep_kernel, scan_kernel, out_kernel, true);
  if (s.ok() && !bytes)
    s = invalid(std::string(fn) + ": bytes is NULL");
  KdaPrefillWorkspace ws;
  if (s.ok())
    s = kdaPrefillWorkspace(
        prep_kernel->kernel.info(), scan_kernel->kernel.info(),
        out_kernel ? &out_kernel->kernel.info() : nullptr, n_max,
        max_total_tokens, h, m_max, ws);
  if (s.ok() && ws.bytes > SIZE_MAX)
    s = invalid(std::string(fn) + ": the workspace does not fit size_t");
  if (s.ok())
    *bytes = static_cast<size_t>(ws.bytes);
  return finish(s, err, errlen);
}

int kda2rt_kda_prefill_workspace_size(kda2rt_kernel prep_kernel,
                                      kda2rt_kernel scan_kernel,
                                      kda2rt_kernel out_kernel, int64_t n_max,
                                      int64_t max_total_tokens, int64_t h,
                                      size_t *bytes, char *err,
                                      size_t errlen) noexcept {
  return prefillWorkspaceSize("kda2rt_kda_prefill_workspace_size", prep_kernel,
                              scan_kernel, out_kernel, n_max, max_total_tokens,
                              h, 0, bytes, err, errlen);
}

int kda2rt_kda_prefill_workspace_size_offsets(
    kda2rt_kernel prep_kernel, kda2rt_kernel scan_kernel,
    kda2rt_kernel out_kernel, int64_t n_max, int64_t max_total_tokens,
    int64_t h, int64_t m_max, size_t *bytes, char *err,
    size_t errlen) noexcept {
  return prefillWorkspaceSize("kda2rt_kda_prefill_workspace_size_offsets",
                              prep_kernel, scan_kernel, out_kernel, n_max,
                              max_total_tokens, h, m_max, bytes, err, errlen);
}

int kda2rt_kda_prefill(kda2rt_kernel prep_kernel, kda2rt_kernel scan_kernel,
                       kda2rt_kernel out_kernel,
                       const kda2rt_kda_prefill_args *args, void *stream,
                       char *err, size_t errlen) noexcept {
  Status s = prefillHandles("kda2rt_kda_prefill", prep_kernel, scan_kernel,
                            out_kernel, args != nullptr);
  if (!s.ok())
    return finish(s, err, errlen);
  const KdaPrefillArgs a = toKdaPrefillArgs(*args);
  CUstream cs = static_cast<CUstream>(stream);
  const kda2rt_kernel_s::PrefillPlan *plan =
      prefillPlan(prep_kernel, scan_kernel, out_kernel, args->ckpt_kernel);
  return finish(plan && plan->plan.valid()
                    ? plan->plan.launch(a, cs)
                    : launchKdaPrefill(prep_kernel->kernel,
                                       scan_kernel->kernel,
                                       out_kernel ? &out_kernel->kernel
                                                  : nullptr,
                                       a, cs),
                err, errlen);
}

int kda2rt_kda_prefill_query(kda2rt_kernel prep_kernel,
                             kda2rt_kernel scan_kernel,
                             kda2rt_kernel out_kernel,
                             const kda2rt_kda_prefill_args *args, char *reason,
                             size_t reasonlen) noexcept {
  Status s = prefillHandles("kda2rt_kda_prefill_query", prep_kernel,
                            scan_kernel, out_kernel, args != nullptr);
  if (!s.ok()) {
    (void)finish(s, reason, reasonlen);
    return -1;
  }
  // A "no" is an answer, not an error: the last-error slot stays as it is.
  KdaPrefillLaunch launch;
  s = prepareKdaPrefill(prep_kernel->kernel, scan_kernel->kernel,
                        out_kernel ? &out_kernel->kernel : nullptr,
                        toKdaPrefillArgs(*args), launch);
  copyString(s.ok() ? std::string() : s.message(), reason, reasonlen);
  return s.ok() ? 1 : 0;
}

int kda2rt_read_counters(kda2rt_kernel kernel, const void *counters,
                         double *values, int64_t *raw, int capacity,
                         char *err, size_t errlen) noexcept {
  if (!kernel)
    return finish(invalid("kda2rt_read_counters: kernel is NULL"), err,
                  errlen);
  size_t n = kernel->kernel.info().counters.size();
  if (capacity < 0 || static_cast<size_t>(capacity) < n)
    return finish(invalid("kda2rt_read_counters: capacity " +
                          std::to_string(capacity) + " < " +
                          std::to_string(n) + " counter(s) of kernel '" +
                          kernel->kernel.name() + "'"),
                  err, errlen);
  std::vector<CounterValue> out;
  Status s = kernel->kernel.readCounters(devptr(counters), out);
  if (!s.ok())
    return finish(s, err, errlen);
  for (size_t i = 0; i < out.size(); ++i) {
    if (values)
      values[i] = out[i].asDouble();
    if (raw)
      raw[i] = out[i].asInt();
  }
  return finish(s, err, errlen);
}

int kda2rt_mem_alloc(int device, size_t bytes, void **out, char *err,
                     size_t errlen) noexcept {
  if (!out)
    return finish(invalid("kda2rt_mem_alloc: out is NULL"), err, errlen);
  *out = nullptr;
  const Context *ctx = nullptr;
  Status s = deviceContext(device, ctx);
  CUdeviceptr p = 0;
  if (s.ok())
    s = ctx->allocate(bytes, p);
  if (s.ok())
    *out = reinterpret_cast<void *>(static_cast<uintptr_t>(p));
  return finish(s, err, errlen);
}

int kda2rt_mem_free(int device, void *ptr, char *err, size_t errlen) noexcept {
  if (!ptr)
    return finish(Status::success(), err, errlen);
  const Context *ctx = nullptr;
  Status s = deviceContext(device, ctx);
  if (s.ok())
    s = ctx->free(devptr(ptr));
  return finish(s, err, errlen);
}

int kda2rt_memcpy_htod(int device, void *dst, const void *src, size_t bytes,
                       char *err, size_t errlen) noexcept {
  if (bytes && (!dst || !src))
    return finish(invalid("kda2rt_memcpy_htod: NULL pointer"), err, errlen);
  const Context *ctx = nullptr;
  Status s = deviceContext(device, ctx);
  if (s.ok())
    s = ctx->copyToDevice(devptr(dst), src, bytes);
  return finish(s, err, errlen);
}

int kda2rt_memcpy_dtoh(int device, void *dst, const void *src, size_t bytes,
                       char *err, size_t errlen) noexcept {
  if (bytes && (!dst || !src))
    return finish(invalid("kda2rt_memcpy_dtoh: NULL pointer"), err, errlen);
  const Context *ctx = nullptr;
  Status s = deviceContext(device, ctx);
  if (s.ok())
    s = ctx->copyToHost(dst, devptr(src), bytes);
  return finish(s, err, errlen);
}

int kda2rt_stream_synchronize(int device, void *stream, char *err,
                              size_t errlen) noexcept {
  const Context *ctx = nullptr;
  Status s = deviceContext(device, ctx);
  if (s.ok())
    s = ctx->synchronize(static_cast<CUstream>(stream));
  return finish(s, err, errlen);
}

} // extern "C"
