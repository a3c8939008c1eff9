//===- LaunchConfigTest.cpp - grid/block/params from metadata (no GPU) ----===//

#include "kda2/Runtime/Module.h"

#include "gtest/gtest.h"

#include <cstring>
#include <optional>
#include <string>

using namespace kda2::runtime;

namespace {

const char *kMeta = "kda2-kernel-v1\n"
                    "name kda_fwd\n"
                    "block 128 2 1\n"
                    "grid.x 4 NT\n"
                    "grid.y B H\n"
                    "smem 1024\n"
                    "arg ptr q bf16 in 4 B H T 128\n"
                    "arg ptr o f32 out 3 B ? 64\n"
                    "arg scalar scale f32\n"
                    "arg scalar steps i64\n"
                    "arg scalar mode i32\n"
                    "arg dim T\n"
                    "arg dim NT\n"
                    "arg counters 1\n"
                    "counter flops i64\n"
                    "end\n";

// Fake device pointers: never dereferenced on the host.
const void *const kQ = reinterpret_cast<const void *>(0x1000);
const void *const kO = reinterpret_cast<const void *>(0x2000);
const void *const kC = reinterpret_cast<const void *>(0x3000);

class LaunchConfigTest : public ::testing::Test {
protected:
  void SetUp() override {
    Status s = parseKernelMetadata(kMeta, info);
    ASSERT_TRUE(s.ok()) << s.message();
  }

  /// Arguments that make a valid launch; tests remove or change one.
  LaunchArgs fullArgs(int64_t b = 2, int64_t h = 3, int64_t nt = 10) {
    LaunchArgs a;
    a.ptr("q", kQ).ptr("o", kO).ptr("counters", kC);
    a.dim("B", b).dim("H", h).dim("T", 77).dim("NT", nt);
    a.scalar("scale", 0.5).scalar("steps", 7).scalar("mode", -2);
    return a;
  }

  std::string error(const LaunchArgs &args, ErrorCode expected) {
    LaunchConfig cfg;
    Status s = computeLaunchConfig(info, args, cfg);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), expected) << s.message();
    return s.message();
  }

  KernelInfo info;
};

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)             \
      << "message: " << (haystack) << "\nexpected to contain: " << (needle)

} // namespace

TEST_F(LaunchConfigTest, ComputesGridBlockAndParams) {
  LaunchConfig cfg;
  Status s = computeLaunchConfig(info, fullArgs(), cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cfg.grid[0], 10u); // max(4, NT=10)
  EXPECT_EQ(cfg.grid[1], 6u);  // B * H
  EXPECT_EQ(cfg.grid[2], 1u);
  EXPECT_EQ(cfg.block[0], 128u);
  EXPECT_EQ(cfg.block[1], 2u);
  EXPECT_EQ(cfg.block[2], 1u);
  EXPECT_EQ(cfg.sharedBytes, 1024u);
  EXPECT_FALSE(cfg.empty());

  ASSERT_EQ(cfg.params.size(), 8u);
  EXPECT_EQ(cfg.paramSizes,
            (std::vector<unsigned>{8, 8, 4, 8, 4, 8, 8, 8}));
  EXPECT_EQ(cfg.params[0], 0x1000u);
  EXPECT_EQ(cfg.params[1], 0x2000u);
  float scale;
  std::memcpy(&scale, &cfg.params[2], sizeof(scale));
  EXPECT_EQ(scale, 0.5f);
  EXPECT_EQ(static_cast<int64_t>(cfg.params[3]), 7);
  int32_t mode;
  std::memcpy(&mode, &cfg.params[4], sizeof(mode));
  EXPECT_EQ(mode, -2);
  EXPECT_EQ(static_cast<int64_t>(cfg.params[5]), 77); // T
  EXPECT_EQ(static_cast<int64_t>(cfg.params[6]), 10); // NT
  EXPECT_EQ(cfg.params[7], 0x3000u);                  // counters
  EXPECT_EQ(cfg.dim("B"), 2);
  EXPECT_EQ(cfg.dim("nope"), -1);
}

TEST_F(LaunchConfigTest, GridXIsMaxOfTerms) {
  LaunchConfig cfg;
  ASSERT_TRUE(computeLaunchConfig(info, fullArgs(2, 3, 1), cfg).ok());
  EXPECT_EQ(cfg.grid[0], 4u); // the constant term wins
  ASSERT_TRUE(computeLaunchConfig(info, fullArgs(2, 3, 4096), cfg).ok());
  EXPECT_EQ(cfg.grid[0], 4096u);
}

TEST_F(LaunchConfigTest, NoGridTermsMeansOne) {
  KernelInfo k;
  ASSERT_TRUE(parseKernelMetadata(
                  "kda2-kernel-v1\nname k\nblock 64 1 1\ngrid.x\ngrid.y\nend\n",
                  k)
                  .ok());
  LaunchConfig cfg;
  Status s = computeLaunchConfig(k, LaunchArgs(), cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cfg.grid[0], 1u);
  EXPECT_EQ(cfg.grid[1], 1u);
  EXPECT_TRUE(cfg.params.empty());
}

TEST_F(LaunchConfigTest, ZeroSizedGridIsEmpty) {
  LaunchConfig cfg;
  ASSERT_TRUE(computeLaunchConfig(info, fullArgs(0, 3, 10), cfg).ok());
  EXPECT_EQ(cfg.grid[1], 0u);
  EXPECT_TRUE(cfg.empty());
}

TEST_F(LaunchConfigTest, MissingDimensionIsNamed) {
  LaunchArgs a;
  a.ptr("q", kQ).ptr("o", kO).ptr("counters", kC);
  a.dim("B", 2).dim("T", 77).dim("NT", 10);
  a.scalar("scale", 0.5).scalar("steps", 7).scalar("mode", 1);
  EXPECT_CONTAINS(error(a, ErrorCode::InvalidArgument),
                  "kernel 'kda_fwd': missing size of dimension 'H' (used by "
                  "grid.y)");

  LaunchArgs b;
  b.ptr("q", kQ).ptr("o", kO).ptr("counters", kC);
  b.dim("B", 2).dim("H", 3).dim("NT", 10);
  b.scalar("scale", 0.5).scalar("steps", 7).scalar("mode", 1);
  EXPECT_CONTAINS(error(b, ErrorCode::InvalidArgument),
                  "missing size of dimension 'T' (argument 'T')");
}

TEST_F(LaunchConfigTest, NullPointerIsNamed) {
  LaunchArgs a = fullArgs();
  LaunchArgs b;
  b.ptr("q", kQ).ptr("o", static_cast<const void *>(nullptr)).ptr("counters", kC);
  for (const auto &d : a.dims())
    b.dim(d.name, d.value);
  b.scalar("scale", 0.5).scalar("steps", 7).scalar("mode", 1);
  EXPECT_CONTAINS(error(b, ErrorCode::InvalidArgument),
                  "pointer argument 'o' is null");
}

TEST_F(LaunchConfigTest, MissingPointerAndCountersAreNamed) {
  LaunchArgs a;
  a.ptr("q", kQ).ptr("counters", kC);
  a.dim("B", 2).dim("H", 3).dim("T", 77).dim("NT", 10);
  a.scalar("scale", 0.5).scalar("steps", 7).scalar("mode", 1);
  EXPECT_CONTAINS(error(a, ErrorCode::InvalidArgument),
                  "missing pointer argument 'o'");

  LaunchArgs b;
  b.ptr("q", kQ).ptr("o", kO);
  b.dim("B", 2).dim("H", 3).dim("T", 77).dim("NT", 10);
  b.scalar("scale", 0.5).scalar("steps", 7).scalar("mode", 1);
  EXPECT_CONTAINS(error(b, ErrorCode::InvalidArgument),
                  "missing the counters buffer (pointer argument 'counters', "
                  "1 8-byte slots)");
}

TEST_F(LaunchConfigTest, MissingScalarIsNamed) {
  LaunchArgs a;
  a.ptr("q", kQ).ptr("o", kO).ptr("counters", kC);
  a.dim("B", 2).dim("H", 3).dim("T", 77).dim("NT", 10);
  a.scalar("scale", 0.5).scalar("mode", 1);
  EXPECT_CONTAINS(error(a, ErrorCode::InvalidArgument),
                  "missing scalar argument 'steps' (i64)");
}

TEST_F(LaunchConfigTest, UnknownAndDuplicateNames) {
  LaunchArgs a = fullArgs();
  a.ptr("k", kQ);
  EXPECT_CONTAINS(error(a, ErrorCode::InvalidArgument),
                  "unknown pointer argument 'k' (pointer arguments: q, o, "
                  "counters)");
  LaunchArgs b = fullArgs();
  b.dim("D", 3);
  EXPECT_CONTAINS(error(b, ErrorCode::InvalidArgument),
                  "unknown dimension 'D' (dimensions: B, H, NT, T)");
  LaunchArgs c = fullArgs();
  c.scalar("alpha", 1.0);
  EXPECT_CONTAINS(error(c, ErrorCode::InvalidArgument),
                  "unknown scalar argument 'alpha' (scalar arguments: scale, "
                  "steps, mode)");
  LaunchArgs d = fullArgs();
  d.dim("B", 2);
  EXPECT_CONTAINS(error(d, ErrorCode::InvalidArgument),
                  "dimension 'B' given twice");
  LaunchArgs e = fullArgs();
  e.ptr("q", kQ);
  EXPECT_CONTAINS(error(e, ErrorCode::InvalidArgument),
                  "pointer argument 'q' given twice");
  LaunchArgs f;
  f.dim("B", -1);
  EXPECT_CONTAINS(error(f, ErrorCode::InvalidArgument),
                  "dimension 'B' has negative size -1");
}

TEST_F(LaunchConfigTest, GridYOverflowNamesDims) {
  std::string msg = error(fullArgs(300, 300, 10), ErrorCode::LaunchConfig);
  EXPECT_CONTAINS(msg, "grid.y = B(300) * H(300) = 90000 exceeds the CUDA "
                       "limit of 65535");
  // Exactly at the limit is fine.
  LaunchConfig cfg;
  ASSERT_TRUE(computeLaunchConfig(info, fullArgs(65535, 1, 10), cfg).ok());
  EXPECT_EQ(cfg.grid[1], 65535u);
  // int64 overflow of the product is reported, not wrapped.
  msg = error(fullArgs(int64_t(1) << 40, int64_t(1) << 40, 10),
              ErrorCode::LaunchConfig);
  EXPECT_CONTAINS(msg, "(overflow) exceeds the CUDA limit of 65535");
}

TEST_F(LaunchConfigTest, GridXOverflow) {
  std::string msg =
      error(fullArgs(2, 3, int64_t(1) << 31), ErrorCode::LaunchConfig);
  EXPECT_CONTAINS(msg, "grid.x = max(4, NT(2147483648)) = 2147483648 exceeds "
                       "the CUDA limit of 2147483647");
}

TEST_F(LaunchConfigTest, ShapesAreCheckedAndInferDims) {
  // T and B come from q's shape; H is given and must match.
  LaunchArgs a;
  a.ptr("q", kQ, {2, 3, 50, 128}).ptr("o", kO).ptr("counters", kC);
  a.dim("H", 3).dim("NT", 5);
  a.scalar("scale", 1).scalar("steps", 1).scalar("mode", 1);
  LaunchConfig cfg;
  Status s = computeLaunchConfig(info, a, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cfg.dim("T"), 50);
  EXPECT_EQ(cfg.dim("B"), 2);
  EXPECT_EQ(cfg.grid[1], 6u);
  EXPECT_EQ(static_cast<int64_t>(cfg.params[5]), 50);

  LaunchArgs b;
  b.ptr("q", kQ, {2, 3, 50, 64});
  EXPECT_CONTAINS(error(b, ErrorCode::InvalidArgument),
                  "argument 'q' dimension 3 is 64 but the kernel was compiled "
                  "for 128");
  LaunchArgs c;
  c.ptr("q", kQ, {2, 3, 50});
  EXPECT_CONTAINS(error(c, ErrorCode::InvalidArgument),
                  "argument 'q' has rank 3 but the kernel expects rank 4");
  LaunchArgs d;
  d.dim("H", 4).ptr("q", kQ, {2, 3, 50, 128});
  EXPECT_CONTAINS(error(d, ErrorCode::InvalidArgument),
                  "argument 'q' dimension 1 (H) is 3 but H = 4");
  LaunchArgs e;
  e.ptr("q", kQ, {2, 3, 50, 128}).ptr("o", kO, {3, 9, 64});
  EXPECT_CONTAINS(error(e, ErrorCode::InvalidArgument),
                  "argument 'o' dimension 0 (B) is 3 but B = 2");
}

TEST_F(LaunchConfigTest, ScalarConversions) {
  LaunchArgs b;
  b.ptr("q", kQ).ptr("o", kO).ptr("counters", kC);
  b.dim("B", 2).dim("H", 3).dim("T", 77).dim("NT", 10);
  b.scalar("scale", 2).scalar("steps", 3.0).scalar("mode", 5.0);
  LaunchConfig cfg;
  Status s = computeLaunchConfig(info, b, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  float scale;
  std::memcpy(&scale, &cfg.params[2], sizeof(scale));
  EXPECT_EQ(scale, 2.0f);
  EXPECT_EQ(static_cast<int64_t>(cfg.params[3]), 3);

  LaunchArgs c;
  c.ptr("q", kQ).ptr("o", kO).ptr("counters", kC);
  c.dim("B", 2).dim("H", 3).dim("T", 77).dim("NT", 10);
  c.scalar("scale", 1).scalar("steps", 2.5).scalar("mode", 1);
  EXPECT_CONTAINS(error(c, ErrorCode::InvalidArgument),
                  "scalar argument 'steps' (i64) needs an integer");
  LaunchArgs d;
  d.ptr("q", kQ).ptr("o", kO).ptr("counters", kC);
  d.dim("B", 2).dim("H", 3).dim("T", 77).dim("NT", 10);
  d.scalar("scale", 1).scalar("steps", 1).scalar("mode", int64_t(1) << 40);
  EXPECT_CONTAINS(error(d, ErrorCode::InvalidArgument),
                  "scalar argument 'mode' (i32) needs an integer in "
                  "[-2147483648, 2147483647], got 1099511627776");
}

//===----------------------------------------------------------------------===//
// Tensor maps (TMA): what cuTensorMapEncodeTiled will get, without a GPU
//===----------------------------------------------------------------------===//

namespace {
// a: [b, c, 64, 32] bf16 row-major, read in [64, 32] tiles; x: [b, s, 8]
// f32 with s padded to 32 (stored rows of 32 * 8 floats), its map listing
// the dimensions innermost first.
const char *kTmaMeta = "kda2-kernel-v1\n"
                       "name tma\n"
                       "block 128 1 1\n"
                       "grid.y b\n"
                       "arg ptr a bf16 in 4 b c 64 32\n"
                       "arg ptr x f32 in 3 b s 8\n"
                       "pad x s 32\n"
                       "arg dim b\n"
                       "arg dim c\n"
                       "arg dim s\n"
                       "arg tensormap a__tma a 4 3 2 1 0 box 32 64 1 1\n"
                       "arg tensormap x__tma x 3 2 1 0 box 8 16 1\n"
                       "end\n";

/// Arguments of kTmaMeta's kernel: aligned pointers, b = 2, c = 3, s = 33.
LaunchArgs tmaArgs() {
  LaunchArgs args;
  args.ptr("a", reinterpret_cast<const void *>(0x10000))
      .ptr("x", reinterpret_cast<const void *>(0x20000));
  args.dim("b", 2).dim("c", 3).dim("s", 33);
  return args;
}
} // namespace

TEST(TensorMapConfig, DensePhysicalStridesAndBox) {
  KernelInfo info;
  ASSERT_TRUE(parseKernelMetadata(kTmaMeta, info).ok());
  LaunchArgs args = tmaArgs();
  LaunchConfig cfg;
  Status s = computeLaunchConfig(info, args, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cfg.tensorMaps.size(), 2u);
  const TensorMapRequest &a = cfg.tensorMaps[0];
  EXPECT_EQ(a.param, 5u); // after a, x and the three dims
  EXPECT_EQ(a.dtype, DType::BF16);
  EXPECT_EQ(a.address, 0x10000u);
  EXPECT_EQ(a.dims, (std::vector<uint64_t>{32, 64, 3, 2}));
  EXPECT_EQ(a.strides, (std::vector<uint64_t>{64, 64 * 64, 3 * 64 * 64}));
  EXPECT_EQ(a.box, (std::vector<uint32_t>{32, 64, 1, 1}));
  const TensorMapRequest &x = cfg.tensorMaps[1];
  EXPECT_EQ(x.dims, (std::vector<uint64_t>{8, 33, 2}));
  // s = 33 is stored as 64 rows: the batch stride uses the padded extent.
  EXPECT_EQ(x.strides, (std::vector<uint64_t>{32, 32 * 64}));
  EXPECT_EQ(cfg.paramSizes[5], 128u);
  EXPECT_EQ(cfg.paramSizes[6], 128u);
  // The metadata round-trips.
  KernelInfo again;
  ASSERT_TRUE(parseKernelMetadata(formatKernelMetadata(info), again).ok());
  EXPECT_EQ(formatKernelMetadata(again), formatKernelMetadata(info));
}

// `swizzle 128`: the map asks for CU_TENSOR_MAP_SWIZZLE_128B (the kernel
// reads the tile with the 128-byte swizzle); it survives parse and format.
TEST(TensorMapConfig, Swizzle128) {
  std::string meta = kTmaMeta;
  meta.replace(meta.find("box 32 64 1 1\n"), 14, "box 32 64 1 1 swizzle 128\n");
  KernelInfo info;
  ASSERT_TRUE(parseKernelMetadata(meta, info).ok());
  LaunchArgs args = tmaArgs();
  LaunchConfig cfg;
  Status s = computeLaunchConfig(info, args, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cfg.tensorMaps.size(), 2u);
  EXPECT_EQ(cfg.tensorMaps[0].swizzle, 128);
  EXPECT_EQ(cfg.tensorMaps[1].swizzle, 0);
  std::string formatted = formatKernelMetadata(info);
  EXPECT_NE(formatted.find("box 32 64 1 1 swizzle 128\n"), std::string::npos);
  KernelInfo again;
  ASSERT_TRUE(parseKernelMetadata(formatted, again).ok());
  EXPECT_EQ(formatKernelMetadata(again), formatted);
}

// A source with a runtime row stride (`stride v sv`: rows of a wider
// tensor, one fused projection): the map's outermost dimension steps by the
// scalar's elements, the inner ones stay dense; the stride must be positive
// for TMA (a stride of 0 or a missing one is refused by name).
TEST(TensorMapConfig, RuntimeRowStride) {
  const char *meta = "kda2-kernel-v1\n"
                     "name tma\n"
                     "block 128 1 1\n"
                     "arg ptr v bf16 in 3 tt h 64\n"
                     "stride v sv\n"
                     "arg scalar sv i64\n"
                     "arg dim tt\n"
                     "arg dim h\n"
                     "arg tensormap v__tma v 3 2 1 0 box 64 1 32\n"
                     "end\n";
  KernelInfo info;
  Status s = parseKernelMetadata(meta, info);
  ASSERT_TRUE(s.ok()) << s.message();
  auto config = [&](std::optional<int64_t> sv, LaunchConfig &cfg) {
    LaunchArgs args;
    args.ptr("v", reinterpret_cast<const void *>(0x10000));
    args.dim("tt", 100).dim("h", 4);
    if (sv)
      args.scalar("sv", *sv);
    return computeLaunchConfig(info, args, cfg);
  };
  LaunchConfig cfg;
  s = config(3 * 4 * 64, cfg); // v is every third of three such blocks
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cfg.tensorMaps.size(), 1u);
  EXPECT_EQ(cfg.tensorMaps[0].dims, (std::vector<uint64_t>{64, 4, 100}));
  EXPECT_EQ(cfg.tensorMaps[0].strides,
            (std::vector<uint64_t>{64 * 2, 3 * 4 * 64 * 2}));
  s = config(4 * 64, cfg); // dense
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cfg.tensorMaps[0].strides,
            (std::vector<uint64_t>{64 * 2, 4 * 64 * 2}));
  // An integral stride given as a float (the C API's scalars are doubles).
  LaunchArgs asFloat;
  asFloat.ptr("v", reinterpret_cast<const void *>(0x10000));
  asFloat.dim("tt", 100).dim("h", 4).floatScalar("sv", 512.0);
  s = computeLaunchConfig(info, asFloat, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cfg.tensorMaps[0].strides,
            (std::vector<uint64_t>{64 * 2, 512 * 2}));
  s = config(0, cfg);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "kernel 'tma': tensor map 'v__tma' reads 'v' with "
                         "TMA, which needs its row stride (scalar argument "
                         "'sv') positive, got 0");
  s = config(std::nullopt, cfg);
  ASSERT_FALSE(s.ok());
  EXPECT_CONTAINS(s.message(), "missing scalar argument 'sv'");
}

TEST(TensorMapConfig, RejectsWhatTmaCannotRead) {
  std::string meta = kTmaMeta;
  KernelInfo info;
  ASSERT_TRUE(parseKernelMetadata(meta, info).ok());
  LaunchArgs misaligned;
  misaligned.ptr("a", reinterpret_cast<const void *>(0x10008))
      .ptr("x", reinterpret_cast<const void *>(0x20000));
  misaligned.dim("b", 2).dim("c", 3).dim("s", 33);
  LaunchConfig cfg;
  Status s = computeLaunchConfig(info, misaligned, cfg);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "kernel 'tma': pointer argument 'a' is not 16-byte "
                         "aligned (it is read with TMA)");

  // Rows of 6 bf16 (12 bytes) cannot be TMA strides.
  std::string narrow = meta;
  narrow.replace(narrow.find("64 32\n"), 6, "64 6\n");
  ASSERT_TRUE(parseKernelMetadata(narrow, info).ok());
  s = computeLaunchConfig(info, tmaArgs(), cfg);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "kernel 'tma': tensor map 'a__tma': a row of 'a' is "
                         "12 bytes, not a multiple of 16 (TMA needs 16-byte "
                         "strides)");
}

TEST(TensorMapConfig, MetadataErrors) {
  auto parse = [](const std::string &line) {
    std::string meta = kTmaMeta;
    meta.replace(meta.find("arg tensormap a__tma"),
                 std::string("arg tensormap a__tma a 4 3 2 1 0 box 32 64 1 1")
                     .size(),
                 line);
    KernelInfo info;
    Status s = parseKernelMetadata(meta, info);
    EXPECT_FALSE(s.ok()) << line;
    return s.message();
  };
  EXPECT_EQ(parse("arg tensormap m q 4 3 2 1 0 box 32 64 1 1"),
            "line 11: tensor map 'm' names 'q', which is not an earlier "
            "pointer argument");
  EXPECT_EQ(parse("arg tensormap m a 2 3 2 box 32 64"),
            "line 11: tensor map 'm' has rank 2 but 'a' has rank 4");
  EXPECT_EQ(parse("arg tensormap m a 4 3 3 1 0 box 32 64 1 1"),
            "line 11: tensor map 'm' lists dimension 3 twice");
  EXPECT_EQ(parse("arg tensormap m a 4 3 2 1 0 box 32 512 1 1")
                .rfind("line 11: bad integer '512' in tensor map box", 0),
            0u);
  EXPECT_EQ(parse("arg tensormap m a 4 3 2 1 0 32 64 1 1"),
            "line 11: 'arg tensormap m' of rank 4 takes <rank> dimensions, "
            "'box', <rank> extents and an optional 'swizzle 32|64|128'");
  EXPECT_EQ(parse("arg tensormap m a 4 3 2 1 0 box 32 64 1 1 swizzle 16"),
            "line 11: tensor map 'm': expected 'swizzle 32', 'swizzle 64' or "
            "'swizzle 128' after the box, got 'swizzle' '16'");
  EXPECT_EQ(parse("arg tensormap m a 4 3 2 1 0 box 32 64 1 1 swizzel 64"),
            "line 11: tensor map 'm': expected 'swizzle 32', 'swizzle 64' or "
            "'swizzle 128' after the box, got 'swizzel' '64'");
  EXPECT_EQ(parse("arg tensormap m a 4 3 2 1 0 box 32 64 1 1 swizzle"),
            "line 11: 'arg tensormap m' of rank 4 takes <rank> dimensions, "
            "'box', <rank> extents and an optional 'swizzle 32|64|128'");
  // a's rows are bf16: a box row of 32 elements is 64 bytes, wider than a
  // 32-byte swizzle.
  EXPECT_EQ(parse("arg tensormap m a 4 3 2 1 0 box 32 64 1 1 swizzle 32"),
            "line 11: tensor map 'm': a box row of 64 bytes is wider than its "
            "32-byte swizzle");
  EXPECT_EQ(parse("arg tensormap m a 6 3 2 1 0 box 32 64 1 1")
                .rfind("line 11: bad integer '6' in tensor map rank", 0),
            0u);
}

//===----------------------------------------------------------------------===//
// Row strides (`stride` lines) on the generic path
//===----------------------------------------------------------------------===//

TEST(LaunchConfigStride, DenseOrSixteenByteMultiple) {
  // q [tt, h, 8] bf16 with its row stride in sq; beta [tt, h] f32 in sb.
  KernelInfo info;
  Status s = parseKernelMetadata("kda2-kernel-v1\nname st\nblock 32 1 1\n"
                                 "arg ptr q bf16 in 3 tt h 8\nstride q sq\n"
                                 "arg ptr beta f32 in 2 tt h\nstride beta sb\n"
                                 "arg scalar sq i64\narg scalar sb i32\n"
                                 "arg dim tt\narg dim h\nend\n",
                                 info);
  ASSERT_TRUE(s.ok()) << s.message();
  auto run = [&](int64_t sq, int64_t sb, int64_t h = 3) {
    LaunchArgs a;
    a.ptr("q", kQ).ptr("beta", kO).dim("tt", 5).dim("h", h);
    a.scalar("sq", sq).scalar("sb", sb);
    LaunchConfig cfg;
    Status st = computeLaunchConfig(info, a, cfg);
    return st.ok() ? std::string() : st.message();
  };
  // Dense rows (h·8 = 24 bf16, h = 3 f32: 12 bytes) and 16-byte multiples.
  EXPECT_EQ(run(24, 3), "");
  EXPECT_EQ(run(40, 4), "");
  EXPECT_EQ(run(0, 0), "");
  EXPECT_CONTAINS(run(44, 3), "scalar argument 'sq' is the row stride of 'q': "
                              "it must be the dense row size (24) or a "
                              "non-negative multiple of 16 bytes (8 elements "
                              "of bf16), got 44");
  EXPECT_CONTAINS(run(24, 5), "scalar argument 'sb' is the row stride of "
                              "'beta': it must be the dense row size (3) or a "
                              "non-negative multiple of 16 bytes (4 elements "
                              "of f32), got 5");
  EXPECT_CONTAINS(run(-8, 3), "got -8");
  // A dense row size past int64 (h · 8 overflows) matches no stride and is
  // not computed with undefined behaviour (a fuzzer's find); 16-byte
  // multiples still pass the stride check.
  EXPECT_EQ(run(16, 4, int64_t(1) << 62).find("row stride"), std::string::npos);
}
