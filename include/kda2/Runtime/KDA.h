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

/// A decode launch prepared once per kernel, for the per-token hot path.
/// create() does the checks that depend only on the metadata (the decode
/// arguments exist, head dimensions, element type) and resolves every
/// kernel parameter and grid term to a field of KdaDecodeArgs; launch() then
/// checks only the call's values (the same errors as checkKdaDecode, which
/// builds the message when one fails), fills the parameter slots on the
/// stack and calls cuLaunchKernel: no allocation, no lookup by name.
/// Kernels whose metadata the plan cannot express (other parameters or
/// dimensions, tensor maps, more than kMaxParams parameters) are rejected by
/// create() with a message; use launchKdaDecode for them.
class KDA2RT_API KdaDecodePlan {
public:
  static constexpr size_t kMaxParams = 32;

  static Status create(const Kernel &kernel, KdaDecodePlan &out);
  bool valid() const { return kernel_ != nullptr; }
  const Kernel *kernel() const { return kernel_; }
  /// Checks `args` and launches on `stream`; `counters` is passed as the
  /// kernel's counters buffer when it declares one (an error if it does and
  /// `counters` is 0).
  Status launch(const KdaDecodeArgs &args, CUstream stream,
                CUdeviceptr counters = 0) const;

  /// Where a parameter or a grid size comes from.
  enum class Source : uint8_t {
    Q, K, V, G, Beta, H0, O, Ht, N, T, H, Scale, Counters, Constant
  };

private:
  struct GridTerm {
    Source source = Source::Constant;
    int64_t constant = 1;
  };
  const Kernel *kernel_ = nullptr;
  Source params_[kMaxParams] = {};
  bool paramIsF32_[kMaxParams] = {};
  size_t numParams_ = 0;
  GridTerm gridX_[kMaxParams] = {};
  size_t numGridX_ = 0;
  Source gridY_[kMaxParams] = {};
  size_t numGridY_ = 0;
  int64_t kDim_ = 0, vDim_ = 0;
  DType dtype_ = DType::BF16;
  /// The `variant <dim> <size>` copies: the dimension, size and function.
  Source variantDim_[kMaxParams] = {};
  int64_t variantSize_[kMaxParams] = {};
  CUfunction variantFunc_[kMaxParams] = {};
  size_t numVariants_ = 0;
};

} // namespace kda2::runtime

#endif // KDA2_RUNTIME_KDA_H
