//===- KDA.h - Kimi Delta Attention entry points of libkda2rt ---*- C++ -*-===//
//
// Typed entry points for the KDA kernels kda2 generates (templates/): the
// argument checks an engine needs before a launch (head dimensions the
// kernel was compiled for, null and misaligned pointers, sizes) and the
// launch itself. Plain C++17; the C ABI is in kda2rt.h.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_RUNTIME_KDA_H
#define KDA2_RUNTIME_KDA_H

#include "kda2/Runtime/Module.h"

namespace kda2::runtime {

/// Arguments of one KDA decode call (fused_recurrent_kda contract):
/// q, k, g [n, t, h, K]; v, o [n, t, h, V]; beta [n, t, h]; h0, ht
/// [n, h, K, V] fp32 (or [n, h, V, K] for a V-first kernel). All tensors are
/// contiguous device buffers; inputs are never written.
struct KdaDecodeArgs {
  const void *q = nullptr, *k = nullptr, *v = nullptr, *g = nullptr;
  const void *beta = nullptr, *h0 = nullptr;
  void *o = nullptr, *ht = nullptr;
  int64_t n = 0, t = 0, h = 0, kDim = 0, vDim = 0;
  /// Softmax-free attention scale; <= 0 selects K^-1/2.
  double scale = 0;
  /// Element type of q, k, v and o ("bf16" or "f16"); it must be the one
  /// the kernel was compiled for (null: "bf16").
  const char *dtype = nullptr;
};

/// Head dimensions the decode templates are built for.
inline constexpr int64_t kKdaHeadDims[] = {64, 128, 256};

/// Checks `args` against a decode kernel's metadata without touching the
/// GPU: supported and matching head dimensions, the input element type,
/// positive sizes, non-null and
/// 16-byte aligned pointers (the kernel uses 128-bit accesses). Errors name
/// the argument.
KDA2RT_API Status checkKdaDecode(const KernelInfo &info,
                                 const KdaDecodeArgs &args);

/// Checks `args` (checkKdaDecode) and builds the kernel arguments.
KDA2RT_API Status kdaDecodeLaunchArgs(const KernelInfo &info,
                                      const KdaDecodeArgs &args,
                                      LaunchArgs &out);

/// Checks and launches a decode kernel on `stream`.
KDA2RT_API Status launchKdaDecode(const Kernel &kernel,
                                  const KdaDecodeArgs &args,
                                  CUstream stream);

} // namespace kda2::runtime

#endif // KDA2_RUNTIME_KDA_H
