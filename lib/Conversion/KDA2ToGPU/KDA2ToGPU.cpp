//===- KDA2ToGPU.cpp - Lower kda2 kernels to GPU kernels -------*- C++ -*-===//
//
// Implements --convert-kda2-to-gpu. Each `kda2.kernel` becomes a `gpu.func`
// whose body is built by walking the kernel in program order and emitting
// gpu / scf / arith / math / vector / memref / llvm ops (the upstream
// `convert-gpu-to-nvvm` then takes them to NVVM). The structure of a kernel
// changes too much for a 1:1 pattern rewrite, so this is a structural
// lowering with an IRMapping from kda2 values to lowered values.
//
// Execution model (the semantics of kda2 loops on a GPU):
//   * one CTA per (grid point, block iteration): blockIdx.y enumerates the
//     grid prefix in row-major order, blockIdx.x the top-level `block` loops
//     (gridDim.x is the largest extent; each loop is guarded by its own);
//   * the kernel body outside `thread` loops is uniform: every thread runs
//     it; its stores to global or shared memory are made by thread 0;
//   * a `thread` loop of extent n runs iteration t on threadIdx.x == t
//     (blockDim.x is the largest thread extent rounded up to a warp);
//   * a `serial` loop is an scf.for executed by the threads that reach it;
//   * block barriers go where the data flow needs them: before an op of
//     uniform code that touches a tensor another thread may have written
//     since the last barrier, or writes one read since it
//     (`SharedAccesses`).
//
// Memory: a global tensor's logical index (grid prefix, explicit indices,
// tile dimensions) is turned into a 64-bit element offset with the strides
// of its physical layout (kda2.gmem). A rank-1 tile whose dimension has
// stride 1 is one vector access, aligned to what the static strides prove
// (16 bytes gives 128-bit ld/st); other tiles are gathered element-wise.
// Shared buffers are workgroup memrefs whose last dimension may be padded
// so that every access inside a `$bank_conflict_free` loop is conflict free
// (see `chooseSharedPadding`); register tiles are private allocas.
//
//===----------------------------------------------------------------------===//

#include "kda2/Conversion/Passes.h"
#include "kda2/Conversion/WgmmaLayout.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

#include <numeric>

namespace mlir::kda2 {
#define GEN_PASS_DEF_CONVERTKDA2TOGPUPASS
#include "kda2/Conversion/Passes.h.inc"
} // namespace mlir::kda2

using namespace mlir;
using namespace mlir::kda2;

namespace {

//===----------------------------------------------------------------------===//
// Helpers on types
//===----------------------------------------------------------------------===//

/// Signless version of an integer type (`ui8` -> `i8`); others unchanged.
/// Marks the scf.for of a `#pragma unroll` loop until unrollLoops().
static constexpr llvm::StringLiteral kUnrollAttr = "kda2_unroll";

/// Marks the inline-asm predicated global loads (predicatedLoad) for the
/// simulator.
static constexpr llvm::StringLiteral kPredicatedLoadAttr =
    "kda2_predicated_load";

/// Tensor-core products with at least this many k steps of 16 accumulate
/// in two independent chains.
static constexpr int64_t kSplitAccumulatorSteps = 4;

/// How an mma register tile's 16 x 8 blocks spread over the block's W warps
/// (`kda2.reg_alloc {mma, split}`): 16-row strips w, w + W, ... per warp;
/// the column range [w N/W, (w + 1) N/W) of every strip; or all of them in
/// every warp (a copy each).
enum class MmaSplit { Rows, Cols, None };

static MmaSplit mmaSplitOf(std::optional<StringRef> split) {
  if (split && *split == "cols")
    return MmaSplit::Cols;
  // "gather": split=none whose reductions go block by block (mmaGatherOffset).
  if (split && (*split == "none" || *split == "gather"))
    return MmaSplit::None;
  return MmaSplit::Rows;
}

/// The most iterations `#pragma unroll` copies (code size).
static constexpr int64_t kMaxUnroll = 1024;

/// The value of an index computed from constants by lowered arithmetic
/// (the extents of .tirx loops: `C * V / 128` with bound names).
static std::optional<int64_t> foldIndexConstant(Value value, int depth = 0) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return c;
  Operation *def = value.getDefiningOp();
  if (!def || depth > 32)
    return std::nullopt;
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return foldIndexConstant(def->getOperand(0), depth + 1);
  if (def->getNumOperands() != 2)
    return std::nullopt;
  std::optional<int64_t> l = foldIndexConstant(def->getOperand(0), depth + 1);
  std::optional<int64_t> r = foldIndexConstant(def->getOperand(1), depth + 1);
  if (!l || !r)
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case<arith::AddIOp>([&](auto) { return *l + *r; })
      .Case<arith::SubIOp>([&](auto) { return *l - *r; })
      .Case<arith::MulIOp>([&](auto) { return *l * *r; })
      .Case<arith::DivUIOp, arith::DivSIOp>([&](auto) -> std::optional<int64_t> {
        if (*r == 0)
          return std::nullopt;
        return *l / *r;
      })
      .Case<arith::RemUIOp, arith::RemSIOp>([&](auto) -> std::optional<int64_t> {
        if (*r == 0)
          return std::nullopt;
        return *l % *r;
      })
      .Case<arith::MinSIOp, arith::MinUIOp>([&](auto) { return std::min(*l, *r); })
      .Case<arith::MaxSIOp, arith::MaxUIOp>([&](auto) { return std::max(*l, *r); })
      .Default([](Operation *) { return std::nullopt; });
}

/// Whether `annotations` hold `#pragma <kind>`.
static bool holdsPragma(ArrayAttr annotations, PragmaKind kind) {
  return annotations && llvm::any_of(annotations, [&](Attribute a) {
           auto pragma = dyn_cast<PragmaAttr>(a);
           return pragma && pragma.getKind() == kind;
         });
}

/// Whether `loop` carries `#pragma <kind>`.
static bool hasPragma(LoopOp loop, PragmaKind kind) {
  return holdsPragma(loop.getAnnotationsAttr(), kind);
}

/// The last loop of `kernel` annotated with an `AttrT` and that annotation
/// (null, null: none).
template <typename AttrT>
static std::pair<AttrT, LoopOp> findLoopAnnotation(KernelOp kernel) {
  std::pair<AttrT, LoopOp> found;
  kernel.walk([&](LoopOp loop) {
    if (ArrayAttr annotations = loop.getAnnotationsAttr())
      for (Attribute a : annotations)
        if (auto attr = dyn_cast<AttrT>(a))
          found = {attr, loop};
  });
  return found;
}

/// Whether `#pragma <kind>` covers `op`: on its kernel or a loop around it.
static bool pragmaCovers(KernelOp kernel, Operation *op, PragmaKind kind) {
  if (holdsPragma(kernel.getPragmasAttr(), kind))
    return true;
  for (auto loop = op->getParentOfType<LoopOp>(); loop;
       loop = loop->getParentOfType<LoopOp>())
    if (hasPragma(loop, kind))
      return true;
  return false;
}

static Type signless(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    if (!integer.isSignless())
      return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

/// The lowered type of a kda2 value: tiles become vectors.
static Type lowerValueType(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return VectorType::get(tile.getShape(), signless(tile.getElementType()));
  return signless(type);
}

/// The element multiple a `padding_alignN` fallback pads a dimension to, or
/// 0 for the other fallbacks.
static int64_t paddingMultiple(CoalescedAccessAttr attr) {
  if (!attr.getFallback())
    return 0;
  switch (attr.getFallback().getValue()) {
  case CoalesceFallback::padding_align16:
    return 16;
  case CoalesceFallback::padding_align32:
    return 32;
  case CoalesceFallback::scalar:
    return 0;
  }
  return 0;
}

/// The metadata spelling of an element type.
static std::string dtypeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return name;
}

/// Number of bytes of one element.
static int64_t elementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

//===----------------------------------------------------------------------===//
// Barrier placement
//===----------------------------------------------------------------------===//

/// The shared and global tensors a piece of uniform code reads and writes.
/// Block barriers are placed by these sets rather than after every write: a
/// barrier goes before an op that touches a tensor written since the last
/// barrier, or writes one read since it. Each access carries who makes it:
/// 0 for "any thread", or the fragment layout of a tensor-core product that
/// writes (or reads as its accumulator) a whole tile, whose elements belong
/// to the same threads in every product of that shape — so an accumulating
/// product after another of the same shape needs no barrier in between.
struct SharedAccesses {
  llvm::MapVector<Value, int64_t> reads, writes;

  bool empty() const { return reads.empty() && writes.empty(); }
  void clear() {
    reads.clear();
    writes.clear();
  }
  static void note(llvm::MapVector<Value, int64_t> &set, Value tensor,
                   int64_t owner) {
    auto [it, inserted] = set.insert({tensor, owner});
    if (!inserted && it->second != owner)
      it->second = 0;
  }
  void merge(const SharedAccesses &other) {
    for (auto [tensor, owner] : other.reads)
      note(reads, tensor, owner);
    for (auto [tensor, owner] : other.writes)
      note(writes, tensor, owner);
  }
  /// Whether `next` may touch data these accesses left for other threads
  /// (read after write, write after write, write after read).
  bool conflictsWith(const SharedAccesses &next) const {
    auto clash = [](const llvm::MapVector<Value, int64_t> &earlier,
                    Value tensor, int64_t owner) {
      auto it = earlier.find(tensor);
      return it != earlier.end() && (owner == 0 || it->second != owner);
    };
    for (auto [tensor, owner] : next.reads)
      if (clash(writes, tensor, owner))
        return true;
    for (auto [tensor, owner] : next.writes)
      if (clash(writes, tensor, owner) || clash(reads, tensor, owner))
        return true;
    return false;
  }
};

//===----------------------------------------------------------------------===//
// Per-tensor lowering state
//===----------------------------------------------------------------------===//

/// Where a kda2 tensor lives after lowering and how to address it.
struct TensorInfo {
  enum class Kind { Global, Shared, Register } kind = Kind::Global;
  KDA2TensorType type;
  /// Global: the `!llvm.ptr<1>` parameter.
  Value ptr;
  /// Shared / register: the memref.
  Value memref;
  /// Global: element stride of each logical dimension (i64 values) and the
  /// static factor each stride is known to be a multiple of.
  SmallVector<Value> strides;
  SmallVector<int64_t> strideFactors;
  /// Global: static stride per logical dimension, when fully static.
  SmallVector<std::optional<int64_t>> staticStrides;
  /// Global: dimensions stored with their extent padded to a multiple of
  /// this many elements (`@coalesced_access ... else padding_alignN`).
  llvm::StringMap<int64_t> pitchPadding;
  /// Global, `packing(vnni4)`: the logical dimensions stored innermost (c)
  /// and next (r); element (r, c) of each r x c matrix sits at
  /// ((c / 4) * r_size + r) * 4 + c % 4.
  int64_t vnniInner = -1, vnniOuter = -1;
  /// vnni4: elements between consecutive groups of 4 along c (4 * r_size).
  Value vnniGroupStride;
  /// Shared, staged by `#pragma tma_pipeline`: the stage the current
  /// iteration uses (the buffer's leading dimension).
  Value stage;
  /// Global: runtime size of each logical dimension (index values).
  SmallVector<Value> sizes;
  /// Argument index in the kernel (global tensors).
  unsigned argIndex = 0;
  /// Register, `mma`: a block-wide [rows, cols] tile in the tensor-core
  /// accumulator layout (`fragmentSlot`); memref holds this thread's part.
  bool mma = false;
  int64_t rows = 0, cols = 0;
  /// How an mma tile's 16 x 8 blocks spread over the warps.
  MmaSplit split = MmaSplit::Rows;
};

//===----------------------------------------------------------------------===//
// Kernel lowering
//===----------------------------------------------------------------------===//

/// A `@shape_hint` specialization: the named dimension has this size.
/// The shared memory one block may hold on `chip` (the opt-in limit of
/// dynamic shared memory), in bytes; 0 for a chip not listed.
static int64_t maxSharedPerBlock(StringRef chip) {
  return chip.starts_with("sm_90")            ? 227 * 1024
         : chip == "sm_80"                    ? 163 * 1024
         : chip == "sm_86" || chip == "sm_89" ? 99 * 1024
                                              : 0;
}

/// A TMA tensor map: one per (global tensor, tile shape) copied with
/// `#pragma tma_coalesce`, passed by value as a 128-byte kernel parameter.
struct TmaMap {
  unsigned argIndex = 0;
  /// The tile's extent along each of the tensor's dimensions (0: indexed).
  SmallVector<int64_t> extents;
  /// The tensor's logical dimension of each map dimension and the box
  /// extent along it, innermost (physical) first.
  SmallVector<int64_t> mapDims, box;
  std::string name;
  unsigned param = 0;
  /// Swizzle span in bytes (0: none; 32, 64 or 128:
  /// CU_TENSOR_MAP_SWIZZLE_32B/64B/128B): the box is that many bytes wide and
  /// a tile row of W elements arrives as W * eb / span boxes.
  int64_t swizzle = 0;
};

struct Specialization {
  std::string dim;
  int64_t value = 0;
  /// Kernel name of the specialized copy: `<kernel>__<dim>_<value>`.
  std::string name;
};

class KernelLowering {
public:
  KernelLowering(KernelOp kernel, gpu::GPUModuleOp gpuModule, bool fastMath,
                 bool wgmma, StringRef chip,
                 const Specialization *specialization = nullptr,
                 ArrayRef<Specialization> variants = {})
      : kernel(kernel), gpuModule(gpuModule), fastMath(fastMath),
        wgmmaChip(chip == "sm_90a"), useWgmma(wgmma && wgmmaChip),
        hasL2Prefetch(chip.starts_with("sm_9") || chip.starts_with("sm_1")),
        hasGridDep(chip.starts_with("sm_9") || chip.starts_with("sm_1")),
        chip(chip.str()),
        specialization(specialization), variants(variants),
        b(kernel.getContext()) {}

  /// The name of the lowered kernel.
  std::string name() {
    return specialization ? specialization->name : kernel.getSymName().str();
  }

  LogicalResult run();

private:
  // Analysis before emission.
  LogicalResult analyze();
  LogicalResult chooseSharedPadding();
  std::string buildMetadata();

  // Barrier placement (see `SharedAccesses`).
  SharedAccesses accessesOf(Operation *op);
  void syncBefore(const SharedAccesses &next, Location loc);
  void emitBarrier(Location loc);
  /// `unorderedOutputs`: the back edge does not order stores to global
  /// tensors the body never reads (a producer warp's pipelined loop).
  LogicalResult lowerUniformBody(Block &body, Location loc, bool backEdge,
                                 bool unorderedOutputs = false);

  // Emission.
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerLoop(LoopOp loop);
  LogicalResult lowerIf(IfOp branch);
  bool placeLanesAcrossWarps(LoopOp loop);
  LogicalResult lowerLoad(LoadOp load);
  Value predicatedLoad(TensorInfo &info, ArrayRef<Value> indices, Value cond,
                       Location loc);
  Value readOrZero(Value cond, Type type, function_ref<Value()> read,
                   Location loc);
  void emitNextIterationPrefetch(LoopOp loop, Value iv, Value upper);
  LogicalResult lowerStore(StoreOp store);
  LogicalResult lowerReduce(ReduceOp reduce);
  LogicalResult checkTensorCoreMatmul(MatmulOp matmul);
  void checkTileCopy(StoreOp store);
  void planTmaCopies();
  void planTmaPipelines();
  /// Picks swizzledBuffers (after a first planTmaCopies).
  void chooseSwizzledBuffers();
  /// The flat (1-D memref, element index) of logical element (row, col) of
  /// a swizzled buffer, `prefix` its stage index when staged.
  std::pair<Value, Value> swizzledElement(Value memref, ArrayRef<Value> prefix,
                                          Value row, Value col, Location loc);
  /// Unrolls the loops of `#pragma unroll` (innermost first).
  LogicalResult unrollLoops();
  void issueTmaCopies(ArrayRef<StoreOp> group, Value barrierIndex,
                      bool barrier = true, ArrayRef<WaitOp> waits = {});
  /// Waits for mbarrier `barrierIndex`'s current phase; a dynamic index is
  /// one of [first, first + count) (default: the full barriers [0, S]).
  void waitTma(Value barrierIndex, int64_t first = 0, int64_t count = 0);
  /// Every thread waits until mbarrier `bar` completes the phase of parity
  /// `parity` (i32, 0 or 1).
  void tryWaitParity(Value bar, Value parity, Location loc);
  /// Whether the threads keep their phase parities as the bits of one
  /// 32-bit word (a bit per mbarrier) rather than a word each: in loops
  /// with a producer warp, whose computing warps pick the stage's parity
  /// among 1 + S barriers each iteration. (The one-warp scans, which issue
  /// their own copies at 80 registers, spilled 8 bytes with the word.)
  bool phaseBits() const {
    return producerLoop && tmaBarrierCount <= 32;
  }
  LogicalResult lowerPipelinedLoop(LoopOp loop, Value upper);
  /// kda2.signal and kda2.wait (docs/Dialect.md, ready flags).
  LogicalResult lowerSignal(SignalOp signal);
  LogicalResult requireUniform(Operation *op);
  LogicalResult lowerWait(WaitOp wait);
  /// `griddepcontrol` (programmatic dependent launch) where the chip has
  /// it, nothing before sm_90.
  void gridDepControl(NVVM::GridDepActionKind kind, Location loc);
  /// Spins until the flag `wait` names is set (acquire, GPU scope), then
  /// orders the async proxy (TMA) after it; the calling thread only.
  void spinOnFlag(WaitOp wait);
  /// Issues iteration `at`'s copies of pipelined `loop` into `stage`.
  LogicalResult issuePipelineCopies(LoopOp loop, Value at, Value stage,
                                    bool barrier);
  /// Checks `@producer_warp` on pipelined `loop`; fills producerSlice.
  LogicalResult planProducer(LoopOp loop);
  /// The ops outside pipelined `loop` that code run by other threads than
  /// the block's computing ones needs to evaluate `roots` (pure ops and
  /// scalar reads of read-only inputs), into `slice`; otherwise the op that
  /// stops it.
  Operation *sliceFor(LoopOp loop, SmallVector<Value> roots,
                      DenseSet<Operation *> &slice);
  /// The producer warp's code: the slice in `block`, down to producerLoop.
  LogicalResult lowerProducer(Block &block);
  /// Checks a `schedule.ahead` loop (in producerLoop's body) and plans its
  /// threads' code: aheadStaged, aheadChain, aheadSlice.
  LogicalResult planAhead();
  /// The code of the threads that run producerLoop's ahead body: the block
  /// loops and `slice` in `block` (as lowerProducer), then `atLoop` in
  /// place of producerLoop.
  LogicalResult lowerSide(Block &block, const DenseSet<Operation *> &slice,
                          function_ref<LogicalResult()> atLoop);
  /// The ahead group's walk of producerLoop: each iteration's ahead body,
  /// into its stage once the block's computing threads are done with it.
  LogicalResult lowerAheadLoop();
  /// Waits (in the calling thread) until the computing threads are done
  /// with the stage iteration `i` of producerLoop refills (iteration
  /// i - S arrived on its empty mbarrier), when i >= S.
  void waitStageEmpty(Value i, Value stage, Location loc);
  /// waitStageEmpty on the empty barriers from `base` (iteration i - S's
  /// arrivals on barrier base + stage), for iterations i >= S.
  void waitEmpty(int64_t base, Value i, Value stage, Location loc);
  /// A loop over producerLoop's iterations i, the insertion point in its
  /// body: (i, stage i mod S). The caller waits for what it needs free.
  std::pair<Value, Value> walkStages(Location loc);
  /// A barrier of the block's computing threads (with a producer warp: a
  /// named barrier leaving it out, or a warp barrier when one warp computes).
  void blockBarrier(Location loc);
  /// What the two lowerings of a whole-tile copy share: the tile, both
  /// sides, their access prefixes and the tile's element and rows.
  struct TileCopy {
    RankedTensorType tile;
    TensorInfo *src, *dst;
    SmallVector<Value> srcPrefix, dstPrefix;
    Type element;
    int64_t eb, rank, cols, rows;
  };
  TileCopy tileCopyOf(StoreOp store, LoadOp load);
  /// The coordinates in `tile` of piece `piece` of `vec` elements (rows of
  /// cols / vec pieces, the row number split over the leading dimensions).
  SmallVector<Value> pieceCoords(Value piece, RankedTensorType tile,
                                 int64_t vec, Location loc);
  LogicalResult lowerTileCopy(StoreOp store, LoadOp load);
  LogicalResult lowerWindowCopy(StoreOp store, LoadOp load);
  /// The extent of a whole-tile load's tile along each dimension of its
  /// source (0 along the grid's and the indexed ones): the trailing
  /// dimensions, and a windowed load's windows.
  SmallVector<int64_t> tileExtents(LoadOp load);
  LogicalResult lowerTmaCopy(StoreOp store);
  /// A TMA copy of a bounded window (`kda2.load` with limits), after its
  /// wait: clears what lies at or past a limit (see the definition).
  void clearPastLimits(StoreOp store);
  /// The window starts of a windowed load along its source's dimensions
  /// (current mapping) with their limits, in window order.
  SmallVector<std::tuple<int64_t, Value, Value>> windowLimits(LoadOp load);
  Value sharedPointer(Value memref, ArrayRef<Value> indices, Location loc);
  LogicalResult lowerMatmul(MatmulOp matmul);
  /// Whether a product in fragment mode runs as wgmma (`useWgmma`): see
  /// lowerWgmma.
  bool wgmmaApplies(MatmulOp matmul, Value aTile, LoadOp aLoad, LoadOp bLoad,
                    Value accTile, Value destTile);
  /// The product as warpgroup wgmma instructions (m64nNk16), four warps
  /// per 64 rows of the result.
  void lowerWgmma(MatmulOp matmul, Value aTile, LoadOp aLoad, LoadOp bLoad,
                  Value accTile, Value destTile);
  /// wgmma products issued and not yet waited for: the register tile each
  /// writes and its accumulator values (outputs of the last wgmma).
  struct PendingWgmma {
    Value tile;
    SmallVector<Value> acc;
  };
  SmallVector<PendingWgmma> pendingWgmma;
  /// Waits for the pending wgmma products (one commit and wait) and stores
  /// their accumulators into their tiles.
  void flushWgmma(Location loc);
  /// Inline PTX (with side effects) whose outputs are the `tied` values
  /// passed through it — every use of them follows it, every write of them
  /// precedes it — plus `inputs` under `inputConstraints`.
  std::pair<LLVM::InlineAsmOp, SmallVector<Value>>
  tiedAsm(StringRef text, ArrayRef<Value> tied, ArrayRef<Value> inputs,
          StringRef inputConstraints, Location loc);
  /// Whether lowering `op` neither emits code nor touches registers or
  /// shared memory that a pending wgmma uses (a product's operand loads,
  /// conversions and result store; pure scalar arithmetic).
  bool isWgmmaNeutral(Operation *op);
  bool leavesWgmmaPending(Operation *op) {
    return pendingWgmma.empty() || isa<MatmulOp>(op) || isWgmmaNeutral(op);
  }
  /// The operands of a product that runs as wgmma, or nothing.
  struct WgmmaOperands {
    Value aTile, accTile, destTile;
    LoadOp aLoad, bLoad;
  };
  std::optional<WgmmaOperands> wgmmaOperandsOf(MatmulOp matmul);
  /// A register left operand's wgmma registers: its strip's column blocks
  /// converted pairwise to `elt`, four 32-bit words per k step.
  SmallVector<Value> wgmmaARegs(Value aTile, Type elt, int64_t kSteps,
                                Location loc);
  /// The register left operands (tile, operand type) of the products that
  /// will join a batch starting at `first`: converted at the batch's start,
  /// before any of its products is issued (ptxas waits for every pending
  /// wgmma before an instruction reads a register a wgmma wrote, so a
  /// conversion between two issues would serialise them).
  SmallVector<std::tuple<Value, Type, int64_t>>
  batchOperands(MatmulOp first, Value firstDest);
  /// The current batch's converted register operands, by (tile, type):
  /// one conversion per tile and type however many products read it.
  DenseMap<std::pair<Value, Type>, SmallVector<Value>> batchARegs;
  /// The 64-bit wgmma matrix descriptor of a swizzled shared operand
  /// (`load`'s whole tile, its stage) at byte `offset` into the tile; its
  /// contiguous dimension is k (K-major) or m / n (MN-major).
  Value wgmmaDescriptor(LoadOp load, bool kMajor, Value offset, Location loc);
  Value stageBytes(MemRefType type, ArrayRef<Value> prefix, Value init,
                   Location loc);
  LogicalResult lowerElementwise(Operation *op);
  LogicalResult lowerFragmentLoop(LoopOp loop);
  LogicalResult checkMmaSplit(Operation *op, StringRef what, MmaSplit split,
                              int64_t rows,
                              int64_t cols);
  FailureOr<Value> fragmentAccess(Operation *op, const TensorInfo &info,
                                  ValueRange indices);
  /// The element (row, col) of an mma tile that slot `slot` of this thread
  /// holds: warp w's strips w, w + W, ..., each lane two rows and two
  /// columns of every 16 x 8 block (the mma.sync accumulator layout).
  std::pair<Value, Value> fragmentElement(const TensorInfo &info,
                                          int64_t slot, Location loc);
  /// Slot of element (row in strip i, col block j, half h, element e).
  /// Strip i and column block j are this thread's (local) ones.
  int64_t fragmentSlot(const TensorInfo &info, int64_t i, int64_t j,
                       int64_t h, int64_t e) const {
    return ((i * localColBlocks(info) + j) * 2 + h) * 2 + e;
  }
  /// Warps that share an mma tile's blocks (1: every warp has them all).
  int64_t splitWarps(MmaSplit split) const {
    return split == MmaSplit::None ? 1 : blockX / 32;
  }
  /// The 16-row strips and 8-column blocks of an mma tile one warp holds.
  int64_t localStrips(const TensorInfo &info) const {
    return info.rows / 16 / (info.split == MmaSplit::Rows ? blockX / 32 : 1);
  }
  int64_t localColBlocks(const TensorInfo &info) const {
    return info.cols / 8 / (info.split == MmaSplit::Cols ? blockX / 32 : 1);
  }
  /// First row and column of this warp's local block (i, j) of an mma tile.
  /// Whether this thread's warp is warp `w` (on 32 bits: one compare, not
  /// the index's two halves); `warp` is threadId / 32.
  Value isWarp(Value warp, int64_t w, Location loc) {
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::IndexCastOp::create(b, loc, b.getI32Type(), warp),
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(w))));
  }
  std::pair<Value, Value> blockOrigin(const TensorInfo &info, int64_t i,
                                      int64_t j, Location loc);
  /// The mma register tile a tensor-core operand, accumulator or result
  /// reaches (through a whole-tile load, and a conversion for `a`), or null.
  Value mmaTileOf(Value operand);
  /// The whole-tile load of a shared operand of a tensor-core product,
  /// through the fused widening of a TF32 operand's 16-bit tile.
  LoadOp sharedOperandLoad(Value operand) {
    if (auto widen = operand.getDefiningOp<CastOp>();
        widen && fusedCasts.contains(widen))
      operand = widen.getInput();
    return operand.getDefiningOp<LoadOp>();
  }

  // Addressing.
  SmallVector<Value> accessIndices(Value tensor, ValueRange explicitIndices);
  Value globalOffset(TensorInfo &info, ArrayRef<Value> indices, Location loc);
  unsigned globalAlignment(TensorInfo &info, unsigned numIndexed,
                           int64_t blockElements = 0);
  Value inBoundsCondition(TensorInfo &info, ValueRange explicitIndices,
                          unsigned gridRank, Location loc);
  Value loadElement(TensorInfo &info, ArrayRef<Value> indices, Location loc);
  void storeElement(TensorInfo &info, ArrayRef<Value> indices, Value value,
                    Location loc);
  std::pair<Value, int64_t> tileRange(TensorInfo &info, RankedTensorType tile,
                                      Location loc);
  Value loadTile(TensorInfo &info, ArrayRef<Value> prefix,
                 RankedTensorType tile, Location loc);
  void storeTile(TensorInfo &info, ArrayRef<Value> prefix, Value vector,
                 RankedTensorType tile, Location loc);
  Value elementPointer(TensorInfo &info, ArrayRef<Value> indices,
                       Location loc);

  // Values.
  Value lookup(Value v) { return map.lookup(v); }
  /// True when a rank-1 tile of `type` is split over the current lanes.
  bool isDistributed(Type type) {
    auto tile = dyn_cast<RankedTensorType>(type);
    return lanes > 1 && tile && tile.getRank() == 1 &&
           tile.getDimSize(0) % lanes == 0;
  }
  /// The lowered type of a kda2 value in the current context: tiles become
  /// vectors, holding this lane's block when the tile is distributed.
  Type lowerType(Type type) {
    if (isDistributed(type)) {
      auto tile = cast<RankedTensorType>(type);
      return VectorType::get({tile.getDimSize(0) / lanes},
                             signless(tile.getElementType()));
    }
    return lowerValueType(type);
  }
  Value broadcastTo(Value v, Type type, Location loc);
  Value constantIndex(int64_t v, Location loc) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value constantI64(int64_t v, Location loc) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value toI64(Value index, Location loc) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  }
  arith::FastMathFlagsAttr fmf() {
    return arith::FastMathFlagsAttr::get(
        b.getContext(),
        fastMath ? arith::FastMathFlags::fast : arith::FastMathFlags::none);
  }
  Value combine(ReduceKind kind, Value lhs, Value rhs, Location loc);
  Value splat(double value, Type type, Location loc);
  Value fastExp(Value x, Location loc);
  Value fastExp2(Value x, Location loc);
  FailureOr<Value> distribute(Value tile, Value lane, int64_t perLane,
                              Location loc);
  void storePendingPartials(Location loc);
  Value warpReduce(ReduceKind kind, Value partial, Location loc,
                   int64_t width = 32);
  Value lanesReduce(ReduceKind kind, Value partial, Location loc);

  KernelOp kernel;
  gpu::GPUModuleOp gpuModule;
  bool fastMath;
  /// Whether the chip has wgmma (sm_90a), and whether every eligible
  /// tensor-core product runs as wgmma (the pass's option on that chip;
  /// otherwise those under `#pragma wgmma`).
  bool wgmmaChip;
  bool useWgmma;
  /// Whether the target has `prefetch.global.L2` (LLVM 22's NVPTX back end
  /// selects it from sm_90 on).
  bool hasL2Prefetch;
  /// Whether the target has programmatic dependent launch
  /// (`griddepcontrol`) and the async proxy (TMA, `fence.proxy.async`):
  /// sm_90 on.
  bool hasGridDep;
  std::string chip;
  /// Ready flags (kda2.signal, kda2.wait) in the kernel.
  bool signals = false, waits = false;
  /// kda2.wait_prior in the kernel: launched as a programmatic dependent.
  bool waitsPrior = false;
  /// `#pragma grid_first`: the block loops' index, remapped so that the
  /// grid coordinates vary fastest in dispatch order (null: blockIdx.x).
  Value blockXIndex;
  /// `#pragma grid_first` on the kernel's block loop.
  bool gridFirst = false;
  /// `@persistent(n)`, n > 0: the block loop whose blocks walk the work
  /// items (null: none), and n.
  LoopOp persistentLoop;
  int64_t persistentBlocks = 0;
  /// Sets gridIndices and gridIndexByName from `linear`, the grid instance
  /// in row-major order over the kernel's grid dimensions.
  void setGridIndices(Value linear, Location loc);
  /// The product of the grid dimensions' sizes (1 without a grid).
  Value gridInstances(Location loc);
  /// A `@persistent` block loop: each block walks its work items.
  LogicalResult lowerPersistentLoop(LoopOp loop, Value upper);
  /// Set when lowering a `@shape_hint` copy of the kernel.
  const Specialization *specialization;
  /// The specialized copies of this (generic) kernel, listed in its
  /// metadata for the runtime's dispatch.
  ArrayRef<Specialization> variants;
  OpBuilder b;
  gpu::GPUFuncOp func;
  IRMapping map;

  DenseMap<Value, TensorInfo> tensors;
  SmallVector<std::string> dimNames;
  llvm::StringMap<Value> dimIndex; // runtime size as index
  DenseMap<Value, int64_t> sharedPadding;
  DenseMap<unsigned, Layout> argLayouts;
  DenseSet<unsigned> vnni4Args;
  /// Counter slots in walk order: name and whether the slot holds an f64.
  SmallVector<std::pair<std::string, bool>> counterNames;
  DenseMap<Operation *, unsigned> counterSlots;
  SmallVector<int64_t> gridXStatic;
  SmallVector<std::string> gridXDims;
  int64_t blockX = 1;
  bool usesShared = false;

  // Emission state.
  Value threadId, laneId;
  /// Lanes sharing the current thread-loop iteration, and this lane's part.
  int64_t lanes = 1;
  Value lanePart;
  /// Whether the lanes of an iteration sit in different warps (extent a
  /// multiple of 32: warp w holds part w / (extent/32) of 32 consecutive
  /// iterations, so each warp's accesses cover whole rows), the iteration's
  /// index within the loop, and the shared scratch for their reductions.
  bool lanesAcrossWarps = false;
  int64_t laneExtent = 0;
  Value laneIv;
  Value reductionScratch;
  int64_t scratchElements = 0;
  /// Register tiles accessed inside a `lanes(P)` loop hold only 1/P.
  DenseMap<Value, int64_t> regLanes;
  SmallVector<Value> gridIndices;
  llvm::StringMap<Value> gridIndexByName;
  Value countersPtr;
  unsigned threadDepth = 0;
  SmallVector<bool> warpReduceStack;
  /// Number of enclosing loops (or the kernel) marked `#pragma l2_prefetch`.
  int l2PrefetchDepth = 0;
  /// Global tensors (argument index) whose named dimensions are stored
  /// padded, from `@coalesced_access ... else padding_alignN`.
  DenseMap<unsigned, llvm::StringMap<int64_t>> argPadding;
  /// Tensor-core matmuls: the loads of their operand tiles (never
  /// materialised per thread: fragments come from `ldmatrix`), the store of
  /// each result (written fragment by fragment), and the shared buffers
  /// read with `ldmatrix` (rows must stay 16-byte aligned).
  DenseSet<Operation *> fragmentLoads;
  DenseMap<Operation *, StoreOp> matmulStores;
  DenseSet<Operation *> fusedStores;
  DenseSet<Operation *> fusedCasts;
  /// Fragment loops: the row and column values (r = i / N, c = i % N) of
  /// the loop being lowered and the slot of its current copy.
  Value fragmentRow, fragmentCol;
  int64_t currentFragmentSlot = -1, fragmentRows = 0, fragmentCols = 0;
  MmaSplit fragmentSplit = MmaSplit::Rows;
  /// Tensor-core products whose left operand is a split=cols mma tile: the
  /// warps' partial sums meet in `mmaScratch`, two halves of
  /// `mmaScratchHalf` floats used in turn by the reductions (`mmaToggle`
  /// holds which), each product at its offset in the half. A product
  /// right after another, independent of it, shares its reduction
  /// (`mergedPartner`: first -> second): both partials, one barrier, both
  /// sums. `reducePhase` 1 / 2 lowers only the partials / the sums.
  llvm::SetVector<Operation *> reducingMatmuls;
  DenseMap<Operation *, int64_t> mmaScratchOffset;
  DenseMap<Operation *, Operation *> mergedPartner;
  DenseSet<Operation *> mergedSecond;
  /// Those of them whose result is a split=none tile (every warp holds it
  /// whole): reduced by blocks (warp w sums the blocks b = w mod W of the
  /// result, after the partials' barrier) into `mmaGather` at the scratch's
  /// end (at this offset), from where, after a second barrier, every warp
  /// loads all of it: each warp adds 1/W of the partials instead of all.
  DenseMap<Operation *, int64_t> mmaGatherOffset;
  int64_t mmaScratchElements = 0, mmaScratchHalf = 0, mmaGatherElements = 0;
  /// The scratch is a view into dynamic shared memory, after the buffers
  /// (more than static shared memory holds), not a static attribution.
  bool mmaScratchDynamic = false;
  Value mmaScratch, mmaToggle, mmaEventBase;
  int reducePhase = 0;
  /// A reducing product's own partial sums, by 16 x 8 block (i·N/8 + j),
  /// from its partials phase to its sums phase.
  DenseMap<Operation *, SmallVector<Value>> ownPartials;
  /// The partials phase's scratch stores (value, index), emitted after all
  /// of its products: a shared store between two products' operand loads
  /// would keep ptxas from issuing a later load before it (it cannot tell
  /// the scratch from the tiles), so every block's ldmatrix, mma and store
  /// would run back to back.
  struct PartialStore {
    Value value, index;
  };
  SmallVector<PartialStore> pendingPartials;
  /// Tensor-core products that touch no mma register tile.
  int64_t plainMatmuls = 0;
  DenseSet<Value> ldmatrixBuffers;
  /// Shared buffers written or read fragment-wise as an accumulator.
  DenseSet<Value> accumulatorBuffers;
  /// Whole-tile copies in uniform code (`store(load)` between global and
  /// shared memory): the whole block copies, 16 bytes per access.
  DenseMap<Operation *, LoadOp> tileCopies;
  DenseSet<Operation *> copyLoads;
  /// Copies global -> shared done by the tensor memory accelerator, and
  /// their maps; the shared mbarrier they complete on and this thread's
  /// view of its phase.
  DenseMap<Operation *, unsigned> tmaCopies;
  SmallVector<TmaMap> tmaMaps;
  DenseSet<Value> tmaBuffers;
  /// TMA destinations read only by tensor-core products, stored swizzled
  /// (chooseSwizzledBuffers), with their swizzle span S in bytes (32, 64 or
  /// 128): physical memref [pieces, R, S / eb] of a logical [R, W] tile,
  /// 1024-byte aligned.
  DenseMap<Value, int64_t> swizzledBuffers;
  DenseSet<Operation *> tmaGrouped;
  /// Block copies lowered with the TMA copies before them (issued between
  /// those copies and their wait): skipped where they stand.
  DenseSet<Operation *> loweredEarly;
  /// `#pragma tma_pipeline` loops: their TMA copies (issued one iteration
  /// ahead into the other of two buffer stages) and the index computations
  /// in the loop body those copies need (re-evaluated for the next
  /// iteration).
  DenseMap<Operation *, SmallVector<StoreOp>> pipelinedLoops;
  DenseMap<Operation *, SmallVector<Operation *>> pipelineChains;
  /// The ready flags a pipelined loop's copies wait for (kda2.wait at the
  /// top level of its body), waited for by the thread issuing them.
  DenseMap<Operation *, SmallVector<WaitOp>> pipelineWaits;
  DenseSet<Operation *> pipelinedWaits;
  DenseSet<Operation *> pipelinedCopies;
  DenseSet<Value> stagedBuffers;
  /// mbarriers: [0] for copies that wait in place, [1, S] for the S stages
  /// of pipelined copies (full), and with a producer warp [S + 1, 2 S] for
  /// the same stages (empty: the block's threads are done with them).
  int64_t tmaBarrierCount = 1;
  /// `@producer_warp`: the pipelined loop whose copies the block's extra
  /// warp issues (null: none), and the ops outside the loop that warp
  /// evaluates first (its trip count and the copies' indices).
  LoopOp producerLoop;
  DenseSet<Operation *> producerSlice;
  /// The copies are issued by the thread running this code (the producer's),
  /// not by thread 0 of the block.
  bool tmaSingleThread = false;
  /// Threads of the launched block: blockX computing, plus the producer's
  /// warp.
  int64_t launchThreads() const {
    return producerThread() + (producerLoop ? (groupRegisters ? 128 : 32) : 0);
  }
  /// `@warpgroup_registers` on producerLoop (null: none): the producer is a
  /// whole warpgroup and each group sets its registers per thread.
  WarpgroupRegistersAttr groupRegisters;
  /// The registers per thread every thread starts with (`.maxnreg`, with
  /// groupRegisters): the register file divided by the launch's threads.
  int64_t launchRegisters() const {
    return std::min<int64_t>(255, 65536 / launchThreads()) / 8 * 8;
  }
  /// Checks groupRegisters against the block's groups.
  LogicalResult checkGroupRegisters();
  /// `setmaxnreg` to `count` registers per thread in the current group's
  /// code (nothing for 0 or the launch's count).
  void setGroupRegisters(int64_t count, Location loc);
  /// The producer warp's first thread: after the computing threads and the
  /// ahead group's.
  int64_t producerThread() const { return blockX * (aheadLoop ? 2 : 1); }
  /// `schedule.ahead(1)` in producerLoop's body (null: none): its body runs
  /// on a second group of blockX threads, up to S iterations ahead of the
  /// computing threads, which read what it writes to shared memory from
  /// the pipeline's stages (full mbarriers: one arrival per ahead thread
  /// beside the copies' bytes).
  LoopOp aheadLoop;
  /// Shared buffers the ahead body writes and other code of the loop reads
  /// (staged), the ops of the loop body before it whose values it uses
  /// (re-evaluated by its threads, in order), and the ops outside the loop
  /// it needs.
  SmallVector<Value> aheadStaged;
  SmallVector<Operation *> aheadChain;
  DenseSet<Operation *> aheadSlice;
  /// TMA copies at the top level of the ahead body (its inputs), issued by
  /// the producer warp into stages of their own buffers (aheadInputs) on
  /// full mbarriers [1 + 2 S, 1 + 3 S); the ahead body's index arithmetic
  /// they need (aheadCopyChain).
  SmallVector<StoreOp> aheadCopies;
  SmallVector<Value> aheadInputs;
  SmallVector<Operation *> aheadCopyChain;
  int64_t aheadBarrierBase() const { return 1 + 2 * pipelineStages; }
  /// The ahead inputs' empty mbarriers [1 + 3 S, 1 + 4 S): each ahead
  /// thread arrives once it is done with the stage's tiles, and the producer
  /// warp waits for all of them before it copies into the stage again.
  int64_t aheadEmptyBase() const { return 1 + 3 * pipelineStages; }
  /// At the top of iteration i of a pipelined loop whose computing threads
  /// issue its copies: the threads meet (done with the stage iteration
  /// i - 1 read), then `issue(i + S - 1, its stage)` if i + S - 1 < upper.
  LogicalResult refillStage(Value i, Value upper, Location loc,
                            function_ref<LogicalResult(Value, Value)> issue);
  /// Issues the ahead copies of iteration `at` of producerLoop into `stage`.
  LogicalResult issueAheadCopies(Value at, Value stage, Location loc);
  /// The named barrier of the threads whose code is being lowered (with a
  /// producer warp: 1, the computing threads; 2, the ahead group).
  int barrierId = 1;
  /// Buffer stages of the pipelined copies (`@pipeline_stages`, default 2;
  /// the largest of the kernel's pipelined loops).
  int64_t pipelineStages = 2;
  /// Bytes of dynamic shared memory (the buffers, when they exceed the 48 KB
  /// a kernel may declare statically).
  int64_t dynamicSharedBytes = 0;
  Value tmaBarrier, tmaPhase;
  SmallVector<Value> tmaDescriptors;
  /// Accesses of the uniform code lowered since the last block barrier.
  SharedAccesses pending;
};

} // namespace

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::analyze() {
  // Named dynamic dimensions become size parameters, in order of first use.
  for (Type type : kernel.getArgumentTypes())
    if (auto tensor = dyn_cast<KDA2TensorType>(type))
      for (unsigned d = 0; d < tensor.getRank(); ++d) {
        StringRef name = tensor.getDimName(d);
        if (!name.empty() && !llvm::is_contained(dimNames, name))
          dimNames.push_back(name.str());
        if (name.empty() && ShapedType::isDynamic(tensor.getShape()[d]))
          return kernel.emitOpError()
                 << "anonymous dynamic dimension '?' cannot be lowered; "
                    "name it so its size becomes a kernel parameter";
      }

  Block &body = kernel.getBody().front();
  for (Operation &op : body)
    if (auto gmem = dyn_cast<GmemOp>(op))
      for (Value t : gmem.getTensors())
      {
        unsigned index = cast<BlockArgument>(t).getArgNumber();
        argLayouts[index] = gmem.getLayout();
        if (gmem.getPacking() == Packing::vnni4)
          vnni4Args.insert(index);
      }

  WalkResult result = kernel.walk([&](Operation *op) -> WalkResult {
    if (auto loop = dyn_cast<LoopOp>(op)) {
      bool topLevel = loop->getParentOp() == kernel.getOperation();
      switch (loop.getMapping()) {
      case LoopMapping::block: {
        if (!topLevel)
          return loop.emitOpError()
                 << "GPU lowering supports block loops only at the top level "
                    "of a kernel";
        if (auto c = getConstantIntValue(loop.getUpperBound()))
          gridXStatic.push_back(*c);
        else if (auto dim = loop.getUpperBound().getDefiningOp<DimOp>())
          gridXDims.push_back(dim.getName().str());
        else
          return loop.emitOpError()
                 << "block loop extent must be a constant or a named "
                    "dimension";
        break;
      }
      case LoopMapping::thread: {
        for (auto p = loop->getParentOfType<LoopOp>(); p;
             p = p->getParentOfType<LoopOp>())
          if (p.getMapping() == LoopMapping::thread)
            return loop.emitOpError()
                   << "GPU lowering does not support nested thread loops yet";
        std::optional<int64_t> c = getConstantIntValue(loop.getUpperBound());
        if (!c)
          return loop.emitOpError()
                 << "thread loop extent must be a constant for the GPU "
                    "lowering";
        int64_t threads = *c * loop.getLanesPerIteration();
        if (threads > 1024)
          return loop.emitOpError()
                 << "thread loop needs " << threads
                 << " threads, more than 1024 per block";
        blockX = std::max(blockX, threads);
        if (loop.getLanesPerIteration() > 1)
          loop.walk([&](Operation *inner) {
            Value tensor;
            if (auto load = dyn_cast<LoadOp>(inner))
              tensor = load.getSource();
            else if (auto store = dyn_cast<StoreOp>(inner))
              tensor = store.getDest();
            if (tensor && tensor.getDefiningOp<RegAllocOp>())
              regLanes[tensor] = loop.getLanesPerIteration();
          });
        break;
      }
      case LoopMapping::warp:
        return loop.emitOpError()
               << "GPU lowering does not support warp loops yet";
      case LoopMapping::serial:
      case LoopMapping::fragment:
      case LoopMapping::ahead:
        break;
      }
      return WalkResult::advance();
    }
    if (auto counter = dyn_cast<CounterOp>(op)) {
      counterSlots[op] = counterNames.size();
      counterNames.push_back({counter.getName().str(),
                              isa<FloatType>(counter.getValue().getType())});
    }
    if (auto matmul = dyn_cast<MatmulOp>(op))
      if (failed(checkTensorCoreMatmul(matmul)))
        return WalkResult::interrupt();
    if (auto store = dyn_cast<StoreOp>(op))
      checkTileCopy(store);
    if (isa<TriSolveOp>(op))
      return op->emitOpError()
             << "is not supported by the GPU lowering yet (write the "
                "substitution as loops over a shared buffer)";
    for (Type type : op->getResultTypes())
      if (auto tile = dyn_cast<RankedTensorType>(type))
        if (!tile.hasStaticShape())
          return op->emitOpError()
                 << "produces the dynamic tile " << tile
                 << "; bind its feature dimension to a size first "
                    "(kda2-translate --import-tirx --tirx-bind=<dim>=<n>)";
    if (isa<SmemAllocOp>(op))
      usesShared = true;
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  // Resource limit: a tile a thread holds becomes that many registers (and
  // that many operations when it is gathered element by element); beyond
  // kMaxThreadTile elements compilation would crawl and the kernel spill.
  // Tiles the block moves or multiplies collectively are exempt.
  constexpr int64_t kMaxThreadTile = 4096;
  WalkResult tooBig = kernel.walk([&](Operation *op) -> WalkResult {
    if (fragmentLoads.contains(op) || copyLoads.contains(op) ||
        matmulStores.count(op) || fusedCasts.contains(op))
      return WalkResult::advance();
    if (auto alloc = dyn_cast<RegAllocOp>(op); alloc && alloc.getMma())
      return WalkResult::advance(); // spread over the block's threads
    for (Type type : op->getResultTypes()) {
      int64_t elements = 0;
      if (auto tile = dyn_cast<RankedTensorType>(type))
        elements = tile.getNumElements();
      else if (auto reg = dyn_cast<KDA2TensorType>(type);
               reg && reg.getMemorySpace() == MemorySpace::reg &&
               reg.hasStaticShape()) {
        uint64_t count = 1;
        for (int64_t d : reg.getShape())
          count = llvm::SaturatingMultiply(count, uint64_t(d));
        elements = int64_t(std::min<uint64_t>(count, INT64_MAX));
      }
      if (elements > kMaxThreadTile) {
        op->emitOpError()
            << "makes each thread hold a tile of " << elements
            << " elements (the limit is " << kMaxThreadTile
            << "): split it over lanes (schedule.thread(n, P)), stage it in "
               "shared memory, or multiply it on tensor cores";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (tooBig.wasInterrupted())
    return failure();
  // Whole warps: uniform warp reductions need every lane. Tensor-core
  // matmuls use at least four warps; a kernel whose products all keep their
  // tiles in mma registers uses one warp per 16-row strip of its smallest
  // such tile (up to four).
  // (split=cols: one warp per 8-column block; split=none does not count.)
  int64_t mmaWarps = 0;
  kernel.walk([&](RegAllocOp alloc) {
    MmaSplit split = mmaSplitOf(alloc.getSplit());
    if (!alloc.getMma() || split == MmaSplit::None)
      return;
    ArrayRef<int64_t> shape = cast<KDA2TensorType>(alloc.getType()).getShape();
    int64_t units = std::max<int64_t>(
        1, split == MmaSplit::Rows ? shape[0] / 16 : shape[1] / 8);
    mmaWarps = mmaWarps ? std::min(mmaWarps, units) : units;
  });
  // `@mma_warps(n)` on the block loop: n computing warps instead.
  auto [warpsAttr, warpsLoop] = findLoopAnnotation<MmaWarpsAttr>(kernel);
  if (warpsAttr && (plainMatmuls || !mmaWarps))
    return warpsLoop->emitOpError()
           << "'@mma_warps' applies to kernels whose tensor-core products "
              "keep their tiles in split mma registers (REG {layout=mma})";
  if (plainMatmuls)
    blockX = std::max<int64_t>(blockX, 128);
  else if (warpsAttr)
    blockX = std::max<int64_t>(blockX, 32 * warpsAttr.getWarps());
  else if (mmaWarps || !matmulStores.empty())
    blockX = std::max<int64_t>(
        blockX, 32 * std::min<int64_t>(4, std::max<int64_t>(mmaWarps, 1)));
  blockX = llvm::alignTo(blockX, 32);
  if (warpsAttr && blockX != 32 * warpsAttr.getWarps())
    return warpsLoop->emitOpError()
           << "'@mma_warps(" << warpsAttr.getWarps() << ")' gives the block "
           << 32 * warpsAttr.getWarps() << " threads, but its thread loops "
           << "need " << blockX;
  // Shared scratch for the partial sums of products that contract over a
  // split=cols tile: W partial [m, n] results each (none with one warp).
  // Each reduction (one product, or two that share it) writes its partials
  // into the half of the scratch the previous one did not use, waits at one
  // barrier and reads them back: the next writes to that half come after
  // the next reduction's barrier, which every warp reaches only when done
  // reading, so no barrier follows the reads (the block's computing warps
  // all run the same reductions: products are in uniform code).
  if (blockX > 32) {
    auto resultElements = [](Operation *op) {
      return cast<RankedTensorType>(cast<MatmulOp>(op).getResult().getType())
          .getNumElements();
    };
    auto partialsOf = [&](Operation *op) {
      return (blockX / 32) * resultElements(op);
    };
    for (Operation *op : reducingMatmuls) {
      if (mergedSecond.contains(op))
        continue;
      int64_t event = partialsOf(op);
      mmaScratchOffset[op] = 0;
      // The split=none results of this reduction, side by side at the
      // scratch's end.
      int64_t gathered = 0;
      auto placeGather = [&](Operation *product) {
        auto at = mmaGatherOffset.find(product);
        if (at == mmaGatherOffset.end())
          return;
        at->second = gathered;
        gathered += resultElements(product);
      };
      placeGather(op);
      // The next op that is not part of this product or of the next one's
      // operands: the next product, if it contracts over a split tile too
      // and does not read this one's result.
      Operation *next = op->getNextNode();
      while (next && (next == matmulStores.lookup(op) ||
                      fragmentLoads.contains(next) || fusedCasts.contains(next) ||
                      isa<arith::ConstantOp>(next)))
        next = next->getNextNode();
      if (next && reducingMatmuls.contains(next) && !mergedPartner.count(next)) {
        auto second = cast<MatmulOp>(next);
        Value dest = matmulStores.lookup(op).getDest();
        if (mmaTileOf(second.getA()) != dest &&
            (!second.getAcc() || mmaTileOf(second.getAcc()) != dest)) {
          mergedPartner[op] = next;
          mergedSecond.insert(next);
          mmaScratchOffset[next] = event;
          event += partialsOf(next);
          placeGather(next);
        }
      }
      mmaScratchHalf = std::max(mmaScratchHalf, event);
      mmaGatherElements = std::max(mmaGatherElements, gathered);
    }
    mmaScratchElements = 2 * mmaScratchHalf + mmaGatherElements;
    // Static shared memory beside the buffers when it fits there (48 KB
    // with the other static scratch), else dynamic shared memory after
    // the buffers, up to what a block may hold (the kernel's whole shared
    // memory is checked again once laid out).
    mmaScratchDynamic = mmaScratchElements * 4 + 4096 > 48 * 1024;
    int64_t limit = maxSharedPerBlock(chip);
    if (!limit)
      limit = maxSharedPerBlock("sm_90");
    if (mmaScratchElements * 4 > limit)
      return reducingMatmuls.front()->emitOpError()
             << "the partial sums of the products that contract over split="
                "cols tiles need "
             << mmaScratchElements * 4
             << " bytes of shared memory (two halves of W·M·N floats for the "
                "largest reduction"
             << (mmaGatherElements ? ", and M·N for its gathered results" : "")
             << "), more than the "
             << limit << " a block may hold on " << chip
             << "; split smaller products";
  }
  // Shared scratch for the reductions of across-warps lanes loops.
  kernel.walk([&](LoopOp loop) {
    if (loop.getMapping() == LoopMapping::thread && placeLanesAcrossWarps(loop))
      scratchElements = std::max(scratchElements, blockX);
  });
  if (failed(chooseSharedPadding()))
    return failure();
  planTmaCopies();
  chooseSwizzledBuffers();
  if (!swizzledBuffers.empty()) { // again, with the swizzled maps
    tmaMaps.clear();
    tmaCopies.clear();
    tmaBuffers.clear();
    planTmaCopies();
  }
  planTmaPipelines();
  if (failed(planAhead()))
    return failure();
  return checkGroupRegisters();
}

LogicalResult KernelLowering::checkGroupRegisters() {
  LoopOp loop;
  std::tie(groupRegisters, loop) =
      findLoopAnnotation<WarpgroupRegistersAttr>(kernel);
  if (!groupRegisters)
    return success();
  auto fail = [&]() { return loop.emitOpError() << "'@warpgroup_registers' "; };
  if (!wgmmaChip)
    return fail() << "needs sm_90a (setmaxnreg), compiling for " << chip;
  if (loop != producerLoop)
    return fail() << "needs '@producer_warp' in effect on the same loop (see "
                     "its warning)";
  if (blockX % 128)
    return fail() << "needs whole warpgroups: the block computes with "
                  << blockX << " threads, not a multiple of 128";
  if (!aheadLoop && groupRegisters.getAhead())
    return fail() << "gives the ahead group " << groupRegisters.getAhead()
                  << " registers, but the loop has no 'schedule.ahead' body";
  int64_t base = launchRegisters();
  auto count = [&](int64_t c) { return c ? c : base; };
  int64_t total = blockX * count(groupRegisters.getComputing()) +
                  (aheadLoop ? blockX * count(groupRegisters.getAhead()) : 0) +
                  128 * count(groupRegisters.getProducer());
  // setmaxnreg moves registers between the block's warps within what the
  // launch gave it: more would leave an increase waiting forever.
  int64_t held = base * launchThreads();
  if (total > held)
    return fail() << "asks for " << total
                  << " registers in all (computing " << blockX << " x "
                  << count(groupRegisters.getComputing())
                  << (aheadLoop ? ", ahead " + std::to_string(blockX) + " x " +
                                      std::to_string(
                                          count(groupRegisters.getAhead()))
                                : std::string())
                  << ", producer 128 x " << count(groupRegisters.getProducer())
                  << "), more than the block's " << held << " (" << base
                  << " per thread at launch)";
  return success();
}

void KernelLowering::setGroupRegisters(int64_t count, Location loc) {
  int64_t base = launchRegisters();
  if (!count || count == base)
    return;
  NVVM::SetMaxRegisterOp::create(
      b, loc, b.getI32IntegerAttr(count),
      NVVM::SetMaxRegisterActionAttr::get(
          b.getContext(), count > base ? NVVM::SetMaxRegisterAction::increase
                                       : NVVM::SetMaxRegisterAction::decrease));
}

/// An index expressed as `coef * threadIv + rest` (rest unknown).
struct AffineInThread {
  bool known = false;
  int64_t coef = 0;
};

/// Expresses a kda2 index value as an affine function of the thread loop
/// induction variable `iv` (coefficient only; the constant part does not
/// affect conflicts). Unknown when the index depends on `iv` non-linearly.
static AffineInThread affineIn(Value index, Value iv) {
  if (index == iv)
    return {true, 1};
  Operation *def = index.getDefiningOp();
  if (!def)
    return {true, 0}; // another loop variable: uniform within the warp
  if (auto c = getConstantIntValue(index))
    return {true, 0};
  if (isa<DimOp>(def))
    return {true, 0};
  if (isa<AddOp, SubOp>(def)) {
    AffineInThread l = affineIn(def->getOperand(0), iv);
    AffineInThread r = affineIn(def->getOperand(1), iv);
    if (!l.known || !r.known)
      return {};
    return {true, isa<AddOp>(def) ? l.coef + r.coef : l.coef - r.coef};
  }
  if (isa<MulOp>(def)) {
    AffineInThread l = affineIn(def->getOperand(0), iv);
    AffineInThread r = affineIn(def->getOperand(1), iv);
    auto lc = getConstantIntValue(def->getOperand(0));
    auto rc = getConstantIntValue(def->getOperand(1));
    if (l.known && rc)
      return {true, l.coef * *rc};
    if (r.known && lc)
      return {true, r.coef * *lc};
    return {};
  }
  // Anything else that does not depend on the thread variable is uniform.
  bool depends = false;
  SmallVector<Value> work{index};
  DenseSet<Value> seen;
  while (!work.empty() && !depends) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (v == iv)
      depends = true;
    if (Operation *d = v.getDefiningOp())
      llvm::append_range(work, d->getOperands());
  }
  return depends ? AffineInThread{} : AffineInThread{true, 0};
}

/// True when `load` reads its whole tile and only tensor-core products take
/// it, as an operand, not as the accumulator (with `throughCasts`, also
/// through conversions to another 16-bit type, which the fragment loads
/// fuse). Such a tile needs no padding for ldmatrix: TMA may fill it, and
/// without conversions it may take the TMA swizzle (chooseSwizzledBuffers).
static bool readWholeByProductsOnly(LoadOp load, bool throughCasts) {
  std::function<bool(Value)> operandOnly = [&](Value v) {
    return !v.use_empty() && llvm::all_of(v.getUsers(), [&](Operation *u) {
      if (auto cast = dyn_cast<CastOp>(u))
        return throughCasts && operandOnly(cast.getResult());
      auto product = dyn_cast<MatmulOp>(u);
      return product && product.getAcc() != v;
    });
  };
  return load.getIndices().empty() && operandOnly(load.getResult());
}

/// True when 32 lanes accessing `elemBytes`-byte elements at element offsets
/// `coef * lane` (plus a common base) hit 32 distinct banks, or share words.
/// Elements wider than a bank word are served in phases of 128 bytes (half
/// a warp for 8-byte elements): only lanes of the same phase can conflict,
/// and an element occupies every word it covers.
static bool conflictFree(int64_t coef, int64_t elemBytes) {
  int64_t wordsPerElement = std::max<int64_t>(1, elemBytes / 4);
  int64_t phaseLanes = 32 / wordsPerElement;
  for (int64_t first = 0; first < 32; first += phaseLanes) {
    DenseMap<int64_t, int64_t> bankWord;
    for (int64_t lane = first; lane < first + phaseLanes; ++lane)
      for (int64_t w = 0; w < wordsPerElement; ++w) {
        int64_t word = (coef * lane * elemBytes) / 4 + w;
        int64_t bank = ((word % 32) + 32) % 32;
        auto [it, inserted] = bankWord.try_emplace(bank, word);
        if (!inserted && it->second != word)
          return false;
      }
  }
  return true;
}

/// Picks, for every shared buffer accessed inside a `$bank_conflict_free`
/// loop, the smallest padding (in elements) of its last dimension that makes
/// every access conflict free. The bank of lane l is
/// ((coef(l) * elemBytes) / 4) mod 32, where coef is the element stride the
/// thread variable moves along: a row pitch P (padded) enters coef when the
/// thread variable indexes a non-last dimension. Fails when no padding up to
/// 32 words works (e.g. an even stride along the last dimension).
LogicalResult KernelLowering::chooseSharedPadding() {
  // Collect accesses: (buffer, loop op, per-dimension coefficients).
  struct Access {
    Operation *op;
    SmallVector<AffineInThread> coefs;
  };
  DenseMap<Value, SmallVector<Access>> accesses;
  DenseSet<Value> mustBeFree;
  kernel.walk([&](Operation *op) {
    Value tensor;
    ValueRange indices;
    if (auto load = dyn_cast<LoadOp>(op)) {
      tensor = load.getSource();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      tensor = store.getDest();
      indices = store.getIndices();
    } else {
      return;
    }
    auto type = cast<KDA2TensorType>(tensor.getType());
    if (type.getMemorySpace() != MemorySpace::smem)
      return;
    bool annotated = false;
    LoopOp threadLoop;
    for (auto loop = op->getParentOfType<LoopOp>(); loop;
         loop = loop->getParentOfType<LoopOp>()) {
      if (auto annotations = loop.getAnnotationsAttr())
        annotated |= llvm::any_of(annotations, [](Attribute a) {
          return isa<BankConflictFreeAttr>(a);
        });
      if (!threadLoop && loop.getMapping() == LoopMapping::thread)
        threadLoop = loop;
    }
    if (annotated)
      mustBeFree.insert(tensor);
    if (!threadLoop)
      return; // uniform access: every lane reads the same word (broadcast)
    Access access{op, {}};
    for (Value index : indices)
      access.coefs.push_back(affineIn(index, threadLoop.getInductionVar()));
    accesses[tensor].push_back(access);
  });

  // A tile that TMA will fill whole and only tensor-core products read
  // gets the TMA swizzle instead (chooseSwizzledBuffers), which is
  // conflict free for ldmatrix: padding it would keep TMA from writing it.
  // (TMA comes with grid dependency control: sm_90 and later.)
  auto swizzleCandidate = [&](Value buffer) {
    return hasGridDep && llvm::all_of(buffer.getUsers(), [&](Operation *user) {
      if (auto store = dyn_cast<StoreOp>(user)) {
        auto source = store.getValue().getDefiningOp<LoadOp>();
        return store.getDest() == buffer && store.getIndices().empty() &&
               source && isa<BlockArgument>(source.getSource()) &&
               pragmaCovers(kernel, store, PragmaKind::tma_coalesce);
      }
      // Read whole as a product's operand (through a conversion, which
      // the fragment loads fuse: such a tile is not swizzled either).
      auto load = dyn_cast<LoadOp>(user);
      return load && readWholeByProductsOnly(load, /*throughCasts=*/true);
    });
  };
  for (Value buffer : mustBeFree) {
    if (swizzleCandidate(buffer))
      continue;
    auto type = cast<KDA2TensorType>(buffer.getType());
    int64_t eb = elementBytes(type.getElementType());
    ArrayRef<int64_t> shape = type.getShape();
    std::optional<int64_t> chosen;
    for (int64_t pad = 0; pad <= 32 && !chosen; ++pad) {
      // Tensor-core fragments: ldmatrix reads eight 16-byte rows per
      // matrix (rows must stay 16-byte aligned; conflict free when the
      // pitch is an odd number of 16-byte chunks); accumulators move two
      // f32 per lane (64-bit accesses, half a warp = 4 rows per phase:
      // conflict free when the pitch is 8 or 24 words mod 32).
      int64_t pitchBytes = (shape.back() + pad) * eb;
      if (ldmatrixBuffers.contains(buffer) &&
          (pitchBytes % 16 != 0 || (pitchBytes / 16) % 2 == 0))
        continue;
      if (accumulatorBuffers.contains(buffer) &&
          (pitchBytes % 8 != 0 || !llvm::is_contained({8, 24},
                                                      (pitchBytes / 4) % 32)))
        continue;
      bool ok = true;
      for (Access &access : accesses[buffer]) {
        // Element strides of each dimension with the padded pitch.
        SmallVector<int64_t> strides(shape.size(), 1);
        for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
          strides[d] = strides[d + 1] *
                       (d + 1 == int64_t(shape.size()) - 1
                            ? shape[d + 1] + pad
                            : shape[d + 1]);
        int64_t coef = 0;
        for (auto [d, c] : llvm::enumerate(access.coefs)) {
          if (!c.known) {
            access.op->emitOpError()
                << "index is not an affine function of the thread variable; "
                   "'$bank_conflict_free' cannot be proven";
            return failure();
          }
          coef += c.coef * strides[d];
        }
        ok &= conflictFree(coef, eb);
      }
      if (ok)
        chosen = pad;
    }
    if (!chosen)
      return buffer.getDefiningOp()->emitOpError()
             << "no padding of the last dimension makes every access in the "
                "'$bank_conflict_free' loops conflict free";
    sharedPadding[buffer] = *chosen;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

/// A range end for the metadata: %g, infinities as inf / -inf.
static std::string formatBound(double x) {
  if (std::isinf(x))
    return x < 0 ? "-inf" : "inf";
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%g", x);
  return s;
}

std::string KernelLowering::buildMetadata() {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "kda2-kernel-v1\n";
  os << "name " << name() << "\n";
  os << "block " << launchThreads() << " 1 1\n";
  os << "grid.x";
  for (int64_t c : gridXStatic)
    os << " " << c;
  for (const std::string &d : gridXDims)
    os << " " << d;
  os << "\ngrid.y";
  if (ArrayAttr grid = kernel.getGridAttr())
    for (auto name : grid.getAsRange<StringAttr>())
      os << " " << name.getValue();
  os << "\nsmem " << dynamicSharedBytes << "\n";
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    std::string argName = kernel.getArgName(i).str();
    if (argName.empty())
      argName = "arg" + std::to_string(i);
    if (auto tensor = dyn_cast<KDA2TensorType>(type)) {
      os << "arg ptr " << argName << " " << dtypeName(tensor.getElementType())
         << " " << stringifyIOKind(kernel.getArgIOKind(i)) << " "
         << tensor.getRank();
      for (unsigned d = 0; d < tensor.getRank(); ++d) {
        if (!tensor.getDimName(d).empty())
          os << " " << tensor.getDimName(d);
        else
          os << " " << tensor.getShape()[d];
      }
      os << "\n";
      // A recurrent state's memory order, for the runtime to check the
      // caller's against (the shape alone cannot tell when K == V).
      if (auto state = kernel.getArgAttrOfType<StateLayoutAttr>(
              i, KDA2Dialect::getStateAttrName()))
        os << "state " << argName << " "
           << stringifyStateLayout(state.getValue()) << "\n";
      // A declared value range (the caller's promise the kernel's numerics
      // rely on), for the runtime to hold calls to it.
      if (auto range = kernel.getArgAttrOfType<DenseF64ArrayAttr>(
              i, KDA2Dialect::getRangeAttrName()))
        os << "range " << argName << " " << formatBound(range[0]) << " "
           << formatBound(range[1]) << "\n";
      // A runtime stride of the outermost dimension: the scalar holding it.
      if (auto param = kernel.getArgAttrOfType<IntegerAttr>(
              i, KDA2Dialect::getStrideAttrName()))
        os << "stride " << argName << " "
           << kernel.getArgName(param.getInt()).str() << "\n";
      if (auto it = argPadding.find(i); it != argPadding.end()) {
        SmallVector<std::pair<StringRef, int64_t>> pads;
        for (const auto &entry : it->second)
          pads.push_back({entry.getKey(), entry.getValue()});
        llvm::sort(pads);
        for (auto [dim, multiple] : pads)
          os << "pad " << argName << " " << dim << " " << multiple << "\n";
      }
    } else {
      os << "arg scalar " << argName << " " << dtypeName(type) << "\n";
    }
  }
  for (const std::string &d : dimNames)
    os << "arg dim " << d << "\n";
  if (!counterNames.empty()) {
    os << "arg counters " << counterNames.size() << "\n";
    for (const auto &[name, isFloat] : counterNames)
      os << "counter " << name << " " << (isFloat ? "f64" : "i64") << "\n";
  }
  for (const TmaMap &tma : tmaMaps) {
    os << "arg tensormap " << tma.name << " "
       << kernel.getArgName(tma.argIndex).str() << " " << tma.mapDims.size();
    for (int64_t d : tma.mapDims)
      os << " " << d;
    os << " box";
    for (int64_t e : tma.box)
      os << " " << e;
    if (tma.swizzle)
      os << " swizzle " << tma.swizzle;
    os << "\n";
  }
  for (const Specialization &v : variants)
    os << "variant " << v.dim << " " << v.value << " " << v.name << "\n";
  // Launched with at most n blocks per SM, which walk the grid.
  if (persistentLoop)
    os << "persistent " << persistentBlocks << "\n";
  // Launched as the programmatic dependent of the kernel before it: it
  // waits for that kernel's ready flags (kda2.wait) or its end
  // (kda2.wait_prior) itself.
  if ((waits || waitsPrior) && hasGridDep)
    os << "pdl 1\n";
  // The compile-time integer bindings the kernel was built with (the
  // importer's `kda2.bindings`; a specialised copy carries its generic
  // kernel's), sorted by name as the dictionary keeps them.
  if (auto bindings = kernel->getAttrOfType<DictionaryAttr>(
          KDA2Dialect::getBindingsAttrName()))
    for (NamedAttribute entry : bindings) {
      auto value = cast<IntegerAttr>(entry.getValue());
      os << "bind " << entry.getName().getValue() << " "
         << (value.getType().isUnsignedInteger()
                 ? static_cast<int64_t>(value.getValue().getZExtValue())
                 : value.getValue().getSExtValue())
         << "\n";
    }
  os << "end\n";
  return text;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::run() {
  if (failed(analyze()))
    return failure();
  Location loc = kernel.getLoc();

  // Parameters: tensors as global pointers, scalars by value, dimension
  // sizes as i64, then the counter buffer.
  auto globalPtr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  SmallVector<Type> params;
  for (Type type : kernel.getArgumentTypes())
    params.push_back(isa<KDA2TensorType>(type) ? Type(globalPtr)
                                                : signless(type));
  for (size_t i = 0; i < dimNames.size(); ++i)
    params.push_back(b.getI64Type());
  if (!counterNames.empty())
    params.push_back(globalPtr);
  // TMA tensor maps (generic pointers here; kda2-finalize-nvvm makes
  // them 128-byte by-value grid constants once they are LLVM functions).
  for (TmaMap &map : tmaMaps) {
    map.param = params.size();
    params.push_back(LLVM::LLVMPointerType::get(b.getContext()));
  }

  // Shared buffers become workgroup attributions.
  SmallVector<Type> workgroup;
  SmallVector<SmemAllocOp> sharedAllocs;
  auto workgroupSpace = gpu::AddressSpaceAttr::get(
      b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  SmallVector<MemRefType> sharedTypes;
  int64_t sharedBytes = 0;
  kernel.walk([&](SmemAllocOp alloc) {
    // A buffer no statement reaches (one a build's bindings leave out)
    // takes no shared memory.
    if (alloc->use_empty())
      return;
    auto type = cast<KDA2TensorType>(alloc.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape.back() += sharedPadding.lookup(alloc.getResult());
    bool swizzled = swizzledBuffers.contains(alloc.getResult());
    if (swizzled) { // [R, W] as W * eb / S boxes of [R, S / eb]
      int64_t perRow = swizzledBuffers.lookup(alloc.getResult()) /
                       elementBytes(type.getElementType());
      shape = {shape[1] / perRow, shape[0], perRow};
    }
    if (stagedBuffers.contains(alloc.getResult()))
      shape.insert(shape.begin(), pipelineStages);
    auto memref = MemRefType::get(shape, signless(type.getElementType()),
                                  AffineMap(), workgroupSpace);
    sharedTypes.push_back(memref);
    sharedBytes = llvm::alignTo(sharedBytes, swizzled ? 1024 : 128) +
                  memref.getNumElements() * elementBytes(memref.getElementType());
    sharedAllocs.push_back(alloc);
  });
  // More than a kernel may declare statically (48 KB): the buffers are
  // views into dynamic shared memory, 128-byte aligned; the launch asks for
  // that much (the metadata's `smem` line, which makes the runtime raise
  // the kernel's dynamic shared memory limit).
  bool dynamicShared =
      sharedBytes + mmaScratchElements * 4 > 48 * 1024 || mmaScratchDynamic;
  // Dynamic shared memory starts after the static attributions: 1024 bytes
  // more let the swizzled buffers be moved to a 1024-byte boundary. A
  // split=cols scratch too large for static memory follows the buffers.
  int64_t mmaScratchAt = llvm::alignTo(sharedBytes, 16);
  if (dynamicShared)
    dynamicSharedBytes =
        (mmaScratchDynamic ? mmaScratchAt + mmaScratchElements * 4
                           : sharedBytes) +
        (swizzledBuffers.empty() ? 0 : 1024);
  else
    workgroup.append(sharedTypes.begin(), sharedTypes.end());
  // Scratch for the cross-warp reductions of lanes(P) loops (one f32 per
  // thread).
  if (scratchElements)
    workgroup.push_back(MemRefType::get({scratchElements}, b.getF32Type(),
                                        AffineMap(), workgroupSpace));
  // Scratch for the partial sums of split=cols products.
  if (mmaScratchElements && !mmaScratchDynamic)
    workgroup.push_back(MemRefType::get({mmaScratchElements}, b.getF32Type(),
                                        AffineMap(), workgroupSpace));
  // The mbarrier TMA copies complete on.
  if (!pipelinedLoops.empty())
    tmaBarrierCount = 1 + pipelineStages * (producerLoop ? 2 : 1) +
                      (aheadCopies.empty() ? 0 : 2 * pipelineStages);
  if (!tmaMaps.empty())
    workgroup.push_back(MemRefType::get({tmaBarrierCount}, b.getI64Type(),
                                        AffineMap(), workgroupSpace));
  // The block's shared memory (static attributions, each 128-byte aligned
  // at most, and the dynamic window) against what the chip lets one block
  // hold: a kernel past it would compile and only fail at launch.
  int64_t blockShared = dynamicSharedBytes;
  for (Type t : workgroup) {
    auto m = cast<MemRefType>(t);
    blockShared = llvm::alignTo(blockShared, 128) +
                  m.getNumElements() * elementBytes(m.getElementType());
  }
  int64_t chipShared = maxSharedPerBlock(chip);
  if (chipShared && blockShared > chipShared)
    return kernel.emitOpError()
           << "needs " << blockShared
           << " bytes of shared memory per block (buffers, scratch and "
              "barriers), more than the "
           << chipShared << " a block may hold on " << chip;

  b.setInsertionPointToEnd(gpuModule.getBody());
  func = gpu::GPUFuncOp::create(b, loc, name(),
                                b.getFunctionType(params, {}), workgroup);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // Kernel tensors never alias (the launch contract, checked by the runtime
  // where it matters) and inputs are never written: LLVM may then hoist
  // loop-invariant loads and use the read-only data path (ld.global.nc).
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    if (!isa<KDA2TensorType>(type))
      continue;
    func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                    b.getUnitAttr());
    if (kernel.getArgIOKind(i) == IOKind::in)
      func.setArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName(),
                      b.getUnitAttr());
  }
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(launchThreads()), 1, 1}));
  // `@blocks_per_sm(n)` on a block loop: .minnctapersm n (ptxas fits the
  // registers of n blocks in an SM's register file; 0: no bound).
  int64_t blocksPerSm = 0;
  Operation *blocksPerSmLoop = nullptr;
  kernel.walk([&](LoopOp loop) {
    if (ArrayAttr annotations = loop.getAnnotationsAttr())
      for (Attribute a : annotations)
        if (auto bps = dyn_cast<BlocksPerSmAttr>(a)) {
          blocksPerSm = std::max(blocksPerSm, bps.getBlocks());
          blocksPerSmLoop = loop;
        }
  });
  if (blocksPerSm) {
    if (blocksPerSm * int64_t(launchThreads()) > 2048)
      return blocksPerSmLoop->emitOpError()
             << "'@blocks_per_sm(" << blocksPerSm << ")' asks for "
             << blocksPerSm * int64_t(launchThreads()) << " threads per SM ("
             << launchThreads() << " per block), more than the 2048 an SM "
                                   "holds";
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(int32_t(blocksPerSm)));
  }
  // With `@warpgroup_registers` every thread starts with the register
  // file's share of the launch (.maxnreg); each group then sets its own.
  if (groupRegisters)
    func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                  b.getI32IntegerAttr(int32_t(launchRegisters())));
  unsigned staticBuffers = dynamicShared ? 0 : sharedAllocs.size();
  for (auto [i, alloc] : llvm::enumerate(sharedAllocs)) {
    if (dynamicShared)
      break;
    map.map(alloc.getResult(), func.getWorkgroupAttributions()[i]);
    // TMA writes boxes to 128-byte aligned shared addresses (1024 for a
    // swizzled buffer: the swizzles' patterns repeat at most every 1024).
    if (tmaBuffers.contains(alloc.getResult()))
      func.setWorkgroupAttributionAttr(
          i, "llvm.align",
          b.getI64IntegerAttr(
              swizzledBuffers.contains(alloc.getResult()) ? 1024 : 128));
  }
  if (scratchElements)
    reductionScratch = func.getWorkgroupAttributions()[staticBuffers];
  if (mmaScratchElements && !mmaScratchDynamic) {
    unsigned index = staticBuffers + (scratchElements ? 1 : 0);
    mmaScratch = func.getWorkgroupAttributions()[index];
    func.setWorkgroupAttributionAttr(index, "llvm.align",
                                     b.getI64IntegerAttr(16));
  }
  if (!tmaMaps.empty()) {
    unsigned index = func.getWorkgroupAttributions().size() - 1;
    tmaBarrier = func.getWorkgroupAttributions()[index];
    func.setWorkgroupAttributionAttr(index, "llvm.align",
                                     b.getI64IntegerAttr(8));
    SmallVector<int32_t> mapParams;
    for (TmaMap &tma : tmaMaps) {
      mapParams.push_back(tma.param);
      func.setArgAttr(tma.param, LLVM::LLVMDialect::getAlignAttrName(),
                      b.getI64IntegerAttr(64));
    }
    func->setAttr("kda2.tensor_maps", b.getDenseI32ArrayAttr(mapParams));
  }

  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  // Which half of the split=cols scratch the next reduction uses (a
  // register after mem2reg).
  if (mmaScratchElements) {
    mmaToggle = memref::AllocaOp::create(
        b, loc, MemRefType::get({1}, b.getIndexType()));
    memref::StoreOp::create(b, loc, constantIndex(0, loc), mmaToggle,
                            ValueRange{constantIndex(0, loc)});
  }
  if (dynamicShared) {
    Value base = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                        workgroupSpace));
    int64_t offset = 0;
    // With swizzled buffers, every view moves by the distance from the
    // window's start to the next 1024-byte boundary.
    Value shift;
    if (!swizzledBuffers.empty()) {
      Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, base);
      shift = arith::AndIOp::create(
          b, loc,
          arith::SubIOp::create(b, loc, constantIndex(0, loc), address),
          constantIndex(1023, loc));
    }
    for (auto [alloc, type] : llvm::zip(sharedAllocs, sharedTypes)) {
      offset = llvm::alignTo(
          offset, swizzledBuffers.contains(alloc.getResult()) ? 1024 : 128);
      Value at = constantIndex(offset, loc);
      if (shift)
        at = arith::AddIOp::create(b, loc, at, shift);
      map.map(alloc.getResult(),
              memref::ViewOp::create(b, loc, type, base, at, ValueRange()));
      offset += type.getNumElements() * elementBytes(type.getElementType());
    }
    if (mmaScratchDynamic) {
      Value at = constantIndex(mmaScratchAt, loc);
      if (shift)
        at = arith::AddIOp::create(b, loc, at, shift);
      mmaScratch = memref::ViewOp::create(
          b, loc,
          MemRefType::get({mmaScratchElements}, b.getF32Type(), AffineMap(),
                          workgroupSpace),
          base, at, ValueRange());
    }
  }
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  laneId = arith::RemUIOp::create(b, loc, threadId, constantIndex(32, loc));
  kernel.walk([&](Operation *op) {
    signals |= isa<SignalOp>(op);
    waits |= isa<WaitOp>(op);
    waitsPrior |= isa<WaitPriorOp>(op);
  });
  // A kernel that publishes ready flags lets the next kernel (launched as
  // its programmatic dependent) start as soon as all of its blocks have:
  // the dependent waits for the flags, not for this kernel's end.
  if (signals)
    gridDepControl(NVVM::GridDepActionKind::launch_dependents, loc);
  for (auto [i, name] : llvm::enumerate(dimNames))
    dimIndex[name] = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        entry.getArgument(kernel.getNumArguments() + i));
  if (!counterNames.empty())
    countersPtr =
        entry.getArgument(kernel.getNumArguments() + dimNames.size());
  for (TmaMap &tma : tmaMaps)
    tmaDescriptors.push_back(entry.getArgument(tma.param));
  // TMA: one mbarrier (initialised by thread 0 for one arrival plus the
  // copy's bytes) and each thread's copy of its phase parity: bit j of one
  // word for barrier j (waitTma), or a word per barrier past 32 of them.
  if (!tmaMaps.empty()) {
    OpBuilder::InsertionGuard guard(b);
    int64_t words = phaseBits() ? 1 : tmaBarrierCount;
    tmaPhase = memref::AllocaOp::create(
        b, loc, MemRefType::get({words}, b.getI32Type()));
    for (int64_t i = 0; i < words; ++i)
      memref::StoreOp::create(
          b, loc, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)),
          tmaPhase, ValueRange{constantIndex(i, loc)});
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        threadId, constantIndex(0, loc));
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, TypeRange(), first, false).thenBlock());
    // (An empty stage's barrier: one arrival per computing thread.)
    for (int64_t i = 0; i < tmaBarrierCount; ++i)
      NVVM::MBarrierInitOp::create(
          b, loc, sharedPointer(tmaBarrier, {constantIndex(i, loc)}, loc),
          arith::ConstantOp::create(
              b, loc,
              b.getI32IntegerAttr(
                  i >= aheadEmptyBase()   ? int32_t(blockX)
                  : i >= aheadBarrierBase() ? 1
                  : i > pipelineStages    ? int32_t(blockX)
                  : i > 0 && aheadLoop    ? int32_t(1 + blockX)
                                          : 1)),
          Value());
  }
  if (!tmaMaps.empty())
    gpu::BarrierOp::create(b, loc);
  // A @shape_hint copy: the hinted size is a constant (its parameter stays,
  // so every variant has the generic kernel's signature).
  if (specialization && dimIndex.count(specialization->dim))
    dimIndex[specialization->dim] = constantIndex(specialization->value, loc);

  kernel.walk([&](LoopOp loop) {
    gridFirst |= hasPragma(loop, PragmaKind::grid_first);
    if (ArrayAttr annotations = loop.getAnnotationsAttr())
      for (Attribute a : annotations)
        if (auto p = dyn_cast<PersistentAttr>(a); p && p.getBlocks() > 0) {
          persistentLoop = loop;
          persistentBlocks = p.getBlocks();
        }
  });
  if (persistentLoop) {
    // Each block walks work items of the whole iteration space: the
    // kernel's code outside the loop must not depend on a block's place.
    for (Operation &op : kernel.getBody().front())
      if (&op != persistentLoop.getOperation() &&
          !isa<GmemOp, SmemAllocOp, RegAllocOp, arith::ConstantOp, DimOp,
               ReturnOp>(op))
        return persistentLoop.emitOpError()
               << "'@persistent' needs the kernel's top level to hold only "
                  "declarations and this block loop; '"
               << op.getName() << "' is outside it";
    if (producerLoop)
      return persistentLoop.emitOpError()
             << "'@persistent' and '@producer_warp' do not combine yet";
  }

  // Grid prefix indices from blockIdx.y, row-major over the grid dims (a
  // persistent loop sets them per work item).
  if (kernel.getGridAttr() && !persistentLoop) {
    Value linear = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
    // `#pragma grid_first`: the GPU starts blocks in the order of x +
    // y·gridDim.x; the k-th takes grid instance k % gridDim.y of block-loop
    // iteration k / gridDim.y (a bijection of the same grid), so every
    // instance's iteration i starts before any instance's i + 1.
    if (gridFirst) {
      Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
      Value gx = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
      Value gy = gpu::GridDimOp::create(b, loc, gpu::Dimension::y);
      Value flat = arith::AddIOp::create(
          b, loc, bx, arith::MulIOp::create(b, loc, linear, gx));
      linear = arith::RemUIOp::create(b, loc, flat, gy);
      blockXIndex = arith::DivUIOp::create(b, loc, flat, gy);
    }
    setGridIndices(linear, loc);
  }

  // `@coalesced_access if d % m == 0 else padding_alignN`: the global
  // tensors accessed in such a loop store dimension d padded to a multiple
  // of N (the caller's layout contract, listed in the metadata).
  kernel.walk([&](LoopOp loop) {
    for (Attribute a : loop.getAnnotationsAttr()
                           ? loop.getAnnotationsAttr().getValue()
                           : ArrayRef<Attribute>()) {
      auto coalesced = dyn_cast<CoalescedAccessAttr>(a);
      if (!coalesced || !coalesced.hasCondition() || !paddingMultiple(coalesced))
        continue;
      StringRef dim = coalesced.getDim().getValue();
      loop.walk([&](Operation *op) {
        Value tensor;
        if (auto load = dyn_cast<LoadOp>(op))
          tensor = load.getSource();
        else if (auto store = dyn_cast<StoreOp>(op))
          tensor = store.getDest();
        auto arg = dyn_cast_or_null<BlockArgument>(tensor);
        if (!arg || arg.getOwner() != &kernel.getBody().front())
          return;
        auto type = cast<KDA2TensorType>(arg.getType());
        for (unsigned d = 0; d < type.getRank(); ++d)
          if (type.getDimName(d) == dim &&
              ShapedType::isDynamic(type.getShape()[d])) {
            int64_t &pad = argPadding[arg.getArgNumber()][dim];
            pad = std::max(pad, paddingMultiple(coalesced));
          }
      });
    }
  });

  // Scalars are used directly; global tensors get the strides of each
  // logical dimension in elements.
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    auto tensor = dyn_cast<KDA2TensorType>(type);
    if (!tensor) {
      map.map(kernel.getArgument(i), entry.getArgument(i));
      continue;
    }
    TensorInfo info;
    info.kind = TensorInfo::Kind::Global;
    info.type = tensor;
    info.ptr = entry.getArgument(i);
    info.argIndex = i;
    unsigned rank = tensor.getRank();
    for (unsigned d = 0; d < rank; ++d)
      info.sizes.push_back(
          ShapedType::isDynamic(tensor.getShape()[d])
              ? dimIndex.lookup(tensor.getDimName(d))
              : constantIndex(tensor.getShape()[d], loc));
    Layout layout = argLayouts.lookup(i);
    SmallVector<int64_t> perm =
        *getLayoutPermutation(argLayouts.count(i) ? layout : Layout::row_major,
                              rank);
    // physical dimension p holds logical dimension perm[p].
    info.strides.assign(rank, Value());
    info.strideFactors.assign(rank, 1);
    info.staticStrides.assign(rank, std::nullopt);
    if (vnni4Args.contains(i) && rank >= 2) {
      info.vnniInner = perm[rank - 1];
      info.vnniOuter = perm[rank - 2];
    }
    // Padding the outermost physical dimension would change no stride.
    if (auto it = argPadding.find(i); it != argPadding.end()) {
      it->second.erase(tensor.getDimName(perm[0]));
      info.pitchPadding = it->second;
    }
    Value stride = constantI64(1, loc);
    int64_t factor = 1;
    std::optional<int64_t> staticStride = 1;
    for (int64_t p = int64_t(rank) - 1; p >= 0; --p) {
      int64_t d = perm[p];
      info.strides[d] = stride;
      info.strideFactors[d] = factor;
      info.staticStrides[d] = staticStride;
      int64_t size = tensor.getShape()[d];
      if (ShapedType::isDynamic(size)) {
        Value extent = toI64(info.sizes[d], loc);
        // A padded dimension is stored with its extent rounded up.
        if (int64_t pad = info.pitchPadding.lookup(tensor.getDimName(d))) {
          Value up = arith::AddIOp::create(b, loc, extent,
                                           constantI64(pad - 1, loc));
          extent = arith::MulIOp::create(
              b, loc,
              arith::DivUIOp::create(b, loc, up, constantI64(pad, loc)),
              constantI64(pad, loc));
          factor *= pad;
        }
        stride = arith::MulIOp::create(b, loc, stride, extent);
        staticStride = std::nullopt;
      } else {
        stride = arith::MulIOp::create(b, loc, stride, constantI64(size, loc));
        factor *= size;
        if (staticStride)
          *staticStride *= size;
      }
    }
    // `GMEM {stride=p}`: the outermost physical dimension's stride is the
    // value of parameter p (rows sliced from a wider tensor). The runtime
    // refuses strides that are not a multiple of 16 bytes.
    if (auto param = kernel.getArgAttrOfType<IntegerAttr>(
            i, KDA2Dialect::getStrideAttrName())) {
      if (info.vnniInner >= 0)
        return kernel.emitError()
               << "argument #" << i
               << " is vnni4-packed and has a runtime stride; only one";
      int64_t outer = perm[0];
      Value value = entry.getArgument(param.getInt());
      info.strides[outer] =
          value.getType().isInteger(64)
              ? value
              : arith::ExtSIOp::create(b, loc, b.getI64Type(), value)
                    .getResult();
      info.strideFactors[outer] = std::max<int64_t>(
          1, 16 / elementBytes(tensor.getElementType()));
      info.staticStrides[outer] = std::nullopt;
    }
    if (info.vnniInner >= 0) {
      // r moves 4 elements; c moves within its group of 4, then by whole
      // groups of 4 * r_size (globalOffset); the outer strides (whole
      // matrices) are unchanged.
      info.vnniGroupStride = arith::MulIOp::create(
          b, loc, constantI64(4, loc), toI64(info.sizes[info.vnniOuter], loc));
      info.strides[info.vnniOuter] = constantI64(4, loc);
      info.strideFactors[info.vnniOuter] = 4;
      info.staticStrides[info.vnniOuter] = 4;
      info.strideFactors[info.vnniInner] = 1;
      info.staticStrides[info.vnniInner] = std::nullopt;
    }
    tensors[kernel.getArgument(i)] = info;
  }
  for (SmemAllocOp alloc : sharedAllocs) {
    TensorInfo info;
    info.kind = TensorInfo::Kind::Shared;
    info.type = cast<KDA2TensorType>(alloc.getType());
    info.memref = map.lookup(alloc.getResult());
    tensors[alloc.getResult()] = info;
  }

  if (producerLoop) {
    // The block's threads compute; the last warp issues the copies.
    Value computes = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           threadId, constantIndex(blockX, loc));
    auto split = scf::IfOp::create(b, loc, TypeRange(), computes,
                                   /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(split.thenBlock());
    setGroupRegisters(groupRegisters ? groupRegisters.getComputing() : 0, loc);
    if (failed(lowerBlock(kernel.getBody().front())))
      return failure();
    b.setInsertionPointToStart(split.elseBlock());
    if (aheadLoop) {
      // The next blockX threads run the ahead body (their own numbering
      // and named barrier), the last warp the copies.
      Value ahead = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          threadId,
                                          constantIndex(producerThread(), loc));
      auto side = scf::IfOp::create(b, loc, TypeRange(), ahead,
                                    /*withElseRegion=*/true);
      b.setInsertionPointToStart(side.thenBlock());
      setGroupRegisters(groupRegisters ? groupRegisters.getAhead() : 0, loc);
      Value tid = threadId;
      threadId = arith::SubIOp::create(b, loc, tid, constantIndex(blockX, loc));
      barrierId = 2;
      LogicalResult lowered = lowerSide(kernel.getBody().front(), aheadSlice,
                                        [&] { return lowerAheadLoop(); });
      threadId = tid;
      barrierId = 1;
      if (failed(lowered))
        return failure();
      b.setInsertionPointToStart(side.elseBlock());
    }
    setGroupRegisters(groupRegisters ? groupRegisters.getProducer() : 0, loc);
    if (failed(lowerProducer(kernel.getBody().front())))
      return failure();
  } else if (failed(lowerBlock(kernel.getBody().front()))) {
    return failure();
  }
  b.setInsertionPointToEnd(&func.getBody().back());
  // A kernel that waits for ready flags started before the kernel setting
  // them ended (programmatic dependent launch): it ends after it, so that
  // the stream's next work sees all of that kernel's stores.
  if (waits)
    gridDepControl(NVVM::GridDepActionKind::wait, loc);
  gpu::ReturnOp::create(b, loc);
  if (failed(unrollLoops()))
    return failure();

  // Launch metadata for the runtime, as a NUL-terminated global string.
  std::string meta = buildMetadata();
  meta.push_back('\0');
  b.setInsertionPointToEnd(gpuModule.getBody());
  auto arrayType = LLVM::LLVMArrayType::get(b.getI8Type(), meta.size());
  LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/true,
                         LLVM::Linkage::External,
                         "__kda2_meta_" + name(),
                         b.getStringAttr(meta), /*alignment=*/1,
                         /*addrSpace=*/1);
  return success();
}

LogicalResult KernelLowering::unrollLoops() {
  // Rounds: every marked loop whose trip count is a constant now is
  // unrolled (inner loops first); the copies of an unrolled loop turn the
  // extents of inner loops that depended on its variable into constants
  // for the next round.
  bool any = false;
  while (true) {
    SmallVector<std::pair<scf::ForOp, int64_t>> ready;
    SmallVector<scf::ForOp> waiting;
    func.walk([&](scf::ForOp forOp) { // post-order: inner loops first
      if (!forOp->hasAttr(kUnrollAttr))
        return;
      if (std::optional<int64_t> trips =
              foldIndexConstant(forOp.getUpperBound()))
        ready.push_back({forOp, *trips});
      else
        waiting.push_back(forOp);
    });
    if (ready.empty()) {
      if (!waiting.empty())
        return emitError(waiting.front().getLoc())
               << "'#pragma unroll' needs a constant trip count (bind the "
                  "extent's names with --tirx-bind)";
      break;
    }
    // Unroll only the loops no other ready loop contains this round (the
    // outer one's copies would clone the inner ones), chosen before any is
    // unrolled (unrolling erases the loop).
    SmallVector<std::pair<scf::ForOp, int64_t>> innermost;
    for (auto [forOp, trips] : ready)
      if (llvm::none_of(ready, [&, forOp = forOp](auto &other) {
            return other.first != forOp &&
                   forOp->isProperAncestor(other.first);
          }))
        innermost.push_back({forOp, trips});
    for (auto [forOp, trips] : innermost) {
      Location loc = forOp.getLoc();
      if (trips > kMaxUnroll)
        return emitError(loc) << "'#pragma unroll' on a loop of " << trips
                              << " iterations (at most " << kMaxUnroll << ")";
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(forOp);
      if (trips <= 0) { // no iteration: the results are the inits
        forOp->replaceAllUsesWith(forOp.getInitArgs());
        forOp->erase();
        any = true;
        continue;
      }
      forOp.setUpperBound(constantIndex(trips, loc));
      if (failed(loopUnrollFull(forOp)))
        return emitError(loc) << "'#pragma unroll': the loop could not be "
                                 "unrolled";
      any = true;
    }
  }
  // The copies' loop variables are constants now: fold what they decide
  // (compile-time selects such as `where(j < i, ...)`, index arithmetic)
  // and drop what is left unused, so the IR (and the simulator reading it)
  // matches what LLVM makes of it.
  if (any)
    (void)applyPatternsGreedily(func, FrozenRewritePatternSet(
                                          RewritePatternSet(func.getContext())));
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// Where the lanes of a `lanes(P)` thread loop go. Across warps (each warp
/// then walks 32 consecutive iterations: whole 128-byte rows of K-first
/// state) when the extent fills whole warps and covers the block, so the
/// reductions' block barriers are reached by every thread; but those two
/// barriers per reduction sit on the critical path of a serial loop that
/// runs more than once (multi-token decode), so then the lanes stay in one
/// warp and reduce with shuffles. A @shape_hint copy with one iteration
/// counts as a single pass. Every loop of the kernel with the same extent
/// and lanes gets the same placement: a register tile (a state column)
/// filled in one of them is used in another, so a thread must hold the same
/// iteration and part in all (placed apart, a thread would update another
/// thread's column).
bool KernelLowering::placeLanesAcrossWarps(LoopOp loop) {
  int64_t split = loop.getLanesPerIteration();
  std::optional<int64_t> extent = getConstantIntValue(loop.getUpperBound());
  if (split <= 1 || !extent || *extent % 32 != 0 || *extent * split != blockX)
    return false;
  auto repeatsInside = [&](LoopOp lanes) {
    bool multiIteration = false;
    lanes.walk([&](LoopOp inner) {
      if (inner.getMapping() != LoopMapping::serial)
        return;
      std::optional<int64_t> trips = getConstantIntValue(inner.getUpperBound());
      if (auto dim = inner.getUpperBound().getDefiningOp<DimOp>())
        if (specialization && dim.getName() == specialization->dim)
          trips = specialization->value;
      multiIteration |= !trips || *trips > 1;
    });
    return multiIteration;
  };
  bool anyRepeats = false;
  kernel.walk([&](LoopOp other) {
    if (other.getMapping() == LoopMapping::thread &&
        other.getLanesPerIteration() == split &&
        getConstantIntValue(other.getUpperBound()) == extent)
      anyRepeats |= repeatsInside(other);
  });
  return !anyRepeats;
}

/// The tensors `op` (with everything nested in it) reads and writes, with
/// who makes each access (`SharedAccesses`). Loads and stores fused into a
/// tensor-core product or a tile copy count with the op that emits their
/// code; TMA copies count for nothing: their destinations become visible
/// through the mbarrier wait, and the issue waits at a block barrier for
/// earlier readers.
SharedAccesses KernelLowering::accessesOf(Operation *op) {
  SharedAccesses accesses;
  auto tracked = [&](Value tensor) {
    auto it = tensors.find(tensor);
    return it != tensors.end() &&
           it->second.kind != TensorInfo::Kind::Register;
  };
  if (fragmentLoads.contains(op) || copyLoads.contains(op) ||
      fusedStores.contains(op) || fusedCasts.contains(op))
    return accesses;
  // An ahead body runs on other threads (their own barriers), handing its
  // tiles over through the pipeline's stages.
  if (auto loop = dyn_cast<LoopOp>(op);
      loop && loop.getMapping() == LoopMapping::ahead)
    return accesses;
  if (auto matmul = dyn_cast<MatmulOp>(op); matmul && matmulStores.count(op)) {
    auto result = cast<RankedTensorType>(matmul.getResult().getType());
    int64_t owner = (result.getDimSize(0) << 20) | result.getDimSize(1);
    auto wholeShared = [&](Value tensor, ValueRange indices) {
      return indices.empty() &&
             tensors.lookup(tensor).kind == TensorInfo::Kind::Shared;
    };
    for (Value operand : {matmul.getA(), matmul.getB()})
      if (!mmaTileOf(operand))
        SharedAccesses::note(accesses.reads,
                             sharedOperandLoad(operand).getSource(), 0);
    if (Value acc = matmul.getAcc(); acc && !mmaTileOf(acc)) {
      auto load = acc.getDefiningOp<LoadOp>();
      SharedAccesses::note(
          accesses.reads, load.getSource(),
          wholeShared(load.getSource(), load.getIndices()) ? owner : 0);
    }
    StoreOp store = matmulStores.lookup(op);
    if (tracked(store.getDest()))
      SharedAccesses::note(
          accesses.writes, store.getDest(),
          wholeShared(store.getDest(), store.getIndices()) ? owner : 0);
    return accesses;
  }
  op->walk<WalkOrder::PreOrder>([&](Operation *inner) -> WalkResult {
    if (auto loop = dyn_cast<LoopOp>(inner);
        loop && loop.getMapping() == LoopMapping::ahead)
      return WalkResult::skip();
    if (auto load = dyn_cast<LoadOp>(inner)) {
      if (tracked(load.getSource()))
        SharedAccesses::note(accesses.reads, load.getSource(), 0);
    } else if (auto store = dyn_cast<StoreOp>(inner)) {
      bool tma = tmaCopies.count(store) || tmaGrouped.contains(store) ||
                 pipelinedCopies.contains(store);
      if (!tma && tracked(store.getDest()))
        SharedAccesses::note(accesses.writes, store.getDest(), 0);
      // A tile copy reads its source here (its load emits nothing).
      if (LoadOp source = tileCopies.lookup(store);
          source && !tma && tracked(source.getSource()))
        SharedAccesses::note(accesses.reads, source.getSource(), 0);
    }
    return WalkResult::advance();
  });
  return accesses;
}

/// A block barrier; in uniform code it orders everything before it.
void KernelLowering::blockBarrier(Location loc) {
  // A barrier does not wait for the asynchronous wgmma: a warpgroup past it
  // could overwrite a tile another one's pending product still reads.
  flushWgmma(loc);
  if (!producerLoop) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  auto i32 = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  if (blockX == 32) { // one computing warp: a warp barrier is enough
    NVVM::SyncWarpOp::create(b, loc, i32(-1));
    return;
  }
  NVVM::BarrierOp::create(b, loc, Type(), i32(barrierId), i32(blockX),
                          NVVM::BarrierReductionAttr(), Value());
}

void KernelLowering::emitBarrier(Location loc) {
  blockBarrier(loc);
  if (threadDepth == 0)
    pending.clear();
}

/// In uniform code, each op gets a barrier before it only when it touches
/// what earlier ops left for other threads (`SharedAccesses`). Inside
/// thread loops there are no barriers: the loop counts as one op.
LogicalResult KernelLowering::lowerBlock(Block &block) {
  // wgmma products still pending at the block's end are waited for here,
  // inside it (their values do not leave the region).
  llvm::scope_exit flushAtEnd([&] {
    if (!block.empty())
      flushWgmma(block.back().getLoc());
  });
  for (Operation &op : block) {
    if (loweredEarly.contains(&op))
      continue;
    if (threadDepth > 0 || !usesShared) {
      if (failed(lowerOp(&op)))
        return failure();
      continue;
    }
    SharedAccesses accesses = accessesOf(&op);
    if (pending.conflictsWith(accesses))
      emitBarrier(op.getLoc());
    if (failed(lowerOp(&op)))
      return failure();
    // A block or serial loop, or an `if`, leaves `pending` as its body
    // left it.
    auto loop = dyn_cast<LoopOp>(op);
    if (isa<IfOp>(op))
      continue;
    if (!loop || loop.getMapping() == LoopMapping::thread ||
        loop.getMapping() == LoopMapping::fragment)
      pending.merge(accesses);
  }
  return success();
}

/// The body of a uniform block or serial loop (`lowerBlock` has already put
/// a barrier before the loop if its body touches what came before). With
/// `backEdge`, a barrier ends the body when the next iteration could touch
/// what this one left. Afterwards, `pending` holds what came before and
/// what the body left (the loop may run no iteration).
LogicalResult KernelLowering::lowerUniformBody(Block &body, Location loc,
                                               bool backEdge,
                                               bool unorderedOutputs) {
  if (threadDepth > 0 || !usesShared)
    return lowerBlock(body);
  SharedAccesses before = std::move(pending);
  pending.clear();
  if (failed(lowerBlock(body)))
    return failure();
  if (backEdge && !pending.empty()) {
    SharedAccesses whole;
    for (Operation &op : body)
      whole.merge(accessesOf(&op));
    SharedAccesses last = pending;
    if (unorderedOutputs) {
      // Global tensors the body only writes: the next iteration's stores
      // need not wait for this one's.
      for (auto [tensor, owner] : llvm::to_vector(whole.writes))
        if (tensors.lookup(tensor).kind == TensorInfo::Kind::Global &&
            !whole.reads.contains(tensor)) {
          whole.writes.erase(tensor);
          last.writes.erase(tensor);
        }
    }
    // Staged buffers: the next iteration uses the next stage, and this
    // stage again only after its mbarriers say the other side is done.
    for (SharedAccesses *accesses : {&whole, &last})
      for (auto *set : {&accesses->reads, &accesses->writes})
        for (Value tensor : llvm::to_vector(llvm::make_first_range(*set)))
          if (auto it = tensors.find(tensor); it != tensors.end() &&
                                              it->second.stage)
            set->erase(tensor);
    if (last.conflictsWith(whole))
      emitBarrier(loc);
  }
  SharedAccesses left = std::move(pending);
  pending = std::move(before);
  pending.merge(left);
  return success();
}

LogicalResult KernelLowering::lowerOp(Operation *op) {
  Location loc = op->getLoc();
  if (!leavesWgmmaPending(op))
    flushWgmma(loc);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<GmemOp, ReturnOp, SmemAllocOp>([](auto) { return success(); })
      .Case<RegAllocOp>([&](RegAllocOp alloc) -> LogicalResult {
        auto type = cast<KDA2TensorType>(alloc.getType());
        SmallVector<int64_t> shape(type.getShape());
        if (alloc.getMma()) {
          int64_t rows = shape[0], cols = shape[1];
          MmaSplit split = mmaSplitOf(alloc.getSplit());
          if (failed(checkMmaSplit(alloc, "mma register tile", split, rows,
                                   cols)))
            return failure();
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(&func.getBody().front());
          TensorInfo info;
          info.kind = TensorInfo::Kind::Register;
          info.type = type;
          info.mma = true;
          info.rows = rows;
          info.cols = cols;
          info.split = split;
          info.memref = memref::AllocaOp::create(
              b, loc,
              MemRefType::get({rows * cols / (32 * splitWarps(split))},
                              b.getF32Type()));
          tensors[alloc.getResult()] = info;
          return success();
        }
        if (int64_t split = regLanes.lookup(alloc.getResult())) {
          if (shape.size() != 1 || shape[0] % split != 0)
            return alloc.emitOpError()
                   << "a register tile used by a lanes(" << split
                   << ") loop must be rank 1 with a size divisible by "
                   << split;
          shape[0] /= split;
        }
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&func.getBody().front());
        Value memref = memref::AllocaOp::create(
            b, loc, MemRefType::get(shape, signless(type.getElementType())));
        TensorInfo info;
        info.kind = TensorInfo::Kind::Register;
        info.type = type;
        info.memref = memref;
        tensors[alloc.getResult()] = info;
        return success();
      })
      .Case<DimOp>([&](DimOp dim) {
        map.map(dim.getResult(), dimIndex.lookup(dim.getName()));
        return success();
      })
      .Case<GridIndexOp>([&](GridIndexOp index) {
        map.map(index.getResult(), gridIndexByName.lookup(index.getName()));
        return success();
      })
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) {
        Attribute value = c.getValue();
        if (auto integer = dyn_cast<IntegerAttr>(value))
          value = IntegerAttr::get(signless(integer.getType()),
                                   integer.getValue());
        map.map(c.getResult(), arith::ConstantOp::create(
                                   b, loc, cast<TypedAttr>(value)));
        return success();
      })
      .Case<LoopOp>([&](LoopOp loop) { return lowerLoop(loop); })
      .Case<IfOp>([&](IfOp branch) { return lowerIf(branch); })
      .Case<LoadOp>([&](LoadOp load) {
        return fragmentLoads.contains(load) || copyLoads.contains(load)
                   ? success()
                   : lowerLoad(load);
      })
      .Case<StoreOp>([&](StoreOp store) {
        if (LoadOp source = tileCopies.lookup(store)) {
          if (tmaGrouped.contains(store))
            return success(); // issued and waited for with its group
          if (pipelinedCopies.contains(store)) {
            // Issued one iteration ahead and waited for at the iteration's
            // top; what lies past a bounded window's limit is cleared here.
            clearPastLimits(store);
            return success();
          }
          if (tmaCopies.count(store))
            return lowerTmaCopy(store);
          return lowerTileCopy(store, source);
        }
        return fusedStores.contains(store) ? success() : lowerStore(store);
      })
      .Case<MatmulOp>([&](MatmulOp matmul) { return lowerMatmul(matmul); })
      .Case<SignalOp>([&](SignalOp signal) { return lowerSignal(signal); })
      .Case<LaunchDependentsOp, WaitPriorOp>([&](Operation *order) {
        gridDepControl(isa<WaitPriorOp>(order)
                           ? NVVM::GridDepActionKind::wait
                           : NVVM::GridDepActionKind::launch_dependents,
                       order->getLoc());
        return success();
      })
      .Case<WaitOp>([&](WaitOp wait) {
        // A pipelined loop's flag is waited for where its copies are issued.
        return pipelinedWaits.contains(wait) ? success() : lowerWait(wait);
      })
      .Case<CastOp>([&](CastOp cast) {
        return fusedCasts.contains(cast) ? success() : lowerElementwise(cast);
      })
      .Case<ReduceOp>([&](ReduceOp reduce) { return lowerReduce(reduce); })
      .Case<CounterOp>([&](CounterOp counter) {
        Value value = lookup(counter.getValue());
        unsigned slot = counterSlots.lookup(counter);
        // Count once per logical execution, like a store: thread 0 in
        // uniform code, the first lane of an iteration in a lanes(P) loop.
        Value first;
        if (threadDepth == 0)
          first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        threadId, constantIndex(0, loc));
        else if (lanes > 1)
          first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        lanePart, constantIndex(0, loc));
        OpBuilder::InsertionGuard guard(b);
        if (first)
          b.setInsertionPointToStart(
              scf::IfOp::create(b, loc, TypeRange(), first, false)
                  .thenBlock());
        auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 1);
        bool isFloat = isa<FloatType>(value.getType());
        Type slotType = isFloat ? Type(b.getF64Type()) : Type(b.getI64Type());
        Value ptr = LLVM::GEPOp::create(b, loc, ptrType, slotType, countersPtr,
                                        ArrayRef<LLVM::GEPArg>{int32_t(slot)});
        if (isFloat) {
          if (!value.getType().isF64())
            value = arith::ExtFOp::create(b, loc, b.getF64Type(), value);
          LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::fadd, ptr,
                                    value, LLVM::AtomicOrdering::monotonic);
        } else {
          if (value.getType().isIndex())
            value = toI64(value, loc);
          else if (value.getType().getIntOrFloatBitWidth() < 64)
            value = arith::ExtSIOp::create(b, loc, b.getI64Type(), value);
          LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, ptr,
                                    value, LLVM::AtomicOrdering::monotonic);
        }
        return success();
      })
      .Default([&](Operation *op) { return lowerElementwise(op); });
}

LogicalResult KernelLowering::lowerLoop(LoopOp loop) {
  Location loc = loop.getLoc();
  Value upper = lookup(loop.getUpperBound());
  std::optional<int64_t> extent = getConstantIntValue(loop.getUpperBound());
  bool warpReduce = false;
  if (ArrayAttr annotations = loop.getAnnotationsAttr())
    warpReduce = llvm::any_of(annotations, [](Attribute a) {
      return isa<WarpReduceAttr>(a);
    });
  warpReduceStack.push_back(warpReduce);
  llvm::scope_exit popWarpReduce([&] { warpReduceStack.pop_back(); });
  bool l2Prefetch = hasPragma(loop, PragmaKind::l2_prefetch);
  if (ArrayAttr pragmas = kernel.getPragmasAttr())
    l2Prefetch |= llvm::any_of(pragmas, [](Attribute a) {
      return cast<PragmaAttr>(a).getKind() == PragmaKind::l2_prefetch;
    });
  if (l2Prefetch && !hasL2Prefetch && !specialization)
    loop.emitWarning() << "'#pragma l2_prefetch' is ignored on " << chip
                       << ": prefetch.global.L2 needs sm_90 or newer";
  l2PrefetchDepth += l2Prefetch;
  llvm::scope_exit popPrefetch([&] { l2PrefetchDepth -= l2Prefetch; });


  // A block loop's body is uniform code (one CTA per iteration).
  auto lowerBody = [&] {
    return loop.getMapping() == LoopMapping::block
               ? lowerUniformBody(*loop.getBodyBlock(), loc, /*backEdge=*/false)
               : lowerBlock(*loop.getBodyBlock());
  };
  auto emitGuardedBody = [&](Value iv, Value cond) -> LogicalResult {
    map.map(loop.getInductionVar(), iv);
    if (!cond)
      return lowerBody();
    auto ifOp = scf::IfOp::create(b, loc, TypeRange(), cond,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    return lowerBody();
  };

  switch (loop.getMapping()) {
  case LoopMapping::block: {
    if (loop == persistentLoop)
      return lowerPersistentLoop(loop, upper);
    Value bx = blockXIndex ? blockXIndex
                           : Value(gpu::BlockIdOp::create(b, loc,
                                                          gpu::Dimension::x));
    bool exact = gridXDims.empty() && extent &&
                 *extent == *llvm::max_element(gridXStatic);
    Value cond;
    if (!exact)
      cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, bx,
                                   upper);
    return emitGuardedBody(bx, cond);
  }
  case LoopMapping::thread: {
    int64_t split = loop.getLanesPerIteration();
    Value iv = threadId;
    Value part;
    // Lanes of an extent that fills whole warps go to different warps (each
    // warp then walks 32 consecutive iterations: full rows of K-first state);
    // otherwise to consecutive lanes of one warp (shuffle reductions).
    bool acrossWarps = placeLanesAcrossWarps(loop);
    if (acrossWarps) {
      iv = arith::RemUIOp::create(b, loc, threadId, constantIndex(*extent, loc));
      part = arith::DivUIOp::create(b, loc, threadId,
                                    constantIndex(*extent, loc));
    } else if (split > 1) {
      iv = arith::DivUIOp::create(b, loc, threadId, constantIndex(split, loc));
      part = arith::RemUIOp::create(b, loc, threadId,
                                    constantIndex(split, loc));
    }
    Value cond;
    if (!extent || *extent * split != blockX)
      cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, iv,
                                   upper);
    ++threadDepth;
    int64_t savedLanes = lanes, savedExtent = laneExtent;
    Value savedPart = lanePart, savedIv = laneIv;
    bool savedAcross = lanesAcrossWarps;
    lanes = split;
    lanePart = part;
    lanesAcrossWarps = acrossWarps;
    laneExtent = extent ? *extent : 0;
    laneIv = iv;
    LogicalResult result = emitGuardedBody(iv, cond);
    lanes = savedLanes;
    lanePart = savedPart;
    lanesAcrossWarps = savedAcross;
    laneExtent = savedExtent;
    laneIv = savedIv;
    --threadDepth;
    return result;
  }
  case LoopMapping::serial: {
    if (pipelinedLoops.count(loop))
      return lowerPipelinedLoop(loop, upper);
    auto forOp = scf::ForOp::create(b, loc, constantIndex(0, loc), upper,
                                    constantIndex(1, loc));
    if (hasPragma(loop, PragmaKind::unroll)) {
      // Unrolled once the whole kernel is lowered (unrollLoops). Inside an
      // unrolled loop the extent may depend on its variable (a triangular
      // `for j in schedule.serial(i)`): constant once the outer one is.
      std::optional<int64_t> trips = foldIndexConstant(upper);
      bool inUnrolled = false;
      for (auto outer = loop->getParentOfType<LoopOp>(); outer && !inUnrolled;
           outer = outer->getParentOfType<LoopOp>())
        inUnrolled = outer.getMapping() == LoopMapping::serial &&
                     hasPragma(outer, PragmaKind::unroll);
      if (!trips && !inUnrolled)
        return loop.emitOpError()
               << "'#pragma unroll' needs a constant trip count (bind the "
                  "extent's names with --tirx-bind)";
      if (trips && *trips > kMaxUnroll)
        return loop.emitOpError()
               << "'#pragma unroll' on a loop of " << *trips
               << " iterations (at most " << kMaxUnroll << ")";
      if (trips)
        forOp.setUpperBound(constantIndex(*trips, loc));
      forOp->setAttr(kUnrollAttr, b.getUnitAttr());
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(forOp.getBody()->getTerminator());
    map.map(loop.getInductionVar(), forOp.getInductionVar());
    if (l2PrefetchDepth > 0 && hasL2Prefetch)
      emitNextIterationPrefetch(loop, forOp.getInductionVar(), upper);
    return lowerUniformBody(*loop.getBodyBlock(), loc, /*backEdge=*/true);
  }
  case LoopMapping::fragment:
    return lowerFragmentLoop(loop);
  case LoopMapping::ahead:
    // The ahead group's code (lowerAheadLoop), not the computing threads'.
    return success();
  case LoopMapping::warp:
    break;
  }
  return loop.emitOpError() << "unsupported loop mapping";
}

/// `kda2.if` becomes scf.if. In uniform code each branch is lowered like a
/// loop body that runs at most once (barriers inside it for its own shared
/// accesses); `pending` afterwards holds what either branch left. The
/// verifier has made sure a condition that differs between threads guards
/// nothing that needs every thread (shuffles, barriers, products).
LogicalResult KernelLowering::lowerIf(IfOp branch) {
  Location loc = branch.getLoc();
  Block *elseBlock = branch.getElseBlock();
  bool hasElse = elseBlock && !elseBlock->empty();
  auto ifOp = scf::IfOp::create(b, loc, TypeRange(),
                                lookup(branch.getCondition()), hasElse);
  OpBuilder::InsertionGuard guard(b);
  SharedAccesses before = pending;
  b.setInsertionPointToStart(ifOp.thenBlock());
  if (failed(lowerUniformBody(*branch.getThenBlock(), loc,
                              /*backEdge=*/false)))
    return failure();
  if (!hasElse)
    return success();
  SharedAccesses afterThen = std::move(pending);
  pending = std::move(before);
  b.setInsertionPointToStart(ifOp.elseBlock());
  if (failed(lowerUniformBody(*elseBlock, loc, /*backEdge=*/false)))
    return failure();
  pending.merge(afterThen);
  return success();
}

//===----------------------------------------------------------------------===//
// Memory access
//===----------------------------------------------------------------------===//

/// Grid prefix (for global tensors) followed by the lowered explicit indices.
SmallVector<Value> KernelLowering::accessIndices(Value tensor,
                                                 ValueRange explicitIndices) {
  SmallVector<Value> indices;
  TensorInfo &info = tensors[tensor];
  if (info.kind == TensorInfo::Kind::Global)
    for (unsigned d = 0, e = getImplicitGridRank(info.type, kernel); d < e; ++d)
      indices.push_back(gridIndexByName.lookup(info.type.getDimName(d)));
  if (info.kind == TensorInfo::Kind::Shared && info.stage)
    indices.push_back(info.stage);
  for (Value index : explicitIndices)
    indices.push_back(lookup(index));
  return indices;
}

Value KernelLowering::globalOffset(TensorInfo &info, ArrayRef<Value> indices,
                                   Location loc) {
  Value offset = constantI64(0, loc);
  for (auto [d, index] : llvm::enumerate(indices)) {
    Value term;
    if (int64_t(d) == info.vnniInner) {
      // vnni4: (c / 4) * 4 * r_size + c % 4.
      Value c = toI64(index, loc), four = constantI64(4, loc);
      Value groups = arith::MulIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, c, four),
          info.vnniGroupStride);
      Value within = arith::RemUIOp::create(b, loc, c, four);
      term = arith::AddIOp::create(b, loc, groups, within);
    } else {
      term = arith::MulIOp::create(b, loc, toI64(index, loc), info.strides[d]);
    }
    offset = arith::AddIOp::create(b, loc, offset, term);
  }
  return offset;
}

/// Alignment in bytes that the element offset of an access with
/// `numIndexed` leading indices is known to have (the base pointer is
/// assumed 16-byte aligned; the runtime checks it).
unsigned KernelLowering::globalAlignment(TensorInfo &info,
                                         unsigned numIndexed,
                                         int64_t blockElements) {
  int64_t eb = elementBytes(info.type.getElementType());
  int64_t g = 0;
  for (unsigned d = 0; d < numIndexed; ++d)
    g = std::gcd(g, info.strideFactors[d] * eb);
  if (blockElements)
    g = std::gcd(g, blockElements * eb);
  if (g == 0)
    g = 16;
  int64_t align = 1;
  while (align < 16 && g % (align * 2) == 0)
    align *= 2;
  return std::max<int64_t>(align, eb);
}

Value KernelLowering::elementPointer(TensorInfo &info, ArrayRef<Value> indices,
                                     Location loc) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 1);
  Value offset = globalOffset(info, indices, loc);
  return LLVM::GEPOp::create(b, loc, ptrType,
                             signless(info.type.getElementType()), info.ptr,
                             ValueRange{offset});
}

/// Condition that every explicit index into a dynamic dimension is in range,
/// or null when that is evident (the index is a loop variable bounded by
/// the same named dimension).
Value KernelLowering::inBoundsCondition(TensorInfo &info,
                                        ValueRange explicitIndices,
                                        unsigned gridRank, Location loc) {
  Value cond;
  for (auto [i, index] : llvm::enumerate(explicitIndices)) {
    unsigned d = gridRank + i;
    if (!ShapedType::isDynamic(info.type.getShape()[d]))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(index))
      if (auto loop = dyn_cast<LoopOp>(arg.getOwner()->getParentOp()))
        if (auto dim = loop.getUpperBound().getDefiningOp<DimOp>())
          if (dim.getName() == info.type.getDimName(d))
            continue;
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          lookup(index), info.sizes[d]);
    cond = cond ? arith::AndIOp::create(b, loc, cond, inRange) : inRange;
  }
  return cond;
}

Value KernelLowering::loadElement(TensorInfo &info, ArrayRef<Value> indices,
                                  Location loc) {
  Type element = signless(info.type.getElementType());
  if (info.kind != TensorInfo::Kind::Global)
    return memref::LoadOp::create(b, loc, info.memref, indices);
  return LLVM::LoadOp::create(b, loc, element,
                              elementPointer(info, indices, loc),
                              elementBytes(element));
}

void KernelLowering::storeElement(TensorInfo &info, ArrayRef<Value> indices,
                                  Value value, Location loc) {
  if (info.kind != TensorInfo::Kind::Global) {
    memref::StoreOp::create(b, loc, value, info.memref, indices);
    return;
  }
  LLVM::StoreOp::create(b, loc, value, elementPointer(info, indices, loc),
                        elementBytes(value.getType()));
}

/// The first element and the length of this lane's block of a rank-1 tile
/// of `n` elements: the whole tile, or block `lanePart` of `lanes` when the
/// tile is distributed. Register tiles of a lanes loop hold only the block.
std::pair<Value, int64_t> KernelLowering::tileRange(TensorInfo &info,
                                                    RankedTensorType tile,
                                                    Location loc) {
  int64_t n = tile.getDimSize(0);
  if (!isDistributed(tile))
    return {constantIndex(0, loc), n};
  int64_t block = n / lanes;
  if (info.kind == TensorInfo::Kind::Register)
    return {constantIndex(0, loc), block};
  return {arith::MulIOp::create(b, loc, lanePart, constantIndex(block, loc)),
          block};
}

/// Loads the tile of the trailing dimensions after `prefix` (this lane's
/// block of it when the tile is distributed).
Value KernelLowering::loadTile(TensorInfo &info, ArrayRef<Value> prefix,
                               RankedTensorType tile, Location loc) {
  Type element = signless(tile.getElementType());
  if (tile.getRank() == 1) {
    auto [start, n] = tileRange(info, tile, loc);
    auto rowType = VectorType::get({n}, element);
    SmallVector<Value> indices(prefix);
    indices.push_back(start);
    if (info.kind != TensorInfo::Kind::Global)
      return vector::LoadOp::create(b, loc, rowType, info.memref, indices);
    unsigned d = prefix.size();
    auto gather = [&]() -> Value {
      SmallVector<Value> elements;
      SmallVector<Value> at(indices);
      for (int64_t k = 0; k < n; ++k) {
        at.back() = arith::AddIOp::create(b, loc, start, constantIndex(k, loc));
        elements.push_back(loadElement(info, at, loc));
      }
      return vector::FromElementsOp::create(b, loc, rowType, elements);
    };
    if (info.staticStrides[d] != 1)
      return gather(); // strided: element by element
    unsigned align = globalAlignment(info, prefix.size(),
                                     isDistributed(tile) ? n : 0);
    return LLVM::LoadOp::create(b, loc, rowType,
                                elementPointer(info, indices, loc), align);
  }
  // Higher rank: one row-tile per leading index.
  auto vectorType = cast<VectorType>(lowerValueType(tile));
  Value result = arith::ConstantOp::create(b, loc, b.getZeroAttr(vectorType));
  int64_t rows = tile.getDimSize(0);
  auto rowTile = RankedTensorType::get(tile.getShape().drop_front(),
                                       tile.getElementType());
  for (int64_t r = 0; r < rows; ++r) {
    SmallVector<Value> rowPrefix(prefix);
    rowPrefix.push_back(constantIndex(r, loc));
    Value row = loadTile(info, rowPrefix, rowTile, loc);
    result = vector::InsertOp::create(b, loc, row, result, r);
  }
  return result;
}

void KernelLowering::storeTile(TensorInfo &info, ArrayRef<Value> prefix,
                               Value vector, RankedTensorType tile,
                               Location loc) {
  if (tile.getRank() == 1) {
    auto [start, n] = tileRange(info, tile, loc);
    SmallVector<Value> indices(prefix);
    indices.push_back(start);
    if (info.kind != TensorInfo::Kind::Global) {
      vector::StoreOp::create(b, loc, vector, info.memref, indices);
      return;
    }
    unsigned d = prefix.size();
    auto scatter = [&]() {
      SmallVector<Value> at(indices);
      for (int64_t k = 0; k < n; ++k) {
        at.back() = arith::AddIOp::create(b, loc, start, constantIndex(k, loc));
        Value element = vector::ExtractOp::create(b, loc, vector, k);
        storeElement(info, at, element, loc);
      }
    };
    if (info.staticStrides[d] != 1)
      return scatter();
    LLVM::StoreOp::create(b, loc, vector, elementPointer(info, indices, loc),
                          globalAlignment(info, prefix.size(),
                                          isDistributed(tile) ? n : 0));
    return;
  }
  auto rowTile = RankedTensorType::get(tile.getShape().drop_front(),
                                       tile.getElementType());
  for (int64_t r = 0; r < tile.getDimSize(0); ++r) {
    SmallVector<Value> rowPrefix(prefix);
    rowPrefix.push_back(constantIndex(r, loc));
    Value row = vector::ExtractOp::create(b, loc, vector, r);
    storeTile(info, rowPrefix, row, rowTile, loc);
  }
}

/// `#pragma l2_prefetch` on a serial loop (or an enclosing loop, or the
/// kernel): at the start of iteration i, prefetch into L2 the lines that the
/// global loads indexed by the loop variable will read in iteration i + 1
/// (`prefetch.global.L2`), so the next token's q/k/v/g are on chip when it
/// starts. One prefetch per 128-byte line of each tile, issued by the lanes
/// of the warp in turn.
void KernelLowering::emitNextIterationPrefetch(LoopOp loop, Value iv,
                                               Value upper) {
  Location loc = loop.getLoc();
  // A load whose other indices are computed in the body (not lowered yet
  // when the prefetch is emitted, e.g. `t = table[seq, j]` after `seq = ..`
  // inside the loop) is left out: its next address is not known here.
  auto definedOutside = [&](Value index) {
    return index == loop.getInductionVar() ||
           !loop->isAncestor(index.getParentRegion()->getParentOp());
  };
  SmallVector<LoadOp> loads;
  for (Operation &op : *loop.getBodyBlock())
    if (auto load = dyn_cast<LoadOp>(op))
      if (tensors[load.getSource()].kind == TensorInfo::Kind::Global &&
          llvm::is_contained(load.getIndices(), loop.getInductionVar()) &&
          llvm::all_of(load.getIndices(), definedOutside))
        loads.push_back(load);
  if (loads.empty())
    return;
  Value next = arith::AddIOp::create(b, loc, iv, constantIndex(1, loc));
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next, upper);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange(), inRange, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  auto l2 = NVVM::PrefetchCacheLevelAttr::get(b.getContext(),
                                              NVVM::PrefetchCacheLevel::L2);
  for (LoadOp load : loads) {
    TensorInfo &info = tensors[load.getSource()];
    SmallVector<Value> indices;
    for (unsigned d = 0, e = getImplicitGridRank(info.type, kernel); d < e; ++d)
      indices.push_back(gridIndexByName.lookup(info.type.getDimName(d)));
    for (Value index : load.getIndices())
      indices.push_back(index == loop.getInductionVar() ? next : lookup(index));
    int64_t bytes = elementBytes(info.type.getElementType());
    if (auto tile = dyn_cast<RankedTensorType>(load.getType())) {
      for (int64_t d : tile.getShape())
        bytes *= d;
      while (indices.size() < info.type.getRank())
        indices.push_back(constantIndex(0, loc));
    }
    Value base = elementPointer(info, indices, loc);
    // Lane l of the warp prefetches line l (tiles up to 4 KiB).
    int64_t lines = std::min<int64_t>(32, llvm::divideCeil(bytes, 128));
    Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, laneId,
                                       constantIndex(lines, loc));
    auto lineIf = scf::IfOp::create(b, loc, TypeRange(), mine, false);
    OpBuilder::InsertionGuard lineGuard(b);
    b.setInsertionPointToStart(lineIf.thenBlock());
    Value offset = arith::MulIOp::create(b, loc, toI64(laneId, loc),
                                         constantI64(128, loc));
    Value ptr = LLVM::GEPOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), b.getI8Type(),
        base, ValueRange{offset});
    NVVM::PrefetchOp::create(b, loc, l2, NVVM::CacheEvictionPriorityAttr(),
                             ptr, Value(), UnitAttr());
  }
}

/// `read()` when `cond` is null or holds, else zero of `type` (an scf.if).
Value KernelLowering::readOrZero(Value cond, Type type,
                                 function_ref<Value()> read, Location loc) {
  if (!cond)
    return read();
  auto ifOp = scf::IfOp::create(b, loc, type, cond, /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, read());
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(
      b, loc,
      ValueRange{
          arith::ConstantOp::create(b, loc, b.getZeroAttr(type)).getResult()});
  return ifOp.getResult(0);
}

/// An element of an mma register tile is reached only in a fragment loop
/// over a tile of its shape, at the loop's (row, column): the register slot
/// (an index into the thread's part) the current copy of the body stands for.
FailureOr<Value> KernelLowering::fragmentAccess(Operation *op,
                                                const TensorInfo &info,
                                                ValueRange indices) {
  if (currentFragmentSlot < 0 || indices.size() != 2 ||
      indices[0] != fragmentRow || indices[1] != fragmentCol)
    return op->emitOpError()
           << "reaches an element of an mma register tile other than at "
              "(r, c) of a fragment loop over it ('for r, c in "
              "schedule.fragment(t)'); products read and write the tile "
              "whole";
  if (info.rows != fragmentRows || info.cols != fragmentCols)
    return op->emitOpError()
           << "reaches an mma register tile of shape [" << info.rows << ", "
           << info.cols << "] in a fragment loop over a [" << fragmentRows
           << ", " << fragmentCols
           << "] tile (the threads hold different elements)";
  if (info.split != fragmentSplit)
    return op->emitOpError()
           << "reaches an mma register tile in a fragment loop over a tile "
              "of another split (the threads hold different elements)";
  return constantIndex(currentFragmentSlot, op->getLoc());
}

LogicalResult KernelLowering::lowerLoad(LoadOp load) {
  Location loc = load.getLoc();
  if (load.getWindows()) // not the source of a tile copy
    return load.emitOpError()
           << "reads a window: it is copied whole into a shared buffer, in "
              "uniform code (a kda2.store of it, outside thread loops)";
  TensorInfo &info = tensors[load.getSource()];
  if (info.mma) {
    FailureOr<Value> slot = fragmentAccess(load, info, load.getIndices());
    if (failed(slot))
      return failure();
    map.map(load.getResult(),
            memref::LoadOp::create(b, loc, info.memref, ValueRange{*slot}));
    return success();
  }
  SmallVector<Value> indices =
      accessIndices(load.getSource(), load.getIndices());
  unsigned gridRank = indices.size() - load.getIndices().size();
  Type resultType = lowerType(load.getType());
  Value cond;
  if (info.kind == TensorInfo::Kind::Global)
    cond = inBoundsCondition(info, load.getIndices(), gridRank, loc);

  auto emit = [&]() -> Value {
    if (auto tile = dyn_cast<RankedTensorType>(load.getType()))
      return loadTile(info, indices, tile, loc);
    return loadElement(info, indices, loc);
  };
  if (cond && !isa<RankedTensorType>(load.getType()))
    if (Value value = predicatedLoad(info, indices, cond, loc)) {
      map.map(load.getResult(), value);
      return success();
    }
  map.map(load.getResult(), readOrZero(cond, resultType, emit, loc));
  return success();
}

/// A bounds-checked scalar global load as one predicated PTX load (`@p
/// ld.global`, zero when `cond` is false), without a branch: the loads of
/// consecutive statements stay in one block, where ptxas can issue them
/// together (a branch around each load serialises their latencies). Null
/// for element widths other than 16, 32 and 64 bits.
Value KernelLowering::predicatedLoad(TensorInfo &info, ArrayRef<Value> indices,
                                     Value cond, Location loc) {
  Type element = signless(info.type.getElementType());
  unsigned bits = element.getIntOrFloatBitWidth();
  char reg = bits == 16 ? 'h' : bits == 32 ? 'r' : bits == 64 ? 'l' : 0;
  if (!reg)
    return Value();
  bool readOnly = kernel.getArgIOKind(info.argIndex) == IOKind::in;
  std::string text = llvm::formatv("mov.b{0} $0, 0;\n\t@$2 ld.global{1}.b{0} "
                                   "$0, [$1];",
                                   bits, readOnly ? ".nc" : "")
                         .str();
  std::string constraints = llvm::formatv("={0},l,b", reg).str();
  Value pointer = elementPointer(info, indices, loc);
  // A read-only input cannot change while the kernel runs: its load is a
  // pure function of the address (CSE'd, hoisted). A tensor the kernel
  // writes (`out`, `inout`) can, through other threads between two reads:
  // its load is marked as having side effects, so no pass merges or moves
  // it across those writes and the barriers that order them.
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, b.getIntegerType(bits), ValueRange{pointer, cond}, text,
      constraints, /*has_side_effects=*/!readOnly, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  // The simulator models it as the global load it is.
  asmOp->setAttr(kPredicatedLoadAttr, b.getUnitAttr());
  Value bitsValue = asmOp.getResult(0);
  if (element.isInteger(bits))
    return bitsValue;
  return LLVM::BitcastOp::create(b, loc, element, bitsValue);
}

LogicalResult KernelLowering::lowerStore(StoreOp store) {
  Location loc = store.getLoc();
  TensorInfo &info = tensors[store.getDest()];
  if (info.mma) {
    FailureOr<Value> slot = fragmentAccess(store, info, store.getIndices());
    if (failed(slot))
      return failure();
    Value value = lookup(store.getValue());
    if (!value.getType().isF32())
      value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    memref::StoreOp::create(b, loc, value, info.memref, ValueRange{*slot});
    return success();
  }
  SmallVector<Value> indices =
      accessIndices(store.getDest(), store.getIndices());
  unsigned gridRank = indices.size() - store.getIndices().size();
  Value value = lookup(store.getValue());
  Value cond;
  if (info.kind == TensorInfo::Kind::Global)
    cond = inBoundsCondition(info, store.getIndices(), gridRank, loc);
  // Uniform code runs on every thread: one thread writes shared/global data.
  // Inside a lanes(P) loop, a value that is not a distributed tile is the
  // same on the P lanes: the first of them writes it.
  bool uniform = threadDepth == 0 && info.kind != TensorInfo::Kind::Register;
  if (uniform) {
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        threadId, constantIndex(0, loc));
    cond = cond ? arith::AndIOp::create(b, loc, cond, first) : first;
  } else if (lanes > 1 && info.kind != TensorInfo::Kind::Register &&
             !isDistributed(store.getValue().getType())) {
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        lanePart, constantIndex(0, loc));
    cond = cond ? arith::AndIOp::create(b, loc, cond, first) : first;
  }
  {
    OpBuilder::InsertionGuard guard(b);
    if (cond) {
      auto ifOp = scf::IfOp::create(b, loc, TypeRange(), cond, false);
      b.setInsertionPointToStart(ifOp.thenBlock());
    }
    if (auto tile = dyn_cast<RankedTensorType>(store.getValue().getType()))
      storeTile(info, indices, value, tile, loc);
    else
      storeElement(info, indices, value, loc);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Whole-tile copies
//===----------------------------------------------------------------------===//

/// `kda2.store (kda2.load %src[...]), %dst[...]` of a tile in uniform code,
/// from global to shared memory or back (or shared to shared): instead of
/// thread 0 moving the tile, every thread of the block copies 16-byte
/// pieces (or the widest the alignment allows) in turn.
void KernelLowering::checkTileCopy(StoreOp store) {
  auto tile = dyn_cast<RankedTensorType>(store.getValue().getType());
  auto load = store.getValue().getDefiningOp<LoadOp>();
  if (!tile || !load || !load->hasOneUse() ||
      load->getBlock() != store->getBlock() || !tile.hasStaticShape())
    return;
  for (auto loop = store->getParentOfType<LoopOp>(); loop;
       loop = loop->getParentOfType<LoopOp>())
    if (loop.getMapping() == LoopMapping::thread)
      return;
  auto space = [](Value t) {
    return cast<KDA2TensorType>(t.getType()).getMemorySpace();
  };
  MemorySpace from = space(load.getSource()), to = space(store.getDest());
  if (from == MemorySpace::reg || to == MemorySpace::reg ||
      (from != MemorySpace::smem && to != MemorySpace::smem))
    return;
  tileCopies[store] = load;
  copyLoads.insert(load);
}

KernelLowering::TileCopy KernelLowering::tileCopyOf(StoreOp store,
                                                    LoadOp load) {
  TileCopy copy;
  copy.tile = cast<RankedTensorType>(store.getValue().getType());
  copy.src = &tensors[load.getSource()];
  copy.dst = &tensors[store.getDest()];
  copy.srcPrefix = accessIndices(load.getSource(), load.getIndices());
  copy.dstPrefix = accessIndices(store.getDest(), store.getIndices());
  copy.element = signless(copy.tile.getElementType());
  copy.eb = elementBytes(copy.element);
  copy.rank = copy.tile.getRank();
  copy.cols = copy.tile.getShape().back();
  copy.rows = copy.tile.getNumElements() / copy.cols;
  return copy;
}

SmallVector<Value> KernelLowering::pieceCoords(Value piece,
                                               RankedTensorType tile,
                                               int64_t vec, Location loc) {
  auto c = [&](int64_t v) { return constantIndex(v, loc); };
  int64_t rank = tile.getRank(), perRow = tile.getShape().back() / vec;
  SmallVector<Value> coords(rank);
  coords[rank - 1] = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, piece, c(perRow)), c(vec));
  Value row = arith::DivUIOp::create(b, loc, piece, c(perRow));
  for (int64_t d = rank - 2; d >= 0; --d) {
    Value size = c(tile.getShape()[d]);
    coords[d] = d == 0 ? row : arith::RemUIOp::create(b, loc, row, size);
    if (d > 0)
      row = arith::DivUIOp::create(b, loc, row, size);
  }
  return coords;
}

LogicalResult KernelLowering::lowerTileCopy(StoreOp store, LoadOp load) {
  if (load.getWindows())
    return lowerWindowCopy(store, load);
  Location loc = store.getLoc();
  TileCopy copy = tileCopyOf(store, load);
  auto tile = copy.tile;
  TensorInfo &src = *copy.src, &dst = *copy.dst;
  SmallVector<Value> &srcPrefix = copy.srcPrefix, &dstPrefix = copy.dstPrefix;
  Type element = copy.element;
  int64_t eb = copy.eb, rank = copy.rank, cols = copy.cols, rows = copy.rows;

  // Widest piece both sides allow: the byte alignment of every row start.
  auto alignOf = [&](TensorInfo &info, size_t prefixRank) -> int64_t {
    if (info.kind == TensorInfo::Kind::Global) {
      // vnni4: a group of 4 along the packed dimension is contiguous (the
      // tile's rows start on group boundaries when their length is a
      // multiple of 4).
      if (info.vnniInner == int64_t(info.type.getRank()) - 1)
        return cols % 4 == 0 ? std::min<int64_t>(16, 4 * eb) : eb;
      if (info.staticStrides.back() != 1)
        return eb;
      return globalAlignment(info, prefixRank + rank - 1);
    }
    auto shape = cast<MemRefType>(info.memref.getType()).getShape();
    int64_t g = 16;
    for (int64_t d = 0; d + 1 < int64_t(shape.size()); ++d) {
      int64_t stride = eb;
      for (int64_t e = d + 1; e < int64_t(shape.size()); ++e)
        stride *= shape[e];
      g = std::gcd(g, stride);
    }
    return std::max<int64_t>(g, eb);
  };
  int64_t bytes = std::min(alignOf(src, srcPrefix.size()),
                           alignOf(dst, dstPrefix.size()));
  int64_t vec = 1;
  while (vec * 2 * eb <= bytes && cols % (vec * 2) == 0)
    vec *= 2;
  // A vnni4 source is contiguous only within a group of 4.
  if ((src.kind == TensorInfo::Kind::Global && src.vnniInner >= 0) ||
      (dst.kind == TensorInfo::Kind::Global && dst.vnniInner >= 0))
    vec = std::min<int64_t>(vec, 4);
  auto vecType = VectorType::get({vec}, element);

  Value srcInRange, dstInRange;
  if (src.kind == TensorInfo::Kind::Global)
    srcInRange = inBoundsCondition(src, load.getIndices(),
                                   srcPrefix.size() - load.getIndices().size(),
                                   loc);
  if (dst.kind == TensorInfo::Kind::Global)
    dstInRange = inBoundsCondition(dst, store.getIndices(),
                                   dstPrefix.size() - store.getIndices().size(),
                                   loc);
  OpBuilder::InsertionGuard guard(b);
  if (dstInRange)
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, TypeRange(), dstInRange, false).thenBlock());

  int64_t perRow = cols / vec;
  auto pieces = scf::ForOp::create(b, loc, threadId,
                                   constantIndex(rows * perRow, loc),
                                   constantIndex(blockX, loc));
  b.setInsertionPoint(pieces.getBody()->getTerminator());
  Value piece = pieces.getInductionVar();
  Value row = arith::DivUIOp::create(b, loc, piece, constantIndex(perRow, loc));
  Value col = arith::MulIOp::create(
      b, loc,
      arith::RemUIOp::create(b, loc, piece, constantIndex(perRow, loc)),
      constantIndex(vec, loc));
  // The row number, split into the tile's leading indices.
  SmallVector<Value> lead(rank - 1);
  for (int64_t d = rank - 2; d >= 0; --d) {
    Value size = constantIndex(tile.getShape()[d], loc);
    lead[d] = d == 0 ? row : arith::RemUIOp::create(b, loc, row, size);
    if (d > 0)
      row = arith::DivUIOp::create(b, loc, row, size);
  }
  auto at = [&](SmallVector<Value> prefix) {
    prefix.append(lead.begin(), lead.end());
    prefix.push_back(col);
    return prefix;
  };
  auto read = [&]() -> Value {
    SmallVector<Value> idx = at(srcPrefix);
    if (src.kind != TensorInfo::Kind::Global)
      return vector::LoadOp::create(b, loc, vecType, src.memref, idx);
    return LLVM::LoadOp::create(b, loc, vecType, elementPointer(src, idx, loc),
                                vec * eb);
  };
  // Out-of-range tiles read as zero, like kda2.load.
  Value value = readOrZero(srcInRange, vecType, read, loc);
  SmallVector<Value> idx = at(dstPrefix);
  if (dst.kind != TensorInfo::Kind::Global)
    vector::StoreOp::create(b, loc, value, dst.memref, idx);
  else
    LLVM::StoreOp::create(b, loc, value, elementPointer(dst, idx, loc),
                          vec * eb);
  b.setInsertionPointAfter(pieces);
  if (dstInRange)
    b.setInsertionPointAfter(pieces->getParentOp());
  return success();
}

/// A window of a global tensor into a shared buffer, by the block (TMA
/// does it in one box where it applies): each thread copies pieces of a
/// tile row, vectors where every row start is aligned (the window does not
/// run along the innermost dimension); each piece is read where its
/// position along every windowed or dynamic dimension is in range, else
/// zero.
LogicalResult KernelLowering::lowerWindowCopy(StoreOp store, LoadOp load) {
  Location loc = store.getLoc();
  TileCopy copy = tileCopyOf(store, load);
  auto tile = copy.tile;
  TensorInfo &src = *copy.src, &dst = *copy.dst;
  if (src.kind != TensorInfo::Kind::Global || dst.kind == TensorInfo::Kind::Global)
    return load.emitOpError()
           << "reads a window: it is copied whole into a shared buffer";
  SmallVector<int64_t> extents = tileExtents(load);
  SmallVector<Value> &srcPrefix = copy.srcPrefix, &dstPrefix = copy.dstPrefix;
  Type element = copy.element;
  int64_t eb = copy.eb, cols = copy.cols, rows = copy.rows;
  int64_t srcRank = src.type.getRank();
  std::optional<ArrayRef<int64_t>> windows = load.getWindows();
  int64_t gridRank = getImplicitGridRank(src.type, kernel);
  SmallVector<std::tuple<int64_t, Value, Value>> limits = windowLimits(load);
  // Vectors of the widest size every row start allows (a window along the
  // innermost dimension starts anywhere: elements).
  int64_t vec = 1;
  if (windows->back() == 0 || srcRank > gridRank + int64_t(windows->size())) {
    int64_t bytes = globalAlignment(src, srcRank - 1);
    while (vec * 2 * eb <= std::min<int64_t>(bytes, 16) && cols % (vec * 2) == 0)
      vec *= 2;
  }
  auto vecType = VectorType::get({vec}, element);
  auto c = [&](int64_t v) { return constantIndex(v, loc); };

  int64_t perRow = cols / vec;
  // One piece (vec elements) at `piece`: its load (zero out of range) and
  // the destination coordinates.
  auto loadPiece = [&](Value piece) -> std::pair<Value, SmallVector<Value>> {
    SmallVector<Value> coords = pieceCoords(piece, tile, vec, loc);
    // The source position: the window starts plus the tile's coordinates
    // along the windows, then the trailing dimensions; in range along every
    // windowed and dynamic dimension.
    SmallVector<Value> idx(srcPrefix);
    Value inRange;
    auto both = [&](Value ok) {
      inRange = inRange ? arith::AndIOp::create(b, loc, inRange, ok) : ok;
    };
    int64_t t = 0;
    for (int64_t d = gridRank; d < srcRank; ++d) {
      if (d < int64_t(srcPrefix.size())) {
        if (extents[d] > 0)
          idx[d] = arith::AddIOp::create(b, loc, idx[d], coords[t++]);
        else if (!ShapedType::isDynamic(src.type.getShape()[d]))
          continue;
      } else {
        idx.push_back(coords[t++]);
        continue; // a trailing dimension: the tile spans it whole
      }
      both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, idx[d],
                                 src.sizes[d]));
    }
    // A bounded window: below its limit too.
    for (auto [d, start, limit] : limits)
      both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, idx[d],
                                 limit));
    Value value = readOrZero(
        inRange, vecType,
        [&]() -> Value {
          return LLVM::LoadOp::create(b, loc, vecType,
                                      elementPointer(src, idx, loc), vec * eb);
        },
        loc);
    SmallVector<Value> at(dstPrefix);
    at.append(coords.begin(), coords.end());
    return {value, at};
  };
  int64_t total = rows * perRow;
  int64_t perThread = llvm::divideCeil(total, blockX);
  if (total % blockX == 0 && perThread <= 8) {
    // A few pieces per thread: every load first, then the stores, so that
    // all of a thread's loads are in flight together (a load-store loop
    // keeps about one).
    SmallVector<std::pair<Value, SmallVector<Value>>> pieces;
    for (int64_t j = 0; j < perThread; ++j)
      pieces.push_back(loadPiece(
          arith::AddIOp::create(b, loc, threadId, c(j * blockX))));
    for (auto &[value, at] : pieces)
      vector::StoreOp::create(b, loc, value, dst.memref, at);
    return success();
  }
  OpBuilder::InsertionGuard guard(b);
  auto loop = scf::ForOp::create(b, loc, threadId, c(total), c(blockX));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  auto [value, at] = loadPiece(loop.getInductionVar());
  vector::StoreOp::create(b, loc, value, dst.memref, at);
  b.setInsertionPointAfter(loop);
  return success();
}

SmallVector<int64_t> KernelLowering::tileExtents(LoadOp load) {
  auto type = cast<KDA2TensorType>(load.getSource().getType());
  auto tile = cast<RankedTensorType>(load.getType());
  int64_t rank = type.getRank(), tileRank = tile.getRank();
  SmallVector<int64_t> extents(rank, 0);
  std::optional<ArrayRef<int64_t>> windows = load.getWindows();
  if (!windows) {
    for (int64_t d = rank - tileRank; d < rank; ++d)
      extents[d] = tile.getShape()[d - (rank - tileRank)];
    return extents;
  }
  // [grid dims][indices, windowed or not][trailing dims]
  int64_t first = getImplicitGridRank(type, kernel);
  int64_t t = 0;
  for (auto [i, n] : llvm::enumerate(*windows))
    if (n > 0) {
      extents[first + i] = n;
      ++t;
    }
  for (int64_t d = first + int64_t(windows->size()); d < rank; ++d)
    extents[d] = tile.getShape()[t++];
  return extents;
}

/// `#pragma tma_coalesce` (on an enclosing loop or the kernel): the tile
/// copies from global to shared memory it covers go through the tensor
/// memory accelerator on sm_90: thread 0 issues one `cp.async.bulk.tensor`
/// for the whole tile and every thread waits on an mbarrier. The tensor map
/// spans all the tensor's physical dimensions; the box is the tile along
/// the tile's dimensions and 1 along the indexed ones. A copy TMA cannot do
/// (shape, layout, padded destination, chip) keeps the block-wide copy,
/// with a warning that says why.
void KernelLowering::planTmaCopies() {
  auto requested = [&](Operation *op) {
    return pragmaCovers(kernel, op, PragmaKind::tma_coalesce);
  };
  // Deterministic order: walk the kernel.
  SmallVector<StoreOp> stores;
  kernel.walk([&](StoreOp store) {
    if (tileCopies.count(store))
      stores.push_back(store);
  });
  for (StoreOp store : stores) {
    LoadOp load = tileCopies.lookup(store);
    auto srcType = cast<KDA2TensorType>(load.getSource().getType());
    auto dstType = cast<KDA2TensorType>(store.getDest().getType());
    if (srcType.getMemorySpace() == MemorySpace::smem ||
        dstType.getMemorySpace() != MemorySpace::smem || !requested(store))
      continue;
    auto reject = [&](const Twine &why) {
      if (!specialization)
        store.emitWarning() << "'#pragma tma_coalesce' does not apply to this "
                               "copy ("
                            << why << "); the block copies it instead";
    };
    if (!StringRef(chip).starts_with("sm_9") &&
        !StringRef(chip).starts_with("sm_1")) {
      reject("cp.async.bulk.tensor needs sm_90 or newer, compiling for " +
             chip);
      continue;
    }
    auto tile = cast<RankedTensorType>(store.getValue().getType());
    auto arg = cast<BlockArgument>(load.getSource());
    unsigned rank = srcType.getRank();
    if (rank > 5) {
      reject("tensor maps have at most 5 dimensions");
      continue;
    }
    SmallVector<int64_t> perm = *getLayoutPermutation(
        argLayouts.count(arg.getArgNumber())
            ? argLayouts.lookup(arg.getArgNumber())
            : Layout::row_major,
        rank);
    TmaMap candidate;
    candidate.argIndex = arg.getArgNumber();
    // The box: the tile's extent along each dimension it spans (its
    // trailing dimensions, and a window's), 1 along the indexed ones.
    candidate.extents = tileExtents(load);
    ArrayRef<int64_t> extents = candidate.extents;
    int64_t lastTileDim = -1;
    bool ordered = true;
    for (unsigned p = 0; p < rank; ++p)
      if (extents[perm[p]] > 0) {
        ordered &= perm[p] > lastTileDim;
        lastTileDim = perm[p];
      }
    for (int64_t p = rank - 1; p >= 0; --p) {
      int64_t d = perm[p];
      candidate.mapDims.push_back(d);
      candidate.box.push_back(std::max<int64_t>(extents[d], 1));
    }
    int64_t eb = elementBytes(tile.getElementType());
    if (!ordered) {
      reject("the layout stores the tile's dimensions in another order");
      continue;
    }
    if (vnni4Args.contains(candidate.argIndex)) {
      reject("vnni4-packed tensors are not tiled the way a tensor map reads");
      continue;
    }
    if (llvm::any_of(candidate.box, [](int64_t e) { return e > 256; })) {
      reject("a box side is larger than 256 elements");
      continue;
    }
    if (candidate.box.front() * eb % 16 != 0) {
      reject("the innermost side of the box is not a multiple of 16 bytes");
      continue;
    }
    if (sharedPadding.lookup(store.getDest())) {
      reject("the destination buffer is padded; TMA writes the box densely");
      continue;
    }
    if (!store.getIndices().empty() &&
        tile.getNumElements() * eb % 128 != 0) {
      reject("the destination tile is not 128-byte aligned");
      continue;
    }
    if (int64_t span = swizzledBuffers.lookup(store.getDest())) {
      candidate.swizzle = span;
      candidate.box.front() = span / eb;
    }
    auto same = llvm::find_if(tmaMaps, [&](const TmaMap &m) {
      return m.argIndex == candidate.argIndex &&
             m.extents == candidate.extents &&
             m.swizzle == candidate.swizzle;
    });
    if (same == tmaMaps.end()) {
      std::string argName = kernel.getArgName(candidate.argIndex).str();
      if (argName.empty())
        argName = "arg" + std::to_string(candidate.argIndex);
      candidate.name = argName + "__tma" + std::to_string(tmaMaps.size());
      tmaMaps.push_back(candidate);
      same = tmaMaps.end() - 1;
    }
    tmaCopies[store] = same - tmaMaps.begin();
    tmaBuffers.insert(store.getDest());
  }
}

/// TMA destinations that only tensor-core products read (whole tiles, as
/// operand a or b) get a swizzle of span S = 128 bytes (rows a multiple of
/// 128 bytes), 64 or 32 (rows of exactly 64 or 32 bytes): the tile is
/// stored as boxes S bytes wide, and in each box the 16-byte chunk c of
/// row r goes to chunk c ^ (r / (128 / S) % (S / 16)) (byte offset bits
/// 4.. ^= bits 7..; the pattern repeats every 8 rows), so the eight rows
/// an ldmatrix reads hit eight different bank groups. Unswizzled, rows of
/// 128 or 256 bytes put all eight in the same banks (8-way conflict), rows
/// of 64 bytes four (4-way: the C x C tiles of a chunk of 32), rows of 32
/// two. Needs 16-bit elements and a multiple of 8 rows.
void KernelLowering::chooseSwizzledBuffers() {
  SmallVector<Value> candidates(tmaBuffers.begin(), tmaBuffers.end());
  for (Value buffer : candidates) {
    auto type = cast<KDA2TensorType>(buffer.getType());
    if (type.getRank() != 2 || elementBytes(type.getElementType()) != 2 ||
        type.getShape()[0] % 8 != 0 || sharedPadding.lookup(buffer))
      continue;
    int64_t rowBytes = type.getShape()[1] * 2;
    int64_t span = rowBytes % 128 == 0 ? 128
                   : rowBytes == 64 || rowBytes == 32 ? rowBytes
                                                      : 0;
    if (!span)
      continue;
    bool onlyProducts = true;
    for (Operation *user : buffer.getUsers()) {
      if (auto store = dyn_cast<StoreOp>(user)) {
        // A whole-tile TMA copy whose tile rows are the tensor's innermost
        // dimension (the boxes split that dimension).
        auto copy = tmaCopies.find(store);
        onlyProducts &= copy != tmaCopies.end() && store.getIndices().empty();
        if (copy != tmaCopies.end()) {
          const TmaMap &map = tmaMaps[copy->second];
          auto source = cast<KDA2TensorType>(
              tileCopies.lookup(store).getSource().getType());
          onlyProducts &= map.mapDims.front() == source.getRank() - 1;
        }
      } else if (auto load = dyn_cast<LoadOp>(user)) {
        onlyProducts &= readWholeByProductsOnly(load, /*throughCasts=*/false);
      } else {
        onlyProducts = false;
      }
    }
    if (onlyProducts)
      swizzledBuffers[buffer] = span;
  }
}

/// `v` as (its part that is not a constant, the constant added to it),
/// looking through additions of constants (the first is null when `v` is a
/// constant).
static std::pair<Value, int64_t> splitConstant(Value v) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return {Value(), *c};
  auto add = v.getDefiningOp<arith::AddIOp>();
  if (!add)
    return {v, 0};
  auto [lhs, lc] = splitConstant(add.getLhs());
  auto [rhs, rc] = splitConstant(add.getRhs());
  if (lhs && rhs)
    return {v, 0};
  return {lhs ? lhs : rhs, lc + rc};
}

/// `init` plus the byte offset of a swizzled buffer's stage `prefix` (its
/// memref is [stages..., boxes, rows, per-row]; a stage is all its boxes).
Value KernelLowering::stageBytes(MemRefType type, ArrayRef<Value> prefix,
                                 Value init, Location loc) {
  int64_t rank = type.getRank();
  int64_t stride = type.getShape()[rank - 3] * type.getShape()[rank - 2] *
                   type.getShape()[rank - 1] *
                   elementBytes(type.getElementType());
  Value bytes = init;
  for (int64_t d = int64_t(prefix.size()) - 1; d >= 0; --d) {
    bytes = arith::AddIOp::create(
        b, loc, bytes,
        arith::MulIOp::create(b, loc, prefix[d], constantIndex(stride, loc)));
    stride *= type.getShape()[d];
  }
  return bytes;
}

std::pair<Value, Value>
KernelLowering::swizzledElement(Value memref, ArrayRef<Value> prefix, Value row,
                                Value col, Location loc) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t eb = elementBytes(type.getElementType());
  int64_t perRow = type.getShape().back(); // elements per box row
  int64_t span = perRow * eb;              // the swizzle span, bytes
  int64_t rows = type.getShape()[type.getRank() - 2];
  int64_t pieceBytes = rows * span;
  auto c = [&](int64_t v) { return constantIndex(v, loc); };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto mul = [&](Value x, int64_t y) -> Value {
    return arith::MulIOp::create(b, loc, x, c(y));
  };
  // A swizzle of span S acts on the byte offset's bits 4 .. log2(S) - 1
  // (^= bits 7 .. log2(S) + 2: bits 4-6 ^= 7-9 for 128 bytes). The buffer
  // is 1024-byte aligned, its stages and pieces are multiples of 8 · S
  // bytes, and so are 8 rows: those parts of the offset (the stage, the
  // constant pieces and the constant rows in multiples of 8) pass through
  // the swizzle unchanged and are added after it. What is left, the
  // lane's part and the constants below those steps, is swizzled on its own:
  // it does not change across the iterations of a loop, so it is computed
  // once and every load of the loop adds only constants to it.
  auto [rowDyn, rowC] = splitConstant(row);
  auto [colDyn, colC] = splitConstant(col);
  int64_t rowSteps = rowC >= 0 ? rowC / 8 : 0, colPieces = colC >= 0 ? colC / perRow : 0;
  Value laneRow = rowDyn ? add(rowDyn, c(rowC - 8 * rowSteps)) : c(rowC - 8 * rowSteps);
  Value laneCol = colDyn ? add(colDyn, c(colC - perRow * colPieces))
                         : c(colC - perRow * colPieces);
  Value lane = add(add(mul(arith::DivUIOp::create(b, loc, laneCol, c(perRow)),
                           pieceBytes),
                       mul(laneRow, span)),
                   mul(arith::RemUIOp::create(b, loc, laneCol, c(perRow)), eb));
  Value bits = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, lane, c(3)), c(span - 16));
  Value physical = arith::XOrIOp::create(b, loc, lane, bits);
  // The unswizzled parts: the stage (prefix) and the constant steps.
  int64_t fixed = colPieces * pieceBytes + rowSteps * 8 * span;
  Value outer = stageBytes(type, prefix, c(fixed), loc);
  Value element = arith::DivUIOp::create(b, loc, add(outer, physical), c(eb));
  auto flatType = MemRefType::get({type.getNumElements()},
                                  type.getElementType(), AffineMap(),
                                  type.getMemorySpace());
  Value flat = memref::ReinterpretCastOp::create(
      b, loc, flatType, memref, /*offset=*/0,
      ArrayRef<int64_t>{type.getNumElements()}, ArrayRef<int64_t>{1});
  return {flat, element};
}

/// The `!llvm.ptr<3>` of an element of a shared (workgroup) memref.
Value KernelLowering::sharedPointer(Value memref, ArrayRef<Value> indices,
                                    Location loc) {
  auto type = cast<MemRefType>(memref.getType());
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value offset = constantIndex(0, loc);
  int64_t stride = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (d < int64_t(indices.size()))
      offset = arith::AddIOp::create(
          b, loc, offset,
          arith::MulIOp::create(b, loc, indices[d], constantIndex(stride, loc)));
    stride *= type.getShape()[d];
  }
  Value bytes = arith::MulIOp::create(
      b, loc, offset,
      constantIndex(elementBytes(type.getElementType()), loc));
  Value address = arith::IndexCastOp::create(
      b, loc, b.getI64Type(), arith::AddIOp::create(b, loc, base, bytes));
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), address);
}

LogicalResult KernelLowering::lowerTmaCopy(StoreOp store) {
  // Consecutive TMA copies (nothing but their loads in between) share one
  // barrier, one mbarrier phase and one wait: their transfers overlap.
  SmallVector<StoreOp> group = {store};
  for (Operation *op = store->getNextNode(); op; op = op->getNextNode()) {
    if (auto next = dyn_cast<LoadOp>(op); next && copyLoads.contains(next))
      continue;
    if (auto next = dyn_cast<StoreOp>(op);
        next && tmaCopies.count(next) && !pipelinedCopies.contains(next)) {
      group.push_back(next);
      tmaGrouped.insert(next);
      continue;
    }
    break;
  }
  // Block copies right after the group (into other buffers) run while the
  // boxes travel: the wait comes after them.
  DenseSet<Value> boxed;
  for (StoreOp copy : group)
    boxed.insert(copy.getDest());
  // Scalar arithmetic between them (their windows' bounds) goes along.
  SmallVector<Operation *> alongside;
  if (threadDepth == 0)
    for (Operation *op = group.back()->getNextNode(); op;
         op = op->getNextNode()) {
      if (auto next = dyn_cast<LoadOp>(op); next && copyLoads.contains(next))
        continue;
      if (isPure(op) && op->getNumRegions() == 0 &&
          llvm::none_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>)) {
        alongside.push_back(op);
        continue;
      }
      auto next = dyn_cast<StoreOp>(op);
      if (!next || !tileCopies.count(next) || tmaCopies.count(next) ||
          pipelinedCopies.contains(next) || boxed.contains(next.getDest()))
        break;
      LoadOp source = tileCopies.lookup(next);
      if (boxed.contains(source.getSource()))
        break;
      alongside.push_back(next);
    }
  Value zero = constantIndex(0, store.getLoc());
  issueTmaCopies(group, zero);
  // (Arithmetic after the last block copy stays where it is.)
  while (!alongside.empty() && !isa<StoreOp>(alongside.back()))
    alongside.pop_back();
  for (Operation *op : alongside) {
    SharedAccesses accesses = accessesOf(op);
    if (pending.conflictsWith(accesses))
      emitBarrier(op->getLoc());
    if (failed(lowerOp(op)))
      return failure();
    pending.merge(accesses);
    loweredEarly.insert(op);
  }
  waitTma(zero);
  for (StoreOp copy : group)
    clearPastLimits(copy);
  return success();
}

SmallVector<std::tuple<int64_t, Value, Value>>
KernelLowering::windowLimits(LoadOp load) {
  SmallVector<std::tuple<int64_t, Value, Value>> result;
  std::optional<ArrayRef<int64_t>> windows = load.getWindows();
  if (!windows || load.getLimits().empty())
    return result;
  auto type = cast<KDA2TensorType>(load.getSource().getType());
  int64_t first = getImplicitGridRank(type, kernel);
  SmallVector<Value> starts = accessIndices(load.getSource(), load.getIndices());
  int64_t w = 0;
  for (auto [i, n] : llvm::enumerate(*windows))
    if (n > 0)
      result.push_back({first + int64_t(i), starts[first + i],
                        lookup(load.getLimits()[w++])});
  return result;
}

/// TMA fills a box with zeros only past the tensor's end. A bounded window
/// (a sequence's rows inside a packed batch) must also read zeros at and
/// past its limits: when the box crosses one (a uniform branch: the starts
/// and limits are the block's), the computing threads clear those
/// positions of the destination (through the swizzle, in its current
/// stage), then fence the generic proxy's writes against the async proxy
/// (the wgmma descriptors that read the buffer, and the TMA that refills
/// the stage) and meet at a barrier before anything reads it.
void KernelLowering::clearPastLimits(StoreOp store) {
  LoadOp load = tileCopies.lookup(store);
  SmallVector<std::tuple<int64_t, Value, Value>> limits = windowLimits(load);
  // A limit at a static dimension's end says what TMA does anyway.
  auto srcType = cast<KDA2TensorType>(load.getSource().getType());
  llvm::erase_if(limits, [&](const auto &limit) {
    auto [d, start, stop] = limit;
    std::optional<int64_t> value = getConstantIntValue(stop);
    return value && srcType.getShape()[d] == *value;
  });
  if (limits.empty())
    return;
  Location loc = store.getLoc();
  auto c = [&](int64_t v) { return constantIndex(v, loc); };
  TileCopy copy = tileCopyOf(store, load);
  SmallVector<int64_t> extents = tileExtents(load);
  // The tile dimension of each source dimension the tile spans.
  DenseMap<int64_t, int64_t> tileDim;
  for (int64_t d = 0, t = 0; d < int64_t(extents.size()); ++d)
    if (extents[d] > 0)
      tileDim[d] = t++;
  // How many positions of each window are below its limit (signed: a limit
  // before the start leaves none).
  SmallVector<std::pair<int64_t, Value>> valid;
  Value crosses;
  for (auto [d, start, limit] : limits) {
    Value count = arith::SubIOp::create(b, loc, limit, start);
    Value over = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                       count, c(extents[d]));
    crosses = crosses ? arith::OrIOp::create(b, loc, crosses, over) : over;
    valid.push_back({tileDim.lookup(d), count});
  }
  // The branch's barrier would wait for products in flight only where it
  // runs: wait for them here, on every path.
  flushWgmma(loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(
      scf::IfOp::create(b, loc, TypeRange(), crosses, false).thenBlock());
  int64_t rank = copy.rank, rows = copy.rows, cols = copy.cols;
  TensorInfo &dst = *copy.dst;
  bool swizzled = swizzledBuffers.contains(store.getDest());
  auto dstShape = cast<MemRefType>(dst.memref.getType()).getShape();
  // Pieces of 16 bytes when no limit runs along the rows' own dimension and
  // the rows keep 16-byte alignment (a swizzle moves whole 16-byte pieces);
  // else elements.
  int64_t vec = 16 / copy.eb;
  bool innerLimit = llvm::any_of(
      valid, [&](const auto &v) { return v.first == rank - 1; });
  if (innerLimit || cols % vec != 0 ||
      (!swizzled && (dstShape.back() * copy.eb) % 16 != 0))
    vec = 1;
  // A constant trip count per thread (short ones unroll; a loop from the
  // thread's index kept ptxas from holding the kernel's other values).
  int64_t total = rows * cols / vec, perThread = (total + blockX - 1) / blockX;
  auto pieces = scf::ForOp::create(b, loc, c(0), c(perThread), c(1));
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPoint(pieces.getBody()->getTerminator());
    Value piece = arith::AddIOp::create(
        b, loc, threadId,
        arith::MulIOp::create(b, loc, pieces.getInductionVar(), c(blockX)));
    if (total % blockX != 0)
      b.setInsertionPointToStart(
          scf::IfOp::create(b, loc, TypeRange(),
                            arith::CmpIOp::create(b, loc,
                                                  arith::CmpIPredicate::ult,
                                                  piece, c(total)),
                            false)
              .thenBlock());
    SmallVector<Value> coords = pieceCoords(piece, copy.tile, vec, loc);
    Value past;
    for (auto [t, count] : valid) {
      Value beyond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                           coords[t], count);
      past = past ? arith::OrIOp::create(b, loc, past, beyond) : beyond;
    }
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, TypeRange(), past, false).thenBlock());
    auto vecType = VectorType::get({vec}, copy.element);
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vecType, b.getZeroAttr(copy.element)));
    if (swizzled) {
      auto [flat, at] = swizzledElement(dst.memref, copy.dstPrefix, coords[0],
                                        coords[1], loc);
      vector::StoreOp::create(b, loc, zero, flat, ValueRange{at});
    } else {
      SmallVector<Value> at(copy.dstPrefix);
      at.append(coords.begin(), coords.end());
      vector::StoreOp::create(b, loc, zero, dst.memref, at);
    }
  }
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
  blockBarrier(loc);
}

/// A barrier (everyone is done with the destinations before the async proxy
/// writes them; the caller may have placed it), then thread 0 arms mbarrier
/// `barrierIndex` with the group's bytes and issues one cp.async.bulk.tensor
/// per copy. Indices come from the current mapping (and the destinations'
/// current stages).
void KernelLowering::issueTmaCopies(ArrayRef<StoreOp> group,
                                    Value barrierIndex, bool barrier,
                                    ArrayRef<WaitOp> waits) {
  StoreOp head = group.front();
  Location loc = head.getLoc();
  int64_t bytes = 0;
  for (StoreOp copy : group) {
    auto tile = cast<RankedTensorType>(copy.getValue().getType());
    bytes += tile.getNumElements() * elementBytes(tile.getElementType());
  }
  if (barrier)
    emitBarrier(loc);
  Value bar = sharedPointer(tmaBarrier, {barrierIndex}, loc);
  OpBuilder::InsertionGuard guard(b);
  if (!tmaSingleThread) {
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        threadId, constantIndex(0, loc));
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, TypeRange(), first, false).thenBlock());
  }
  for (WaitOp wait : waits)
    spinOnFlag(wait);
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, Type(), bar,
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(bytes)),
      NVVM::MemScopeKindAttr(), BoolAttr(), Value());
  for (StoreOp copy : group) {
    LoadOp source = tileCopies.lookup(copy);
    const TmaMap &map = tmaMaps[tmaCopies.lookup(copy)];
    TensorInfo &dst = tensors[copy.getDest()];
    SmallVector<Value> srcIndices =
        accessIndices(source.getSource(), source.getIndices());
    SmallVector<Value> dstIndices =
        accessIndices(copy.getDest(), copy.getIndices());
    // Coordinates, innermost first: the indices of the indexed dimensions
    // (out-of-range boxes are filled with zeros, like kda2.load), 0 along
    // the tile.
    SmallVector<Value> coords;
    for (int64_t d : map.mapDims) {
      Value index = d < int64_t(srcIndices.size()) ? srcIndices[d]
                                                   : constantIndex(0, loc);
      coords.push_back(
          arith::IndexCastOp::create(b, loc, b.getI32Type(), index));
    }
    // A swizzled tile arrives as boxes S bytes wide (the swizzle's span),
    // box p to the buffer's piece p (its columns p * S / eb onwards).
    auto tile = cast<RankedTensorType>(copy.getValue().getType());
    int64_t pieces = map.swizzle ? tile.getShape().back() / map.box.front() : 1;
    for (int64_t piece = 0; piece < pieces; ++piece) {
      SmallVector<Value> pieceCoords(coords);
      SmallVector<Value> pieceDst(dstIndices);
      if (map.swizzle) {
        pieceCoords.front() = arith::AddIOp::create(
            b, loc, coords.front(),
            arith::ConstantOp::create(
                b, loc, b.getI32IntegerAttr(piece * map.box.front())));
        pieceDst.push_back(constantIndex(piece, loc));
      }
      // The CTA's shared window lies inside the cluster's: its address is
      // the destination's shared::cluster address as it is (an
      // addrspacecast would go through a generic address and back).
      Value dstCluster = LLVM::IntToPtrOp::create(
          b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7),
          LLVM::PtrToIntOp::create(b, loc, b.getI64Type(),
                                   sharedPointer(dst.memref, pieceDst, loc))
              .getResult());
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          b, loc, dstCluster, tmaDescriptors[&map - tmaMaps.data()],
          pieceCoords, bar, ValueRange(), Value(), Value(),
          NVVM::TMALoadMode::TILE, false, NVVM::CTAGroupKindAttr(), Value());
    }
  }
}

/// Every thread waits for the current phase of mbarrier `barrierIndex`,
/// then flips its view of the phase.
void KernelLowering::waitTma(Value barrierIndex, int64_t first,
                             int64_t count) {
  Location loc = barrierIndex.getLoc();
  Value bar = sharedPointer(tmaBarrier, {barrierIndex}, loc);
  auto i32 = [&](int32_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  if (phaseBits()) {
    // Bit `barrierIndex` of the word: a shift to read it and an xor to
    // flip it, whatever the index (a pipeline stage's select chain over
    // the barriers took ~4 instructions per barrier in the loop's head).
    Value word = constantIndex(0, loc);
    Value bits = memref::LoadOp::create(b, loc, tmaPhase, ValueRange{word});
    Value bit = arith::ShLIOp::create(
        b, loc, i32(1),
        arith::IndexCastOp::create(b, loc, b.getI32Type(), barrierIndex));
    Value set = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                      arith::AndIOp::create(b, loc, bits, bit),
                                      i32(0));
    tryWaitParity(bar, arith::ExtUIOp::create(b, loc, b.getI32Type(), set),
                  loc);
    memref::StoreOp::create(b, loc, arith::XOrIOp::create(b, loc, bits, bit),
                            tmaPhase, ValueRange{word});
    return;
  }
  // The phases stay in registers: a dynamic index (a pipeline stage) picks
  // its slot with selects rather than indexing the array (local memory).
  bool dynamic = !getConstantIntValue(barrierIndex);
  SmallVector<Value> slots, phases;
  // (By default the full barriers, [0, S].)
  int64_t waited =
      count ? count : std::min(tmaBarrierCount, 1 + pipelineStages);
  for (int64_t i = 0; i < (dynamic ? waited : 1); ++i) {
    Value slot = dynamic ? constantIndex(first + i, loc) : barrierIndex;
    slots.push_back(slot);
    phases.push_back(
        memref::LoadOp::create(b, loc, tmaPhase, ValueRange{slot}));
  }
  auto isSlot = [&](unsigned i) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                 barrierIndex, slots[i]);
  };
  Value phase;
  for (unsigned i = 0; i < slots.size(); ++i)
    phase = i ? arith::SelectOp::create(b, loc, isSlot(i), phases[i], phase)
              : phases[i];
  tryWaitParity(bar, phase, loc);
  Value flipped = arith::XOrIOp::create(b, loc, phase, i32(1));
  for (unsigned i = 0; i < slots.size(); ++i) {
    Value value = dynamic ? arith::SelectOp::create(b, loc, isSlot(i), flipped,
                                                    phases[i])
                          : flipped;
    memref::StoreOp::create(b, loc, value, tmaPhase, ValueRange{slots[i]});
  }
}

/// `#pragma tma_pipeline` on a serial loop: the loop's TMA copies (all of
/// them, at the top level of its body) go to two stages of their shared
/// buffers. Before the loop, iteration 0's copies are issued; iteration i
/// issues iteration i + 1's into the other stage, then waits for its own,
/// so the next tiles travel while this iteration computes. Conditions (else
/// a warning and copies that wait in place): the destinations are written
/// only by these copies and used only inside the loop, their indices are
/// computable at the top of the iteration (the loop variable, values from
/// outside, index arithmetic on those), and each tile is a multiple of 128
/// bytes (stage alignment).
void KernelLowering::planTmaPipelines() {
  kernel.walk([&](LoopOp loop) {
    if (!hasPragma(loop, PragmaKind::tma_pipeline))
      return;
    auto reject = [&](const Twine &why) {
      if (!specialization)
        loop.emitWarning() << "'#pragma tma_pipeline' does not apply (" << why
                           << "); the copies wait where they are";
    };
    Block *body = loop.getBodyBlock();
    SmallVector<StoreOp> group;
    SmallVector<WaitOp> waits;
    for (Operation &op : *body) {
      if (auto store = dyn_cast<StoreOp>(op); store && tmaCopies.count(store))
        group.push_back(store);
      if (auto wait = dyn_cast<WaitOp>(op))
        waits.push_back(wait);
    }
    if (group.empty())
      return reject("no TMA copy at the top level of the loop body");
    // A ready flag the copies must wait for travels with them; one below
    // the top level could not be waited for before the early copies.
    bool nestedWait = false;
    loop.getBody().walk([&](WaitOp wait) {
      nestedWait |= wait->getBlock() != body;
    });
    if (nestedWait)
      return reject("a 'wait_for' is nested below the loop body's top level");
    // Index computations in the body the copies depend on.
    DenseSet<Operation *> chain;
    std::function<bool(Value)> computable = [&](Value v) -> bool {
      if (v == loop.getInductionVar())
        return true;
      Operation *def = v.getDefiningOp();
      if (!def)
        return !loop->isAncestor(v.getParentRegion()->getParentOp());
      if (!loop->isAncestor(def))
        return true;
      if (def->getBlock() != body ||
          !isa<AddOp, SubOp, MulOp, DivOp, RemOp, CastOp, arith::ConstantOp,
               DimOp, GridIndexOp>(def))
        return false;
      if (!llvm::all_of(def->getOperands(), computable))
        return false;
      chain.insert(def);
      return true;
    };
    for (StoreOp store : group) {
      LoadOp source = tileCopies.lookup(store);
      auto tile = cast<RankedTensorType>(store.getValue().getType());
      if (tile.getNumElements() * elementBytes(tile.getElementType()) % 128)
        return reject("a tile is not a multiple of 128 bytes");
      if (!llvm::all_of(source.getIndices(), computable) ||
          !llvm::all_of(store.getIndices(), computable))
        return reject("a copy's indices are computed from the loop's data");
      for (OpOperand &use : store.getDest().getUses()) {
        Operation *user = use.getOwner();
        if (!loop->isAncestor(user))
          return reject("a destination buffer is used outside the loop");
        if (isa<StoreOp>(user) && !llvm::is_contained(group, user))
          return reject("a destination buffer is also written in the loop");
      }
    }
    for (WaitOp wait : waits)
      if (!llvm::all_of(wait.getIndices(), computable))
        return reject("a 'wait_for' flag's index is computed from the loop's "
                      "data");
    SmallVector<Operation *> ordered;
    for (Operation &op : *body)
      if (chain.contains(&op))
        ordered.push_back(&op);
    pipelineChains[loop] = ordered;
    pipelinedLoops[loop] = group;
    pipelineWaits[loop] = waits;
    for (WaitOp wait : waits)
      pipelinedWaits.insert(wait);
    if (ArrayAttr annotations = loop.getAnnotationsAttr())
      for (Attribute a : annotations)
        if (auto stages = dyn_cast<PipelineStagesAttr>(a))
          pipelineStages = std::max(pipelineStages, stages.getStages());
    for (StoreOp store : group) {
      pipelinedCopies.insert(store);
      stagedBuffers.insert(store.getDest());
    }
    if (ArrayAttr annotations = loop.getAnnotationsAttr())
      if (llvm::any_of(annotations, llvm::IsaPred<ProducerWarpAttr>) &&
          succeeded(planProducer(loop)))
        producerLoop = loop;
  });
}

Operation *KernelLowering::sliceFor(LoopOp loop, SmallVector<Value> roots,
                                    DenseSet<Operation *> &slice) {
  while (!roots.empty()) {
    Value v = roots.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || loop->isAncestor(def) || slice.contains(def))
      continue; // arguments, loop variables, the loop's own chain
    bool readOnly = false;
    if (auto load = dyn_cast<LoadOp>(def)) {
      auto arg = dyn_cast<BlockArgument>(load.getSource());
      readOnly = arg && arg.getOwner() == &kernel.getBody().front() &&
                 kernel.getArgIOKind(arg.getArgNumber()) == IOKind::in &&
                 !isa<RankedTensorType>(load.getType());
    }
    if (!readOnly && !(isPure(def) && def->getNumRegions() == 0))
      return def;
    slice.insert(def);
    roots.append(def->operand_begin(), def->operand_end());
  }
  return nullptr;
}

LogicalResult KernelLowering::planProducer(LoopOp loop) {
  auto reject = [&](const Twine &why) {
    if (!specialization)
      loop.emitWarning() << "'@producer_warp' does not apply (" << why
                         << "); the block's threads issue the copies";
    return failure();
  };
  if (producerLoop && producerLoop != loop)
    return reject("another loop of the kernel has one");
  SmallVector<Value> roots = {loop.getUpperBound()};
  for (Operation *p = loop->getParentOp(); p != kernel.getOperation();
       p = p->getParentOp()) {
    auto outer = dyn_cast<LoopOp>(p);
    if (!outer || outer.getMapping() != LoopMapping::block)
      return reject("the loop is not in the kernel's uniform code under "
                    "block loops only");
    roots.push_back(outer.getUpperBound());
  }
  // The values from outside the loop that the copies' indices need.
  for (Operation *op : pipelineChains[loop])
    roots.append(op->operand_begin(), op->operand_end());
  for (StoreOp store : pipelinedLoops[loop]) {
    LoadOp source = tileCopies.lookup(store);
    roots.append(source.getIndices().begin(), source.getIndices().end());
    roots.append(store.getIndices().begin(), store.getIndices().end());
  }
  for (WaitOp wait : pipelineWaits[loop])
    roots.append(wait.getIndices().begin(), wait.getIndices().end());
  DenseSet<Operation *> slice;
  if (Operation *stop = sliceFor(loop, std::move(roots), slice))
    return reject("the trip count or a copy's index depends on '" +
                  stop->getName().getStringRef() + "'");
  producerSlice = std::move(slice);
  return success();
}

/// Whether `v` is index arithmetic at the top level of `block` (the body of
/// `region`) on values `outside` accepts (those defined outside `region`),
/// collecting the ops into `chain`.
static bool indexChain(Value v, Operation *region, Block *block,
                       DenseSet<Operation *> &chain,
                       function_ref<bool(Value)> outside) {
  Operation *def = v.getDefiningOp();
  if (!def || !region->isAncestor(def))
    return outside(v);
  if (def->getBlock() != block ||
      !isa<AddOp, SubOp, MulOp, DivOp, RemOp, MinOp, MaxOp, CmpOp, SelectOp,
           CastOp, arith::ConstantOp, DimOp, GridIndexOp>(def))
    return false;
  if (chain.contains(def))
    return true;
  for (Value operand : def->getOperands())
    if (!indexChain(operand, region, block, chain, outside))
      return false;
  chain.insert(def);
  return true;
}

LogicalResult KernelLowering::planAhead() {
  kernel.walk([&](LoopOp loop) {
    if (loop.getMapping() == LoopMapping::ahead)
      aheadLoop = loop;
  });
  if (!aheadLoop)
    return success();
  LoopOp ahead = aheadLoop;
  auto loop = cast<LoopOp>(ahead->getParentOp());
  if (loop != producerLoop)
    return ahead.emitOpError()
           << "needs the loop around it pipelined with a producer warp "
              "('#pragma tma_pipeline' and '@producer_warp' in effect: see "
              "their warnings)";
  Block *body = loop.getBodyBlock();
  auto inside = [&](Operation *op) { return ahead->isAncestor(op); };
  // Values the ahead body takes from the loop body (recomputed by its
  // threads: index arithmetic only) or from before the loop.
  DenseSet<Operation *> chain;
  SmallVector<Value> roots = {loop.getUpperBound()};
  std::function<bool(Value)> computable = [&](Value v) -> bool {
    return indexChain(v, loop, body, chain, [&](Value outside) {
      roots.push_back(outside);
      return true;
    });
  };
  DenseSet<Value> buffers;
  Operation *bad = nullptr;
  std::string why;
  ahead.getBody().walk([&](Operation *op) {
    if (bad)
      return;
    if (isa<SignalOp, WaitOp>(op) ||
        (isa<StoreOp>(op) && tmaCopies.count(op) &&
         op->getBlock() != ahead.getBodyBlock())) {
      bad = op;
      why = isa<StoreOp>(op) ? "a TMA copy inside an ahead loop must stand "
                               "at the top level of its body (its inputs, "
                               "copied ahead)"
                             : "ready flags inside an ahead loop are not "
                               "supported";
      return;
    }
    if (auto store = dyn_cast<StoreOp>(op); store && tmaCopies.count(op))
      aheadCopies.push_back(store);
    for (Value v : op->getOperands()) {
      if (v == loop.getInductionVar() ||
          (v.getParentRegion() && ahead->isAncestor(
                                      v.getParentRegion()->getParentOp())) ||
          (isa<BlockArgument>(v) &&
           ahead->isProperAncestor(
               cast<BlockArgument>(v).getOwner()->getParentOp())))
        continue;
      Operation *def = v.getDefiningOp();
      if (def && inside(def))
        continue;
      if (isa_and_nonnull<RegAllocOp, SmemAllocOp>(def)) {
        buffers.insert(v);
        continue;
      }
      if (!computable(v)) {
        bad = op;
        why = "uses a value the loop's other threads compute (only index "
              "arithmetic on the loop variable is recomputed ahead)";
        return;
      }
    }
  });
  if (bad)
    return bad->emitOpError() << why;
  // The ahead copies' indices: index arithmetic of the ahead body (at its
  // top level) and of the loop body, re-evaluated for later iterations.
  DenseSet<Operation *> copyChain;
  Block *aheadBody = ahead.getBodyBlock();
  auto copyComputable = [&](Value v) -> bool {
    return indexChain(v, ahead, aheadBody, copyChain, [&](Value outside) {
      return outside == loop.getInductionVar() || !outside.getDefiningOp() ||
             computable(outside);
    });
  };
  for (StoreOp copy : aheadCopies) {
    LoadOp source = tileCopies.lookup(copy);
    auto tile = cast<RankedTensorType>(copy.getValue().getType());
    if (tile.getNumElements() * elementBytes(tile.getElementType()) % 128)
      return copy.emitOpError() << "copies a tile of a size that is not a "
                                   "multiple of 128 bytes ahead";
    if (!llvm::all_of(source.getIndices(), copyComputable) ||
        !llvm::all_of(source.getLimits(), copyComputable) ||
        !llvm::all_of(copy.getIndices(), copyComputable))
      return copy.emitOpError()
             << "is copied ahead, but its indices are computed from the "
                "loop's data (only index arithmetic is re-evaluated)";
    Value dest = copy.getDest();
    for (Operation *user : dest.getUsers())
      if (!inside(user) || (isa<StoreOp>(user) && user != copy.getOperation()))
        return copy.emitOpError()
               << "is copied ahead into a buffer that other code also "
                  "writes or reads outside the ahead body";
    aheadInputs.push_back(dest);
    stagedBuffers.insert(dest);
    pipelinedCopies.insert(copy);
    buffers.erase(dest);
  }
  for (Operation &op : *aheadBody)
    if (copyChain.contains(&op))
      aheadCopyChain.push_back(&op);
  for (Value buffer : buffers) {
    bool writtenInside = false, writtenOutside = false, usedOutside = false;
    for (Operation *user : buffer.getUsers()) {
      bool in = inside(user);
      usedOutside |= !in;
      if (auto store = dyn_cast<StoreOp>(user); store && store.getDest() == buffer)
        (in ? writtenInside : writtenOutside) = true;
    }
    if (buffer.getDefiningOp<RegAllocOp>()) {
      if (usedOutside)
        return ahead.emitOpError()
               << "uses a register tile that code outside it uses too: each "
                  "group of threads has its own registers";
      continue;
    }
    if (writtenOutside)
      return ahead.emitOpError()
             << "reads or writes a shared buffer that code outside it "
                "writes; the ahead body hands tiles over, it does not take "
                "them";
    if (writtenInside && usedOutside) {
      aheadStaged.push_back(buffer);
      stagedBuffers.insert(buffer);
    }
  }
  for (Operation &op : *body)
    if (chain.contains(&op))
      aheadChain.push_back(&op);
  for (Operation *p = loop->getParentOp(); p != kernel.getOperation();
       p = p->getParentOp())
    roots.push_back(cast<LoopOp>(p).getUpperBound());
  if (Operation *stop = sliceFor(loop, std::move(roots), aheadSlice))
    return ahead.emitOpError()
           << "needs '" << stop->getName().getStringRef()
           << "' from before the loop, which its threads cannot evaluate "
              "(only pure ops and scalar reads of read-only inputs)";
  // The producer warp issues the ahead copies too: it evaluates what their
  // indices need from before the loop (a subset of the ahead slice).
  if (!aheadCopies.empty())
    producerSlice.insert(aheadSlice.begin(), aheadSlice.end());
  return success();
}

void KernelLowering::waitStageEmpty(Value i, Value stage, Location loc) {
  waitEmpty(1 + pipelineStages, i, stage, loc);
}

void KernelLowering::waitEmpty(int64_t base, Value i, Value stage,
                               Location loc) {
  auto c = [&](int64_t v) { return constantIndex(v, loc); };
  int64_t stages = pipelineStages;
  Value reused =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, i, c(stages));
  OpBuilder::InsertionGuard inner(b);
  b.setInsertionPointToStart(
      scf::IfOp::create(b, loc, TypeRange(), reused, false).thenBlock());
  Value parity = arith::RemUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, arith::DivUIOp::create(b, loc, i, c(stages)),
                            c(1)),
      c(2));
  tryWaitParity(
      sharedPointer(tmaBarrier, {arith::AddIOp::create(b, loc, c(base), stage)},
                    loc),
      arith::IndexCastOp::create(b, loc, b.getI32Type(), parity), loc);
}

void KernelLowering::tryWaitParity(Value bar, Value parity, Location loc) {
  NVVM::MBarrierTryWaitParityOp::create(
      b, loc, bar, parity,
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(10000000)));
}

LogicalResult KernelLowering::lowerSide(Block &block,
                                        const DenseSet<Operation *> &slice,
                                        function_ref<LogicalResult()> atLoop) {
  for (Operation &op : block) {
    if (&op == producerLoop.getOperation())
      return atLoop();
    if (auto loop = dyn_cast<LoopOp>(op);
        loop && loop->isProperAncestor(producerLoop)) {
      // A block loop: this block's iteration, as the computing threads see it.
      Location loc = loop.getLoc();
      Value bx = blockXIndex ? blockXIndex
                             : Value(gpu::BlockIdOp::create(
                                   b, loc, gpu::Dimension::x));
      Value inRange = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, bx, lookup(loop.getUpperBound()));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(
          scf::IfOp::create(b, loc, TypeRange(), inRange, false).thenBlock());
      map.map(loop.getInductionVar(), bx);
      return lowerSide(*loop.getBodyBlock(), slice, atLoop);
    }
    if (slice.contains(&op) && failed(lowerOp(&op)))
      return failure();
  }
  return success();
}

LogicalResult KernelLowering::lowerProducer(Block &block) {
  return lowerSide(block, producerSlice, [&]() -> LogicalResult {
    LoopOp loop = producerLoop;
    Location loc = loop.getLoc();
    auto c = [&](int64_t v) { return constantIndex(v, loc); };
    // One thread walks the loop: stage i % S, once the block's threads
    // are done with it (iteration i - S arrived on its empty barrier:
    // that barrier's phase i / S - 1 completed).
    Value one = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      threadId, c(producerThread()));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, TypeRange(), one, false).thenBlock());
    // The kernel before it ends before the first copy (its results are
    // what the copies read; kda2.wait_prior).
    if (waitsPrior)
      gridDepControl(NVVM::GridDepActionKind::wait, loc);
    auto [i, stage] = walkStages(loc);
    tmaSingleThread = true;
    // The ahead group's inputs first (it runs ahead of the computing
    // threads), into the stage its iteration i - S left (all of its threads
    // arrived on the stage's empty barrier), then the computing threads'.
    LogicalResult result = success();
    if (!aheadCopies.empty()) {
      waitEmpty(aheadEmptyBase(), i, stage, loc);
      result = issueAheadCopies(i, stage, loc);
    }
    if (succeeded(result)) {
      waitStageEmpty(i, stage, loc);
      result = issuePipelineCopies(loop, i, stage, false);
    }
    tmaSingleThread = false;
    return result;
  });
}

std::pair<Value, Value> KernelLowering::walkStages(Location loc) {
  auto c = [&](int64_t v) { return constantIndex(v, loc); };
  auto forOp = scf::ForOp::create(
      b, loc, c(0), lookup(producerLoop.getUpperBound()), c(1));
  b.setInsertionPoint(forOp.getBody()->getTerminator());
  Value i = forOp.getInductionVar();
  Value stage = arith::RemUIOp::create(b, loc, i, c(pipelineStages));
  return {i, stage};
}

LogicalResult KernelLowering::refillStage(
    Value i, Value upper, Location loc,
    function_ref<LogicalResult(Value, Value)> issue) {
  auto c = [&](int64_t v) { return constantIndex(v, loc); };
  int64_t stages = pipelineStages;
  blockBarrier(loc);
  Value next = arith::AddIOp::create(b, loc, i, c(stages - 1));
  Value more =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next, upper);
  OpBuilder::InsertionGuard inner(b);
  b.setInsertionPointToStart(
      scf::IfOp::create(b, loc, TypeRange(), more, false).thenBlock());
  return issue(next, arith::RemUIOp::create(b, loc, next, c(stages)));
}

LogicalResult KernelLowering::issueAheadCopies(Value at, Value stage,
                                               Location loc) {
  Value iv = producerLoop.getInductionVar();
  Value saved = map.lookupOrNull(iv);
  map.map(iv, at);
  for (Operation *op : llvm::concat<Operation *const>(aheadChain,
                                                      aheadCopyChain))
    if (failed(lowerOp(op)))
      return failure();
  for (Value buffer : aheadInputs)
    tensors[buffer].stage = stage;
  issueTmaCopies(aheadCopies,
                 arith::AddIOp::create(
                     b, loc, constantIndex(aheadBarrierBase(), loc), stage),
                 /*barrier=*/false);
  for (Value buffer : aheadInputs)
    tensors[buffer].stage = Value();
  if (saved)
    map.map(iv, saved);
  return success();
}

LogicalResult KernelLowering::lowerAheadLoop() {
  LoopOp loop = producerLoop;
  Location loc = aheadLoop.getLoc();
  auto c = [&](int64_t v) { return constantIndex(v, loc); };
  int64_t stages = pipelineStages;
  OpBuilder::InsertionGuard guard(b);
  // Every thread of the group waits until the stage is free, then writes
  // it (its private buffers ordered by the group's own barriers); its own
  // inputs (the producer warp copies them S - 1 iterations ahead) arrive on
  // the stage's ahead barrier.
  auto [i, stage] = walkStages(loc);
  waitStageEmpty(i, stage, loc);
  if (!aheadCopies.empty())
    waitTma(arith::AddIOp::create(b, loc, c(aheadBarrierBase()), stage),
            aheadBarrierBase(), stages);
  map.map(loop.getInductionVar(), i);
  for (Operation *op : aheadChain)
    if (failed(lowerOp(op)))
      return failure();
  for (Value buffer : llvm::concat<Value>(aheadStaged, aheadInputs))
    tensors[buffer].stage = stage;
  SharedAccesses before = std::move(pending);
  pending.clear();
  // Global tensors the body only writes are not ordered across iterations
  // (as in the computing threads' loop with a producer warp).
  LogicalResult result = lowerUniformBody(*aheadLoop.getBodyBlock(), loc,
                                          /*backEdge=*/true,
                                          /*unorderedOutputs=*/true);
  pending = std::move(before);
  for (Value buffer : llvm::concat<Value>(aheadStaged, aheadInputs))
    tensors[buffer].stage = Value();
  if (failed(result))
    return failure();
  // Hand the stage over: tiles written through the generic proxy that the
  // async one reads (wgmma's operands: swizzled tiles) are fenced, then each
  // thread arrives on the stage's full barrier (release; ldmatrix and
  // shared loads read through the generic proxy).
  flushWgmma(loc);
  if (hasGridDep && llvm::any_of(aheadStaged, [&](Value buffer) {
        return swizzledBuffers.contains(buffer);
      }))
    NVVM::FenceProxyOp::create(b, loc, NVVM::ProxyKind::async_shared,
                               NVVM::SharedSpaceAttr::get(
                                   b.getContext(), NVVM::SharedSpace::shared_cta));
  NVVM::MBarrierArriveOp::create(
      b, loc, Type(),
      sharedPointer(tmaBarrier, {arith::AddIOp::create(b, loc, c(1), stage)},
                    loc),
      Value());
  // Done with the stage's inputs: the producer may copy into it again.
  if (!aheadCopies.empty())
    NVVM::MBarrierArriveOp::create(
        b, loc, Type(),
        sharedPointer(tmaBarrier,
                      {arith::AddIOp::create(b, loc, c(aheadEmptyBase()), stage)},
                      loc),
        Value());
  return success();
}

LogicalResult KernelLowering::issuePipelineCopies(LoopOp loop, Value at,
                                                  Value stage, bool barrier) {
  // Sets the destinations' stage, maps the loop variable to `at` and
  // re-evaluates the index computations the copies need, then issues them
  // on mbarrier 1 + stage.
  Location loc = loop.getLoc();
  Value iv = loop.getInductionVar();
  Value saved = map.lookupOrNull(iv);
  map.map(iv, at);
  for (StoreOp store : pipelinedLoops[loop])
    tensors[store.getDest()].stage = stage;
  for (Operation *op : pipelineChains[loop])
    if (failed(lowerOp(op)))
      return failure();
  issueTmaCopies(pipelinedLoops[loop],
                 arith::AddIOp::create(b, loc, constantIndex(1, loc), stage),
                 barrier, pipelineWaits[loop]);
  if (saved)
    map.map(iv, saved);
  return success();
}

void KernelLowering::setGridIndices(Value linear, Location loc) {
  ArrayAttr grid = kernel.getGridAttr();
  if (!grid)
    return;
  SmallVector<Value> reversed;
  auto names = llvm::to_vector(grid.getAsRange<StringAttr>());
  for (auto name : llvm::reverse(names)) {
    Value size = dimIndex.lookup(name.getValue());
    reversed.push_back(arith::RemUIOp::create(b, loc, linear, size));
    linear = arith::DivUIOp::create(b, loc, linear, size);
  }
  gridIndices.assign(reversed.rbegin(), reversed.rend());
  for (auto [name, index] : llvm::zip(names, gridIndices))
    gridIndexByName[name.getValue()] = index;
}

Value KernelLowering::gridInstances(Location loc) {
  Value count = constantIndex(1, loc);
  if (ArrayAttr grid = kernel.getGridAttr())
    for (auto name : grid.getAsRange<StringAttr>())
      count = arith::MulIOp::create(b, loc, count,
                                    dimIndex.lookup(name.getValue()));
  return count;
}

/// `@persistent(n)`: the runtime launches at most n blocks per SM in one
/// dimension; block b walks the work items p = b, b + B, ... (B the blocks)
/// of the loop's iterations × the grid's instances, each decomposed as the
/// blocks of the full grid would have been (iteration fastest, or with
/// `#pragma grid_first` the grid instance fastest), its body uniform code
/// ending where the next item could touch what it left.
LogicalResult KernelLowering::lowerPersistentLoop(LoopOp loop, Value upper) {
  Location loc = loop.getLoc();
  Value instances = gridInstances(loc);
  Value total = arith::MulIOp::create(b, loc, upper, instances);
  // Any launch grid walks the items once: block (x, y) starts at x + y·gx
  // and strides by gx·gy (the runtime launches min(items, n·SMs) × 1; the
  // full grid would give each block one item).
  Value gx = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value first = arith::AddIOp::create(
      b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
      arith::MulIOp::create(
          b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::y), gx));
  Value stride = arith::MulIOp::create(
      b, loc, gx, gpu::GridDimOp::create(b, loc, gpu::Dimension::y));
  auto forOp = scf::ForOp::create(b, loc, first, total, stride);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forOp.getBody()->getTerminator());
  Value p = forOp.getInductionVar();
  Value iteration, instance;
  if (gridFirst) {
    iteration = arith::DivUIOp::create(b, loc, p, instances);
    instance = arith::RemUIOp::create(b, loc, p, instances);
  } else {
    iteration = arith::RemUIOp::create(b, loc, p, upper);
    instance = arith::DivUIOp::create(b, loc, p, upper);
  }
  setGridIndices(instance, loc);
  map.map(loop.getInductionVar(), iteration);
  return lowerUniformBody(*loop.getBodyBlock(), loc, /*backEdge=*/true);
}

/// A flag op meets the block's threads: not in a thread loop.
LogicalResult KernelLowering::requireUniform(Operation *op) {
  if (threadDepth == 0)
    return success();
  return op->emitOpError()
         << "must be reached by every thread of the block (uniform code), "
            "not inside a thread loop";
}

/// `signal(f[i])`: every thread's global stores before it are made visible
/// to the async proxy too (a consumer may read them by TMA), the block
/// meets, and thread 0 sets the flag with a release store at GPU scope.
LogicalResult KernelLowering::lowerSignal(SignalOp signal) {
  Location loc = signal.getLoc();
  if (failed(requireUniform(signal)))
    return failure();
  if (hasGridDep)
    NVVM::FenceProxyOp::create(b, loc, NVVM::ProxyKind::async_global,
                               NVVM::SharedSpaceAttr());
  emitBarrier(loc);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      threadId, constantIndex(0, loc));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(
      scf::IfOp::create(b, loc, TypeRange(), first, false).thenBlock());
  TensorInfo &info = tensors[signal.getFlags()];
  Value ptr = elementPointer(
      info, accessIndices(signal.getFlags(), signal.getIndices()), loc);
  LLVM::StoreOp::create(
      b, loc, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1)), ptr,
      /*alignment=*/4, /*isVolatile=*/false, /*isNonTemporal=*/false,
      /*isInvariantGroup=*/false, LLVM::AtomicOrdering::release,
      StringRef("device"));
  return success();
}

void KernelLowering::spinOnFlag(WaitOp wait) {
  Location loc = wait.getLoc();
  TensorInfo &info = tensors[wait.getFlags()];
  Value ptr = elementPointer(
      info, accessIndices(wait.getFlags(), wait.getIndices()), loc);
  Type i32 = b.getI32Type();
  auto c32 = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  // Poll with a short sleep between reads; after 2^24 polls (seconds) the
  // flag is taken as never coming and the kernel traps: a launch error
  // instead of a hung GPU.
  auto loop = scf::WhileOp::create(b, loc, TypeRange{i32, i32},
                                   ValueRange{c32(0), c32(0)});
  {
    OpBuilder::InsertionGuard guard(b);
    Block *before = b.createBlock(&loop.getBefore(), {}, {i32, i32},
                                  {loc, loc});
    Value polls = before->getArgument(0);
    // The acquire load as inline PTX: LLVM 22's NVPTX instruction selection
    // crashes on `load atomic ... acquire` in these kernels.
    Value flag = LLVM::InlineAsmOp::create(
                     b, loc, i32, ValueRange{ptr},
                     "ld.acquire.gpu.global.b32 $0, [$1];", "=r,l",
                     /*has_side_effects=*/true, /*is_align_stack=*/false,
                     LLVM::tailcallkind::TailCallKind::None,
                     LLVM::AsmDialectAttr::get(b.getContext(),
                                               LLVM::AsmDialect::AD_ATT),
                     ArrayAttr())
                     .getResult(0);
    Value unset = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        flag, c32(0));
    Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       polls, c32(1 << 24));
    scf::ConditionOp::create(b, loc,
                             arith::AndIOp::create(b, loc, unset, more),
                             ValueRange{polls, flag});
    Block *after = b.createBlock(&loop.getAfter(), {}, {i32, i32},
                                 {loc, loc});
    // nanosleep as inline PTX too (its intrinsic also failed there).
    LLVM::InlineAsmOp::create(
        b, loc, TypeRange(), ValueRange(), "nanosleep.u32 64;", "",
        /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
        ArrayAttr());
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::AddIOp::create(b, loc, after->getArgument(0),
                                         c32(1)),
                   after->getArgument(1)});
  }
  Value never = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      loop.getResult(1), c32(0));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, TypeRange(), never, false).thenBlock());
    LLVM::Trap::create(b, loc);
  }
  // What the flag published was stored through the generic proxy; the
  // copies that follow read through the async one (sm_90 on).
  if (hasGridDep)
    NVVM::FenceProxyOp::create(b, loc, NVVM::ProxyKind::async_global,
                               NVVM::SharedSpaceAttr());
}

void KernelLowering::gridDepControl(NVVM::GridDepActionKind kind,
                                    Location loc) {
  if (hasGridDep)
    NVVM::GriddepcontrolOp::create(b, loc, kind);
}

/// `wait_for(f[i])` in place: thread 0 waits for the flag, then the block
/// meets (its later reads are ordered after thread 0's acquire).
LogicalResult KernelLowering::lowerWait(WaitOp wait) {
  Location loc = wait.getLoc();
  if (failed(requireUniform(wait)))
    return failure();
  {
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        threadId, constantIndex(0, loc));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, TypeRange(), first, false).thenBlock());
    spinOnFlag(wait);
  }
  emitBarrier(loc);
  return success();
}

LogicalResult KernelLowering::lowerPipelinedLoop(LoopOp loop, Value upper) {
  Location loc = loop.getLoc();
  ArrayRef<StoreOp> group = pipelinedLoops[loop];
  auto c = [&](int64_t v) { return constantIndex(v, loc); };
  int64_t stages = pipelineStages;
  bool producer = loop == producerLoop;
  for (int64_t first = 0; !producer && first + 1 < stages; ++first) {
    // Iterations 0 .. S - 2's tiles, before the loop (those that exist:
    // what came before stays pending).
    SharedAccesses before = pending;
    Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                      c(first), upper);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(
        scf::IfOp::create(b, loc, TypeRange(), any, false).thenBlock());
    if (failed(issuePipelineCopies(loop, c(first), c(first),
                                   /*barrier=*/first == 0)))
      return failure();
    pending = std::move(before);
  }
  auto forOp = scf::ForOp::create(b, loc, c(0), upper, c(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forOp.getBody()->getTerminator());
  Value i = forOp.getInductionVar();
  Value stage = arith::RemUIOp::create(b, loc, i, c(stages));
  // Without a producer warp, every iteration starts at a barrier: the
  // previous one is done with everything it touched (so the body needs no
  // barrier at its end) and with the stage the new copies (iteration
  // i + S - 1's) overwrite, which they issue next. With one, the stages
  // are handed back through their empty mbarriers, and the body ends with
  // a barrier only where the next iteration could touch what it left
  // (`lowerUniformBody`'s back edge; the split=cols scratch alternates its
  // halves at run time, each reduction's barrier ordering the last one's
  // reads). Stores to global tensors the body never reads are not ordered
  // across iterations (docs/TIRx.md, `@producer_warp`).
  if (!producer &&
      failed(refillStage(i, upper, loc, [&](Value next, Value into) {
        return issuePipelineCopies(loop, next, into, /*barrier=*/false);
      })))
    return failure();
  waitTma(arith::AddIOp::create(b, loc, c(1), stage));
  map.map(loop.getInductionVar(), i);
  for (StoreOp store : group)
    tensors[store.getDest()].stage = stage;
  if (producer)
    for (Value buffer : aheadStaged)
      tensors[buffer].stage = stage;
  if (l2PrefetchDepth > 0 && hasL2Prefetch)
    emitNextIterationPrefetch(loop, i, upper);
  LogicalResult result =
      lowerUniformBody(*loop.getBodyBlock(), loc, /*backEdge=*/producer,
                       /*unorderedOutputs=*/producer);
  for (StoreOp store : group)
    tensors[store.getDest()].stage = Value();
  for (Value buffer : aheadStaged)
    tensors[buffer].stage = Value();
  // The stage is free again: every computing thread arrives on its empty
  // barrier (the producer waits for all of them).
  if (producer)
    NVVM::MBarrierArriveOp::create(
        b, loc, Type(),
        sharedPointer(tmaBarrier, {arith::AddIOp::create(b, loc, c(1 + stages),
                                                         stage)},
                      loc),
        Value());
  return result;
}

//===----------------------------------------------------------------------===//
// Tensor-core matmul
//===----------------------------------------------------------------------===//

Value KernelLowering::mmaTileOf(Value operand) {
  if (!operand)
    return {};
  if (auto cast = operand.getDefiningOp<CastOp>())
    operand = cast.getInput();
  auto load = operand.getDefiningOp<LoadOp>();
  if (!load || !load.getIndices().empty())
    return {};
  auto alloc = load.getSource().getDefiningOp<RegAllocOp>();
  return alloc && alloc.getMma() ? load.getSource() : Value();
}

/// Rows: strip w + i W, column block j; cols: strip i, column block
/// w N/(8 W) + j; none: strip i, column block j (w = this warp).
std::pair<Value, Value> KernelLowering::blockOrigin(const TensorInfo &info,
                                                    int64_t i, int64_t j,
                                                    Location loc) {
  auto c = [&](int64_t v) { return constantIndex(v, loc); };
  int64_t warps = blockX / 32;
  if (info.split == MmaSplit::None || warps == 1)
    return {c(16 * i), c(8 * j)};
  Value warp = arith::DivUIOp::create(b, loc, threadId, c(32));
  if (info.split == MmaSplit::Rows)
    return {arith::MulIOp::create(
                b, loc, arith::AddIOp::create(b, loc, warp, c(i * warps)),
                c(16)),
            c(8 * j)};
  return {c(16 * i),
          arith::MulIOp::create(
              b, loc,
              arith::AddIOp::create(
                  b, loc, arith::MulIOp::create(b, loc, warp,
                                                c(localColBlocks(info))),
                  c(j)),
              c(8))};
}

std::pair<Value, Value> KernelLowering::fragmentElement(const TensorInfo &info,
                                                        int64_t slot,
                                                        Location loc) {
  int64_t colBlocks = localColBlocks(info);
  int64_t e = slot % 2, h = (slot / 2) % 2, j = (slot / 4) % colBlocks,
          i = slot / (4 * colBlocks);
  auto c = [&](int64_t v) { return constantIndex(v, loc); };
  Value group = arith::DivUIOp::create(b, loc, laneId, c(4));
  Value quad = arith::RemUIOp::create(b, loc, laneId, c(4));
  // row = row0 + group + 8 h, col = col0 + 2 quad + e.
  auto [row0, col0] = blockOrigin(info, i, j, loc);
  Value row = arith::AddIOp::create(
      b, loc, row0, arith::AddIOp::create(b, loc, group, c(8 * h)));
  Value col = arith::AddIOp::create(
      b, loc, col0,
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, quad, c(2)),
                            c(e)));
  return {row, col};
}

/// An mma tile [rows, cols] splits over the block's warps: whole 16-row
/// strips per warp (rows), whole 8-column blocks per warp (cols), or 16 x 8
/// blocks (none).
LogicalResult KernelLowering::checkMmaSplit(Operation *op, StringRef what,
                                            MmaSplit split, int64_t rows,
                                            int64_t cols) {
  int64_t warps = splitWarps(split);
  int64_t rowUnit = 16 * (split == MmaSplit::Rows ? warps : 1),
          colUnit = 8 * (split == MmaSplit::Cols ? warps : 1);
  if (rows % rowUnit == 0 && cols % colUnit == 0)
    return success();
  if (split == MmaSplit::Cols)
    return op->emitOpError()
           << what << " [" << rows << ", " << cols
           << "] does not split by columns over the block's " << warps
           << " warps: its columns must be a multiple of 8 per warp ("
           << colUnit << ") and its rows of 16";
  return op->emitOpError() << what << " [" << rows << ", " << cols
                           << "] does not split over the block's " << warps
                           << " warps: its rows must be a multiple of 16 per "
                              "warp ("
                           << rowUnit << ") and its columns of 8";
}

/// `for r, c in schedule.fragment(t)`: the body once per register slot of
/// this thread (unrolled here: each copy reaches a fixed register), with
/// (r, c) the element the slot holds and the loop variable r * N + c. The
/// slots come in pairs of adjacent columns (c, c + 1) of one row; their
/// two copies are lowered op by op in lockstep, so that a global store at
/// column c of a contiguous last dimension writes both as one vector (and a
/// conversion to 16-bit floats packs both in one instruction).
LogicalResult KernelLowering::lowerFragmentLoop(LoopOp loop) {
  Location loc = loop.getLoc();
  if (currentFragmentSlot >= 0)
    return loop.emitOpError() << "fragment loops do not nest";
  int64_t cols = static_cast<int64_t>(*loop.getColumns());
  std::optional<int64_t> extent = getConstantIntValue(loop.getUpperBound());
  if (!extent || *extent % cols != 0)
    return loop.emitOpError()
           << "fragment loop extent must be the tile's constant size";
  TensorInfo shape;
  shape.mma = true;
  shape.rows = *extent / cols;
  shape.cols = cols;
  shape.split = mmaSplitOf(loop.getSplit());
  if (failed(checkMmaSplit(loop, "fragment loop over the tile", shape.split,
                           shape.rows, cols)))
    return failure();
  // The row and column the importer computes from the loop variable.
  Value iv = loop.getInductionVar();
  Operation *rowOp = nullptr, *colOp = nullptr;
  for (Operation *user : iv.getUsers()) {
    if (user->getNumOperands() != 2 || user->getOperand(0) != iv ||
        getConstantIntValue(user->getOperand(1)) != cols)
      continue;
    if (isa<DivOp>(user) && !rowOp)
      rowOp = user;
    else if (isa<RemOp>(user) && !colOp)
      colOp = user;
  }
  fragmentRow = rowOp ? rowOp->getResult(0) : Value();
  fragmentCol = colOp ? colOp->getResult(0) : Value();
  fragmentRows = shape.rows;
  fragmentCols = cols;
  fragmentSplit = shape.split;
  Block &body = *loop.getBodyBlock();

  // Whether `v` (a value of the body) varies with the column.
  std::function<bool(Value)> onColumn = [&](Value v) -> bool {
    if (v == iv || v == fragmentCol)
      return true;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body || def == rowOp)
      return false;
    return llvm::any_of(def->getOperands(), onColumn);
  };
  // A store both copies make at columns c and c + 1 of a contiguous,
  // statically sized (even) last dimension of a global tensor, the other
  // indices the same: one vector store.
  auto pairable = [&](Operation &op) -> StoreOp {
    auto store = dyn_cast<StoreOp>(op);
    if (!store || !fragmentCol || store.getIndices().empty() ||
        isa<RankedTensorType>(store.getValue().getType()))
      return {};
    auto it = tensors.find(store.getDest());
    if (it == tensors.end() || it->second.kind != TensorInfo::Kind::Global)
      return {};
    TensorInfo &info = it->second;
    int64_t last = info.type.getRank() - 1;
    if (store.getIndices().back() != fragmentCol ||
        ShapedType::isDynamic(info.type.getShape()[last]) ||
        info.type.getShape()[last] % 2 != 0 ||
        info.staticStrides.back() != std::optional<int64_t>(1))
      return {};
    if (llvm::any_of(store.getIndices().drop_back(), onColumn))
      return {};
    return store;
  };

  // A paired store whose bounds condition does not vary over the loop (its
  // dynamic dimensions are indexed by values from outside the loop), into a
  // tensor the loop does not read: its stores of every slot wait for the end
  // of the loop, where one branch on that condition makes them all (instead
  // of a predicate per store).
  std::function<bool(Value)> varies = [&](Value v) -> bool {
    if (isa<BlockArgument>(v))
      return loop->isAncestor(cast<BlockArgument>(v).getOwner()->getParentOp());
    Operation *def = v.getDefiningOp();
    if (!loop->isAncestor(def))
      return false;
    return !isPure(def) || llvm::any_of(def->getOperands(), varies);
  };
  auto deferrable = [&](StoreOp store) {
    TensorInfo &info = tensors[store.getDest()];
    unsigned gridRank = info.type.getRank() - store.getIndices().size();
    for (auto [i, index] : llvm::enumerate(store.getIndices()))
      if (ShapedType::isDynamic(info.type.getShape()[gridRank + i]) &&
          varies(index))
        return false;
    WalkResult read = loop.getBody().walk([&](LoadOp load) {
      return load.getSource() == store.getDest() ? WalkResult::interrupt()
                                                 : WalkResult::advance();
    });
    return !read.wasInterrupted();
  };
  struct DeferredStores {
    Value cond;
    SmallVector<std::tuple<SmallVector<Value>, Value, unsigned, Location>>
        stores;
  };
  llvm::MapVector<Operation *, DeferredStores> deferred;

  // A loop over a split=none tile (every warp holds it whole) whose body
  // only reads and stores to global memory: warp w makes the stores of the
  // 16 x 8 blocks b = w, w + W, ... (each element stored once, not by every
  // warp).
  int64_t warps = blockX / 32;
  bool distribute = shape.split == MmaSplit::None && warps > 1 &&
                    !loop.getBody()
                         .walk([&](Operation *op) {
                           if (auto store = dyn_cast<StoreOp>(op)) {
                             auto it = tensors.find(store.getDest());
                             return it != tensors.end() &&
                                            it->second.kind ==
                                                TensorInfo::Kind::Global
                                        ? WalkResult::advance()
                                        : WalkResult::interrupt();
                           }
                           return isPure(op) || isa<LoadOp, IfOp>(op)
                                      ? WalkResult::advance()
                                      : WalkResult::interrupt();
                         })
                         .wasInterrupted();
  Value warp;
  if (distribute)
    warp = arith::DivUIOp::create(b, loc, threadId, constantIndex(32, loc));
  std::optional<OpBuilder::InsertPoint> afterBlock;

  ++threadDepth;
  LogicalResult result = success();
  int64_t slots = *extent / (32 * splitWarps(shape.split));
  for (int64_t slot = 0; slot < slots && succeeded(result); slot += 2) {
    if (distribute && slot % 4 == 0) {
      // Block slot / 4 (four slots each): its owner's stores.
      if (afterBlock)
        b.restoreInsertionPoint(*afterBlock);
      auto branch = scf::IfOp::create(
          b, loc, TypeRange(), isWarp(warp, slot / 4 % warps, loc), false);
      afterBlock = b.saveInsertionPoint();
      b.setInsertionPointToStart(branch.thenBlock());
    }
    // The two copies' values of the body (slot + e, column c + e).
    std::array<DenseMap<Value, Value>, 2> copy;
    for (int64_t e = 0; e < 2; ++e) {
      auto [row, col] = fragmentElement(shape, slot + e, loc);
      copy[e][iv] = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, row, constantIndex(cols, loc)),
          col);
      if (rowOp)
        copy[e][rowOp->getResult(0)] = row;
      if (colOp)
        copy[e][colOp->getResult(0)] = col;
    }
    auto enter = [&](Operation &op, int64_t e) {
      currentFragmentSlot = slot + e;
      op.walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (auto it = copy[e].find(operand); it != copy[e].end())
            map.map(operand, it->second);
      });
    };
    for (Operation &op : body) {
      if (&op == rowOp || &op == colOp)
        continue; // (r, c) of each copy, mapped above
      if (StoreOp store = pairable(op)) {
        Location at = store.getLoc();
        TensorInfo &info = tensors[store.getDest()];
        Type elt = signless(info.type.getElementType());
        // Both values, converted together when the stored value is a
        // conversion of the body's.
        auto cast = store.getValue().getDefiningOp<CastOp>();
        bool packed = cast && cast->getBlock() == &body &&
                      copy[0].count(cast.getInput()) &&
                      isa<FloatType>(elt);
        SmallVector<Value> pair;
        for (int64_t e = 0; e < 2; ++e) {
          enter(op, e);
          Value v = packed ? copy[e].lookup(cast.getInput())
                           : copy[e].count(store.getValue())
                                 ? copy[e].lookup(store.getValue())
                                 : lookup(store.getValue());
          pair.push_back(v);
        }
        Value vector;
        if (packed && pair[0].getType() != elt) {
          Value wide = vector::FromElementsOp::create(
              b, at, VectorType::get({2}, pair[0].getType()), pair);
          vector = arith::TruncFOp::create(b, at, VectorType::get({2}, elt),
                                           wide);
        } else {
          vector = vector::FromElementsOp::create(
              b, at, VectorType::get({2}, pair[0].getType()), pair);
        }
        enter(op, 0);
        SmallVector<Value> indices =
            accessIndices(store.getDest(), store.getIndices());
        unsigned gridRank = indices.size() - store.getIndices().size();
        unsigned alignment =
            globalAlignment(info, indices.size() - 1, /*blockElements=*/2);
        if (auto it = deferred.find(store); it != deferred.end()) {
          it->second.stores.emplace_back(indices, vector, alignment, at);
          continue;
        }
        Value cond =
            inBoundsCondition(info, store.getIndices(), gridRank, at);
        if (cond && slots > 2 && !distribute && deferrable(store)) {
          DeferredStores &later = deferred[store];
          later.cond = cond;
          later.stores.emplace_back(indices, vector, alignment, at);
          continue;
        }
        OpBuilder::InsertionGuard guard(b);
        if (cond)
          b.setInsertionPointToStart(
              scf::IfOp::create(b, at, TypeRange(), cond, false).thenBlock());
        LLVM::StoreOp::create(b, at, vector, elementPointer(info, indices, at),
                              alignment);
        continue;
      }
      for (int64_t e = 0; e < 2 && succeeded(result); ++e) {
        enter(op, e);
        result = lowerOp(&op);
        if (failed(result))
          break;
        for (Value r : op.getResults())
          copy[e][r] = map.lookup(r);
      }
      if (failed(result))
        break;
    }
  }
  if (afterBlock)
    b.restoreInsertionPoint(*afterBlock);
  for (auto &[store, later] : deferred) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(
        scf::IfOp::create(b, store->getLoc(), TypeRange(), later.cond, false)
            .thenBlock());
    // (The addresses computed here, not kept live across the loop.)
    TensorInfo &info = tensors[cast<StoreOp>(store).getDest()];
    for (auto &[indices, vector, alignment, at] : later.stores)
      LLVM::StoreOp::create(b, at, vector, elementPointer(info, indices, at),
                            alignment);
  }
  --threadDepth;
  currentFragmentSlot = -1;
  return result;
}

/// A `kda2.matmul` the tensor-core path takes: in uniform code (outside
/// thread loops; every warp of the CTA takes part), f16/bf16 operand tiles
/// loaded whole from shared buffers, an optional f32 accumulator loaded the
/// same way, and one use of the result, a whole-tile `kda2.store` into a
/// shared or global tensor. The operand loads and the store are fused into
/// the fragment code (no thread ever holds a whole tile).
LogicalResult KernelLowering::checkTensorCoreMatmul(MatmulOp matmul) {
  for (auto loop = matmul->getParentOfType<LoopOp>(); loop;
       loop = loop->getParentOfType<LoopOp>())
    if (loop.getMapping() == LoopMapping::thread ||
        loop.getMapping() == LoopMapping::fragment)
      return matmul.emitOpError()
             << "runs on tensor cores with every warp of the block: write it "
                "outside thread and fragment loops";
  auto aType = cast<RankedTensorType>(matmul.getA().getType());
  auto bType = cast<RankedTensorType>(matmul.getB().getType());
  auto cType = cast<RankedTensorType>(matmul.getResult().getType());
  Type elt = aType.getElementType();
  bool transA = matmul.getTransposeA();
  // f32 operands run in TF32 (m16n8k8, each operand rounded to a 10-bit
  // mantissa, f32 accumulation).
  bool tf32 = elt.isF32();
  if (!(elt.isF16() || elt.isBF16() || tf32) ||
      bType.getElementType() != elt || !cType.getElementType().isF32())
    return matmul.emitOpError()
           << "tensor-core lowering needs f16, bf16 or f32 (TF32) operands of "
              "one type and an f32 result, got "
           << aType << ", " << bType << " -> " << cType;
  int64_t m = aType.getDimSize(transA ? 1 : 0),
          k = aType.getDimSize(transA ? 0 : 1), n = cType.getDimSize(1);
  int64_t kStep = tf32 ? 8 : 16;
  if (m % 16 || n % 8 || k % kStep)
    return matmul.emitOpError()
           << "tensor-core tiles are 16x8x" << kStep
           << " (m x n x k): m = " << m << " must be a multiple of 16, k = "
           << k << " of " << kStep << ", n = " << n << " of 8";
  auto sharedLoad = [&](Value v, StringRef what) -> LoadOp {
    // A TF32 operand may be a 16-bit tile converted to f32 (exactly), a
    // 16-bit operand a tile of the other 16-bit type (bf16 <-> f16, rounded
    // to nearest even): the conversion is fused into the fragment loads.
    if (auto conv = v.getDefiningOp<CastOp>(); conv && conv->hasOneUse()) {
      Type from = getElementTypeOrSelf(conv.getInput().getType());
      if (isa<FloatType>(from) && from.getIntOrFloatBitWidth() == 16 &&
          from != elt) {
        fusedCasts.insert(conv);
        v = conv.getInput();
      }
    }
    auto load = v.getDefiningOp<LoadOp>();
    if (!load ||
        cast<KDA2TensorType>(load.getSource().getType()).getMemorySpace() !=
            MemorySpace::smem) {
      matmul.emitOpError()
          << "operand " << what
          << " must be a tile loaded from a shared buffer (stage global "
             "data through SMEM: the tensor-core path reads fragments with "
             "ldmatrix)";
      return nullptr;
    }
    for (Operation *user : load->getUsers())
      if (!isa<MatmulOp>(user) && !fusedCasts.contains(user)) {
        matmul.emitOpError()
            << "operand " << what
            << " is also used by another operation; load the tile again "
               "for it";
        return nullptr;
      }
    return load;
  };
  // An mma register tile as a whole: the accumulator, or (converted to
  // the operand type, the conversion fused) the left operand.
  bool anyMma = false;
  auto mmaLoad = [&](Value v, bool converted) -> bool {
    if (!mmaTileOf(v))
      return false;
    Value load = v;
    if (auto cast = v.getDefiningOp<CastOp>()) {
      if (!converted || !cast->hasOneUse())
        return false;
      fusedCasts.insert(cast);
      load = cast.getInput();
    } else if (converted) {
      return false;
    }
    fragmentLoads.insert(load.getDefiningOp());
    anyMma = true;
    return true;
  };
  LoadOp a;
  if (!mmaLoad(matmul.getA(), /*converted=*/!tf32)) {
    if (mmaTileOf(matmul.getA()))
      return matmul.emitOpError()
             << "operand a from an mma register tile must be its whole "
                "tile converted to the operand type, used once";
    a = sharedLoad(matmul.getA(), "a");
    if (!a)
      return failure();
    fragmentLoads.insert(a);
    if (!tf32)
      ldmatrixBuffers.insert(a.getSource());
  } else if (transA) {
    return matmul.emitOpError()
           << "operand a from an mma register tile cannot be transposed";
  }
  if (mmaTileOf(matmul.getB()))
    return matmul.emitOpError()
           << "operand b cannot come from an mma register tile (only a and "
              "acc can): stage it in shared memory";
  LoadOp bl = sharedLoad(matmul.getB(), "b");
  if (!bl)
    return failure();
  fragmentLoads.insert(bl);
  if (!tf32)
    ldmatrixBuffers.insert(bl.getSource());
  if (Value acc = matmul.getAcc()) {
    if (!mmaLoad(acc, /*converted=*/false)) {
      LoadOp accLoad = sharedLoad(acc, "acc");
      if (!accLoad)
        return failure();
      fragmentLoads.insert(accLoad);
      accumulatorBuffers.insert(accLoad.getSource());
    }
  }
  // The single use is the store of the whole tile, possibly through a
  // conversion to the destination's element type (folded into the store).
  Operation *user =
      matmul->hasOneUse() ? *matmul->user_begin() : nullptr;
  Value stored = matmul.getResult();
  if (auto conv = dyn_cast_or_null<CastOp>(user)) {
    if (!isa<FloatType>(getElementTypeOrSelf(conv.getType())) ||
        !conv->hasOneUse())
      user = nullptr;
    else {
      fusedCasts.insert(conv);
      stored = conv.getResult();
      user = *conv->user_begin();
    }
  }
  if (!isa_and_nonnull<StoreOp>(user))
    return matmul.emitOpError()
           << "result must have exactly one use, a kda2.store of the whole "
              "tile (the tensor-core path writes it fragment by fragment)";
  auto store = cast<StoreOp>(user);
  if (store.getValue() != stored || store->getBlock() != matmul->getBlock())
    return matmul.emitOpError()
           << "result must be stored next to the matmul, in the same block";
  matmulStores[matmul] = store;
  fusedStores.insert(store);
  auto destAlloc = store.getDest().getDefiningOp<RegAllocOp>();
  if (destAlloc && destAlloc.getMma()) {
    if (!store.getIndices().empty() || stored.getType() !=
                                           Type(matmul.getResult().getType()))
      return matmul.emitOpError()
             << "result stored into an mma register tile must fill the whole "
                "f32 tile";
    anyMma = true;
  } else if (cast<KDA2TensorType>(store.getDest().getType())
                 .getMemorySpace() == MemorySpace::smem) {
    accumulatorBuffers.insert(store.getDest());
  } else if (cast<KDA2TensorType>(store.getDest().getType())
                 .getMemorySpace() == MemorySpace::reg) {
    return matmul.emitOpError()
           << "result stored into a register tile: declare it REG "
              "{layout=mma} (the tensor-core accumulator layout)";
  }
  if (!anyMma) {
    ++plainMatmuls;
    return success();
  }
  // The splits of the mma tiles it reaches (docs/TIRx.md, REG layout=mma):
  // each warp computes the result blocks it holds, from a left operand it
  // holds whole (split rows: its strips; none: all) or, with a split=cols
  // left operand, from its columns only: then the warps' partial sums meet
  // through shared memory.
  auto splitOf = [&](Value v) -> std::optional<MmaSplit> {
    Value tile = mmaTileOf(v);
    if (!tile)
      return std::nullopt;
    return mmaSplitOf(tile.getDefiningOp<RegAllocOp>().getSplit());
  };
  auto name = [](MmaSplit split) {
    return split == MmaSplit::Rows ? "rows"
           : split == MmaSplit::Cols ? "cols"
                                     : "none";
  };
  std::optional<MmaSplit> aSplit = splitOf(matmul.getA()),
                          accSplit = splitOf(matmul.getAcc());
  std::optional<MmaSplit> destSplit;
  if (destAlloc && destAlloc.getMma())
    destSplit = mmaSplitOf(destAlloc.getSplit());
  if (accSplit && destSplit && *accSplit != *destSplit)
    return matmul.emitOpError()
           << "accumulates a split=" << name(*accSplit)
           << " mma tile into a split=" << name(*destSplit)
           << " one: the accumulator and the result must share their split";
  if (!destSplit && ((aSplit && *aSplit != MmaSplit::Rows) ||
                     (accSplit && *accSplit != MmaSplit::Rows)))
    return matmul.emitOpError()
           << "with a split=" << name(aSplit ? *aSplit : *accSplit)
           << " mma tile, the result goes into an mma register tile";
  if (aSplit && *aSplit == MmaSplit::Rows && destSplit &&
      *destSplit != MmaSplit::Rows)
    return matmul.emitOpError()
           << "a split=rows left operand gives each warp its own rows: the "
              "result must be split=rows too, not split="
           << name(*destSplit);
  if (aSplit && *aSplit == MmaSplit::Cols) {
    reducingMatmuls.insert(matmul);
    if (destAlloc && destAlloc.getSplit() == StringRef("gather"))
      mmaGatherOffset[matmul] = 0; // placed with the scratch
  }
  return success();
}

LogicalResult KernelLowering::lowerMatmul(MatmulOp matmul) {
  Location loc = matmul.getLoc();
  // On wgmma, or on mma.sync once the pending wgmma products are done.
  if (std::optional<WgmmaOperands> ops = wgmmaOperandsOf(matmul)) {
    lowerWgmma(matmul, ops->aTile, ops->aLoad, ops->bLoad, ops->accTile,
               ops->destTile);
    return success();
  }
  flushWgmma(loc);
  auto aType = cast<RankedTensorType>(matmul.getA().getType());
  Type elt = aType.getElementType();
  bool bf16 = elt.isBF16();
  bool transA = matmul.getTransposeA();
  int64_t m = aType.getDimSize(transA ? 1 : 0),
          k = aType.getDimSize(transA ? 0 : 1);
  int64_t n = cast<RankedTensorType>(matmul.getResult().getType()).getDimSize(1);
  bool transB = matmul.getTransposeB();
  // Operands in mma register tiles (the block's tile in the accumulator
  // layout): a, the accumulator, the result.
  StoreOp store = matmulStores.lookup(matmul);
  Value aTile = mmaTileOf(matmul.getA()), accTile = mmaTileOf(matmul.getAcc());
  Value destTile = tensors.lookup(store.getDest()).mma ? store.getDest()
                                                        : Value();
  bool fragMode = aTile || accTile || destTile;
  bool tf32 = elt.isF32();
  int64_t kStep = tf32 ? 8 : 16;
  auto aLoad = aTile ? LoadOp() : sharedOperandLoad(matmul.getA());
  auto bLoad = sharedOperandLoad(matmul.getB());
  LoadOp accLoad = matmul.getAcc() && !accTile
                       ? matmul.getAcc().getDefiningOp<LoadOp>()
                       : nullptr;
  auto prefix = [&](LoadOp load) {
    return accessIndices(load.getSource(), load.getIndices());
  };
  Value aMem = aLoad ? tensors[aLoad.getSource()].memref : Value();
  Value bMem = tensors[bLoad.getSource()].memref;
  SmallVector<Value> aPrefix, bPrefix = prefix(bLoad);
  if (aLoad)
    aPrefix = prefix(aLoad);

  auto c = [&](int64_t v) { return constantIndex(v, loc); };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto mul = [&](Value x, int64_t y) -> Value {
    return arith::MulIOp::create(b, loc, x, c(y));
  };
  auto div = [&](Value x, int64_t y) -> Value {
    return arith::DivUIOp::create(b, loc, x, c(y));
  };
  auto rem = [&](Value x, int64_t y) -> Value {
    return arith::RemUIOp::create(b, loc, x, c(y));
  };
  Value warp = div(threadId, 32);
  // `#pragma fold_accumulator`: a split=cols reduction's accumulator (a
  // split=none mma tile, whole in every warp) goes into warp 0's partials
  // before they are stored, not onto the sums after the barrier, so that
  // the products making it run before the barrier.
  bool foldAcc = accTile && tensors[accTile].split == MmaSplit::None &&
                 pragmaCovers(kernel, matmul, PragmaKind::fold_accumulator);
  Value group = div(laneId, 4), quad = rem(laneId, 4);
  Value lane16 = rem(laneId, 16), half = div(laneId, 16);
  Value lane8 = rem(laneId, 8), eighth = rem(div(laneId, 8), 2);

  // Registers of one fragment: i32 words for bf16, f16x2 for f16 (the
  // operand types nvvm.mma.sync takes).
  bool aSwizzled = aLoad && swizzledBuffers.contains(aLoad.getSource());
  bool bSwizzled = swizzledBuffers.contains(bLoad.getSource());
  auto pairToOperand = [&](Value pair) -> Value {
    return bf16 ? Value(LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair))
                : pair;
  };
  auto fragment = [&](Value memref, SmallVector<Value> indices, bool trans,
                      int64_t tiles) {
    // The buffer's own 16-bit type; a tile of the other one (a fused
    // conversion, checkTensorCoreMatmul) is converted pair by pair.
    Type stored = cast<MemRefType>(memref.getType()).getElementType();
    auto type = VectorType::get({tiles, 2}, stored);
    if (memref == aMem ? aSwizzled : bSwizzled) {
      // Each lane's 16-byte row segment, at its swizzled place.
      Value row = indices[indices.size() - 2], col = indices.back();
      indices.pop_back_n(2);
      auto [flat, element] = swizzledElement(memref, indices, row, col, loc);
      memref = flat;
      indices = {element};
    }
    Value v = nvgpu::LdMatrixOp::create(b, loc, type, memref, indices,
                                        b.getBoolAttr(trans),
                                        b.getI32IntegerAttr(tiles));
    SmallVector<Value> regs;
    for (int64_t i = 0; i < tiles; ++i) {
      Value pair = vector::ExtractOp::create(b, loc, v, i);
      if (stored != elt)
        pair = arith::TruncFOp::create(
            b, loc, VectorType::get({2}, elt),
            arith::ExtFOp::create(
                b, loc, VectorType::get({2}, b.getF32Type()), pair));
      regs.push_back(pairToOperand(pair));
    }
    return regs;
  };
  // Slot of an mma tile's element (strip i, column block j, half h, e).
  auto slotValue = [&](Value tile, int64_t i, int64_t j, int64_t h,
                       int64_t e) -> Value {
    TensorInfo &info = tensors[tile];
    return memref::LoadOp::create(
        b, loc, info.memref, ValueRange{c(fragmentSlot(info, i, j, h, e))});
  };
  // This lane's accumulator elements are two pairs: rows group and
  // group + 8, columns 2 * quad and 2 * quad + 1 of the 16x8 fragment.
  auto accPairs = [&](Value row0, Value col0) {
    SmallVector<std::pair<Value, Value>> at;
    for (int64_t h = 0; h < 2; ++h)
      at.push_back({add(row0, add(group, c(8 * h))), add(col0, mul(quad, 2))});
    return at;
  };
  auto pairType = VectorType::get({2}, b.getF32Type());
  Type f32 = b.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, f32));
  NVVM::MMATypes ptxType = tf32   ? NVVM::MMATypes::tf32
                            : bf16 ? NVVM::MMATypes::bf16
                                   : NVVM::MMATypes::f16;

  // The A fragments of one 16-row strip for every k step: ldmatrix from
  // shared memory, or the strip's accumulator registers of an mma tile
  // (columns 16 kk .. 16 kk + 15 are its column blocks 2 kk and 2 kk + 1,
  // exactly the a0..a3 registers of m16n8k16), converted pairwise.
  // The k steps this warp contracts: all of them, or with a split=cols
  // left operand its own columns' (kSteps from kBase).
  int64_t kSteps = k / kStep;
  Value kBase = c(0);
  // TF32 fragments (m16n8k8) take their k indices permuted within each step
  // of 8, the same for a and b: the step's k = 2 quad and 2 quad + 1 stand
  // for the instruction's quad and quad + 4. Then a's registers are the two
  // adjacent columns an accumulator-layout tile holds (an mma register tile
  // is the left operand as it is), and b's two adjacent rows.
  auto toTF32 = [&](Value f) -> Value {
    return NVVM::ConvertFloatToTF32Op::create(
        b, loc, b.getI32Type(), f,
        NVVM::FPRoundingModeAttr::get(b.getContext(),
                                      NVVM::FPRoundingMode::RNA));
  };
  // Element (row, col) of a shared operand tile, in f32 (a 16-bit one
  // widened exactly).
  auto operandElement = [&](LoadOp load, ArrayRef<Value> pre, Value row,
                            Value col) -> Value {
    Value mem = tensors[load.getSource()].memref;
    Value v;
    if (swizzledBuffers.contains(load.getSource())) {
      auto [flat, element] = swizzledElement(mem, pre, row, col, loc);
      v = memref::LoadOp::create(b, loc, flat, ValueRange{element});
    } else {
      SmallVector<Value> idx(pre);
      idx.push_back(row);
      idx.push_back(col);
      v = memref::LoadOp::create(b, loc, mem, idx);
    }
    if (!v.getType().isF32())
      v = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    return v;
  };
  auto stripOperands = [&](Value row0, int64_t strip) {
    SmallVector<SmallVector<Value>> aFrags;
    for (int64_t kk = 0; kk < kSteps; ++kk) {
      if (tf32) { // a0..a3: (group, 2 quad), (group + 8, 2 quad), then + 1
        SmallVector<Value> regs;
        for (int64_t e = 0; e < 2; ++e)
          for (int64_t h = 0; h < 2; ++h) {
            Value v;
            if (aTile) {
              v = slotValue(aTile, strip, kk, h, e);
            } else {
              Value r = add(row0, add(group, c(8 * h)));
              Value col = add(kBase, add(mul(quad, 2), c(kk * 8 + e)));
              v = transA ? operandElement(aLoad, aPrefix, col, r)
                         : operandElement(aLoad, aPrefix, r, col);
            }
            regs.push_back(toTF32(v));
          }
        aFrags.push_back(regs);
        continue;
      }
      if (aTile) {
        SmallVector<Value> regs;
        for (int64_t jb = 0; jb < 2; ++jb)
          for (int64_t h = 0; h < 2; ++h) {
            SmallVector<Value> pair;
            for (int64_t e = 0; e < 2; ++e)
              pair.push_back(arith::TruncFOp::create(
                  b, loc, elt, slotValue(aTile, strip, 2 * kk + jb, h, e)));
            regs.push_back(pairToOperand(vector::FromElementsOp::create(
                b, loc, VectorType::get({2}, elt), pair)));
          }
        aFrags.push_back(regs);
        continue;
      }
      SmallVector<Value> at(aPrefix);
      if (transA) { // a is [k, m]: transposed 8x8 loads, k blocks by lane / 16
        at.push_back(add(add(mul(half, 8), lane8), c(kk * 16)));
        at.push_back(add(row0, mul(eighth, 8)));
      } else {
        at.push_back(add(row0, lane16));
        at.push_back(add(mul(half, 8), c(kk * 16)));
      }
      aFrags.push_back(fragment(aMem, at, /*trans=*/transA, 4));
    }
    return aFrags;
  };

  // One 16 x 8 block of the result: rows row0.., columns col0..; `strip`
  // and `colBlock` name its registers in mma tiles (fragment mode). With
  // `partial`, the block's sum over this warp's k steps alone goes to the
  // split=cols scratch at that index, instead of the destination.
  auto emitBlock = [&](Value row0, Value col0,
                       ArrayRef<SmallVector<Value>> aFrags, int64_t strip,
                       int64_t colBlock, Value partial = Value()) {
    auto at = accPairs(row0, col0);
    SmallVector<Value> acc;
    if (partial) {
      Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
      acc.assign(4, zero);
    } else if (accTile) {
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t e = 0; e < 2; ++e)
          acc.push_back(slotValue(accTile, strip, colBlock, h, e));
    } else if (accLoad) {
      TensorInfo &info = tensors[accLoad.getSource()];
      for (auto [r, col] : at) {
        SmallVector<Value> idx = prefix(accLoad);
        idx.push_back(r);
        idx.push_back(col);
        Value pair = vector::LoadOp::create(b, loc, pairType, info.memref, idx);
        for (int64_t e = 0; e < 2; ++e)
          acc.push_back(vector::ExtractOp::create(b, loc, pair, e));
      }
    } else {
      Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
      acc.assign(4, zero);
    }
    // The B fragments of every k step first, so that their shared-memory
    // latencies overlap instead of each waiting in front of its mma.
    // Two k steps per ldmatrix.x4 (8x8 matrices 0-1: step kk, 2-3: kk + 1;
    // lane l addresses a row of matrix l / 8, whose k offset is 8 (l / 8)).
    SmallVector<SmallVector<Value>> bFrags;
    for (int64_t kk = 0; tf32 && kk < kSteps; ++kk) {
      // b0, b1: rows 2 quad and 2 quad + 1 of the step, column group.
      SmallVector<Value> regs;
      for (int64_t e = 0; e < 2; ++e) {
        Value kr = add(kBase, add(mul(quad, 2), c(kk * 8 + e)));
        Value col = add(col0, group);
        regs.push_back(toTF32(transB ? operandElement(bLoad, bPrefix, col, kr)
                                     : operandElement(bLoad, bPrefix, kr, col)));
      }
      bFrags.push_back(regs);
    }
    for (int64_t kk = 0; !tf32 && kk < kSteps; kk += 2) {
      int64_t tiles = kk + 1 < kSteps ? 4 : 2;
      Value kLane = tiles == 4 ? mul(div(laneId, 8), 8) : mul(eighth, 8);
      Value k0 = add(kBase, c(kk * 16));
      SmallVector<Value> idx(bPrefix);
      if (transB) { // b is [n, k]: rows of k, the plain ldmatrix
        idx.push_back(add(col0, lane8));
        idx.push_back(add(kLane, k0));
      } else { // b is [k, n]: transposed 8x8 loads
        idx.push_back(add(add(kLane, lane8), k0));
        idx.push_back(col0);
      }
      SmallVector<Value> regs = fragment(bMem, idx, /*trans=*/!transB, tiles);
      bFrags.push_back({regs[0], regs[1]});
      if (tiles == 4)
        bFrags.push_back({regs[2], regs[3]});
    }
    // Long k: two independent accumulator chains (even and odd k steps),
    // summed at the end, halve the chain of dependent mma latencies.
    int64_t chains = kSteps >= kSplitAccumulatorSteps ? 2 : 1;
    SmallVector<SmallVector<Value>> accs(chains, acc);
    if (chains > 1) {
      Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
      accs[1].assign(4, zero);
    }
    for (int64_t kk = 0; kk < kSteps; ++kk) {
      SmallVector<Value> &chain = accs[kk % chains];
      Value d = NVVM::MmaOp::create(
          b, loc, resultType, aFrags[kk], bFrags[kk], chain, {16, 8, kStep},
          std::nullopt, std::nullopt,
          std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
      for (int64_t i = 0; i < 4; ++i)
        chain[i] = LLVM::ExtractValueOp::create(b, loc, d, i);
    }
    acc = accs[0];
    for (int64_t i = 0; chains > 1 && i < 4; ++i)
      acc[i] = arith::AddFOp::create(b, loc, acc[i], accs[1][i]);

    if (partial) { // this lane's four partial sums, one 16-byte store
      if (foldAcc) {
        Value first = isWarp(warp, 0, loc);
        Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
        for (int64_t i = 0; i < 4; ++i)
          acc[i] = arith::AddFOp::create(
              b, loc, acc[i],
              arith::SelectOp::create(
                  b, loc, first,
                  slotValue(accTile, strip, colBlock, i / 2, i % 2), zero));
      }
      Value v = vector::FromElementsOp::create(
          b, loc, VectorType::get({4}, f32), acc);
      ownPartials[matmul].push_back(v);
      pendingPartials.push_back({v, partial});
      return;
    }
    if (destTile) { // into this thread's registers of the mma tile
      TensorInfo &dest = tensors[destTile];
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t e = 0; e < 2; ++e)
          memref::StoreOp::create(
              b, loc, acc[2 * h + e], dest.memref,
              ValueRange{c(fragmentSlot(dest, strip, colBlock, h, e))});
      return;
    }
    // Store the fragment to the destination (converted to its element type).
    TensorInfo &dest = tensors[store.getDest()];
    Type destElt = signless(dest.type.getElementType());
    SmallVector<Value> destPrefix =
        accessIndices(store.getDest(), store.getIndices());
    for (auto [h, rc] : llvm::enumerate(at)) {
      SmallVector<Value> values = {acc[2 * h], acc[2 * h + 1]};
      if (destElt != f32)
        for (Value &v : values)
          v = arith::TruncFOp::create(b, loc, destElt, v);
      SmallVector<Value> idx(destPrefix);
      idx.push_back(rc.first);
      idx.push_back(rc.second);
      if (dest.kind == TensorInfo::Kind::Shared) {
        Value pair = vector::FromElementsOp::create(
            b, loc, VectorType::get({2}, destElt), values);
        vector::StoreOp::create(b, loc, pair, dest.memref, idx);
        continue;
      }
      // Global memory: the two adjacent columns (the first even) in one
      // store where the rows keep pairs aligned, else element by element.
      unsigned rank = dest.type.getRank();
      unsigned pairAlign = globalAlignment(dest, rank - 1, 2);
      if (dest.kind == TensorInfo::Kind::Global &&
          dest.staticStrides[rank - 1] == 1 &&
          pairAlign >= 2 * elementBytes(destElt)) {
        Value pair = vector::FromElementsOp::create(
            b, loc, VectorType::get({2}, destElt), values);
        LLVM::StoreOp::create(b, loc, pair, elementPointer(dest, idx, loc),
                              2 * elementBytes(destElt));
        continue;
      }
      for (int64_t e = 0; e < 2; ++e) {
        SmallVector<Value> element(idx);
        element.back() = add(rc.second, c(e));
        storeElement(dest, element, values[e], loc);
      }
    }
  };

  int64_t warps = blockX / 32, stripCount = m / 16, colBlocks = n / 8;
  if (fragMode && aTile && tensors[aTile].split == MmaSplit::Cols &&
      warps > 1) {
    // The left operand's columns, the contraction, are split over the
    // warps: each computes every block of the result over its own k steps
    // into the scratch (warp w's partial [m, n] at w m n, 16 x 8 block
    // (i, j) at 128 (i n / 8 + j), four floats per lane), then, after a
    // barrier, sums the W partials of the blocks it holds of the result.
    if (k % (kStep * warps) != 0)
      return matmul.emitOpError()
             << "contracts over the " << k
             << " columns of a split=cols mma tile: the block's " << warps
             << " warps need " << kStep << " of them each (a multiple of "
             << kStep * warps << ")";
    if (reducePhase == 0) {
      // One reduction: this product (and the next, sharing it) into the
      // half of the scratch the last reduction did not use.
      if (mergedSecond.contains(matmul))
        return success(); // lowered with the product before it
      Operation *partner = mergedPartner.lookup(matmul);
      Value toggle =
          memref::LoadOp::create(b, loc, mmaToggle, ValueRange{c(0)});
      memref::StoreOp::create(b, loc, arith::SubIOp::create(b, loc, c(1), toggle),
                              mmaToggle, ValueRange{c(0)});
      mmaEventBase = mul(toggle, mmaScratchHalf);
      // Phase 3, after a second barrier: the split=none results, which
      // phase 2 summed block by block into the gather area, loaded whole.
      bool gathers = mmaGatherOffset.count(matmul) ||
                     (partner && mmaGatherOffset.count(partner));
      for (int phase : {1, 2, 3}) {
        if (phase == 3 && !gathers)
          break;
        reducePhase = phase;
        for (Operation *op : {matmul.getOperation(), partner})
          if (op && failed(lowerMatmul(cast<MatmulOp>(op)))) {
            reducePhase = 0;
            return failure();
          }
        if (phase == 1)
          storePendingPartials(loc);
        if (phase == 1 || (phase == 2 && gathers))
          emitBarrier(loc);
      }
      reducePhase = 0;
      return success();
    }
    kSteps = k / kStep / warps;
    kBase = mul(warp, kSteps * kStep);
    Value base = add(mmaEventBase, c(mmaScratchOffset.lookup(matmul)));
    Value lane4 = mul(laneId, 4);
    TensorInfo &dest = tensors[destTile];
    if (reducePhase == 1) {
      Value mine = add(add(mul(warp, m * n), lane4), base);
      ownPartials[matmul].clear();
      for (int64_t i = 0; i < stripCount; ++i) {
        SmallVector<SmallVector<Value>> aFrags = stripOperands(c(16 * i), i);
        for (int64_t j = 0; j < colBlocks; ++j) {
          emitBlock(c(16 * i), c(8 * j), aFrags, i, j,
                    add(mine, c(16 * i * n + 128 * j)));
        }
      }
      return success();
    }
    // (Folded into warp 0's partials in phase 1: not added again.)
    TensorInfo *accInfo = accTile && !foldAcc ? &tensors[accTile] : nullptr;
    auto vec4 = VectorType::get({4}, f32);
    // `sum` plus the other warps' partials of the block at `at` (w + 1,
    // w + 2, ... mod W: each warp starts at another's).
    auto addOtherPartials = [&](Value sum, Value at) {
      for (int64_t d = 1; d < warps; ++d) {
        Value other = rem(add(warp, c(d)), warps);
        Value part = vector::LoadOp::create(
            b, loc, vec4, mmaScratch, ValueRange{add(at, mul(other, m * n))},
            /*nontemporal=*/false, llvm::MaybeAlign(16));
        sum = arith::AddFOp::create(b, loc, sum, part);
      }
      return sum;
    };
    if (auto gather = mmaGatherOffset.find(matmul);
        gather != mmaGatherOffset.end()) {
      // A split=none result: block b = i n / 8 + j at gather + 128 b, four
      // floats per lane, summed by warp b mod W (phase 2), loaded by every
      // warp (phase 3).
      Value gatherBase = add(lane4, c(2 * mmaScratchHalf + gather->second));
      if (reducePhase == 3) {
        for (int64_t i = 0; i < stripCount; ++i)
          for (int64_t j = 0; j < colBlocks; ++j) {
            Value sum = vector::LoadOp::create(
                b, loc, vec4, mmaScratch,
                ValueRange{add(gatherBase, c(128 * (i * colBlocks + j)))},
                /*nontemporal=*/false, llvm::MaybeAlign(16));
            for (int64_t h = 0; h < 2; ++h)
              for (int64_t e = 0; e < 2; ++e)
                memref::StoreOp::create(
                    b, loc, vector::ExtractOp::create(b, loc, sum, 2 * h + e),
                    dest.memref, ValueRange{c(fragmentSlot(dest, i, j, h, e))});
          }
        return success();
      }
      SmallVector<Value> own = ownPartials.lookup(matmul);
      ownPartials.erase(matmul);
      for (int64_t i = 0; i < stripCount; ++i)
        for (int64_t j = 0; j < colBlocks; ++j) {
          int64_t block = i * colBlocks + j;
          Value owner = isWarp(warp, block % warps, loc);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(
              scf::IfOp::create(b, loc, TypeRange(), owner, false).thenBlock());
          Value at = add(add(c(16 * i * n + 128 * j), lane4), base);
          Value sum = addOtherPartials(own[block], at);
          if (accInfo) {
            SmallVector<Value> acc;
            for (int64_t h = 0; h < 2; ++h)
              for (int64_t e = 0; e < 2; ++e)
                acc.push_back(slotValue(accTile, i, j, h, e));
            sum = arith::AddFOp::create(
                b, loc, sum, vector::FromElementsOp::create(b, loc, vec4, acc));
          }
          vector::StoreOp::create(b, loc, sum, mmaScratch,
                                  ValueRange{add(gatherBase, c(128 * block))},
                                  /*nontemporal=*/false, llvm::MaybeAlign(16));
        }
      return success();
    }
    if (reducePhase == 3)
      return success();
    SmallVector<Value> own = ownPartials.lookup(matmul);
    ownPartials.erase(matmul);
    for (int64_t i = 0; i < localStrips(dest); ++i)
      for (int64_t j = 0; j < localColBlocks(dest); ++j) {
        auto [row0, col0] = blockOrigin(dest, i, j, loc);
        Value at = add(add(mul(row0, n), mul(col0, 16)), add(lane4, base));
        // This warp's own partial of the block (from registers: the
        // block's place among the result's blocks may depend on the warp),
        // then the other warps', w + 1, w + 2, ... mod W.
        Value sum;
        if (dest.split == MmaSplit::None) {
          sum = own[i * colBlocks + j];
        } else {
          for (int64_t w = 0; w < warps; ++w) {
            int64_t gi = dest.split == MmaSplit::Rows ? w + i * warps : i;
            int64_t gj = dest.split == MmaSplit::Cols
                             ? w * (colBlocks / warps) + j
                             : j;
            Value mineBlock = own[gi * colBlocks + gj];
            sum = sum ? Value(arith::SelectOp::create(
                            b, loc,
                            arith::CmpIOp::create(b, loc,
                                                  arith::CmpIPredicate::eq,
                                                  warp, c(w)),
                            mineBlock, sum))
                      : mineBlock;
          }
        }
        sum = addOtherPartials(sum, at);
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t e = 0; e < 2; ++e) {
            Value v = vector::ExtractOp::create(b, loc, sum, 2 * h + e);
            if (accInfo)
              v = arith::AddFOp::create(b, loc, v,
                                        slotValue(accTile, i, j, h, e));
            memref::StoreOp::create(
                b, loc, v, dest.memref,
                ValueRange{c(fragmentSlot(dest, i, j, h, e))});
          }
      }
    return success();
  }
  if (fragMode) {
    // Each warp computes the blocks of the result it holds (the result's
    // split; rows for a result in memory), from a left operand it holds
    // whole or reads from shared memory: unrolled here, so that every
    // register is a fixed slot.
    TensorInfo result;
    result.rows = m;
    result.cols = n;
    result.split = destTile ? tensors[destTile].split : MmaSplit::Rows;
    if (aTile && tensors[aTile].split == MmaSplit::None &&
        result.split == MmaSplit::Rows && warps > 1)
      return matmul.emitOpError()
             << "a split=none left operand gives every warp all of its rows: "
                "the result must be split=cols or none, not split=rows";
    // (A split=cols or none result is an mma tile, whose own split was
    // checked where it is declared.)
    if (result.split == MmaSplit::Rows && stripCount % warps != 0)
      return matmul.emitOpError()
             << "with mma register tiles, the " << stripCount
             << " 16-row strips of the product must split evenly over the "
                "block's "
             << warps << " warps";
    for (int64_t i = 0; i < localStrips(result); ++i) {
      Value row0 = blockOrigin(result, i, 0, loc).first;
      SmallVector<SmallVector<Value>> aFrags = stripOperands(row0, i);
      for (int64_t j = 0; j < localColBlocks(result); ++j)
        emitBlock(row0, blockOrigin(result, i, j, loc).second, aFrags, i, j);
    }
    return success();
  }

  // The result is cut into 16-row strips, and each strip into `groups`
  // column groups when there are fewer strips than warps (a 16-row product
  // then still uses every warp). Warp w computes the units w, w + W, ...;
  // it keeps the unit's A fragments for every k step and walks its n
  // columns eight at a time.
  int64_t groups = 1;
  for (int64_t gsz = std::min(colBlocks, warps / std::max<int64_t>(stripCount, 1));
       gsz > 1; --gsz)
    if (colBlocks % gsz == 0) {
      groups = gsz;
      break;
    }
  auto strips =
      scf::ForOp::create(b, loc, warp, c(stripCount * groups), c(warps));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(strips.getBody()->getTerminator());
  Value unit = strips.getInductionVar();
  Value row0 = mul(groups > 1 ? div(unit, groups) : unit, 16);
  Value firstCol = groups > 1 ? mul(rem(unit, groups), colBlocks / groups)
                              : c(0);
  SmallVector<SmallVector<Value>> aFrags = stripOperands(row0, -1);
  auto cols = scf::ForOp::create(b, loc, firstCol,
                                 add(firstCol, c(colBlocks / groups)), c(1));
  b.setInsertionPoint(cols.getBody()->getTerminator());
  emitBlock(row0, mul(cols.getInductionVar(), 8), aFrags, -1, -1);
  b.setInsertionPointAfter(strips);
  return success();
}

//===----------------------------------------------------------------------===//
// wgmma (sm_90a)
//===----------------------------------------------------------------------===//

/// wgmma's accumulator and register A fragments are the mma tiles' own
/// layout: warp w of a warpgroup holds rows 16 w .. 16 w + 15 of the
/// group's 64, and for each 8-column block j the registers 4 j .. 4 j + 3
/// are (group, 2 quad + e) and (group + 8, 2 quad + e), exactly an mma
/// tile's slots (j, h, e) of its one strip; A's four registers per k step
/// are m16n8k16's. So a product whose result is a split=rows mma tile with
/// one strip per warp, over whole warpgroups, runs as m64nNk16 with A from
/// the same registers, and the B operand (and a shared A) read by the
/// tensor cores from shared memory through a matrix descriptor: the
/// operand's buffer must be one whose TMA boxes are swizzled (its rows
/// span the swizzle's 32, 64 or 128 bytes, the canonical layouts of
/// wgmma's swizzle modes), written by TMA only (the async proxy that wgmma
/// reads through).
bool KernelLowering::wgmmaApplies(MatmulOp matmul, Value aTile, LoadOp aLoad,
                                  LoadOp bLoad, Value accTile,
                                  Value destTile) {
  // The option, or `#pragma wgmma` on the kernel or a loop around the
  // product.
  bool requested =
      useWgmma ||
      (wgmmaChip && pragmaCovers(kernel, matmul, PragmaKind::wgmma));
  if (!requested || !destTile || (!aTile && !aLoad) || !bLoad)
    return false;
  auto aType = cast<RankedTensorType>(matmul.getA().getType());
  Type elt = aType.getElementType();
  if (!elt.isBF16() && !elt.isF16())
    return false; // TF32 (K-major only, k steps of 8): mma.sync
  // An operand converted between the 16-bit types on its way from shared
  // memory: wgmma reads shared operands as they are, so mma.sync (its
  // fragments converted in registers).
  for (Value operand : {matmul.getA(), matmul.getB()})
    if (auto conv = operand.getDefiningOp<CastOp>();
        conv && fusedCasts.contains(conv) && !mmaTileOf(operand))
      return false;
  int64_t warps = blockX / 32;
  const TensorInfo &dest = tensors[destTile];
  if (warps % 4 || dest.split != MmaSplit::Rows || dest.rows != 16 * warps ||
      dest.cols % 8 || dest.cols > 256)
    return false;
  if (accTile && accTile != destTile) {
    const TensorInfo &acc = tensors[accTile];
    if (acc.split != MmaSplit::Rows || acc.rows != dest.rows ||
        acc.cols != dest.cols)
      return false;
  }
  if (matmul.getAcc() && !accTile)
    return false; // an accumulator in memory: mma.sync
  if (aTile) {
    const TensorInfo &a = tensors[aTile];
    if (a.split != MmaSplit::Rows || a.rows != dest.rows)
      return false;
  } else if (!swizzledBuffers.contains(aLoad.getSource())) {
    return false;
  }
  return swizzledBuffers.contains(bLoad.getSource());
}

/// The swizzled tile a shared operand's buffer holds (its memref is
/// [stages..., boxes, rows, per-row]).
static SwizzledTile swizzledTileOf(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t rank = type.getRank();
  return {type.getShape()[rank - 2], type.getShape()[rank - 1],
          elementBytes(type.getElementType())};
}

Value KernelLowering::wgmmaDescriptor(LoadOp load, bool kMajor, Value offset,
                                      Location loc) {
  Value memref = tensors[load.getSource()].memref;
  auto type = cast<MemRefType>(memref.getType());
  SwizzledTile tile = swizzledTileOf(memref);
  // The tile's stage: the prefix of the buffer's indices.
  Value bytes = stageBytes(
      type, accessIndices(load.getSource(), load.getIndices()), offset, loc);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = arith::IndexCastOp::create(
      b, loc, b.getI64Type(), arith::AddIOp::create(b, loc, base, bytes));
  // The fixed fields (base offset 0: the buffer is 1024-byte aligned and
  // its stages, boxes and 8-row groups keep the swizzle's pattern), then
  // the address's bits 4-17.
  uint64_t fixed =
      encodeWgmmaDescriptor(0, wgmmaDescriptorFields(tile, kMajor));
  Value field = arith::ShRUIOp::create(
      b, loc,
      arith::AndIOp::create(b, loc, address, constantI64(0x3FFFF, loc)),
      constantI64(4, loc));
  return arith::OrIOp::create(b, loc, field,
                              constantI64(static_cast<int64_t>(fixed), loc));
}

void KernelLowering::lowerWgmma(MatmulOp matmul, Value aTile, LoadOp aLoad,
                                LoadOp bLoad, Value accTile, Value destTile) {
  Location loc = matmul.getLoc();
  MLIRContext *ctx = b.getContext();
  auto aType = cast<RankedTensorType>(matmul.getA().getType());
  Type elt = aType.getElementType();
  bool transA = matmul.getTransposeA(), transB = matmul.getTransposeB();
  int64_t k = aType.getDimSize(transA ? 0 : 1);
  TensorInfo &dest = tensors[destTile];
  int64_t n = dest.cols, kSteps = k / 16, accRegs = n / 2;
  auto c = [&](int64_t v) { return constantIndex(v, loc); };

  // Products issued before this one stay in flight (no wait between
  // them) unless this one reads a pending result (as its left operand, or
  // as the accumulator of another tile), or writes a pending tile it does
  // not accumulate into. Accumulating into a pending tile chains on its
  // in-flight values (wgmma may take another wgmma's accumulator of the
  // same shape without a wait).
  auto pendingOf = [&](Value tile) {
    return llvm::find_if(pendingWgmma,
                         [&](const PendingWgmma &p) { return p.tile == tile; });
  };
  auto isPending = [&](Value tile) {
    return tile && pendingOf(tile) != pendingWgmma.end();
  };
  bool hazard = isPending(aTile) ||
                (accTile != destTile && (isPending(destTile) || isPending(accTile)));
  if (hazard)
    flushWgmma(loc);
  bool batchStart = pendingWgmma.empty();
  // This thread's accumulators (slots j, h, e of its strip, in wgmma's
  // register order), or zeros with the first step's scale-d off.
  SmallVector<Value> acc;
  bool chained = false;
  if (auto it = pendingOf(destTile); accTile && it != pendingWgmma.end()) {
    acc = std::move(it->acc);
    pendingWgmma.erase(it);
    chained = true;
  }
  for (int64_t slot = 0; !chained && slot < accRegs; ++slot)
    acc.push_back(accTile ? Value(memref::LoadOp::create(
                                b, loc, tensors[accTile].memref,
                                ValueRange{c(slot)}))
                          : Value(arith::ConstantOp::create(
                                b, loc, b.getF32FloatAttr(0))));

  auto stepOffset = [&](LoadOp load, bool kMajor, int64_t kk) {
    return wgmmaStepOffset(swizzledTileOf(tensors[load.getSource()].memref),
                           kMajor, kk);
  };
  // A shared A's warpgroup g reads rows 64 g ... of the product.
  Value aGroupOffset;
  if (aLoad)
    aGroupOffset = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, threadId, c(128)),
        c(wgmmaRowGroupOffset(swizzledTileOf(tensors[aLoad.getSource()].memref),
                              /*kMajor=*/!transA, 1)));

  // The register operands: this product's and, at a batch's start, those
  // of the products that will join it, converted here once each and tied
  // through this fence; later products of the batch take them as they are.
  SmallVector<std::pair<Value, Type>> fresh;
  if (batchStart) {
    batchARegs.clear();
    for (auto [tile, type, steps] : batchOperands(matmul, destTile))
      if (batchARegs.try_emplace({tile, type}).second) {
        batchARegs[{tile, type}] = wgmmaARegs(tile, type, steps, loc);
        fresh.push_back({tile, type});
      }
  }
  if (aTile && !batchARegs.count({aTile, elt})) {
    batchARegs[{aTile, elt}] = wgmmaARegs(aTile, elt, kSteps, loc);
    fresh.push_back({aTile, elt});
  }

  auto regList = [](int64_t first, int64_t count) {
    SmallVector<std::string> names;
    for (int64_t i = 0; i < count; ++i)
      names.push_back("$" + std::to_string(first + i));
    return "{" + llvm::join(names, ", ") + "}";
  };

  // wgmma.fence: after the last writes of the accumulators and A's
  // registers, before the first wgmma that reads them (accumulators in
  // flight are not tied through it: only wgmma may touch them).
  {
    SmallVector<Value> tied;
    if (!chained)
      tied.append(acc);
    for (auto &key : fresh)
      tied.append(batchARegs[key]);
    auto [op, out] = tiedAsm("wgmma.fence.sync.aligned;", tied, {}, "", loc);
    auto next = out.begin();
    if (!chained)
      for (Value &v : acc)
        v = *next++;
    for (auto &key : fresh)
      for (Value &v : batchARegs[key])
        v = *next++;
  }
  SmallVector<Value> aRegs;
  if (aTile)
    aRegs = batchARegs[{aTile, elt}];
  StringRef ty = elt.isBF16() ? "bf16" : "f16";
  for (int64_t kk = 0; kk < kSteps; ++kk) {
    Value bDesc = wgmmaDescriptor(
        bLoad, /*kMajor=*/transB, c(stepOffset(bLoad, transB, kk)), loc);
    Value scaleD = arith::ConstantOp::create(
        b, loc, b.getBoolAttr(accTile != nullptr || kk > 0));
    std::string text;
    SmallVector<Value> inputs;
    std::string inputCons;
    int64_t next = 2 * accRegs;
    if (aTile) {
      inputs.append(aRegs.begin() + 4 * kk, aRegs.begin() + 4 * kk + 4);
      inputs.push_back(bDesc);
      inputs.push_back(scaleD);
      inputCons = "r,r,r,r,l,b";
      text = llvm::formatv("wgmma.mma_async.sync.aligned.m64n{0}k16.f32.{1}.{1} "
                           "{2}, {3}, ${4}, ${5}, 1, 1, {6};",
                           n, ty, regList(0, accRegs), regList(next, 4),
                           next + 4, next + 5, transB ? 0 : 1)
                 .str();
    } else {
      Value aDesc = wgmmaDescriptor(
          aLoad, /*kMajor=*/!transA,
          arith::AddIOp::create(b, loc, aGroupOffset,
                                c(stepOffset(aLoad, !transA, kk))),
          loc);
      inputs = {aDesc, bDesc, scaleD};
      inputCons = "l,l,b";
      text = llvm::formatv("wgmma.mma_async.sync.aligned.m64n{0}k16.f32.{1}.{1} "
                           "{2}, ${3}, ${4}, ${5}, 1, 1, {6}, {7};",
                           n, ty, regList(0, accRegs), next, next + 1,
                           next + 2, transA ? 1 : 0, transB ? 0 : 1)
                 .str();
    }
    auto [op, out] = tiedAsm(text, acc, inputs, inputCons, loc);
    // The simulator counts it as the warpgroup's tensor-core work.
    op->setAttr("kda2_wgmma", NVVM::MMAShapeAttr::get(ctx, 64, n, 16));
    acc = out;
  }
  // In flight until the next op that needs it (flushWgmma).
  pendingWgmma.push_back({destTile, std::move(acc)});
}

SmallVector<Value> KernelLowering::wgmmaARegs(Value aTile, Type elt,
                                              int64_t kSteps, Location loc) {
  TensorInfo &a = tensors[aTile];
  SmallVector<Value> regs;
  for (int64_t kk = 0; kk < kSteps; ++kk)
    for (int64_t jb = 0; jb < 2; ++jb)
      for (int64_t h = 0; h < 2; ++h) {
        SmallVector<Value> pair;
        for (int64_t e = 0; e < 2; ++e)
          pair.push_back(arith::TruncFOp::create(
              b, loc, elt,
              memref::LoadOp::create(
                  b, loc, a.memref,
                  ValueRange{constantIndex(
                      fragmentSlot(a, 0, 2 * kk + jb, h, e), loc)})));
        regs.push_back(LLVM::BitcastOp::create(
            b, loc, b.getI32Type(),
            vector::FromElementsOp::create(
                b, loc, VectorType::get({2}, elt), pair)));
      }
  return regs;
}

std::optional<KernelLowering::WgmmaOperands>
KernelLowering::wgmmaOperandsOf(MatmulOp matmul) {
  StoreOp store = matmulStores.lookup(matmul);
  if (!store)
    return std::nullopt;
  WgmmaOperands ops;
  ops.aTile = mmaTileOf(matmul.getA());
  ops.accTile = mmaTileOf(matmul.getAcc());
  ops.destTile = tensors.lookup(store.getDest()).mma ? store.getDest() : Value();
  if (!ops.aTile)
    ops.aLoad = sharedOperandLoad(matmul.getA());
  ops.bLoad = sharedOperandLoad(matmul.getB());
  if (!wgmmaApplies(matmul, ops.aTile, ops.aLoad, ops.bLoad, ops.accTile,
                    ops.destTile))
    return std::nullopt;
  return ops;
}

SmallVector<std::tuple<Value, Type, int64_t>>
KernelLowering::batchOperands(MatmulOp first, Value firstDest) {
  // The products that follow with nothing but their own operand loads,
  // conversions and result stores (or scalar arithmetic) in between, as
  // long as none reads a result of the batch or overwrites one it does not
  // accumulate into (lowerWgmma's own conditions for staying in flight).
  SmallVector<std::tuple<Value, Type, int64_t>> operands;
  DenseSet<Value> dests = {firstDest};
  for (Operation *op = first->getNextNode(); op; op = op->getNextNode()) {
    auto matmul = dyn_cast<MatmulOp>(op);
    if (!matmul) {
      if (isWgmmaNeutral(op))
        continue;
      break;
    }
    std::optional<WgmmaOperands> ops = wgmmaOperandsOf(matmul);
    if (!ops || (ops->aTile && dests.contains(ops->aTile)) ||
        (ops->accTile != ops->destTile &&
         (dests.contains(ops->destTile) ||
          (ops->accTile && dests.contains(ops->accTile)))))
      break;
    if (ops->aTile) {
      auto aType = cast<RankedTensorType>(matmul.getA().getType());
      operands.push_back({ops->aTile, aType.getElementType(),
                          aType.getDimSize(matmul.getTransposeA() ? 0 : 1) /
                              16});
    }
    dests.insert(ops->destTile);
  }
  return operands;
}

std::pair<LLVM::InlineAsmOp, SmallVector<Value>>
KernelLowering::tiedAsm(StringRef text, ArrayRef<Value> tied,
                        ArrayRef<Value> inputs, StringRef inputConstraints,
                        Location loc) {
  MLIRContext *ctx = b.getContext();
  SmallVector<std::string> cons;
  for (Value v : tied)
    cons.push_back(v.getType().isF32() ? "=f" : "=r");
  for (size_t i = 0; i < tied.size(); ++i)
    cons.push_back(std::to_string(i));
  std::string constraints = llvm::join(cons, ",");
  if (!inputConstraints.empty())
    constraints += (constraints.empty() ? "" : ",") + inputConstraints.str();
  SmallVector<Value> operands(tied);
  operands.append(inputs.begin(), inputs.end());
  SmallVector<Type> types;
  for (Value v : tied)
    types.push_back(v.getType());
  TypeRange results;
  Type resultType;
  if (!tied.empty()) {
    resultType = LLVM::LLVMStructType::getLiteral(ctx, types);
    results = resultType;
  }
  auto op = LLVM::InlineAsmOp::create(
      b, loc, results, operands, text, constraints, /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT), ArrayAttr());
  SmallVector<Value> out;
  for (size_t i = 0; i < tied.size(); ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, op.getResult(0), i));
  return {op, out};
}

void KernelLowering::flushWgmma(Location loc) {
  batchARegs.clear(); // the batch's operand registers may change after it
  if (pendingWgmma.empty())
    return;
  // One commit and wait for every pending product; the accumulators pass
  // through it, so each read of them follows the wait.
  SmallVector<Value> all;
  for (PendingWgmma &p : pendingWgmma)
    all.append(p.acc);
  SmallVector<Value> waited =
      tiedAsm("wgmma.commit_group.sync.aligned;\n\t"
              "wgmma.wait_group.sync.aligned 0;",
              all, {}, "", loc)
          .second;
  auto next = waited.begin();
  for (PendingWgmma &p : pendingWgmma) {
    TensorInfo &dest = tensors[p.tile];
    for (size_t slot = 0; slot < p.acc.size(); ++slot)
      memref::StoreOp::create(b, loc, *next++, dest.memref,
                              ValueRange{constantIndex(slot, loc)});
  }
  pendingWgmma.clear();
}

bool KernelLowering::isWgmmaNeutral(Operation *op) {
  if (fragmentLoads.contains(op) || fusedStores.contains(op) ||
      fusedCasts.contains(op))
    return true;
  return op->getNumRegions() == 0 && isPure(op) &&
         llvm::none_of(op->getResultTypes(),
                       [](Type t) { return isa<ShapedType>(t); });
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Value KernelLowering::broadcastTo(Value v, Type type, Location loc) {
  if (type && isa<VectorType>(type) && !isa<VectorType>(v.getType()))
    return vector::BroadcastOp::create(b, loc, type, v);
  return v;
}

/// exp(x). With fast math, 2^(x·log2 e) (fastExp2) instead of the
/// range-reduced expf sequence (~10 instructions); the relative error stays
/// ~2 ulp over the range KDA's gates and softmax use.
Value KernelLowering::fastExp(Value x, Location loc) {
  if (!fastMath)
    return math::ExpOp::create(b, loc, x);
  return fastExp2(arith::MulFOp::create(
                      b, loc, x, splat(1.4426950408889634, x.getType(), loc),
                      fmf()),
                  loc);
}

/// 2^x. With fast math on f32 (scalars and rank-1 vectors, element by
/// element), one `ex2.approx.ftz.f32` (a single MUFU instruction): the
/// lowering calls the intrinsic itself, because libdevice's exp2 is
/// `ex2.approx.f32`, whose SASS adds three instructions around the MUFU to
/// produce subnormal results (below 2^-126, which a decay or a softmax
/// weight may as well flush to zero).
Value KernelLowering::fastExp2(Value x, Location loc) {
  auto ex2 = [&](Value v) -> Value {
    return LLVM::CallIntrinsicOp::create(
               b, loc, v.getType(),
               b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"), ValueRange{v})
        .getResult(0);
  };
  Type type = x.getType();
  if (fastMath && type.isF32())
    return ex2(x);
  auto vector = dyn_cast<VectorType>(type);
  if (fastMath && vector && vector.getRank() == 1 && !vector.isScalable() &&
      vector.getElementType().isF32()) {
    Value result = x;
    for (int64_t i = 0; i < vector.getNumElements(); ++i) {
      Value e = vector::ExtractOp::create(b, loc, x, i);
      result = vector::InsertOp::create(b, loc, ex2(e), result, i);
    }
    return result;
  }
  return fastMath ? math::Exp2Op::create(b, loc, x, arith::FastMathFlags::fast)
                  : math::Exp2Op::create(b, loc, x);
}

/// A float constant of `type` (a scalar or a vector splat).
Value KernelLowering::splat(double value, Type type, Location loc) {
  Type element = getElementTypeOrSelf(type);
  auto scalar = FloatAttr::get(element, value);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(vector, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

Value KernelLowering::combine(ReduceKind kind, Value lhs, Value rhs,
                              Location loc) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(lhs.getType()));
  switch (kind) {
  case ReduceKind::sum:
    return isFloat ? Value(arith::AddFOp::create(b, loc, lhs, rhs, fmf()))
                   : Value(arith::AddIOp::create(b, loc, lhs, rhs));
  case ReduceKind::max:
    return isFloat ? Value(arith::MaximumFOp::create(b, loc, lhs, rhs, fmf()))
                   : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
  case ReduceKind::min:
    return isFloat ? Value(arith::MinimumFOp::create(b, loc, lhs, rhs, fmf()))
                   : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
  }
  return lhs;
}

/// The vector.reduction kind of a kda2 reduction.
static vector::CombiningKind combiningKind(ReduceKind kind, bool isFloat) {
  switch (kind) {
  case ReduceKind::sum:
    return vector::CombiningKind::ADD;
  case ReduceKind::max:
    return isFloat ? vector::CombiningKind::MAXIMUMF
                   : vector::CombiningKind::MAXSI;
  case ReduceKind::min:
    return isFloat ? vector::CombiningKind::MINIMUMF
                   : vector::CombiningKind::MINSI;
  }
  return vector::CombiningKind::ADD;
}

/// The partials of the reduction being lowered into the scratch, every
/// block's by every warp. The warp that holds a block of the result keeps
/// its own partial of it in registers and nobody reads the copy in its
/// scratch region: storing it anyway costs one 16-byte shared store and
/// spares a branch on the warp index per block (which ptxas kept, with its
/// reconvergence, between the stores).
void KernelLowering::storePendingPartials(Location loc) {
  for (const PartialStore &p : pendingPartials)
    vector::StoreOp::create(b, loc, p.value, mmaScratch, ValueRange{p.index},
                            /*nontemporal=*/false, llvm::MaybeAlign(16));
  pendingPartials.clear();
}

/// Butterfly reduction across the 32 lanes of a warp with shfl.sync.bfly;
/// every lane ends with the result. Values narrower than 32 bits are
/// widened for the shuffles.
Value KernelLowering::warpReduce(ReduceKind kind, Value partial,
                                 Location loc, int64_t width) {
  Type type = partial.getType();
  bool widen = isa<FloatType>(type) && type.getIntOrFloatBitWidth() < 32;
  Value value = widen ? arith::ExtFOp::create(b, loc, b.getF32Type(), partial)
                      : partial;
  // In a lanes(P) loop of n iterations with n * P not a multiple of 32, the
  // loop guard leaves the last warp partly idle: its active lanes shuffle
  // among themselves (a full member mask waits for the idle lanes, and hangs
  // when they wait at the next barrier). Groups of P lanes are whole, so
  // every xor partner of an active lane is active.
  Value memberMask;
  int64_t threads = laneExtent * lanes;
  if (threadDepth > 0 && lanes > 1 && threads % 32 != 0) {
    auto i32 = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
    };
    Value warp = arith::DivUIOp::create(b, loc, threadId, constantIndex(32, loc));
    Value lastWarp =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp,
                              constantIndex(threads / 32, loc));
    Value partMask = i32((int64_t(1) << (threads % 32)) - 1);
    Value fullMask = i32(-1);
    memberMask =
        arith::SelectOp::create(b, loc, lastWarp, partMask, fullMask);
  }
  for (int32_t offset = width / 2; offset >= 1; offset /= 2) {
    Value other;
    if (memberMask) {
      Value distance =
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset);
      Value clamp = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 31);
      other = NVVM::ShflOp::create(b, loc, value.getType(), memberMask, value,
                                   distance, clamp, NVVM::ShflKind::bfly,
                                   UnitAttr());
    } else
      other = gpu::ShuffleOp::create(b, loc, value, offset, 32,
                                     gpu::ShuffleMode::XOR)
                  .getShuffleResult();
    value = combine(kind, value, other, loc);
  }
  return widen ? Value(arith::TruncFOp::create(b, loc, type, value)) : value;
}

/// Combines the partial results of the lanes sharing an iteration: warp
/// shuffles when they sit in one warp; otherwise through shared scratch
/// (each lane writes its partial at [part][iteration], a barrier, every lane
/// reads and combines the P partials, a barrier before the scratch is
/// reused). All threads of the block reach these barriers: an across-warps
/// lanes loop covers the whole block without a guard.
Value KernelLowering::lanesReduce(ReduceKind kind, Value partial,
                                  Location loc) {
  if (!lanesAcrossWarps)
    return warpReduce(kind, partial, loc, lanes);
  Type type = partial.getType();
  Value value = type.isF32() ? partial
                : isa<FloatType>(type)
                    ? Value(arith::ExtFOp::create(b, loc, b.getF32Type(), partial))
                    : Value(arith::SIToFPOp::create(b, loc, b.getF32Type(), partial));
  Value extent = constantIndex(laneExtent, loc);
  Value slot = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, lanePart, extent), laneIv);
  memref::StoreOp::create(b, loc, value, reductionScratch, ValueRange{slot});
  blockBarrier(loc);
  Value total;
  for (int64_t p = 0; p < lanes; ++p) {
    Value index = arith::AddIOp::create(b, loc, constantIndex(p * laneExtent, loc),
                                        laneIv);
    Value v = memref::LoadOp::create(b, loc, reductionScratch, ValueRange{index});
    total = total ? combine(kind, total, v, loc) : v;
  }
  blockBarrier(loc);
  if (type.isF32())
    return total;
  return isa<FloatType>(type)
             ? Value(arith::TruncFOp::create(b, loc, type, total))
             : Value(arith::FPToSIOp::create(b, loc, type, total));
}

/// Rebuilds the computation of a uniform rank-1 `tile` so that each lane
/// holds only elements lane + 32*k (k < perLane): tile loads gather just
/// those elements, element-wise ops are replayed on the slices, and scalar
/// operands are reused. Fails for producers it cannot slice.
FailureOr<Value> KernelLowering::distribute(Value tile, Value lane,
                                            int64_t perLane, Location loc) {
  auto tileType = dyn_cast<RankedTensorType>(tile.getType());
  if (!tileType)
    return lookup(tile); // scalar: already lowered, uniform
  Type element = signless(tileType.getElementType());
  Type sliceType = perLane == 1 ? element
                                : Type(VectorType::get({perLane}, element));
  Operation *def = tile.getDefiningOp();
  if (!def || tileType.getRank() != 1)
    return failure();
  if (auto load = dyn_cast<LoadOp>(def)) {
    TensorInfo &info = tensors[load.getSource()];
    if (info.kind == TensorInfo::Kind::Global &&
        inBoundsCondition(info, load.getIndices(),
                          accessIndices(load.getSource(), load.getIndices())
                                  .size() -
                              load.getIndices().size(),
                          loc))
      return failure();
    SmallVector<Value> indices =
        accessIndices(load.getSource(), load.getIndices());
    indices.push_back(Value());
    SmallVector<Value> elements;
    for (int64_t k = 0; k < perLane; ++k) {
      indices.back() = arith::AddIOp::create(b, loc, lane,
                                             constantIndex(32 * k, loc));
      elements.push_back(loadElement(info, indices, loc));
    }
    if (perLane == 1)
      return elements.front();
    return Value(vector::FromElementsOp::create(
        b, loc, cast<VectorType>(sliceType), elements));
  }
  // Element-wise producers: replay on the slices.
  if (def->getNumResults() != 1 || isa<ReduceOp, CumsumOp, L2NormOp>(def))
    return failure();
  IRMapping local;
  for (Value operand : def->getOperands()) {
    FailureOr<Value> slice = distribute(operand, lane, perLane, loc);
    if (failed(slice))
      return failure();
    local.map(operand, *slice);
  }
  // Lower the producer with the sliced operands through the normal path.
  IRMapping saved = map;
  for (Value operand : def->getOperands())
    map.map(operand, local.lookup(operand));
  Value original = map.lookupOrNull(tile);
  // Temporarily retype: lowerElementwise derives result types from the
  // kda2 op, so give it a sliced clone to lower.
  OpBuilder::InsertionGuard guard(b);
  Operation *clone = def->clone();
  Type sliceTileType =
      perLane == 1 ? tileType.getElementType()
                   : Type(RankedTensorType::get({perLane},
                                                tileType.getElementType()));
  clone->getResult(0).setType(sliceTileType);
  LogicalResult lowered = lowerElementwise(clone);
  Value result = lowered.succeeded() ? map.lookup(clone->getResult(0)) : Value();
  clone->destroy();
  map = saved;
  if (original)
    map.map(tile, original);
  if (!result)
    return failure();
  return result;
}

LogicalResult KernelLowering::lowerReduce(ReduceOp reduce) {
  Location loc = reduce.getLoc();
  RankedTensorType input = reduce.getInput().getType();
  bool isFloat = isa<FloatType>(input.getElementType());
  bool inWarpReduce = llvm::is_contained(warpReduceStack, true);
  // Uniform rank-1 reductions under @warp_reduce: distribute over lanes.
  if (inWarpReduce && threadDepth == 0 && input.getRank() == 1 &&
      input.getDimSize(0) % 32 == 0) {
    int64_t perLane = input.getDimSize(0) / 32;
    FailureOr<Value> slice =
        distribute(reduce.getInput(), laneId, perLane, loc);
    if (succeeded(slice)) {
      Value partial = *slice;
      if (perLane > 1)
        partial = vector::ReductionOp::create(
            b, loc, combiningKind(reduce.getKind(), isFloat), partial);
      map.map(reduce.getResult(), warpReduce(reduce.getKind(), partial, loc));
      return success();
    }
  }
  Value value = lookup(reduce.getInput());
  if (input.getRank() == 1) {
    Value result = vector::ReductionOp::create(
        b, loc, combiningKind(reduce.getKind(), isFloat), value);
    // A distributed tile: combine the lanes' partial results.
    if (isDistributed(input))
      result = lanesReduce(reduce.getKind(), result, loc);
    map.map(reduce.getResult(), result);
    return success();
  }
  if (input.getRank() == 2 && reduce.getReducedAxis() == 1) {
    SmallVector<Value> rows;
    for (int64_t r = 0; r < input.getDimSize(0); ++r) {
      Value row = vector::ExtractOp::create(b, loc, value, r);
      rows.push_back(vector::ReductionOp::create(
          b, loc, combiningKind(reduce.getKind(), isFloat), row));
    }
    map.map(reduce.getResult(),
            vector::FromElementsOp::create(
                b, loc, cast<VectorType>(lowerValueType(reduce.getType())),
                rows));
    return success();
  }
  return reduce.emitOpError()
         << "GPU lowering supports reductions of rank-1 tiles and row-wise "
            "reductions of rank-2 tiles";
}

LogicalResult KernelLowering::lowerElementwise(Operation *op) {
  Location loc = op->getLoc();
  if (op->getNumResults() != 1)
    return op->emitOpError() << "is not supported by the GPU lowering";
  Type resultType = lowerType(op->getResult(0).getType());
  for (Value v : op->getOperands())
    if (!lookup(v))
      return op->emitOpError() << "internal error: operand not lowered: " << v;
  auto operand = [&](unsigned i) {
    return broadcastTo(lookup(op->getOperand(i)),
                       isa<VectorType>(resultType)
                           ? VectorType::get(
                                 cast<VectorType>(resultType).getShape(),
                                 getElementTypeOrSelf(
                                     lookup(op->getOperand(i)).getType()))
                           : Type(),
                       loc);
  };
  Type element = getElementTypeOrSelf(resultType);
  bool isFloat = isa<FloatType>(element);
  Value result;
  auto binary = [&](auto floatTag, auto intTag) {
    using FOp = decltype(floatTag);
    using IOp = decltype(intTag);
    Value lhs = operand(0), rhs = operand(1);
    if (isFloat)
      return Value(FOp::create(b, loc, lhs, rhs, fmf()));
    return Value(IOp::create(b, loc, lhs, rhs));
  };
  if (isa<AddOp>(op))
    result = binary(arith::AddFOp(), arith::AddIOp());
  else if (isa<SubOp>(op))
    result = binary(arith::SubFOp(), arith::SubIOp());
  else if (isa<MulOp>(op))
    result = binary(arith::MulFOp(), arith::MulIOp());
  else if (isa<DivOp>(op))
    result = binary(arith::DivFOp(), arith::DivSIOp());
  else if (isa<RemOp>(op))
    result = binary(arith::RemFOp(), arith::RemSIOp());
  else if (isa<MaxOp>(op))
    result = binary(arith::MaximumFOp(), arith::MaxSIOp());
  else if (isa<MinOp>(op))
    result = binary(arith::MinimumFOp(), arith::MinSIOp());
  else if (auto cmp = dyn_cast<CmpOp>(op)) {
    Value lhs = lookup(cmp.getLhs()), rhs = lookup(cmp.getRhs());
    if (isa<VectorType>(resultType)) {
      auto shape = cast<VectorType>(resultType).getShape();
      lhs = broadcastTo(lhs, VectorType::get(shape, getElementTypeOrSelf(lhs.getType())), loc);
      rhs = broadcastTo(rhs, VectorType::get(shape, getElementTypeOrSelf(rhs.getType())), loc);
    }
    if (isa<FloatType>(getElementTypeOrSelf(lhs.getType()))) {
      arith::CmpFPredicate pred = arith::CmpFPredicate::OEQ;
      switch (cmp.getPredicate()) {
      case CmpPredicate::eq: pred = arith::CmpFPredicate::OEQ; break;
      case CmpPredicate::ne: pred = arith::CmpFPredicate::UNE; break;
      case CmpPredicate::lt: pred = arith::CmpFPredicate::OLT; break;
      case CmpPredicate::le: pred = arith::CmpFPredicate::OLE; break;
      case CmpPredicate::gt: pred = arith::CmpFPredicate::OGT; break;
      case CmpPredicate::ge: pred = arith::CmpFPredicate::OGE; break;
      }
      result = arith::CmpFOp::create(b, loc, pred, lhs, rhs);
    } else {
      arith::CmpIPredicate pred = arith::CmpIPredicate::eq;
      switch (cmp.getPredicate()) {
      case CmpPredicate::eq: pred = arith::CmpIPredicate::eq; break;
      case CmpPredicate::ne: pred = arith::CmpIPredicate::ne; break;
      case CmpPredicate::lt: pred = arith::CmpIPredicate::slt; break;
      case CmpPredicate::le: pred = arith::CmpIPredicate::sle; break;
      case CmpPredicate::gt: pred = arith::CmpIPredicate::sgt; break;
      case CmpPredicate::ge: pred = arith::CmpIPredicate::sge; break;
      }
      result = arith::CmpIOp::create(b, loc, pred, lhs, rhs);
    }
  } else if (auto select = dyn_cast<SelectOp>(op)) {
    Value cond = lookup(select.getCondition());
    Value t = broadcastTo(lookup(select.getTrueValue()), resultType, loc);
    Value f = broadcastTo(lookup(select.getFalseValue()), resultType, loc);
    if (isa<VectorType>(resultType) && !isa<VectorType>(cond.getType()))
      cond = vector::BroadcastOp::create(
          b, loc,
          VectorType::get(cast<VectorType>(resultType).getShape(),
                          b.getI1Type()),
          cond);
    result = arith::SelectOp::create(b, loc, cond, t, f);
  } else if (auto masked = dyn_cast<DeltaMaskedOp>(op)) {
    // The mask bits select the value exactly: compare + select, no multiply,
    // no branch (PTX setp + selp).
    Value value = lookup(masked.getValue());
    Value mask = lookup(masked.getMask());
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(mask.getType()));
    Value keep =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, mask, zero);
    Value fill = splat(masked.getFill().convertToDouble(), resultType, loc);
    result = arith::SelectOp::create(b, loc, keep, value, fill);
  } else if (auto castOp = dyn_cast<CastOp>(op)) {
    Value in = lookup(castOp.getInput());
    Type from = getElementTypeOrSelf(castOp.getInput().getType());
    Type to = getElementTypeOrSelf(castOp.getResult().getType());
    bool fromUnsigned = from.isUnsignedInteger() || from.isInteger(1);
    Type fromL = signless(from), toL = signless(to);
    if (fromL == toL)
      result = in;
    else if (isa<FloatType>(fromL) && isa<FloatType>(toL))
      result = fromL.getIntOrFloatBitWidth() < toL.getIntOrFloatBitWidth()
                   ? Value(arith::ExtFOp::create(b, loc, resultType, in))
                   : Value(arith::TruncFOp::create(b, loc, resultType, in));
    else if (isa<FloatType>(toL))
      result = fromUnsigned
                   ? Value(arith::UIToFPOp::create(b, loc, resultType, in))
                   : Value(arith::SIToFPOp::create(b, loc, resultType, in));
    else if (isa<FloatType>(fromL))
      result = arith::FPToSIOp::create(b, loc, resultType, in);
    else if (fromL.isIndex() || toL.isIndex())
      result = arith::IndexCastOp::create(b, loc, resultType, in);
    else if (fromL.getIntOrFloatBitWidth() < toL.getIntOrFloatBitWidth())
      result = fromUnsigned
                   ? Value(arith::ExtUIOp::create(b, loc, resultType, in))
                   : Value(arith::ExtSIOp::create(b, loc, resultType, in));
    else
      result = arith::TruncIOp::create(b, loc, resultType, in);
  } else if (isa<NegOp>(op)) {
    result = arith::NegFOp::create(b, loc, operand(0), fmf());
  } else if (isa<ExpOp>(op)) {
    result = fastExp(operand(0), loc);
  } else if (isa<Exp2Op>(op)) {
    result = fastExp2(operand(0), loc);
  } else if (isa<LogOp>(op)) {
    result = math::LogOp::create(b, loc, operand(0));
  } else if (isa<SqrtOp>(op)) {
    result = math::SqrtOp::create(b, loc, operand(0));
  } else if (isa<RsqrtOp>(op)) {
    result = math::RsqrtOp::create(b, loc, operand(0));
  } else if (isa<SigmoidOp>(op)) {
    // 1 / (1 + exp(-x))
    Value x = operand(0);
    Value one = splat(1.0, resultType, loc);
    Value e = fastExp(arith::NegFOp::create(b, loc, x, fmf()), loc);
    result = arith::DivFOp::create(
        b, loc, one, arith::AddFOp::create(b, loc, one, e, fmf()), fmf());
  } else if (isa<SoftplusOp>(op)) {
    // log1p(exp(x)), and x itself above 20 where exp would overflow the sum.
    Value x = operand(0);
    Value soft = math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, x));
    Value big = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                      splat(20.0, resultType, loc));
    result = arith::SelectOp::create(b, loc, big, x, soft);
  } else if (auto l2 = dyn_cast<L2NormOp>(op)) {
    if (l2.getInput().getType().getRank() != 1)
      return op->emitOpError() << "GPU lowering supports l2norm of rank-1 "
                                  "tiles";
    Value x = operand(0);
    Value sq = arith::MulFOp::create(b, loc, x, x, fmf());
    Value sum = vector::ReductionOp::create(b, loc,
                                            vector::CombiningKind::ADD, sq);
    if (isDistributed(l2.getInput().getType()))
      sum = lanesReduce(ReduceKind::sum, sum, loc);
    Value eps = arith::ConstantOp::create(
        b, loc, FloatAttr::get(element, l2.getEps().convertToDouble()));
    Value inv = math::RsqrtOp::create(
        b, loc, arith::AddFOp::create(b, loc, sum, eps, fmf()));
    result = arith::MulFOp::create(b, loc, x, broadcastTo(inv, resultType, loc),
                                   fmf());
  } else if (auto cumsum = dyn_cast<CumsumOp>(op)) {
    if (cumsum.getInput().getType().getRank() != 1 ||
        isDistributed(cumsum.getInput().getType()))
      return op->emitOpError() << "GPU lowering supports cumsum of rank-1 "
                                  "tiles outside lanes(P) loops";
    Value x = operand(0);
    int64_t n = cumsum.getInput().getType().getDimSize(0);
    SmallVector<Value> out;
    Value running = arith::ConstantOp::create(b, loc, FloatAttr::get(element, 0.0));
    for (int64_t k = 0; k < n; ++k) {
      Value e = vector::ExtractOp::create(b, loc, x, k);
      Value next = arith::AddFOp::create(b, loc, running, e, fmf());
      out.push_back(cumsum.getExclusive() ? running : next);
      running = next;
    }
    result = vector::FromElementsOp::create(b, loc, cast<VectorType>(resultType),
                                            out);
  } else {
    return op->emitOpError() << "is not supported by the GPU lowering";
  }
  map.map(op->getResult(0), result);
  return success();
}

//===----------------------------------------------------------------------===//
// Guarded stores
//===----------------------------------------------------------------------===//

/// A store under a guard (`if c * C + t < len: o[...] = x`, the fragment
/// loops' stores past a sequence's end) comes out of the lowering with its
/// address arithmetic, the element's read from its private register array
/// and its value conversion inside the `scf.if`, around the store's own
/// bounds check: the PTX then branches around each store and ptxas keeps one
/// branch per element (with its 64-bit address recomputed in it). Where a
/// guarded block holds one memory access (a store, or a guard holding only
/// one) besides ops that may run unguarded (side-effect-free and
/// speculatable: no division by a value that may be zero; reads of a private
/// `memref.alloca` at constant in-bounds indices, before the access), those
/// ops move in front of the `if`: nested guards of one store become a
/// condition ptxas predicates the store on, and neighbouring elements'
/// addresses share one block, where LLVM shares their common part. Blocks
/// with more than one access (a loop of checkpoint stores, a global load and
/// a store) are left alone: hoisting from them would add their arithmetic to
/// the path that skips them.
static bool isPrivateRead(Operation *op) {
  auto load = dyn_cast<memref::LoadOp>(op);
  if (!load || !load.getMemRef().getDefiningOp<memref::AllocaOp>())
    return false;
  ArrayRef<int64_t> shape = load.getMemRefType().getShape();
  for (auto [index, extent] : llvm::zip(load.getIndices(), shape)) {
    std::optional<int64_t> at = getConstantIntValue(index);
    if (!at || *at < 0 || ShapedType::isDynamic(extent) || *at >= extent)
      return false;
  }
  return true;
}

/// An `scf.if` without results or else block whose block is one access.
static bool isGuardedAccess(Operation *op) {
  auto guard = dyn_cast<scf::IfOp>(op);
  if (!guard || guard.getNumResults() != 0 || !guard.getElseRegion().empty())
    return false;
  auto body = guard.getThenRegion().front().without_terminator();
  return llvm::hasSingleElement(body) && body.begin()->getNumRegions() == 0;
}

static void hoistIntoGuardedStores(gpu::GPUModuleOp module) {
  module.walk([](scf::IfOp guard) {
    if (guard.getNumResults() != 0 || !guard.getElseRegion().empty())
      return;
    SmallVector<Operation *> hoisted;
    Operation *access = nullptr;
    for (Operation &op : guard.getThenRegion().front().without_terminator()) {
      bool free = op.getNumRegions() == 0 && isMemoryEffectFree(&op) &&
                  isSpeculatable(&op);
      if (free || (!access && isPrivateRead(&op))) {
        hoisted.push_back(&op);
        continue;
      }
      if (access || (op.getNumRegions() != 0 && !isGuardedAccess(&op)))
        return;
      access = &op;
    }
    if (!access)
      return;
    for (Operation *op : hoisted)
      op->moveBefore(guard);
  });
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertKDA2ToGPUPass
    : kda2::impl::ConvertKDA2ToGPUPassBase<ConvertKDA2ToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
    if (kernels.empty())
      return;
    OpBuilder b(module.getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(b, module.getLoc(), "kda2_kernels");
    for (KernelOp kernel : kernels) {
      // @shape_hint(dim, [values]): one specialized copy per value, plus the
      // generic kernel that lists them for the runtime's dispatch.
      SmallVector<Specialization> variants;
      kernel.walk([&](LoopOp loop) {
        if (ArrayAttr annotations = loop.getAnnotationsAttr())
          for (Attribute a : annotations)
            if (auto hint = dyn_cast<ShapeHintAttr>(a))
              for (int64_t value : hint.getValues()) {
                std::string dim = hint.getDim().getValue().str();
                bool seen = llvm::any_of(variants, [&](const Specialization &v) {
                  return v.dim == dim && v.value == value;
                });
                if (!seen)
                  variants.push_back(
                      {dim, value,
                       (kernel.getSymName() + "__" + dim + "_" +
                        std::to_string(value))
                           .str()});
              }
      });
      for (const Specialization &variant : variants) {
        KernelLowering lowering(kernel, gpuModule, fastMath, wgmma, chip,
                                &variant);
        if (failed(lowering.run()))
          return signalPassFailure();
      }
      KernelLowering lowering(kernel, gpuModule, fastMath, wgmma, chip,
                              nullptr, variants);
      if (failed(lowering.run()))
        return signalPassFailure();
    }
    for (KernelOp kernel : kernels)
      kernel.erase();
    hoistIntoGuardedStores(gpuModule);
  }
};
} // namespace
