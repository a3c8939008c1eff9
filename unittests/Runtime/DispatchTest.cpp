//===- DispatchTest.cpp - dynamic-seqlen dispatch table (no GPU) ----------===//
//
// Chip parsing and binary compatibility, table construction errors
// (duplicate specialisations, bad ranges and chips) and selection: the
// specialisation holding the length, the generic fallback, lengths outside
// the table, unknown ops, wrong-arch tables.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Dispatch.h"

#include "gtest/gtest.h"

using namespace kda2::runtime;

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)             \
      << "message: " << (haystack) << "\nexpected to contain: " << (needle)

namespace {

DispatchEntry spec(const char *chip, int64_t lo, int64_t hi,
                   const char *kernel, const char *op = "decode") {
  DispatchEntry e;
  e.op = op;
  e.dim = "t";
  e.chip = chip;
  e.kernel = kernel;
  e.minLength = lo;
  e.maxLength = hi;
  return e;
}

DispatchEntry generic(const char *chip, const char *kernel,
                      const char *op = "decode") {
  DispatchEntry e = spec(chip, 0, 0, kernel, op);
  e.generic = true;
  return e;
}

std::string pick(const DispatchTable &t, int major, int minor, int64_t len,
                 const char *op = "decode") {
  const DispatchEntry *e = nullptr;
  Status s = t.select(op, major, minor, len, e);
  return s.ok() ? e->kernel : "error: " + s.message();
}

} // namespace

TEST(Chip, ParseAndCompatibility) {
  Chip c;
  ASSERT_TRUE(Chip::parse("sm_90a", c));
  EXPECT_EQ(c.major, 9);
  EXPECT_EQ(c.minor, 0);
  EXPECT_TRUE(c.archSpecific);
  EXPECT_EQ(c.str(), "sm_90a");
  EXPECT_TRUE(c.runsOn(9, 0));
  EXPECT_FALSE(c.runsOn(9, 1));
  EXPECT_FALSE(c.runsOn(10, 0));
  ASSERT_TRUE(Chip::parse("sm_80", c));
  EXPECT_TRUE(c.runsOn(8, 0));
  EXPECT_TRUE(c.runsOn(8, 9)); // same major, newer minor
  EXPECT_FALSE(c.runsOn(9, 0)); // cubins do not cross majors
  ASSERT_TRUE(Chip::parse("sm_120a", c));
  EXPECT_EQ(c.major, 12);
  for (const char *bad : {"", "sm_", "sm_9", "sm_9x", "90a", "compute_90",
                          "sm_1234"})
    EXPECT_FALSE(Chip::parse(bad, c)) << bad;
}

TEST(DispatchTable, AddRejectsBadEntries) {
  DispatchTable t;
  ASSERT_TRUE(t.add(spec("sm_90a", 1, 1, "k_t1")).ok());
  ASSERT_TRUE(t.add(spec("sm_90a", 2, 64, "k_short")).ok());
  ASSERT_TRUE(t.add(generic("sm_90a", "k")).ok());
  // The same range on another chip is fine.
  ASSERT_TRUE(t.add(spec("sm_80", 1, 1, "k80_t1")).ok());

  Status s = t.add(spec("sm_90a", 32, 128, "k_mid"));
  EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
  EXPECT_CONTAINS(s.message(), "duplicate specialisation of op 'decode' on "
                               "sm_90a: lengths 32..128 ('k_mid') overlap "
                               "2..64 ('k_short')");
  s = t.add(generic("sm_90a", "k2"));
  EXPECT_CONTAINS(s.message(), "duplicate generic kernel for op 'decode' on "
                               "sm_90a: 'k' and 'k2'");
  EXPECT_CONTAINS(t.add(spec("sm_9", 1, 2, "x")).message(), "bad chip 'sm_9'");
  EXPECT_CONTAINS(t.add(spec("sm_90a", 5, 4, "x")).message(),
                  "bad length range 5..4");
  EXPECT_CONTAINS(t.add(spec("sm_90a", -1, 4, "x")).message(),
                  "bad length range");
  EXPECT_CONTAINS(t.add(spec("sm_90a", 1, 4, "")).message(),
                  "the kernel name is empty");
  EXPECT_CONTAINS(t.add(spec("sm_90a", 1, 4, "x", "")).message(),
                  "the op name is empty");
  DispatchEntry otherDim = spec("sm_90a", 500, 600, "x");
  otherDim.dim = "T";
  EXPECT_CONTAINS(t.add(otherDim).message(),
                  "dispatch dimension 'T' differs from 't'");
  EXPECT_EQ(t.entries().size(), 4u);
  EXPECT_EQ(t.ops(), std::vector<std::string>{"decode"});
  EXPECT_EQ(t.dimOf("decode"), "t");
  EXPECT_CONTAINS(t.describe(), "decode sm_90a t=2..64 k_short image 0");
}

TEST(DispatchTable, SelectsSpecialisationThenGeneric) {
  DispatchTable t;
  ASSERT_TRUE(t.add(spec("sm_90a", 1, 1, "k_t1")).ok());
  ASSERT_TRUE(t.add(spec("sm_90a", 2, 64, "k_short")).ok());
  ASSERT_TRUE(t.add(spec("sm_90a", 4096, kMaxLength, "k_long")).ok());
  ASSERT_TRUE(t.add(generic("sm_90a", "k")).ok());
  EXPECT_EQ(pick(t, 9, 0, 1), "k_t1");
  EXPECT_EQ(pick(t, 9, 0, 2), "k_short");
  EXPECT_EQ(pick(t, 9, 0, 64), "k_short");
  EXPECT_EQ(pick(t, 9, 0, 65), "k");
  EXPECT_EQ(pick(t, 9, 0, 0), "k");
  EXPECT_EQ(pick(t, 9, 0, 1 << 20), "k_long");
  EXPECT_CONTAINS(pick(t, 9, 0, -1), "length -1 is negative");
}

TEST(DispatchTable, OutsideTableWithoutGenericIsAnError) {
  DispatchTable t;
  ASSERT_TRUE(t.add(spec("sm_90a", 1, 1, "k_t1")).ok());
  ASSERT_TRUE(t.add(spec("sm_90a", 2, 64, "k_short")).ok());
  const DispatchEntry *e = nullptr;
  Status s = t.select("decode", 9, 0, 5000, e);
  EXPECT_EQ(s.code(), ErrorCode::NotFound);
  EXPECT_EQ(e, nullptr);
  EXPECT_CONTAINS(s.message(), "op 'decode': no kernel for t=5000 on sm_90a "
                               "and no generic kernel; specialisations: "
                               "1..1 ('k_t1'), 2..64 ('k_short')");
}

TEST(DispatchTable, UnknownOpAndWrongArch) {
  DispatchTable t;
  ASSERT_TRUE(t.add(generic("sm_90a", "k")).ok());
  ASSERT_TRUE(t.add(generic("sm_90a", "p", "prefill")).ok());
  EXPECT_CONTAINS(pick(t, 9, 0, 1, "decod"),
                  "unknown op 'decod'; the bundle has: decode, prefill");
  EXPECT_CONTAINS(pick(t, 8, 0, 1),
                  "op 'decode' has no kernel for compute capability 8.0 "
                  "(wrong-arch bundle?); chips: sm_90a");
  EXPECT_CONTAINS(pick(t, 9, 1, 1), "compute capability 9.1");
}

TEST(DispatchTable, PicksTheClosestChip) {
  DispatchTable t;
  ASSERT_TRUE(t.add(generic("sm_80", "k80")).ok());
  ASSERT_TRUE(t.add(generic("sm_86", "k86")).ok());
  ASSERT_TRUE(t.add(generic("sm_90", "k90")).ok());
  ASSERT_TRUE(t.add(generic("sm_90a", "k90a")).ok());
  EXPECT_EQ(pick(t, 8, 0, 1), "k80");
  EXPECT_EQ(pick(t, 8, 6, 1), "k86");
  EXPECT_EQ(pick(t, 8, 9, 1), "k86");
  EXPECT_EQ(pick(t, 9, 0, 1), "k90a");
  // The closest chip's table is used even when another chip has a
  // specialisation: chips are not mixed.
  DispatchTable u;
  ASSERT_TRUE(u.add(spec("sm_80", 1, 1, "k80_t1")).ok());
  ASSERT_TRUE(u.add(generic("sm_86", "k86")).ok());
  EXPECT_EQ(pick(u, 8, 6, 1), "k86");
  EXPECT_EQ(pick(u, 8, 0, 1), "k80_t1");
}
