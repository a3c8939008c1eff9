//===- ReferenceTest.cpp - the CPU reference of KDA decode ------*- C++ -*-===//
//
// Element conversions, deterministic non-zero random inputs, the decode
// recurrence on cases with a closed form, the V-first layout and the
// relative error (a NaN output is an infinite error); the pool and
// speculative decode references on K = V = 2 cases worked out by hand
// (padding, has_initial_state, num_accepted, kv/vk, f32/bf16 pools, slots
// no sequence writes staying bitwise equal).
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Reference.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>

using namespace kda2::runtime;
using namespace kda2::runtime::reference;

namespace {

TEST(Reference, Conversions) {
  for (float x : {0.0f, 1.0f, -2.5f, 0.1f, 65504.0f, 1e-6f, -3.14159f}) {
    EXPECT_NEAR(fromBf16(toBf16(x)), x, std::fabs(x) / 128 + 1e-30) << x;
    EXPECT_NEAR(fromF16(toF16(x)), x, std::fabs(x) / 1024 + 6e-8) << x;
  }
  EXPECT_EQ(toBf16(1.0f), 0x3F80);
  EXPECT_EQ(toF16(1.0f), 0x3C00);
  EXPECT_EQ(toF16(-2.0f), 0xC000);
  EXPECT_TRUE(std::isinf(fromF16(toF16(1e6f))));
  EXPECT_TRUE(std::isnan(fromBf16(toBf16(std::nanf("")))));
  EXPECT_TRUE(std::isnan(fromF16(toF16(std::nanf("")))));
  EXPECT_EQ(toF16(5.9604645e-8f), 0x0001); // smallest subnormal
}

TEST(Reference, RandomInputsAreDeterministicAndNonZero) {
  KdaDecodeProblem a, b;
  a.n = b.n = 2;
  a.t = b.t = 1;
  a.h = b.h = 3;
  a.kDim = b.kDim = a.vDim = b.vDim = 64;
  Random r1{7}, r2{7};
  fillKdaDecodeProblem(r1, a);
  fillKdaDecodeProblem(r2, b);
  EXPECT_EQ(a.q, b.q);
  EXPECT_EQ(a.h0, b.h0);
  ASSERT_EQ(a.q.size(), a.qkElements());
  ASSERT_EQ(a.h0.size(), a.stateElements());
  for (uint16_t x : a.q)
    EXPECT_NE(a.decode(x), 0.0f);
  for (float g : a.g)
    EXPECT_LT(g, 0.0f);
  for (float s : a.h0)
    EXPECT_NE(s, 0.0f);
  KdaDecodeProblem z = a;
  fillKdaDecodeProblem(r1, z, /*zeroState=*/true);
  for (float s : z.h0)
    EXPECT_EQ(s, 0.0f);
}

/// One token, no decay (g = 0), beta = 1, zero state: S = k v^T and
/// o = scale (q . k) v.
TEST(Reference, OneTokenClosedForm) {
  KdaDecodeProblem p;
  p.n = p.t = p.h = 1;
  p.kDim = 2;
  p.vDim = 3;
  p.q = {toBf16(1), toBf16(2)};
  p.k = {toBf16(0.5), toBf16(-1)};
  p.v = {toBf16(1), toBf16(2), toBf16(-4)};
  p.g = {0, 0};
  p.beta = {1};
  p.h0.assign(6, 0);
  std::vector<double> state, o;
  kdaDecodeReference(p, /*scale=*/0.5, state, o);
  double qk = 1 * 0.5 + 2 * -1.0;
  ASSERT_EQ(o.size(), 3u);
  EXPECT_DOUBLE_EQ(o[0], 0.5 * qk * 1);
  EXPECT_DOUBLE_EQ(o[2], 0.5 * qk * -4);
  EXPECT_DOUBLE_EQ(state[0 * 3 + 1], 0.5 * 2);  // S[k=0][v=1]
  EXPECT_DOUBLE_EQ(state[1 * 3 + 2], -1.0 * -4); // S[k=1][v=2]

  // V-first: the same state, transposed.
  p.vFirst = true;
  std::vector<double> stateT, oT;
  kdaDecodeReference(p, 0.5, stateT, oT);
  EXPECT_EQ(o, oT);
  EXPECT_DOUBLE_EQ(stateT[1 * 2 + 0], state[0 * 3 + 1]);
  EXPECT_DOUBLE_EQ(stateT[2 * 2 + 1], state[1 * 3 + 2]);
}

/// Decay only (beta = 0): S = exp(g) S, per key row.
TEST(Reference, DecayScalesKeyRows) {
  KdaDecodeProblem p;
  p.n = p.t = p.h = 1;
  p.kDim = p.vDim = 2;
  p.q = {toBf16(1), toBf16(0)};
  p.k = {toBf16(1), toBf16(1)};
  p.v = {toBf16(1), toBf16(1)};
  p.g = {std::log(0.5f), 0};
  p.beta = {0};
  p.h0 = {2, 4, 6, 8};
  std::vector<double> state, o;
  kdaDecodeReference(p, 1.0, state, o);
  EXPECT_NEAR(state[0], 1, 1e-7);
  EXPECT_NEAR(state[1], 2, 1e-7);
  EXPECT_DOUBLE_EQ(state[2], 6);
  EXPECT_NEAR(o[0], 1, 1e-7); // q picks key row 0
}

TEST(Reference, RelativeError) {
  double want[3] = {3, 0, 4};
  double same[3] = {3, 0, 4};
  double off[3] = {3, 0.5, 4};
  double nan[3] = {3, std::nan(""), 4};
  EXPECT_EQ(relativeError(same, want, 3), 0.0);
  EXPECT_DOUBLE_EQ(relativeError(off, want, 3), 0.1);
  EXPECT_TRUE(std::isinf(relativeError(nan, want, 3)));
  double zeros[2] = {0, 0}, some[2] = {3, 4};
  EXPECT_DOUBLE_EQ(relativeError(some, zeros, 2), 5.0);
}

//===----------------------------------------------------------------------===//
// Pool and speculative decode
//===----------------------------------------------------------------------===//

/// Appends one token of one head (K = V = 2) to `p`.
void addToken(KdaTokenInputs &p, std::initializer_list<float> q,
              std::initializer_list<float> k, std::initializer_list<float> v,
              float beta) {
  for (float x : q)
    p.q.push_back(toBf16(x));
  for (float x : k) {
    p.k.push_back(toBf16(x));
    p.g.push_back(0); // no decay: exp(0) = 1 exactly
  }
  for (float x : v)
    p.v.push_back(toBf16(x));
  p.beta.push_back(beta);
}

/// A pool of `slots` 2 x 2 states of one head, slot s holding
/// [[10s+1, 10s+2], [10s+3, 10s+4]] (S[k][v]).
KdaStatePool makePool(int64_t slots, bool vFirst, bool bf16) {
  KdaStatePool pool;
  pool.slots = slots;
  pool.h = 1;
  pool.kDim = pool.vDim = 2;
  pool.vFirst = vFirst;
  pool.bf16 = bf16;
  pool.allocate();
  for (int64_t s = 0; s < slots; ++s)
    for (int kk = 0; kk < 2; ++kk)
      for (int vv = 0; vv < 2; ++vv)
        pool.set(s, 0, kk, vv, 10 * s + 2 * kk + vv + 1);
  return pool;
}

/// Expects slot `s` to hold [[a, b], [c, d]].
void expectState(const KdaStatePool &pool, int64_t s, double a, double b,
                 double c, double d) {
  EXPECT_EQ(pool.get(s, 0, 0, 0), a) << "slot " << s;
  EXPECT_EQ(pool.get(s, 0, 0, 1), b) << "slot " << s;
  EXPECT_EQ(pool.get(s, 0, 1, 0), c) << "slot " << s;
  EXPECT_EQ(pool.get(s, 0, 1, 1), d) << "slot " << s;
}

/// Four sequences over four tokens, scale 1, g = 0 (each token:
/// u = beta (v - S^T k), S += k u^T, o = S^T q):
///   seq 0: tokens 0-1, slot 1 [[11,12],[13,14]], has_initial_state
///     t0: q=[1,0] k=[1,0] v=[1,1] beta=1: S^T k = [11,12], u = [-10,-11],
///         S = [[1,1],[13,14]], o = [1,1]
///     t1: q=[1,1] k=[0,1] v=[2,3] beta=.5: S^T k = [13,14],
///         u = [-5.5,-5.5], S = [[1,1],[7.5,8.5]], o = [8.5,9.5]
///   seq 1: token 2, slot -1: padding, o = 0, pool untouched
///   seq 2: token 3, slot 3, no initial state: S = 0,
///     t3: q=[1,0] k=[1,1] v=[2,4] beta=.5: u = [1,2], S = [[1,2],[1,2]],
///         o = [1,2]
///   seq 3: empty, slot 2, no initial state: slot 2 becomes zeros
/// Slot 0 is not named: it stays bitwise equal.
KdaPoolDecodeProblem poolProblem(float beta3) {
  KdaPoolDecodeProblem p;
  p.n = 4;
  p.totalTokens = 4;
  p.h = 1;
  p.kDim = p.vDim = 2;
  p.cuSeqlens = {0, 2, 3, 4, 4};
  p.stateIndices = {1, -1, 3, 2};
  p.hasInitialState = {1, 1, 0, 0};
  addToken(p, {1, 0}, {1, 0}, {1, 1}, 1);
  addToken(p, {1, 1}, {0, 1}, {2, 3}, 0.5f);
  addToken(p, {1, 1}, {1, 1}, {1, 1}, 1);
  addToken(p, {1, 0}, {1, 1}, {2, 4}, beta3);
  return p;
}

TEST(Reference, PoolDecodeByHand) {
  for (bool vFirst : {false, true}) {
    SCOPED_TRACE(vFirst ? "vk" : "kv");
    KdaStatePool pool = makePool(4, vFirst, false);
    std::vector<float> before = pool.f32;
    std::vector<double> o;
    Status s = kdaDecodePoolReference(poolProblem(0.5f), 1.0, pool, o);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(o, (std::vector<double>{1, 1, 8.5, 9.5, 0, 0, 1, 2}));
    expectState(pool, 1, 1, 1, 7.5, 8.5);
    expectState(pool, 3, 1, 2, 1, 2);
    expectState(pool, 2, 0, 0, 0, 0);
    // Slot 0: bitwise the same.
    EXPECT_EQ(std::memcmp(pool.f32.data(), before.data(), 4 * sizeof(float)),
              0);
    // The layout is the storage order: element (k=1, v=0) of slot 1.
    EXPECT_EQ(pool.f32[4 + (vFirst ? 1 : 2)], 7.5f);
  }
}

TEST(Reference, PoolDecodeRoundsABf16PoolOnceWhenStoring) {
  // beta = 0.3f on token 3: u = 0.3f [2, 4] is not a bf16 value; o comes
  // from the unrounded fp32-or-better state, the pool holds it rounded.
  KdaStatePool pool = makePool(4, false, true);
  std::vector<uint16_t> before = pool.bf16Bits;
  std::vector<double> o;
  ASSERT_TRUE(kdaDecodePoolReference(poolProblem(0.3f), 1.0, pool, o).ok());
  double u0 = 2.0 * static_cast<double>(0.3f),
         u1 = 4.0 * static_cast<double>(0.3f);
  EXPECT_EQ(o[6], u0);
  EXPECT_EQ(o[7], u1);
  EXPECT_EQ(pool.bf16Bits[pool.offset(3, 0, 0, 0)],
            toBf16(static_cast<float>(u0)));
  EXPECT_EQ(pool.bf16Bits[pool.offset(3, 0, 1, 1)],
            toBf16(static_cast<float>(u1)));
  EXPECT_NE(fromBf16(toBf16(static_cast<float>(u0))), u0);
  expectState(pool, 1, 1, 1, 7.5, 8.5); // exact in bf16
  EXPECT_TRUE(std::equal(before.begin(), before.begin() + 4,
                         pool.bf16Bits.begin()));
}

TEST(Reference, PoolDecodeRefusesInconsistentInputs) {
  KdaStatePool pool = makePool(4, false, false);
  std::vector<double> o;
  KdaPoolDecodeProblem p = poolProblem(0.5f);
  p.cuSeqlens = {0, 3, 2, 4, 4};
  Status s = kdaDecodePoolReference(p, 1.0, pool, o);
  EXPECT_EQ(s.message(), "kdaDecodePoolReference: cu_seqlens[2] = 2 is not "
                         "in [cu_seqlens[i-1], total_tokens]");
  p = poolProblem(0.5f);
  p.hasInitialState.pop_back();
  EXPECT_EQ(kdaDecodePoolReference(p, 1.0, pool, o).message(),
            "kdaDecodePoolReference: cu_seqlens must hold n + 1 = 5 entries, "
            "state_indices and has_initial_state n");
  p = poolProblem(0.5f);
  pool.vDim = 4;
  EXPECT_EQ(kdaDecodePoolReference(p, 1.0, pool, o).message(),
            "kdaDecodePoolReference: the pool's dimensions (or storage) do "
            "not match the problem's h, kDim and vDim");
}

/// Five sequences of t = 2 tokens, scale 1, beta = 1, g = 0, q = [1,1],
/// k = [1,0] for token 0 and [0,1] for token 1: each token replaces key
/// row k of S by v, and o = row 0 + row 1. Slot s starts as
/// [[10s+1, 10s+2], [10s+3, 10s+4]].
///   seq 0: slots [2, 3], accepted 2: starts from slot 3 [[31,32],[33,34]]
///     t0 v=[1,2]: S = [[1,2],[33,34]], o = [34,36] -> slot 2
///     t1 v=[3,4]: S = [[1,2],[3,4]],   o = [4,6]   -> slot 3
///   seq 1: slots [-1, 4]: padding, o = 0, slot 4 untouched
///   seq 2: slots [5, -1], accepted 1 (output only): starts from slot 5
///     t0 v=[5,6]: S = [[5,6],[53,54]], o = [58,60] -> slot 5 (the source
///         position receives the state after token accepted - 1)
///     t1 v=[7,8]: S = [[5,6],[7,8]],   o = [12,14] -> not stored
///   seq 3: slots [0, 1], accepted 0: starts from zeros
///     t0 v=[1,1]: S = [[1,1],[0,0]], o = [1,1] -> slot 0
///     t1 v=[2,2]: S = [[1,1],[2,2]], o = [3,3] -> slot 1
///   seq 4: slots [99, -1], accepted 1: slot 99 is outside the pool, so
///     zeros, nothing stored
///     t0 v=[3,3]: S = [[3,3],[0,0]], o = [3,3]
///     t1 v=[1,0]: S = [[3,3],[1,0]], o = [4,3]
KdaSpecDecodeProblem specProblem() {
  KdaSpecDecodeProblem p;
  p.n = 5;
  p.t = 2;
  p.h = 1;
  p.kDim = p.vDim = 2;
  p.stateIndices = {2, 3, -1, 4, 5, -1, 0, 1, 99, -1};
  p.numAccepted = {2, 1, 1, 0, 1};
  const float v[5][2][2] = {{{1, 2}, {3, 4}},
                            {{9, 9}, {9, 9}},
                            {{5, 6}, {7, 8}},
                            {{1, 1}, {2, 2}},
                            {{3, 3}, {1, 0}}};
  for (const auto &seq : v) {
    addToken(p, {1, 1}, {1, 0}, {seq[0][0], seq[0][1]}, 1);
    addToken(p, {1, 1}, {0, 1}, {seq[1][0], seq[1][1]}, 1);
  }
  return p;
}

TEST(Reference, SpecDecodeByHand) {
  for (bool vFirst : {false, true})
    for (bool bf16 : {false, true}) {
      SCOPED_TRACE(std::string(vFirst ? "vk" : "kv") + (bf16 ? " bf16" : ""));
      KdaStatePool pool = makePool(6, vFirst, bf16);
      KdaStatePool before = pool;
      std::vector<double> o;
      Status s = kdaDecodeSpecReference(specProblem(), 1.0, pool, o);
      ASSERT_TRUE(s.ok()) << s.message();
      EXPECT_EQ(o, (std::vector<double>{34, 36, 4, 6, 0, 0, 0, 0, 58, 60,
                                        12, 14, 1, 1, 3, 3, 3, 3, 4, 3}));
      expectState(pool, 2, 1, 2, 33, 34);
      expectState(pool, 3, 1, 2, 3, 4);
      expectState(pool, 5, 5, 6, 53, 54);
      expectState(pool, 0, 1, 1, 0, 0);
      expectState(pool, 1, 1, 1, 2, 2);
      // Slot 4 (padding row) bitwise the same.
      size_t at = pool.offset(4, 0, 0, 0);
      if (bf16)
        EXPECT_TRUE(std::equal(before.bf16Bits.begin() + at,
                               before.bf16Bits.begin() + at + 4,
                               pool.bf16Bits.begin() + at));
      else
        EXPECT_EQ(std::memcmp(&pool.f32[at], &before.f32[at],
                              4 * sizeof(float)),
                  0);
    }
}

TEST(Reference, SpecDecodeRefusesInconsistentInputs) {
  KdaStatePool pool = makePool(6, false, false);
  std::vector<double> o;
  KdaSpecDecodeProblem p = specProblem();
  p.numAccepted[3] = 3;
  EXPECT_EQ(kdaDecodeSpecReference(p, 1.0, pool, o).message(),
            "kdaDecodeSpecReference: num_accepted[3] = 3 is not in [0, t]");
  p = specProblem();
  p.stateIndices.pop_back();
  EXPECT_EQ(kdaDecodeSpecReference(p, 1.0, pool, o).message(),
            "kdaDecodeSpecReference: state_indices must hold n * t = 10 "
            "entries and num_accepted n");
  p.t = 17;
  EXPECT_EQ(kdaDecodeSpecReference(p, 1.0, pool, o).message(),
            "kdaDecodeSpecReference: t must be in [1, 16], got 17");
  p = specProblem();
  p.beta.pop_back();
  EXPECT_EQ(kdaDecodeSpecReference(p, 1.0, pool, o).message(),
            "kdaDecodeSpecReference: q, k, g, v or beta does not hold 10 "
            "tokens of 1 heads");
}

} // namespace
