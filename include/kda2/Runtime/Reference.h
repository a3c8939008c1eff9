//===- Reference.h - CPU reference of the KDA decode kernels ----*- C++ -*-===//
//
// Part of libkda2rt. A float64 CPU implementation of the KDA decode
// recurrence (flash-linear-attention's fused_recurrent_kda contract, the
// math of templates/kda_decode*.tirx) for the h0/ht decode, the decode
// through an indexed state pool and the speculative decode through the
// pool (docs/Runtime.md, the serving contract), deterministic random inputs and
// element conversions, so that programs driving the decode kernels
// (kda2-perf, kda2-bundle-decode, an engine's own tests) check the GPU's
// results against one shared definition. No GPU involved.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_RUNTIME_REFERENCE_H
#define KDA2_RUNTIME_REFERENCE_H

#include "kda2/Runtime/CudaDriver.h"
#include "kda2/Runtime/kda2rt.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kda2::runtime::reference {

/// float -> bfloat16 bits (round to nearest even) and back.
KDA2RT_API uint16_t toBf16(float value);
KDA2RT_API float fromBf16(uint16_t bits);
/// float -> IEEE half bits (round to nearest even, overflow to inf) and back.
KDA2RT_API uint16_t toF16(float value);
KDA2RT_API float fromF16(uint16_t bits);

/// Deterministic pseudo-random numbers (splitmix64): the same seed gives the
/// same sequence on every machine.
struct KDA2RT_API Random {
  uint64_t state = 0;
  /// Uniform in [lo, hi).
  double next(double lo, double hi);
  /// Uniform in [lo, hi), with values closer to zero than 1e-3 * (hi - lo)
  /// moved away from it: a zero input would hide a kernel that ignores it.
  double nonZero(double lo, double hi);
};

/// One KDA decode problem held on the host. Layouts (the kernels'):
/// q, k, g [n, t, h, kDim]; v, o [n, t, h, vDim]; beta [n, t, h]; states
/// [n, h, kDim, vDim] (K-first) or [n, h, vDim, kDim] when vFirst.
struct KDA2RT_API KdaDecodeProblem {
  int64_t n = 0, t = 0, h = 0, kDim = 0, vDim = 0;
  /// q, k, v and o are f16 (true) or bf16 (false).
  bool f16 = false;
  /// The state layout of the kernel ([n, h, V, K] when true).
  bool vFirst = false;
  /// Encoded q, k, v (bf16 or f16 bits).
  std::vector<uint16_t> q, k, v;
  /// g (log decay) and beta, fp32.
  std::vector<float> g, beta;
  /// The initial state h0, fp32.
  std::vector<float> h0;

  size_t qkElements() const;
  size_t vElements() const;
  size_t stateElements() const;
  /// The value an encoded q/k/v/o element stands for.
  float decode(uint16_t bits) const;
};

/// Sizes the buffers of `p` from its dimensions and fills them with
/// non-zero random values: q in ±[0, 1), k in ±[0, 1) / sqrt(K), v in
/// ±[0, 1), g in [-0.1, 0), beta in [0.1, 0.9), h0 in ±[0, 0.1) (zero when
/// `zeroState`).
KDA2RT_API void fillKdaDecodeProblem(Random &rng, KdaDecodeProblem &p,
                                     bool zeroState = false);

/// Runs the recurrence over the t tokens of every (sequence, head), in
/// float64: for each token
///   S = (I - beta k k^T) diag(exp(g)) S + beta k v^T,   o = scale * S^T q
/// `state` holds the initial state on entry (p.stateElements() values in
/// the kernel's layout; resized and filled from p.h0 when empty) and the
/// final state on return; `o` receives [n, t, h, vDim]. scale <= 0 selects
/// kDim^-1/2.
KDA2RT_API void kdaDecodeReference(const KdaDecodeProblem &p, double scale,
                                   std::vector<double> &state,
                                   std::vector<double> &o);

/// A state pool held on the host as the pool kernels store it: `slots`
/// states of h matrices, [slots, h, K, V] (K-major) or [slots, h, V, K]
/// (vFirst), in f32 or bf16 elements.
struct KDA2RT_API KdaStatePool {
  int64_t slots = 0, h = 0, kDim = 0, vDim = 0;
  bool vFirst = false;
  /// Storage type: bf16 (`bf16Bits`) or f32 (`f32`).
  bool bf16 = false;
  std::vector<float> f32;
  std::vector<uint16_t> bf16Bits;

  /// Sizes the storage (zeros) from the dimensions.
  void allocate();
  size_t elements() const;
  /// Element (kk, vv) of head `head` of `slot`, as a double.
  double get(int64_t slot, int64_t head, int64_t kk, int64_t vv) const;
  /// Stores `x` there, rounded to the storage type (f32: to nearest; bf16:
  /// toBf16 of the f32 value).
  void set(int64_t slot, int64_t head, int64_t kk, int64_t vv, double x);
  /// Offset of element (kk, vv) of (slot, head) in the storage.
  size_t offset(int64_t slot, int64_t head, int64_t kk, int64_t vv) const;
};

/// The per-token inputs of the pool kernels, packed by token: q, k, g
/// [tokens, h, kDim]; v [tokens, h, vDim]; beta [tokens, h].
struct KDA2RT_API KdaTokenInputs {
  int64_t h = 0, kDim = 0, vDim = 0;
  /// q, k, v and o are f16 (true) or bf16 (false).
  bool f16 = false;
  std::vector<uint16_t> q, k, v;
  std::vector<float> g, beta;
  float decode(uint16_t bits) const;
};

/// A decode call through an indexed pool (kda2rt_kda_decode_pool): n
/// sequences over totalTokens packed tokens; sequence i owns tokens
/// cuSeqlens[i] .. cuSeqlens[i+1]-1 and slot stateIndices[i]
/// (hasInitialState[i] == 0: start from zeros).
struct KDA2RT_API KdaPoolDecodeProblem : KdaTokenInputs {
  int64_t n = 0, totalTokens = 0;
  std::vector<int32_t> cuSeqlens, stateIndices, hasInitialState;
};

/// A speculative decode call through the pool (kda2rt_kda_decode_spec): n
/// sequences of t tokens (tokens seq * t .. seq * t + t - 1);
/// stateIndices [n, t], numAccepted [n].
struct KDA2RT_API KdaSpecDecodeProblem : KdaTokenInputs {
  int64_t n = 0, t = 0;
  std::vector<int32_t> stateIndices, numAccepted;
};

/// The semantics of templates/kda_decode_pool.tirx on the host: for each
/// sequence whose slot is in [0, slots), the state starts from pool[slot]
/// (hasInitialState != 0) or zeros, runs its tokens (float64; the kernels
/// accumulate in fp32) and is stored back to pool[slot], rounded to the
/// pool's storage type (an empty sequence stores its initial state back);
/// a padding sequence (slot outside [0, slots)) leaves its o rows zero and
/// the pool untouched. `o` receives [totalTokens, h, vDim]; rows of tokens
/// no sequence covers stay zero (the kernel does not write them).
/// Sequences run in order (two live sequences sharing a slot are undefined
/// behaviour on the GPU). Errors: sizes of the arrays, cu_seqlens not
/// non-decreasing within [0, totalTokens], a pool of other dimensions.
/// scale <= 0 selects kDim^-1/2.
KDA2RT_API Status kdaDecodePoolReference(const KdaPoolDecodeProblem &p,
                                         double scale, KdaStatePool &pool,
                                         std::vector<double> &o);

/// The semantics of templates/kda_decode_spec.tirx on the host: a sequence
/// with stateIndices[seq, 0] < 0 is padding (o rows zero, pool untouched);
/// otherwise the state starts from pool[stateIndices[seq, a - 1]], a =
/// numAccepted[seq], when a > 0 and that slot is in [0, slots), else from
/// zeros, and the state after token i (unrounded in the recurrence) is
/// stored, rounded, to pool[stateIndices[seq, i]] when that slot is in
/// [0, slots). `o` receives [n, t, h, vDim]. Errors: sizes of the arrays,
/// numAccepted outside [0, t] (the kernel reads stateIndices[seq, a - 1]),
/// t outside [1, 16], a pool of other dimensions. scale <= 0 selects
/// kDim^-1/2.
KDA2RT_API Status kdaDecodeSpecReference(const KdaSpecDecodeProblem &p,
                                         double scale, KdaStatePool &pool,
                                         std::vector<double> &o);

/// ||got - want||_2 / ||want||_2 over `count` values; +inf when `got` holds
/// a NaN or an infinity (an output the kernel never wrote stays NaN), and
/// ||got|| when want is all zero.
KDA2RT_API double relativeError(const double *got, const double *want,
                                size_t count);

} // namespace kda2::runtime::reference

#endif // KDA2_RUNTIME_REFERENCE_H
