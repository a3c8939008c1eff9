//===- CApiSupport.h - helpers shared by the C ABI files --------*- C++ -*-===//
//
// Internal to libkda2rt (not installed): how the C entry points report a
// Status and find the process-wide device contexts.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_LIB_RUNTIME_CAPISUPPORT_H
#define KDA2_LIB_RUNTIME_CAPISUPPORT_H

#include "kda2/Runtime/KDA.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kda2::runtime::capi {
/// A number no other kernel handle of the process has (nor had).
inline uint64_t nextKernelHandleId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}
} // namespace kda2::runtime::capi

/// A kernel handle: a copy of the Kernel (valid while its module is loaded)
/// and the prepared launches of the typed entry points (each made by the
/// first call of its entry point; invalid when the metadata does not fit
/// it, and the entry point then takes the general path).
struct kda2rt_kernel_s {
  kda2::runtime::Kernel kernel;
  std::once_flag planOnce, poolPlanOnce, specPlanOnce, convPlanOnce;
  kda2::runtime::KdaDecodePlan plan;
  kda2::runtime::KdaDecodePoolPlan poolPlan;
  kda2::runtime::KdaDecodeConvPlan convPlan;
  kda2::runtime::KdaDecodeSpecPlan specPlan;

  /// Identifies the handle in the prefill plans of other handles (an
  /// address can be reused after its module is unloaded; an id is not).
  const uint64_t id = kda2::runtime::capi::nextKernelHandleId();
  /// The prefill plans of the calls with this kernel as prep_kernel, one
  /// per (scan_kernel, out_kernel, ckpt_kernel) of handles (out_kernel
  /// NULL with a fused-output scan), made by the
  /// first kda2rt_kda_prefill that needs it (invalid plan: those calls take
  /// the general path; a call without ckpt_kernel takes any valid plan of
  /// its pair). Immutable once published and freed only with this handle,
  /// so a plan in use on another thread stays valid; at most
  /// kMaxPrefillPlans (later ones take the general path, unprepared).
  struct PrefillPlan {
    const kda2rt_kernel_s *scan = nullptr, *out = nullptr, *ckpt = nullptr;
    uint64_t scanId = 0, outId = 0, ckptId = 0;
    kda2::runtime::KdaPrefillPlan plan;
  };
  static constexpr size_t kMaxPrefillPlans = 16;
  std::mutex prefillMutex; // guards prefillPlans
  std::vector<std::unique_ptr<PrefillPlan>> prefillPlans;
  /// The last plan used (lock-free lookup of the common case: one pair).
  std::atomic<const PrefillPlan *> prefillLast{nullptr};
};

namespace kda2::runtime::capi {

/// Copies `s` into buf[0..len) (truncated, NUL-terminated; buf may be NULL).
void copyString(const std::string &s, char *buf, size_t len);
/// Records a failure as the thread's last error, writes the message to
/// `err` (or clears it on success) and returns the C error code.
int finish(const Status &s, char *err, size_t errlen);
Status invalid(const std::string &msg);
/// The retained primary context of `device`, created on first use and kept
/// for the life of the process.
Status deviceContext(int device, const Context *&out);
CUdeviceptr devptr(const void *p);
/// Builds LaunchArgs from the C arrays of kda2rt_launch; errors start with
/// `fn`.
Status launchArgsFromC(const char *fn, const char **ptr_names,
                       void *const *ptrs, int nptr, const char **dim_names,
                       const int64_t *dims, int ndim,
                       const char **scalar_names, const double *scalars,
                       int nscalar, LaunchArgs &out);
KdaDecodeArgs toKdaDecodeArgs(const kda2rt_kda_decode_args &args);
KdaDecodePoolArgs toKdaDecodePoolArgs(const kda2rt_kda_decode_pool_args &args);
KdaDecodeConvArgs toKdaDecodeConvArgs(const kda2rt_kda_decode_conv_args &args);
KdaDecodeSpecArgs toKdaDecodeSpecArgs(const kda2rt_kda_decode_spec_args &args);
KdaPrefillArgs toKdaPrefillArgs(const kda2rt_kda_prefill_args &args);

} // namespace kda2::runtime::capi

#endif // KDA2_LIB_RUNTIME_CAPISUPPORT_H
