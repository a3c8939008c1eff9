//===- MetadataTest.cpp - kda2 kernel metadata parser (no GPU) ------------===//

#include "kda2/Runtime/Module.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace kda2::runtime;

namespace {

const char *kSample = "kda2-kernel-v1\n"
                      "name kda_fwd\n"
                      "block 128 2 1\n"
                      "grid.x 4 NT\n"
                      "grid.y B H\n"
                      "smem 65536\n"
                      "arg ptr q bf16 in 4 B H T 128\n"
                      "arg ptr o f32 out 3 B ? 64\n"
                      "arg ptr state f16 inout 0\n"
                      "arg scalar scale f32\n"
                      "arg scalar steps i64\n"
                      "arg dim T\n"
                      "arg dim NT\n"
                      "arg counters 2\n"
                      "counter flops i64\n"
                      "counter seconds f64\n"
                      "end\n";

std::string parseError(const std::string &text) {
  KernelInfo info;
  Status s = parseKernelMetadata(text, info);
  EXPECT_FALSE(s.ok()) << "parsed unexpectedly:\n" << text;
  if (s.ok())
    return "";
  EXPECT_EQ(s.code(), ErrorCode::Metadata);
  return s.message();
}

} // namespace

TEST(KernelMetadata, ParsesValidSample) {
  KernelInfo info;
  Status s = parseKernelMetadata(kSample, info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(info.name, "kda_fwd");
  EXPECT_EQ(info.block[0], 128u);
  EXPECT_EQ(info.block[1], 2u);
  EXPECT_EQ(info.block[2], 1u);
  ASSERT_EQ(info.gridX.size(), 2u);
  EXPECT_EQ(info.gridX[0].constant, 4);
  EXPECT_TRUE(info.gridX[0].dim.empty());
  EXPECT_EQ(info.gridX[1].dim, "NT");
  EXPECT_EQ(info.gridY, (std::vector<std::string>{"B", "H"}));
  EXPECT_EQ(info.sharedBytes, 65536u);

  ASSERT_EQ(info.args.size(), 8u);
  const ArgInfo &q = info.args[0];
  EXPECT_EQ(q.kind, ArgInfo::Ptr);
  EXPECT_EQ(q.name, "q");
  EXPECT_EQ(q.dtype, DType::BF16);
  EXPECT_EQ(q.access, Access::In);
  ASSERT_EQ(q.shape.size(), 4u);
  EXPECT_EQ(q.shape[0].kind, ShapeDim::Named);
  EXPECT_EQ(q.shape[0].name, "B");
  EXPECT_EQ(q.shape[3].kind, ShapeDim::Static);
  EXPECT_EQ(q.shape[3].size, 128);
  EXPECT_EQ(q.line, 7u);
  const ArgInfo &o = info.args[1];
  EXPECT_EQ(o.access, Access::Out);
  EXPECT_EQ(o.shape[1].kind, ShapeDim::Dynamic);
  EXPECT_EQ(info.args[2].access, Access::InOut);
  EXPECT_TRUE(info.args[2].shape.empty());
  EXPECT_EQ(info.args[3].kind, ArgInfo::Scalar);
  EXPECT_EQ(info.args[3].scalarType, ScalarType::F32);
  EXPECT_EQ(info.args[4].scalarType, ScalarType::I64);
  EXPECT_EQ(info.args[5].kind, ArgInfo::Dim);
  EXPECT_EQ(info.args[5].name, "T");
  EXPECT_EQ(info.args[6].kind, ArgInfo::Dim);
  EXPECT_EQ(info.args[6].name, "NT");
  EXPECT_EQ(info.args[7].kind, ArgInfo::Counters);
  EXPECT_EQ(info.args[7].name, "counters");
  EXPECT_EQ(info.args[7].numCounters, 2);
  ASSERT_EQ(info.counters.size(), 2u);
  EXPECT_EQ(info.counters[0].name, "flops");
  EXPECT_FALSE(info.counters[0].isFloat);
  EXPECT_TRUE(info.counters[1].isFloat);

  EXPECT_EQ(info.findArg("scale"), &info.args[3]);
  EXPECT_EQ(info.findArg("nope"), nullptr);
  EXPECT_EQ(info.dimNames(),
            (std::vector<std::string>{"B", "H", "NT", "T"}));
}

TEST(KernelMetadata, MinimalKernelDefaults) {
  KernelInfo info;
  Status s = parseKernelMetadata(
      "kda2-kernel-v1\nname k\nblock 32 1 1\ngrid.x\ngrid.y\nend\n", info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(info.gridX.empty());
  EXPECT_TRUE(info.gridY.empty());
  EXPECT_EQ(info.sharedBytes, 0u);
  EXPECT_TRUE(info.args.empty());
  // grid.x, grid.y and smem may be omitted.
  s = parseKernelMetadata("kda2-kernel-v1\nname k\nblock 32 1 1\nend", info);
  ASSERT_TRUE(s.ok()) << s.message();
}

TEST(KernelMetadata, ToleratesNulCrLfBlankLinesAndComments) {
  std::string text = "kda2-kernel-v1\r\nname k\r\n\r\n# a comment\r\n"
                     "block  32   1 1\r\nend\r\n";
  text.push_back('\0');
  text += "garbage after the terminator";
  KernelInfo info;
  Status s = parseKernelMetadata(text, info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(info.name, "k");
  EXPECT_EQ(info.block[0], 32u);
}

TEST(KernelMetadata, FormatRoundTrips) {
  KernelInfo info;
  ASSERT_TRUE(parseKernelMetadata(kSample, info).ok());
  std::string text = formatKernelMetadata(info);
  EXPECT_EQ(text, kSample);
  KernelInfo again;
  Status s = parseKernelMetadata(text, again);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(formatKernelMetadata(again), text);
}

TEST(KernelMetadata, DTypes) {
  struct {
    const char *name;
    size_t size;
  } cases[] = {{"f16", 2}, {"bf16", 2}, {"f32", 4}, {"f64", 8}, {"i1", 1},
               {"i8", 1},  {"ui8", 1},  {"i16", 2}, {"i32", 4}, {"i64", 8}};
  for (const auto &c : cases) {
    DType t;
    ASSERT_TRUE(parseDType(c.name, t)) << c.name;
    EXPECT_EQ(dtypeSize(t), c.size) << c.name;
    EXPECT_STREQ(dtypeName(t), c.name);
  }
  DType t;
  EXPECT_FALSE(parseDType("f8", t));
  EXPECT_FALSE(parseDType("", t));
}

struct ErrorCase {
  const char *what;
  std::string text;
  const char *expected; // substring of the message
};

TEST(KernelMetadata, ErrorsNameLineAndProblem) {
  const std::string h = "kda2-kernel-v1\n";
  const std::string k = h + "name k\nblock 32 1 1\n";
  const ErrorCase cases[] = {
      {"empty", "", "line 1: expected the header 'kda2-kernel-v1'"},
      {"bad header", "kda2-kernel\nname k\n",
       "line 1: expected the header 'kda2-kernel-v1', got 'kda2-kernel'"},
      {"newer version", "kda2-kernel-v2\nname k\nend\n",
       "line 1: unsupported metadata version 'kda2-kernel-v2'"},
      {"unknown directive", k + "grid.z 4\nend\n",
       "line 4: unknown directive 'grid.z'"},
      {"field count", h + "name k\nblock 32 1\nend\n",
       "line 3: 'block' takes 3 field(s), got 2"},
      {"name field count", h + "name a b\nend\n",
       "line 2: 'name' takes 1 field(s), got 2"},
      {"bad integer", h + "name k\nblock 32 x 1\nend\n",
       "line 3: bad integer 'x' in block"},
      {"zero block", h + "name k\nblock 0 1 1\nend\n",
       "line 3: bad integer '0' in block (expected a positive integer <= "
       "1024)"},
      {"negative smem", k + "smem -4\nend\n", "line 4: bad integer '-4' in smem"},
      {"grid.x zero", k + "grid.x 0 N\nend\n", "line 4: bad integer '0' in grid.x"},
      {"grid.y integer", k + "grid.y B 4\nend\n",
       "line 4: grid.y takes dimension names, got '4'"},
      {"bad name", k + "arg dim N-1\nend\n",
       "line 4: bad dimension name 'N-1'"},
      {"missing end", k + "arg dim N\n", "line 4: missing 'end'"},
      {"missing end, blank tail", k + "\n\n", "line 3: missing 'end'"},
      {"duplicate name directive", h + "name a\nname b\nblock 1 1 1\nend\n",
       "line 3: duplicate 'name' directive (first on line 2)"},
      {"duplicate block", k + "block 1 1 1\nend\n",
       "line 4: duplicate 'block' directive (first on line 3)"},
      {"duplicate arg name", k + "arg ptr a f32 in 1 N\narg scalar a f32\nend\n",
       "line 5: duplicate argument name 'a' (first on line 4)"},
      {"duplicate dim arg", k + "arg dim N\narg dim N\nend\n",
       "line 5: duplicate argument name 'N' (first on line 4)"},
      {"two counters args",
       k + "arg counters 1\narg counters 1\ncounter c i64\nend\n",
       "line 5: duplicate argument name 'counters' (first on line 4)"},
      {"duplicate counter", k + "arg counters 2\ncounter c i64\ncounter c f64\nend\n",
       "line 6: duplicate counter name 'c' (first on line 5)"},
      {"unknown dtype", k + "arg ptr a f8 in 1 N\nend\n",
       "line 4: unknown dtype 'f8'"},
      {"unknown access", k + "arg ptr a f32 rw 1 N\nend\n",
       "line 4: unknown access 'rw' (expected in, out or inout)"},
      {"rank mismatch", k + "arg ptr a f32 in 2 N\nend\n",
       "line 4: 'arg ptr a' has rank 2 but lists 1 dimension(s)"},
      {"bad rank", k + "arg ptr a f32 in r N\nend\n",
       "line 4: bad integer 'r' in rank"},
      {"short ptr", k + "arg ptr a f32\nend\n",
       "line 4: 'arg ptr' takes at least 4 fields"},
      {"bad static dim", k + "arg ptr a f32 in 1 -3\nend\n",
       "line 4: bad integer '-3' in shape of 'a'"},
      {"bad scalar type", k + "arg scalar s f16\nend\n",
       "line 4: bad scalar type 'f16'"},
      {"scalar field count", k + "arg scalar s\nend\n",
       "line 4: 'arg scalar' takes 2 field(s), got 1"},
      {"unknown arg kind", k + "arg tensor t\nend\n",
       "line 4: unknown arg kind 'tensor'"},
      {"arg without kind", k + "arg\nend\n", "line 4: 'arg' needs a kind"},
      {"zero counters", k + "arg counters 0\nend\n",
       "line 4: bad integer '0' in arg counters"},
      {"counter count mismatch", k + "arg counters 2\ncounter c i64\nend\n",
       "line 4: 'arg counters' declares 2 slot(s) but 1 'counter' line(s)"},
      {"counter without slots", k + "counter c i64\nend\n",
       "line 4: 'arg counters' declares 0 slot(s) but 1 'counter' line(s)"},
      {"bad counter type", k + "arg counters 1\ncounter c f32\nend\n",
       "line 5: bad counter type 'f32' (expected i64 or f64)"},
      {"text after end", k + "end\narg dim N\n",
       "line 5: unexpected text after 'end' (line 4)"},
      {"end with fields", k + "end now\n", "line 4: 'end' takes 0 field(s), got 1"},
      {"missing name", h + "block 1 1 1\nend\n",
       "line 3: missing 'name' directive"},
      {"missing block", h + "name k\nend\n",
       "line 3: missing 'block' directive"},
  };
  for (const ErrorCase &c : cases) {
    SCOPED_TRACE(c.what);
    std::string msg = parseError(c.text);
    EXPECT_NE(msg.find(c.expected), std::string::npos)
        << "message: " << msg << "\nexpected to contain: " << c.expected;
  }
}

TEST(KernelMetadata, FailedParseLeavesOutputEmpty) {
  KernelInfo info;
  info.name = "stale";
  Status s = parseKernelMetadata("kda2-kernel-v1\nname k\n", info);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(info.name.empty());
}

//===----------------------------------------------------------------------===//
// Module image scanning
//===----------------------------------------------------------------------===//

TEST(ScanKernelNames, FindsPtxDeclarations) {
  std::string ptx =
      ".version 7.0\n.target sm_60\n.address_size 64\n"
      ".visible .global .align 1 .b8 __kda2_meta_foo[3] = {107, 10, 0};\n"
      ".global .align 1 .b8 __kda2_meta_bar_2[1];\n"
      ".visible .entry foo() { mov.u64 %rd1, __kda2_meta_foo; ret; }\n"
      "// mentions __kda2_meta_notakernel in a comment\n";
  EXPECT_EQ(scanKernelNames(ptx.data(), ptx.size()),
            (std::vector<std::string>{"bar_2", "foo"}));
}

TEST(ScanKernelNames, FindsElfStringTableEntries) {
  const char raw[] = "\x7f"
                     "ELF\0\0.strtab\0__kda2_meta_k2\0__kda2_meta_k1\0k1\0k2\0"
                     "__kda2_meta_k1\0x__kda2_meta_nope\0__kda2_meta_\0";
  std::string strtab(raw, sizeof(raw) - 1);
  EXPECT_EQ(scanKernelNames(strtab.data(), strtab.size()),
            (std::vector<std::string>{"k1", "k2"}));
}

TEST(ScanKernelNames, SymbolAtEndOfImage) {
  std::string s = std::string("\0", 1) + "__kda2_meta_last";
  EXPECT_EQ(scanKernelNames(s.data(), s.size()),
            (std::vector<std::string>{"last"}));
  EXPECT_TRUE(scanKernelNames(nullptr, 0).empty());
}

namespace {
const char *kWithVariants = "kda2-kernel-v1\n"
                            "name sh\n"
                            "block 64 1 1\n"
                            "grid.x\n"
                            "grid.y n\n"
                            "smem 0\n"
                            "arg ptr x f32 in 3 n t 64\n"
                            "arg dim n\n"
                            "arg dim t\n"
                            "variant t 1 sh__t_1\n"
                            "variant t 4 sh__t_4\n"
                            "end\n";
} // namespace

TEST(KernelMetadata, ParsesShapeHintVariants) {
  KernelInfo info;
  ASSERT_TRUE(parseKernelMetadata(kWithVariants, info).ok());
  ASSERT_EQ(info.variants.size(), 2u);
  EXPECT_EQ(info.variants[0].dim, "t");
  EXPECT_EQ(info.variants[0].value, 1);
  EXPECT_EQ(info.variants[0].kernel, "sh__t_1");
  EXPECT_EQ(info.variants[1].value, 4);
  KernelInfo again;
  ASSERT_TRUE(parseKernelMetadata(formatKernelMetadata(info), again).ok());
  ASSERT_EQ(again.variants.size(), 2u);
  EXPECT_EQ(again.variants[1].kernel, "sh__t_4");
}

TEST(KernelMetadata, ParsesPaddedDimensions) {
  std::string text = kWithVariants;
  text.replace(text.find("arg dim n\n"), 0,
               "arg ptr m f32 out 3 n t t\npad m t 32\n");
  KernelInfo info;
  ASSERT_TRUE(parseKernelMetadata(text, info).ok());
  const ArgInfo *m = info.findArg("m");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->shape[0].padTo, 1);
  EXPECT_EQ(m->shape[1].padTo, 32);
  EXPECT_EQ(m->shape[2].padTo, 32);
  EXPECT_EQ(info.findArg("x")->shape[1].padTo, 1);
  KernelInfo again;
  ASSERT_TRUE(parseKernelMetadata(formatKernelMetadata(info), again).ok());
  EXPECT_EQ(again.findArg("m")->shape[2].padTo, 32);
  EXPECT_EQ(formatKernelMetadata(again), formatKernelMetadata(info));
}

TEST(KernelMetadata, PadErrors) {
  auto with = [](const std::string &line) {
    std::string text = kWithVariants;
    text.replace(text.find("arg dim n\n"), 0, line);
    return parseError(text);
  };
  EXPECT_EQ(with("pad y t 32\n"),
            "line 8: 'pad' names 'y', which is not an earlier pointer argument");
  EXPECT_EQ(with("pad x h 32\n"),
            "line 8: argument 'x' has no dimension named 'h'");
  EXPECT_EQ(with("pad x t 0\n").rfind("line 8: bad integer '0' in pad multiple", 0),
            0u);
  EXPECT_EQ(with("pad x t 32\npad x t 16\n"),
            "line 9: duplicate padding for 'x' 't'");
  EXPECT_EQ(with("pad x t\n").rfind("line 8: 'pad' takes 3 field(s)", 0), 0u);
}

TEST(KernelMetadata, VariantErrors) {
  std::string base = kWithVariants;
  std::string dup = base;
  dup.replace(dup.find("variant t 4"), 11, "variant t 1");
  EXPECT_NE(parseError(dup).find("duplicate variant for t = 1"),
            std::string::npos);
  std::string zero = base;
  zero.replace(zero.find("variant t 4"), 11, "variant t 0");
  EXPECT_EQ(parseError(zero).rfind("line 11: ", 0), 0u) << parseError(zero);
  std::string fields = base;
  fields.replace(fields.find("variant t 4 sh__t_4"), 19, "variant t 4");
  EXPECT_EQ(parseError(fields).rfind("line 11: ", 0), 0u);
}

namespace {
/// A decode-like kernel with two state arguments, for the `state` lines.
const char *kWithStates = "kda2-kernel-v1\n"          // 1
                          "name st\n"                 // 2
                          "block 32 1 1\n"            // 3
                          "state ht vk\n"             // 4 (before its arg)
                          "arg ptr h0 f32 in 4 n h 64 128\n"  // 5
                          "arg ptr ht f32 out 4 n h 128 64\n" // 6
                          "arg scalar scale f32\n"    // 7
                          "arg dim n\n"               // 8
                          "state h0 kv\n"             // 9
                          "end\n";                    // 10
} // namespace

TEST(KernelMetadata, ParsesStateLayouts) {
  KernelInfo info;
  Status s = parseKernelMetadata(kWithStates, info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(info.findArg("h0")->stateLayout, StateOrder::KV);
  EXPECT_EQ(info.findArg("h0")->stateLine, 9u);
  EXPECT_EQ(info.findArg("ht")->stateLayout, StateOrder::VK);
  EXPECT_EQ(info.findArg("ht")->stateLine, 4u);
  EXPECT_EQ(info.findArg("scale")->stateLayout, StateOrder::None);
  // Printed after the arguments, in argument order; the text round-trips.
  std::string text = formatKernelMetadata(info);
  EXPECT_NE(text.find("state h0 kv\nstate ht vk\nend\n"), std::string::npos)
      << text;
  KernelInfo again;
  ASSERT_TRUE(parseKernelMetadata(text, again).ok());
  EXPECT_EQ(formatKernelMetadata(again), text);
  EXPECT_EQ(again.findArg("ht")->stateLayout, StateOrder::VK);
  EXPECT_STREQ(stateOrderName(StateOrder::VK), "vk");
  EXPECT_STREQ(stateOrderDescription(StateOrder::KV), "K-major (kv)");
  EXPECT_STREQ(stateOrderDescription(StateOrder::None), "undeclared");
  StateOrder order;
  EXPECT_FALSE(parseStateOrder("none", order));
  EXPECT_FALSE(parseStateOrder("KV", order));
}

TEST(KernelMetadata, StateLineErrors) {
  auto with = [](const std::string &from, const std::string &to) {
    std::string text = kWithStates;
    text.replace(text.find(from), from.size(), to);
    return parseError(text);
  };
  EXPECT_EQ(with("state h0 kv\n", "state h1 kv\n"),
            "line 9: 'state' names 'h1', which is not an argument");
  EXPECT_EQ(with("state h0 kv\n", "state scale kv\n"),
            "line 9: 'state' names 'scale', which is not a pointer argument "
            "(line 7)");
  EXPECT_EQ(with("state h0 kv\n", "state h0 kk\n"),
            "line 9: bad state layout 'kk' (expected kv: K-major [.., K, V], "
            "or vk: V-major [.., V, K])");
  EXPECT_EQ(with("state h0 kv\n", "state ht kv\n"),
            "line 9: duplicate 'state' line for 'ht' (first on line 4)");
  EXPECT_EQ(with("state h0 kv\n", "state h0\n"),
            "line 9: 'state' takes 2 field(s), got 1");
  EXPECT_EQ(with("state h0 kv\n", "state h0 kv vk\n"),
            "line 9: 'state' takes 2 field(s), got 3");
  EXPECT_EQ(with("state h0 kv\n", "state 0h kv\n"),
            "line 9: bad argument name '0h' (expected "
            "[A-Za-z_$.][A-Za-z0-9_$.]*)");
}

namespace {
/// A prep-like kernel with `range` lines (the compiler's form: after the
/// argument's `arg` line; bounds printed with %g, infinities as -inf/inf).
const char *kWithRanges = "kda2-kernel-v1\n"            // 1
                          "name rg\n"                   // 2
                          "block 32 1 1\n"              // 3
                          "arg ptr g f32 in 2 tt 128\n" // 4
                          "range g -5 0\n"              // 5
                          "arg scalar scale f32\n"      // 6
                          "arg ptr beta f32 in 1 tt\n"  // 7
                          "range scale 0 inf\n"         // 8
                          "arg dim tt\n"                // 9
                          "end\n";                      // 10
} // namespace

TEST(KernelMetadata, ParsesRanges) {
  KernelInfo info;
  Status s = parseKernelMetadata(kWithRanges, info);
  ASSERT_TRUE(s.ok()) << s.message();
  const ArgInfo *g = info.findArg("g");
  ASSERT_TRUE(g->hasRange);
  EXPECT_EQ(g->rangeLo, -5);
  EXPECT_EQ(g->rangeHi, 0);
  EXPECT_EQ(g->rangeLine, 5u);
  const ArgInfo *scale = info.findArg("scale");
  ASSERT_TRUE(scale->hasRange);
  EXPECT_EQ(scale->rangeLo, 0);
  EXPECT_TRUE(std::isinf(scale->rangeHi) && scale->rangeHi > 0);
  EXPECT_FALSE(info.findArg("beta")->hasRange);
  // Printed after the arguments, in argument order; the text round-trips.
  std::string text = formatKernelMetadata(info);
  EXPECT_NE(text.find("range g -5 0\nrange scale 0 inf\nend\n"),
            std::string::npos)
      << text;
  KernelInfo again;
  ASSERT_TRUE(parseKernelMetadata(text, again).ok());
  EXPECT_EQ(formatKernelMetadata(again), text);
  EXPECT_EQ(formatRangeBound(-INFINITY), "-inf");
  EXPECT_EQ(formatRangeBound(0.25), "0.25");
  EXPECT_EQ(formatRangeBound(-1e-07), "-1e-07");
  // %g forms and infinities parse.
  std::string t = kWithRanges;
  t.replace(t.find("range g -5 0"), 12, "range g -inf -1e-07");
  ASSERT_TRUE(parseKernelMetadata(t, info).ok());
  EXPECT_TRUE(std::isinf(info.findArg("g")->rangeLo));
  EXPECT_EQ(info.findArg("g")->rangeHi, -1e-07);
}

TEST(KernelMetadata, RangeLineErrors) {
  auto with = [](const std::string &to) {
    std::string text = kWithRanges;
    const std::string from = "range g -5 0\n";
    text.replace(text.find(from), from.size(), to);
    return parseError(text);
  };
  EXPECT_EQ(with("range h -5 0\n"),
            "line 5: 'range' names 'h', which is not an argument");
  EXPECT_EQ(with("range tt 0 8\n"),
            "line 5: 'range' names 'tt', which is not a pointer or scalar "
            "argument (line 9)");
  EXPECT_EQ(with("range g 0 -5\n"),
            "line 5: empty range of 'g': lower bound 0 > upper bound -5");
  EXPECT_EQ(with("range g -5 0\nrange g -4 0\n"),
            "line 6: duplicate 'range' line for 'g' (first on line 5)");
  EXPECT_EQ(with("range g -5\n"), "line 5: 'range' takes 3 field(s), got 2");
  EXPECT_EQ(with("range g -5 0 1\n"),
            "line 5: 'range' takes 3 field(s), got 4");
  EXPECT_EQ(with("range g x 0\n"),
            "line 5: bad lower bound 'x' in 'range' (expected a number, -inf "
            "or inf)");
  EXPECT_EQ(with("range g -5 nan\n"),
            "line 5: bad upper bound 'nan' in 'range' (expected a number, "
            "-inf or inf)");
  EXPECT_EQ(with("range g -5 0x\n"),
            "line 5: bad upper bound '0x' in 'range' (expected a number, -inf "
            "or inf)");
  EXPECT_EQ(with("range 0g -5 0\n"), "line 5: bad argument name '0g' (expected "
                                     "[A-Za-z_$.][A-Za-z0-9_$.]*)");
}

namespace {
const char *kWithStrides = "kda2-kernel-v1\n"                // 1
                           "name st\n"                       // 2
                           "block 32 1 1\n"                  // 3
                           "arg ptr q bf16 in 3 tt h 128\n"  // 4
                           "stride q sq\n"                   // 5
                           "arg ptr beta f32 in 2 tt h\n"    // 6
                           "stride beta sb\n"                // 7
                           "arg scalar sq i64\n"             // 8
                           "arg scalar sb i32\n"             // 9
                           "arg scalar scale f32\n"          // 10
                           "arg dim tt\n"                    // 11
                           "arg dim h\n"                     // 12
                           "end\n";                          // 13
} // namespace

TEST(KernelMetadata, ParsesStrides) {
  KernelInfo info;
  Status s = parseKernelMetadata(kWithStrides, info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(info.findArg("q")->strideScalar, "sq");
  EXPECT_EQ(info.findArg("q")->strideLine, 5u);
  EXPECT_EQ(info.findArg("beta")->strideScalar, "sb");
  EXPECT_TRUE(info.findArg("sq")->strideScalar.empty());
  // Printed after the arguments; the text round-trips.
  std::string text = formatKernelMetadata(info);
  EXPECT_NE(text.find("stride q sq\nstride beta sb\n"), std::string::npos)
      << text;
  KernelInfo again;
  ASSERT_TRUE(parseKernelMetadata(text, again).ok());
  EXPECT_EQ(formatKernelMetadata(again), text);
}

TEST(KernelMetadata, StrideLineErrors) {
  auto with = [](const std::string &to) {
    std::string text = kWithStrides;
    const std::string from = "stride q sq\n";
    text.replace(text.find(from), from.size(), to);
    return parseError(text);
  };
  EXPECT_EQ(with("stride x sq\n"),
            "line 5: 'stride' names 'x', which is not a pointer argument");
  EXPECT_EQ(with("stride sq sq\n"),
            "line 5: 'stride' names 'sq', which is not a pointer argument");
  EXPECT_EQ(with("stride q scale\n"),
            "line 5: 'stride' of 'q' names 'scale', which is not an i32 or "
            "i64 scalar argument");
  EXPECT_EQ(with("stride q tt\n"),
            "line 5: 'stride' of 'q' names 'tt', which is not an i32 or i64 "
            "scalar argument");
  EXPECT_EQ(with("stride q\n"), "line 5: 'stride' takes 2 field(s), got 1");
  EXPECT_EQ(with("stride q sq\nstride q sb\n"),
            "line 6: duplicate 'stride' line for 'q' (first on line 5)");
}

namespace {
// A kernel built with compile-time switches (kda_decode_serve: gate family,
// beta sigmoid, q/k L2 norm), as the compiler writes them: `bind` lines
// sorted by name, before `end`.
const char *kWithBindings = "kda2-kernel-v1\n"      // 1
                            "name serve\n"          // 2
                            "block 128 1 1\n"       // 3
                            "grid.x 1\n"            // 4
                            "grid.y n\n"            // 5
                            "arg ptr x f32 in 2 n 128\n" // 6
                            "arg dim n\n"           // 7
                            "bind BS 1\n"           // 8
                            "bind GF 2\n"           // 9
                            "bind K 128\n"          // 10
                            "bind QKN 0\n"          // 11
                            "end\n";                // 12
} // namespace

TEST(KernelMetadata, ParsesBindings) {
  KernelInfo info;
  Status s = parseKernelMetadata(kWithBindings, info);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(info.bindings.size(), 4u);
  EXPECT_EQ(info.bindings[0].name, "BS");
  EXPECT_EQ(info.bindings[3].name, "QKN");
  EXPECT_EQ(info.binding("GF"), std::optional<int64_t>(2));
  EXPECT_EQ(info.binding(std::string("K")), std::optional<int64_t>(128));
  EXPECT_EQ(info.binding("QKN"), std::optional<int64_t>(0));
  EXPECT_EQ(info.binding("LANES"), std::nullopt);
  EXPECT_EQ(info.binding("gf"), std::nullopt); // names are case-sensitive
  EXPECT_EQ(info.binding(""), std::nullopt);
  // A binding is not a dimension.
  EXPECT_EQ(info.dimNames(), (std::vector<std::string>{"n"}));
  // Printed before `end` in line order; the text round-trips.
  std::string text = formatKernelMetadata(info);
  EXPECT_NE(text.find("bind BS 1\nbind GF 2\nbind K 128\nbind QKN 0\nend\n"),
            std::string::npos)
      << text;
  KernelInfo again;
  ASSERT_TRUE(parseKernelMetadata(text, again).ok());
  EXPECT_EQ(formatKernelMetadata(again), text);
  // Metadata without `bind` lines (older kernels) has none.
  ASSERT_TRUE(parseKernelMetadata(kSample, info).ok());
  EXPECT_TRUE(info.bindings.empty());
  EXPECT_EQ(info.binding("GF"), std::nullopt);
}

TEST(KernelMetadata, ParsesExtremeBindingValues) {
  std::string text = kWithBindings;
  const std::string from = "bind K 128\n";
  text.replace(text.find(from), from.size(),
               "bind MIN -9223372036854775808\n"
               "bind MAX 9223372036854775807\n"
               "bind a.b$_1 -1\n");
  KernelInfo info;
  Status s = parseKernelMetadata(text, info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(info.binding("MIN"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(info.binding("MAX"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(info.binding("a.b$_1"), std::optional<int64_t>(-1));
  std::string formatted = formatKernelMetadata(info);
  EXPECT_NE(formatted.find("bind MIN -9223372036854775808\n"
                           "bind MAX 9223372036854775807\n"),
            std::string::npos)
      << formatted;
  KernelInfo again;
  ASSERT_TRUE(parseKernelMetadata(formatted, again).ok());
  EXPECT_EQ(formatKernelMetadata(again), formatted);
}

TEST(KernelMetadata, ParsesProgrammaticLaunch) {
  // `pdl 1`: the kernel waits for its predecessor's ready flags itself and
  // is launched as that kernel's programmatic dependent.
  std::string text = kWithBindings;
  KernelInfo info;
  ASSERT_TRUE(parseKernelMetadata(text, info).ok());
  EXPECT_FALSE(info.programmatic);
  EXPECT_EQ(formatKernelMetadata(info).find("pdl"), std::string::npos);
  text.replace(text.find("bind BS 1\n"), 0, "pdl 1\n");
  Status s = parseKernelMetadata(text, info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(info.programmatic);
  std::string formatted = formatKernelMetadata(info);
  EXPECT_NE(formatted.find("pdl 1\nbind BS 1\n"), std::string::npos)
      << formatted;
  KernelInfo again;
  ASSERT_TRUE(parseKernelMetadata(formatted, again).ok());
  EXPECT_TRUE(again.programmatic);
}

TEST(KernelMetadata, ParsesPersistentLaunch) {
  // `persistent n`: launched with at most n blocks per SM (@persistent).
  std::string text = kWithBindings;
  KernelInfo info;
  ASSERT_TRUE(parseKernelMetadata(text, info).ok());
  EXPECT_EQ(info.persistentBlocks, 0);
  text.replace(text.find("bind BS 1\n"), 0, "persistent 2\npdl 1\n");
  Status s = parseKernelMetadata(text, info);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(info.persistentBlocks, 2);
  std::string formatted = formatKernelMetadata(info);
  EXPECT_NE(formatted.find("persistent 2\npdl 1\nbind BS 1\n"),
            std::string::npos)
      << formatted;
  auto with = [](const std::string &to) {
    std::string text = kWithBindings;
    const std::string from = "bind GF 2\n";
    text.replace(text.find(from), from.size(), to);
    return parseError(text);
  };
  EXPECT_EQ(with("persistent 2\npersistent 2\n"),
            "line 10: duplicate 'persistent' line");
  EXPECT_EQ(with("persistent 0\n"),
            "line 9: bad integer '0' in persistent (expected a positive "
            "integer <= 32)");
  EXPECT_EQ(with("persistent 33\n"),
            "line 9: bad integer '33' in persistent (expected a positive "
            "integer <= 32)");
  EXPECT_EQ(with("persistent\n"), "line 9: 'persistent' takes 1 field(s), got 0");
}

TEST(KernelMetadata, ProgrammaticLaunchLineErrors) {
  auto with = [](const std::string &to) {
    std::string text = kWithBindings;
    const std::string from = "bind GF 2\n";
    text.replace(text.find(from), from.size(), to);
    return parseError(text);
  };
  EXPECT_EQ(with("pdl 1\npdl 1\n"), "line 10: duplicate 'pdl' line");
  EXPECT_EQ(with("pdl 0\n"), "line 9: 'pdl' takes the value 1, got '0'");
  EXPECT_EQ(with("pdl yes\n"), "line 9: 'pdl' takes the value 1, got 'yes'");
  EXPECT_EQ(with("pdl\n"), "line 9: 'pdl' takes 1 field(s), got 0");
}

TEST(KernelMetadata, BindLineErrors) {
  auto with = [](const std::string &to) {
    std::string text = kWithBindings;
    const std::string from = "bind GF 2\n";
    text.replace(text.find(from), from.size(), to);
    return parseError(text);
  };
  // Duplicate name: the error names both lines.
  EXPECT_EQ(with("bind GF 2\nbind GF 1\n"),
            "line 10: duplicate 'bind' line for 'GF' (first on line 9)");
  EXPECT_EQ(with("bind BS 0\n"),
            "line 9: duplicate 'bind' line for 'BS' (first on line 8)");
  // Malformed values.
  EXPECT_EQ(with("bind GF two\n"),
            "line 9: bad integer 'two' in bind (expected an integer)");
  EXPECT_EQ(with("bind GF 2.5\n"),
            "line 9: bad integer '2.5' in bind (expected an integer)");
  EXPECT_EQ(with("bind GF +2\n"),
            "line 9: bad integer '+2' in bind (expected an integer)");
  EXPECT_EQ(with("bind GF 0x10\n"),
            "line 9: bad integer '0x10' in bind (expected an integer)");
  EXPECT_EQ(with("bind GF -\n"),
            "line 9: bad integer '-' in bind (expected an integer)");
  // Out of int64: refused, no wrap-around.
  EXPECT_EQ(with("bind GF 9223372036854775808\n"),
            "line 9: bad integer '9223372036854775808' in bind (expected an "
            "integer)");
  EXPECT_EQ(with("bind GF -9223372036854775809\n"),
            "line 9: bad integer '-9223372036854775809' in bind (expected an "
            "integer)");
  EXPECT_EQ(with("bind GF 99999999999999999999999999999999999999\n"),
            "line 9: bad integer '99999999999999999999999999999999999999' in "
            "bind (expected an integer)");
  // Names as elsewhere in the metadata.
  EXPECT_EQ(with("bind 2GF 2\n"),
            "line 9: bad binding name '2GF' (expected "
            "[A-Za-z_$.][A-Za-z0-9_$.]*)");
  EXPECT_EQ(with("bind G-F 2\n"),
            "line 9: bad binding name 'G-F' (expected "
            "[A-Za-z_$.][A-Za-z0-9_$.]*)");
  // Field counts.
  EXPECT_EQ(with("bind GF\n"), "line 9: 'bind' takes 2 field(s), got 1");
  EXPECT_EQ(with("bind GF 2 3\n"), "line 9: 'bind' takes 2 field(s), got 3");
  EXPECT_EQ(with("bind\n"), "line 9: 'bind' takes 2 field(s), got 0");
}
