//===- CApiSupport.h - helpers shared by the C ABI files --------*- C++ -*-===//
//
// Internal to libkda2rt (not installed): how the C entry points report a
// Status and find the process-wide device contexts.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_LIB_RUNTIME_CAPISUPPORT_H
#define KDA2_LIB_RUNTIME_CAPISUPPORT_H

#include "kda2/Runtime/KDA.h"

#include <mutex>
#include <string>

/// A kernel handle: a copy of the Kernel (valid while its module is loaded)
/// and the prepared launches of the typed entry points (each made by the
/// first call of its entry point; invalid when the metadata does not fit
/// it, and the entry point then takes the general path).
struct kda2rt_kernel_s {
  kda2::runtime::Kernel kernel;
  std::once_flag planOnce, poolPlanOnce, specPlanOnce;
  kda2::runtime::KdaDecodePlan plan;
  kda2::runtime::KdaDecodePoolPlan poolPlan;
  kda2::runtime::KdaDecodeSpecPlan specPlan;
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
KdaDecodeSpecArgs toKdaDecodeSpecArgs(const kda2rt_kda_decode_spec_args &args);
KdaPrefillArgs toKdaPrefillArgs(const kda2rt_kda_prefill_args &args);

} // namespace kda2::runtime::capi

#endif // KDA2_LIB_RUNTIME_CAPISUPPORT_H
