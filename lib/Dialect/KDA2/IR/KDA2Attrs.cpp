//===- KDA2Attrs.cpp - kda2 attributes and annotations ---------*- C++ -*-===//
//
// Enumerations and the constraint-annotation attributes. Each annotation
// verifies its own parameters (`verify`) and, through
// LoopAnnotationAttrInterface, what it promises about the loop it is
// attached to, against the target hardware profile when there is one.
//
//===----------------------------------------------------------------------===//

#include "kda2/Dialect/KDA2/IR/KDA2.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::kda2;

#include "kda2/Dialect/KDA2/IR/KDA2Enums.cpp.inc"

#include "kda2/Dialect/KDA2/IR/KDA2AttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "kda2/Dialect/KDA2/IR/KDA2Attrs.cpp.inc"

void KDA2Dialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "kda2/Dialect/KDA2/IR/KDA2Attrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// True when some argument of the kernel enclosing `op` has a dynamic
/// dimension called `name`.
static bool kernelHasNamedDim(Operation *op, StringRef name) {
  auto kernel = op->getParentOfType<KernelOp>();
  if (!kernel)
    return false;
  for (Type type : kernel.getArgumentTypes()) {
    auto tensor = dyn_cast<KDA2TensorType>(type);
    if (!tensor)
      continue;
    for (unsigned i = 0, e = tensor.getRank(); i < e; ++i)
      if (tensor.getDimName(i) == name)
        return true;
  }
  return false;
}

/// The tensor a load or store accesses, or null for other ops.
static Value getAccessedTensor(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getSource();
  if (auto store = dyn_cast<StoreOp>(op))
    return store.getDest();
  return {};
}

//===----------------------------------------------------------------------===//
// @warp_reduce
//===----------------------------------------------------------------------===//

StringRef WarpReduceAttr::getSpelling() const { return "@warp_reduce"; }

LogicalResult WarpReduceAttr::verifyOnLoop(Operation *loop,
                                           const HardwareProfile *) const {
  bool hasReduction = false;
  loop->walk([&](ReduceOp) { hasReduction = true; });
  if (!hasReduction)
    return loop->emitOpError()
           << "'@warp_reduce' annotates a loop that contains no reduction";
  return success();
}

//===----------------------------------------------------------------------===//
// $bank_conflict_free
//===----------------------------------------------------------------------===//

StringRef BankConflictFreeAttr::getSpelling() const {
  return "$bank_conflict_free";
}

/// Bytes of a shared buffer once each row (all dimensions but the last) is
/// padded by one 4-byte bank word, the padding that makes column accesses of
/// 4-byte elements hit 32 distinct banks (row pitch no longer a multiple of
/// 128 bytes).
/// Saturates at INT64_MAX, which exceeds every profile's budget.
static int64_t paddedSharedBytes(KDA2TensorType type) {
  int64_t rows = 1;
  // A rank-0 buffer is one row of one element.
  ArrayRef<int64_t> shape = type.getShape();
  for (int64_t size : shape.drop_back(shape.empty() ? 0 : 1))
    rows *= size; // bounded by the element count, which fits
  int64_t padded;
  if (llvm::MulOverflow(rows, int64_t(4), padded) ||
      llvm::AddOverflow(padded, *type.getStaticSizeInBytes(), padded))
    return std::numeric_limits<int64_t>::max();
  return padded;
}

LogicalResult
BankConflictFreeAttr::verifyOnLoop(Operation *loop,
                                   const HardwareProfile *profile) const {
  llvm::SetVector<Value> buffers;
  loop->walk([&](Operation *op) {
    Value tensor = getAccessedTensor(op);
    if (tensor &&
        cast<KDA2TensorType>(tensor.getType()).getMemorySpace() == MemorySpace::smem)
      buffers.insert(tensor);
  });
  if (buffers.empty())
    return loop->emitOpError()
           << "'$bank_conflict_free' annotates a loop that accesses no "
              "shared memory";
  if (!profile)
    return success();
  for (Value buffer : buffers) {
    auto type = cast<KDA2TensorType>(buffer.getType());
    int64_t padded = paddedSharedBytes(type);
    if (static_cast<uint64_t>(padded) > profile->sharedMemoryPerBlockBytes())
      return loop->emitOpError()
             << "'$bank_conflict_free' buffer of "
             << *type.getStaticSizeInBytes() << " bytes (" << padded
             << " with conflict-free padding) exceeds the shared memory per "
                "block of profile '"
             << profile->name << "' (" << profile->sharedMemoryPerBlockBytes()
             << " bytes)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// @coalesced_access
//===----------------------------------------------------------------------===//

LogicalResult
CoalescedAccessAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            StringAttr dim, int64_t modulus,
                            CoalesceFallbackAttr fallback) {
  bool hasDim = dim && !dim.getValue().empty();
  if (hasDim && modulus <= 0)
    return emitError() << "coalescing condition on '" << dim.getValue()
                       << "' needs a positive modulus, got " << modulus;
  if (!hasDim && modulus != 0)
    return emitError() << "coalescing modulus " << modulus
                       << " given without a dimension";
  if (!hasDim && fallback)
    return emitError() << "coalescing fallback given without a condition";
  return success();
}

StringRef CoalescedAccessAttr::getSpelling() const {
  return "@coalesced_access";
}

/// The logical dimension of a global tensor (a kernel argument) that is
/// innermost in memory under its kda2.gmem layout.
static unsigned physicalInnermostDim(Value tensor) {
  auto type = cast<KDA2TensorType>(tensor.getType());
  Layout layout = Layout::row_major;
  for (Operation *user : tensor.getUsers())
    if (auto gmem = dyn_cast<GmemOp>(user))
      layout = gmem.getLayout();
  auto perm = getLayoutPermutation(layout, type.getRank());
  return perm ? (*perm)[type.getRank() - 1] : type.getRank() - 1;
}

/// The name of the first dynamic dimension that decides whether the global
/// accesses in `loop` are contiguous: the loop bound when it is a named size,
/// else a dynamic dimension that is innermost in memory and that an access
/// walks along (a tile dimension, or one indexed by a thread variable).
/// Returns std::nullopt when all are static.
static std::optional<std::string> findDynamicAccessDim(Operation *loop) {
  auto loopOp = cast<LoopOp>(loop);
  if (auto dim = loopOp.getUpperBound().getDefiningOp<DimOp>())
    return dim.getName().str();
  auto kernel = loop->getParentOfType<KernelOp>();
  std::optional<std::string> found;
  loop->walk([&](Operation *op) {
    Value tensor = getAccessedTensor(op);
    if (!tensor || found)
      return;
    auto type = cast<KDA2TensorType>(tensor.getType());
    if (type.getMemorySpace() != MemorySpace::gmem || type.getRank() == 0)
      return;
    unsigned inner = physicalInnermostDim(tensor);
    if (!ShapedType::isDynamic(type.getShape()[inner]))
      return;
    unsigned gridRank = getImplicitGridRank(type, kernel);
    ValueRange indices = isa<LoadOp>(op) ? cast<LoadOp>(op).getIndices()
                                         : cast<StoreOp>(op).getIndices();
    bool walked = inner >= gridRank + indices.size();
    if (!walked && inner >= gridRank) {
      auto iv = dyn_cast<BlockArgument>(indices[inner - gridRank]);
      auto ivLoop = iv ? dyn_cast<LoopOp>(iv.getOwner()->getParentOp())
                       : LoopOp();
      walked = ivLoop && ivLoop.getMapping() == LoopMapping::thread;
    }
    if (walked)
      found = type.getDimName(inner).empty() ? std::string("?")
                                             : type.getDimName(inner).str();
  });
  return found;
}

LogicalResult CoalescedAccessAttr::verifyOnLoop(Operation *loop,
                                                const HardwareProfile *) const {
  if (hasCondition()) {
    if (!kernelHasNamedDim(loop, getDim().getValue()))
      return loop->emitOpError()
             << "'@coalesced_access' condition names '" << getDim().getValue()
             << "', which is not a dimension of the kernel";
    return success();
  }
  if (std::optional<std::string> dim = findDynamicAccessDim(loop))
    return loop->emitOpError()
           << "'@coalesced_access' on dynamic dimension '" << *dim
           << "' needs a condition, e.g. 'if " << *dim
           << " % 32 == 0 else padding_align32'";
  return success();
}

//===----------------------------------------------------------------------===//
// @tma_bound
//===----------------------------------------------------------------------===//

LogicalResult TmaBoundAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t rows, int64_t cols) {
  // cuTensorMapEncodeTiled accepts box sizes in [1, 256] per dimension.
  if (rows <= 0 || cols <= 0 || rows > 256 || cols > 256)
    return emitError() << "TMA tile " << rows << "x" << cols
                       << " must have each side in [1, 256]";
  return success();
}

StringRef TmaBoundAttr::getSpelling() const { return "@tma_bound"; }

LogicalResult TmaBoundAttr::verifyOnLoop(Operation *loop,
                                         const HardwareProfile *profile) const {
  if (!profile)
    return success();
  if (getRows() > profile->maxTmaTileRows ||
      getCols() > profile->maxTmaTileCols)
    return loop->emitOpError()
           << "'@tma_bound' tile " << getRows() << "x" << getCols()
           << " exceeds the maximum TMA tile " << profile->maxTmaTileRows
           << "x" << profile->maxTmaTileCols << " of profile '"
           << profile->name << "'";
  return success();
}

//===----------------------------------------------------------------------===//
// @shape_hint
//===----------------------------------------------------------------------===//

LogicalResult
ShapeHintAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringAttr dim, ArrayRef<int64_t> values) {
  if (!dim || dim.getValue().empty())
    return emitError() << "shape hint needs a dimension name";
  if (values.empty())
    return emitError() << "shape hint for '" << dim.getValue()
                       << "' lists no values";
  for (auto [i, value] : llvm::enumerate(values)) {
    if (value <= 0)
      return emitError() << "shape hint for '" << dim.getValue()
                         << "' has non-positive value " << value;
    if (i > 0 && value <= values[i - 1])
      return emitError() << "shape hint values for '" << dim.getValue()
                         << "' must be strictly increasing, got " << value
                         << " after " << values[i - 1];
  }
  return success();
}

StringRef ShapeHintAttr::getSpelling() const { return "@shape_hint"; }

LogicalResult ShapeHintAttr::verifyOnLoop(Operation *loop,
                                          const HardwareProfile *) const {
  if (!kernelHasNamedDim(loop, getDim().getValue()))
    return loop->emitOpError()
           << "'@shape_hint' names '" << getDim().getValue()
           << "', which is not a dynamic dimension of the kernel";
  return success();
}

//===----------------------------------------------------------------------===//
// @pipeline_stages
//===----------------------------------------------------------------------===//

LogicalResult
PipelineStagesAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           int64_t stages) {
  if (stages < 2 || stages > 8)
    return emitError() << "'@pipeline_stages' takes 2 to 8 stages, got "
                       << stages;
  return success();
}

StringRef PipelineStagesAttr::getSpelling() const {
  return "@pipeline_stages";
}

/// Whether `loop` carries `#pragma tma_pipeline`.
static bool hasTmaPipeline(Operation *loop) {
  auto op = dyn_cast<LoopOp>(loop);
  return op && op.getAnnotationsAttr() &&
         llvm::any_of(op.getAnnotationsAttr(), [](Attribute a) {
           auto pragma = dyn_cast<PragmaAttr>(a);
           return pragma && pragma.getKind() == PragmaKind::tma_pipeline;
         });
}

/// An annotation of a TMA pipeline (`spelling`) on `loop`: it must carry the
/// pragma.
static LogicalResult requireTmaPipeline(Operation *loop, StringRef spelling) {
  if (!hasTmaPipeline(loop))
    return loop->emitOpError() << "'" << spelling
                               << "' applies to a loop with '#pragma "
                                  "tma_pipeline'";
  return success();
}

/// An annotation of the kernel's blocks (`spelling`) on `loop`: it must be
/// a block loop.
static LogicalResult requireBlockLoop(Operation *loop, StringRef spelling) {
  auto op = dyn_cast<LoopOp>(loop);
  if (!op || op.getMapping() != LoopMapping::block)
    return loop->emitOpError() << "'" << spelling
                               << "' applies to a block loop "
                                  "(schedule.block), the kernel's blocks";
  return success();
}

LogicalResult PipelineStagesAttr::verifyOnLoop(Operation *loop,
                                               const HardwareProfile *) const {
  return requireTmaPipeline(loop, getSpelling());
}

//===----------------------------------------------------------------------===//
// @warpgroup_registers
//===----------------------------------------------------------------------===//

LogicalResult WarpgroupRegistersAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, int64_t computing,
    int64_t ahead, int64_t producer) {
  for (auto [what, count] : {std::pair<StringRef, int64_t>{"computing", computing},
                             {"ahead", ahead},
                             {"producer", producer}})
    if (count != 0 && (count < 24 || count > 256 || count % 8 != 0))
      return emitError() << "'@warpgroup_registers' takes registers per "
                            "thread that are 0 (the launch's) or a multiple "
                            "of 8 from 24 to 256; the "
                         << what << " group's is " << count;
  return success();
}

StringRef WarpgroupRegistersAttr::getSpelling() const {
  return "@warpgroup_registers";
}

LogicalResult
WarpgroupRegistersAttr::verifyOnLoop(Operation *loop,
                                     const HardwareProfile *) const {
  return requireTmaPipeline(loop, getSpelling());
}

//===----------------------------------------------------------------------===//
// @blocks_per_sm
//===----------------------------------------------------------------------===//

LogicalResult
BlocksPerSmAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t blocks) {
  if (blocks < 0 || blocks > 32)
    return emitError() << "'@blocks_per_sm' takes 0 (no bound) to 32 blocks, got "
                       << blocks;
  return success();
}

StringRef BlocksPerSmAttr::getSpelling() const { return "@blocks_per_sm"; }

LogicalResult BlocksPerSmAttr::verifyOnLoop(Operation *loop,
                                            const HardwareProfile *) const {
  return requireBlockLoop(loop, getSpelling());
}

//===----------------------------------------------------------------------===//
// @mma_warps
//===----------------------------------------------------------------------===//

LogicalResult
MmaWarpsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     int64_t warps) {
  if (warps < 1 || warps > 16 || !llvm::isPowerOf2_64(warps))
    return emitError() << "'@mma_warps' takes 1, 2, 4, 8 or 16 warps, got "
                       << warps;
  return success();
}

StringRef MmaWarpsAttr::getSpelling() const { return "@mma_warps"; }

LogicalResult MmaWarpsAttr::verifyOnLoop(Operation *loop,
                                         const HardwareProfile *) const {
  return requireBlockLoop(loop, getSpelling());
}

//===----------------------------------------------------------------------===//
// @persistent
//===----------------------------------------------------------------------===//

LogicalResult
PersistentAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t blocks) {
  if (blocks < 0 || blocks > 32)
    return emitError() << "'@persistent' takes 0 (off) to 32 blocks per SM, "
                          "got "
                       << blocks;
  return success();
}

StringRef PersistentAttr::getSpelling() const { return "@persistent"; }

LogicalResult PersistentAttr::verifyOnLoop(Operation *loop,
                                           const HardwareProfile *) const {
  return requireBlockLoop(loop, getSpelling());
}

//===----------------------------------------------------------------------===//
// @producer_warp
//===----------------------------------------------------------------------===//

StringRef ProducerWarpAttr::getSpelling() const { return "@producer_warp"; }

LogicalResult ProducerWarpAttr::verifyOnLoop(Operation *loop,
                                             const HardwareProfile *) const {
  return requireTmaPipeline(loop, getSpelling());
}

//===----------------------------------------------------------------------===//
// #pragma
//===----------------------------------------------------------------------===//

StringRef PragmaAttr::getSpelling() const { return "#pragma"; }

LogicalResult PragmaAttr::verifyOnLoop(Operation *loop,
                                       const HardwareProfile *profile) const {
  bool tmaPragma = getKind() == PragmaKind::tma_coalesce ||
                   getKind() == PragmaKind::tma_pipeline;
  if (tmaPragma && profile && !profile->tma)
    return loop->emitOpError()
           << "'#pragma " << stringifyPragmaKind(getKind())
           << "' needs the tensor memory accelerator, which profile '"
           << profile->name << "' (" << profile->arch << ") lacks";
  if (getKind() == PragmaKind::wgmma && profile && profile->arch != "sm_90a")
    return loop->emitOpError()
           << "'#pragma wgmma' needs the warpgroup tensor-core instructions of "
              "sm_90a, which profile '"
           << profile->name << "' (" << profile->arch << ") lacks";
  if (getKind() == PragmaKind::tma_pipeline ||
      getKind() == PragmaKind::unroll)
    if (auto l = dyn_cast<LoopOp>(loop); l && l.getMapping() != LoopMapping::serial)
      return loop->emitOpError() << "'#pragma " << stringifyPragmaKind(getKind())
                                 << "' applies to serial loops";
  if (getKind() == PragmaKind::grid_first) {
    auto l = dyn_cast<LoopOp>(loop);
    if (!l || l.getMapping() != LoopMapping::block)
      return loop->emitOpError() << "'#pragma grid_first' applies to block "
                                    "loops";
    auto kernel = l->getParentOfType<KernelOp>();
    if (!kernel || !kernel.getGridAttr())
      return loop->emitOpError()
             << "'#pragma grid_first' orders the blocks of a kernel's grid "
                "(GRID), but this kernel has none";
  }
  return success();
}
