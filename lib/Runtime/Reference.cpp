//===- Reference.cpp - CPU reference of the KDA decode kernels ------------===//
//
// Part of libkda2rt (no LLVM/MLIR). See Reference.h.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Reference.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace kda2::runtime;
using namespace kda2::runtime::reference;

//===----------------------------------------------------------------------===//
// Element conversions
//===----------------------------------------------------------------------===//

uint16_t reference::toBf16(float value) {
  uint32_t u;
  std::memcpy(&u, &value, 4);
  if (std::isnan(value))
    return static_cast<uint16_t>((u >> 16) | 0x40);
  u += 0x7FFF + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}

float reference::fromBf16(uint16_t bits) {
  uint32_t u = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint16_t reference::toF16(float value) {
  uint32_t u;
  std::memcpy(&u, &value, 4);
  uint32_t sign = (u >> 16) & 0x8000;
  uint32_t absBits = u & 0x7FFFFFFF;
  if (absBits > 0x7F800000) // NaN
    return static_cast<uint16_t>(sign | 0x7E00);
  if (absBits >= 0x477FF000) // rounds to >= 65536: infinity
    return static_cast<uint16_t>(sign | 0x7C00);
  if (absBits < 0x38800000) { // below the smallest normal half: subnormal
    // Scale so that the subnormal's integer mantissa is the rounded value.
    float a;
    std::memcpy(&a, &absBits, 4);
    float scaled = a * 16777216.0f; // 2^24: units of the smallest subnormal
    return static_cast<uint16_t>(sign |
                                 static_cast<uint32_t>(std::nearbyint(scaled)));
  }
  // Normal: rebias the exponent (127 -> 15), round the mantissa to 10 bits.
  uint32_t rounded = absBits + 0xFFF + ((absBits >> 13) & 1);
  return static_cast<uint16_t>(sign | ((rounded - 0x38000000) >> 13));
}

float reference::fromF16(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  uint32_t exp = (bits >> 10) & 0x1F, mant = bits & 0x3FF;
  float f;
  if (exp == 0) {
    f = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -f : f;
  }
  uint32_t u = exp == 0x1F ? (sign | 0x7F800000 | (mant << 13))
                           : (sign | ((exp + 112) << 23) | (mant << 13));
  std::memcpy(&f, &u, 4);
  return f;
}

//===----------------------------------------------------------------------===//
// Random inputs
//===----------------------------------------------------------------------===//

double Random::next(double lo, double hi) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return lo + (hi - lo) * static_cast<double>(z >> 11) / 9007199254740992.0;
}

double Random::nonZero(double lo, double hi) {
  double x = next(lo, hi);
  double eps = 1e-3 * (hi - lo);
  if (std::fabs(x) < eps)
    x = x < 0 || hi <= 0 ? -eps : eps;
  return x;
}

size_t KdaDecodeProblem::qkElements() const {
  return static_cast<size_t>(n * t * h * kDim);
}
size_t KdaDecodeProblem::vElements() const {
  return static_cast<size_t>(n * t * h * vDim);
}
size_t KdaDecodeProblem::stateElements() const {
  return static_cast<size_t>(n * h * kDim * vDim);
}
float KdaDecodeProblem::decode(uint16_t bits) const {
  return f16 ? fromF16(bits) : fromBf16(bits);
}

void reference::fillKdaDecodeProblem(Random &rng, KdaDecodeProblem &p,
                                     bool zeroState) {
  auto encode = [&](double x) {
    return p.f16 ? toF16(static_cast<float>(x)) : toBf16(static_cast<float>(x));
  };
  double kScale = 1.0 / std::sqrt(static_cast<double>(p.kDim));
  p.q.resize(p.qkElements());
  p.k.resize(p.qkElements());
  p.g.resize(p.qkElements());
  for (size_t i = 0; i < p.q.size(); ++i) {
    p.q[i] = encode(rng.nonZero(-1, 1));
    p.k[i] = encode(rng.nonZero(-1, 1) * kScale);
    p.g[i] = static_cast<float>(rng.nonZero(-0.1, 0));
  }
  p.v.resize(p.vElements());
  for (uint16_t &x : p.v)
    x = encode(rng.nonZero(-1, 1));
  p.beta.resize(static_cast<size_t>(p.n * p.t * p.h));
  for (float &b : p.beta)
    b = static_cast<float>(rng.next(0.1, 0.9));
  p.h0.assign(p.stateElements(), 0.0f);
  if (!zeroState)
    for (float &s : p.h0)
      s = static_cast<float>(rng.nonZero(-0.1, 0.1));
}

//===----------------------------------------------------------------------===//
// The recurrence
//===----------------------------------------------------------------------===//

namespace {
/// The encoded per-token inputs of any of the problems: row r = token * h +
/// head of q, k, g (kDim wide), v (vDim wide) and beta.
struct TokenView {
  const uint16_t *q, *k, *v;
  const float *g, *beta;
  bool f16;
  int64_t K, V;
  double decode(uint16_t bits) const {
    return f16 ? fromF16(bits) : fromBf16(bits);
  }
};

/// One token of the recurrence on one head's state S, element (kk, vv) at
/// S[kk * kStride + vv * vStride]:
///   S = diag(exp(g)) S;  u = beta (v - S^T k);  S += k u^T;  o = scale S^T q
/// `o` receives V values.
void tokenStep(const TokenView &in, size_t row, double *S, int64_t kStride,
               int64_t vStride, double scale, double *o) {
  const int64_t K = in.K, V = in.V;
  std::vector<double> q(K), k(K), u(V);
  const float *g = &in.g[row * K];
  for (int64_t kk = 0; kk < K; ++kk) {
    q[kk] = in.decode(in.q[row * K + kk]);
    k[kk] = in.decode(in.k[row * K + kk]);
  }
  auto at = [&](int64_t kk, int64_t vv) -> double & {
    return S[kk * kStride + vv * vStride];
  };
  double beta = in.beta[row];
  for (int64_t kk = 0; kk < K; ++kk) {
    double decay = std::exp(static_cast<double>(g[kk]));
    for (int64_t vv = 0; vv < V; ++vv)
      at(kk, vv) *= decay;
  }
  for (int64_t vv = 0; vv < V; ++vv) {
    double dot = 0;
    for (int64_t kk = 0; kk < K; ++kk)
      dot += at(kk, vv) * k[kk];
    u[vv] = beta * (in.decode(in.v[row * V + vv]) - dot);
  }
  for (int64_t vv = 0; vv < V; ++vv) {
    double out = 0;
    for (int64_t kk = 0; kk < K; ++kk) {
      at(kk, vv) += k[kk] * u[vv];
      out += at(kk, vv) * q[kk];
    }
    o[vv] = scale * out;
  }
}

TokenView view(const KdaTokenInputs &p) {
  return {p.q.data(), p.k.data(), p.v.data(), p.g.data(),
          p.beta.data(), p.f16, p.kDim, p.vDim};
}

Status invalid(const std::string &message) {
  return Status::error(ErrorCode::InvalidArgument, message);
}

/// The array sizes of the per-token inputs for `tokens` tokens, and the
/// pool's dimensions against the inputs'.
Status checkTokens(const char *what, const KdaTokenInputs &p, int64_t tokens,
                   const KdaStatePool &pool) {
  size_t rows = static_cast<size_t>(tokens * p.h);
  size_t kSize = rows * static_cast<size_t>(p.kDim);
  if (p.h <= 0 || p.kDim <= 0 || p.vDim <= 0 || tokens < 0)
    return invalid(std::string(what) + ": h, kDim and vDim must be positive "
                                       "and the token count >= 0");
  if (p.q.size() != kSize || p.k.size() != kSize || p.g.size() != kSize ||
      p.v.size() != rows * static_cast<size_t>(p.vDim) ||
      p.beta.size() != rows)
    return invalid(std::string(what) + ": q, k, g, v or beta does not hold " +
                   std::to_string(tokens) + " tokens of " +
                   std::to_string(p.h) + " heads");
  if (pool.h != p.h || pool.kDim != p.kDim || pool.vDim != p.vDim ||
      pool.slots <= 0 || pool.elements() == 0 ||
      (pool.bf16 ? pool.bf16Bits.size() : pool.f32.size()) != pool.elements())
    return invalid(std::string(what) +
                   ": the pool's dimensions (or storage) do not match the "
                   "problem's h, kDim and vDim");
  return Status::success();
}

/// The state of one head of a pool slot, K-major, as doubles (zeros when
/// `slot` < 0), and back.
void loadState(const KdaStatePool &pool, int64_t slot, int64_t head,
               std::vector<double> &S) {
  S.assign(static_cast<size_t>(pool.kDim * pool.vDim), 0.0);
  if (slot < 0)
    return;
  for (int64_t kk = 0; kk < pool.kDim; ++kk)
    for (int64_t vv = 0; vv < pool.vDim; ++vv)
      S[kk * pool.vDim + vv] = pool.get(slot, head, kk, vv);
}

void storeState(KdaStatePool &pool, int64_t slot, int64_t head,
                const std::vector<double> &S) {
  for (int64_t kk = 0; kk < pool.kDim; ++kk)
    for (int64_t vv = 0; vv < pool.vDim; ++vv)
      pool.set(slot, head, kk, vv, S[kk * pool.vDim + vv]);
}
} // namespace

void reference::kdaDecodeReference(const KdaDecodeProblem &p, double scale,
                                   std::vector<double> &state,
                                   std::vector<double> &o) {
  const int64_t K = p.kDim, V = p.vDim;
  if (scale <= 0)
    scale = 1.0 / std::sqrt(static_cast<double>(K));
  if (state.empty())
    state.assign(p.h0.begin(), p.h0.end());
  o.assign(p.vElements(), 0.0);
  const TokenView in = {p.q.data(), p.k.data(),    p.v.data(), p.g.data(),
                        p.beta.data(), p.f16, K, V};
  // S(kk, vv) of one (sequence, head) in the kernel's layout.
  const int64_t kStride = p.vFirst ? 1 : V, vStride = p.vFirst ? K : 1;
  for (int64_t seq = 0; seq < p.n; ++seq)
    for (int64_t head = 0; head < p.h; ++head) {
      double *S = &state[static_cast<size_t>((seq * p.h + head) * K * V)];
      for (int64_t tok = 0; tok < p.t; ++tok) {
        size_t row = static_cast<size_t>((seq * p.t + tok) * p.h + head);
        tokenStep(in, row, S, kStride, vStride, scale, &o[row * V]);
      }
    }
}

//===----------------------------------------------------------------------===//
// State pools
//===----------------------------------------------------------------------===//

void KdaStatePool::allocate() {
  f32.clear();
  bf16Bits.clear();
  if (bf16)
    bf16Bits.assign(elements(), 0);
  else
    f32.assign(elements(), 0.0f);
}

size_t KdaStatePool::elements() const {
  return static_cast<size_t>(slots * h * kDim * vDim);
}

size_t KdaStatePool::offset(int64_t slot, int64_t head, int64_t kk,
                            int64_t vv) const {
  size_t matrix = static_cast<size_t>((slot * h + head) * kDim * vDim);
  return matrix + static_cast<size_t>(vFirst ? vv * kDim + kk
                                             : kk * vDim + vv);
}

double KdaStatePool::get(int64_t slot, int64_t head, int64_t kk,
                         int64_t vv) const {
  size_t i = offset(slot, head, kk, vv);
  return bf16 ? fromBf16(bf16Bits[i]) : f32[i];
}

void KdaStatePool::set(int64_t slot, int64_t head, int64_t kk, int64_t vv,
                       double x) {
  size_t i = offset(slot, head, kk, vv);
  if (bf16)
    bf16Bits[i] = toBf16(static_cast<float>(x));
  else
    f32[i] = static_cast<float>(x);
}

float KdaTokenInputs::decode(uint16_t bits) const {
  return f16 ? fromF16(bits) : fromBf16(bits);
}

Status reference::kdaDecodePoolReference(const KdaPoolDecodeProblem &p,
                                         double scale, KdaStatePool &pool,
                                         std::vector<double> &o) {
  const char *what = "kdaDecodePoolReference";
  KDA2RT_TRY(checkTokens(what, p, p.totalTokens, pool));
  size_t n = static_cast<size_t>(p.n);
  if (p.n <= 0 || p.cuSeqlens.size() != n + 1 ||
      p.stateIndices.size() != n || p.hasInitialState.size() != n)
    return invalid(std::string(what) + ": cu_seqlens must hold n + 1 = " +
                   std::to_string(p.n + 1) +
                   " entries, state_indices and has_initial_state n");
  for (size_t i = 0; i <= n; ++i)
    if (p.cuSeqlens[i] < (i ? p.cuSeqlens[i - 1] : 0) ||
        p.cuSeqlens[i] > p.totalTokens)
      return invalid(std::string(what) + ": cu_seqlens[" + std::to_string(i) +
                     "] = " + std::to_string(p.cuSeqlens[i]) +
                     " is not in [cu_seqlens[i-1], total_tokens]");
  if (scale <= 0)
    scale = 1.0 / std::sqrt(static_cast<double>(p.kDim));
  o.assign(static_cast<size_t>(p.totalTokens * p.h * p.vDim), 0.0);
  const TokenView in = view(p);
  std::vector<double> S;
  for (size_t seq = 0; seq < n; ++seq) {
    int64_t slot = p.stateIndices[seq];
    if (slot < 0 || slot >= pool.slots)
      continue; // padding: o rows stay zero, the pool is not touched
    for (int64_t head = 0; head < p.h; ++head) {
      loadState(pool, p.hasInitialState[seq] ? slot : -1, head, S);
      for (int64_t tok = p.cuSeqlens[seq]; tok < p.cuSeqlens[seq + 1]; ++tok) {
        size_t row = static_cast<size_t>(tok * p.h + head);
        tokenStep(in, row, S.data(), p.vDim, 1, scale, &o[row * p.vDim]);
      }
      storeState(pool, slot, head, S);
    }
  }
  return Status::success();
}

Status reference::kdaDecodeSpecReference(const KdaSpecDecodeProblem &p,
                                         double scale, KdaStatePool &pool,
                                         std::vector<double> &o) {
  const char *what = "kdaDecodeSpecReference";
  if (p.t < 1 || p.t > 16)
    return invalid(std::string(what) + ": t must be in [1, 16], got " +
                   std::to_string(p.t));
  KDA2RT_TRY(checkTokens(what, p, p.n * p.t, pool));
  size_t n = static_cast<size_t>(p.n);
  if (p.n <= 0 || p.stateIndices.size() != n * static_cast<size_t>(p.t) ||
      p.numAccepted.size() != n)
    return invalid(std::string(what) + ": state_indices must hold n * t = " +
                   std::to_string(p.n * p.t) +
                   " entries and num_accepted n");
  for (size_t seq = 0; seq < n; ++seq)
    if (p.numAccepted[seq] < 0 || p.numAccepted[seq] > p.t)
      return invalid(std::string(what) + ": num_accepted[" +
                     std::to_string(seq) + "] = " +
                     std::to_string(p.numAccepted[seq]) +
                     " is not in [0, t]");
  if (scale <= 0)
    scale = 1.0 / std::sqrt(static_cast<double>(p.kDim));
  o.assign(static_cast<size_t>(p.n * p.t * p.h * p.vDim), 0.0);
  const TokenView in = view(p);
  auto valid = [&](int64_t slot) { return slot >= 0 && slot < pool.slots; };
  std::vector<double> S;
  for (size_t seq = 0; seq < n; ++seq) {
    const int32_t *row = &p.stateIndices[seq * static_cast<size_t>(p.t)];
    if (row[0] < 0)
      continue; // padding: o rows stay zero, the pool is not touched
    int32_t accepted = p.numAccepted[seq];
    int64_t src = row[accepted > 0 ? accepted - 1 : 0];
    for (int64_t head = 0; head < p.h; ++head) {
      loadState(pool, accepted > 0 && valid(src) ? src : -1, head, S);
      for (int64_t i = 0; i < p.t; ++i) {
        size_t r = static_cast<size_t>((seq * p.t + i) * p.h + head);
        tokenStep(in, r, S.data(), p.vDim, 1, scale, &o[r * p.vDim]);
        if (valid(row[i]))
          storeState(pool, row[i], head, S);
      }
    }
  }
  return Status::success();
}

double reference::relativeError(const double *got, const double *want,
                                size_t count) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(got[i]))
      return std::numeric_limits<double>::infinity();
    double d = got[i] - want[i];
    diff += d * d;
    norm += want[i] * want[i];
  }
  return norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}
