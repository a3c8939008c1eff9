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

void reference::kdaDecodeReference(const KdaDecodeProblem &p, double scale,
                                   std::vector<double> &state,
                                   std::vector<double> &o) {
  const int64_t K = p.kDim, V = p.vDim;
  if (scale <= 0)
    scale = 1.0 / std::sqrt(static_cast<double>(K));
  if (state.empty())
    state.assign(p.h0.begin(), p.h0.end());
  o.assign(p.vElements(), 0.0);
  // S(kk, vv) of one (sequence, head) in the kernel's layout.
  const int64_t kStride = p.vFirst ? 1 : V, vStride = p.vFirst ? K : 1;
  std::vector<double> q(K), k(K), u(V);
  for (int64_t seq = 0; seq < p.n; ++seq)
    for (int64_t head = 0; head < p.h; ++head) {
      double *S = &state[static_cast<size_t>((seq * p.h + head) * K * V)];
      auto at = [&](int64_t kk, int64_t vv) -> double & {
        return S[kk * kStride + vv * vStride];
      };
      for (int64_t tok = 0; tok < p.t; ++tok) {
        size_t row = static_cast<size_t>((seq * p.t + tok) * p.h + head);
        const float *g = &p.g[row * K];
        for (int64_t kk = 0; kk < K; ++kk) {
          q[kk] = p.decode(p.q[row * K + kk]);
          k[kk] = p.decode(p.k[row * K + kk]);
        }
        double beta = p.beta[row];
        // S = diag(exp(g)) S; u = beta (v - S^T k); S += k u^T.
        for (int64_t kk = 0; kk < K; ++kk) {
          double decay = std::exp(static_cast<double>(g[kk]));
          for (int64_t vv = 0; vv < V; ++vv)
            at(kk, vv) *= decay;
        }
        for (int64_t vv = 0; vv < V; ++vv) {
          double dot = 0;
          for (int64_t kk = 0; kk < K; ++kk)
            dot += at(kk, vv) * k[kk];
          u[vv] = beta * (p.decode(p.v[row * V + vv]) - dot);
        }
        for (int64_t vv = 0; vv < V; ++vv) {
          double out = 0;
          for (int64_t kk = 0; kk < K; ++kk) {
            at(kk, vv) += k[kk] * u[vv];
            out += at(kk, vv) * q[kk];
          }
          o[row * V + vv] = scale * out;
        }
      }
    }
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
