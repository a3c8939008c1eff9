//===- Simulator.cpp - Cycle-level simulator of lowered GPU kernels -*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
//
// Three stages:
//
//  1. Compile: the kernel's body is translated once into a small tree of
//     Nodes (one per op, loops and ifs holding their regions), each with how
//     its result is evaluated (constant, integer arithmetic, thread id, ...)
//     and which instruction class it issues (none for folded or free ops).
//  2. Interpret: per warp, the tree is walked with concrete lane values
//     (32 int64 per SSA value, or one when uniform, or "unknown" for data).
//     Loops run their trip counts; ifs run the branches some active lane
//     takes (both when the condition is unknown). Every issuing node appends
//     an Instr to the warp's stream, naming the instructions that produced
//     its operands. Shared-memory wavefronts and global sectors are computed
//     here from the lanes' addresses.
//  3. Time: the streams of the CTAs resident on one SM are replayed cycle by
//     cycle (skipping cycles in which nothing can issue).
//
//===----------------------------------------------------------------------===//

#include "kda2/Agent/Simulator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::kda2;

static constexpr unsigned kLanes = 32;
static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

//===----------------------------------------------------------------------===//
// Numeric core
//===----------------------------------------------------------------------===//

SharedAccessCost mlir::kda2::sharedAccessCost(ArrayRef<int64_t> laneAddresses,
                                              uint32_t activeMask,
                                              unsigned accessBytes,
                                              unsigned numBanks,
                                              unsigned bankBytes) {
  SharedAccessCost cost;
  if (accessBytes == 0 || numBanks == 0 || bankBytes == 0)
    return cost;
  unsigned lanes = std::min<unsigned>(laneAddresses.size(), kLanes);
  // Wider accesses are split into 16-byte instructions.
  unsigned chunkBytes = std::min(accessBytes, 16u);
  unsigned chunks = (accessBytes + chunkBytes - 1) / chunkBytes;
  unsigned phaseLanes =
      std::clamp<unsigned>(numBanks * bankBytes / chunkBytes, 1, kLanes);
  SmallVector<SmallVector<int64_t, 4>> bankWords(numBanks);
  for (unsigned chunk = 0; chunk < chunks; ++chunk) {
    unsigned bytes = std::min(chunkBytes, accessBytes - chunk * chunkBytes);
    for (unsigned first = 0; first < lanes; first += phaseLanes) {
      for (auto &words : bankWords)
        words.clear();
      bool any = false;
      unsigned worst = 0;
      for (unsigned lane = first; lane < std::min(lanes, first + phaseLanes);
           ++lane) {
        if (!(activeMask & (1u << lane)))
          continue;
        any = true;
        int64_t begin = laneAddresses[lane] + int64_t(chunk) * chunkBytes;
        int64_t firstWord = llvm::divideFloorSigned(begin, bankBytes);
        int64_t lastWord =
            llvm::divideFloorSigned(begin + int64_t(bytes) - 1, bankBytes);
        for (int64_t word = firstWord; word <= lastWord; ++word) {
          auto &words =
              bankWords[static_cast<uint64_t>(word) % uint64_t(numBanks)];
          if (!llvm::is_contained(words, word)) {
            words.push_back(word);
            worst = std::max<unsigned>(worst, words.size());
          }
        }
      }
      if (any) {
        cost.wavefronts += worst;
        cost.idealWavefronts += 1;
      }
    }
  }
  return cost;
}

unsigned mlir::kda2::globalSectors(ArrayRef<int64_t> laneAddresses,
                                   uint32_t activeMask, unsigned accessBytes) {
  SmallVector<int64_t, 64> sectors;
  unsigned lanes = std::min<unsigned>(laneAddresses.size(), kLanes);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    if (!(activeMask & (1u << lane)) || accessBytes == 0)
      continue;
    int64_t first = llvm::divideFloorSigned(laneAddresses[lane], 32);
    int64_t last = llvm::divideFloorSigned(
        laneAddresses[lane] + int64_t(accessBytes) - 1, 32);
    for (int64_t sector = first; sector <= last; ++sector)
      sectors.push_back(sector);
  }
  llvm::sort(sectors);
  return std::unique(sectors.begin(), sectors.end()) - sectors.begin();
}

//===----------------------------------------------------------------------===//
// TraceWriter
//===----------------------------------------------------------------------===//

TraceWriter::TraceWriter(double clockMHz, size_t maxEvents)
    : clockMHz(clockMHz > 0 ? clockMHz : 1), maxEvents(maxEvents) {}

void TraceWriter::beginKernel(StringRef name) {
  processBase = nextProcess;
  kernelName = name.str();
}

void TraceWriter::addTrack(unsigned cta, unsigned warp, StringRef name) {
  std::string process = ("CTA " + Twine(cta)).str();
  if (!kernelName.empty())
    process = "@" + kernelName + " " + process;
  tracks.push_back({processBase + cta, warp, name.str(), process});
  nextProcess = std::max(nextProcess, processBase + cta + 1);
}

void TraceWriter::addSpan(unsigned cta, unsigned warp, StringRef name,
                          StringRef category, uint64_t beginCycle,
                          uint64_t endCycle) {
  if (endCycle <= beginCycle)
    return;
  if (spans.size() >= maxEvents) {
    ++dropped;
    return;
  }
  spans.push_back({processBase + cta, warp, name.str(), category.str(),
                   beginCycle, endCycle});
}

void TraceWriter::write(raw_ostream &os) const {
  llvm::json::Array events;
  for (const Track &track : tracks) {
    events.push_back(llvm::json::Object{
        {"name", "thread_name"},
        {"ph", "M"},
        {"pid", track.cta},
        {"tid", track.warp},
        {"args", llvm::json::Object{{"name", track.name}}}});
  }
  llvm::DenseSet<unsigned> ctas;
  for (const Track &track : tracks)
    if (ctas.insert(track.cta).second)
      events.push_back(llvm::json::Object{
          {"name", "process_name"},
          {"ph", "M"},
          {"pid", track.cta},
          {"args", llvm::json::Object{{"name", track.process}}}});
  for (const Span &span : spans) {
    events.push_back(llvm::json::Object{
        {"name", span.name},
        {"cat", span.category},
        {"ph", "X"},
        {"pid", span.cta},
        {"tid", span.warp},
        {"ts", double(span.begin) / clockMHz},
        {"dur", double(span.end - span.begin) / clockMHz},
        {"args", llvm::json::Object{{"cycles", int64_t(span.end - span.begin)},
                                    {"begin_cycle", int64_t(span.begin)}}}});
  }
  llvm::json::Object root{
      {"traceEvents", std::move(events)},
      {"displayTimeUnit", "ns"},
      {"otherData", llvm::json::Object{{"generator", "kda2 simulator"},
                                       {"clock_mhz", clockMHz},
                                       {"dropped_spans", int64_t(dropped)}}}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

//===----------------------------------------------------------------------===//
// Program: the compiled kernel
//===----------------------------------------------------------------------===//

namespace {

/// How a node computes its (first) result from its operands.
enum class Eval : uint8_t {
  None,      // no result or results not modelled
  Unknown,   // data: results unknown
  Const,     // imm
  Copy,      // operand 0, normalized to the result width
  ZExt,      // operand 0 zero-extended from imm bits
  Binary,    // op(operand 0, operand 1)
  Cmp,       // predicate(operand 0, operand 1)
  Select,    // operand 0 ? operand 1 : operand 2
  ThreadId,  // imm = dimension
  BlockId,   // imm = dimension
  BlockDim,  // imm = dimension
  GridDim,   // imm = dimension
  LaneId,    // lane index
  AddScaled, // operand 0 + operand 1 * imm (getelementptr)
  AddBytes,  // operand 0 + operand 1 (memref.view)
  RegLoad,   // a register tile's element (imm: its slot), as last stored
  RegStore,  // operand 0 into a register tile's element (imm: its slot)
};

enum class BinOp : uint8_t {
  Add, Sub, Mul, DivU, DivS, RemU, RemS, CeilDivU, CeilDivS, FloorDivS, And,
  Or, Xor, Shl, ShrU, ShrS, MaxS, MaxU, MinS, MinU
};

/// Instruction classes of the timing model.
enum class Cls : uint8_t {
  None,        // folded or free (register renaming, address casts)
  ALU,         // FP32 / INT pipe
  SFU,         // MUFU
  Tensor,      // mma.sync / wgmma
  Shared,      // shared-memory load/store, ldmatrix, shuffle (MIO)
  Local,       // local memory (alloca) through L1
  GlobalLoad,  // global load (and cp.async)
  GlobalStore, // global store
  TMA,         // cp.async.bulk.tensor
  Barrier,     // bar.sync
  MbarInit,    // mbarrier.init
  MbarArrive,  // mbarrier.arrive(.expect_tx)
  MbarWait,    // mbarrier.try_wait.parity
};

static bool isMemoryClass(Cls cls) {
  return cls == Cls::Shared || cls == Cls::Local || cls == Cls::GlobalLoad ||
         cls == Cls::TMA || cls == Cls::MbarWait;
}

enum class Space : uint8_t { Shared, Global, Local };

/// How a memory node finds its lanes' addresses.
struct MemAccess {
  /// Operand index of the memref or pointer.
  unsigned baseOperand = 0;
  /// Operand indices of the memref indices (none for pointers).
  SmallVector<unsigned, 4> indexOperands;
  /// Element strides and offset of the memref layout (in elements).
  SmallVector<int64_t, 4> strides;
  int64_t offset = 0;
  bool stridesKnown = true;
  unsigned elementBytes = 1;
  /// Bytes each lane accesses.
  unsigned accessBytes = 4;
  Space space = Space::Global;
  bool isStore = false;
  /// ldmatrix: lanes 0 .. 8 * tiles - 1 each give one 16-byte row address.
  unsigned ldmatrixTiles = 0;
};

enum class NodeKind : uint8_t { Plain, For, If, Return };

struct Node {
  NodeKind kind = NodeKind::Plain;
  Eval eval = Eval::None;
  uint8_t op = 0;         // BinOp or arith::CmpIPredicate; Tensor: 1 = wgmma
  Cls cls = Cls::None;
  unsigned width = 64;    // result bit width (1 for i1)
  bool hoisted = false;   // loop-invariant: issued on a loop's first trip only
  uint16_t repeat = 1;    // pipe issue slots (vector width, emulated ops)
  int64_t imm = 0;
  SmallVector<int32_t, 4> operands;
  SmallVector<int32_t, 2> results;
  int memIndex = -1;      // into Program::mems
  /// Tensor: flops per warp; TMA: bytes; MbarArrive: operand index of the tx
  /// count (-1: none); MbarInit: operand index of the count.
  int64_t aux = 0;
  /// MbarInit/MbarArrive/MbarWait/TMA: operand index of the barrier pointer.
  int barrierOperand = -1;
  /// For: lower, upper, step are operands 0..2, inits follow; results are the
  /// loop results; bodyArgs are the induction variable and iter_args.
  /// If: operand 0 is the condition.
  SmallVector<int32_t, 4> bodyArgs;
  int regions[2] = {-1, -1};
  SmallVector<int32_t, 4> yields[2];
  /// For: issuing ops of one trip of the body (both sides of its ifs), or -1
  /// when the loop is not unrolled (it holds a loop, a barrier, TMA or
  /// mbarrier ops, or a return).
  int32_t unrollBodySize = -1;
  Operation *source = nullptr;
};

struct Program {
  std::vector<Node> nodes;
  std::vector<std::vector<int32_t>> regions;
  std::vector<MemAccess> mems;
  unsigned numValues = 0;
  int32_t body = -1;
  /// Function arguments by position: value ids.
  SmallVector<int32_t> arguments;
  /// Initial values of the arguments (synthetic pointer bases, sizes).
  SmallVector<std::optional<int64_t>> argumentValues;
  /// Static workgroup memory (attributions and workgroup globals), bytes.
  int64_t staticSharedBytes = 0;
  /// Ops the model does not know, by name (reported once each).
  llvm::StringSet<> unknownOps;
};

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//

static unsigned typeBits(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  if (isa<IndexType>(type))
    return 64;
  if (auto flt = dyn_cast<FloatType>(type))
    return flt.getWidth();
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements() * typeBits(vector.getElementType());
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type)) {
    unsigned bits = 0;
    for (Type field : structType.getBody())
      bits += typeBits(field);
    return bits;
  }
  if (isa<LLVM::LLVMPointerType>(type))
    return 64;
  return 32;
}

static unsigned typeBytes(Type type) {
  return std::max(1u, (typeBits(type) + 7) / 8);
}

static std::optional<Space> memorySpaceOf(Attribute space) {
  if (!space)
    return Space::Global;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Workgroup:
      return Space::Shared;
    case gpu::AddressSpace::Private:
      return Space::Local;
    case gpu::AddressSpace::Global:
      return Space::Global;
    }
  }
  if (auto integer = dyn_cast<IntegerAttr>(space)) {
    switch (integer.getInt()) {
    case 3:
      return Space::Shared;
    case 5:
      return Space::Local;
    default:
      return Space::Global;
    }
  }
  return Space::Global;
}

static Space pointerSpace(Type type) {
  if (auto pointer = dyn_cast<LLVM::LLVMPointerType>(type)) {
    if (pointer.getAddressSpace() == 3)
      return Space::Shared;
    if (pointer.getAddressSpace() == 5)
      return Space::Local;
  }
  return Space::Global;
}

//===----------------------------------------------------------------------===//
// Launch metadata (`__kda2_meta_<kernel>`, docs/Runtime.md)
//===----------------------------------------------------------------------===//

struct Metadata {
  bool present = false;
  std::array<int64_t, 3> block = {0, 0, 0};
  SmallVector<std::string> gridX, gridY;
  int64_t smem = 0;
  /// Per kernel parameter: kind (ptr, scalar, dim, tensormap, counters),
  /// name, and for ptr the dtype and dimensions; for tensormap the tensor
  /// name and box.
  struct Arg {
    std::string kind, name, dtype, tensor;
    SmallVector<std::string> dims;
    SmallVector<int64_t> box;
  };
  SmallVector<Arg> args;
};

static unsigned dtypeBytes(StringRef dtype) {
  return llvm::StringSwitch<unsigned>(dtype)
      .Cases({"f16", "bf16", "i16"}, 2)
      .Cases({"f32", "i32"}, 4)
      .Cases({"f64", "i64"}, 8)
      .Default(1);
}

static Metadata readMetadata(gpu::GPUFuncOp kernel) {
  Metadata meta;
  Operation *module = kernel->getParentOp();
  if (!module)
    return meta;
  auto global = dyn_cast_or_null<LLVM::GlobalOp>(SymbolTable::lookupSymbolIn(
      module, ("__kda2_meta_" + kernel.getName()).str()));
  if (!global)
    return meta;
  auto text = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
  if (!text)
    return meta;
  meta.present = true;
  SmallVector<StringRef> lines;
  text.getValue().split(lines, '\n');
  for (StringRef line : lines) {
    SmallVector<StringRef> fields;
    line.split(fields, ' ', -1, /*KeepEmpty=*/false);
    if (fields.empty())
      continue;
    auto toInt = [](StringRef field) {
      int64_t value = 0;
      return field.getAsInteger(10, value) ? int64_t(0) : value;
    };
    if (fields[0] == "block" && fields.size() == 4) {
      for (unsigned i = 0; i < 3; ++i)
        meta.block[i] = toInt(fields[i + 1]);
    } else if (fields[0] == "grid.x") {
      for (StringRef term : ArrayRef(fields).drop_front())
        meta.gridX.push_back(term.str());
    } else if (fields[0] == "grid.y") {
      for (StringRef term : ArrayRef(fields).drop_front())
        meta.gridY.push_back(term.str());
    } else if (fields[0] == "smem" && fields.size() == 2) {
      meta.smem = toInt(fields[1]);
    } else if (fields[0] == "arg" && fields.size() >= 3) {
      Metadata::Arg arg;
      arg.kind = fields[1].str();
      arg.name = fields[2].str();
      if (arg.kind == "ptr" && fields.size() >= 6) {
        arg.dtype = fields[3].str();
        for (StringRef dim : ArrayRef(fields).drop_front(6))
          arg.dims.push_back(dim.str());
      } else if (arg.kind == "tensormap" && fields.size() >= 4) {
        arg.tensor = fields[3].str();
        auto boxIt = llvm::find(fields, "box");
        // The box extents, up to an optional trailing `swizzle <bytes>`.
        for (auto it = boxIt == fields.end() ? boxIt : std::next(boxIt);
             it != fields.end() && *it != "swizzle"; ++it)
          arg.box.push_back(toInt(*it));
      }
      meta.args.push_back(std::move(arg));
    }
  }
  return meta;
}

//===----------------------------------------------------------------------===//
// Compiler: IR -> Program
//===----------------------------------------------------------------------===//

class Compiler {
public:
  Compiler(Program &program, const Metadata &meta) : prog(program), meta(meta) {}
  void compile(gpu::GPUFuncOp kernel);

private:
  int32_t idOf(Value value);
  int32_t compileRegion(Block &block);
  int32_t unrollBodySize(int32_t regionIndex) const;
  void compileOp(Operation *op, std::vector<int32_t> &region);
  void classify(Operation *op, Node &node);
  void setMemAccess(Node &node, Value base, ValueRange indices,
                    unsigned accessBytes, bool isStore, Operation *op);
  int operandIndex(Operation *op, Value value);

  Program &prog;
  const Metadata &meta;
  llvm::DenseMap<Value, int32_t> ids;
  /// Values folded by the compiler: constants and pure functions of them.
  llvm::DenseSet<Value> constants;
  /// Ops hoistable out of their innermost loop.
  llvm::DenseSet<Operation *> hoistable;
  /// Base addresses of workgroup globals, by symbol.
  llvm::StringMap<int64_t> globalBases;
};

int32_t Compiler::idOf(Value value) {
  auto [it, inserted] = ids.try_emplace(value, prog.numValues);
  if (inserted)
    ++prog.numValues;
  return it->second;
}

int Compiler::operandIndex(Operation *op, Value value) {
  for (OpOperand &operand : op->getOpOperands())
    if (operand.get() == value)
      return operand.getOperandNumber();
  return -1;
}

/// The synthetic base address of global pointer parameter \p number: far
/// apart, so addresses stay concrete and name their parameter.
static int64_t argumentBase(unsigned number) {
  return int64_t(number + 1) << 36;
}

void Compiler::compile(gpu::GPUFuncOp kernel) {
  // Function arguments: global pointers get distinct synthetic bases far
  // apart, so addresses stay concrete and sectors are computed exactly.
  for (BlockArgument arg : kernel.getArguments()) {
    prog.arguments.push_back(idOf(arg));
    Type type = arg.getType();
    if (isa<LLVM::LLVMPointerType, MemRefType>(type))
      prog.argumentValues.push_back(argumentBase(arg.getArgNumber()));
    else
      prog.argumentValues.push_back(std::nullopt);
  }
  // Workgroup attributions and workgroup globals are laid out from 0, then
  // the dynamic shared memory.
  int64_t shared = 0;
  for (BlockArgument arg : kernel.getWorkgroupAttributions()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    int64_t bytes = type && type.hasStaticShape()
                        ? type.getNumElements() * typeBytes(type.getElementType())
                        : 0;
    shared = llvm::alignTo(shared, 16);
    prog.arguments.push_back(idOf(arg));
    prog.argumentValues.push_back(shared);
    shared += bytes;
  }
  if (Operation *module = kernel->getParentOp())
    module->walk([&](memref::GlobalOp global) {
      if (memorySpaceOf(global.getType().getMemorySpace()) != Space::Shared)
        return;
      shared = llvm::alignTo(shared, 16);
      globalBases[global.getSymName()] = shared;
      shared += global.getType().getNumElements() *
                typeBytes(global.getType().getElementType());
    });
  prog.staticSharedBytes = shared;

  // Hoisting: a pure, region-free op in a loop whose operands are all
  // defined outside the loop (or by hoistable ops) runs once per loop entry
  // after LICM.
  kernel.walk([&](Operation *op) {
    auto loop = op->getParentOfType<scf::ForOp>();
    if (!loop || op->getNumRegions() || !isPure(op) ||
        op->getParentOp() != loop.getOperation())
      return;
    if (llvm::all_of(op->getOperands(), [&](Value operand) {
          Operation *def = operand.getDefiningOp();
          return loop.isDefinedOutsideOfLoop(operand) ||
                 (def && hoistable.contains(def));
        }))
      hoistable.insert(op);
  });
  prog.body = compileRegion(kernel.getBody().front());
  for (Node &node : prog.nodes)
    if (node.kind == NodeKind::For)
      node.unrollBodySize = unrollBodySize(node.regions[0]);
}

int32_t Compiler::unrollBodySize(int32_t regionIndex) const {
  int32_t size = 0;
  for (int32_t nodeIndex : prog.regions[regionIndex]) {
    const Node &node = prog.nodes[nodeIndex];
    switch (node.kind) {
    case NodeKind::Return:
    case NodeKind::For:
      return -1;
    case NodeKind::If:
      for (int32_t region : node.regions) {
        if (region < 0)
          continue;
        int32_t inner = unrollBodySize(region);
        if (inner < 0)
          return -1;
        size += inner;
      }
      break;
    case NodeKind::Plain:
      switch (node.cls) {
      case Cls::None:
        break;
      case Cls::Barrier:
      case Cls::TMA:
      case Cls::MbarInit:
      case Cls::MbarArrive:
      case Cls::MbarWait:
        return -1;
      default:
        if (!node.hoisted)
          ++size;
      }
      break;
    }
  }
  return size;
}

int32_t Compiler::compileRegion(Block &block) {
  int32_t index = prog.regions.size();
  prog.regions.emplace_back();
  std::vector<int32_t> region;
  for (Operation &op : block)
    compileOp(&op, region);
  prog.regions[index] = std::move(region);
  return index;
}

void Compiler::compileOp(Operation *op, std::vector<int32_t> &region) {
  Node node;
  node.source = op;
  for (Value operand : op->getOperands())
    node.operands.push_back(idOf(operand));
  for (Value result : op->getResults())
    node.results.push_back(idOf(result));
  if (op->getNumResults() == 1)
    node.width = typeBits(op->getResult(0).getType());
  node.hoisted = hoistable.contains(op);

  if (isa<scf::YieldOp>(op))
    return;
  if (isa<gpu::ReturnOp>(op)) {
    node.kind = NodeKind::Return;
  } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
    node.kind = NodeKind::For;
    node.bodyArgs.push_back(idOf(loop.getInductionVar()));
    for (Value arg : loop.getRegionIterArgs())
      node.bodyArgs.push_back(idOf(arg));
    Block &body = *loop.getBody();
    for (Value yielded : body.getTerminator()->getOperands())
      node.yields[0].push_back(idOf(yielded));
    node.regions[0] = compileRegion(body);
  } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
    node.kind = NodeKind::If;
    node.regions[0] = compileRegion(branch.getThenRegion().front());
    for (Value yielded :
         branch.getThenRegion().front().getTerminator()->getOperands())
      node.yields[0].push_back(idOf(yielded));
    if (!branch.getElseRegion().empty()) {
      node.regions[1] = compileRegion(branch.getElseRegion().front());
      for (Value yielded :
           branch.getElseRegion().front().getTerminator()->getOperands())
        node.yields[1].push_back(idOf(yielded));
    }
  } else {
    classify(op, node);
    // Ops of constants fold away.
    bool folded = op->hasTrait<OpTrait::ConstantLike>() ||
                  (op->getNumOperands() > 0 && op->getNumRegions() == 0 &&
                   isPure(op) &&
                   llvm::all_of(op->getOperands(), [&](Value operand) {
                     return constants.contains(operand);
                   }));
    if (folded && op->getNumResults() > 0) {
      for (Value result : op->getResults())
        constants.insert(result);
      if (node.cls == Cls::ALU || node.cls == Cls::SFU)
        node.cls = Cls::None;
    }
  }
  int32_t index = prog.nodes.size();
  prog.nodes.push_back(std::move(node));
  region.push_back(index);
}

void Compiler::setMemAccess(Node &node, Value base, ValueRange indices,
                            unsigned accessBytes, bool isStore,
                            Operation *op) {
  MemAccess access;
  access.baseOperand = operandIndex(op, base);
  for (Value index : indices)
    access.indexOperands.push_back(operandIndex(op, index));
  access.accessBytes = accessBytes;
  access.isStore = isStore;
  if (auto type = dyn_cast<MemRefType>(base.getType())) {
    access.elementBytes = typeBytes(type.getElementType());
    access.space = memorySpaceOf(type.getMemorySpace()).value_or(Space::Global);
    if (isa_and_nonnull<memref::AllocaOp>(base.getDefiningOp()))
      access.space = Space::Local;
    if (failed(type.getStridesAndOffset(access.strides, access.offset)) ||
        llvm::is_contained(access.strides, ShapedType::kDynamic) ||
        access.offset == ShapedType::kDynamic)
      access.stridesKnown = false;
  } else {
    access.space = pointerSpace(base.getType());
  }
  // A register tile (an alloca) indexed by constants only, as fully
  // unrolled loops leave it: LLVM promotes it to registers (a move). Its
  // elements are slots whose stored values the interpreter tracks (a
  // counter kept in a register: the checkpoint tables' next entries).
  if (access.space == Space::Local &&
      llvm::all_of(indices, [](Value index) {
        return matchPattern(index, m_Constant());
      })) {
    node.cls = Cls::None;
    node.eval = isStore ? Eval::RegStore : Eval::RegLoad;
    int64_t flat = 0;
    auto type = dyn_cast<MemRefType>(base.getType());
    for (auto [d, index] : llvm::enumerate(indices)) {
      APInt v;
      matchPattern(index, m_ConstantInt(&v));
      int64_t extent = type && type.hasStaticShape() ? type.getDimSize(d) : 1;
      flat = flat * extent + v.getSExtValue();
    }
    node.imm = (int64_t(idOf(base)) << 24) + flat;
    return;
  }
  switch (access.space) {
  case Space::Shared:
    node.cls = Cls::Shared;
    break;
  case Space::Local:
    node.cls = Cls::Local;
    break;
  case Space::Global:
    node.cls = isStore ? Cls::GlobalStore : Cls::GlobalLoad;
    break;
  }
  node.eval = isStore ? Eval::None : Eval::Unknown;
  node.memIndex = prog.mems.size();
  prog.mems.push_back(std::move(access));
}

/// Issue slots of an elementwise op on \p type: one per element, two 16-bit
/// elements per slot (packed half2/bfloat162 arithmetic).
static uint16_t elementSlots(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector)
    return 1;
  int64_t elements = vector.getNumElements();
  if (typeBits(vector.getElementType()) <= 16)
    elements = (elements + 1) / 2;
  return uint16_t(std::clamp<int64_t>(elements, 1, 1024));
}

void Compiler::classify(Operation *op, Node &node) {
  StringRef name = op->getName().getStringRef();
  StringRef dialect = op->getName().getDialectNamespace();
  Type resultType =
      op->getNumResults() ? op->getResult(0).getType() : Type();
  auto dimOf = [](gpu::Dimension dim) { return int64_t(dim); };

  // --- Integer arithmetic evaluated concretely.
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    node.cls = Cls::None;
    if (auto integer = dyn_cast<IntegerAttr>(constant.getValue())) {
      node.eval = Eval::Const;
      node.imm = integer.getValue().getSExtValue();
      if (node.width == 1)
        node.imm &= 1;
    } else {
      node.eval = Eval::Unknown;
    }
    return;
  }
  if (auto constant = dyn_cast<LLVM::ConstantOp>(op)) {
    node.cls = Cls::None;
    if (auto integer = dyn_cast<IntegerAttr>(constant.getValue())) {
      node.eval = Eval::Const;
      node.imm = integer.getValue().getSExtValue();
    } else {
      node.eval = Eval::Unknown;
    }
    return;
  }
  std::optional<BinOp> binop =
      llvm::StringSwitch<std::optional<BinOp>>(name)
          .Case("arith.addi", BinOp::Add)
          .Case("arith.subi", BinOp::Sub)
          .Case("arith.muli", BinOp::Mul)
          .Case("arith.divui", BinOp::DivU)
          .Case("arith.divsi", BinOp::DivS)
          .Case("arith.remui", BinOp::RemU)
          .Case("arith.remsi", BinOp::RemS)
          .Case("arith.ceildivui", BinOp::CeilDivU)
          .Case("arith.ceildivsi", BinOp::CeilDivS)
          .Case("arith.floordivsi", BinOp::FloorDivS)
          .Case("arith.andi", BinOp::And)
          .Case("arith.ori", BinOp::Or)
          .Case("arith.xori", BinOp::Xor)
          .Case("arith.shli", BinOp::Shl)
          .Case("arith.shrui", BinOp::ShrU)
          .Case("arith.shrsi", BinOp::ShrS)
          .Case("arith.maxsi", BinOp::MaxS)
          .Case("arith.maxui", BinOp::MaxU)
          .Case("arith.minsi", BinOp::MinS)
          .Case("arith.minui", BinOp::MinU)
          .Case("llvm.add", BinOp::Add)
          .Case("llvm.sub", BinOp::Sub)
          .Case("llvm.mul", BinOp::Mul)
          .Case("llvm.and", BinOp::And)
          .Case("llvm.or", BinOp::Or)
          .Case("llvm.xor", BinOp::Xor)
          .Case("llvm.shl", BinOp::Shl)
          .Case("llvm.lshr", BinOp::ShrU)
          .Case("llvm.ashr", BinOp::ShrS)
          .Case("llvm.udiv", BinOp::DivU)
          .Case("llvm.sdiv", BinOp::DivS)
          .Case("llvm.urem", BinOp::RemU)
          .Case("llvm.srem", BinOp::RemS)
          .Default(std::nullopt);
  if (binop && op->getNumOperands() == 2) {
    node.eval = Eval::Binary;
    node.op = uint8_t(*binop);
    node.cls = Cls::ALU;
    node.repeat = elementSlots(resultType);
    // Division: a shift for powers of two, multiply-shift for other
    // constants, a ~16-instruction sequence for variables.
    switch (*binop) {
    case BinOp::DivU: case BinOp::DivS: case BinOp::RemU: case BinOp::RemS:
    case BinOp::CeilDivU: case BinOp::CeilDivS: case BinOp::FloorDivS: {
      APInt divisor;
      if (matchPattern(op->getOperand(1), m_ConstantInt(&divisor)))
        node.repeat = divisor.isPowerOf2() ? 1 : 3;
      else
        node.repeat = 16;
      break;
    }
    default:
      break;
    }
    return;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::TruncIOp, LLVM::SExtOp, LLVM::TruncOp, LLVM::PtrToIntOp,
          LLVM::IntToPtrOp, LLVM::AddrSpaceCastOp,
          memref::ExtractAlignedPointerAsIndexOp, memref::CastOp,
          memref::ReinterpretCastOp, memref::SubViewOp,
          memref::MemorySpaceCastOp>(op)) {
    node.eval = Eval::Copy;
    node.cls = Cls::None;
    return;
  }
  if (isa<arith::ExtUIOp, LLVM::ZExtOp>(op)) {
    node.eval = Eval::ZExt;
    node.imm = typeBits(op->getOperand(0).getType());
    node.cls = Cls::None;
    return;
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    node.eval = Eval::Cmp;
    node.op = uint8_t(cmp.getPredicate());
    node.cls = Cls::ALU;
    return;
  }
  if (isa<arith::SelectOp>(op)) {
    node.eval = Eval::Select;
    node.cls = Cls::ALU;
    node.repeat = elementSlots(resultType);
    return;
  }

  // --- Ids.
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(op)) {
    node.eval = Eval::ThreadId, node.imm = dimOf(tid.getDimension());
    node.cls = Cls::ALU;
    return;
  }
  if (auto bid = dyn_cast<gpu::BlockIdOp>(op)) {
    node.eval = Eval::BlockId, node.imm = dimOf(bid.getDimension());
    node.cls = Cls::ALU;
    return;
  }
  if (auto bdim = dyn_cast<gpu::BlockDimOp>(op)) {
    node.eval = Eval::BlockDim, node.imm = dimOf(bdim.getDimension());
    node.cls = Cls::None;
    return;
  }
  if (auto gdim = dyn_cast<gpu::GridDimOp>(op)) {
    node.eval = Eval::GridDim, node.imm = dimOf(gdim.getDimension());
    node.cls = Cls::None;
    return;
  }
  if (isa<gpu::LaneIdOp, NVVM::LaneIdOp>(op)) {
    node.eval = Eval::LaneId;
    node.cls = Cls::ALU;
    return;
  }
  if (name.starts_with("nvvm.read.ptx.sreg.")) {
    StringRef reg = name.drop_front(strlen("nvvm.read.ptx.sreg."));
    int64_t dim = reg.ends_with(".y") ? 1 : reg.ends_with(".z") ? 2 : 0;
    node.imm = dim;
    node.cls = Cls::ALU;
    if (reg.starts_with("tid."))
      node.eval = Eval::ThreadId;
    else if (reg.starts_with("ctaid."))
      node.eval = Eval::BlockId;
    else if (reg.starts_with("ntid."))
      node.eval = Eval::BlockDim, node.cls = Cls::None;
    else if (reg.starts_with("nctaid."))
      node.eval = Eval::GridDim, node.cls = Cls::None;
    else
      node.eval = Eval::Unknown;
    return;
  }

  // --- Shared memory bases and views.
  if (isa<gpu::DynamicSharedMemoryOp>(op)) {
    node.eval = Eval::Const;
    node.imm = prog.staticSharedBytes;
    node.cls = Cls::None;
    return;
  }
  if (auto getGlobal = dyn_cast<memref::GetGlobalOp>(op)) {
    auto it = globalBases.find(getGlobal.getName());
    node.eval = it == globalBases.end() ? Eval::Unknown : Eval::Const;
    node.imm = it == globalBases.end() ? 0 : it->second;
    node.cls = Cls::None;
    return;
  }
  if (isa<memref::ViewOp>(op) && op->getNumOperands() >= 2) {
    node.eval = Eval::AddBytes;
    node.cls = Cls::None;
    return;
  }
  if (isa<memref::AllocaOp>(op)) {
    node.eval = Eval::Const;
    node.imm = int64_t(1) << 48;
    node.cls = Cls::None;
    return;
  }
  if (auto gep = dyn_cast<LLVM::GEPOp>(op)) {
    node.cls = Cls::None;
    node.eval = Eval::Unknown;
    if (gep.getDynamicIndices().size() == 1 &&
        gep.getRawConstantIndices().size() == 1) {
      node.eval = Eval::AddScaled;
      node.imm = typeBytes(gep.getElemType());
    }
    return;
  }

  // --- Memory accesses.
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return setMemAccess(node, load.getMemRef(), load.getIndices(),
                        typeBytes(load.getType()), false, op);
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return setMemAccess(node, store.getMemRef(), store.getIndices(),
                        typeBytes(store.getValue().getType()), true, op);
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return setMemAccess(node, load.getBase(), load.getIndices(),
                        typeBytes(load.getType()), false, op);
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return setMemAccess(node, store.getBase(), store.getIndices(),
                        typeBytes(store.getValueToStore().getType()), true, op);
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    return setMemAccess(node, load.getAddr(), {}, typeBytes(load.getType()),
                        false, op);
  if (auto store = dyn_cast<LLVM::StoreOp>(op))
    return setMemAccess(node, store.getAddr(), {},
                        typeBytes(store.getValue().getType()), true, op);
  // The lowering's predicated global load (`@p ld.global`, inline PTX):
  // modelled as the load it is (lanes whose predicate is off still count).
  if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op);
      asmOp && asmOp->hasAttr("kda2_predicated_load") &&
      asmOp.getNumResults() == 1)
    return setMemAccess(node, asmOp.getOperand(0), {},
                        typeBytes(asmOp.getResult(0).getType()), false, op);
  if (auto ldmatrix = dyn_cast<nvgpu::LdMatrixOp>(op)) {
    setMemAccess(node, ldmatrix.getSrcMemref(), ldmatrix.getIndices(), 16,
                 false, op);
    prog.mems.back().ldmatrixTiles = ldmatrix.getNumTiles();
    return;
  }
  if (auto ldmatrix = dyn_cast<NVVM::LdMatrixOp>(op)) {
    setMemAccess(node, ldmatrix.getPtr(), {}, 16, false, op);
    prog.mems.back().ldmatrixTiles = ldmatrix.getNum();
    return;
  }

  // --- Tensor cores: flops of one warp's share.
  if (auto mma = dyn_cast<NVVM::MmaOp>(op)) {
    NVVM::MMAShapeAttr shape = mma.getShape();
    node.cls = Cls::Tensor;
    node.eval = Eval::Unknown;
    node.aux = 2 * int64_t(shape.getM()) * shape.getN() * shape.getK();
    return;
  }
  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
    ArrayAttr shape = mma.getMmaShape();
    int64_t flops = 2;
    for (Attribute dim : shape)
      flops *= cast<IntegerAttr>(dim).getInt();
    node.cls = Cls::Tensor;
    node.eval = Eval::Unknown;
    node.aux = flops;
    return;
  }
  if (name == "nvvm.wgmma.mma_async" ||
      (isa<LLVM::InlineAsmOp>(op) && op->hasAttr("kda2_wgmma"))) {
    // A warpgroup instruction; each of its four warps issues a quarter
    // (the lowering's inline wgmma carries its shape as `kda2_wgmma`).
    auto shape = op->getAttrOfType<NVVM::MMAShapeAttr>(
        isa<LLVM::InlineAsmOp>(op) ? "kda2_wgmma" : "shape");
    node.cls = Cls::Tensor;
    node.eval = Eval::Unknown;
    node.op = 1; // at wgmma's rate (simulator.wgmma_efficiency)
    node.aux = shape ? 2 * int64_t(shape.getM()) * shape.getN() *
                           shape.getK() / 4
                     : 2 * 64 * 64 * 16 / 4;
    return;
  }

  // --- TMA and mbarriers.
  if (auto copy = dyn_cast<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(op)) {
    node.cls = Cls::TMA;
    node.eval = Eval::None;
    node.barrierOperand = operandIndex(op, copy.getMbar());
    // Bytes of the box: from the tensor map's metadata line.
    node.aux = 0;
    if (auto arg = dyn_cast<BlockArgument>(copy.getTmaDescriptor())) {
      unsigned position = arg.getArgNumber();
      if (position < meta.args.size() &&
          meta.args[position].kind == "tensormap") {
        const Metadata::Arg &map = meta.args[position];
        int64_t bytes = 1;
        for (int64_t extent : map.box)
          bytes *= std::max<int64_t>(extent, 1);
        for (const Metadata::Arg &tensor : meta.args)
          if (tensor.kind == "ptr" && tensor.name == map.tensor)
            bytes *= dtypeBytes(tensor.dtype);
        node.aux = bytes;
      }
    }
    return;
  }
  if (name.starts_with("nvvm.mbarrier.init")) {
    node.cls = Cls::MbarInit;
    node.barrierOperand = 0;
    node.aux = op->getNumOperands() > 1 ? 1 : -1;
    return;
  }
  if (name.starts_with("nvvm.mbarrier.arrive")) {
    node.cls = Cls::MbarArrive;
    node.eval = Eval::Unknown;
    node.barrierOperand = 0;
    node.aux = name.contains("expect_tx") && op->getNumOperands() > 1 ? 1 : -1;
    return;
  }
  if (name.starts_with("nvvm.mbarrier.try_wait") ||
      name.starts_with("nvvm.mbarrier.test.wait")) {
    node.cls = Cls::MbarWait;
    node.eval = Eval::Unknown;
    node.barrierOperand = 0;
    return;
  }
  if (isa<gpu::BarrierOp, NVVM::Barrier0Op>(op) || name == "nvvm.barrier") {
    node.cls = Cls::Barrier;
    node.aux = -1;
    // bar.sync id, n: a named barrier of n threads (the computing warps
    // of a block with a producer warp); without them, barrier 0 of all.
    if (auto named = dyn_cast<NVVM::BarrierOp>(op)) {
      if (Value id = named.getBarrierId())
        node.barrierOperand = operandIndex(op, id);
      if (Value threads = named.getNumberOfThreads())
        node.aux = operandIndex(op, threads);
    }
    return;
  }
  if (isa<gpu::ShuffleOp>(op) || name == "nvvm.shfl.sync") {
    node.cls = Cls::Shared;
    node.eval = Eval::Unknown;
    return;
  }

  // --- Free ops: register renaming, vector (de)composition, undef values.
  if (dialect == "vector" &&
      isa<vector::ExtractOp, vector::InsertOp, vector::FromElementsOp,
          vector::BroadcastOp, vector::ShapeCastOp, vector::BitCastOp,
          vector::ExtractStridedSliceOp, vector::InsertStridedSliceOp>(op)) {
    node.eval = Eval::Unknown;
    node.cls = Cls::None;
    return;
  }
  if (isa<LLVM::ExtractValueOp, LLVM::InsertValueOp, LLVM::BitcastOp,
          LLVM::UndefOp, LLVM::PoisonOp, LLVM::ZeroOp>(op) ||
      name == "ub.poison") {
    node.eval = Eval::Unknown;
    node.cls = Cls::None;
    return;
  }

  // --- Floating point and other data arithmetic.
  if (dialect == "math") {
    bool alu = isa<math::AbsFOp, math::FmaOp, math::CopySignOp, math::FloorOp,
                   math::CeilOp, math::RoundOp, math::TruncOp>(op);
    node.cls = alu ? Cls::ALU : Cls::SFU;
    node.eval = Eval::Unknown;
    node.repeat = elementSlots(resultType);
    return;
  }
  if (dialect == "arith" || isa<vector::FMAOp, vector::ReductionOp>(op) ||
      name.starts_with("llvm.f") || name == "llvm.select" ||
      name == "llvm.icmp" || name == "llvm.fcmp") {
    node.cls = isa<arith::DivFOp>(op) ? Cls::SFU : Cls::ALU;
    node.eval = Eval::Unknown;
    Type shaped = resultType;
    if (auto reduction = dyn_cast<vector::ReductionOp>(op))
      shaped = reduction.getVector().getType();
    node.repeat = elementSlots(shaped);
    return;
  }
  if (dialect == "nvvm" &&
      (name.contains("fence") || name.contains("commit") ||
       name.contains("prefetch") || name.contains("wgmma") ||
       name.contains("cp.async") || name.contains("elect"))) {
    // Fences, commit/wait groups, prefetches: cheap issue slots.
    node.cls = name.contains("cp.async.shared.global") ? Cls::GlobalLoad
                                                        : Cls::ALU;
    node.eval = Eval::Unknown;
    return;
  }

  // --- Anything else: one ALU instruction, reported once.
  node.cls = Cls::ALU;
  node.eval = Eval::Unknown;
  prog.unknownOps.insert(name);
}

//===----------------------------------------------------------------------===//
// Interpreter: Program -> per-warp instruction streams
//===----------------------------------------------------------------------===//

/// One issued instruction of a warp.
struct Instr {
  Cls cls = Cls::ALU;
  uint8_t numDeps = 0;
  /// ALU/SFU: issue slots; Shared/Local: wavefronts; MbarArrive: arrivals;
  /// MbarInit: arrival count.
  uint32_t slots = 1;
  /// Global/TMA: bytes moved; MbarArrive: expected tx bytes; Tensor: flops.
  uint64_t bytes = 0;
  /// Global: fraction (0..255) of the sectors first touched on this SM
  /// (served by DRAM).
  uint8_t missFraction = 0;
  /// Tensor: a wgmma (at simulator.wgmma_efficiency; else mma.sync's).
  bool wgmma = false;
  int32_t deps[4] = {-1, -1, -1, -1};
  /// MbarInit/Arrive/Wait, TMA: barrier address.
  int64_t barrier = 0;
  /// Source node (for names in the trace).
  int32_t node = -1;
};

/// Producers of a value: up to four instruction indices of the warp stream.
struct DepSet {
  int32_t ids[4] = {-1, -1, -1, -1};
  void add(int32_t id) {
    if (id < 0)
      return;
    int slot = -1;
    for (int i = 0; i < 4; ++i) {
      if (ids[i] == id)
        return;
      if (ids[i] < 0 && slot < 0)
        slot = i;
    }
    if (slot < 0) {
      // Keep the most recent producers.
      slot = 0;
      for (int i = 1; i < 4; ++i)
        if (ids[i] < ids[slot])
          slot = i;
      if (ids[slot] > id)
        return;
    }
    ids[slot] = id;
  }
  void merge(const DepSet &other) {
    for (int32_t id : other.ids)
      add(id);
  }
};

/// Counters gathered while interpreting.
struct InterpStats {
  uint64_t bankConflicts = 0;
  uint64_t sharedWavefronts = 0;
  double globalBytes = 0;
  /// Largest trip count of a loop cut by the trip-count cap (0: none).
  int64_t cappedTripCount = 0;
  int64_t unknownTripCounts = 0;
  int64_t unknownBranches = 0;
  bool overBudget = false;
};

struct LaunchShape {
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  /// Known contents of global pointer parameters, by parameter number
  /// (`LaunchOptions::data`).
  llvm::DenseMap<int64_t, const std::vector<int64_t> *> data;
};


class WarpInterpreter {
public:
  WarpInterpreter(const Program &prog, const HardwareProfile &profile,
                  const LaunchShape &shape, InterpStats &stats,
                  llvm::DenseSet<int64_t> &touchedSectors)
      : prog(prog), profile(profile), shape(shape), stats(stats),
        touched(touchedSectors), known(prog.numValues, 0),
        uniform(prog.numValues, 1), values(size_t(prog.numValues) * kLanes),
        deps(prog.numValues) {}

  /// Interprets the kernel for warp \p warp of the CTA with linear id
  /// \p cta. Stops (setting stats.overBudget) after \p budget instructions.
  void run(int64_t cta, unsigned warp, int64_t tripCap, size_t budget,
           std::vector<Instr> &out);

private:
  void runRegion(int32_t region, uint32_t mask);
  void evaluate(const Node &node, uint32_t mask);
  void issue(const Node &node, int32_t nodeIndex, uint32_t mask);

  int64_t lane(int32_t id, unsigned l) const {
    return values[size_t(id) * kLanes + (uniform[id] ? 0 : l)];
  }
  void setUniform(int32_t id, int64_t value) {
    known[id] = 1, uniform[id] = 1;
    values[size_t(id) * kLanes] = value;
  }
  void setUnknown(int32_t id) { known[id] = 0, uniform[id] = 1; }
  void copyValue(int32_t dst, int32_t src) {
    known[dst] = known[src], uniform[dst] = uniform[src];
    std::copy_n(&values[size_t(src) * kLanes],
                uniform[src] ? 1 : kLanes, &values[size_t(dst) * kLanes]);
    deps[dst] = deps[src];
  }
  /// Bits of lanes for which \p id is known and non-zero.
  uint32_t truthMask(int32_t id) const {
    uint32_t bits = 0;
    for (unsigned l = 0; l < kLanes; ++l)
      if (lane(id, l) != 0)
        bits |= 1u << l;
    return bits;
  }
  bool laneAddresses(const Node &node, const MemAccess &access,
                     int64_t (&addrs)[kLanes]) const;
  /// Moves the global loads of stream[begin, end) and the instructions they
  /// depend on in that range to its front (an unrolled group of trips).
  void hoistGlobalLoads(size_t begin, size_t end);
  /// List-schedules stream[begin, end) (a basic block) as ptxas does: each
  /// step issues, of the instructions whose producers in the range have
  /// issued, one whose operands are ready soonest, the longest latency path
  /// to the block's end first; shared (and local) accesses keep their
  /// order, and so do global stores.
  void listSchedule(size_t begin, size_t end);
  /// Puts stream[begin, end) in the order `order` (positions in the range)
  /// and renumbers every dependence on them.
  void reorder(size_t begin, size_t end, ArrayRef<int32_t> order);
  bool loadKnownData(const Node &node, uint32_t mask, int32_t result);

  const Program &prog;
  const HardwareProfile &profile;
  const LaunchShape &shape;
  InterpStats &stats;
  llvm::DenseSet<int64_t> &touched;
  std::vector<uint8_t> known, uniform;
  std::vector<int64_t> values;
  std::vector<DepSet> deps;
  /// Register tiles' elements (Eval::RegStore/RegLoad slots): each lane's
  /// last stored value and which lanes' are known. Inside a branch of an
  /// unknown condition (unknownDepth > 0, both sides run) a store makes its
  /// lanes unknown.
  struct Slot {
    uint32_t knownLanes = 0;
    int64_t values[kLanes] = {};
  };
  llvm::DenseMap<int64_t, Slot> slots;
  int unknownDepth = 0;
  std::vector<Instr> *out = nullptr;
  int64_t blockId[3] = {0, 0, 0};
  unsigned warp = 0;
  int64_t tripCap = 0;
  size_t budget = 0;
  bool returned = false;
  /// Per enclosing loop: whether this is its first trip.
  SmallVector<bool, 8> firstTrip;
  int32_t lastTensor = -1;
};

/// Sign-extends (or for i1 masks) \p value to \p width bits.
static int64_t normalize(int64_t value, unsigned width) {
  if (width == 1)
    return value & 1;
  if (width >= 64 || width == 0)
    return value;
  return llvm::SignExtend64(uint64_t(value), width);
}

static uint64_t asUnsigned(int64_t value, unsigned width) {
  if (width >= 64 || width == 0)
    return uint64_t(value);
  return uint64_t(value) & ((uint64_t(1) << width) - 1);
}

/// Evaluates \p op on one lane; nullopt for undefined results.
static std::optional<int64_t> applyBinary(BinOp op, int64_t a, int64_t b,
                                          unsigned width) {
  uint64_t ua = asUnsigned(a, width), ub = asUnsigned(b, width);
  switch (op) {
  case BinOp::Add:
    return int64_t(uint64_t(a) + uint64_t(b));
  case BinOp::Sub:
    return int64_t(uint64_t(a) - uint64_t(b));
  case BinOp::Mul:
    return int64_t(uint64_t(a) * uint64_t(b));
  case BinOp::DivU:
    return ub ? std::optional<int64_t>(int64_t(ua / ub)) : std::nullopt;
  case BinOp::RemU:
    return ub ? std::optional<int64_t>(int64_t(ua % ub)) : std::nullopt;
  case BinOp::CeilDivU:
    return ub ? std::optional<int64_t>(int64_t(ua / ub + (ua % ub != 0)))
              : std::nullopt;
  case BinOp::DivS:
  case BinOp::RemS:
  case BinOp::CeilDivS:
  case BinOp::FloorDivS: {
    if (b == 0 || (b == -1 && a == std::numeric_limits<int64_t>::min()))
      return std::nullopt;
    if (op == BinOp::DivS)
      return a / b;
    if (op == BinOp::RemS)
      return a % b;
    if (op == BinOp::CeilDivS)
      return llvm::divideCeilSigned(a, b);
    return llvm::divideFloorSigned(a, b);
  }
  case BinOp::And:
    return a & b;
  case BinOp::Or:
    return a | b;
  case BinOp::Xor:
    return a ^ b;
  case BinOp::Shl:
    return ub < std::min(width, 64u)
               ? std::optional<int64_t>(int64_t(uint64_t(a) << ub))
               : std::nullopt;
  case BinOp::ShrU:
    return ub < std::min(width, 64u)
               ? std::optional<int64_t>(int64_t(ua >> ub))
               : std::nullopt;
  case BinOp::ShrS:
    return ub < std::min(width, 64u) ? std::optional<int64_t>(a >> ub)
                                     : std::nullopt;
  case BinOp::MaxS:
    return std::max(a, b);
  case BinOp::MinS:
    return std::min(a, b);
  case BinOp::MaxU:
    return int64_t(std::max(ua, ub));
  case BinOp::MinU:
    return int64_t(std::min(ua, ub));
  }
  return std::nullopt;
}

static bool applyCmp(arith::CmpIPredicate pred, int64_t a, int64_t b,
                     unsigned width) {
  uint64_t ua = asUnsigned(a, width), ub = asUnsigned(b, width);
  switch (pred) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return a < b;
  case arith::CmpIPredicate::sle:
    return a <= b;
  case arith::CmpIPredicate::sgt:
    return a > b;
  case arith::CmpIPredicate::sge:
    return a >= b;
  case arith::CmpIPredicate::ult:
    return ua < ub;
  case arith::CmpIPredicate::ule:
    return ua <= ub;
  case arith::CmpIPredicate::ugt:
    return ua > ub;
  case arith::CmpIPredicate::uge:
    return ua >= ub;
  }
  return false;
}

void WarpInterpreter::run(int64_t cta, unsigned warpIndex, int64_t cap,
                          size_t instructionBudget, std::vector<Instr> &stream) {
  out = &stream;
  warp = warpIndex;
  tripCap = cap;
  budget = instructionBudget;
  returned = false;
  lastTensor = -1;
  firstTrip.assign(1, true);
  std::fill(known.begin(), known.end(), 0);
  std::fill(uniform.begin(), uniform.end(), 1);
  std::fill(deps.begin(), deps.end(), DepSet());
  slots.clear();
  unknownDepth = 0;
  blockId[0] = cta % shape.grid[0];
  blockId[1] = (cta / shape.grid[0]) % shape.grid[1];
  blockId[2] = cta / (shape.grid[0] * shape.grid[1]);
  for (auto [id, value] : llvm::zip(prog.arguments, prog.argumentValues))
    if (value)
      setUniform(id, *value);
  int64_t threads = shape.block[0] * shape.block[1] * shape.block[2];
  uint32_t mask = 0;
  for (unsigned l = 0; l < kLanes; ++l)
    if (int64_t(warp) * kLanes + l < threads)
      mask |= 1u << l;
  runRegion(prog.body, mask);
}

void WarpInterpreter::runRegion(int32_t regionIndex, uint32_t mask) {
  // Straight-line code (fully unrolled loops, predicated loads: one basic
  // block) is list-scheduled by ptxas with its global loads first; the run
  // of plain instructions since the last branch, loop or barrier is
  // reordered that way when it ends.
  size_t runBegin = out->size();
  auto endRun = [&] {
    if (profile.simulator.listSchedule)
      listSchedule(runBegin, out->size());
    else if (profile.simulator.unrollPartialThreshold > 0)
      hoistGlobalLoads(runBegin, out->size());
  };
  llvm::scope_exit finish([&] { endRun(); });
  for (int32_t nodeIndex : prog.regions[regionIndex]) {
    if (returned || stats.overBudget)
      return;
    const Node &node = prog.nodes[nodeIndex];
    // Branches, loops, barriers and TMA/mbarrier steps end a run.
    bool boundary = node.kind != NodeKind::Plain || node.cls == Cls::Barrier ||
                    node.cls == Cls::TMA || node.cls == Cls::MbarInit ||
                    node.cls == Cls::MbarArrive || node.cls == Cls::MbarWait;
    if (boundary)
      endRun();
    llvm::scope_exit nextRun([&] {
      if (boundary)
        runBegin = out->size();
    });
    switch (node.kind) {
    case NodeKind::Return:
      returned = true;
      return;
    case NodeKind::Plain:
      evaluate(node, mask);
      if (node.cls != Cls::None && mask &&
          !(node.hoisted && !firstTrip.back()))
        issue(node, nodeIndex, mask);
      break;
    case NodeKind::If: {
      int32_t cond = node.operands[0];
      uint32_t thenMask = mask, elseMask = mask;
      if (known[cond]) {
        uint32_t truth = truthMask(cond);
        thenMask = mask & truth;
        elseMask = mask & ~truth;
      } else {
        ++stats.unknownBranches;
        ++unknownDepth;
      }
      if (thenMask)
        runRegion(node.regions[0], thenMask);
      if (elseMask && node.regions[1] >= 0)
        runRegion(node.regions[1], elseMask);
      if (!known[cond])
        --unknownDepth;
      // Results: the branch each lane took; unknown when either is.
      for (auto [i, result] : llvm::enumerate(node.results)) {
        int32_t thenValue = node.yields[0][i];
        int32_t elseValue =
            node.regions[1] >= 0 ? node.yields[1][i] : thenValue;
        DepSet merged = deps[thenValue];
        merged.merge(deps[elseValue]);
        // A branch no lane took never computed its yield: only the taken
        // sides' values matter.
        if (!known[cond] || (thenMask && !known[thenValue]) ||
            (elseMask && !known[elseValue])) {
          setUnknown(result);
        } else if (elseMask == 0) {
          copyValue(result, thenValue);
        } else if (thenMask == 0) {
          copyValue(result, elseValue);
        } else {
          known[result] = 1, uniform[result] = 0;
          for (unsigned l = 0; l < kLanes; ++l)
            values[size_t(result) * kLanes + l] =
                (thenMask >> l) & 1 ? lane(thenValue, l) : lane(elseValue, l);
        }
        deps[result] = merged;
      }
      break;
    }
    case NodeKind::For: {
      int32_t lb = node.operands[0], ub = node.operands[1],
              step = node.operands[2];
      size_t numIter = node.bodyArgs.size() - 1;
      // Iter args start from the inits.
      for (size_t i = 0; i < numIter; ++i)
        copyValue(node.bodyArgs[i + 1], node.operands[3 + i]);
      int64_t trips[kLanes];
      int64_t maxTrips = 0;
      bool boundsKnown = known[lb] && known[ub] && known[step];
      for (unsigned l = 0; l < kLanes; ++l) {
        if (!boundsKnown) {
          trips[l] = 1;
        } else {
          int64_t s = lane(step, l), lo = lane(lb, l), hi = lane(ub, l);
          trips[l] = s > 0 && hi > lo ? (hi - lo + s - 1) / s : 0;
        }
        if ((mask >> l) & 1)
          maxTrips = std::max(maxTrips, trips[l]);
      }
      if (!boundsKnown)
        ++stats.unknownTripCounts;
      int64_t runTrips = maxTrips;
      if (tripCap > 0 && maxTrips > tripCap) {
        stats.cappedTripCount = std::max(stats.cappedTripCount, maxTrips);
        runTrips = tripCap;
      }
      int32_t iv = node.bodyArgs[0];
      deps[iv] = DepSet();
      firstTrip.push_back(true);
      const SimulatorParameters &sim = profile.simulator;
      // Unrolling (LLVM's thresholds): trips run in groups (of one trip when
      // the loop is not unrolled) whose global loads issue first, as ptxas
      // schedules them at the top of the (if-converted) unrolled body.
      bool grouped = node.unrollBodySize > 0 && sim.unrollPartialThreshold > 0;
      int64_t unroll = 1;
      if (grouped && maxTrips > 1) {
        if (maxTrips * node.unrollBodySize <= int64_t(sim.unrollThreshold))
          unroll = maxTrips;
        else
          unroll = int64_t(llvm::bit_floor(uint64_t(std::max<int64_t>(
              1, sim.unrollPartialThreshold / node.unrollBodySize))));
        unroll = std::min(unroll, maxTrips);
      }
      size_t groupBegin = out->size();
      for (int64_t trip = 0; trip < runTrips && !returned; ++trip) {
        if (trip % unroll == 0)
          groupBegin = out->size();
        uint32_t active = 0;
        for (unsigned l = 0; l < kLanes; ++l)
          if (((mask >> l) & 1) && trip < trips[l])
            active |= 1u << l;
        if (!active)
          break;
        if (boundsKnown && uniform[lb] && uniform[step]) {
          setUniform(iv, lane(lb, 0) + trip * lane(step, 0));
        } else if (boundsKnown) {
          known[iv] = 1, uniform[iv] = 0;
          for (unsigned l = 0; l < kLanes; ++l)
            values[size_t(iv) * kLanes + l] =
                lane(lb, l) + trip * lane(step, l);
        } else {
          setUnknown(iv);
        }
        runRegion(node.regions[0], active);
        for (size_t i = 0; i < numIter; ++i)
          copyValue(node.bodyArgs[i + 1], node.yields[0][i]);
        firstTrip.back() = false;
        if (stats.overBudget)
          break;
        if (grouped && trip % unroll == unroll - 1)
          hoistGlobalLoads(groupBegin, out->size());
      }
      // The last, partial group (hoisting a group again changes nothing).
      if (grouped)
        hoistGlobalLoads(groupBegin, out->size());
      firstTrip.pop_back();
      for (size_t i = 0; i < numIter; ++i)
        copyValue(node.results[i], node.bodyArgs[i + 1]);
      break;
    }
    }
  }
}

void WarpInterpreter::evaluate(const Node &node, uint32_t mask) {
  if (node.eval == Eval::RegStore) {
    if (node.operands.empty())
      return;
    int32_t value = node.operands[0];
    Slot &slot = slots[node.imm];
    for (unsigned l = 0; l < kLanes; ++l) {
      if (!((mask >> l) & 1))
        continue;
      if (known[value] && unknownDepth == 0) {
        slot.values[l] = lane(value, l);
        slot.knownLanes |= 1u << l;
      } else {
        slot.knownLanes &= ~(1u << l);
      }
    }
    return;
  }
  if (node.results.empty())
    return;
  int32_t result = node.results[0];
  // Dependencies: free ops forward their operands' producers.
  DepSet merged;
  if (node.cls == Cls::None)
    for (int32_t operand : node.operands)
      merged.merge(deps[operand]);
  for (int32_t id : node.results)
    deps[id] = merged;
  for (int32_t id : ArrayRef(node.results).drop_front())
    setUnknown(id);

  auto allKnown = [&]() {
    return llvm::all_of(node.operands, [&](int32_t id) { return known[id]; });
  };
  auto allUniform = [&]() {
    return llvm::all_of(node.operands, [&](int32_t id) { return uniform[id]; });
  };
  const int64_t threads[3] = {shape.block[0], shape.block[1], shape.block[2]};
  switch (node.eval) {
  case Eval::None:
  case Eval::Unknown:
    if (node.cls != Cls::GlobalLoad || !loadKnownData(node, mask, result))
      setUnknown(result);
    return;
  case Eval::RegLoad: {
    auto it = slots.find(node.imm);
    if (!mask || it == slots.end() ||
        (it->second.knownLanes & mask) != mask) {
      setUnknown(result);
      return;
    }
    known[result] = 1, uniform[result] = 0;
    for (unsigned l = 0; l < kLanes; ++l)
      values[size_t(result) * kLanes + l] =
          (mask >> l) & 1 ? normalize(it->second.values[l], node.width) : 0;
    return;
  }
  case Eval::Const:
    setUniform(result, normalize(node.imm, node.width));
    return;
  case Eval::BlockId:
    setUniform(result, blockId[std::clamp<int64_t>(node.imm, 0, 2)]);
    return;
  case Eval::BlockDim:
    setUniform(result, threads[std::clamp<int64_t>(node.imm, 0, 2)]);
    return;
  case Eval::GridDim:
    setUniform(result, shape.grid[std::clamp<int64_t>(node.imm, 0, 2)]);
    return;
  case Eval::ThreadId:
  case Eval::LaneId: {
    known[result] = 1, uniform[result] = 0;
    for (unsigned l = 0; l < kLanes; ++l) {
      int64_t linear = int64_t(warp) * kLanes + l;
      int64_t value = l;
      if (node.eval == Eval::ThreadId) {
        if (node.imm == 0)
          value = linear % threads[0];
        else if (node.imm == 1)
          value = (linear / threads[0]) % threads[1];
        else
          value = linear / (threads[0] * threads[1]);
      }
      values[size_t(result) * kLanes + l] = value;
    }
    return;
  }
  default:
    break;
  }
  if (node.operands.empty() || !allKnown()) {
    setUnknown(result);
    return;
  }
  unsigned lanes = allUniform() ? 1 : kLanes;
  int64_t computed[kLanes];
  for (unsigned l = 0; l < lanes; ++l) {
    std::optional<int64_t> value;
    auto operand = [&](unsigned i) { return lane(node.operands[i], l); };
    switch (node.eval) {
    case Eval::Copy:
      value = operand(0);
      break;
    case Eval::ZExt:
      value = int64_t(asUnsigned(operand(0), unsigned(node.imm)));
      break;
    case Eval::Binary:
      if (node.operands.size() == 2)
        value = applyBinary(BinOp(node.op), operand(0), operand(1),
                            node.width);
      break;
    case Eval::Cmp:
      if (node.operands.size() == 2)
        value = applyCmp(arith::CmpIPredicate(node.op), operand(0), operand(1),
                         typeBits(node.source->getOperand(0).getType()));
      break;
    case Eval::Select:
      if (node.operands.size() == 3)
        value = operand(0) ? operand(1) : operand(2);
      break;
    case Eval::AddScaled:
      if (node.operands.size() == 2)
        value = int64_t(uint64_t(operand(0)) + uint64_t(operand(1)) *
                                                   uint64_t(node.imm));
      break;
    case Eval::AddBytes:
      value = int64_t(uint64_t(operand(0)) + uint64_t(operand(1)));
      break;
    default:
      break;
    }
    if (!value) {
      setUnknown(result);
      return;
    }
    computed[l] = normalize(*value, node.width);
  }
  known[result] = 1;
  uniform[result] = lanes == 1;
  std::copy_n(computed, lanes, &values[size_t(result) * kLanes]);
}

/// A scalar load from a parameter whose contents were given: the values,
/// when every active lane's address is known and inside them.
bool WarpInterpreter::loadKnownData(const Node &node, uint32_t mask,
                                    int32_t result) {
  if (shape.data.empty() || node.memIndex < 0)
    return false;
  const MemAccess &access = prog.mems[node.memIndex];
  int64_t addrs[kLanes];
  if (access.accessBytes <= 0 || access.accessBytes > 8 ||
      !laneAddresses(node, access, addrs))
    return false;
  int64_t loaded[kLanes] = {};
  for (unsigned l = 0; l < kLanes; ++l) {
    if (!((mask >> l) & 1))
      continue;
    int64_t number = (addrs[l] >> 36) - 1;
    auto it = shape.data.find(number);
    if (it == shape.data.end())
      return false;
    int64_t offset = addrs[l] - argumentBase(number);
    if (offset % access.accessBytes != 0)
      return false;
    int64_t index = offset / access.accessBytes;
    if (index < 0 || index >= int64_t(it->second->size()))
      return false;
    loaded[l] = (*it->second)[index];
  }
  known[result] = 1;
  uniform[result] = 0;
  for (unsigned l = 0; l < kLanes; ++l)
    values[size_t(result) * kLanes + l] = loaded[l];
  return true;
}

bool WarpInterpreter::laneAddresses(const Node &node, const MemAccess &access,
                                    int64_t (&addrs)[kLanes]) const {
  int32_t base = node.operands[access.baseOperand];
  if (!known[base] || !access.stridesKnown)
    return false;
  for (unsigned index : access.indexOperands)
    if (!known[node.operands[index]])
      return false;
  for (unsigned l = 0; l < kLanes; ++l) {
    uint64_t element = uint64_t(access.offset);
    for (auto [i, index] : llvm::enumerate(access.indexOperands))
      element += uint64_t(lane(node.operands[index], l)) *
                 uint64_t(access.strides[i]);
    addrs[l] = int64_t(uint64_t(lane(base, l)) +
                       element * uint64_t(access.elementBytes));
  }
  return true;
}

void WarpInterpreter::hoistGlobalLoads(size_t begin, size_t end) {
  std::vector<Instr> &stream = *out;
  if (end > stream.size() || begin >= end || end - begin < 2)
    return;
  size_t n = end - begin;
  SmallVector<uint8_t> hoist(n, 0);
  bool any = false;
  for (size_t i = 0; i < n; ++i)
    if (stream[begin + i].cls == Cls::GlobalLoad)
      hoist[i] = 1, any = true;
  if (!any)
    return;
  // Producers in the group of a hoisted instruction are hoisted too (deps
  // point backwards, so one reverse pass closes the set).
  for (size_t i = n; i-- > 0;) {
    if (!hoist[i])
      continue;
    const Instr &instr = stream[begin + i];
    for (unsigned d = 0; d < instr.numDeps; ++d) {
      int32_t dep = instr.deps[d];
      if (dep >= int32_t(begin) && dep < int32_t(end))
        hoist[dep - begin] = 1;
    }
  }
  // New order: the hoisted instructions, then the rest, each in order.
  SmallVector<int32_t> order;
  order.reserve(n);
  for (int pass = 1; pass >= 0; --pass)
    for (size_t i = 0; i < n; ++i)
      if (hoist[i] == pass)
        order.push_back(int32_t(i));
  reorder(begin, end, order);
}

void WarpInterpreter::listSchedule(size_t begin, size_t end) {
  std::vector<Instr> &stream = *out;
  if (end > stream.size() || begin >= end || end - begin < 2)
    return;
  size_t n = end - begin;
  const SimulatorParameters &sim = profile.simulator;
  auto latency = [&](const Instr &instr) -> int64_t {
    switch (instr.cls) {
    case Cls::SFU:
      return sim.sfuLatency;
    case Cls::Tensor:
      return sim.mmaLatency;
    case Cls::Shared:
    case Cls::Local:
      return sim.sharedLatency;
    case Cls::GlobalLoad:
      return sim.l2Latency;
    case Cls::None:
      return 0;
    default:
      return sim.aluLatency;
    }
  };
  // In-range producers (and the order kept among shared accesses and among
  // global stores): each one's count of them and its consumers, and its
  // height: its latency plus the longest path of latencies after it.
  SmallVector<int64_t> waiting(n, 0);
  SmallVector<SmallVector<int32_t, 4>> succs(n);
  auto link = [&](size_t from, size_t to) {
    ++waiting[to];
    succs[from].push_back(int32_t(to));
  };
  int32_t lastShared = -1, lastStore = -1;
  for (size_t i = 0; i < n; ++i) {
    const Instr &instr = stream[begin + i];
    for (unsigned d = 0; d < instr.numDeps; ++d) {
      int32_t dep = instr.deps[d];
      if (dep >= int32_t(begin) && dep < int32_t(i + begin))
        link(size_t(dep) - begin, i);
    }
    int32_t &chain = instr.cls == Cls::Shared || instr.cls == Cls::Local
                         ? lastShared
                         : lastStore;
    if (instr.cls == Cls::Shared || instr.cls == Cls::Local ||
        instr.cls == Cls::GlobalStore) {
      if (chain >= 0)
        link(size_t(chain), i);
      chain = int32_t(i);
    }
  }
  SmallVector<int64_t> height(n, 0);
  for (size_t i = n; i-- > 0;) {
    int64_t after = 0;
    for (int32_t next : succs[i])
      after = std::max(after, height[next]);
    height[i] = latency(stream[begin + i]) + after;
  }
  // Greedy: the ready instruction whose operands are ready soonest (not
  // before this cycle), then the highest, then the first.
  SmallVector<int64_t> readyAt(n, 0);
  SmallVector<int32_t> ready, order;
  order.reserve(n);
  for (size_t i = 0; i < n; ++i)
    if (!waiting[i])
      ready.push_back(int32_t(i));
  int64_t now = 0;
  while (!ready.empty()) {
    size_t best = 0;
    for (size_t r = 1; r < ready.size(); ++r) {
      int32_t a = ready[r], b = ready[best];
      int64_t ta = std::max(now, readyAt[a]), tb = std::max(now, readyAt[b]);
      if (ta != tb ? ta < tb
                   : height[a] != height[b] ? height[a] > height[b] : a < b)
        best = r;
    }
    int32_t pick = ready[best];
    ready.erase(ready.begin() + best);
    order.push_back(pick);
    int64_t start = std::max(now, readyAt[pick]);
    now = start + 1;
    int64_t done = start + latency(stream[begin + pick]);
    for (int32_t next : succs[pick]) {
      readyAt[next] = std::max(readyAt[next], done);
      if (--waiting[next] == 0)
        ready.push_back(next);
    }
  }
  reorder(begin, end, order);
}

void WarpInterpreter::reorder(size_t begin, size_t end,
                              ArrayRef<int32_t> order) {
  std::vector<Instr> &stream = *out;
  size_t n = end - begin;
  SmallVector<int32_t> newIndex(n);
  std::vector<Instr> reordered;
  reordered.reserve(n);
  for (int32_t i : order) {
    newIndex[i] = int32_t(begin + reordered.size());
    reordered.push_back(stream[begin + i]);
  }
  bool moved = false;
  for (size_t i = 0; i < n; ++i)
    moved |= newIndex[i] != int32_t(begin + i);
  if (!moved)
    return;
  auto remap = [&](int32_t &id) {
    if (id >= int32_t(begin) && id < int32_t(end))
      id = newIndex[id - begin];
  };
  for (Instr &instr : reordered)
    for (unsigned d = 0; d < instr.numDeps; ++d)
      remap(instr.deps[d]);
  std::copy(reordered.begin(), reordered.end(), stream.begin() + begin);
  for (DepSet &set : deps)
    for (int32_t &id : set.ids)
      remap(id);
  remap(lastTensor);
}

void WarpInterpreter::issue(const Node &node, int32_t nodeIndex,
                            uint32_t mask) {
  if (out->size() >= budget) {
    stats.overBudget = true;
    return;
  }
  Instr instr;
  instr.cls = node.cls;
  instr.node = nodeIndex;
  instr.slots = node.repeat;
  DepSet producers;
  for (int32_t operand : node.operands)
    producers.merge(deps[operand]);
  const SimulatorParameters &sim = profile.simulator;
  unsigned active = llvm::popcount(mask);

  switch (node.cls) {
  case Cls::Tensor:
    instr.bytes = uint64_t(std::max<int64_t>(node.aux, 1));
    instr.wgmma = node.op == 1;
    break;
  case Cls::Shared:
  case Cls::Local:
  case Cls::GlobalLoad:
  case Cls::GlobalStore: {
    if (node.memIndex < 0) { // shuffles
      instr.slots = 1;
      break;
    }
    const MemAccess &access = prog.mems[node.memIndex];
    int64_t addrs[kLanes];
    bool addressed = laneAddresses(node, access, addrs);
    uint32_t laneMask = mask;
    if (access.ldmatrixTiles) {
      unsigned rows = 8 * access.ldmatrixTiles;
      laneMask = rows >= kLanes ? ~0u : ((1u << rows) - 1);
    }
    if (node.cls == Cls::Shared) {
      SharedAccessCost cost;
      if (addressed) {
        cost = sharedAccessCost(addrs, laneMask, access.accessBytes,
                                sim.sharedBanks, sim.sharedBankBytes);
      } else {
        // Unknown addresses: assume conflict-free.
        int64_t dense[kLanes];
        for (unsigned l = 0; l < kLanes; ++l)
          dense[l] = int64_t(l) * access.accessBytes;
        cost = sharedAccessCost(dense, laneMask, access.accessBytes,
                                sim.sharedBanks, sim.sharedBankBytes);
      }
      instr.slots = std::max(1u, cost.wavefronts);
      stats.bankConflicts += cost.wavefronts - cost.idealWavefronts;
      stats.sharedWavefronts += cost.wavefronts;
    } else if (node.cls == Cls::Local) {
      instr.slots = std::max(1u, (access.accessBytes + 15) / 16);
    } else {
      unsigned sectors;
      unsigned fresh = 0;
      if (addressed) {
        sectors = globalSectors(addrs, laneMask, access.accessBytes);
        SmallVector<int64_t, 64> ids;
        for (unsigned l = 0; l < kLanes; ++l) {
          if (!((laneMask >> l) & 1))
            continue;
          for (int64_t s = llvm::divideFloorSigned(addrs[l], 32);
               s <= llvm::divideFloorSigned(addrs[l] + access.accessBytes - 1,
                                            32);
               ++s)
            if (touched.insert(s).second)
              ++fresh;
        }
      } else {
        sectors = std::max(1u, (active * access.accessBytes + 31) / 32);
        fresh = sectors;
      }
      instr.bytes = uint64_t(sectors) * 32;
      instr.missFraction =
          sectors ? uint8_t(std::min(255u, fresh * 255 / sectors)) : 0;
      // Stores do not see DRAM latency.
      if (node.cls == Cls::GlobalStore)
        instr.missFraction = 0;
      stats.globalBytes += double(instr.bytes);
    }
    break;
  }
  case Cls::Barrier: {
    // Named barrier: its id and the warps it waits for (0: all live).
    instr.slots = 0;
    if (node.barrierOperand >= 0 && known[node.operands[node.barrierOperand]])
      instr.barrier = lane(node.operands[node.barrierOperand], 0);
    if (node.aux >= 0 && known[node.operands[node.aux]])
      instr.slots = uint32_t(
          std::max<int64_t>(lane(node.operands[node.aux], 0) / 32, 1));
    break;
  }
  case Cls::TMA: {
    instr.bytes = uint64_t(std::max<int64_t>(node.aux, 0));
    int32_t bar = node.operands[node.barrierOperand];
    instr.barrier = known[bar] ? lane(bar, llvm::countr_zero(mask)) : 0;
    stats.globalBytes += double(instr.bytes);
    break;
  }
  case Cls::MbarInit:
  case Cls::MbarArrive:
  case Cls::MbarWait: {
    int32_t bar = node.operands[node.barrierOperand];
    instr.barrier = known[bar] ? lane(bar, llvm::countr_zero(mask)) : 0;
    if (node.cls == Cls::MbarInit) {
      instr.slots = 1;
      if (node.aux > 0 && known[node.operands[node.aux]])
        instr.slots = uint32_t(std::max<int64_t>(
            lane(node.operands[node.aux], 0), 1));
    } else if (node.cls == Cls::MbarArrive) {
      instr.slots = active;
      if (node.aux > 0 && known[node.operands[node.aux]])
        instr.bytes = uint64_t(std::max<int64_t>(
                          lane(node.operands[node.aux], 0), 0)) *
                      active;
    }
    break;
  }
  default:
    break;
  }
  // A wgmma wait depends on the warp's last tensor instruction.
  if (node.source && node.cls == Cls::ALU &&
      node.source->getName().getStringRef().starts_with("nvvm.wgmma.wait"))
    producers.add(lastTensor);
  int32_t index = int32_t(out->size());
  for (int32_t id : producers.ids)
    if (id >= 0)
      instr.deps[instr.numDeps++] = id;
  out->push_back(instr);
  if (node.cls == Cls::Tensor)
    lastTensor = index;
  for (int32_t result : node.results) {
    deps[result] = DepSet();
    deps[result].add(index);
  }
}

//===----------------------------------------------------------------------===//
// Timing model
//===----------------------------------------------------------------------===//

/// Result of simulating the CTAs resident on one SM.
struct SMResult {
  uint64_t cycles = 0;
  PipeCounts pipes;
  StallBreakdown stalls;
  InterpStats interp;
  double activeWarpCycles = 0;
  bool deadlock = false;
};

enum class Reason : uint8_t { Issue, Dependency, Memory, Barrier, PipeBusy,
                              NotSelected, Done };

static StringRef reasonName(Reason reason) {
  switch (reason) {
  case Reason::Issue:
    return "issue";
  case Reason::Dependency:
    return "stall: dependency";
  case Reason::Memory:
    return "stall: memory";
  case Reason::Barrier:
    return "barrier";
  case Reason::PipeBusy:
    return "stall: pipe busy";
  case Reason::NotSelected:
    return "ready (not selected)";
  case Reason::Done:
    return "done";
  }
  return "";
}

class SMModel {
public:
  SMModel(const HardwareProfile &profile, double memBytesPerCycle,
          unsigned warpsPerCTA, TraceWriter *trace)
      : profile(profile), sim(profile.simulator),
        memBytesPerCycle(memBytesPerCycle), warpsPerCTA(warpsPerCTA),
        trace(trace) {}

  SMResult run(std::vector<std::vector<Instr>> &streams);

private:
  struct Phase {
    unsigned arrivals = 0;
    uint64_t expectedTx = 0, receivedTx = 0;
    uint64_t complete = 0;
    bool sealed = false;
  };
  struct MBarrier {
    unsigned count = 1;
    std::vector<Phase> phases;
  };
  struct Warp {
    std::vector<Instr> *stream = nullptr;
    std::vector<uint64_t> done;
    size_t pc = 0;
    unsigned scheduler = 0, cta = 0;
    uint64_t readyAt = 0;
    bool atBarrier = false, finished = false;
    /// The block barrier this warp waits at.
    int64_t barrierId = 0;
    llvm::DenseMap<int64_t, unsigned> waits;
    /// Phases this warp arrived on and that are still open.
    SmallVector<std::pair<unsigned, int64_t>, 2> openPhases;
    Reason state = Reason::Issue;
    uint64_t stateSince = 0;
  };
  struct CTA {
    unsigned live = 0;
    /// Warps waiting at each block barrier (bar.sync id), and how many it
    /// waits for (0: every live warp).
    llvm::DenseMap<int64_t, std::pair<unsigned, unsigned>> arrived;
    llvm::DenseMap<int64_t, MBarrier> barriers;
  };

  /// Whether warp \p w can issue at \p now; otherwise why and when it may.
  Reason check(Warp &w, uint64_t now, uint64_t &wake);
  void issueOne(Warp &w, unsigned index, uint64_t now);
  void trySeal(Phase &phase, unsigned count) {
    if (!phase.sealed && phase.arrivals >= count &&
        phase.receivedTx >= phase.expectedTx)
      phase.sealed = true;
  }
  void sealOpen(Warp &w);
  void release(unsigned cta, int64_t barrier, uint64_t now);
  void finish(Warp &w, unsigned index, uint64_t now);
  void setState(Warp &w, unsigned index, Reason state, uint64_t now);

  const HardwareProfile &profile;
  const SimulatorParameters &sim;
  double memBytesPerCycle;
  unsigned warpsPerCTA;
  TraceWriter *trace;
  std::vector<Warp> warps;
  std::vector<CTA> ctas;
  std::vector<uint64_t> aluFree, sfuFree, tensorFree;
  uint64_t sharedFree = 0;
  double memFree = 0;
  /// Latest completion of any issued instruction (the SM drains them).
  uint64_t lastCompletion = 0;
  unsigned unfinished = 0;
  SMResult result;
};

void SMModel::setState(Warp &w, unsigned index, Reason state, uint64_t now) {
  if (!trace || w.state == state)
    return;
  if (now > w.stateSince && w.state != Reason::Done)
    trace->addSpan(w.cta, index % warpsPerCTA, reasonName(w.state),
                   w.state == Reason::Issue ? "issue" : "stall", w.stateSince,
                   now);
  w.state = state;
  w.stateSince = now;
}

Reason SMModel::check(Warp &w, uint64_t now, uint64_t &wake) {
  wake = kNever;
  if (w.atBarrier)
    return Reason::Barrier;
  if (now < w.readyAt) {
    wake = w.readyAt;
    return Reason::Dependency;
  }
  const Instr &instr = (*w.stream)[w.pc];
  uint64_t ready = 0;
  bool memoryDep = false;
  for (unsigned i = 0; i < instr.numDeps; ++i) {
    int32_t dep = instr.deps[i];
    if (dep < 0 || size_t(dep) >= w.pc)
      continue;
    if (w.done[dep] > ready) {
      ready = w.done[dep];
      memoryDep = isMemoryClass((*w.stream)[dep].cls);
    }
  }
  if (ready > now) {
    wake = ready;
    return memoryDep ? Reason::Memory : Reason::Dependency;
  }
  switch (instr.cls) {
  case Cls::MbarWait: {
    CTA &cta = ctas[w.cta];
    auto it = cta.barriers.find(instr.barrier);
    unsigned k = w.waits.lookup(instr.barrier);
    if (it == cta.barriers.end() || it->second.phases.size() <= k ||
        !it->second.phases[k].sealed)
      return Reason::Memory;
    uint64_t complete = it->second.phases[k].complete;
    if (complete > now) {
      wake = complete;
      return Reason::Memory;
    }
    return Reason::Issue;
  }
  case Cls::ALU:
    if (aluFree[w.scheduler] > now) {
      wake = aluFree[w.scheduler];
      return Reason::PipeBusy;
    }
    return Reason::Issue;
  case Cls::SFU:
    if (sfuFree[w.scheduler] > now) {
      wake = sfuFree[w.scheduler];
      return Reason::PipeBusy;
    }
    return Reason::Issue;
  case Cls::Tensor:
    if (tensorFree[w.scheduler] > now) {
      wake = tensorFree[w.scheduler];
      return Reason::PipeBusy;
    }
    return Reason::Issue;
  case Cls::Shared:
  case Cls::Local: {
    // The MIO queue holds a few instructions' worth of wavefronts.
    constexpr uint64_t queue = 16;
    if (sharedFree > now + queue) {
      wake = sharedFree - queue;
      return Reason::PipeBusy;
    }
    return Reason::Issue;
  }
  default:
    return Reason::Issue;
  }
}

void SMModel::sealOpen(Warp &w) {
  for (auto [cta, address] : w.openPhases) {
    MBarrier &bar = ctas[cta].barriers[address];
    if (!bar.phases.empty() && bar.phases.back().arrivals >= bar.count)
      bar.phases.back().sealed = true;
  }
  w.openPhases.clear();
}

void SMModel::release(unsigned ctaIndex, int64_t barrier, uint64_t now) {
  CTA &cta = ctas[ctaIndex];
  auto it = cta.arrived.find(barrier);
  if (it == cta.arrived.end())
    return;
  auto [count, expected] = it->second;
  if (count == 0 || count < (expected ? expected : cta.live))
    return;
  cta.arrived.erase(it);
  for (auto [i, w] : llvm::enumerate(warps))
    if (w.cta == ctaIndex && w.atBarrier && w.barrierId == barrier) {
      w.atBarrier = false;
      w.readyAt = now + sim.barrierLatency;
      if (w.pc == w.stream->size())
        finish(w, i, now + sim.barrierLatency);
    }
}

void SMModel::issueOne(Warp &w, unsigned index, uint64_t now) {
  const Instr &instr = (*w.stream)[w.pc];
  uint64_t complete = now + 1;
  unsigned s = w.scheduler;
  double lanesPerScheduler =
      profile.fp32TFlops * 1e6 /
      (2.0 * profile.smCount * profile.warpSchedulersPerSM *
       profile.boostClockMHz);
  uint64_t aluInterval = uint64_t(
      std::max(1.0, std::round(kLanes / std::max(lanesPerScheduler, 1.0))));
  switch (instr.cls) {
  case Cls::ALU: {
    uint64_t busy = aluInterval * instr.slots;
    aluFree[s] = now + busy;
    complete = now + busy - 1 + sim.aluLatency;
    ++result.pipes.alu;
    break;
  }
  case Cls::SFU: {
    uint64_t busy = uint64_t(kLanes / sim.sfuLanesPerScheduler) * instr.slots;
    sfuFree[s] = now + busy;
    complete = now + busy - 1 + sim.sfuLatency;
    ++result.pipes.sfu;
    break;
  }
  case Cls::Tensor: {
    double flopsPerCycle = profile.tensorTFlopsBF16 * 1e6 /
                           (double(profile.smCount) *
                            profile.warpSchedulersPerSM * profile.boostClockMHz);
    double efficiency =
        instr.wgmma ? sim.wgmmaEfficiency : sim.mmaSyncEfficiency;
    uint64_t busy = uint64_t(std::max(
        1.0, std::ceil(double(instr.bytes) / (flopsPerCycle * efficiency))));
    tensorFree[s] = now + busy;
    complete = now + std::max<uint64_t>(busy, sim.mmaLatency);
    ++result.pipes.tensor;
    break;
  }
  case Cls::Shared:
  case Cls::Local: {
    uint64_t start = std::max(now, sharedFree);
    sharedFree = start + instr.slots;
    complete = start + instr.slots + sim.sharedLatency - 1;
    ++result.pipes.shared;
    break;
  }
  case Cls::GlobalLoad:
  case Cls::GlobalStore: {
    double start = std::max(double(now), memFree);
    double transfer = double(instr.bytes) / memBytesPerCycle;
    memFree = start + transfer;
    double latency =
        sim.l2Latency + (double(sim.hbmLatency) - sim.l2Latency) *
                            instr.missFraction / 255.0;
    // A store completes (for the end of the kernel) when its bytes reach L2.
    complete = uint64_t(std::ceil(start + transfer + latency));
    ++result.pipes.global;
    break;
  }
  case Cls::TMA: {
    double start = std::max(double(now), memFree);
    double transfer = double(instr.bytes) / memBytesPerCycle;
    memFree = start + transfer;
    uint64_t arrival = uint64_t(std::ceil(start + transfer + sim.tmaLatency));
    MBarrier &bar = ctas[w.cta].barriers[instr.barrier];
    if (bar.phases.empty() || bar.phases.back().sealed)
      bar.phases.emplace_back();
    Phase &phase = bar.phases.back();
    phase.receivedTx += instr.bytes;
    phase.complete = std::max(phase.complete, arrival);
    trySeal(phase, bar.count);
    ++result.pipes.tma;
    break;
  }
  case Cls::MbarInit: {
    MBarrier &bar = ctas[w.cta].barriers[instr.barrier];
    bar.count = std::max(1u, instr.slots);
    bar.phases.clear();
    ++result.pipes.sync;
    break;
  }
  case Cls::MbarArrive: {
    MBarrier &bar = ctas[w.cta].barriers[instr.barrier];
    if (bar.phases.empty() || bar.phases.back().sealed)
      bar.phases.emplace_back();
    Phase &phase = bar.phases.back();
    phase.arrivals += instr.slots;
    phase.expectedTx += instr.bytes;
    phase.complete = std::max(phase.complete, now + 1);
    trySeal(phase, bar.count);
    if (!phase.sealed)
      w.openPhases.push_back({w.cta, instr.barrier});
    ++result.pipes.sync;
    break;
  }
  case Cls::MbarWait:
    sealOpen(w);
    ++w.waits[instr.barrier];
    ++result.pipes.sync;
    break;
  case Cls::Barrier:
    sealOpen(w);
    w.atBarrier = true;
    w.barrierId = instr.barrier;
    {
      auto &[count, expected] = ctas[w.cta].arrived[instr.barrier];
      ++count;
      expected = instr.slots;
    }
    ++result.pipes.sync;
    break;
  case Cls::None:
    break;
  }
  w.done[w.pc] = complete;
  lastCompletion = std::max(lastCompletion, complete);
  ++w.pc;
  w.readyAt = std::max(w.readyAt, now + 1);
  // A warp whose last instruction is bar.sync finishes on its release.
  if (w.pc == w.stream->size() && !w.atBarrier)
    finish(w, index, now + 1);
  if (instr.cls == Cls::Barrier) {
    release(w.cta, instr.barrier, now);
  } else if (w.finished) {
    // One fewer live warp: barriers of all live warps may now be complete.
    SmallVector<int64_t> ids;
    for (auto &[id, state] : ctas[w.cta].arrived)
      if (state.second == 0)
        ids.push_back(id);
    for (int64_t id : ids)
      release(w.cta, id, now);
  }
}

void SMModel::finish(Warp &w, unsigned index, uint64_t now) {
  w.finished = true;
  --unfinished;
  sealOpen(w);
  --ctas[w.cta].live;
  setState(w, index, Reason::Done, now);
}

SMResult SMModel::run(std::vector<std::vector<Instr>> &streams) {
  unsigned schedulers = std::max(1u, profile.warpSchedulersPerSM);
  aluFree.assign(schedulers, 0);
  sfuFree.assign(schedulers, 0);
  tensorFree.assign(schedulers, 0);
  unsigned numCTAs = (streams.size() + warpsPerCTA - 1) / warpsPerCTA;
  ctas.assign(numCTAs, CTA());
  warps.resize(streams.size());
  unfinished = 0;
  for (auto [i, stream] : llvm::enumerate(streams)) {
    Warp &w = warps[i];
    w.stream = &stream;
    w.done.assign(stream.size(), 0);
    w.cta = i / warpsPerCTA;
    w.scheduler = i % schedulers;
    if (trace)
      trace->addTrack(w.cta, i % warpsPerCTA,
                      ("warp " + Twine(i % warpsPerCTA)).str());
    if (stream.empty()) {
      w.finished = true;
      w.state = Reason::Done;
      continue;
    }
    ++ctas[w.cta].live;
    ++unfinished;
  }
  // Warp i belongs to scheduler i % schedulers.
  SmallVector<unsigned> lastIssued;
  for (unsigned s = 0; s < schedulers; ++s)
    lastIssued.push_back(s);
  SmallVector<Reason> reasons(warps.size(), Reason::Done);
  uint64_t now = 0;
  while (unfinished > 0) {
    bool issuedAny = false;
    uint64_t nextWake = kNever;
    for (unsigned s = 0; s < schedulers; ++s) {
      // Greedy-then-oldest: the last issued warp first, then by age.
      bool issued = false;
      auto consider = [&](unsigned i) {
        Warp &w = warps[i];
        if (w.finished) {
          reasons[i] = Reason::Done;
          return;
        }
        uint64_t wake;
        Reason reason = check(w, now, wake);
        if (reason == Reason::Issue) {
          if (issued) {
            reasons[i] = Reason::NotSelected;
            nextWake = std::min(nextWake, now + 1);
            return;
          }
          issued = true;
          reasons[i] = Reason::Issue;
          lastIssued[s] = i;
          setState(w, i, Reason::Issue, now);
          issueOne(w, i, now);
          return;
        }
        reasons[i] = reason;
        nextWake = std::min(nextWake, wake);
      };
      if (lastIssued[s] < warps.size())
        consider(lastIssued[s]);
      for (unsigned i = s; i < warps.size(); i += schedulers)
        if (i != lastIssued[s])
          consider(i);
      issuedAny |= issued;
    }
    uint64_t step = 1;
    if (!issuedAny) {
      if (nextWake == kNever) {
        // Nothing can ever issue (an mbarrier phase that never completes,
        // a barrier some warps never reach): release everything.
        result.deadlock = true;
        for (auto [i, w] : llvm::enumerate(warps)) {
          if (w.finished)
            continue;
          w.atBarrier = false;
          if (w.pc == w.stream->size()) {
            finish(w, i, now);
            continue;
          }
          const Instr &instr = (*w.stream)[w.pc];
          if (instr.cls == Cls::MbarWait) {
            MBarrier &bar = ctas[w.cta].barriers[instr.barrier];
            unsigned k = w.waits.lookup(instr.barrier);
            while (bar.phases.size() <= k)
              bar.phases.emplace_back();
            bar.phases[k].sealed = true;
            bar.phases[k].complete = std::min(bar.phases[k].complete, now);
          }
        }
        for (CTA &cta : ctas)
          cta.arrived.clear();
        continue;
      }
      step = std::max<uint64_t>(nextWake - now, 1);
    }
    for (auto [i, w] : llvm::enumerate(warps)) {
      if (w.finished && reasons[i] != Reason::Issue)
        continue;
      result.activeWarpCycles += double(step);
      Reason reason = reasons[i];
      if (reason != Reason::Issue)
        setState(w, i, reason, now);
      uint64_t stalled = reason == Reason::Issue ? step - 1 : step;
      switch (reason) {
      case Reason::Dependency:
        result.stalls.dependency += stalled;
        break;
      case Reason::Memory:
        result.stalls.memory += stalled;
        break;
      case Reason::Barrier:
        result.stalls.barrier += stalled;
        break;
      case Reason::PipeBusy:
        result.stalls.pipeBusy += stalled;
        break;
      case Reason::NotSelected:
        result.stalls.notSelected += stalled;
        break;
      default:
        break;
      }
    }
    now += step;
  }
  result.cycles = std::max(now, lastCompletion);
  if (trace)
    for (auto [i, w] : llvm::enumerate(warps))
      setState(w, i, Reason::Done, now);
  return result;
}

} // namespace

//===----------------------------------------------------------------------===//
// Register estimate
//===----------------------------------------------------------------------===//

/// Peak number of live 32-bit registers over a pre-order walk of \p kernel.
/// A value lives from its definition to its last use; a use inside a loop
/// that does not contain the definition keeps it live to the loop's end.
/// Constants are immediates and take no register.
static unsigned peakLiveRegisters(gpu::GPUFuncOp kernel) {
  llvm::DenseMap<Operation *, unsigned> position, regionEnd;
  unsigned counter = 0;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    position[op] = counter++;
  });
  // Post-order: nested ops are done first.
  kernel.walk<WalkOrder::PostOrder>([&](Operation *op) {
    unsigned end = position[op];
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &inner : block)
          end = std::max(end, regionEnd[&inner]);
    regionEnd[op] = end;
  });
  std::vector<std::pair<unsigned, int>> events;
  auto addValue = [&](Value value, unsigned defPos, Operation *defScope) {
    if (value.getDefiningOp() &&
        value.getDefiningOp()->hasTrait<OpTrait::ConstantLike>())
      return;
    Type type = value.getType();
    if (isa<MemRefType>(type))
      return;
    unsigned regs = (typeBits(type) + 31) / 32;
    unsigned last = defPos;
    for (Operation *user : value.getUsers()) {
      unsigned use = position.lookup(user);
      // Extend through loops that contain the use but not the definition.
      for (Operation *loop = user->getParentOp(); loop && loop != defScope;
           loop = loop->getParentOp())
        if (isa<scf::ForOp, scf::WhileOp>(loop) &&
            !(defScope && loop->isAncestor(defScope)))
          use = std::max(use, regionEnd.lookup(loop));
      last = std::max(last, use);
    }
    events.push_back({defPos, int(regs)});
    events.push_back({last + 1, -int(regs)});
  };
  kernel.walk([&](Operation *op) {
    for (Value result : op->getResults())
      addValue(result, position[op], op->getParentOp());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          addValue(arg, position[op], op);
  });
  llvm::sort(events, [](auto a, auto b) {
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  });
  int live = 0, peak = 0;
  for (auto [pos, delta] : events) {
    live += delta;
    peak = std::max(peak, live);
  }
  return unsigned(std::max(peak, 0));
}

//===----------------------------------------------------------------------===//
// Simulator
//===----------------------------------------------------------------------===//

struct Simulator::Impl {
  gpu::GPUFuncOp kernel;
  const HardwareProfile &profile;
  Metadata meta;
  Program program;
  bool remarked = false;
};

Simulator::Simulator(gpu::GPUFuncOp kernel, const HardwareProfile &profile)
    : impl(new Impl{kernel, profile, readMetadata(kernel), Program()}) {
  Compiler(impl->program, impl->meta).compile(kernel);
}

Simulator::~Simulator() = default;

unsigned Simulator::estimateRegisters() const {
  // Reserve: stack pointer, predicates, addresses the IR does not show.
  unsigned estimate = peakLiveRegisters(impl->kernel) + 16;
  unsigned cap = std::max(16u, impl->profile.maxRegistersPerThread);
  return unsigned(std::clamp<uint64_t>(llvm::alignTo(estimate, 8), 16, cap));
}

/// Value of launch-metadata term \p term: an integer or a named size.
static FailureOr<int64_t> termValue(StringRef term, StringRef use,
                                    const LaunchOptions &launch,
                                    gpu::GPUFuncOp kernel) {
  int64_t value;
  if (!term.getAsInteger(10, value))
    return value;
  auto it = launch.sizes.find(term);
  if (it == launch.sizes.end())
    return kernel.emitError() << "missing size of dimension '" << term
                              << "' (used by " << use << " of kernel '"
                              << kernel.getName() << "'); bind it with shapes="
                              << term << "=<size>";
  return it->second;
}

FailureOr<SimulationReport> Simulator::run(const LaunchOptions &launch,
                                           TraceWriter *trace) {
  auto hostStart = std::chrono::steady_clock::now();
  gpu::GPUFuncOp kernel = impl->kernel;
  const HardwareProfile &profile = impl->profile;
  const Metadata &meta = impl->meta;
  Program &prog = impl->program;
  SimulationReport report;
  report.kernel = kernel.getName().str();
  report.profile = profile.name;

  // Unknown ops are reported once per simulator.
  if (!impl->remarked) {
    impl->remarked = true;
    for (const Node &node : prog.nodes)
      if (node.source &&
          prog.unknownOps.contains(node.source->getName().getStringRef())) {
        node.source->emitRemark()
            << "simulator: '" << node.source->getName()
            << "' is not modelled; counted as one ALU instruction";
        prog.unknownOps.erase(node.source->getName().getStringRef());
      }
  }

  // --- Launch shape.
  LaunchShape shape;
  if (auto known = kernel.getKnownBlockSize()) {
    for (unsigned i = 0; i < 3 && i < known->size(); ++i)
      shape.block[i] = (*known)[i];
  } else if (meta.present && meta.block[0] > 0) {
    shape.block = meta.block;
  } else {
    return kernel.emitError()
           << "kernel '" << kernel.getName()
           << "' has no known_block_size and no launch metadata";
  }
  if (launch.grid[0] > 0) {
    shape.grid = launch.grid;
    for (int64_t &dim : shape.grid)
      dim = std::max<int64_t>(dim, 1);
  } else if (meta.present) {
    int64_t gridX = meta.gridX.empty() ? 1 : 0;
    for (const std::string &term : meta.gridX) {
      FailureOr<int64_t> value = termValue(term, "grid.x", launch, kernel);
      if (failed(value))
        return failure();
      gridX = std::max(gridX, *value);
    }
    int64_t gridY = 1;
    for (const std::string &term : meta.gridY) {
      FailureOr<int64_t> value = termValue(term, "grid.y", launch, kernel);
      if (failed(value))
        return failure();
      gridY *= *value;
    }
    shape.grid = {gridX, gridY, 1};
  } else {
    return kernel.emitError()
           << "kernel '" << kernel.getName()
           << "' has no launch metadata; pass its grid with grid=x,y,z";
  }
  // Parameters with known contents, and integer scalars with known values
  // (a switch such as `boundaries=0`: the branches it decides run one side).
  for (const auto &entry : launch.data) {
    auto named = llvm::find_if(meta.args, [&](const Metadata::Arg &arg) {
      return (arg.kind == "ptr" || arg.kind == "scalar") &&
             arg.name == entry.getKey();
    });
    if (named == meta.args.end())
      return kernel.emitError()
             << "data given for '" << entry.getKey() << "', which is not a "
             << "tensor or scalar parameter of kernel '" << kernel.getName()
             << "'";
    size_t index = named - meta.args.begin();
    if (named->kind == "scalar") {
      if (entry.getValue().size() != 1 || index >= kernel.getNumArguments() ||
          !kernel.getArgument(index).getType().isIntOrIndex())
        return kernel.emitError()
               << "data for scalar parameter '" << entry.getKey()
               << "' of kernel '" << kernel.getName()
               << "' must be one integer, for an integer parameter";
      prog.argumentValues[index] = entry.getValue().front();
      continue;
    }
    shape.data[index] = &entry.getValue();
  }
  // Kernel parameters that hold sizes.
  for (auto [i, arg] : llvm::enumerate(meta.args)) {
    if (arg.kind != "dim" || i >= kernel.getNumArguments())
      continue;
    FailureOr<int64_t> value = termValue(arg.name, "an 'arg dim' parameter",
                                         launch, kernel);
    if (failed(value))
      return failure();
    prog.argumentValues[i] = *value;
  }
  report.grid = shape.grid;
  report.block = shape.block;
  report.ctas = shape.grid[0] * shape.grid[1] * shape.grid[2];
  int64_t threads = shape.block[0] * shape.block[1] * shape.block[2];
  if (threads <= 0 || threads > profile.maxThreadsPerBlock)
    return kernel.emitError() << "kernel '" << kernel.getName() << "' has "
                              << threads << " threads per block; "
                              << profile.name << " allows "
                              << profile.maxThreadsPerBlock;
  unsigned warpsPerCTA = (threads + kLanes - 1) / kLanes;

  // --- Occupancy.
  int64_t dynamicShared =
      launch.dynamicSharedBytes >= 0 ? launch.dynamicSharedBytes : meta.smem;
  report.sharedBytesPerCTA = uint64_t(prog.staticSharedBytes + dynamicShared);
  if (report.sharedBytesPerCTA > profile.sharedMemoryPerBlockBytes())
    return kernel.emitError()
           << "kernel '" << kernel.getName() << "' needs "
           << report.sharedBytesPerCTA << " bytes of shared memory per CTA; "
           << profile.name << " allows " << profile.sharedMemoryPerBlockBytes()
           << " (occupancy 0)";
  report.registersEstimated = launch.registersPerThread == 0;
  report.registersPerThread = report.registersEstimated
                                  ? estimateRegisters()
                                  : launch.registersPerThread;
  if (report.registersPerThread > profile.maxRegistersPerThread)
    return kernel.emitError()
           << "kernel '" << kernel.getName() << "' uses "
           << report.registersPerThread << " registers per thread; "
           << profile.name << " allows " << profile.maxRegistersPerThread;
  // Registers are allocated per warp in units of 256.
  uint64_t regsPerWarp =
      llvm::alignTo(uint64_t(report.registersPerThread) * kLanes, 256);
  struct Limit {
    int64_t ctas;
    const char *name;
  };
  // Shared memory: the CUDA runtime reserves 1 KB per CTA.
  uint64_t sharedPerCTA = report.sharedBytesPerCTA + 1024;
  Limit limits[] = {
      {int64_t(profile.maxWarpsPerSM / warpsPerCTA), "warps"},
      {int64_t(profile.registersPerSM / (regsPerWarp * warpsPerCTA)),
       "registers"},
      {int64_t(profile.sharedMemoryPerSMBytes() / sharedPerCTA),
       "shared memory"},
      {32, "CTA slots"}};
  Limit tightest = limits[0];
  for (const Limit &limit : limits)
    if (limit.ctas < tightest.ctas)
      tightest = limit;
  report.ctasPerSM = unsigned(std::max<int64_t>(tightest.ctas, 0));
  report.occupancyLimiter = tightest.name;
  if (report.ctasPerSM == 0)
    return kernel.emitError()
           << "kernel '" << kernel.getName() << "' does not fit on one SM of "
           << profile.name << " (limited by " << tightest.name
           << "; occupancy 0)";
  report.theoreticalOccupancy =
      double(report.ctasPerSM * warpsPerCTA) / profile.maxWarpsPerSM;
  if (report.ctas == 0) {
    report.notes.push_back("empty grid: nothing runs");
    return report;
  }

  // --- Memory bandwidth per SM: the L2's bandwidth shared by the SMs that
  // have work, capped by one SM's port.
  int64_t activeSMs = std::min<int64_t>(profile.smCount, report.ctas);
  double clockMHz = profile.boostClockMHz;
  double l2BytesPerCycle = profile.l2BandwidthGBps * 1e3 / clockMHz;
  double memBytesPerCycle = std::min(l2BytesPerCycle / double(activeSMs),
                                     profile.simulator.l2BytesPerCyclePerSM);

  // --- Simulate the SM for a number of resident CTAs (cached).
  int64_t ctasPerWave = int64_t(profile.smCount) * report.ctasPerSM;
  report.waves = (report.ctas + ctasPerWave - 1) / ctasPerWave;
  int64_t firstResident = std::min<int64_t>(
      report.ctasPerSM, (report.ctas + profile.smCount - 1) / profile.smCount);
  report.residentCTAs = unsigned(firstResident);

  // Budget of instructions per warp stream before loops are sampled.
  constexpr size_t kStreamBudget = size_t(48) << 20;
  size_t perWarpBudget =
      std::max<size_t>(kStreamBudget / (size_t(warpsPerCTA) * firstResident),
                       size_t(1) << 16);
  auto simulate = [&](unsigned resident, int64_t cap, TraceWriter *tw,
                      bool &overBudget) {
    std::vector<std::vector<Instr>> streams(size_t(resident) * warpsPerCTA);
    InterpStats stats;
    llvm::DenseSet<int64_t> touched;
    WarpInterpreter interp(prog, profile, shape, stats, touched);
    for (unsigned c = 0; c < resident; ++c) {
      // The SM's CTAs: blocks are handed out round-robin over the SMs.
      int64_t cta = std::min<int64_t>(int64_t(c) * profile.smCount,
                                      report.ctas - 1);
      for (unsigned w = 0; w < warpsPerCTA; ++w)
        interp.run(cta, w, cap, perWarpBudget,
                   streams[size_t(c) * warpsPerCTA + w]);
    }
    overBudget = stats.overBudget;
    SMResult result;
    if (!overBudget) {
      SMModel model(profile, memBytesPerCycle, warpsPerCTA, tw);
      result = model.run(streams);
    }
    result.interp = stats;
    return result;
  };

  // Combines runs at cap and 2 * cap into an estimate for the full trip
  // count: linear in the number of trips.
  int64_t cap = launch.maxTripCount;
  bool overBudget = false;
  SMResult first = simulate(unsigned(firstResident), cap, trace, overBudget);
  if (overBudget) {
    cap = 32;
    first = simulate(unsigned(firstResident), cap, trace, overBudget);
    if (overBudget)
      return kernel.emitError()
             << "kernel '" << kernel.getName()
             << "' is too long to simulate even with loops sampled at " << cap
             << " trips; pass a smaller max-trip-count";
  }
  auto extrapolate = [&](unsigned resident, SMResult base) {
    int64_t full = base.interp.cappedTripCount;
    if (full == 0 || cap <= 0)
      return base;
    bool unused = false;
    SMResult twice = simulate(resident, 2 * cap, nullptr, unused);
    double scale = double(full - cap) / double(cap);
    auto lin = [&](double a, double b) {
      return std::max(0.0, a + (b - a) * scale);
    };
    auto linU = [&](uint64_t a, uint64_t b) {
      return uint64_t(std::llround(lin(double(a), double(b))));
    };
    SMResult out = base;
    out.cycles = linU(base.cycles, twice.cycles);
    out.activeWarpCycles = lin(base.activeWarpCycles, twice.activeWarpCycles);
#define KDA2_LIN(field) out.field = linU(base.field, twice.field)
    KDA2_LIN(pipes.alu); KDA2_LIN(pipes.sfu); KDA2_LIN(pipes.tensor);
    KDA2_LIN(pipes.shared); KDA2_LIN(pipes.global); KDA2_LIN(pipes.tma);
    KDA2_LIN(pipes.sync);
    KDA2_LIN(stalls.dependency); KDA2_LIN(stalls.memory);
    KDA2_LIN(stalls.barrier); KDA2_LIN(stalls.pipeBusy);
    KDA2_LIN(stalls.notSelected);
    KDA2_LIN(interp.bankConflicts); KDA2_LIN(interp.sharedWavefronts);
#undef KDA2_LIN
    out.interp.globalBytes =
        lin(base.interp.globalBytes, twice.interp.globalBytes);
    return out;
  };
  SMResult firstWave = extrapolate(unsigned(firstResident), first);
  if (first.interp.cappedTripCount > 0)
    report.notes.push_back(
        ("loops longer than " + Twine(cap) + " trips (longest " +
         Twine(first.interp.cappedTripCount) + ") simulated for " + Twine(cap) +
         " and " + Twine(2 * cap) + " trips and extrapolated linearly")
            .str());
  uint64_t cycles = firstWave.cycles;
  if (report.waves > 1) {
    // Full waves, then the tail wave with its own residency.
    int64_t tail = report.ctas - (report.waves - 1) * ctasPerWave;
    int64_t tailResident = (tail + profile.smCount - 1) / profile.smCount;
    SMResult full = firstWave;
    if (firstResident != int64_t(report.ctasPerSM)) {
      bool unused = false;
      full = extrapolate(report.ctasPerSM,
                         simulate(report.ctasPerSM, cap, nullptr, unused));
    }
    uint64_t tailCycles = full.cycles;
    if (tailResident != int64_t(report.ctasPerSM)) {
      bool unused = false;
      tailCycles = extrapolate(unsigned(tailResident),
                               simulate(unsigned(tailResident), cap, nullptr,
                                        unused))
                       .cycles;
    }
    // The GPU starts a CTA whenever one ends, so the waves overlap: the
    // grid takes (CTAs / CTAs per wave) full-wave times, but no less than
    // the full waves and the tail one after another would with the tail's
    // residency faster.
    double fractional = double(report.ctas) / double(ctasPerWave);
    uint64_t overlapped = uint64_t(double(full.cycles) * fractional);
    cycles = std::min(full.cycles * uint64_t(report.waves - 1) + tailCycles,
                      std::max(overlapped, full.cycles));
  }

  // --- Whole-grid figures.
  double perCTA = 1.0 / double(firstResident);
  double ctas = double(report.ctas);
  report.cycles = cycles;
  report.smPipes = firstWave.pipes;
  report.smStalls = firstWave.stalls;
  report.smBankConflicts = firstWave.interp.bankConflicts;
  report.instructions =
      uint64_t(std::llround(double(firstWave.pipes.total()) * perCTA * ctas));
  report.bankConflicts = uint64_t(
      std::llround(double(firstWave.interp.bankConflicts) * perCTA * ctas));
  report.sharedWavefronts = uint64_t(
      std::llround(double(firstWave.interp.sharedWavefronts) * perCTA * ctas));
  report.globalBytes = firstWave.interp.globalBytes * perCTA * ctas;
  // DRAM traffic: at most the bytes requested, at most the footprint of the
  // kernel's tensors (each byte crosses from HBM once when L2 keeps it).
  double footprint = 0;
  bool footprintKnown = false;
  for (const Metadata::Arg &arg : meta.args) {
    if (arg.kind != "ptr")
      continue;
    double elements = 1;
    bool ok = true;
    for (const std::string &dim : arg.dims) {
      int64_t value;
      if (!StringRef(dim).getAsInteger(10, value))
        elements *= double(value);
      else if (auto it = launch.sizes.find(dim); it != launch.sizes.end())
        elements *= double(it->second);
      else
        ok = false;
    }
    if (ok) {
      footprint += elements * dtypeBytes(arg.dtype);
      footprintKnown = true;
    }
  }
  report.dramBytes = footprintKnown
                         ? std::min(report.globalBytes, footprint)
                         : report.globalBytes;
  report.computeMicros = double(cycles) / clockMHz;
  report.l2Micros = report.globalBytes / (profile.l2BandwidthGBps * 1e3);
  report.dramMicros = report.dramBytes / (profile.hbmBandwidthGBps * 1e3);
  report.predictedMicros = report.computeMicros;
  report.bound = "latency/issue (simulated SM)";
  if (report.l2Micros > report.predictedMicros)
    report.predictedMicros = report.l2Micros, report.bound = "L2 bandwidth";
  if (report.dramMicros > report.predictedMicros)
    report.predictedMicros = report.dramMicros, report.bound = "DRAM bandwidth";
  report.l2Utilisation =
      report.predictedMicros > 0
          ? report.globalBytes /
                (report.predictedMicros * profile.l2BandwidthGBps * 1e3)
          : 0;
  report.achievedOccupancy =
      firstWave.cycles > 0
          ? firstWave.activeWarpCycles /
                (double(firstWave.cycles) * profile.maxWarpsPerSM)
          : 0;

  if (first.interp.unknownTripCounts)
    report.notes.push_back(
        (Twine(first.interp.unknownTripCounts) +
         " loop executions with data-dependent bounds ran one trip")
            .str());
  if (first.interp.unknownBranches)
    report.notes.push_back((Twine(first.interp.unknownBranches) +
                            " data-dependent branches ran both sides")
                               .str());
  if (first.deadlock)
    report.notes.push_back("some warps waited on a barrier or mbarrier phase "
                           "that never completes; released");
  if (trace && trace->droppedSpans())
    report.notes.push_back(("trace truncated: " +
                            Twine(trace->droppedSpans()) + " spans dropped")
                               .str());

  report.hostSeconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - hostStart)
                           .count();
  report.cyclesPerHostSecond =
      report.hostSeconds > 0 ? double(firstWave.cycles) / report.hostSeconds
                             : 0;
  return report;
}

//===----------------------------------------------------------------------===//
// Report
//===----------------------------------------------------------------------===//

void SimulationReport::print(raw_ostream &os) const {
  os << "simulator: @" << kernel << " on " << profile << "\n";
  os << "  grid: " << grid[0] << "x" << grid[1] << "x" << grid[2] << " ("
     << ctas << " CTAs), block: " << block[0] << "x" << block[1] << "x"
     << block[2] << "\n";
  os << "  registers/thread: " << registersPerThread
     << (registersEstimated ? " (estimated)" : " (given)") << "\n";
  os << "  shared memory/CTA: " << sharedBytesPerCTA << " B\n";
  os << "  CTAs/SM: " << ctasPerSM << " (limited by " << occupancyLimiter
     << "), theoretical occupancy: "
     << llvm::format("%.3f", theoreticalOccupancy) << "\n";
  os << "  waves: " << waves << " (" << residentCTAs
     << " CTAs resident on the simulated SM)\n";
  os << "  predicted time: " << llvm::format("%.2f", predictedMicros)
     << " us (bound: " << bound << ")\n";
  os << "  time: compute " << llvm::format("%.2f", computeMicros) << " us, L2 "
     << llvm::format("%.2f", l2Micros) << " us, DRAM "
     << llvm::format("%.2f", dramMicros) << " us\n";
  os << "  cycles: " << cycles << "\n";
  os << "  instructions issued: " << instructions << " (simulated SM: "
     << smPipes.total() << ")\n";
  os << "  pipes (simulated SM): alu " << smPipes.alu << ", sfu " << smPipes.sfu
     << ", tensor " << smPipes.tensor << ", shared " << smPipes.shared
     << ", global " << smPipes.global << ", tma " << smPipes.tma << ", sync "
     << smPipes.sync << "\n";
  os << "  bank conflicts: " << bankConflicts << " extra wavefronts of "
     << sharedWavefronts << " (simulated SM: " << smBankConflicts << ")\n";
  os << "  global memory: " << llvm::format("%.0f", globalBytes)
     << " B requested, " << llvm::format("%.0f", dramBytes) << " B DRAM\n";
  os << "  L2 bandwidth utilisation: " << llvm::format("%.3f", l2Utilisation)
     << "\n";
  os << "  achieved occupancy: " << llvm::format("%.3f", achievedOccupancy)
     << "\n";
  os << "  stalls (warp-cycles, simulated SM): dependency "
     << smStalls.dependency << ", memory " << smStalls.memory << ", barrier "
     << smStalls.barrier << ", pipe busy " << smStalls.pipeBusy
     << ", not selected " << smStalls.notSelected << "\n";
  for (const std::string &note : notes)
    os << "  note: " << note << "\n";
}
