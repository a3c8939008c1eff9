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
/// [n, h, K, V] fp32 (state_layout "kv") or [n, h, V, K] ("vk"). All tensors
/// are contiguous device buffers; inputs are never written.
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
  /// Required: the layout of h0/ht, "kv" (K-major [.., K, V]) or "vk"
  /// (V-major [.., V, K]); it must be the one the kernel's metadata declares
  /// (its `state` lines), also when K == V.
  const char *stateLayout = nullptr;
};

/// Arguments of one decode call through an indexed, in-place state pool
/// (templates/kda_decode_pool.tirx; vLLM's and SGLang's SSM state cache).
/// A packed batch of n sequences with total_tokens tokens: q, k, g
/// [total_tokens, h, K]; v, o [total_tokens, h, V]; beta [total_tokens, h];
/// cu_seqlens [n + 1] int32 token boundaries (read on the device only);
/// state_indices [n] int32, the pool slot of each sequence (outside
/// [0, slots): padding, o rows zeroed, pool untouched); has_initial_state
/// [n] int32 (0: start from a zero state); pool [slots, h, K, V]
/// (stateLayout "kv") or [slots, h, V, K] ("vk") of stateDtype, read and
/// written in place. docs/Runtime.md has the full contract.
struct KdaDecodePoolArgs {
  const void *q = nullptr, *k = nullptr, *v = nullptr, *g = nullptr;
  const void *beta = nullptr;
  const void *cuSeqlens = nullptr, *stateIndices = nullptr;
  const void *hasInitialState = nullptr;
  void *pool = nullptr;
  void *o = nullptr;
  int64_t n = 0, totalTokens = 0, h = 0, kDim = 0, vDim = 0, slots = 0;
  /// Attention scale; 0 selects K^-1/2.
  double scale = 0;
  /// Element type of q, k, v and o ("bf16" or "f16"; null: "bf16").
  const char *dtype = nullptr;
  /// Element type of the pool ("f32" or "bf16"; null: "f32"). The
  /// recurrence always accumulates in fp32.
  const char *stateDtype = nullptr;
  /// Required: "kv" or "vk", the layout the kernel's `state pool` line
  /// declares.
  const char *stateLayout = nullptr;
};

/// Head dimensions the decode templates are built for.
inline constexpr int64_t kKdaHeadDims[] = {64, 128, 256};

/// Checks that `layout` (a call's state_layout: "kv" or "vk") names the
/// layout kernel `info` declares for its state argument `arg` (its `state`
/// line). Errors name state_layout, or the kernel and the argument.
KDA2RT_API Status checkStateLayout(const KernelInfo &info, const char *arg,
                                   const char *layout);

/// Checks `args` against a decode kernel's metadata without touching the
/// GPU: supported and matching head dimensions, the input element type,
/// the state layout (against the kernel's `state` lines), positive sizes,
/// non-null and
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

/// Checks `args` against a pool decode kernel's metadata (the arguments of
/// templates/kda_decode_pool.tirx) without touching the GPU: head
/// dimensions, dtype and state_dtype, state layout, sizes, scale, NULL and
/// misaligned pointers (16 bytes for the tensors, 4 for the int32 arrays)
/// and overlaps of the written operands (pool, o) with any other. Errors
/// name the argument.
KDA2RT_API Status checkKdaDecodePool(const KernelInfo &info,
                                     const KdaDecodePoolArgs &args);

/// Checks `args` (checkKdaDecodePool) and builds the kernel arguments: the
/// pointers, scale (0 resolved to K^-1/2) and the sizes of the dimensions
/// the kernel names among tt (total_tokens), h, n, np1 (n + 1) and slots.
KDA2RT_API Status kdaDecodePoolLaunchArgs(const KernelInfo &info,
                                          const KdaDecodePoolArgs &args,
                                          LaunchArgs &out);

/// Checks and launches a pool decode kernel on `stream` (asynchronous: no
/// host synchronisation, no device allocation).
KDA2RT_API Status launchKdaDecodePool(const Kernel &kernel,
                                      const KdaDecodePoolArgs &args,
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
  StateOrder stateLayout_ = StateOrder::None;
  /// The `variant <dim> <size>` copies: the dimension, size and function.
  Source variantDim_[kMaxParams] = {};
  int64_t variantSize_[kMaxParams] = {};
  CUfunction variantFunc_[kMaxParams] = {};
  size_t numVariants_ = 0;
};

} // namespace kda2::runtime

#endif // KDA2_RUNTIME_KDA_H
