//===- KDA2DialectTest.cpp - kda2 dialect C++ API tests --------*- C++ -*-===//
//
// Builds kda2 IR through the C++ API (as an embedding compiler would) and
// checks types, layout permutations and the kernel verifier's rules.
//
//===----------------------------------------------------------------------===//

#include "kda2/Dialect/KDA2/IR/KDA2.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::kda2;

namespace {

class KDA2DialectTest : public ::testing::Test {
protected:
  KDA2DialectTest() { context.loadDialect<KDA2Dialect, arith::ArithDialect>(); }

  /// `!kda2.tensor<[batch, n], f16>` or a static smem buffer.
  KDA2TensorType gmemTensor() {
    Builder b(&context);
    return KDA2TensorType::get(&context, {ShapedType::kDynamic, ShapedType::kDynamic},
                           {b.getStringAttr("batch"), b.getStringAttr("n")},
                           b.getF16Type(), MemorySpace::gmem);
  }

  /// Builds `kernel(x, y{out})` whose body is filled by `fill`.
  OwningOpRef<ModuleOp>
  buildKernel(llvm::function_ref<void(OpBuilder &, KernelOp)> fill) {
    OpBuilder b(&context);
    Location loc = b.getUnknownLoc();
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module->getBody());
    auto type = b.getFunctionType({gmemTensor(), gmemTensor()}, {});
    auto kernel = KernelOp::create(b, loc, "k", type);
    kernel.setArgAttr(1, KDA2Dialect::getIOAttrName(),
                      IOKindAttr::get(&context, IOKind::out));
    kernel.setGridAttr(b.getStrArrayAttr({"batch"}));
    b.setInsertionPoint(kernel.getBody().front().getTerminator());
    fill(b, kernel);
    return module;
  }

  /// Verifies `module`, collecting the first diagnostic message.
  LogicalResult verifyCollecting(ModuleOp module, std::string &message) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    return verify(module);
  }

  MLIRContext context;
};

TEST_F(KDA2DialectTest, LayoutPermutations) {
  EXPECT_EQ(*getLayoutPermutation(Layout::BSHD, 4),
            (SmallVector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(*getLayoutPermutation(Layout::VK, 4),
            (SmallVector<int64_t>{0, 1, 3, 2}));
  EXPECT_EQ(*getLayoutPermutation(Layout::BSH, 3), (SmallVector<int64_t>{0, 2, 1}));
  EXPECT_FALSE(getLayoutPermutation(Layout::BSHD, 3).has_value());
  EXPECT_FALSE(getLayoutPermutation(Layout::KV, 1).has_value());
}

TEST_F(KDA2DialectTest, TensorTypeSizes) {
  Builder b(&context);
  auto smem = KDA2TensorType::get(&context, {32, 33}, {b.getStringAttr(""), b.getStringAttr("")},
                              b.getF32Type(), MemorySpace::smem);
  EXPECT_TRUE(smem.hasStaticShape());
  EXPECT_EQ(*smem.getStaticSizeInBytes(), 32 * 33 * 4);
  EXPECT_FALSE(gmemTensor().getStaticSizeInBytes().has_value());
  EXPECT_EQ(gmemTensor().getDimName(1), "n");
}

TEST_F(KDA2DialectTest, AccessTypeDropsGridAndIndexedDims) {
  KDA2TensorType t = gmemTensor();
  Type row = getAccessType(t, /*gridRank=*/1, /*numIndices=*/0);
  ASSERT_TRUE(isa<RankedTensorType>(row));
  EXPECT_TRUE(cast<RankedTensorType>(row).isDynamicDim(0));
  EXPECT_TRUE(getAccessType(t, 1, 1).isF16());
  EXPECT_FALSE(getAccessType(t, 1, 2));
}

TEST_F(KDA2DialectTest, WellFormedKernelVerifies) {
  OwningOpRef<ModuleOp> module = buildKernel([&](OpBuilder &b, KernelOp k) {
    Location loc = b.getUnknownLoc();
    GmemOp::create(b, loc, ValueRange{k.getArgument(0), k.getArgument(1)},
                   Layout::row_major, Packing::none);
    Value n = DimOp::create(b, loc, b.getIndexType(), "n");
    auto annotations = b.getArrayAttr({CoalescedAccessAttr::get(
        &context, b.getStringAttr("n"), 8, CoalesceFallbackAttr())});
    auto loop = LoopOp::create(b, loc, n, LoopMapping::thread, annotations);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBodyBlock());
    Value v = LoadOp::create(b, loc, b.getF16Type(), k.getArgument(0),
                             ValueRange{loop.getInductionVar()});
    Value e = ExpOp::create(b, loc, v);
    StoreOp::create(b, loc, e, k.getArgument(1),
                    ValueRange{loop.getInductionVar()});
  });
  std::string message;
  EXPECT_TRUE(succeeded(verifyCollecting(*module, message))) << message;
}

TEST_F(KDA2DialectTest, KernelWithoutAnnotationIsRejected) {
  OwningOpRef<ModuleOp> module = buildKernel([&](OpBuilder &b, KernelOp k) {
    Location loc = b.getUnknownLoc();
    GmemOp::create(b, loc, ValueRange{k.getArgument(0)}, Layout::row_major,
                   Packing::none);
    Value n = DimOp::create(b, loc, b.getIndexType(), "n");
    LoopOp::create(b, loc, n, LoopMapping::thread, ArrayAttr());
  });
  std::string message;
  EXPECT_TRUE(failed(verifyCollecting(*module, message)));
  EXPECT_NE(message.find("has no constraint annotation"), std::string::npos)
      << message;
}

TEST_F(KDA2DialectTest, WritingAnInputIsRejected) {
  OwningOpRef<ModuleOp> module = buildKernel([&](OpBuilder &b, KernelOp k) {
    Location loc = b.getUnknownLoc();
    GmemOp::create(b, loc, ValueRange{k.getArgument(0)}, Layout::row_major,
                   Packing::none);
    Value n = DimOp::create(b, loc, b.getIndexType(), "n");
    auto loop = LoopOp::create(
        b, loc, n, LoopMapping::thread,
        b.getArrayAttr({PragmaAttr::get(&context, PragmaKind::l2_prefetch)}));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBodyBlock());
    Value v = LoadOp::create(b, loc, b.getF16Type(), k.getArgument(1),
                             ValueRange{loop.getInductionVar()});
    StoreOp::create(b, loc, v, k.getArgument(0),
                    ValueRange{loop.getInductionVar()});
  });
  std::string message;
  EXPECT_TRUE(failed(verifyCollecting(*module, message)));
  EXPECT_NE(message.find("writes kernel input argument #0"), std::string::npos)
      << message;
}

TEST_F(KDA2DialectTest, BuiltinProfilesAreReachableFromTheDialect) {
  auto *dialect = context.getLoadedDialect<KDA2Dialect>();
  ASSERT_NE(dialect->getProfiles().lookup("H200-SXM"), nullptr);
  EXPECT_EQ(dialect->getProfiles().lookup("H200-SXM")->smCount, 132u);
}

} // namespace
