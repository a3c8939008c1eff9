//===- WgmmaLayoutTest.cpp - wgmma operands in swizzled tiles -------------===//
//
// Two independent models, element by element: where TMA puts element (r, c)
// of a tile in shared memory (boxes of `perRow` columns, the swizzle's XOR
// on the address bits), and which address wgmma reads for element (mn, k)
// of an operand, from the descriptor's fields as the PTX ISA's canonical
// layouts define them (CuTe notation, T = 8 elements of 16 bits):
//   K-major,  swizzle of s 16-byte chunks: ((8,m),(T,2k)):((sT,SBO),(1,T))
//   MN-major, swizzle of s 16-byte chunks: ((T,s,m),(8,k)):((1,T,LBO),(sT,SBO))
// each composed with Swizzle<log2 s, 4, 3> on the byte address. Every k
// step of every operand shape the lowering accepts must read the element
// the product needs.
//
//===----------------------------------------------------------------------===//

#include "kda2/Conversion/WgmmaLayout.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>

using namespace mlir::kda2;

namespace {

constexpr int64_t kBase = 3 * 1024; // a 1024-byte aligned tile

int64_t log2Of(int64_t v) {
  int64_t l = 0;
  while ((int64_t(1) << l) < v)
    ++l;
  return l;
}

/// Swizzle<bits, 4, 3>: address bits 4 .. 4 + bits - 1 ^= bits 7 ....
int64_t swizzle(int64_t address, int64_t bits) {
  int64_t mask = ((int64_t(1) << bits) - 1) << 4;
  return address ^ ((address >> 3) & mask);
}

/// TMA: element (r, c) of the tile [rows, cols].
int64_t tmaAddress(const SwizzledTile &t, int64_t r, int64_t c) {
  int64_t piece = c / t.perRow;
  int64_t offset = r * t.span() + (c % t.perRow) * t.elementBytes;
  int64_t chunks = t.span() / 16;
  return kBase + piece * t.pieceBytes() + swizzle(offset, log2Of(chunks));
}

/// wgmma: element (mn, k) of one k16 step read through a descriptor whose
/// start is `start` (bytes) and whose fields are `f`.
int64_t wgmmaAddress(const WgmmaDescriptorFields &f, bool kMajor,
                     int64_t start, int64_t mn, int64_t k) {
  const int64_t T = 8, eb = 2;
  int64_t s = f.swizzleMode == 1 ? 8 : f.swizzleMode == 2 ? 4 : 2;
  int64_t sbo = f.strideByteOffset / eb, lbo = f.leadingByteOffset / eb;
  int64_t element;
  if (kMajor)
    element = (mn % 8) * s * T + (mn / 8) * sbo + (k % T) + (k / T) * T;
  else
    element = (mn % T) + (mn / T % s) * T + (mn / (T * s)) * lbo +
              (k % 8) * s * T + (k / 8) * sbo;
  // The swizzle acts on the address (the pattern repeats every 8 rows of
  // the span from a 1024-byte boundary: base offset 0).
  return swizzle(start + element * eb, log2Of(s));
}

struct Case {
  int64_t rows, cols; // the tile in shared memory
  int64_t perRow;     // its box width (span = 2 perRow bytes)
  bool kMajor;        // cols is k (else rows is k)
  bool a;             // A: 64 rows of m per warpgroup; B: all n at once
};

void PrintTo(const Case &c, std::ostream *os) {
  *os << (c.a ? "A " : "B ") << "[" << c.rows << ", " << c.cols << "] boxes of "
      << c.perRow << (c.kMajor ? " K-major" : " MN-major");
}

class WgmmaLayout : public ::testing::TestWithParam<Case> {};

TEST_P(WgmmaLayout, EveryStepReadsTheProductsElements) {
  Case cs = GetParam();
  SwizzledTile tile{cs.rows, cs.perRow, 2};
  WgmmaDescriptorFields f = wgmmaDescriptorFields(tile, cs.kMajor);
  int64_t k = cs.kMajor ? cs.cols : cs.rows;
  int64_t mn = cs.kMajor ? cs.rows : cs.cols;
  // A's warpgroups: 64 rows of m each; B: all n in one instruction.
  int64_t groups = cs.a ? mn / 64 : 1;
  int64_t perGroup = cs.a ? 64 : mn;
  int64_t mismatches = 0;
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t kk = 0; kk < k / 16; ++kk) {
      int64_t start = kBase + wgmmaStepOffset(tile, cs.kMajor, kk) +
                      (groups > 1 ? wgmmaRowGroupOffset(tile, cs.kMajor, g)
                                  : 0);
      for (int64_t i = 0; i < perGroup; ++i)
        for (int64_t kq = 0; kq < 16; ++kq) {
          int64_t row = g * perGroup + i, kidx = 16 * kk + kq;
          int64_t want = cs.kMajor ? tmaAddress(tile, row, kidx)
                                   : tmaAddress(tile, kidx, row);
          int64_t got = wgmmaAddress(f, cs.kMajor, start, i, kq);
          if (got != want && ++mismatches < 5)
            ADD_FAILURE() << "group " << g << " step " << kk << " element ("
                          << i << ", " << kq << "): reads byte " << got
                          << ", TMA put it at " << want;
        }
    }
  EXPECT_EQ(mismatches, 0);
}

// The scan's operands: qd / wn [C, K] (K-major B, 128-byte boxes), tp / pb
// [C, C] (64 bytes), kl [C, K] as [k, n] (MN-major B), the values [C, VB]
// as A transposed (MN-major A, VB = 64 and 128: two warpgroups), 32-byte
// boxes (VB = 16 columns) and row counts other than 32.
INSTANTIATE_TEST_SUITE_P(
    Tiles, WgmmaLayout,
    ::testing::Values(Case{32, 128, 64, true, false},
                      Case{32, 32, 32, true, false},
                      Case{256, 64, 64, true, false},
                      Case{128, 128, 64, true, true},
                      Case{64, 32, 16, true, true},
                      Case{32, 128, 64, false, false},
                      Case{32, 64, 64, false, false},
                      Case{32, 64, 64, false, true},
                      Case{32, 128, 64, false, true},
                      Case{64, 32, 32, false, false},
                      Case{32, 16, 16, false, false},
                      Case{16, 64, 32, true, false},
                      Case{48, 256, 64, false, false}));

TEST(WgmmaDescriptor, EncodesTheFieldsWhereThePtxIsaPutsThem) {
  SwizzledTile tile{32, 64, 2};
  WgmmaDescriptorFields mn = wgmmaDescriptorFields(tile, false);
  EXPECT_EQ(mn.leadingByteOffset, 4096); // the next box of 64 columns
  EXPECT_EQ(mn.strideByteOffset, 1024);  // the next 8 rows
  EXPECT_EQ(mn.swizzleMode, 1);
  uint64_t d = encodeWgmmaDescriptor(0x2400 + 32, mn);
  EXPECT_EQ(d & 0x3FFF, (0x2400u + 32) >> 4);
  EXPECT_EQ((d >> 16) & 0x3FFF, 4096u >> 4);
  EXPECT_EQ((d >> 32) & 0x3FFF, 1024u >> 4);
  EXPECT_EQ((d >> 49) & 0x7, 0u);
  EXPECT_EQ(d >> 62, 1u);
  WgmmaDescriptorFields k64 = wgmmaDescriptorFields({32, 32, 2}, true);
  EXPECT_EQ(k64.leadingByteOffset >> 4, 1); // unused: 1
  EXPECT_EQ(k64.strideByteOffset, 512);
  EXPECT_EQ(k64.swizzleMode, 2);
  EXPECT_EQ(wgmmaDescriptorFields({32, 16, 2}, true).swizzleMode, 3);
  // Addresses past 256 KB wrap in the 14-bit field (shared memory is
  // smaller); the other fields stay untouched.
  EXPECT_EQ(encodeWgmmaDescriptor(0x40010, k64) & 0x3FFF, 1u);
}

} // namespace
