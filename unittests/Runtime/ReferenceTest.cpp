//===- ReferenceTest.cpp - the CPU reference of KDA decode ------*- C++ -*-===//
//
// Element conversions, deterministic non-zero random inputs, the decode
// recurrence on cases with a closed form, the V-first layout and the
// relative error (a NaN output is an infinite error).
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Reference.h"

#include "gtest/gtest.h"

#include <cmath>

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

} // namespace
