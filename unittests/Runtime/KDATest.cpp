//===- KDATest.cpp - KDA decode argument checks ----------------*- C++ -*-===//
//
// checkKdaDecode against the metadata kda2 emits for templates/kda_decode.tirx
// (K = V = 128), checkKdaDecodePool against that of
// templates/kda_decode_pool.tirx, checkKdaDecodeSpec against that of
// templates/kda_decode_spec.tirx and checkKdaDecodeConv against that of
// templates/kda_decode_conv.tirx: every bad argument is rejected with a
// message naming it, without a GPU; the state layout is checked also when
// K == V.
//
//===----------------------------------------------------------------------===//

#include "FakeCuda.h"
#include "Replaced.h"

#include "kda2/Runtime/KDA.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

using namespace kda2::runtime;

namespace {

/// The metadata of kda_decode compiled with --tirx-bind=K=128,V=128.
constexpr const char *kDecodeMetadata = R"(kda2-kernel-v1
name kda_decode
block 512 1 1
grid.x
grid.y n h
smem 0
arg ptr q bf16 in 4 n h t 128
arg ptr k bf16 in 4 n h t 128
arg ptr v bf16 in 4 n h t 128
arg ptr g f32 in 4 n h t 128
arg ptr beta f32 in 3 n h t
arg ptr h0 f32 in 4 n h 128 128
arg scalar scale f32
arg ptr o bf16 out 4 n h t 128
arg ptr ht f32 out 4 n h 128 128
arg dim n
arg dim h
arg dim t
state h0 kv
state ht kv
end
)";

class KdaDecodeCheck : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(parseKernelMetadata(kDecodeMetadata, info).ok());
    // Fake, distinct, 16-byte aligned device addresses.
    auto at = [](uintptr_t a) { return reinterpret_cast<void *>(a); };
    args.q = at(0x10000);
    args.k = at(0x20000);
    args.v = at(0x30000);
    args.g = at(0x40000);
    args.beta = at(0x50000);
    args.h0 = at(0x60000);
    args.o = at(0x70000);
    args.ht = at(0x80000);
    args.n = 8;
    args.t = 1;
    args.h = 32;
    args.kDim = args.vDim = 128;
    args.stateLayout = "kv";
  }

  std::string error() {
    Status s = checkKdaDecode(info, args);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    return s.message();
  }

  KernelInfo info;
  KdaDecodeArgs args;
};

TEST_F(KdaDecodeCheck, ValidArgumentsPass) {
  EXPECT_TRUE(checkKdaDecode(info, args).ok());
}

TEST_F(KdaDecodeCheck, UnsupportedHeadDimension) {
  args.kDim = args.vDim = 96;
  EXPECT_EQ(error(), "unsupported head dimension K=96, V=96; the KDA decode "
                     "kernels support 64, 128 and 256");
}

TEST_F(KdaDecodeCheck, ExplicitMatchingDtypePasses) {
  args.dtype = "bf16";
  EXPECT_TRUE(checkKdaDecode(info, args).ok());
}

TEST_F(KdaDecodeCheck, DtypeOfAnotherKernel) {
  args.dtype = "f16";
  EXPECT_EQ(error(), "kernel 'kda_decode': argument 'q' is bf16, the call "
                     "passes f16");
}

TEST_F(KdaDecodeCheck, DtypeThatIsNotAnInputType) {
  args.dtype = "f32";
  EXPECT_EQ(error(), "dtype 'f32' is not a KDA input type; expected bf16 or f16");
  args.dtype = "half";
  EXPECT_EQ(error(), "dtype 'half' is not a KDA input type; expected bf16 or f16");
}

TEST_F(KdaDecodeCheck, Fp16KernelTakesFp16) {
  std::string fp16 = kDecodeMetadata;
  for (size_t at; (at = fp16.find(" bf16 ")) != std::string::npos;)
    fp16.replace(at, 6, " f16 ");
  info = KernelInfo();
  ASSERT_TRUE(parseKernelMetadata(fp16, info).ok());
  args.dtype = "f16";
  EXPECT_TRUE(checkKdaDecode(info, args).ok());
  args.dtype = nullptr; // the default is bf16
  EXPECT_EQ(error(), "kernel 'kda_decode': argument 'q' is f16, the call "
                     "passes bf16");
}

TEST_F(KdaDecodeCheck, HeadDimensionOfAnotherKernel) {
  args.kDim = args.vDim = 64;
  EXPECT_EQ(error(), "kernel 'kda_decode': was compiled for K=128, V=128, got "
                     "K=64, V=64");
}

TEST_F(KdaDecodeCheck, MismatchedKAndV) {
  args.vDim = 64;
  EXPECT_NE(error().find("got K=128, V=64"), std::string::npos);
}

TEST_F(KdaDecodeCheck, NullPointerIsNamed) {
  args.beta = nullptr;
  EXPECT_EQ(error(), "argument 'beta' is NULL");
}

TEST_F(KdaDecodeCheck, MisalignedPointerIsNamed) {
  args.v = reinterpret_cast<const void *>(0x30008);
  EXPECT_EQ(error(), "argument 'v' is not 16-byte aligned (the kernel uses "
                     "128-bit accesses)");
}

TEST_F(KdaDecodeCheck, NonPositiveSizes) {
  args.t = 0;
  EXPECT_EQ(error(), "sizes must be positive, got n=8, t=0, h=32");
}

TEST_F(KdaDecodeCheck, AliasedStates) {
  args.ht = const_cast<void *>(args.h0);
  EXPECT_NE(error().find("h0 and ht alias"), std::string::npos);
}

TEST_F(KdaDecodeCheck, NegativeScale) {
  args.scale = -1.0;
  EXPECT_NE(error().find("scale must be"), std::string::npos);
}

TEST_F(KdaDecodeCheck, StateLayoutIsRequired) {
  args.stateLayout = nullptr;
  EXPECT_EQ(error(), "argument 'state_layout' is NULL: say \"kv\" (K-major "
                     "[.., K, V]) or \"vk\" (V-major [.., V, K])");
}

TEST_F(KdaDecodeCheck, StateLayoutMustBeKvOrVk) {
  args.stateLayout = "k_first";
  EXPECT_EQ(error(), "argument 'state_layout' is 'k_first': expected \"kv\" "
                     "(K-major [.., K, V]) or \"vk\" (V-major [.., V, K])");
}

// K == V = 128: the shapes of a K-major and a V-major state are the same,
// only the `state` lines tell them apart.
TEST_F(KdaDecodeCheck, TransposedStateIsCaughtWhenKEqualsV) {
  args.stateLayout = "vk";
  EXPECT_EQ(error(), "kernel 'kda_decode' stores its state K-major (kv), the "
                     "call says V-major (vk)");
  std::string vfirst = kDecodeMetadata;
  for (size_t at; (at = vfirst.find(" kv\n")) != std::string::npos;)
    vfirst.replace(at, 4, " vk\n");
  info = KernelInfo();
  ASSERT_TRUE(parseKernelMetadata(vfirst, info).ok());
  EXPECT_TRUE(checkKdaDecode(info, args).ok());
  args.stateLayout = "kv";
  EXPECT_EQ(error(), "kernel 'kda_decode' stores its state V-major (vk), the "
                     "call says K-major (kv)");
}

TEST_F(KdaDecodeCheck, KernelWithoutStateLineIsRefused) {
  std::string old = kDecodeMetadata;
  old.erase(old.find("state h0 kv\n"), 12);
  info = KernelInfo();
  ASSERT_TRUE(parseKernelMetadata(old, info).ok());
  EXPECT_EQ(error(), "kernel 'kda_decode' does not declare the layout of its "
                     "state 'h0' (no 'state' line in its metadata); rebuild "
                     "it with a kda2 that records it");
}

TEST_F(KdaDecodeCheck, StatesOfTwoLayoutsAreRefused) {
  std::string mixed = kDecodeMetadata;
  mixed.replace(mixed.find("state ht kv"), 11, "state ht vk");
  info = KernelInfo();
  ASSERT_TRUE(parseKernelMetadata(mixed, info).ok());
  EXPECT_EQ(error(), "kernel 'kda_decode': declares state 'h0' kv but 'ht' "
                     "vk; the decode entry point takes one layout for both");
}

TEST_F(KdaDecodeCheck, LaunchArgsOfAValidCall) {
  LaunchArgs launch;
  ASSERT_TRUE(kdaDecodeLaunchArgs(info, args, launch).ok());
  LaunchConfig cfg;
  Status s = computeLaunchConfig(info, launch, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cfg.grid[1], 8u * 32u);
  args.stateLayout = "vk";
  EXPECT_FALSE(kdaDecodeLaunchArgs(info, args, launch).ok());
}

TEST_F(KdaDecodeCheck, NotADecodeKernel) {
  KernelInfo other;
  ASSERT_TRUE(parseKernelMetadata("kda2-kernel-v1\nname fill\nblock 32 1 1\n"
                                  "grid.x\ngrid.y\nsmem 0\n"
                                  "arg ptr out f32 out 1 32\nend\n",
                                  other)
                  .ok());
  Status s = checkKdaDecode(other, args);
  EXPECT_EQ(s.message(),
            "kernel 'fill': is not a KDA decode kernel (no argument 'q')");
}

//===----------------------------------------------------------------------===//
// Decode through an indexed, in-place state pool
//===----------------------------------------------------------------------===//

/// What the pool and speculative check fixtures share: the kernel's
/// metadata (use) and the message of a refused call (error).
template <typename Args, Status (*Check)(const KernelInfo &, const Args &)>
class TypedCheck : public ::testing::Test {
protected:
  void use(const std::string &metadata) {
    info = KernelInfo();
    Status s = parseKernelMetadata(metadata, info);
    ASSERT_TRUE(s.ok()) << s.message();
  }

  std::string error() {
    Status s = Check(info, args);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    return s.message();
  }

  KernelInfo info;
  Args args;
};

/// checkKdaDecodePool against the metadata of a K = 128, V = 64 K-major
/// pool kernel with an f32 pool (K != V: a transposed pool cannot pass).
class KdaDecodePoolCheck
    : public TypedCheck<KdaDecodePoolArgs, checkKdaDecodePool> {
protected:
  void SetUp() override {
    use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64));
    // Distinct fake addresses 16 MiB apart (no operand is larger).
    const char *names[] = {"q",    "k",          "v",
                           "g",    "beta",       "cu_seqlens",
                           "state_indices", "has_initial_state", "pool", "o"};
    for (size_t i = 0; i < 10; ++i)
      set(names[i], 0x1000000 * (i + 1));
    args.n = 4;
    args.totalTokens = 10;
    args.h = 8;
    args.kDim = 128;
    args.vDim = 64;
    args.slots = 16;
    args.stateLayout = "kv";
  }

  /// Points operand `name` at `address`.
  void set(const std::string &name, uintptr_t address) {
    void *p = reinterpret_cast<void *>(address);
    if (name == "q") args.q = p;
    else if (name == "k") args.k = p;
    else if (name == "v") args.v = p;
    else if (name == "g") args.g = p;
    else if (name == "beta") args.beta = p;
    else if (name == "cu_seqlens") args.cuSeqlens = p;
    else if (name == "state_indices") args.stateIndices = p;
    else if (name == "has_initial_state") args.hasInitialState = p;
    else if (name == "pool") args.pool = p;
    else if (name == "o") args.o = p;
    else ADD_FAILURE() << "no operand " << name;
  }
};

TEST_F(KdaDecodePoolCheck, ValidCallBuildsTheKernelArguments) {
  Status s = checkKdaDecodePool(info, args);
  ASSERT_TRUE(s.ok()) << s.message();
  LaunchArgs launch;
  ASSERT_TRUE(kdaDecodePoolLaunchArgs(info, args, launch).ok());
  LaunchConfig cfg;
  s = computeLaunchConfig(info, launch, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  // grid.y n h; one 8-byte slot per `arg` line, in order.
  EXPECT_EQ(cfg.grid[0], 1u);
  EXPECT_EQ(cfg.grid[1], 4u * 8u);
  ASSERT_EQ(cfg.params.size(), 21u);
  for (size_t i = 0; i < 9; ++i) // q .. pool
    EXPECT_EQ(cfg.params[i], 0x1000000 * (i + 1)) << i;
  float scale;
  std::memcpy(&scale, &cfg.params[9], sizeof(scale));
  EXPECT_FLOAT_EQ(scale, 1.0f / std::sqrt(128.0f)); // 0 selects K^-1/2
  // sq, sk, sv, sg, sb: 0 selects the dense row sizes h·K, h·V, h.
  EXPECT_EQ(cfg.params[10], 8u * 128u);
  EXPECT_EQ(cfg.params[11], 8u * 128u);
  EXPECT_EQ(cfg.params[12], 8u * 64u);
  EXPECT_EQ(cfg.params[13], 8u * 128u);
  EXPECT_EQ(cfg.params[14], 8u);
  EXPECT_EQ(cfg.params[15], 0xA000000u); // o
  // arg dim tt, h, np1, n, slots
  EXPECT_EQ(cfg.params[16], 10u);
  EXPECT_EQ(cfg.params[17], 8u);
  EXPECT_EQ(cfg.params[18], 5u);
  EXPECT_EQ(cfg.params[19], 4u);
  EXPECT_EQ(cfg.params[20], 16u);
}

TEST_F(KdaDecodePoolCheck, RowStridesReachTheKernel) {
  // Rows of one fused projection: q, k, v of [tt, 6288] bf16, g and beta
  // of an f32 [tt, 2064]. Each stride goes to the scalar its operand's
  // `stride` line names.
  args.qStride = args.kStride = args.vStride = 6288;
  args.gStride = 2064;
  args.betaStride = 2064;
  LaunchArgs launch;
  Status s = kdaDecodePoolLaunchArgs(info, args, launch);
  ASSERT_TRUE(s.ok()) << s.message();
  LaunchConfig cfg;
  s = computeLaunchConfig(info, launch, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cfg.params.size(), 21u);
  const uint64_t want[] = {6288, 6288, 6288, 2064, 2064};
  for (size_t i = 0; i < 5; ++i)
    EXPECT_EQ(cfg.params[10 + i], want[i]) << i;
  // A stride equal to the dense row size is the dense case.
  args.qStride = 8 * 128;
  args.betaStride = 8;
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
}

TEST_F(KdaDecodePoolCheck, RowStridesAreCheckedByName) {
  args.qStride = 8 * 128 - 8;
  EXPECT_EQ(error(), "argument 'q_stride' is 1016: a row stride is 0 (dense) "
                     "or at least the row size, h·K = 1024 elements");
  args.qStride = 0;
  args.vStride = -512;
  EXPECT_EQ(error(), "argument 'v_stride' is -512: a row stride is 0 (dense) "
                     "or at least the row size, h·V = 512 elements");
  args.vStride = 0;
  args.betaStride = 6287;
  EXPECT_EQ(error(), "argument 'beta_stride' is 6287: the row stride must be "
                     "a multiple of 16 bytes (4 elements of f32)");
  args.betaStride = 0;
  args.kStride = 1028; // 2056 bytes
  EXPECT_EQ(error(), "argument 'k_stride' is 1028: the row stride must be a "
                     "multiple of 16 bytes (8 elements of bf16)");
  args.kStride = 1032;
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
}

TEST_F(KdaDecodePoolCheck, DenseKernelRefusesARowStride) {
  use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64, "kv", "f32",
                                     "bf16", "i32", /*strided=*/false));
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
  args.gStride = 8 * 128; // the dense size: fine
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
  args.gStride = 2048;
  EXPECT_EQ(error(), "kernel 'kda_decode_pool' reads 'g' densely (no stride "
                     "parameter); rebuild it from a template with stride= "
                     "(GMEM {stride=...} g), or pass g_stride = 0");
  // Its kernel arguments have no stride scalars.
  args.gStride = 0;
  LaunchArgs launch;
  ASSERT_TRUE(kdaDecodePoolLaunchArgs(info, args, launch).ok());
  LaunchConfig cfg;
  Status s = computeLaunchConfig(info, launch, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cfg.params.size(), 16u);
}

TEST_F(KdaDecodePoolCheck, StrideOnAnotherOperandIsRefused) {
  std::string m = kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64);
  m.replace(m.find("arg dim tt"), 0, "arg scalar so i64\n");
  m.replace(m.find("arg dim tt"), 0, "stride o so\n");
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': argument 'o' has a runtime "
                     "row stride (parameter 'so'), which the pool decode "
                     "entry point does not pass (it strides q, k, v, g and "
                     "beta only)");
}

TEST_F(KdaDecodePoolCheck, OutputMustNotOverlapAStridedInput) {
  // v's rows 1024 elements apart: its extent is (10 - 1)·1024 + 8·64
  // elements = 19456 bytes, past the 10240 bytes of a dense v.
  args.vStride = 1024;
  set("o", 0x3000000 + 19456 - 16);
  EXPECT_EQ(error(), "arguments 'o' and 'v' overlap (o at 0x3004bf0, 10240 "
                     "bytes; v at 0x3000000, 19456 bytes): 'o' is written and "
                     "must not share memory with another operand");
  set("o", 0x3000000 + 19456);
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
  // Strided inputs may interleave (one fused projection).
  args.qStride = args.kStride = 1024 + 512 + 512;
  set("q", 0x1000000);
  set("k", 0x1000000 + 1024 * 2);
  set("v", 0x1000000 + 2048 * 2);
  args.vStride = 2048;
  set("o", 0xA000000);
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
  // The pool must not overlap a strided input's extent either.
  args.betaStride = 4096;
  set("pool", 0x5000000 + (10 - 1) * 4096 * 4);
  EXPECT_NE(error().find("arguments 'pool' and 'beta' overlap"),
            std::string::npos);
}

TEST_F(KdaDecodePoolCheck, NoTokensIsAValidCall) {
  // Only empty sequences (or padding): the kernel still copies states.
  args.totalTokens = 0;
  set("o", 0x1000000); // 0 bytes: overlaps nothing
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
}

TEST_F(KdaDecodePoolCheck, NotAPoolKernel) {
  use(kda2::fake::decodeMetadata("kda_decode", 128));
  EXPECT_EQ(error(), "kernel 'kda_decode': is not a KDA pool decode kernel "
                     "(no argument 'cu_seqlens')");
}

TEST_F(KdaDecodePoolCheck, IndexArraysAreInt32OrInt64OfOneType) {
  std::string m = kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64);
  m.replace(m.find("state_indices i32"), 17, "state_indices i64");
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': argument 'state_indices' is "
                     "i64 but 'cu_seqlens' is i32; the pool decode entry "
                     "point passes its index arrays in one type "
                     "(index_dtype)");
  m = kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64);
  m.replace(m.find("cu_seqlens i32"), 14, "cu_seqlens f32");
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': argument 'cu_seqlens' is "
                     "f32; the pool decode entry point passes int32 or int64 "
                     "index arrays");
  // has_initial_state is a flag: int32 whatever IX is.
  m = kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64, "kv", "f32",
                                     "bf16", "i64");
  m.replace(m.find("has_initial_state i32"), 21, "has_initial_state i64");
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': argument 'has_initial_state' "
                     "is i64; the pool decode entry point passes int32 flags");
}

TEST_F(KdaDecodePoolCheck, IndexDtypeMustBeTheKernels) {
  // An int32 kernel: NULL and "i32" pass, "i64" is refused.
  args.indexDtype = "i32";
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
  args.indexDtype = "i64";
  EXPECT_EQ(error(), "argument 'index_dtype' is 'i64' but kernel "
                     "'kda_decode_pool' reads 'cu_seqlens' as int32 (its IX "
                     "binding)");
  for (const char *bad : {"int64", "f32", "i16", ""}) {
    args.indexDtype = bad;
    EXPECT_EQ(error(), std::string("argument 'index_dtype' is '") + bad +
                           "': expected \"i32\" (or NULL) or \"i64\", the "
                           "type of the index arrays (cu_seqlens, "
                           "state_indices, ...)");
  }
  // An int64 kernel (IX=i64): only "i64" passes.
  use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64, "kv", "f32",
                                     "bf16", "i64"));
  args.indexDtype = nullptr;
  EXPECT_EQ(error(), "argument 'index_dtype' is NULL (i32) but kernel "
                     "'kda_decode_pool' reads 'cu_seqlens' as int64 (its IX "
                     "binding)");
  args.indexDtype = "i32";
  EXPECT_EQ(error(), "argument 'index_dtype' is 'i32' but kernel "
                     "'kda_decode_pool' reads 'cu_seqlens' as int64 (its IX "
                     "binding)");
  args.indexDtype = "i64";
  Status s = checkKdaDecodePool(info, args);
  EXPECT_TRUE(s.ok()) << s.message();
  // The plan resolves the same facts and gives the same messages.
  LaunchArgs launch;
  EXPECT_TRUE(kdaDecodePoolLaunchArgs(info, args, launch).ok());
}

TEST_F(KdaDecodePoolCheck, Int64IndexArraysHaveEightByteElements) {
  use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64, "kv", "f32",
                                     "bf16", "i64"));
  args.indexDtype = "i64";
  // Alignment: 8 bytes for cu_seqlens and state_indices, still 4 for the
  // int32 has_initial_state.
  set("state_indices", 0x7000004);
  EXPECT_EQ(error(), "argument 'state_indices' is not 8-byte aligned (int64 "
                     "elements)");
  set("state_indices", 0x7000008);
  set("has_initial_state", 0x8000004);
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
  set("cu_seqlens", 0x6000004);
  EXPECT_EQ(error(), "argument 'cu_seqlens' is not 8-byte aligned (int64 "
                     "elements)");
  set("cu_seqlens", 0x6000000);
  // Extents: state_indices is 4 x 8 = 32 bytes, cu_seqlens 5 x 8 = 40.
  set("state_indices", 0x9000000 - 24);
  EXPECT_EQ(error(), "arguments 'pool' and 'state_indices' overlap (pool at "
                     "0x9000000, 4194304 bytes; state_indices at 0x8ffffe8, "
                     "32 bytes): 'pool' is updated in place and must not "
                     "share memory with another operand");
  set("state_indices", 0x9000000 - 32);
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
  set("cu_seqlens", 0x9000000 - 32);
  EXPECT_EQ(error(), "arguments 'pool' and 'cu_seqlens' overlap (pool at "
                     "0x9000000, 4194304 bytes; cu_seqlens at 0x8ffffe0, 40 "
                     "bytes): 'pool' is updated in place and must not share "
                     "memory with another operand");
}

TEST_F(KdaDecodePoolCheck, Int64CuSeqlensTakePast2To31Tokens) {
  use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64, "kv", "f32",
                                     "bf16", "i64"));
  args.indexDtype = "i64";
  // 2^31 + 5 tokens x 8 heads x 128 x 2 bytes < 2^43: operands 2^44 apart.
  const char *names[] = {"q",    "k",          "v",
                         "g",    "beta",       "cu_seqlens",
                         "state_indices", "has_initial_state", "pool", "o"};
  for (size_t i = 0; i < 10; ++i)
    set(names[i], uintptr_t(i + 1) << 44);
  args.totalTokens = (int64_t(1) << 31) + 5;
  Status s = checkKdaDecodePool(info, args);
  EXPECT_TRUE(s.ok()) << s.message();
  // The same call on the int32 kernel does not fit its cu_seqlens.
  use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64));
  args.indexDtype = nullptr;
  EXPECT_EQ(error(), "total_tokens = 2147483653 does not fit the int32 "
                     "cu_seqlens (index_dtype \"i64\" with an IX=i64 kernel "
                     "does)");
}

TEST_F(KdaDecodePoolCheck, PoolMustBeInOut) {
  std::string m = kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64);
  m.replace(m.find("f32 inout"), 9, "f32 out");
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': argument 'pool' is declared "
                     "'out'; the pool is read and written in place (inout)");
}

TEST_F(KdaDecodePoolCheck, HeadDimensions) {
  args.kDim = 64;
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': was compiled for K=128, V=64, "
                     "got K=64, V=64");
  args.kDim = 96;
  EXPECT_EQ(error(), "unsupported head dimension K=96, V=64; the KDA decode "
                     "kernels support 64, 128 and 256");
}

TEST_F(KdaDecodePoolCheck, InputDtype) {
  args.dtype = "f16";
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': argument 'q' is bf16, the "
                     "call passes f16");
  use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64, "kv", "f32",
                                     "f16"));
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
}

TEST_F(KdaDecodePoolCheck, StateDtype) {
  args.stateDtype = "bf16";
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': argument 'pool' is f32, the "
                     "call passes state_dtype bf16");
  args.stateDtype = "f16";
  EXPECT_EQ(error(),
            "state_dtype 'f16' is not a KDA state type; expected f32 or bf16");
  use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64, "kv",
                                     "bf16"));
  args.stateDtype = "bf16";
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
  args.stateDtype = nullptr; // f32
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': argument 'pool' is bf16, the "
                     "call passes state_dtype f32");
}

TEST_F(KdaDecodePoolCheck, StateLayoutNullOrInvalid) {
  args.stateLayout = nullptr;
  EXPECT_EQ(error(), "argument 'state_layout' is NULL: say \"kv\" (K-major "
                     "[.., K, V]) or \"vk\" (V-major [.., V, K])");
  args.stateLayout = "VK";
  EXPECT_EQ(error(), "argument 'state_layout' is 'VK': expected \"kv\" "
                     "(K-major [.., K, V]) or \"vk\" (V-major [.., V, K])");
}

TEST_F(KdaDecodePoolCheck, TransposedPoolIsCaughtWhenKEqualsV) {
  use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 128, "vk"));
  args.vDim = 128;
  EXPECT_EQ(error(), "kernel 'kda_decode_pool' stores its state V-major (vk), "
                     "the call says K-major (kv)");
  args.stateLayout = "vk";
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
}

TEST_F(KdaDecodePoolCheck, KernelWithoutStateLine) {
  use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64, ""));
  EXPECT_EQ(error(), "kernel 'kda_decode_pool' does not declare the layout of "
                     "its state 'pool' (no 'state' line in its metadata); "
                     "rebuild it with a kda2 that records it");
}

TEST_F(KdaDecodePoolCheck, PoolMatrixDimensionsAreKAndV) {
  // The declared order of the last two dimensions is free (the `state` line
  // gives the storage order), but they must be K and V.
  std::string m = kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64);
  m.replace(m.find("slots h 64 128"), 14, "slots h 128 64");
  use(m);
  Status s = checkKdaDecodePool(info, args);
  EXPECT_TRUE(s.ok()) << s.message();
  m.replace(m.find("slots h 128 64"), 14, "slots h 32 128");
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': argument 'pool' ends in [.., "
                     "32, 128], which are not the head dimensions K = 128, "
                     "V = 64");
}

TEST_F(KdaDecodePoolCheck, Sizes) {
  args.n = 0;
  EXPECT_EQ(error(), "n must be positive (the number of sequences), got 0");
  args.n = 4;
  args.totalTokens = -1;
  EXPECT_EQ(error(), "total_tokens must be >= 0, got -1");
  args.totalTokens = int64_t(1) << 31;
  EXPECT_EQ(error(),
            "total_tokens = 2147483648 does not fit the int32 cu_seqlens "
            "(index_dtype \"i64\" with an IX=i64 kernel does)");
  args.totalTokens = 10;
  args.h = -2;
  EXPECT_EQ(error(), "h must be positive (the number of heads), got -2");
  args.h = 8;
  args.slots = 0;
  EXPECT_EQ(error(), "slots must be positive (the states in the pool), got 0");
}

TEST_F(KdaDecodePoolCheck, Scale) {
  for (double bad : {-0.5, std::nan(""), HUGE_VAL}) {
    args.scale = bad;
    EXPECT_EQ(error(), "scale must be a finite number >= 0 (0: K^-1/2)");
  }
  args.scale = 0.25;
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
}

TEST_F(KdaDecodePoolCheck, NullOperandsAreNamed) {
  for (const char *name :
       {"q", "k", "v", "g", "beta", "cu_seqlens", "state_indices",
        "has_initial_state", "pool", "o"}) {
    KdaDecodePoolArgs saved = args;
    set(name, 0);
    EXPECT_EQ(error(), std::string("argument '") + name + "' is NULL");
    args = saved;
  }
}

TEST_F(KdaDecodePoolCheck, MisalignedOperandsAreNamed) {
  set("g", 0x4000008);
  EXPECT_EQ(error(), "argument 'g' is not 16-byte aligned (the kernel uses "
                     "128-bit accesses)");
  set("g", 0x4000000);
  set("pool", 0x9000004);
  EXPECT_EQ(error(), "argument 'pool' is not 16-byte aligned (the kernel uses "
                     "128-bit accesses)");
  set("pool", 0x9000000);
  // The int32 arrays need 4 bytes only.
  set("state_indices", 0x7000004);
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
  set("has_initial_state", 0x8000002);
  EXPECT_EQ(error(), "argument 'has_initial_state' is not 4-byte aligned "
                     "(int32 elements)");
}

TEST_F(KdaDecodePoolCheck, PoolMustNotOverlapAnotherOperand) {
  // pool: 16 slots x 8 heads x 128 x 64 f32 = 4194304 bytes at 0x9000000.
  set("q", 0x9000000 + 4194304 - 16); // the pool's last 16 bytes
  EXPECT_EQ(error(), "arguments 'pool' and 'q' overlap (pool at 0x9000000, "
                     "4194304 bytes; q at 0x93ffff0, 20480 bytes): 'pool' is "
                     "updated in place and must not share memory with "
                     "another operand");
  set("q", 0x9000000 + 4194304); // right after it
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
  set("q", 0x1000000);
  set("state_indices", 0x9000000);
  EXPECT_EQ(error(), "arguments 'pool' and 'state_indices' overlap (pool at "
                     "0x9000000, 4194304 bytes; state_indices at 0x9000000, "
                     "16 bytes): 'pool' is updated in place and must not "
                     "share memory with another operand");
}

TEST_F(KdaDecodePoolCheck, OutputMustNotOverlapAnInput) {
  // o: 10 tokens x 8 heads x 64 bf16 = 10240 bytes; v the same.
  set("o", 0x3000000 + 10240 - 16);
  EXPECT_EQ(error(), "arguments 'o' and 'v' overlap (o at 0x30027f0, 10240 "
                     "bytes; v at 0x3000000, 10240 bytes): 'o' is written and "
                     "must not share memory with another operand");
  set("o", 0x9000000 + 64);
  EXPECT_NE(error().find("arguments 'pool' and 'o' overlap"),
            std::string::npos);
  // Inputs are only read: they may share memory.
  set("o", 0xA000000);
  set("k", 0x1000000);
  EXPECT_TRUE(checkKdaDecodePool(info, args).ok());
}

TEST_F(KdaDecodePoolCheck, SizesBeyond63BitsAreRefused) {
  args.slots = int64_t(1) << 50;
  EXPECT_EQ(error(), "the pool of slots = 1125899906842624, h = 8 states is "
                     "larger than 2^63 bytes");
  args.slots = 16;
  args.h = int64_t(1) << 60;
  EXPECT_EQ(error(), "total_tokens = 10 and h = 1152921504606846976 make an "
                     "operand larger than 2^63 bytes");
}

//===----------------------------------------------------------------------===//
// Speculative (multi-token) decode through the state pool
//===----------------------------------------------------------------------===//

/// checkKdaDecodeSpec against the metadata of a K = 128, V = 64 K-major
/// speculative decode kernel with an f32 pool: n = 4 sequences of t = 3
/// tokens, 8 heads, 16 slots.
class KdaDecodeSpecCheck
    : public TypedCheck<KdaDecodeSpecArgs, checkKdaDecodeSpec> {
protected:
  static constexpr const char *kNames[] = {
      "q", "k", "v", "g", "beta", "state_indices", "num_accepted", "pool",
      "o"};

  void SetUp() override {
    use(kda2::fake::specDecodeMetadata("kda_decode_spec", 128, 64));
    // Distinct fake addresses 16 MiB apart (no operand is larger).
    for (size_t i = 0; i < 9; ++i)
      set(kNames[i], 0x1000000 * (i + 1));
    args.n = 4;
    args.t = 3;
    args.h = 8;
    args.kDim = 128;
    args.vDim = 64;
    args.slots = 16;
    args.stateLayout = "kv";
  }

  /// Points operand `name` at `address`.
  void set(const std::string &name, uintptr_t address) {
    void *p = reinterpret_cast<void *>(address);
    const void **in[] = {&args.q,    &args.k,           &args.v,
                         &args.g,    &args.beta,        &args.stateIndices,
                         &args.numAccepted};
    for (size_t i = 0; i < 7; ++i)
      if (name == kNames[i]) {
        *in[i] = p;
        return;
      }
    if (name == "pool")
      args.pool = p;
    else if (name == "o")
      args.o = p;
    else
      ADD_FAILURE() << "no operand " << name;
  }
};

TEST_F(KdaDecodeSpecCheck, ValidCallBuildsTheKernelArguments) {
  Status s = checkKdaDecodeSpec(info, args);
  ASSERT_TRUE(s.ok()) << s.message();
  LaunchArgs launch;
  ASSERT_TRUE(kdaDecodeSpecLaunchArgs(info, args, launch).ok());
  LaunchConfig cfg;
  s = computeLaunchConfig(info, launch, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  // grid.x 2, grid.y n h; one 8-byte slot per `arg` line, in order.
  EXPECT_EQ(cfg.grid[0], 2u);
  EXPECT_EQ(cfg.grid[1], 4u * 8u);
  ASSERT_EQ(cfg.params.size(), 20u);
  for (size_t i = 0; i < 8; ++i) // q .. pool
    EXPECT_EQ(cfg.params[i], 0x1000000 * (i + 1)) << i;
  float scale;
  std::memcpy(&scale, &cfg.params[8], sizeof(scale));
  EXPECT_FLOAT_EQ(scale, 1.0f / std::sqrt(128.0f)); // 0 selects K^-1/2
  EXPECT_EQ(cfg.params[9] & 0xffffffffu, 1u);       // write_states (i32)
  // sq .. sb: a row is a sequence, dense t·h·K, t·h·V, t·h.
  EXPECT_EQ(cfg.params[10], 3u * 8u * 128u);
  EXPECT_EQ(cfg.params[11], 3u * 8u * 128u);
  EXPECT_EQ(cfg.params[12], 3u * 8u * 64u);
  EXPECT_EQ(cfg.params[13], 3u * 8u * 128u);
  EXPECT_EQ(cfg.params[14], 3u * 8u);
  EXPECT_EQ(cfg.params[15], 0x9000000u); // o
  // arg dim n, t, h, slots
  EXPECT_EQ(cfg.params[16], 4u);
  EXPECT_EQ(cfg.params[17], 3u);
  EXPECT_EQ(cfg.params[18], 8u);
  EXPECT_EQ(cfg.params[19], 16u);
}

TEST_F(KdaDecodeSpecCheck, RowStridesAreBetweenSequences) {
  args.qStride = 3 * 8 * 128 + 64;
  args.betaStride = 3 * 8 + 4;
  LaunchArgs launch;
  Status s = kdaDecodeSpecLaunchArgs(info, args, launch);
  ASSERT_TRUE(s.ok()) << s.message();
  LaunchConfig cfg;
  s = computeLaunchConfig(info, launch, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cfg.params[10], 3u * 8u * 128u + 64u);
  EXPECT_EQ(cfg.params[14], 3u * 8u + 4u);
  args.gStride = 8 * 128; // one token's row: less than a sequence's
  EXPECT_EQ(error(), "argument 'g_stride' is 1024: a row stride is 0 (dense) "
                     "or at least the row size, t·h·K = 3072 elements");
  args.gStride = 0;
  // o right after q's strided extent is fine, inside it is not.
  uint64_t qBytes = (4 - 1) * (3 * 8 * 128 + 64) * 2 + 3 * 8 * 128 * 2;
  set("o", 0x1000000 + qBytes);
  EXPECT_TRUE(checkKdaDecodeSpec(info, args).ok());
  set("o", 0x1000000 + qBytes - 16);
  EXPECT_NE(error().find("arguments 'o' and 'q' overlap"), std::string::npos);
  use(kda2::fake::specDecodeMetadata("kda_decode_spec", 128, 64, "kv", "f32",
                                     "bf16", "i32", /*strided=*/false));
  set("o", 0x9000000);
  EXPECT_EQ(error(), "kernel 'kda_decode_spec' reads 'q' densely (no stride "
                     "parameter); rebuild it from a template with stride= "
                     "(GMEM {stride=...} q), or pass q_stride = 0");
}

TEST_F(KdaDecodeSpecCheck, NotASpecKernel) {
  use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 64));
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': is not a KDA speculative "
                     "decode kernel (no argument 'num_accepted')");
  use(kda2::fake::decodeMetadata("kda_decode", 128));
  EXPECT_EQ(error(), "kernel 'kda_decode': is not a KDA speculative decode "
                     "kernel (no argument 'state_indices')");
}

TEST_F(KdaDecodeSpecCheck, IndexArraysAreInt32OrInt64OfOneType) {
  std::string m = kda2::fake::specDecodeMetadata("kda_decode_spec", 128, 64);
  m.replace(m.find("num_accepted i32"), 16, "num_accepted i64");
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_spec': argument 'num_accepted' is "
                     "i64 but 'state_indices' is i32; the speculative decode "
                     "entry point passes its index arrays in one type "
                     "(index_dtype)");
}

TEST_F(KdaDecodeSpecCheck, Int64IndexArrays) {
  // An int32 kernel refuses "i64"; an int64 kernel refuses NULL and "i32".
  args.indexDtype = "i64";
  EXPECT_EQ(error(), "argument 'index_dtype' is 'i64' but kernel "
                     "'kda_decode_spec' reads 'state_indices' as int32 (its "
                     "IX binding)");
  args.indexDtype = "u64";
  EXPECT_EQ(error(), "argument 'index_dtype' is 'u64': expected \"i32\" (or "
                     "NULL) or \"i64\", the type of the index arrays "
                     "(cu_seqlens, state_indices, ...)");
  use(kda2::fake::specDecodeMetadata("kda_decode_spec", 128, 64, "kv", "f32",
                                     "bf16", "i64"));
  args.indexDtype = nullptr;
  EXPECT_EQ(error(), "argument 'index_dtype' is NULL (i32) but kernel "
                     "'kda_decode_spec' reads 'state_indices' as int64 (its "
                     "IX binding)");
  args.indexDtype = "i64";
  Status s = checkKdaDecodeSpec(info, args);
  ASSERT_TRUE(s.ok()) << s.message();
  // 8-byte elements: alignment, and state_indices [4, 3] = 96 bytes.
  set("num_accepted", 0x7000004);
  EXPECT_EQ(error(), "argument 'num_accepted' is not 8-byte aligned (int64 "
                     "elements)");
  set("num_accepted", 0x7000000);
  set("state_indices", 0x8000000 - 88);
  EXPECT_EQ(error(), "arguments 'pool' and 'state_indices' overlap (pool at "
                     "0x8000000, 4194304 bytes; state_indices at 0x7ffffa8, "
                     "96 bytes): 'pool' is updated in place and must not "
                     "share memory with another operand");
  set("state_indices", 0x8000000 - 96);
  EXPECT_TRUE(checkKdaDecodeSpec(info, args).ok());
}

TEST_F(KdaDecodeSpecCheck, PoolMustBeInOut) {
  std::string m = kda2::fake::specDecodeMetadata("kda_decode_spec", 128, 64);
  m.replace(m.find("f32 inout"), 9, "f32 in");
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_spec': argument 'pool' is declared "
                     "'in'; the pool is read and written in place (inout)");
}

TEST_F(KdaDecodeSpecCheck, HeadDimensionsAndTypes) {
  args.vDim = 128;
  EXPECT_EQ(error(), "kernel 'kda_decode_spec': was compiled for K=128, "
                     "V=64, got K=128, V=128");
  args.vDim = 32;
  EXPECT_EQ(error(), "unsupported head dimension K=128, V=32; the KDA decode "
                     "kernels support 64, 128 and 256");
  args.vDim = 64;
  args.dtype = "f16";
  EXPECT_EQ(error(), "kernel 'kda_decode_spec': argument 'q' is bf16, the "
                     "call passes f16");
  args.dtype = "f32";
  EXPECT_EQ(error(), "dtype 'f32' is not a KDA input type; expected bf16 or "
                     "f16");
  args.dtype = nullptr;
  args.stateDtype = "bf16";
  EXPECT_EQ(error(), "kernel 'kda_decode_spec': argument 'pool' is f32, the "
                     "call passes state_dtype bf16");
  args.stateDtype = "f64";
  EXPECT_EQ(error(),
            "state_dtype 'f64' is not a KDA state type; expected f32 or bf16");
  use(kda2::fake::specDecodeMetadata("kda_decode_spec", 128, 64, "kv", "bf16",
                                     "f16"));
  args.stateDtype = "bf16";
  args.dtype = "f16";
  EXPECT_TRUE(checkKdaDecodeSpec(info, args).ok());
}

TEST_F(KdaDecodeSpecCheck, StateLayout) {
  args.stateLayout = nullptr;
  EXPECT_EQ(error(), "argument 'state_layout' is NULL: say \"kv\" (K-major "
                     "[.., K, V]) or \"vk\" (V-major [.., V, K])");
  args.stateLayout = "k-major";
  EXPECT_EQ(error(), "argument 'state_layout' is 'k-major': expected \"kv\" "
                     "(K-major [.., K, V]) or \"vk\" (V-major [.., V, K])");
  // K == V: a transposed pool has the same shape; the layout catches it.
  use(kda2::fake::specDecodeMetadata("kda_decode_spec", 64, 64, "vk"));
  args.kDim = args.vDim = 64;
  args.stateLayout = "kv";
  EXPECT_EQ(error(), "kernel 'kda_decode_spec' stores its state V-major "
                     "(vk), the call says K-major (kv)");
  args.stateLayout = "vk";
  EXPECT_TRUE(checkKdaDecodeSpec(info, args).ok());
  use(kda2::fake::specDecodeMetadata("kda_decode_spec", 64, 64, ""));
  EXPECT_EQ(error(), "kernel 'kda_decode_spec' does not declare the layout of "
                     "its state 'pool' (no 'state' line in its metadata); "
                     "rebuild it with a kda2 that records it");
}

TEST_F(KdaDecodeSpecCheck, PoolMatrixDimensionsAreKAndV) {
  std::string m = kda2::fake::specDecodeMetadata("kda_decode_spec", 128, 64);
  m.replace(m.find("slots h 64 128"), 14, "slots h 64 256");
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_spec': argument 'pool' ends in [.., "
                     "64, 256], which are not the head dimensions K = 128, "
                     "V = 64");
}

TEST_F(KdaDecodeSpecCheck, WriteStatesIsAPolicy) {
  for (int64_t good : {0, 1}) {
    args.writeStates = good;
    EXPECT_TRUE(checkKdaDecodeSpec(info, args).ok()) << good;
  }
  args.writeStates = 2;
  EXPECT_EQ(error(), "write_states must be 0 (output only: the pool is only "
                     "read) or 1 (the state after each token to its slot), "
                     "got 2");
}

TEST_F(KdaDecodeSpecCheck, KernelWithoutWriteStatesIsRefused) {
  std::string m = kda2::fake::specDecodeMetadata("kda_decode_spec", 128, 64);
  m.erase(m.find("arg scalar write_states i32\n"), 28);
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_spec': is not a speculative decode "
                     "kernel (no integer scalar argument 'write_states')");
}

TEST_F(KdaDecodeSpecCheck, Sizes) {
  args.n = -1;
  EXPECT_EQ(error(), "n must be positive (the number of sequences), got -1");
  args.n = 4;
  for (int64_t bad : {0, 17}) {
    args.t = bad;
    EXPECT_EQ(error(), "t must be in [1, 16] (tokens per sequence), got " +
                           std::to_string(bad) +
                           ": speculative decode verifies at most 16 tokens "
                           "per step (the last accepted token and the "
                           "drafts); longer runs are prefill");
  }
  for (int64_t good : {1, 16}) {
    args.t = good;
    EXPECT_TRUE(checkKdaDecodeSpec(info, args).ok()) << good;
  }
  args.h = 0;
  EXPECT_EQ(error(), "h must be positive (the number of heads), got 0");
  args.h = 8;
  args.slots = -4;
  EXPECT_EQ(error(),
            "slots must be positive (the states in the pool), got -4");
  args.slots = 16;
  args.scale = -1;
  EXPECT_EQ(error(), "scale must be a finite number >= 0 (0: K^-1/2)");
}

TEST_F(KdaDecodeSpecCheck, NullAndMisalignedOperandsAreNamed) {
  for (const char *name : kNames) {
    KdaDecodeSpecArgs saved = args;
    set(name, 0);
    EXPECT_EQ(error(), std::string("argument '") + name + "' is NULL");
    args = saved;
  }
  set("o", 0x9000008);
  EXPECT_EQ(error(), "argument 'o' is not 16-byte aligned (the kernel uses "
                     "128-bit accesses)");
  set("o", 0x9000000);
  set("num_accepted", 0x7000004); // int32: 4 bytes are enough
  EXPECT_TRUE(checkKdaDecodeSpec(info, args).ok());
  set("state_indices", 0x6000001);
  EXPECT_EQ(error(), "argument 'state_indices' is not 4-byte aligned (int32 "
                     "elements)");
}

TEST_F(KdaDecodeSpecCheck, WrittenOperandsMustNotOverlap) {
  // pool: 16 slots x 8 heads x 128 x 64 f32 = 4194304 bytes at 0x8000000;
  // state_indices: 4 x 3 int32 = 48 bytes.
  set("state_indices", 0x8000000 + 4194304 - 4);
  EXPECT_EQ(error(), "arguments 'pool' and 'state_indices' overlap (pool at "
                     "0x8000000, 4194304 bytes; state_indices at 0x83ffffc, "
                     "48 bytes): 'pool' is updated in place and must not "
                     "share memory with another operand");
  set("state_indices", 0x6000000);
  // o: 4 x 3 x 8 x 64 bf16 = 12288 bytes; q 4 x 3 x 8 x 128 bf16.
  set("o", 0x1000000 + 16);
  EXPECT_EQ(error(), "arguments 'o' and 'q' overlap (o at 0x1000010, 12288 "
                     "bytes; q at 0x1000000, 24576 bytes): 'o' is written "
                     "and must not share memory with another operand");
  // Inputs are only read: they may share memory.
  set("o", 0x9000000);
  set("k", 0x1000000);
  EXPECT_TRUE(checkKdaDecodeSpec(info, args).ok());
}

TEST_F(KdaDecodeSpecCheck, SizesBeyond63BitsAreRefused) {
  args.slots = int64_t(1) << 50;
  EXPECT_EQ(error(), "the pool of slots = 1125899906842624, h = 8 states is "
                     "larger than 2^63 bytes");
  args.slots = 16;
  args.n = int64_t(1) << 58;
  EXPECT_EQ(error(), "n = 288230376151711744, t = 3 and h = 8 make an "
                     "operand larger than 2^63 bytes");
}

} // namespace

//===----------------------------------------------------------------------===//
// Prefill: the three kernels' kinds and agreement, the workspace layout
//===----------------------------------------------------------------------===//

namespace {
using kda2::fake::PrefillBinding;

KernelInfo parsed(const std::string &text) {
  KernelInfo info;
  Status s = parseKernelMetadata(text, info);
  EXPECT_TRUE(s.ok()) << s.message();
  return info;
}

/// The fake prefill kernels (kda2::fake's metadata: the real kernels' text,
/// checked in KdaPrefill.FakeHelpersAreTheRealKernelsMetadata), parsed.
struct FakePrefillKernels {
  explicit FakePrefillKernels(const PrefillBinding &b = PrefillBinding())
      : prep(parsed(kda2::fake::prefillPrepMetadata(b))),
        scan(parsed(kda2::fake::prefillScanMetadata(b))),
        out(parsed(kda2::fake::prefillOutMetadata(b))),
        ckpt(parsed(kda2::fake::prefillCkptMetadata(b))) {}
  KernelInfo prep, scan, out, ckpt;
};

/// The message of kdaPrefillWorkspace on three kernels (empty: success).
std::string prefillKernelsError(const std::string &prep,
                                const std::string &scan,
                                const std::string &out) {
  KernelInfo p = parsed(prep), s = parsed(scan), o = parsed(out);
  KdaPrefillWorkspace ws;
  Status st = kdaPrefillWorkspace(p, s, o, 1, 1, 1, ws);
  return st.ok() ? "" : st.message();
}

using kda2::test::replaced;
} // namespace

namespace {
/// The metadata of `name` in the file KDA2_REAL_METADATA_DIR/`file`.meta,
/// which holds the kernels of one template (unittests/Runtime/CMakeLists.txt
/// compiles it at build time): the text from its kda2-kernel-v1 line to
/// its end line ("" when absent).
std::string realKernelMetadata(const std::string &file,
                               const std::string &name) {
  std::ifstream in(std::string(KDA2_REAL_METADATA_DIR) + "/" + file + ".meta");
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  const std::string head = "kda2-kernel-v1\nname " + name + "\n";
  size_t at = all.find(head);
  if (at == std::string::npos)
    return "";
  size_t end = all.find("\nend\n", at);
  return end == std::string::npos ? "" : all.substr(at, end + 5 - at);
}

/// The real kda_chunk_prep of the serving binding (chunk_split.meta).
KernelInfo realServingPrep() {
  return parsed(realKernelMetadata("chunk_split", "kda_chunk_prep"));
}

/// A prefill call on K = V = 128, C = 32, VB = 8 bf16 kernels with the
/// operands `spacing` bytes apart (never dereferenced) and the workspace
/// last: n sequences, tt tokens, the longest maxSeqlen, h heads.
KdaPrefillArgs prefillCall(int64_t n, int64_t tt, int64_t maxSeqlen, int64_t h,
                           uint64_t spacing) {
  KdaPrefillArgs a;
  const void **in[] = {&a.q,
                       &a.k,
                       &a.v,
                       &a.g,
                       &a.beta,
                       &a.cuSeqlens,
                       &a.stateIndices,
                       &a.hasInitialState};
  for (size_t i = 0; i < 8; ++i)
    *in[i] = reinterpret_cast<void *>(uintptr_t(i + 1) * spacing);
  a.pool = reinterpret_cast<void *>(uintptr_t(9) * spacing);
  a.o = reinterpret_cast<void *>(uintptr_t(10) * spacing);
  a.workspace = reinterpret_cast<void *>(uintptr_t(11) * spacing);
  a.workspaceBytes = spacing;
  a.n = n;
  a.totalTokens = tt;
  a.maxSeqlen = maxSeqlen;
  a.h = h;
  a.kDim = a.vDim = 128;
  a.slots = 4;
  a.stateLayout = "kv";
  a.gateLowerBound = -5;
  return a;
}

/// The launch configurations of a call (an empty string), or the first
/// message of kdaPrefillLaunchArgs and computeLaunchConfig.
std::string prefillLaunch(const KernelInfo &p, const KernelInfo &s,
                          const KernelInfo &o, const KdaPrefillArgs &a,
                          LaunchConfig cfg[3]) {
  KdaPrefillLaunch launch;
  Status st = kdaPrefillLaunchArgs(p, s, o, a, launch);
  if (st.ok())
    st = computeLaunchConfig(p, launch.prep, cfg[0]);
  if (st.ok())
    st = computeLaunchConfig(s, launch.scan, cfg[1]);
  if (st.ok())
    st = computeLaunchConfig(o, launch.out, cfg[2]);
  return st.ok() ? "" : st.message();
}
} // namespace

TEST(KdaPrefill, FakeHelpersAreTheRealKernelsMetadata) {
  // templates/kda_chunk_split.tirx and templates/kda_chunk_h.tirx bound as
  // the helpers' defaults but VB=16, NVB=8 (IN=bf16, IX=i32, GB=5, K=V=128,
  // C=32; ST=f32, SS=kv): the serving kernels' binding (the register-state
  // scan needs VB a multiple of 16; the helpers default to VB=8).
  PrefillBinding served;
  served.vb = 16;
  const std::string prep = realKernelMetadata("chunk_split", "kda_chunk_prep");
  const std::string scan = realKernelMetadata("chunk_h", "kda_chunk_scan_h");
  const std::string out = realKernelMetadata("chunk_h", "kda_chunk_out");
  const std::string ckpt = realKernelMetadata("chunk_h", "kda_chunk_ckpt");
  ASSERT_FALSE(prep.empty())
      << "no kda_chunk_prep in " KDA2_REAL_METADATA_DIR "/chunk_split.meta";
  ASSERT_FALSE(scan.empty()) << "no kda_chunk_scan_h in chunk_h.meta";
  ASSERT_FALSE(out.empty()) << "no kda_chunk_out in chunk_h.meta";
  ASSERT_FALSE(ckpt.empty()) << "no kda_chunk_ckpt in chunk_h.meta";
  EXPECT_EQ(kda2::fake::prefillPrepMetadata(served), prep);
  EXPECT_EQ(kda2::fake::prefillScanMetadata(served), scan);
  EXPECT_EQ(kda2::fake::prefillOutMetadata(served), out);
  EXPECT_EQ(kda2::fake::prefillCkptMetadata(served), ckpt);
  // And the runtime takes them, the checkpoint kernel too.
  KernelInfo p = parsed(prep), s = parsed(scan), o = parsed(out),
             c = parsed(ckpt);
  KdaPrefillWorkspace ws;
  Status st = kdaPrefillWorkspace(p, s, o, 2, 80, 1, ws);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(ws.bytes, 280576u); // KdaPrefill.WorkspaceLayout
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  a.workspaceBytes = 297984; // m = 1: KdaPrefill.WorkspaceWithOffsetCheckpoints
  a.ckptOffsets = reinterpret_cast<void *>(uintptr_t(12) << 24);
  a.offsetBlocks = reinterpret_cast<void *>(uintptr_t(13) << 24);
  a.m = 1;
  a.ckpt = reinterpret_cast<void *>(uintptr_t(14) << 24);
  a.blocks = 2;
  st = checkKdaPrefill(p, s, o, &c, a);
  EXPECT_TRUE(st.ok()) << st.message();
}

TEST(KdaPrefill, WorkspaceLayout) {
  const FakePrefillKernels fake;
  const KernelInfo &prep = fake.prep, &scan = fake.scan, &out = fake.out;
  using B = KdaPrefillWorkspace;
  KdaPrefillWorkspace ws;
  // K = V = 128, C = 32, bf16; n = 1, total_tokens = 1, h = 1: ns =
  // floor(1 / 32) + 1 = 1 chunk slot. Sizes, each buffer at the next
  // multiple of 1024 (no copy of the values: the scans read v in place):
  //   qd, kl, wn [1,1,32,128]  bf16 = 8192 at 0, 8192, 16384
  //   tp, pb     [1,1,32,32]   bf16 = 2048 at 24576, 26624
  //   gl         [1,1,128]     f32  =  512 at 28672 (end 29184 -> 29696)
  //   hs         [1,1,128,128] bf16 = 32768 at 29696
  //   us         [1,1,32,128]  bf16 = 8192 at 62464 (end 70656)
  ASSERT_TRUE(kdaPrefillWorkspace(prep, scan, out, 1, 1, 1, ws).ok());
  EXPECT_EQ(ws.chunk, 32);
  EXPECT_EQ(ws.ns, 1);
  // kc and ec (offset checkpoints) take no bytes with m = 0, nor the ready
  // flags without kernels built with RDY=1: the size without them.
  const uint64_t offsets[] = {0,     8192,  16384, 24576, 26624, 28672,
                              29696, 62464, 70656, 70656, 70656};
  const uint64_t sizes[] = {8192, 8192, 8192, 2048, 2048, 512,
                            32768, 8192, 0,    0,    0};
  static_assert(std::size(offsets) == B::Count);
  for (int b = 0; b < B::Count; ++b) {
    EXPECT_EQ(ws.offset[b], offsets[b])
        << kdaPrefillBufferName(static_cast<B::Buffer>(b));
    EXPECT_EQ(ws.size[b], sizes[b])
        << kdaPrefillBufferName(static_cast<B::Buffer>(b));
  }
  EXPECT_EQ(ws.bytes, 70656u);
  // No tokens: one slot per sequence all the same (ns = n).
  ASSERT_TRUE(kdaPrefillWorkspace(prep, scan, out, 1, 0, 1, ws).ok());
  EXPECT_EQ(ws.ns, 1);
  EXPECT_EQ(ws.bytes, 70656u);
  // n = 2, total_tokens = 80 (ns = 2 + 2 = 4), h = 1: every buffer a
  // multiple of 1024, 70144 bytes per slot: qd, kl, wn 32768 each; tp, pb
  // 8192; gl 2048; hs 131072; us 32768 at 247808, total 4 · 70144 =
  // 280576.
  ASSERT_TRUE(kdaPrefillWorkspace(prep, scan, out, 2, 80, 1, ws).ok());
  EXPECT_EQ(ws.ns, 4);
  EXPECT_EQ(ws.offset[B::US], 247808u);
  EXPECT_EQ(ws.bytes, 280576u);
  EXPECT_STREQ(kdaPrefillBufferName(B::HS), "hs");
  EXPECT_STREQ(kdaPrefillBufferName(B::US), "us");
  EXPECT_STREQ(kdaPrefillBufferName(B::Count), "");
  // ns = floor(tt / C) + n: 95 tokens still 4 slots, 96 five; h scales
  // every buffer (h = 3: gl's 3 · 5 · 512 = 7680 bytes round up to 8192).
  ASSERT_TRUE(kdaPrefillWorkspace(prep, scan, out, 2, 95, 1, ws).ok());
  EXPECT_EQ(ws.bytes, 280576u);
  ASSERT_TRUE(kdaPrefillWorkspace(prep, scan, out, 2, 96, 3, ws).ok());
  EXPECT_EQ(ws.ns, 5);
  EXPECT_EQ(ws.size[B::GL], 7680u);
  EXPECT_EQ(ws.bytes, 3u * 5u * 70144u + 512u);

  auto error = [&](int64_t n, int64_t tt, int64_t h) {
    Status s = kdaPrefillWorkspace(prep, scan, out, n, tt, h, ws);
    return s.ok() ? std::string() : s.message();
  };
  EXPECT_EQ(error(0, 1, 1),
            "n must be positive (the number of sequences), got 0");
  EXPECT_EQ(error(1, -1, 1), "total_tokens must be >= 0 (the tokens of the "
                             "call, padding included), got -1");
  EXPECT_EQ(error(1, int64_t(1) << 31, 1),
            "total_tokens = 2147483648 does not fit the int32 cu_seqlens of "
            "kernel 'kda_chunk_prep' (at most 2^31 - 1; kernels built with "
            "IX=i64 take more)");
  EXPECT_EQ(error(1, 1, -2),
            "h must be positive (the number of heads), got -2");
  EXPECT_EQ(error(int64_t(1) << 40, INT32_MAX, 1024),
            "n = 1099511627776, total_tokens = 2147483647 and h = 1024 make "
            "a workspace larger than 2^63 bytes");
  // ns itself past 63 bits.
  EXPECT_EQ(error(INT64_MAX, INT32_MAX, 1),
            "n = 9223372036854775807, total_tokens = 2147483647 and h = 1 "
            "make a workspace larger than 2^63 bytes");
  EXPECT_EQ(error(1, INT32_MAX, 1), "");
}

TEST(KdaPrefill, WorkspaceWithOffsetCheckpoints) {
  // Checkpoints at token offsets add kc [h, n·m, C, K] (input type) and ec
  // [h, n·m, K] f32 after us, each at the next multiple of 1024.
  const FakePrefillKernels fake;
  const KernelInfo &prep = fake.prep, &scan = fake.scan, &out = fake.out;
  using B = KdaPrefillWorkspace;
  KdaPrefillWorkspace ws, base;
  ASSERT_TRUE(kdaPrefillWorkspace(prep, scan, out, 2, 80, 1, base).ok());
  ASSERT_TRUE(kdaPrefillWorkspace(prep, scan, out, 2, 80, 1, 0, ws).ok());
  EXPECT_EQ(ws.bytes, base.bytes); // m = 0: the size without offsets
  EXPECT_EQ(ws.nm, 0);
  // n = 2, m = 1 (nm = 2), h = 1: kc 2·32·128·2 = 16384 bytes at 280576,
  // ec 2·128·4 = 1024 at 296960, 297984 in all.
  ASSERT_TRUE(kdaPrefillWorkspace(prep, scan, out, 2, 80, 1, 1, ws).ok());
  EXPECT_EQ(ws.nm, 2);
  EXPECT_EQ(ws.offset[B::KC], 280576u);
  EXPECT_EQ(ws.size[B::KC], 16384u);
  EXPECT_EQ(ws.offset[B::EC], 296960u);
  EXPECT_EQ(ws.size[B::EC], 1024u);
  EXPECT_EQ(ws.bytes, 297984u);
  EXPECT_STREQ(kdaPrefillBufferName(B::KC), "kc");
  EXPECT_STREQ(kdaPrefillBufferName(B::EC), "ec");
  // h = 3, m = 5 (nm = 10): kc 3·10·8192, ec 3·10·512 = 15360.
  ASSERT_TRUE(kdaPrefillWorkspace(prep, scan, out, 2, 80, 3, 5, ws).ok());
  EXPECT_EQ(ws.size[B::KC], 3u * 10u * 8192u);
  EXPECT_EQ(ws.size[B::EC], 15360u);
  EXPECT_EQ(ws.bytes, ws.offset[B::EC] + 15360u);
  auto error = [&](int64_t n, int64_t m) {
    Status s = kdaPrefillWorkspace(prep, scan, out, n, 80, 1, m, ws);
    return s.ok() ? std::string() : s.message();
  };
  EXPECT_EQ(error(2, -1), "m must be >= 0 (the offset checkpoints per "
                          "sequence, the columns of ckpt_offsets; 0: none), "
                          "got -1");
  // n·m <= 2^31 - 1: kda_chunk_ckpt's grid.x.
  EXPECT_EQ(error(2, int64_t(1) << 30),
            "n = 2 and m = 1073741824 make n·m = 2147483648 offset "
            "checkpoints, more than 2^31 - 1 (the grid.x of kda_chunk_ckpt, "
            "one program per (sequence, offset))");
  EXPECT_EQ(error(int64_t(1) << 40, int64_t(1) << 30),
            "n = 1099511627776 and m = 1073741824 make n·m = more than 2^63 "
            "offset checkpoints, more than 2^31 - 1 (the grid.x of "
            "kda_chunk_ckpt, one program per (sequence, offset))");
  EXPECT_EQ(error(1, INT32_MAX), "");
  // Past 63 bits with m: named.
  Status s = kdaPrefillWorkspace(prep, scan, out, 1, 0, int64_t(1) << 40,
                                 INT32_MAX, ws);
  EXPECT_EQ(s.message(), "n = 1, total_tokens = 0, h = 1099511627776 and m = "
                         "2147483647 make a workspace larger than 2^63 bytes");
}

TEST(KdaPrefill, UnevenBatchNeedsTheTokensNotTheLongestSequence) {
  // One sequence of 16384 tokens and 255 of 64, h = 32, K = V = 128,
  // C = 32, bf16: tt = 32704, ns = floor(32704 / 32) + 256 = 1278 chunk
  // slots of 70144 bytes per head (every buffer a multiple of 1024), about
  // 2.9 GB, where a layout by the longest sequence (256 · 32 · 512 chunks)
  // took 329 GB.
  const FakePrefillKernels fake;
  const KernelInfo &p = fake.prep, &s = fake.scan, &o = fake.out;
  const int64_t n = 256, tt = 16384 + 255 * 64, h = 32;
  KdaPrefillWorkspace ws;
  ASSERT_TRUE(kdaPrefillWorkspace(p, s, o, n, tt, h, ws).ok());
  EXPECT_EQ(ws.ns, 1278);
  const uint64_t perSlot = 3 * 32 * 128 * 2 + 2 * 32 * 32 * 2 + 128 * 4 +
                           128 * 128 * 2 + 32 * 128 * 2;
  EXPECT_EQ(perSlot, 70144u);
  EXPECT_EQ(ws.bytes, uint64_t(h) * 1278 * perSlot);
  EXPECT_EQ(ws.bytes, 2868609024u);
  EXPECT_EQ(ws.size[KdaPrefillWorkspace::HS], uint64_t(h) * 1278 * 32768);
  // The call passes the checks with that workspace (operands 16 GiB apart,
  // never dereferenced), whatever the longest sequence; grids (ns, h),
  // (V / VB, n·h), (ns, h).
  KdaPrefillArgs a = prefillCall(n, tt, 16384, h, uint64_t(1) << 34);
  a.workspaceBytes = ws.bytes;
  Status st = checkKdaPrefill(p, s, o, a);
  EXPECT_TRUE(st.ok()) << st.message();
  LaunchConfig cfg[3];
  EXPECT_EQ(prefillLaunch(p, s, o, a, cfg), "");
  EXPECT_EQ(cfg[0].grid[0], 1278u);
  EXPECT_EQ(cfg[0].grid[1], 32u);
  EXPECT_EQ(cfg[1].grid[0], 16u);
  EXPECT_EQ(cfg[1].grid[1], 256u * 32u);
  EXPECT_EQ(cfg[2].grid[0], 1278u);
  EXPECT_EQ(cfg[2].grid[1], 32u);
  // The workspace follows the tokens only: max_seqlen changes nothing.
  a.maxSeqlen = 64;
  EXPECT_EQ(prefillLaunch(p, s, o, a, cfg), "");
  a.workspaceBytes = ws.bytes - 1;
  EXPECT_EQ(checkKdaPrefill(p, s, o, a).message(),
            "workspace_bytes = 2868609023 is too small: n = 256 and "
            "total_tokens = 32704 with h = 32 need 2868609024 bytes "
            "(kda2rt_kda_prefill_workspace_size)");
}

TEST(KdaPrefill, GridsOverTheCudaLimits) {
  PrefillBinding b64;
  b64.ix = "i64";
  const FakePrefillKernels fake(b64);
  const KernelInfo &p = fake.prep, &s = fake.scan, &o = fake.out;
  LaunchConfig cfg[3];
  // Operands 2^52 bytes apart (never dereferenced), workspace_bytes the
  // spacing: the checks before the launch configurations pass.
  const uint64_t far = uint64_t(1) << 52;
  // prep and out: grid.y = h <= 65535 (prep is checked first).
  KdaPrefillArgs a = prefillCall(1, 32, 32, 70000, far);
  a.indexDtype = "i64";
  EXPECT_EQ(prefillLaunch(p, s, o, a, cfg),
            "kernel 'kda_chunk_prep': grid.y = h(70000) = 70000 exceeds the "
            "CUDA limit of 65535");
  // The scan: grid.y = n·h <= 65535 (which keeps n below 2^16, as the
  // binary search of cu_seqlens in prep and out needs).
  a = prefillCall(65536, 65536, 1, 1, far);
  a.indexDtype = "i64";
  EXPECT_EQ(prefillLaunch(p, s, o, a, cfg),
            "kernel 'kda_chunk_scan_h': grid.y = n(65536) * h(1) = 65536 "
            "exceeds the CUDA limit of 65535");
  a = prefillCall(65535, 65535, 1, 1, far);
  a.indexDtype = "i64";
  EXPECT_EQ(prefillLaunch(p, s, o, a, cfg), "");
  EXPECT_EQ(cfg[0].grid[0], 65535u + 2047u); // ns = floor(65535 / 32) + n
  // prep and out: grid.x = ns <= 2^31 - 1: 2^36 tokens (IX=i64).
  a = prefillCall(1, int64_t(1) << 36, 32, 1, far);
  a.indexDtype = "i64";
  EXPECT_EQ(prefillLaunch(p, s, o, a, cfg),
            "kernel 'kda_chunk_prep': grid.x = max(ns(2147483649)) = "
            "2147483649 exceeds the CUDA limit of 2147483647");
  a = prefillCall(1, (int64_t(1) << 36) - 64, 32, 1, far);
  a.indexDtype = "i64";
  EXPECT_EQ(prefillLaunch(p, s, o, a, cfg), "");
  EXPECT_EQ(cfg[0].grid[0], 2147483647u);
}

TEST(KdaPrefill, KernelsBeforeChunkSlotsAreRefused) {
  // Kernels built before the per-chunk-slot layout (qd [n, h, nc, C, K],
  // ...): refused by name with what to rebuild, the
  // first old kernel of (prep, scan, out).
  using kda2::fake::prefillOutMetadata;
  using kda2::fake::prefillPrepMetadata;
  using kda2::fake::prefillScanMetadata;
  PrefillBinding old;
  old.chunkSlots = false;
  const std::string rebuild =
      ", per (sequence, head, chunk): the layout of prefill kernels built "
      "before chunk slots; rebuild the three kernels from "
      "templates/kda_chunk_split.tirx (or templates/kda_chunk_prep_act.tirx) "
      "and templates/kda_chunk_h.tirx, whose intermediates are per chunk "
      "slot ([h, ns, ..])";
  EXPECT_EQ(prefillKernelsError(prefillPrepMetadata(old),
                                prefillScanMetadata(old),
                                prefillOutMetadata(old)),
            "kernel 'kda_chunk_prep': argument 'qd' is [n, h, nc, 32, 128]" +
                rebuild);
  EXPECT_EQ(prefillKernelsError(prefillPrepMetadata(), prefillScanMetadata(old),
                                prefillOutMetadata(old)),
            "kernel 'kda_chunk_scan_h': argument 'kl' is [n, h, nc, 32, 128]" +
                rebuild);
  EXPECT_EQ(prefillKernelsError(prefillPrepMetadata(), prefillScanMetadata(),
                                prefillOutMetadata(old)),
            "kernel 'kda_chunk_out': argument 'qd' is [n, h, nc, 32, 128]" +
                rebuild);
  // The call refuses them as the size does.
  KernelInfo p = parsed(prefillPrepMetadata(old)),
             s = parsed(prefillScanMetadata(old)),
             o = parsed(prefillOutMetadata(old));
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  EXPECT_EQ(checkKdaPrefill(p, s, o, a).message(),
            "kernel 'kda_chunk_prep': argument 'qd' is [n, h, nc, 32, 128]" +
                rebuild);
  // One intermediate of another shape: what is expected.
  const std::string prep = prefillPrepMetadata();
  EXPECT_EQ(prefillKernelsError(replaced(prep, "arg ptr gl f32 out 3 h ns 128",
                                         "arg ptr gl f32 out 3 ns h 128"),
                                prefillScanMetadata(), prefillOutMetadata()),
            "kernel 'kda_chunk_prep': argument 'gl' is [ns, h, 128], expected "
            "[h, ns, ..] (per head and chunk slot)");
  EXPECT_EQ(prefillKernelsError(prep, prefillScanMetadata(),
                                replaced(prefillOutMetadata(),
                                         "arg ptr us bf16 in 4 h ns 128 32",
                                         "arg ptr us bf16 in 4 h nsv 128 32")),
            "kernel 'kda_chunk_out': argument 'us' is [h, nsv, 128, 32], "
            "expected [h, ns, ..] (per head and chunk slot)");
  // Kernels built before the scans read v in place: the prep wrote a copy
  // of the values (vc) that the scans read.
  const std::string copied =
      "takes 'vc', the values copied per chunk by prefill kernels built "
      "before the scans read v in place; rebuild the prefill kernels from "
      "templates/kda_chunk_split.tirx (or templates/kda_chunk_prep_act.tirx) "
      "and templates/kda_chunk_h.tirx";
  EXPECT_EQ(prefillKernelsError(
                replaced(prep, "arg ptr gl f32 out 3 h ns 128\n",
                         "arg ptr gl f32 out 3 h ns 128\n"
                         "arg ptr vc bf16 out 4 h nsv 32 8\n"),
                prefillScanMetadata(), prefillOutMetadata()),
            "kernel 'kda_chunk_prep': " + copied);
  EXPECT_EQ(prefillKernelsError(
                prep,
                replaced(prefillScanMetadata(), "arg ptr gl f32 in 3 h ns 128\n",
                         "arg ptr gl f32 in 3 h ns 128\n"
                         "arg ptr vc bf16 in 4 h nsv 32 8\n"),
                prefillOutMetadata()),
            "kernel 'kda_chunk_scan_h': " + copied);
}

TEST(KdaPrefill, KernelKindsAndAgreement) {
  using kda2::fake::prefillOutMetadata;
  using kda2::fake::prefillPrepMetadata;
  using kda2::fake::prefillScanMetadata;
  const std::string prep = prefillPrepMetadata(), scan = prefillScanMetadata(),
                    out = prefillOutMetadata();
  EXPECT_EQ(prefillKernelsError(prep, scan, out), "");
  // Kernels in the wrong roles.
  EXPECT_EQ(prefillKernelsError(scan, scan, out),
            "argument 'prep_kernel': kernel 'kda_chunk_scan_h' is not a KDA "
            "prefill prep kernel (kda_chunk_prep) (no argument 'q')");
  EXPECT_EQ(prefillKernelsError(prep, out, out),
            "argument 'scan_kernel': kernel 'kda_chunk_out' is not a KDA "
            "prefill state scan kernel (kda_chunk_scan_h) (no argument 'v')");
  EXPECT_EQ(prefillKernelsError(prep, scan, scan),
            "argument 'out_kernel': kernel 'kda_chunk_scan_h' is not a KDA "
            "prefill output kernel (kda_chunk_out) (no argument 'qd')");
  EXPECT_EQ(prefillKernelsError(prep, scan,
                                replaced(out, "arg scalar nslots i32",
                                         "arg scalar nslots f32")),
            "argument 'out_kernel': kernel 'kda_chunk_out' is not a KDA "
            "prefill output kernel (kda_chunk_out) (no integer scalar "
            "argument 'nslots')");
  // Kernels of other bindings: chunk, head size, types. The value block is
  // the scan's alone (the prep does not see it: the scans read v in place),
  // so a scan of another VB works with the same prep.
  PrefillBinding c64;
  c64.c = 64;
  EXPECT_EQ(prefillKernelsError(prep, prefillScanMetadata(c64), out),
            "kernel 'kda_chunk_scan_h': argument 'kl' ends in [.., 64, 128], "
            "expected [.., 32, 128] (C = 32, K = 128, V = 128 of kernel "
            "'kda_chunk_prep')");
  PrefillBinding vb16;
  vb16.vb = 16;
  EXPECT_EQ(prefillKernelsError(prep, prefillScanMetadata(vb16), out), "");
  PrefillBinding v64;
  v64.v = 64;
  EXPECT_EQ(prefillKernelsError(prep, scan, prefillOutMetadata(v64)),
            "kernel 'kda_chunk_out': argument 'hs' ends in [.., 64, 128], "
            "expected [.., 128, 128] (C = 32, K = 128, V = 128 of "
            "kernel 'kda_chunk_prep')");
  PrefillBinding f16;
  f16.in = "f16";
  EXPECT_EQ(prefillKernelsError(prep, scan, prefillOutMetadata(f16)),
            "kernel 'kda_chunk_out': argument 'qd' is f16, expected bf16 (the "
            "input type of kernel 'kda_chunk_prep')");
  EXPECT_EQ(prefillKernelsError(
                replaced(prep, "arg ptr gl f32", "arg ptr gl bf16"), scan, out),
            "kernel 'kda_chunk_prep': argument 'gl' is bf16, expected f32");
  EXPECT_EQ(prefillKernelsError(prep,
                                replaced(scan, "arg ptr state_indices i32",
                                         "arg ptr state_indices i64"),
                                out),
            "kernel 'kda_chunk_scan_h': argument 'state_indices' is i64, "
            "expected i32");
  EXPECT_EQ(
      prefillKernelsError(replaced(prep, "arg ptr qd bf16 out 4 h ns 32 128",
                                   "arg ptr qd bf16 out 4 h ns C 128"),
                          scan, out),
      "kernel 'kda_chunk_prep': has no static chunk size or key dimension "
      "(expected qd [h, ns, C, K], q [.., K])");
  // The state: pool inout, ckpt of the pool's type, layout and shape.
  EXPECT_EQ(prefillKernelsError(
                prep,
                replaced(scan, "arg ptr pool f32 inout", "arg ptr pool f32 in"),
                out),
            "kernel 'kda_chunk_scan_h': argument 'pool' is declared 'in'; the "
            "pool is read and written in place (inout)");
  EXPECT_EQ(
      prefillKernelsError(
          prep, replaced(scan, "arg ptr ckpt f32", "arg ptr ckpt bf16"), out),
      "kernel 'kda_chunk_scan_h': argument 'ckpt' is bf16, expected f32");
  EXPECT_EQ(prefillKernelsError(
                prep, replaced(scan, "state ckpt kv", "state ckpt vk"), out),
            "kernel 'kda_chunk_scan_h': declares state 'ckpt' vk but 'pool' "
            "kv; the prefill entry point takes one layout for the pool and "
            "its checkpoints");
  EXPECT_EQ(prefillKernelsError(prep,
                                replaced(scan, "out 4 blocks h 128 128",
                                         "out 4 blocks h 128 64"),
                                out),
            "kernel 'kda_chunk_scan_h': argument 'ckpt' is [blocks, h, 128, "
            "64] but 'pool' is [slots, h, 128, 128]; checkpoints are states of "
            "the pool's shape");
}

TEST(KdaPrefill, Int64IndexKernels) {
  using kda2::fake::prefillOutMetadata;
  using kda2::fake::prefillPrepMetadata;
  using kda2::fake::prefillScanMetadata;
  PrefillBinding b64;
  b64.ix = "i64";
  const std::string prep = prefillPrepMetadata(b64),
                    scan = prefillScanMetadata(b64),
                    out = prefillOutMetadata(b64);
  EXPECT_EQ(prefillKernelsError(prep, scan, out), "");
  // The three kernels share one index type, prep's cu_seqlens.
  EXPECT_EQ(prefillKernelsError(prep, prefillScanMetadata(), out),
            "kernel 'kda_chunk_scan_h': argument 'cu_seqlens' is i32, "
            "expected i64");
  EXPECT_EQ(prefillKernelsError(prefillPrepMetadata(), prefillScanMetadata(),
                                out),
            "kernel 'kda_chunk_out': argument 'cu_seqlens' is i64, expected "
            "i32");
  EXPECT_EQ(prefillKernelsError(
                replaced(prep, "arg ptr cu_seqlens i64", "arg ptr cu_seqlens "
                                                         "f32"),
                scan, out),
            "kernel 'kda_chunk_prep': argument 'cu_seqlens' is f32, expected "
            "i32 or i64 (the index type, IX)");
  // has_initial_state stays int32.
  EXPECT_EQ(prefillKernelsError(prep,
                                replaced(scan, "has_initial_state i32",
                                         "has_initial_state i64"),
                                out),
            "kernel 'kda_chunk_scan_h': argument 'has_initial_state' is i64, "
            "expected i32");

  // The workspace holds no index array: the same for both index types;
  // the int64 kernels take more than 2^31 - 1 tokens.
  KernelInfo p = parsed(prep), s = parsed(scan), o = parsed(out);
  KernelInfo p32 = parsed(prefillPrepMetadata()),
             s32 = parsed(prefillScanMetadata()),
             o32 = parsed(prefillOutMetadata());
  KdaPrefillWorkspace ws, ws32;
  ASSERT_TRUE(kdaPrefillWorkspace(p, s, o, 2, 80, 1, ws).ok());
  ASSERT_TRUE(kdaPrefillWorkspace(p32, s32, o32, 2, 80, 1, ws32).ok());
  EXPECT_EQ(ws.bytes, 280576u);
  EXPECT_EQ(ws32.bytes, 280576u);
  ASSERT_TRUE(kdaPrefillWorkspace(p, s, o, 1, int64_t(1) << 31, 1, ws).ok());
  EXPECT_EQ(ws.ns, (int64_t(1) << 26) + 1);
  EXPECT_FALSE(
      kdaPrefillWorkspace(p32, s32, o32, 1, int64_t(1) << 31, 1, ws32).ok());

  // A call: n = 2, 80 tokens, the longest 40 (nc = 2 for a checkpoint
  // table), h = 1, operands 16 MiB apart, the workspace 1024-aligned.
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  a.workspaceBytes = 280576;
  auto error = [&](const KernelInfo &pp, const KernelInfo &ss,
                   const KernelInfo &oo) {
    Status st = checkKdaPrefill(pp, ss, oo, a);
    return st.ok() ? std::string() : st.message();
  };
  EXPECT_EQ(error(p, s, o), "argument 'index_dtype' is NULL (i32) but kernel "
                            "'kda_chunk_prep' reads 'cu_seqlens' as int64 "
                            "(its IX binding)");
  a.indexDtype = "i64";
  EXPECT_EQ(error(p, s, o), "");
  EXPECT_EQ(error(p32, s32, o32),
            "argument 'index_dtype' is 'i64' but kernel 'kda_chunk_prep' "
            "reads 'cu_seqlens' as int32 (its IX binding)");
  a.indexDtype = "i8";
  EXPECT_EQ(error(p, s, o), "argument 'index_dtype' is 'i8': expected \"i32\" "
                            "(or NULL) or \"i64\", the type of the index "
                            "arrays (cu_seqlens, state_indices, ...)");
  a.indexDtype = "i64";
  // No checkpoints: the scan's checkpoint table is state_indices (n
  // entries of the index type) with nc = 1, blocks = 0 and the pool as
  // ckpt; the int32 kernels alike.
  for (bool wide : {true, false}) {
    a.indexDtype = wide ? "i64" : nullptr;
    LaunchConfig cfg[3];
    ASSERT_EQ(wide ? prefillLaunch(p, s, o, a, cfg)
                   : prefillLaunch(p32, s32, o32, a, cfg),
              "");
    // v kl wn tp gl cu_seqlens state_indices has_initial_state
    // checkpoint_blocks ckpt_offsets offset_blocks boundaries sv pool hs us
    // ckpt, then tt h ns np1 n nc m slots blocks, five maps.
    ASSERT_EQ(cfg[1].params.size(), 31u);
    EXPECT_EQ(cfg[1].params[8], uint64_t(7) << 24) << wide;
    EXPECT_EQ(cfg[1].params[11], 0u) << wide;                // boundaries
    EXPECT_EQ(cfg[1].params[16], uint64_t(9) << 24) << wide; // ckpt: pool
    EXPECT_EQ(cfg[1].params[22], 1u) << wide;                // nc
    EXPECT_EQ(cfg[1].params[23], 0u) << wide;                // m
    EXPECT_EQ(cfg[1].params[25], 0u) << wide;                // blocks
  }
  a.indexDtype = "i64";
  // 8-byte alignment of the index arrays; has_initial_state 4.
  a.stateIndices = reinterpret_cast<void *>((uintptr_t(7) << 24) + 4);
  EXPECT_EQ(error(p, s, o), "argument 'state_indices' is not 8-byte aligned "
                            "(int64 elements)");
  a.stateIndices = reinterpret_cast<void *>(uintptr_t(7) << 24);
  a.hasInitialState = reinterpret_cast<void *>((uintptr_t(8) << 24) + 4);
  EXPECT_EQ(error(p, s, o), "");
  // The caller's checkpoint table: [n, nc] int64 = 32 bytes, its extent
  // against the written operands; the scan gets it with nc = 2 and the
  // caller's blocks.
  a.ckpt = reinterpret_cast<void *>(uintptr_t(12) << 24);
  a.blocks = 4;
  a.checkpointBlocks = reinterpret_cast<void *>((uintptr_t(9) << 24) - 24);
  EXPECT_EQ(error(p, s, o),
            "arguments 'pool' and 'checkpoint_blocks' overlap (pool at "
            "0x9000000, 262144 bytes; checkpoint_blocks at 0x8ffffe8, 32 "
            "bytes): 'pool' is updated in place and must not share memory "
            "with another operand");
  a.checkpointBlocks = reinterpret_cast<void *>((uintptr_t(9) << 24) - 32);
  EXPECT_EQ(error(p, s, o), "");
  LaunchConfig cfg[3];
  ASSERT_EQ(prefillLaunch(p, s, o, a, cfg), "");
  EXPECT_EQ(cfg[1].params[8], (uint64_t(9) << 24) - 32);
  EXPECT_EQ(cfg[1].params[11], 1u); // boundaries
  EXPECT_EQ(cfg[1].params[16], uint64_t(12) << 24);
  EXPECT_EQ(cfg[1].params[22], 2u);
  EXPECT_EQ(cfg[1].params[25], 4u);
  // A longer max_seqlen widens only that table: 33 columns of 8 bytes
  // each reach into the pool now.
  a.maxSeqlen = 33 * 32;
  EXPECT_EQ(error(p, s, o).rfind("arguments 'pool' and 'checkpoint_blocks' "
                                 "overlap (pool at 0x9000000, 262144 bytes; "
                                 "checkpoint_blocks at 0x8ffffe0, 528 bytes)",
                                 0),
            0u)
      << error(p, s, o);
  a.maxSeqlen = 40;
  // A table past 63 bits: 2^40 sequences (no tokens) of nc = 2^26 columns,
  // operands 2^58 bytes apart.
  KdaPrefillArgs big =
      prefillCall(int64_t(1) << 40, 0, INT32_MAX, 1, uint64_t(1) << 58);
  big.checkpointBlocks = reinterpret_cast<void *>(uintptr_t(12) << 58);
  big.ckpt = reinterpret_cast<void *>(uintptr_t(13) << 58);
  big.blocks = 1;
  EXPECT_EQ(checkKdaPrefill(p32, s32, o32, big).message(),
            "checkpoint_blocks of n = 1099511627776 rows of nc = 67108864 "
            "entries is larger than 2^63 bytes");
  big.maxSeqlen = 32; // nc = 1: 2^42 bytes
  EXPECT_EQ(checkKdaPrefill(p32, s32, o32, big).message(), "");
  // Past 2^31 tokens: refused by the int32 kernels only (the int64 ones
  // then need a larger workspace, which is the next check).
  a.totalTokens = int64_t(1) << 31;
  EXPECT_EQ(error(p, s, o).rfind("workspace_bytes = 280576 is too small: n "
                                 "= 2 and total_tokens = 2147483648 with h = "
                                 "1 need ",
                                 0),
            0u)
      << error(p, s, o);
  a.indexDtype = nullptr;
  EXPECT_EQ(error(p32, s32, o32),
            "total_tokens = 2147483648 does not fit the int32 cu_seqlens "
            "(index_dtype \"i64\" with IX=i64 kernels does)");
}

TEST(KdaPrefill, RowStridesReachThePrepKernel) {
  const FakePrefillKernels fake;
  const KernelInfo &p = fake.prep, &s = fake.scan, &o = fake.out;
  // n = 2, 50 tokens (the longest 40), h = 2, operands 16 MiB apart.
  KdaPrefillArgs a;
  const void **in[] = {&a.q, &a.k, &a.v, &a.g, &a.beta, &a.cuSeqlens,
                       &a.stateIndices, &a.hasInitialState};
  for (size_t i = 0; i < 8; ++i)
    *in[i] = reinterpret_cast<void *>(uintptr_t(i + 1) << 24);
  a.pool = reinterpret_cast<void *>(uintptr_t(9) << 24);
  a.o = reinterpret_cast<void *>(uintptr_t(10) << 24);
  a.workspace = reinterpret_cast<void *>(uintptr_t(11) << 24);
  a.workspaceBytes = uint64_t(1) << 24;
  a.n = 2;
  a.totalTokens = 50;
  a.maxSeqlen = 40;
  a.h = 2;
  a.kDim = a.vDim = 128;
  a.slots = 4;
  a.stateLayout = "kv";
  a.gateLowerBound = -5;
  auto error = [&](const KernelInfo &pp) {
    Status st = checkKdaPrefill(pp, s, o, a);
    return st.ok() ? std::string() : st.message();
  };
  auto prepStrides = [&](uint64_t out[5]) {
    KdaPrefillLaunch launch;
    Status st = kdaPrefillLaunchArgs(p, s, o, a, launch);
    ASSERT_TRUE(st.ok()) << st.message();
    LaunchConfig cfg, scanCfg;
    st = computeLaunchConfig(p, launch.prep, cfg);
    ASSERT_TRUE(st.ok()) << st.message();
    // q, k, g, beta, cu_seqlens, ckpt_offsets, scale, then sq, sk, sg, sb;
    // v's stride sv goes to the scan, which reads v (after v .. boundaries).
    ASSERT_GE(cfg.params.size(), 11u);
    st = computeLaunchConfig(s, launch.scan, scanCfg);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_GE(scanCfg.params.size(), 13u);
    const uint64_t got[] = {cfg.params[7], cfg.params[8], scanCfg.params[12],
                            cfg.params[9], cfg.params[10]};
    for (int i = 0; i < 5; ++i)
      out[i] = got[i];
  };
  EXPECT_EQ(error(p), "");
  uint64_t got[5];
  prepStrides(got);
  const uint64_t dense[] = {256, 256, 256, 256, 2};
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(got[i], dense[i]) << i; // 0: the dense row sizes
  a.qStride = a.kStride = a.vStride = 6288;
  a.gStride = a.betaStride = 6288;
  EXPECT_EQ(error(p), "");
  prepStrides(got);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(got[i], 6288u) << i;
  a.betaStride = 6287;
  EXPECT_EQ(error(p), "argument 'beta_stride' is 6287: the row stride must "
                      "be a multiple of 16 bytes (4 elements of f32)");
  a.betaStride = 1;
  EXPECT_EQ(error(p), "argument 'beta_stride' is 1: a row stride is 0 "
                      "(dense) or at least the row size, h = 2 elements");
  a.betaStride = 0;
  // o and the workspace must not overlap a strided input's extent:
  // g's is (50 - 1)·6288 + 256 f32 = 1233472 bytes.
  a.o = reinterpret_cast<void *>((uintptr_t(4) << 24) + 1233472 - 16);
  EXPECT_EQ(error(p), "arguments 'o' and 'g' overlap (o at 0x412d230, "
                      "25600 bytes; g at 0x4000000, 1233472 bytes): 'o' is "
                      "written and must not share memory with another "
                      "operand");
  a.o = reinterpret_cast<void *>((uintptr_t(4) << 24) + 1233472);
  EXPECT_EQ(error(p), "");
  // A prep kernel without stride lines takes only dense rows.
  PrefillBinding unstrided;
  unstrided.strided = false;
  KernelInfo pd = parsed(prefillPrepMetadata(unstrided));
  EXPECT_EQ(error(pd), "kernel 'kda_chunk_prep' reads 'q' densely (no stride "
                       "parameter); rebuild it from a template with stride= "
                       "(GMEM {stride=...} q), or pass q_stride = 0");
  a.qStride = a.kStride = a.vStride = a.gStride = 0;
  EXPECT_EQ(error(pd), "");
}

TEST(KdaPrefill, GroupedValueHeads) {
  using kda2::fake::prefillOutMetadata;
  using kda2::fake::prefillPrepMetadata;
  using kda2::fake::prefillScanMetadata;
  KernelInfo p = parsed(prefillPrepMetadata()), s = parsed(prefillScanMetadata()),
             o = parsed(prefillOutMetadata());
  PrefillBinding old;
  old.grouped = false;
  KernelInfo pOld = parsed(prefillPrepMetadata(old));
  // n = 2, 50 tokens (the longest 40), h = 8, operands 16 MiB apart.
  KdaPrefillArgs a;
  const void **in[] = {&a.q, &a.k, &a.v, &a.g, &a.beta, &a.cuSeqlens,
                       &a.stateIndices, &a.hasInitialState};
  for (size_t i = 0; i < 8; ++i)
    *in[i] = reinterpret_cast<void *>(uintptr_t(i + 1) << 24);
  a.pool = reinterpret_cast<void *>(uintptr_t(9) << 24);
  a.o = reinterpret_cast<void *>(uintptr_t(10) << 24);
  a.workspace = reinterpret_cast<void *>(uintptr_t(11) << 24);
  a.workspaceBytes = uint64_t(1) << 24;
  a.n = 2;
  a.totalTokens = 50;
  a.maxSeqlen = 40;
  a.h = 8;
  a.kDim = a.vDim = 128;
  a.slots = 4;
  a.stateLayout = "kv";
  a.gateLowerBound = -5;
  auto error = [&](const KernelInfo &pp) {
    Status st = checkKdaPrefill(pp, s, o, a);
    return st.ok() ? std::string() : st.message();
  };
  // The prep kernel's parameters: q, k, g, beta, cu_seqlens, ckpt_offsets,
  // scale, sq, sk, sg, sb, qd .. gl, kc, ec, then the dimensions tt, hqk,
  // h, ...
  auto prepParams = [&](const KernelInfo &pp, std::vector<uint64_t> &out) {
    KdaPrefillLaunch launch;
    Status st = kdaPrefillLaunchArgs(pp, s, o, a, launch);
    ASSERT_TRUE(st.ok()) << st.message();
    LaunchConfig cfg;
    st = computeLaunchConfig(pp, launch.prep, cfg);
    ASSERT_TRUE(st.ok()) << st.message();
    out = cfg.params;
  };
  std::vector<uint64_t> got;
  for (int64_t hqk : {0, 8, 4, 2, 1}) {
    a.hqk = hqk;
    EXPECT_EQ(error(p), "") << hqk;
    prepParams(p, got);
    ASSERT_EQ(got.size(), 27u);
    const uint64_t bound = hqk ? hqk : 8;
    EXPECT_EQ(got[19], 50u);           // tt
    EXPECT_EQ(got[20], bound) << hqk;  // hqk
    EXPECT_EQ(got[21], 8u) << hqk;     // h
    EXPECT_EQ(got[7], bound * 128);    // sq: dense hqk·K
    EXPECT_EQ(got[8], bound * 128);    // sk
    EXPECT_EQ(got[9], 1024u);          // sg: h·K
    EXPECT_EQ(got[10], 8u);            // sb: h
  }
  // The workspace does not depend on hqk.
  KdaPrefillWorkspace ws1, ws2;
  ASSERT_TRUE(kdaPrefillWorkspace(p, s, o, 2, 50, 8, ws1).ok());
  ASSERT_TRUE(kdaPrefillWorkspace(pOld, s, o, 2, 50, 8, ws2).ok());
  EXPECT_EQ(ws1.bytes, ws2.bytes);
  // h must be a multiple of hqk.
  a.hqk = 3;
  EXPECT_EQ(error(p), "argument 'hqk' is 3: h = 8 must be a multiple of it "
                      "(the q/k heads of grouped value heads; 0: h)");
  a.hqk = 16;
  EXPECT_EQ(error(p), "argument 'hqk' is 16: h = 8 must be a multiple of it "
                      "(the q/k heads of grouped value heads; 0: h)");
  a.hqk = -1;
  EXPECT_EQ(error(p), "argument 'hqk' is -1: h = 8 must be a multiple of it "
                      "(the q/k heads of grouped value heads; 0: h)");
  // q's and k's extents and dense rows follow hqk: with hqk = 2, q spans
  // 50 · 2 · 128 bf16 = 25600 bytes, so o may start right after it.
  a.hqk = 2;
  a.o = reinterpret_cast<void *>((uintptr_t(1) << 24) + 25600);
  EXPECT_EQ(error(p), "");
  a.hqk = 0;
  EXPECT_EQ(error(p), "arguments 'o' and 'q' overlap (o at 0x1006400, "
                      "102400 bytes; q at 0x1000000, 102400 bytes): 'o' is "
                      "written and must not share memory with another "
                      "operand");
  a.o = reinterpret_cast<void *>(uintptr_t(10) << 24);
  a.hqk = 2;
  a.kStride = 128;
  EXPECT_EQ(error(p), "argument 'k_stride' is 128: a row stride is 0 "
                      "(dense) or at least the row size, hqk·K = 256 "
                      "elements");
  a.kStride = 256;
  EXPECT_EQ(error(p), "");
  a.kStride = 0;
  // A prep kernel without the hqk dimension reads q and k with h heads:
  // hqk 0 or h only.
  for (int64_t hqk : {0, 8}) {
    a.hqk = hqk;
    EXPECT_EQ(error(pOld), "") << hqk;
    prepParams(pOld, got);
    ASSERT_EQ(got.size(), 26u);
    EXPECT_EQ(got[7], 1024u); // sq: h·K
    EXPECT_EQ(got[20], 8u); // h
  }
  a.hqk = 2;
  EXPECT_EQ(error(pOld),
            "kernel 'kda_chunk_prep' reads q and k with h heads (no hqk "
            "dimension); rebuild it from templates/kda_chunk_split.tirx for "
            "grouped value heads (hqk = 2 < h = 8), or pass hqk = 0");
  // q and k must agree.
  std::string mixed = prefillPrepMetadata();
  mixed = replaced(mixed, "arg ptr k bf16 in 3 tt hqk 128",
                   "arg ptr k bf16 in 3 tt h 128");
  EXPECT_EQ(prefillKernelsError(mixed, prefillScanMetadata(),
                                prefillOutMetadata()),
            "kernel 'kda_chunk_prep': argument 'q' is [tt, hqk, 128] but "
            "'k' is [tt, h, 128]; q and k must have the same heads (hqk or "
            "h)");
}

//===----------------------------------------------------------------------===//
// Prefill: checkpoints at token offsets (ckpt_offsets, offset_blocks, m and
// the checkpoint kernel kda_chunk_ckpt)
//===----------------------------------------------------------------------===//

TEST(KdaPrefill, KernelsBeforeOffsetCheckpointsAreRefused) {
  // Kernels built before checkpoints at token offsets lack prep's
  // ckpt_offsets, kc and ec and the scan's ckpt_offsets, offset_blocks and
  // boundaries: refused by name with what to rebuild.
  using kda2::fake::prefillOutMetadata;
  using kda2::fake::prefillPrepMetadata;
  using kda2::fake::prefillScanMetadata;
  PrefillBinding old;
  old.offsets = false;
  const std::string rebuild =
      ": a prefill kernel built before checkpoints at token offsets; rebuild "
      "the prefill kernels from templates/kda_chunk_split.tirx (or "
      "templates/kda_chunk_prep_act.tirx) and templates/kda_chunk_h.tirx, "
      "which take ckpt_offsets (checkpoints at token offsets; kda_chunk_ckpt "
      "completes them)";
  EXPECT_EQ(prefillKernelsError(prefillPrepMetadata(old),
                                prefillScanMetadata(old),
                                prefillOutMetadata(old)),
            "kernel 'kda_chunk_prep': has no argument 'ckpt_offsets'" +
                rebuild);
  EXPECT_EQ(prefillKernelsError(prefillPrepMetadata(), prefillScanMetadata(old),
                                prefillOutMetadata()),
            "kernel 'kda_chunk_scan_h': has no argument 'ckpt_offsets'" +
                rebuild);
  const std::string prep = prefillPrepMetadata(), scan = prefillScanMetadata(),
                    out = prefillOutMetadata();
  EXPECT_EQ(prefillKernelsError(
                replaced(prep, "arg ptr ec f32 out 3 h nm 128\n", ""), scan,
                out),
            "kernel 'kda_chunk_prep': has no argument 'ec'" + rebuild);
  EXPECT_EQ(prefillKernelsError(prep,
                                replaced(scan, "arg ptr offset_blocks i32",
                                         "arg ptr offset_block i32"),
                                out),
            "kernel 'kda_chunk_scan_h': has no argument 'offset_blocks'" +
                rebuild);
  EXPECT_EQ(prefillKernelsError(prep,
                                replaced(scan, "arg scalar boundaries i32",
                                         "arg scalar boundaries f32"),
                                out),
            "kernel 'kda_chunk_scan_h': has no integer scalar argument "
            "'boundaries'" +
                rebuild);
  // The call refuses them as the size does.
  KernelInfo p = parsed(prefillPrepMetadata(old)), s = parsed(scan),
             o = parsed(out);
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  EXPECT_EQ(checkKdaPrefill(p, s, o, a).message(),
            "kernel 'kda_chunk_prep': has no argument 'ckpt_offsets'" +
                rebuild);
  // The new arguments of the other bindings.
  EXPECT_EQ(prefillKernelsError(
                replaced(prep, "arg ptr kc bf16 out 4 h nm 32 128",
                         "arg ptr kc bf16 out 4 h nm 32 64"),
                scan, out),
            "kernel 'kda_chunk_prep': argument 'kc' ends in [.., 32, 64], "
            "expected [.., 32, 128] (C = 32, K = 128, V = 128 of "
            "kernel 'kda_chunk_prep')");
  EXPECT_EQ(prefillKernelsError(replaced(prep, "arg ptr kc bf16 out 4 h nm",
                                         "arg ptr kc bf16 out 4 nm h"),
                                scan, out),
            "kernel 'kda_chunk_prep': argument 'kc' is [nm, h, 32, 128], "
            "expected [h, nm, ..] (per head and offset checkpoint, nm = n·m)");
  EXPECT_EQ(prefillKernelsError(prep,
                                replaced(scan, "arg ptr ckpt_offsets i32",
                                         "arg ptr ckpt_offsets i64"),
                                out),
            "kernel 'kda_chunk_scan_h': argument 'ckpt_offsets' is i64, "
            "expected i32");
}

TEST(KdaPrefill, CheckpointKernelKindAndAgreement) {
  // The checkpoint kernel (args.ckptKernel, or given to the overloads) is
  // checked against the other three: kind, C, K, V, types, index type,
  // ckpt inout of the pool's layout and shape.
  const FakePrefillKernels fake;
  const KernelInfo &p = fake.prep, &s = fake.scan, &o = fake.out;
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  a.workspaceBytes = 297984;
  a.ckptOffsets = reinterpret_cast<void *>(uintptr_t(12) << 24);
  a.offsetBlocks = reinterpret_cast<void *>(uintptr_t(13) << 24);
  a.m = 1;
  a.ckpt = reinterpret_cast<void *>(uintptr_t(14) << 24);
  a.blocks = 2;
  auto error = [&](const std::string &ckptMetadata) {
    KernelInfo c = parsed(ckptMetadata);
    Status st = checkKdaPrefill(p, s, o, &c, a);
    return st.ok() ? std::string() : st.message();
  };
  const std::string ckpt = kda2::fake::prefillCkptMetadata();
  EXPECT_EQ(error(ckpt), "");
  EXPECT_EQ(error(kda2::fake::prefillOutMetadata()),
            "argument 'ckpt_kernel': kernel 'kda_chunk_out' is not a KDA "
            "prefill checkpoint kernel (kda_chunk_ckpt) (no argument 'kc')");
  EXPECT_EQ(error(replaced(ckpt, "arg scalar nslots i32\n", "")),
            "argument 'ckpt_kernel': kernel 'kda_chunk_ckpt' is not a KDA "
            "prefill checkpoint kernel (kda_chunk_ckpt) (no integer scalar "
            "argument 'nslots')");
  PrefillBinding c64, f16, i64, vk, bf16, v64;
  c64.c = 64;
  f16.in = "f16";
  i64.ix = "i64";
  vk.layout = "vk";
  bf16.state = "bf16";
  v64.v = 64;
  EXPECT_EQ(error(kda2::fake::prefillCkptMetadata(c64)),
            "kernel 'kda_chunk_ckpt': argument 'kc' ends in [.., 64, 128], "
            "expected [.., 32, 128] (C = 32, K = 128, V = 128 of "
            "kernel 'kda_chunk_prep')");
  EXPECT_EQ(error(kda2::fake::prefillCkptMetadata(f16)),
            "kernel 'kda_chunk_ckpt': argument 'kc' is f16, expected bf16 (the "
            "input type of kernel 'kda_chunk_prep')");
  EXPECT_EQ(error(kda2::fake::prefillCkptMetadata(v64)),
            "kernel 'kda_chunk_ckpt': argument 'us' ends in [.., 64, 32], "
            "expected [.., 128, 32] (C = 32, K = 128, V = 128 of "
            "kernel 'kda_chunk_prep')");
  EXPECT_EQ(error(kda2::fake::prefillCkptMetadata(i64)),
            "kernel 'kda_chunk_ckpt': argument 'cu_seqlens' is i64, expected "
            "i32");
  EXPECT_EQ(error(kda2::fake::prefillCkptMetadata(bf16)),
            "kernel 'kda_chunk_ckpt': argument 'ckpt' is bf16, expected f32");
  EXPECT_EQ(error(kda2::fake::prefillCkptMetadata(vk)),
            "kernel 'kda_chunk_ckpt': declares state 'ckpt' vk but kernel "
            "'kda_chunk_scan_h' declares 'pool' kv; the prefill entry point "
            "takes one layout for the pool and its checkpoints");
  EXPECT_EQ(error(replaced(ckpt, "arg ptr ec f32", "arg ptr ec bf16")),
            "kernel 'kda_chunk_ckpt': argument 'ec' is bf16, expected f32");
  EXPECT_EQ(error(replaced(ckpt, "arg ptr ec f32 in 3 h nm",
                           "arg ptr ec f32 in 3 h ns")),
            "kernel 'kda_chunk_ckpt': argument 'ec' is [h, ns, 128], expected "
            "[h, nm, ..] (per head and offset checkpoint, nm = n·m)");
  EXPECT_EQ(error(replaced(ckpt, "arg ptr us bf16 in 4 h ns",
                           "arg ptr us bf16 in 4 h nm")),
            "kernel 'kda_chunk_ckpt': argument 'us' is [h, nm, 128, 32], "
            "expected [h, ns, ..] (per head and chunk slot)");
  EXPECT_EQ(error(replaced(ckpt, "arg ptr offset_blocks i32",
                           "arg ptr offset_blocks i64")),
            "kernel 'kda_chunk_ckpt': argument 'offset_blocks' is i64, "
            "expected i32");
  EXPECT_EQ(error(replaced(ckpt, "arg ptr ckpt f32 inout", "arg ptr ckpt "
                                                           "f32 out")),
            "kernel 'kda_chunk_ckpt': argument 'ckpt' is declared 'out'; the "
            "checkpoint kernel completes the scan's states in place (inout)");
  EXPECT_EQ(error(replaced(ckpt, "inout 4 blocks h 128 128",
                           "inout 4 blocks h 128 64")),
            "kernel 'kda_chunk_ckpt': argument 'ckpt' is [blocks, h, 128, 64] "
            "but kernel 'kda_chunk_scan_h' has 'pool' [slots, h, 128, 128]; "
            "checkpoints are states of the pool's shape");
  // Metadata errors come before the values' (here: no ckpt_offsets).
  a.ckptOffsets = a.offsetBlocks = nullptr;
  a.m = 0;
  EXPECT_EQ(error(kda2::fake::prefillOutMetadata()).rfind(
                "argument 'ckpt_kernel': kernel 'kda_chunk_out' is not", 0),
            0u);
}

TEST(KdaPrefill, OffsetCheckpointArgumentsAreChecked) {
  const FakePrefillKernels fake;
  const KernelInfo &p = fake.prep, &s = fake.scan, &o = fake.out,
                   &c = fake.ckpt;
  // n = 2, 80 tokens, h = 1, operands 16 MiB apart; one offset per
  // sequence (m = 1): a workspace of 297984 bytes.
  KdaPrefillArgs base = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  base.workspaceBytes = 297984;
  KdaPrefillArgs a = base;
  a.ckptOffsets = reinterpret_cast<void *>(uintptr_t(12) << 24);
  a.offsetBlocks = reinterpret_cast<void *>(uintptr_t(13) << 24);
  a.m = 1;
  a.ckpt = reinterpret_cast<void *>(uintptr_t(14) << 24);
  a.blocks = 2;
  const KdaPrefillArgs good = a;
  auto error = [&](const KernelInfo *ck) {
    Status st = checkKdaPrefill(p, s, o, ck, a);
    return st.ok() ? std::string() : st.message();
  };
  EXPECT_EQ(error(&c), "");
  struct Case {
    const char *what;
    void (*change)(KdaPrefillArgs &);
    const char *message;
    bool withCkptKernel = true;
  };
  const Case cases[] = {
      {"m < 0", [](KdaPrefillArgs &x) { x.m = -1; },
       "m must be >= 0 (the offset checkpoints per sequence, the columns of "
       "ckpt_offsets; 0: none), got -1"},
      {"m 0 with tables", [](KdaPrefillArgs &x) { x.m = 0; },
       "argument 'm' is 0 but 'ckpt_offsets' is not NULL: m is the columns "
       "of ckpt_offsets and offset_blocks [n, m] (>= 1 with them)"},
      {"m with NULL tables",
       [](KdaPrefillArgs &x) { x.ckptOffsets = x.offsetBlocks = nullptr; },
       "argument 'm' is 1 but 'ckpt_offsets' is NULL: m is the columns of "
       "ckpt_offsets and offset_blocks, 0 without them"},
      {"offset_blocks NULL",
       [](KdaPrefillArgs &x) { x.offsetBlocks = nullptr; },
       "argument 'offset_blocks' is NULL but 'ckpt_offsets' is not: pass "
       "both (checkpoints at token offsets) or neither"},
      {"ckpt_offsets NULL", [](KdaPrefillArgs &x) { x.ckptOffsets = nullptr; },
       "argument 'ckpt_offsets' is NULL but 'offset_blocks' is not: pass "
       "both (checkpoints at token offsets) or neither"},
      {"no checkpoint kernel", [](KdaPrefillArgs &) {},
       "argument 'ckpt_kernel' is NULL but 'ckpt_offsets' is not: "
       "checkpoints at token offsets need kda_chunk_ckpt (the module of the "
       "scan kernel, templates/kda_chunk_h.tirx)",
       false},
      {"checkpoint kernel without offsets",
       [](KdaPrefillArgs &x) {
         x.ckptOffsets = x.offsetBlocks = nullptr;
         x.m = 0;
       },
       "argument 'ckpt_kernel' is given but 'ckpt_offsets' is NULL: the "
       "checkpoint kernel runs only for checkpoints at token offsets; pass "
       "NULL without them"},
      {"ckpt NULL", [](KdaPrefillArgs &x) { x.ckpt = nullptr; },
       "argument 'ckpt' is NULL but 'ckpt_offsets' is not: checkpoints at "
       "token offsets are written to ckpt"},
      {"blocks 0", [](KdaPrefillArgs &x) { x.blocks = 0; },
       "blocks must be positive (the states ckpt holds), got 0"},
      {"ckpt without any table",
       [](KdaPrefillArgs &x) {
         x.ckptOffsets = x.offsetBlocks = nullptr;
         x.m = 0;
       },
       "argument 'ckpt' is not NULL but 'checkpoint_blocks' and "
       "'ckpt_offsets' are: ckpt receives checkpoints; pass a table of them, "
       "or ckpt NULL",
       false},
      {"misaligned ckpt_offsets",
       [](KdaPrefillArgs &x) {
         x.ckptOffsets = static_cast<const char *>(x.ckptOffsets) + 2;
       },
       "argument 'ckpt_offsets' is not 4-byte aligned (int32 elements)"},
      {"misaligned offset_blocks",
       [](KdaPrefillArgs &x) {
         x.offsetBlocks = static_cast<const char *>(x.offsetBlocks) + 1;
       },
       "argument 'offset_blocks' is not 4-byte aligned (int32 elements)"},
      {"workspace for m = 0",
       [](KdaPrefillArgs &x) { x.workspaceBytes = 280576; },
       "workspace_bytes = 280576 is too small: n = 2, total_tokens = 80 and "
       "m = 1 with h = 1 need 297984 bytes "
       "(kda2rt_kda_prefill_workspace_size_offsets with m_max >= m)"},
      {"one byte less", [](KdaPrefillArgs &x) { x.workspaceBytes = 297983; },
       "workspace_bytes = 297983 is too small: n = 2, total_tokens = 80 and "
       "m = 1 with h = 1 need 297984 bytes "
       "(kda2rt_kda_prefill_workspace_size_offsets with m_max >= m)"},
      {"n·m past 2^31 - 1",
       [](KdaPrefillArgs &x) { x.m = int64_t(1) << 30; },
       "n = 2 and m = 1073741824 make n·m = 2147483648 offset checkpoints, "
       "more than 2^31 - 1 (the grid.x of kda_chunk_ckpt, one program per "
       "(sequence, offset))"},
      // The tables [n, m] int32 = 8 bytes each: inputs, which pool, o, the
      // workspace and ckpt must not overlap.
      {"ckpt_offsets in the pool",
       [](KdaPrefillArgs &x) {
         x.ckptOffsets = static_cast<const char *>(x.pool) + 64;
       },
       "arguments 'pool' and 'ckpt_offsets' overlap (pool at 0x9000000, "
       "262144 bytes; ckpt_offsets at 0x9000040, 8 bytes): 'pool' is "
       "updated in place and must not share memory with another operand"},
      {"offset_blocks ending in o",
       [](KdaPrefillArgs &x) {
         x.offsetBlocks = static_cast<const char *>(x.o) - 4;
       },
       "arguments 'o' and 'offset_blocks' overlap (o at 0xa000000, 20480 "
       "bytes; offset_blocks at 0x9fffffc, 8 bytes): 'o' is written and must "
       "not share memory with another operand"},
      {"offset_blocks in the workspace's kc",
       [](KdaPrefillArgs &x) {
         x.offsetBlocks = static_cast<const char *>(x.workspace) + 280576;
       },
       "arguments 'workspace' and 'offset_blocks' overlap (workspace at "
       "0xb000000, 297984 bytes; offset_blocks at 0xb044800, 8 bytes): "
       "'workspace' is written and must not share memory with another "
       "operand"},
      {"ckpt over ckpt_offsets",
       [](KdaPrefillArgs &x) {
         x.ckpt = static_cast<char *>(const_cast<void *>(x.ckptOffsets)) -
                  131072 + 16;
       },
       "arguments 'ckpt' and 'ckpt_offsets' overlap (ckpt at 0xbfe0010, "
       "131072 bytes; ckpt_offsets at 0xc000000, 8 bytes): 'ckpt' is written "
       "and must not share memory with another operand"},
  };
  for (const Case &cs : cases) {
    a = good;
    cs.change(a);
    EXPECT_EQ(error(cs.withCkptKernel ? &c : nullptr), cs.message) << cs.what;
  }
  // Just outside: the tables end where o starts, start where the pool
  // ends; the two tables may share memory (inputs), with each other and
  // with state_indices.
  a = good;
  a.offsetBlocks = static_cast<const char *>(a.o) - 8;
  a.ckptOffsets = static_cast<const char *>(a.pool) + 262144;
  EXPECT_EQ(error(&c), "");
  a.offsetBlocks = a.ckptOffsets = a.stateIndices;
  EXPECT_EQ(error(&c), "");
  // int64 tables: 8-byte elements, 16 bytes each.
  const FakePrefillKernels fake64([] {
    PrefillBinding b;
    b.ix = "i64";
    return b;
  }());
  a = good;
  a.indexDtype = "i64";
  a.ckptOffsets = static_cast<const char *>(a.ckptOffsets) + 4;
  Status st =
      checkKdaPrefill(fake64.prep, fake64.scan, fake64.out, &fake64.ckpt, a);
  EXPECT_EQ(st.message(),
            "argument 'ckpt_offsets' is not 8-byte aligned (int64 elements)");
  a.ckptOffsets = static_cast<const char *>(a.pool) - 16;
  st = checkKdaPrefill(fake64.prep, fake64.scan, fake64.out, &fake64.ckpt, a);
  EXPECT_TRUE(st.ok()) << st.message();
  a.ckptOffsets = static_cast<const char *>(a.pool) - 8;
  st = checkKdaPrefill(fake64.prep, fake64.scan, fake64.out, &fake64.ckpt, a);
  EXPECT_EQ(st.message().rfind("arguments 'pool' and 'ckpt_offsets' overlap "
                               "(pool at 0x9000000, 262144 bytes; "
                               "ckpt_offsets at 0x8fffff8, 16 bytes)",
                               0),
            0u)
      << st.message();
}

TEST(KdaPrefill, OffsetCheckpointsReachTheKernels) {
  // The four launches' values, by the three table cases: offsets only,
  // offsets and boundary checkpoints, and neither (as before).
  const FakePrefillKernels fake;
  const KernelInfo &p = fake.prep, &s = fake.scan, &o = fake.out,
                   &c = fake.ckpt;
  const uint64_t M = uint64_t(1) << 24;
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, M);
  a.workspaceBytes = 3 * 297984;
  a.ckptOffsets = reinterpret_cast<void *>(uintptr_t(12) << 24);
  a.offsetBlocks = reinterpret_cast<void *>(uintptr_t(13) << 24);
  a.m = 3;
  a.ckpt = reinterpret_cast<void *>(uintptr_t(14) << 24);
  a.blocks = 5;
  const uint64_t ws = 11 * M;
  // n = 2, 80 tokens, m = 3 (nm = 6): kc [1, 6, 32, 128] bf16 at 280576,
  // ec [1, 6, 128] f32 at 280576 + 49152.
  const uint64_t us = ws + 247808, kc = ws + 280576, ec = kc + 49152;
  for (int tables = 0; tables < 3; ++tables) {
    KdaPrefillArgs x = a;
    const bool boundaries = tables == 1, offsets = tables < 2;
    if (boundaries)
      x.checkpointBlocks = reinterpret_cast<void *>(uintptr_t(15) << 24);
    if (!offsets) {
      x.ckptOffsets = x.offsetBlocks = x.ckpt = nullptr;
      x.m = 0;
      x.blocks = 0;
    }
    KdaPrefillLaunch launch;
    Status st =
        kdaPrefillLaunchArgs(p, s, o, offsets ? &c : nullptr, x, launch);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(launch.withCkpt, offsets) << tables;
    LaunchConfig cp, cs, cc, co;
    ASSERT_TRUE(computeLaunchConfig(p, launch.prep, cp).ok());
    ASSERT_TRUE(computeLaunchConfig(s, launch.scan, cs).ok());
    ASSERT_TRUE(computeLaunchConfig(o, launch.out, co).ok());
    // prep: ckpt_offsets (5; state_indices without), kc (17), ec (18),
    // then tt hqk h np1 n m ns nm (19..26).
    ASSERT_EQ(cp.params.size(), 27u);
    EXPECT_EQ(cp.params[5], offsets ? 12 * M : 7 * M) << tables;
    EXPECT_EQ(cp.params[17], kc) << tables;
    EXPECT_EQ(cp.params[18], offsets ? ec : kc) << tables; // 0 bytes
    EXPECT_EQ(cp.params[23], 2u);                          // n
    EXPECT_EQ(cp.params[24], offsets ? 3u : 0u) << tables; // m
    EXPECT_EQ(cp.params[26], offsets ? 6u : 0u) << tables; // nm
    // scan: table (8), ckpt_offsets, offset_blocks (9, 10), boundaries
    // (11), sv (12), ckpt (16), nc (22), m (23), blocks (25).
    ASSERT_EQ(cs.params.size(), 31u);
    EXPECT_EQ(cs.params[8], boundaries ? 15 * M : 7 * M) << tables;
    EXPECT_EQ(cs.params[9], offsets ? 12 * M : 7 * M) << tables;
    EXPECT_EQ(cs.params[10], offsets ? 13 * M : 7 * M) << tables;
    EXPECT_EQ(cs.params[11] & 0xFFFFFFFF, boundaries ? 1u : 0u) << tables;
    EXPECT_EQ(cs.params[16], offsets ? 14 * M : 9 * M) << tables;
    EXPECT_EQ(cs.params[22], boundaries ? 2u : 1u) << tables;
    EXPECT_EQ(cs.params[23], offsets ? 3u : 0u) << tables;
    EXPECT_EQ(cs.params[25], offsets ? 5u : 0u) << tables;
    if (!offsets)
      continue;
    // The checkpoint kernel: grid (nm, h); kc ec us cu_seqlens
    // state_indices ckpt_offsets offset_blocks nslots ckpt, then h nm ns
    // np1 n m blocks, then the tensor maps of kc, ec and us.
    ASSERT_TRUE(computeLaunchConfig(c, launch.ckpt, cc).ok());
    EXPECT_EQ(cc.grid[0], 6u);
    EXPECT_EQ(cc.grid[1], 1u);
    const uint64_t want[] = {kc,     ec,     us,     6 * M, 7 * M, 12 * M,
                             13 * M, 4,      14 * M, 1,     6,     4,
                             3,      2,      3,      5};
    ASSERT_EQ(cc.params.size(), std::size(want) + 3);
    for (size_t i = 0; i < std::size(want); ++i)
      EXPECT_EQ(cc.params[i] & (i == 7 ? 0xFFFFFFFFu : ~uint64_t(0)), want[i])
          << "ckpt parameter " << i << ", case " << tables;
    ASSERT_EQ(cc.tensorMaps.size(), 3u);
    EXPECT_EQ(cc.tensorMaps[0].address, kc);
    EXPECT_EQ(cc.tensorMaps[1].address, ec);
    EXPECT_EQ(cc.tensorMaps[2].address, us);
  }
  // Grid limits: h <= 65535 (prep first), n·m <= 2^31 - 1 (the values).
  KdaPrefillArgs big = a;
  big.m = INT32_MAX;
  big.workspaceBytes = UINT64_MAX;
  EXPECT_EQ(checkKdaPrefill(p, s, o, &c, big).message(),
            "n = 2 and m = 2147483647 make n·m = 4294967294 offset "
            "checkpoints, more than 2^31 - 1 (the grid.x of kda_chunk_ckpt, "
            "one program per (sequence, offset))");
}

//===----------------------------------------------------------------------===//
// Prefill with the fused-output scan (kda_chunk_scan_o: no hs, no
// kda_chunk_out)
//===----------------------------------------------------------------------===//

namespace {
/// The message of kdaPrefillWorkspace on the default prep kernel, `scan`
/// and `out` (empty: none, as a fused-output scan takes) for one sequence
/// of one token and one head; empty on success.
std::string fusedKernelsError(const std::string &scan,
                              const std::string &out = "") {
  const KernelInfo p = parsed(kda2::fake::prefillPrepMetadata()),
                   s = parsed(scan);
  const KernelInfo o = out.empty() ? KernelInfo() : parsed(out);
  KdaPrefillWorkspace ws;
  Status st =
      kdaPrefillWorkspace(p, s, out.empty() ? nullptr : &o, 1, 1, 1, 0, ws);
  return st.ok() ? "" : st.message();
}
} // namespace

TEST(KdaPrefillFused, FakeHelperIsTheRealKernelsMetadata) {
  // templates/kda_chunk_h.tirx at the serving binding (VB=16, NVB=8), as
  // KdaPrefill.FakeHelpersAreTheRealKernelsMetadata.
  PrefillBinding served;
  served.vb = 16;
  const std::string real = realKernelMetadata("chunk_h", "kda_chunk_scan_o");
  ASSERT_FALSE(real.empty()) << "no kda_chunk_scan_o in chunk_h.meta";
  EXPECT_EQ(kda2::fake::prefillScanOMetadata(served), real);
  // The runtime takes it with the real prep and checkpoint kernels, and no
  // output kernel; the workspace holds no hs (280576 - 131072 bytes).
  const KernelInfo p = realServingPrep(),
                   s = parsed(real),
                   c = parsed(realKernelMetadata("chunk_h", "kda_chunk_ckpt"));
  EXPECT_TRUE(isKdaPrefillFusedScan(s));
  KdaPrefillWorkspace ws;
  Status st = kdaPrefillWorkspace(p, s, nullptr, 2, 80, 1, 0, ws);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(ws.bytes, 149504u);
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  a.workspaceBytes = 166912; // m = 1: kc 16384 and ec 1024 bytes more
  a.ckptOffsets = reinterpret_cast<void *>(uintptr_t(12) << 24);
  a.offsetBlocks = reinterpret_cast<void *>(uintptr_t(13) << 24);
  a.m = 1;
  a.ckpt = reinterpret_cast<void *>(uintptr_t(14) << 24);
  a.blocks = 2;
  st = checkKdaPrefill(p, s, nullptr, &c, a);
  EXPECT_TRUE(st.ok()) << st.message();
  a.workspaceBytes = 166911;
  EXPECT_EQ(checkKdaPrefill(p, s, nullptr, &c, a).message(),
            "workspace_bytes = 166911 is too small: n = 2, total_tokens = 80 "
            "and m = 1 with h = 1 need 166912 bytes "
            "(kda2rt_kda_prefill_workspace_size_offsets with m_max >= m)");
}

TEST(KdaPrefillFused, KeySplitScanIsAFusedScan) {
  // kda_chunk_scan_ok (the keys of each chain over two warps, the
  // template's default) has kda_chunk_scan_o's arguments and grid; only its
  // block differs (two computing warps and the producer), and its OKB, OS and OW bindings (the
  // blocks per SM promised to ptxas, its TMA stages, its computing warps, whether it waits for the prep as its programmatic dependent). The runtime takes it as the fused
  // scan and launches it with the block its metadata states.
  PrefillBinding served;
  served.vb = 16;
  const std::string real = realKernelMetadata("chunk_h", "kda_chunk_scan_ok");
  ASSERT_FALSE(real.empty()) << "no kda_chunk_scan_ok in chunk_h.meta";
  EXPECT_EQ(replaced(replaced(kda2::fake::prefillScanOMetadata(
                                  served, "kda_chunk_scan_ok"),
                              "block 64 1 1", "block 96 1 1"),
                     "bind NVB 8\n", "bind NVB 8\nbind OKB 2\nbind OS 2\nbind OW 2\nbind PDL 0\n"),
            real);
  const KernelInfo p = realServingPrep(),
                   s = parsed(real);
  EXPECT_TRUE(isKdaPrefillFusedScan(s));
  KdaPrefillWorkspace ws;
  Status st = kdaPrefillWorkspace(p, s, nullptr, 2, 80, 1, 0, ws);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(ws.bytes, 149504u); // as kda_chunk_scan_o's
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  a.workspaceBytes = ws.bytes;
  KdaPrefillLaunch launch;
  st = kdaPrefillLaunchArgs(p, s, nullptr, nullptr, a, launch);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_FALSE(launch.withOut);
  LaunchConfig cfg;
  st = computeLaunchConfig(s, launch.scan, cfg);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(cfg.block[0], 96u);
  EXPECT_EQ(cfg.grid[0], 8u); // NVB = V / VB
  EXPECT_EQ(cfg.grid[1], 2u); // n·h
}

TEST(KdaPrefill, KeySplitStateScanIsAStateScan) {
  // kda_chunk_scan_hk: kda_chunk_scan_h's arguments and grid, block 160
  // and its tiles in 40 KB of dynamic shared memory (with the 16 KB of its
  // reductions' scratch they pass the 48 KB of static shared memory); a
  // state scan that needs kda_chunk_out, launched with its own block.
  PrefillBinding served;
  served.vb = 16;
  const std::string real = realKernelMetadata("chunk_h", "kda_chunk_scan_hk");
  ASSERT_FALSE(real.empty()) << "no kda_chunk_scan_hk in chunk_h.meta";
  // (Its binding HKB, blocks per SM, 0 by default, sorts after C.)
  EXPECT_EQ(replaced(replaced(replaced(kda2::fake::prefillScanMetadata(served),
                                       "name kda_chunk_scan_h\n",
                                       "name kda_chunk_scan_hk\n"),
                              "block 64 1 1\ngrid.x 8\ngrid.y n h\nsmem 0\n",
                              "block 160 1 1\ngrid.x 8\ngrid.y n h\nsmem 40960\n"),
                     "bind C 32\n", "bind C 32\nbind HKB 0\n"),
            real);
  const KernelInfo p = realServingPrep(),
                   s = parsed(real),
                   o = parsed(realKernelMetadata("chunk_h", "kda_chunk_out"));
  EXPECT_FALSE(isKdaPrefillFusedScan(s));
  KdaPrefillWorkspace ws;
  Status st = kdaPrefillWorkspace(p, s, o, 2, 80, 1, ws);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(ws.bytes, 280576u); // as kda_chunk_scan_h's
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  a.workspaceBytes = ws.bytes;
  LaunchConfig cfg[3];
  ASSERT_EQ(prefillLaunch(p, s, o, a, cfg), "");
  EXPECT_EQ(cfg[1].block[0], 160u);
  EXPECT_EQ(cfg[1].grid[0], 8u);
  EXPECT_EQ(cfg[1].sharedBytes, 40960u);
}

/// The workspace of prep `p` and fused scan `s` for 2 sequences of 80
/// tokens, against the bf16 pair's (`p16`, `s16`): the buffers in `doubled`
/// take twice the bytes (f32 instead of bf16), the others the same.
/// The prep and split-key scan of the real kernels `split` / `h` (built with
/// other intermediate types) beside the bf16 serving pair (p16, s16): their
/// workspace's per-chunk buffers hold twice the bf16 bytes for `doubled`, the
/// same for the others, and a call sized by it passes the checks.
struct TypedPrefill {
  KernelInfo p, s, p16, s16;
  KdaPrefillWorkspace ws;
};
static void expectTypedPrefill(
    const char *split, const char *h,
    std::initializer_list<KdaPrefillWorkspace::Buffer> doubled,
    TypedPrefill &t) {
  using B = KdaPrefillWorkspace;
  t.p = parsed(realKernelMetadata(split, "kda_chunk_prep"));
  t.s = parsed(realKernelMetadata(h, "kda_chunk_scan_ok"));
  t.p16 = realServingPrep();
  t.s16 = parsed(realKernelMetadata("chunk_h", "kda_chunk_scan_ok"));
  ASSERT_FALSE(t.p.name.empty()) << "no kda_chunk_prep in " << split << ".meta";
  ASSERT_FALSE(t.s.name.empty()) << "no kda_chunk_scan_ok in " << h << ".meta";
  KdaPrefillWorkspace ws16;
  Status st = kdaPrefillWorkspace(t.p, t.s, nullptr, 2, 80, 1, 0, t.ws);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(
      kdaPrefillWorkspace(t.p16, t.s16, nullptr, 2, 80, 1, 0, ws16).ok());
  for (B::Buffer b : {B::QD, B::KL, B::WN, B::TP, B::PB, B::GL, B::US})
    EXPECT_EQ(t.ws.size[b],
              (std::find(doubled.begin(), doubled.end(), b) != doubled.end()
                   ? 2
                   : 1) *
                  ws16.size[b])
        << kdaPrefillBufferName(b);
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  a.workspaceBytes = t.ws.bytes;
  st = checkKdaPrefill(t.p, t.s, nullptr, nullptr, a);
  EXPECT_TRUE(st.ok()) << st.message();
}

/// Why the prep `p` and fused scan `s` make no workspace ("" if they do).
static std::string workspaceRefusal(const KernelInfo &p, const KernelInfo &s) {
  KdaPrefillWorkspace none;
  return kdaPrefillWorkspace(p, s, nullptr, 2, 80, 1, 0, none).message();
}

/// workspaceRefusal with the prep of real kernel `split`, its metadata line
/// `from` changed to `to`.
static std::string workspaceRefusal(const char *split, const char *from,
                                    const char *to, const KernelInfo &s) {
  return workspaceRefusal(
      parsed(replaced(realKernelMetadata(split, "kda_chunk_prep"), from, to)),
      s);
}

TEST(KdaPrefillFused, TF32Intermediates) {
  // The templates bound with TP=f32 (and the prep's AP=f32): tp, pb and us
  // are f32, twice the bytes of the bf16 ones in the workspace; the scan and
  // output kernels must agree with the prep on them.
  using B = KdaPrefillWorkspace;
  TypedPrefill t;
  expectTypedPrefill("chunk_split_tf32", "chunk_h_tf32", {B::TP, B::PB, B::US},
                     t);
  if (HasFatalFailure())
    return;
  const KernelInfo &p = t.p, &s = t.s, &pb16 = t.p16, &s16 = t.s16;
  // A bf16 scan after the f32 prep, and the other way round.
  EXPECT_EQ(workspaceRefusal(p, s16),
            "kernel 'kda_chunk_scan_ok': argument 'tp' is bf16, expected f32 "
            "(the type of kernel 'kda_chunk_prep''s tp and us: TP)");
  EXPECT_EQ(workspaceRefusal(pb16, s),
            "kernel 'kda_chunk_scan_ok': argument 'tp' is f32, expected bf16 "
            "(the input type of kernel 'kda_chunk_prep')");
}

// PB=f32 with TP the input type (and the prep's AP=f32, AK=bf16): pb alone
// in f32 (twice the bytes of its bf16 buffer), tp and us in bf16; the fused
// scan must agree with the prep on pb's type, and the error names PB.
TEST(KdaPrefillFused, PbIntermediatesOfTheirOwnType) {
  using B = KdaPrefillWorkspace;
  TypedPrefill t;
  expectTypedPrefill("chunk_split_pb32", "chunk_h_pb32", {B::PB}, t);
  if (HasFatalFailure())
    return;
  const KernelInfo &p = t.p, &s = t.s, &pb16 = t.p16, &s16 = t.s16;
  const KernelInfo o = parsed(realKernelMetadata("chunk_h_pb32",
                                                 "kda_chunk_out")),
                   h = parsed(realKernelMetadata("chunk_h_pb32",
                                                 "kda_chunk_scan_h"));
  ASSERT_EQ(p.findArg("pb")->dtype, DType::F32);
  ASSERT_EQ(p.findArg("tp")->dtype, DType::BF16);
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  // The three-kernel path: its output kernel reads pb too.
  KdaPrefillWorkspace ws3;
  Status st = kdaPrefillWorkspace(p, h, &o, 2, 80, 1, 0, ws3);
  ASSERT_TRUE(st.ok()) << st.message();
  a.workspaceBytes = ws3.bytes;
  EXPECT_TRUE(checkKdaPrefill(p, h, &o, nullptr, a).ok());
  // A bf16-pb scan after the f32-pb prep, and the other way round.
  EXPECT_EQ(workspaceRefusal(p, s16),
            "kernel 'kda_chunk_scan_ok': argument 'pb' is bf16, expected f32 "
            "(the type of kernel 'kda_chunk_prep''s pb: PB)");
  EXPECT_EQ(workspaceRefusal(pb16, s),
            "kernel 'kda_chunk_scan_ok': argument 'pb' is f32, expected bf16 "
            "(the input type of kernel 'kda_chunk_prep')");
  // A prep whose pb is neither a 16-bit type nor f32.
  EXPECT_EQ(workspaceRefusal("chunk_split_pb32", "arg ptr pb f32",
                             "arg ptr pb i32", s),
            "kernel 'kda_chunk_prep': argument 'pb' is i32, expected bf16 or "
            "f16 (the 16-bit intermediates) or f32 (the TF32 ones)");
}

// TP=f16 with KL=f16 and bf16 inputs (templates/kda_chunk_split.tirx: tp, pb,
// us and kl in f16, the 16-bit types' bytes): the workspace of the bf16
// kernels; the scan must agree with the prep on kl's type as on tp's, and kl
// takes no f32.
TEST(KdaPrefillFused, F16Intermediates) {
  TypedPrefill t;
  expectTypedPrefill("chunk_split_f16", "chunk_h_f16", {}, t);
  if (HasFatalFailure())
    return;
  const KernelInfo &p = t.p, &s = t.s, &s16 = t.s16;
  for (const char *name : {"tp", "pb", "kl"})
    EXPECT_EQ(p.findArg(name)->dtype, DType::F16) << name;
  EXPECT_EQ(p.findArg("qd")->dtype, DType::BF16);
  EXPECT_EQ(s.findArg("us")->dtype, DType::F16);
  // A bf16 scan after the f16 prep: kl is the first to disagree.
  EXPECT_EQ(workspaceRefusal(p, s16),
            "kernel 'kda_chunk_scan_ok': argument 'kl' is bf16, expected f16 "
            "(the type of kernel 'kda_chunk_prep''s kl: KL)");
  EXPECT_EQ(workspaceRefusal("chunk_split_f16", "arg ptr kl f16",
                             "arg ptr kl f32", s),
            "kernel 'kda_chunk_prep': argument 'kl' is f32, expected bf16 or "
            "f16");
}

// RDY=1 (templates/kda_chunk_split.tirx, kda_chunk_h.tirx): the prep sets a
// ready flag per chunk slot, the fused scans wait for them and run as the
// prep's programmatic dependents. The flags take [h, ns] i32 at the end of
// the workspace, both kernels get their address, and each call clears them
// before the prep; prep and scan must agree on having them.
TEST(KdaPrefillFused, ReadyFlags) {
  using B = KdaPrefillWorkspace;
  const KernelInfo p = parsed(realKernelMetadata("chunk_split_rdy",
                                                 "kda_chunk_prep")),
                   s = parsed(realKernelMetadata("chunk_h_rdy",
                                                 "kda_chunk_scan_ok")),
                   so = parsed(realKernelMetadata("chunk_h_rdy",
                                                  "kda_chunk_scan_o")),
                   p0 = realServingPrep(),
                   s0 = parsed(realKernelMetadata("chunk_h",
                                                  "kda_chunk_scan_ok"));
  ASSERT_FALSE(p.name.empty() || s.name.empty() || so.name.empty());
  // The scans wait for the flags and launch early; the prep does neither.
  EXPECT_TRUE(s.programmatic);
  EXPECT_TRUE(so.programmatic);
  EXPECT_FALSE(p.programmatic);
  EXPECT_FALSE(s0.programmatic);
  EXPECT_EQ(p.binding("RDY"), std::optional<int64_t>(1));
  EXPECT_EQ(s0.binding("RDY"), std::nullopt);
  // n = 2, total_tokens = 80: ns = 4 slots, h = 1: 16 bytes of flags after
  // the same buffers as without them.
  KdaPrefillWorkspace ws, ws0;
  Status st = kdaPrefillWorkspace(p, s, nullptr, 2, 80, 1, 0, ws);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_TRUE(kdaPrefillWorkspace(p0, s0, nullptr, 2, 80, 1, 0, ws0).ok());
  for (int b = 0; b < B::READY; ++b) {
    EXPECT_EQ(ws.offset[b], ws0.offset[b]) << b;
    EXPECT_EQ(ws.size[b], ws0.size[b]) << b;
  }
  EXPECT_EQ(ws0.size[B::READY], 0u);
  EXPECT_EQ(ws.size[B::READY], 16u);
  EXPECT_EQ(ws.offset[B::READY], ws0.bytes);
  EXPECT_GT(ws.bytes, ws0.bytes);
  EXPECT_STREQ(kdaPrefillBufferName(B::READY), "ready");
  // The launches: both kernels get the flags' address; the call clears
  // ns·h words there first.
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  a.workspaceBytes = ws.bytes;
  for (const KernelInfo *scan : {&s, &so}) {
    KdaPrefillLaunch launch;
    st = kdaPrefillLaunchArgs(p, *scan, nullptr, nullptr, a, launch);
    ASSERT_TRUE(st.ok()) << st.message();
    const CUdeviceptr flags =
        reinterpret_cast<CUdeviceptr>(a.workspace) + ws.offset[B::READY];
    EXPECT_EQ(launch.ready, flags);
    EXPECT_EQ(launch.readyWords, 4u);
    for (const LaunchArgs *args : {&launch.prep, &launch.scan}) {
      auto it = std::find_if(args->pointers().begin(), args->pointers().end(),
                             [](const LaunchArgs::Pointer &ptr) {
                               return ptr.name == "ready";
                             });
      ASSERT_NE(it, args->pointers().end());
      EXPECT_EQ(it->value, flags);
    }
  }
  // Without flags: none to clear, no `ready` pointer.
  KdaPrefillLaunch plain;
  a.workspaceBytes = ws0.bytes;
  ASSERT_TRUE(kdaPrefillLaunchArgs(p0, s0, nullptr, nullptr, a, plain).ok());
  EXPECT_EQ(plain.readyWords, 0u);
  for (const LaunchArgs::Pointer &ptr : plain.prep.pointers())
    EXPECT_NE(ptr.name, "ready");
  // One of the two built with RDY=1: refused, both ways.
  EXPECT_EQ(workspaceRefusal(p, s0),
            "kernel 'kda_chunk_prep': sets ready flags per chunk slot (built "
            "with RDY=1) but the scan 'kda_chunk_scan_ok' does not wait for "
            "them; build the prep and the scan both with RDY=1 or both "
            "without");
  EXPECT_EQ(workspaceRefusal(p0, s),
            "kernel 'kda_chunk_scan_ok': waits for ready flags per chunk slot "
            "(built with RDY=1) but the prep 'kda_chunk_prep' does not set "
            "them; build the prep and the scan both with RDY=1 or both "
            "without");
  // Flags of another shape or type.
  EXPECT_EQ(workspaceRefusal("chunk_split_rdy", "arg ptr ready i32 out 2 h ns",
                             "arg ptr ready i32 out 2 ns h", s),
            "kernel 'kda_chunk_prep': argument 'ready' is [ns, h], expected "
            "[h, ns, ..] (per head and chunk slot)");
  EXPECT_EQ(workspaceRefusal("chunk_split_rdy", "arg ptr ready i32 out 2 h ns",
                             "arg ptr ready f32 out 2 h ns", s),
            "kernel 'kda_chunk_prep': argument 'ready' is f32, expected i32");
}

TEST(KdaPrefillFused, RecognisedByItsArguments) {
  // The pointers o, qd and pb and no hs: the fused-output scan; every
  // other kernel is checked as kda_chunk_scan_h.
  using namespace kda2::fake;
  const std::string scanO = prefillScanOMetadata();
  EXPECT_TRUE(isKdaPrefillFusedScan(parsed(scanO)));
  EXPECT_FALSE(isKdaPrefillFusedScan(parsed(prefillScanMetadata())));
  EXPECT_FALSE(isKdaPrefillFusedScan(parsed(prefillOutMetadata()))); // hs
  EXPECT_FALSE(isKdaPrefillFusedScan(parsed(prefillPrepMetadata()))); // no o
  EXPECT_FALSE(isKdaPrefillFusedScan(parsed(prefillCkptMetadata())));
  // One of the three missing (renamed, its tensor map with it), or hs as
  // well: not fused.
  auto renamed = [](std::string text, const std::string &name) {
    text = replaced(text, "arg ptr " + name + " ", "arg ptr " + name + "x ");
    size_t map = text.find(" " + name + "__tma");
    if (map != std::string::npos) {
      size_t at = text.find(' ', map + 1);
      text.replace(at, name.size() + 2, " " + name + "x ");
    }
    return text;
  };
  for (const char *name : {"o", "qd", "pb"})
    EXPECT_FALSE(isKdaPrefillFusedScan(parsed(renamed(scanO, name)))) << name;
  EXPECT_FALSE(isKdaPrefillFusedScan(parsed(
      replaced(scanO, "arg ptr us ", "arg ptr hs bf16 out 4 h ns 128 128\n"
                                     "arg ptr us "))));
  // So a kernel with hs but also o, qd and pb (kda_chunk_out) in the scan
  // role keeps its message, and a fused scan without one of its arguments
  // is named as what it is.
  EXPECT_EQ(fusedKernelsError(prefillOutMetadata(), prefillOutMetadata()),
            "argument 'scan_kernel': kernel 'kda_chunk_out' is not a KDA "
            "prefill state scan kernel (kda_chunk_scan_h) (no argument 'v')");
  EXPECT_EQ(fusedKernelsError(replaced(scanO, "arg ptr us ", "arg ptr ux ")),
            "argument 'scan_kernel': kernel 'kda_chunk_scan_o' is not a KDA "
            "prefill fused-output state scan kernel (kda_chunk_scan_o) (no "
            "argument 'us')");
  EXPECT_EQ(fusedKernelsError(renamed(scanO, "tp")),
            "argument 'scan_kernel': kernel 'kda_chunk_scan_o' is not a KDA "
            "prefill fused-output state scan kernel (kda_chunk_scan_o) (no "
            "argument 'tp')");
  // Without qd the kernel is no fused scan, and checked as kda_chunk_scan_h.
  EXPECT_EQ(fusedKernelsError(renamed(scanO, "qd")),
            "argument 'scan_kernel': kernel 'kda_chunk_scan_o' is not a KDA "
            "prefill state scan kernel (kda_chunk_scan_h) (no argument 'hs')");
}

TEST(KdaPrefillFused, OutputKernelGoesWithTheScan) {
  using namespace kda2::fake;
  const std::string scanO = prefillScanOMetadata();
  EXPECT_EQ(fusedKernelsError(scanO), "");
  // A fused scan and an output kernel: refused by out_kernel.
  const char *notWithFused =
      "argument 'out_kernel': kernel 'kda_chunk_out' is given, but scan "
      "kernel 'kda_chunk_scan_o' is a fused-output scan (kda_chunk_scan_o: "
      "it takes o, qd and pb and writes o itself); pass NULL as out_kernel "
      "with it (kda_chunk_out runs only after kda_chunk_scan_h)";
  EXPECT_EQ(fusedKernelsError(scanO, prefillOutMetadata()), notWithFused);
  // kda_chunk_scan_h without one: refused by out_kernel too.
  const char *scanHNeedsOut =
      "argument 'out_kernel' is NULL, but scan kernel 'kda_chunk_scan_h' is "
      "a state scan that writes hs, not o (kda_chunk_scan_h); pass "
      "kda_chunk_out as out_kernel, or the fused-output scan "
      "kda_chunk_scan_o as scan_kernel with out_kernel NULL";
  EXPECT_EQ(fusedKernelsError(prefillScanMetadata()), scanHNeedsOut);
  // Every entry point says the same, the reference overloads (an output
  // kernel always given) too; the kernel checks come before the values'.
  const FakePrefillKernels fake;
  const KernelInfo s = parsed(scanO);
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  KdaPrefillWorkspace ws;
  KdaPrefillLaunch launch;
  EXPECT_EQ(kdaPrefillWorkspace(fake.prep, s, fake.out, 2, 80, 1, ws).message(),
            notWithFused);
  EXPECT_EQ(checkKdaPrefill(fake.prep, s, fake.out, a).message(),
            notWithFused);
  EXPECT_EQ(
      kdaPrefillLaunchArgs(fake.prep, s, fake.out, a, launch).message(),
      notWithFused);
  a.n = 0; // a value error the kernel checks come before
  EXPECT_EQ(
      checkKdaPrefill(fake.prep, fake.scan, nullptr, nullptr, a).message(),
      scanHNeedsOut);
  EXPECT_EQ(kdaPrefillLaunchArgs(fake.prep, fake.scan, nullptr, nullptr, a,
                                 launch)
                .message(),
            scanHNeedsOut);
}

TEST(KdaPrefillFused, WorkspaceHoldsNoHs) {
  // The layout of KdaPrefill.WorkspaceLayout (K = V = 128, C = 32, VB = 8,
  // bf16) with hs at 0 bytes: every other buffer keeps its size, those
  // after hs move down by its bytes.
  const FakePrefillKernels fake;
  const KernelInfo s = parsed(kda2::fake::prefillScanOMetadata());
  using B = KdaPrefillWorkspace;
  for (int64_t m : {0, 3}) {
    for (const auto &[n, tt, h] :
         {std::tuple<int64_t, int64_t, int64_t>{2, 80, 1},
          {1, 1, 1},
          {2, 96, 3},
          {256, 32704, 32}}) {
      KdaPrefillWorkspace split, fused;
      ASSERT_TRUE(
          kdaPrefillWorkspace(fake.prep, fake.scan, fake.out, n, tt, h, m,
                              split)
              .ok());
      Status st = kdaPrefillWorkspace(fake.prep, s, nullptr, n, tt, h, m, fused);
      ASSERT_TRUE(st.ok()) << st.message();
      EXPECT_EQ(fused.ns, split.ns);
      EXPECT_EQ(fused.nm, split.nm);
      EXPECT_EQ(fused.size[B::HS], 0u);
      EXPECT_EQ(split.size[B::HS], uint64_t(h) * split.ns * 128 * 128 * 2);
      EXPECT_EQ(fused.offset[B::HS], fused.offset[B::US]);
      for (int b = 0; b < B::Count; ++b) {
        if (b == B::HS)
          continue;
        EXPECT_EQ(fused.size[b], split.size[b]) << b;
        EXPECT_EQ(fused.offset[b],
                  b < B::HS ? split.offset[b]
                            : split.offset[b] - split.size[B::HS])
            << kdaPrefillBufferName(static_cast<B::Buffer>(b));
      }
      EXPECT_EQ(fused.bytes, split.bytes - split.size[B::HS]);
    }
  }
  KdaPrefillWorkspace ws;
  ASSERT_TRUE(kdaPrefillWorkspace(fake.prep, s, nullptr, 2, 80, 1, 0, ws).ok());
  EXPECT_EQ(ws.bytes, 149504u); // 280576 - 4 · 32768
  EXPECT_EQ(ws.offset[B::US], 116736u);
  // The value checks' messages on the smaller size.
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  a.workspaceBytes = 149504;
  EXPECT_TRUE(checkKdaPrefill(fake.prep, s, nullptr, nullptr, a).ok());
  a.workspaceBytes = 149503;
  EXPECT_EQ(checkKdaPrefill(fake.prep, s, nullptr, nullptr, a).message(),
            "workspace_bytes = 149503 is too small: n = 2 and total_tokens = "
            "80 with h = 1 need 149504 bytes "
            "(kda2rt_kda_prefill_workspace_size)");
}

TEST(KdaPrefillFused, ScanKernelIsChecked) {
  // The fused scan's arguments against prep's C, VB, K, V, input and index
  // types, per chunk slot, pool and ckpt as for kda_chunk_scan_h.
  using namespace kda2::fake;
  const std::string scanO = prefillScanOMetadata();
  const char *of =
      " (C = 32, K = 128, V = 128 of kernel 'kda_chunk_prep')";
  PrefillBinding c64, i64, bf16, oldLayout;
  c64.c = 64;
  i64.ix = "i64";
  bf16.state = "bf16";
  oldLayout.chunkSlots = false;
  const std::pair<std::string, std::string> cases[] = {
      {replaced(scanO, "arg ptr o bf16", "arg ptr o f16"),
       "kernel 'kda_chunk_scan_o': argument 'o' is f16, expected bf16 (the "
       "input type of kernel 'kda_chunk_prep')"},
      {replaced(scanO, "arg ptr o bf16 out 3 tt h 128",
                "arg ptr o bf16 out 3 tt h 64"),
       std::string("kernel 'kda_chunk_scan_o': argument 'o' ends in [.., 64], "
                   "expected [.., 128]") +
           of},
      {replaced(scanO, "arg ptr qd bf16", "arg ptr qd f16"),
       "kernel 'kda_chunk_scan_o': argument 'qd' is f16, expected bf16 (the "
       "input type of kernel 'kda_chunk_prep')"},
      {replaced(scanO, "arg ptr qd bf16 in 4 h ns 32 128",
                "arg ptr qd bf16 in 4 h ns 64 128"),
       std::string("kernel 'kda_chunk_scan_o': argument 'qd' ends in [.., 64, "
                   "128], expected [.., 32, 128]") +
           of},
      // (an f32 tile is not swizzled: its map has no swizzle)
      {replaced(replaced(scanO, "arg ptr pb bf16", "arg ptr pb f32"),
                "pb 4 3 2 1 0 box 32 32 1 1 swizzle 64",
                "pb 4 3 2 1 0 box 32 32 1 1"),
       "kernel 'kda_chunk_scan_o': argument 'pb' is f32, expected bf16 (the "
       "input type of kernel 'kda_chunk_prep')"},
      {replaced(scanO, "arg ptr pb bf16 in 4 h ns 32 32",
                "arg ptr pb bf16 in 4 h ns 32 64"),
       std::string("kernel 'kda_chunk_scan_o': argument 'pb' ends in [.., 32, "
                   "64], expected [.., 32, 32]") +
           of},
      {replaced(scanO, "arg ptr pb bf16 in 4 h ns", "arg ptr pb bf16 in 4 h nsv"),
       "kernel 'kda_chunk_scan_o': argument 'pb' is [h, nsv, 32, 32], "
       "expected [h, ns, ..] (per head and chunk slot)"},
      {replaced(scanO, "arg ptr qd bf16 in 4 h ns", "arg ptr qd bf16 in 4 ns h"),
       "kernel 'kda_chunk_scan_o': argument 'qd' is [ns, h, 32, 128], "
       "expected [h, ns, ..] (per head and chunk slot)"},
      {prefillScanOMetadata(oldLayout),
       "kernel 'kda_chunk_scan_o': argument 'qd' is [n, h, nc, 32, 128], per "
       "(sequence, head, chunk): the layout of prefill kernels built before "
       "chunk slots; rebuild the three kernels from "
       "templates/kda_chunk_split.tirx (or templates/kda_chunk_prep_act.tirx) "
       "and templates/kda_chunk_h.tirx, whose intermediates are per chunk "
       "slot ([h, ns, ..])"},
      {replaced(scanO, "arg ptr us bf16 out 4 h ns 128 32",
                "arg ptr us bf16 out 4 h ns 32 128"),
       std::string("kernel 'kda_chunk_scan_o': argument 'us' ends in [.., 32, "
                   "128], expected [.., 128, 32]") +
           of},
      {prefillScanOMetadata(c64),
       std::string("kernel 'kda_chunk_scan_o': argument 'qd' ends in [.., 64, "
                   "128], expected [.., 32, 128]") +
           of},
      {prefillScanOMetadata(i64),
       "kernel 'kda_chunk_scan_o': argument 'cu_seqlens' is i64, expected "
       "i32"},
      {replaced(scanO, "arg ptr ckpt f32", "arg ptr ckpt bf16"),
       "kernel 'kda_chunk_scan_o': argument 'ckpt' is bf16, expected f32"},
      {replaced(scanO, "arg ptr gl f32", "arg ptr gl bf16"),
       "kernel 'kda_chunk_scan_o': argument 'gl' is bf16, expected f32"},
      {replaced(scanO, "arg ptr has_initial_state i32",
                "arg ptr has_initial_state i64"),
       "kernel 'kda_chunk_scan_o': argument 'has_initial_state' is i64, "
       "expected i32"},
      {replaced(scanO, "arg ptr pool f32 inout", "arg ptr pool f32 in"),
       "kernel 'kda_chunk_scan_o': argument 'pool' is declared 'in'; the "
       "pool is read and written in place (inout)"},
      {replaced(scanO, "state ckpt kv", "state ckpt vk"),
       "kernel 'kda_chunk_scan_o': declares state 'ckpt' vk but 'pool' kv; "
       "the prefill entry point takes one layout for the pool and its "
       "checkpoints"},
      {replaced(scanO, "out 4 blocks h 128 128", "out 4 blocks h 128 64"),
       "kernel 'kda_chunk_scan_o': argument 'ckpt' is [blocks, h, 128, 64] "
       "but 'pool' is [slots, h, 128, 128]; checkpoints are states of the "
       "pool's shape"},
      {replaced(scanO, "arg scalar boundaries i32\n", ""),
       "kernel 'kda_chunk_scan_o': has no integer scalar argument "
       "'boundaries': a prefill kernel built before checkpoints at token "
       "offsets; rebuild the prefill kernels from "
       "templates/kda_chunk_split.tirx (or templates/kda_chunk_prep_act.tirx) "
       "and templates/kda_chunk_h.tirx, which take ckpt_offsets (checkpoints "
       "at token offsets; kda_chunk_ckpt completes them)"},
      {replaced(replaced(scanO, "arg scalar boundaries i32\n",
                         "arg scalar boundaries i32\narg scalar sqd i64\n"),
                "arg ptr qd bf16 in 4 h ns 32 128\n",
                "arg ptr qd bf16 in 4 h ns 32 128\nstride qd sqd\n"),
       "kernel 'kda_chunk_scan_o': argument 'qd' has a runtime row stride "
       "(parameter 'sqd'), which the prefill entry point does not pass (it "
       "strides q, k, v, g and beta only)"},
  };
  for (const auto &[metadata, want] : cases)
    EXPECT_EQ(fusedKernelsError(metadata), want);
  // A bf16 state (pool and ckpt) and the other layout are bindings, not
  // errors.
  PrefillBinding vkState;
  vkState.layout = "vk";
  EXPECT_EQ(fusedKernelsError(prefillScanOMetadata(bf16)), "");
  EXPECT_EQ(fusedKernelsError(prefillScanOMetadata(vkState)), "");
  // The checkpoint kernel against the fused scan's pool.
  const FakePrefillKernels fake;
  const KernelInfo s = parsed(scanO);
  PrefillBinding vk;
  vk.layout = "vk";
  const KernelInfo c = parsed(prefillCkptMetadata(vk));
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, uint64_t(1) << 24);
  a.ckptOffsets = reinterpret_cast<void *>(uintptr_t(12) << 24);
  a.offsetBlocks = reinterpret_cast<void *>(uintptr_t(13) << 24);
  a.m = 1;
  a.ckpt = reinterpret_cast<void *>(uintptr_t(14) << 24);
  a.blocks = 2;
  EXPECT_EQ(checkKdaPrefill(fake.prep, s, nullptr, &c, a).message(),
            "kernel 'kda_chunk_ckpt': declares state 'ckpt' vk but kernel "
            "'kda_chunk_scan_o' declares 'pool' kv; the prefill entry point "
            "takes one layout for the pool and its checkpoints");
  EXPECT_TRUE(checkKdaPrefill(fake.prep, s, nullptr, &fake.ckpt, a).ok());
}

TEST(KdaPrefillFused, LaunchArgsOfPrepAndTheFusedScan) {
  // prep, the fused scan and the checkpoint kernel; no out. Operands 16 MiB
  // apart (prefillCall: cu_seqlens 6, state_indices 7, has_initial_state
  // 8, pool 9, o 10, the workspace 11), the tables 12, 13, 15, ckpt 14.
  const FakePrefillKernels fake;
  const KernelInfo &p = fake.prep, &c = fake.ckpt;
  const KernelInfo s = parsed(kda2::fake::prefillScanOMetadata());
  const uint64_t M = uint64_t(1) << 24, ws = 11 * M;
  KdaPrefillArgs a = prefillCall(2, 80, 40, 1, M);
  a.ckptOffsets = reinterpret_cast<void *>(uintptr_t(12) << 24);
  a.offsetBlocks = reinterpret_cast<void *>(uintptr_t(13) << 24);
  a.m = 3;
  a.ckpt = reinterpret_cast<void *>(uintptr_t(14) << 24);
  a.blocks = 5;
  a.checkpointBlocks = reinterpret_cast<void *>(uintptr_t(15) << 24);
  KdaPrefillLaunch launch;
  Status st = kdaPrefillLaunchArgs(p, s, nullptr, &c, a, launch);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_FALSE(launch.withOut);
  EXPECT_TRUE(launch.withCkpt);
  // The three-kernel path still has its output launch.
  KdaPrefillLaunch split;
  ASSERT_TRUE(
      kdaPrefillLaunchArgs(p, fake.scan, &fake.out, &c, a, split).ok());
  EXPECT_TRUE(split.withOut);
  // Without hs: us at 116736, kc at 149504, ec 6 · 32 · 128 · 2 later.
  const uint64_t us = ws + 116736, kc = ws + 149504, ec = kc + 49152;
  LaunchConfig cp, cs, cc;
  ASSERT_TRUE(computeLaunchConfig(p, launch.prep, cp).ok());
  ASSERT_TRUE(computeLaunchConfig(s, launch.scan, cs).ok());
  ASSERT_TRUE(computeLaunchConfig(c, launch.ckpt, cc).ok());
  ASSERT_EQ(cp.params.size(), 27u);
  EXPECT_EQ(cp.params[11], ws);       // qd
  EXPECT_EQ(cp.params[16], ws + 114688); // gl
  EXPECT_EQ(cp.params[17], kc);
  EXPECT_EQ(cp.params[18], ec);
  // The scan: grid (V / VB, n·h); its pointers, scalar and sizes in `arg`
  // order, then the seven tensor maps.
  EXPECT_EQ(cs.grid[0], 16u);
  EXPECT_EQ(cs.grid[1], 2u);
  const uint64_t scanWant[] = {
      3 * M /* v, in place */, ws /* qd */,   ws + 32768 /* kl */,
      ws + 65536 /* wn */,  ws + 98304 /* tp */,
      ws + 106496 /* pb */, ws + 114688 /* gl */,
      6 * M /* cu_seqlens */, 7 * M /* state_indices */,
      8 * M /* has_initial_state */, 15 * M /* checkpoint_blocks */,
      12 * M /* ckpt_offsets */, 13 * M /* offset_blocks */,
      1 /* boundaries */, 128 /* sv: dense, h·V */, 9 * M /* pool */,
      10 * M /* o */, us, 14 * M /* ckpt */, 80 /* tt */, 1 /* h */,
      4 /* ns */, 3 /* np1 */, 2 /* n */, 2 /* nc */, 3 /* m */,
      4 /* slots */, 5 /* blocks */};
  ASSERT_EQ(cs.params.size(), std::size(scanWant) + 7);
  for (size_t i = 0; i < std::size(scanWant); ++i)
    EXPECT_EQ(cs.params[i] & (i == 13 ? 0xFFFFFFFFu : ~uint64_t(0)),
              scanWant[i])
        << "scan parameter " << i;
  ASSERT_EQ(cs.tensorMaps.size(), 7u);
  // The checkpoint kernel reads the fused scan's us (16 parameters, then
  // the tensor maps of kc, ec and us).
  ASSERT_EQ(cc.params.size(), 19u);
  EXPECT_EQ(cc.params[0], kc);
  EXPECT_EQ(cc.params[1], ec);
  EXPECT_EQ(cc.params[2], us);
  // The scan's grid limit: n·h <= 65535, named by the fused scan.
  PrefillBinding b64;
  b64.ix = "i64";
  const FakePrefillKernels fake64(b64);
  const KernelInfo s64 = parsed(kda2::fake::prefillScanOMetadata(b64));
  a = prefillCall(65536, 65536, 1, 1, uint64_t(1) << 52);
  a.indexDtype = "i64";
  ASSERT_TRUE(kdaPrefillLaunchArgs(fake64.prep, s64, nullptr, nullptr, a,
                                   launch)
                  .ok());
  EXPECT_EQ(computeLaunchConfig(s64, launch.scan, cs).message(),
            "kernel 'kda_chunk_scan_o': grid.y = n(65536) * h(1) = 65536 "
            "exceeds the CUDA limit of 65535");
}

//===----------------------------------------------------------------------===//
// The fused layer decode (templates/kda_decode_conv.tirx)
//===----------------------------------------------------------------------===//

namespace {
/// The metadata kda2 emits for templates/kda_decode_conv.tirx bound with
/// IN=bf16,ST=f32,SS=kv,IX=i32,GF=2,AL=1,DB=1,K=128,V=128,W=4,W1=3,LANES=4,
/// compiled at build time (unittests/Runtime/CMakeLists.txt, `kda2-translate
/// --kda2-to-metadata`).
std::string realConvMetadata() {
  std::ifstream in(KDA2_REAL_METADATA_DIR "/decode_conv.meta");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// checkKdaDecodeConv against the K = V = 128, W = 4 kernel: n = 4
/// sequences, 10 tokens, h = 4 (D = 1536), 16 slots; operands 16 MiB apart.
class KdaDecodeConvCheck
    : public TypedCheck<KdaDecodeConvArgs, checkKdaDecodeConv> {
protected:
  void SetUp() override {
    use(kda2::fake::convDecodeMetadata());
    const void **in[] = {&args.qkv,       &args.convW,        &args.a,
                         &args.b,         &args.gout,         &args.aLog,
                         &args.dtBias,    &args.normW,        &args.cuSeqlens,
                         &args.stateIndices, &args.hasInitialState};
    for (size_t i = 0; i < 11; ++i)
      *in[i] = reinterpret_cast<void *>(0x1000000 * (i + 1));
    args.convState = reinterpret_cast<void *>(0xC000000);
    args.pool = reinterpret_cast<void *>(0xD000000);
    args.o = reinterpret_cast<void *>(0xE000000);
    args.n = 4;
    args.totalTokens = 10;
    args.h = 4;
    args.kDim = args.vDim = 128;
    args.convWidth = 4;
    args.slots = 16;
    args.eps = 1e-5;
    args.lowerBound = -5;
    args.stateLayout = "kv";
  }
};

TEST(KdaDecodeConvMetadata, FakeHelperIsTheRealKernelsMetadata) {
  const std::string real = realConvMetadata();
  ASSERT_FALSE(real.empty()) << "no " KDA2_REAL_METADATA_DIR "/decode_conv.meta";
  EXPECT_EQ(kda2::fake::convDecodeMetadata(), real);
}

TEST_F(KdaDecodeConvCheck, ValidCallBuildsTheKernelArguments) {
  Status s = checkKdaDecodeConv(info, args);
  ASSERT_TRUE(s.ok()) << s.message();
  LaunchArgs launch;
  ASSERT_TRUE(kdaDecodeConvLaunchArgs(info, args, launch).ok());
  LaunchConfig cfg;
  s = computeLaunchConfig(info, launch, cfg);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(cfg.grid[0], 1u);
  EXPECT_EQ(cfg.grid[1], 4u * 4u); // grid.y n h
  ASSERT_EQ(cfg.params.size(), 24u);
  for (size_t i = 0; i < 11; ++i) // qkv .. has_initial_state
    EXPECT_EQ(cfg.params[i], 0x1000000 * (i + 1)) << i;
  EXPECT_EQ(cfg.params[11], 0xC000000u); // conv_state
  EXPECT_EQ(cfg.params[12], 0xD000000u); // pool
  EXPECT_EQ(cfg.params[13], 1536u);      // sx: 0 selects D = 2·h·K + h·V
  float f;
  std::memcpy(&f, &cfg.params[14], sizeof(f));
  EXPECT_FLOAT_EQ(f, 1.0f / std::sqrt(128.0f));
  std::memcpy(&f, &cfg.params[15], sizeof(f));
  EXPECT_EQ(f, -5.0f); // lower_bound
  std::memcpy(&f, &cfg.params[16], sizeof(f));
  EXPECT_EQ(f, 1e-5f); // eps
  EXPECT_EQ(cfg.params[17], 0xE000000u); // o
  const uint64_t dims[] = {10, 1536, 4, 5, 4, 16}; // tt D h np1 n slots
  for (size_t i = 0; i < 6; ++i)
    EXPECT_EQ(cfg.params[18 + i], dims[i]) << i;
}

TEST_F(KdaDecodeConvCheck, OptionalGateInputs) {
  // Built with AL=1, DB=1 (the default): a NULL A_log or dt_bias is refused
  // by name.
  args.aLog = nullptr;
  EXPECT_EQ(error(), "argument 'A_log' is NULL");
  args.aLog = reinterpret_cast<void *>(0x6000000);
  args.dtBias = nullptr;
  EXPECT_EQ(error(), "argument 'dt_bias' is NULL");
  // AL=0, DB=0: the kernel reads neither (exp(A_log) = 1, dt_bias = 0);
  // NULL is accepted and `a` fills their parameters.
  use(kda2::fake::convDecodeMetadata("kda_decode_conv", 128, 128, 4, "kv", "f32",
                                     "bf16", "i32", true, 0, 0));
  args.aLog = nullptr;
  ASSERT_TRUE(checkKdaDecodeConv(info, args).ok());
  LaunchArgs launch;
  ASSERT_TRUE(kdaDecodeConvLaunchArgs(info, args, launch).ok());
  LaunchConfig cfg;
  ASSERT_TRUE(computeLaunchConfig(info, launch, cfg).ok());
  EXPECT_EQ(cfg.params[5], 0x3000000u); // A_log <- a
  EXPECT_EQ(cfg.params[6], 0x3000000u); // dt_bias <- a
  // Given anyway, they are passed as they are (and checked like any
  // operand).
  args.aLog = reinterpret_cast<void *>(0x6000010);
  ASSERT_TRUE(kdaDecodeConvLaunchArgs(info, args, launch).ok());
  ASSERT_TRUE(computeLaunchConfig(info, launch, cfg).ok());
  EXPECT_EQ(cfg.params[5], 0x6000010u);
  args.aLog = reinterpret_cast<void *>(0x6000001);
  EXPECT_EQ(error(), "argument 'A_log' is not 16-byte aligned (the kernel uses "
                     "128-bit accesses)");
  // AL=0 only: dt_bias is still read.
  use(kda2::fake::convDecodeMetadata("kda_decode_conv", 128, 128, 4, "kv", "f32",
                                     "bf16", "i32", true, 0, 1));
  args.aLog = nullptr;
  EXPECT_EQ(error(), "argument 'dt_bias' is NULL");
}

TEST_F(KdaDecodeConvCheck, RefusalsNameTheArgument) {
  auto refused = [&](auto change, const std::string &message) {
    KdaDecodeConvArgs saved = args;
    change(args);
    EXPECT_EQ(error(), message);
    args = saved;
  };
  using A = KdaDecodeConvArgs &;
  refused([](A a) { a.convWidth = 3; },
          "kernel 'kda_decode_conv': was compiled for conv width W = 4 "
          "(conv_w [D, 4], conv_state [slots, D, 3]), got conv_width = 3");
  refused([](A a) { a.h = 0; },
          "h must be positive (the number of heads), got 0");
  refused([](A a) { a.dtype = "f16"; },
          "kernel 'kda_decode_conv': argument 'qkv' is bf16, the call "
          "passes f16");
  refused([](A a) { a.vDim = 64; },
          "kernel 'kda_decode_conv': was compiled for K=128, V=128, got "
          "K=128, V=64");
  refused([](A a) { a.qkvStride = 1535; },
          "argument 'qkv_stride' is 1535: a row stride is 0 (dense) or at "
          "least the row size, D = 2·h·K + h·V = 1536 elements");
  refused([](A a) { a.qkvStride = 1540; },
          "argument 'qkv_stride' is 1540: the row stride must be a multiple "
          "of 16 bytes (8 elements of bf16)");
  refused([](A a) { a.eps = -1; },
          "eps must be a finite number >= 0 (the RMSNorm epsilon)");
  refused([](A a) { a.lowerBound = NAN; },
          "lower_bound must be a finite number (the bound of gate family 1; "
          "GF 2 kernels ignore it)");
  refused([](A a) { a.normW = nullptr; }, "argument 'norm_w' is NULL");
  refused([](A a) { a.aLog = reinterpret_cast<void *>(0x6000004); },
          "argument 'A_log' is not 16-byte aligned (the kernel uses 128-bit "
          "accesses)");
  // conv_state inside qkv's strided extent: (10 - 1)·2048 + 1536 bf16.
  refused(
      [](A a) {
        a.qkvStride = 2048;
        a.convState = reinterpret_cast<void *>(0x1000000 + 39936 - 16);
      },
      "arguments 'conv_state' and 'qkv' overlap (conv_state at 0x1009bf0, "
      "147456 bytes; qkv at 0x1000000, 39936 bytes): 'conv_state' is "
      "updated in place and must not share memory with another operand");
  refused([](A a) { a.o = reinterpret_cast<void *>(0xC000000 + 4096); },
          "arguments 'conv_state' and 'o' overlap (conv_state at 0xc000000, "
          "147456 bytes; o at 0xc001000, 10240 bytes): 'conv_state' is "
          "updated in place and must not share memory with another operand");
  EXPECT_TRUE(checkKdaDecodeConv(info, args).ok());
}

TEST_F(KdaDecodeConvCheck, MetadataTheEntryPointCannotTake) {
  // A pool decode kernel: refused by name, with the entry point it needs.
  use(kda2::fake::poolDecodeMetadata("kda_decode_pool", 128, 128));
  EXPECT_EQ(error(), "kernel 'kda_decode_pool': is not a KDA conv decode "
                     "kernel (no argument 'qkv'); it takes q, k, v, g and "
                     "beta: a pool decode kernel, for kda2rt_kda_decode_pool");
  // conv_state not W - 1 wide.
  std::string m = kda2::fake::convDecodeMetadata();
  m.replace(m.find("slots D 3"), 9, "slots D 4");
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_conv': argument 'conv_state' ends "
                     "in 4, not W - 1 = 3 (conv_w [D, 4])");
  // A stride on another operand.
  m = kda2::fake::convDecodeMetadata();
  m.replace(m.find("stride qkv sx"), 13, "stride gout sx");
  use(m);
  EXPECT_EQ(error(), "kernel 'kda_decode_conv': argument 'gout' has a "
                     "runtime row stride (parameter 'sx'), which the conv "
                     "decode entry point does not pass (it strides qkv "
                     "only)");
  // An IX=i64 kernel needs index_dtype "i64".
  use(kda2::fake::convDecodeMetadata("kda_decode_conv", 128, 128, 4, "kv",
                                     "f32", "bf16", "i64"));
  EXPECT_EQ(error(), "argument 'index_dtype' is NULL (i32) but kernel "
                     "'kda_decode_conv' reads 'cu_seqlens' as int64 (its IX "
                     "binding)");
  args.indexDtype = "i64";
  EXPECT_TRUE(checkKdaDecodeConv(info, args).ok());
  // A dense kernel (no `stride qkv` line) takes only qkv_stride 0 or D.
  use(kda2::fake::convDecodeMetadata("kda_decode_conv", 128, 128, 4, "kv",
                                     "f32", "bf16", "i64", false));
  args.qkvStride = 1536;
  EXPECT_TRUE(checkKdaDecodeConv(info, args).ok());
  args.qkvStride = 2048;
  EXPECT_EQ(error(), "kernel 'kda_decode_conv' reads 'qkv' densely (no "
                     "stride parameter); rebuild it from a template with "
                     "stride= (GMEM {stride=...} qkv), or pass qkv_stride = "
                     "0");
}
} // namespace
