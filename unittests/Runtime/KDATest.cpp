//===- KDATest.cpp - KDA decode argument checks ----------------*- C++ -*-===//
//
// checkKdaDecode against the metadata kda2 emits for templates/kda_decode.tirx
// (K = V = 128): every bad argument is rejected with a message naming it,
// without a GPU.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/KDA.h"

#include "gtest/gtest.h"

#include <string>

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

} // namespace
