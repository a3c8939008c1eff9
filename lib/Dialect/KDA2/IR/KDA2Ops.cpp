//===- KDA2Ops.cpp - kda2 operations ---------------------------*- C++ -*-===//
//
// Builders, custom assembly and verifiers of the kda2 operations. The kernel
// verifier enforces the .tirx rules: a kernel body holds layout
// declarations, schedule loops and constants only, and has at least one of
// each element kind (layout declaration, schedule, constraint annotation).
//
//===----------------------------------------------------------------------===//

#include "kda2/Dialect/KDA2/IR/KDA2.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::kda2;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>>
mlir::kda2::getLayoutPermutation(Layout layout, unsigned rank) {
  auto identity = [&]() {
    return llvm::to_vector(llvm::seq<int64_t>(0, rank));
  };
  switch (layout) {
  case Layout::row_major:
    return identity();
  case Layout::BHSD:
    if (rank != 4)
      return std::nullopt;
    return identity();
  case Layout::BSHD:
    if (rank != 4)
      return std::nullopt;
    return SmallVector<int64_t>{0, 2, 1, 3};
  case Layout::BHS:
    if (rank != 3)
      return std::nullopt;
    return identity();
  case Layout::BSH:
    if (rank != 3)
      return std::nullopt;
    return SmallVector<int64_t>{0, 2, 1};
  case Layout::KV:
    if (rank < 2)
      return std::nullopt;
    return identity();
  case Layout::VK: {
    if (rank < 2)
      return std::nullopt;
    SmallVector<int64_t> perm = identity();
    std::swap(perm[rank - 2], perm[rank - 1]);
    return perm;
  }
  }
  return std::nullopt;
}

unsigned mlir::kda2::getImplicitGridRank(KDA2TensorType tensor, KernelOp kernel) {
  if (!kernel || tensor.getMemorySpace() != MemorySpace::gmem)
    return 0;
  ArrayAttr grid = kernel.getGridAttr();
  if (!grid)
    return 0;
  // The leading dimensions that are grid dimensions, in grid order.
  unsigned implicit = 0;
  for (auto name : grid.getAsRange<StringAttr>())
    if (implicit < tensor.getRank() &&
        tensor.getDimName(implicit) == name.getValue())
      ++implicit;
  return implicit;
}

Type mlir::kda2::getAccessType(KDA2TensorType tensor, unsigned gridRank,
                               unsigned numIndices) {
  if (gridRank + numIndices > tensor.getRank())
    return {};
  ArrayRef<int64_t> rest = tensor.getShape().drop_front(gridRank + numIndices);
  if (rest.empty())
    return tensor.getElementType();
  return RankedTensorType::get(rest, tensor.getElementType());
}

/// The shape of a tile type, or std::nullopt for a scalar.
/// The ways an mma register tile spreads over the block's warps.
static bool isMmaSplit(StringRef split) {
  return split == "rows" || split == "cols" || split == "none" ||
         split == "gather";
}

static std::optional<ArrayRef<int64_t>> tileShape(Type type) {
  if (auto tile = dyn_cast<RankedTensorType>(type))
    return tile.getShape();
  return std::nullopt;
}

/// True when two tile shapes agree in rank and in every static size.
static bool compatibleShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b))
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return false;
  return true;
}

/// Verifies element-wise operands under scalar-over-tile broadcasting and
/// that `result` is the broadcast type with element type `resultElement`
/// (the operands' own element type when null).
static LogicalResult verifyElementwise(Operation *op, ArrayRef<Type> operands,
                                       Type result,
                                       Type resultElement = nullptr) {
  Type element = getElementTypeOrSelf(operands.front());
  std::optional<ArrayRef<int64_t>> shape;
  for (Type type : operands) {
    if (getElementTypeOrSelf(type) != element)
      return op->emitOpError() << "operand element types differ: " << element
                               << " vs " << getElementTypeOrSelf(type);
    std::optional<ArrayRef<int64_t>> other = tileShape(type);
    if (!other)
      continue;
    if (shape && !compatibleShapes(*shape, *other))
      return op->emitOpError() << "operand tiles have incompatible shapes";
    if (!shape)
      shape = other;
  }
  if (!resultElement)
    resultElement = element;
  Type expected = shape ? Type(RankedTensorType::get(*shape, resultElement))
                        : resultElement;
  std::optional<ArrayRef<int64_t>> resultShape = tileShape(result);
  bool ok = getElementTypeOrSelf(result) == resultElement &&
            resultShape.has_value() == shape.has_value() &&
            (!shape || compatibleShapes(*shape, *resultShape));
  if (!ok)
    return op->emitOpError() << "expected result type " << expected
                             << ", got " << result;
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Type argType : type.getInputs())
    block->addArgument(argType, state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  ReturnOp::create(builder, state.location);
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  if (function_interface_impl::parseFunctionOp(
          parser, result, /*allowVariadic=*/false,
          getFunctionTypeAttrName(result.name), buildFuncType,
          getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name)))
    return failure();
  Region &body = *result.regions.front();
  if (body.empty())
    return parser.emitError(parser.getCurrentLocation(),
                            "expected a kernel body");
  ensureTerminator(body, parser.getBuilder(), result.location);
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

/// Names each argument of `region`'s entry block after the NameLoc it
/// carries, so imported IR reads `%q` instead of `%arg0`.
static void nameArgumentsFromLocations(Region &region,
                                       OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  for (BlockArgument arg : region.front().getArguments())
    if (auto name = dyn_cast<NameLoc>(arg.getLoc()))
      setNameFn(arg, name.getName().getValue());
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  ArrayAttr names = getArgNamesAttr();
  if (!names || region.empty() ||
      names.size() != region.front().getNumArguments())
    return nameArgumentsFromLocations(region, setNameFn);
  for (auto [arg, name] :
       llvm::zip(region.front().getArguments(), names.getAsRange<StringAttr>()))
    setNameFn(arg, name.getValue());
}

StringRef KernelOp::getArgName(unsigned i) {
  ArrayAttr names = getArgNamesAttr();
  if (names && i < names.size())
    return cast<StringAttr>(names[i]).getValue();
  return "";
}

void LoopOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setNameFn) {
  nameArgumentsFromLocations(region, setNameFn);
}

/// Names an allocation's result after the .tirx buffer (its NameLoc).
static void nameResultFromLocation(Operation *op,
                                   OpAsmSetValueNameFn setNameFn) {
  if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    setNameFn(op->getResult(0), name.getName().getValue());
}

void SmemAllocOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  nameResultFromLocation(*this, setNameFn);
}

void RegAllocOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  nameResultFromLocation(*this, setNameFn);
}

IOKind KernelOp::getArgIOKind(unsigned i) {
  if (auto kind = getArgAttrOfType<IOKindAttr>(i, KDA2Dialect::getIOAttrName()))
    return kind.getValue();
  return IOKind::in;
}

const HardwareProfile *KernelOp::getTargetProfile() {
  auto module = (*this)->getParentOfType<ModuleOp>();
  if (!module)
    return nullptr;
  auto name =
      module->getAttrOfType<StringAttr>(KDA2Dialect::getTargetAttrName());
  if (!name)
    return nullptr;
  auto *dialect = getContext()->getLoadedDialect<KDA2Dialect>();
  return dialect->getProfiles().lookup(name.getValue());
}

LogicalResult KernelOp::verify() {
  if (!getFunctionType().getResults().empty())
    return emitOpError() << "kernels return no values; outputs are arguments "
                            "marked {kda2.io = #kda2.io<out>}";
  if (ArrayAttr names = getArgNamesAttr()) {
    if (names.size() != getNumArguments())
      return emitOpError() << "arg_names lists " << names.size()
                           << " names for " << getNumArguments()
                           << " arguments";
    llvm::StringSet<> seen;
    for (auto name : names.getAsRange<StringAttr>())
      if (!seen.insert(name.getValue()).second)
        return emitOpError() << "argument name '" << name.getValue()
                             << "' is used twice";
  }
  for (auto [i, type] : llvm::enumerate(getArgumentTypes())) {
    if (type.isIntOrFloat()) {
      if (getArgIOKind(i) != IOKind::in)
        return emitOpError() << "scalar argument #" << i
                             << " can only be an input";
      continue;
    }
    auto tensor = dyn_cast<KDA2TensorType>(type);
    if (!tensor)
      return emitOpError() << "argument #" << i
                           << " must be a !kda2.tensor or a scalar, got "
                           << type;
    if (tensor.getMemorySpace() != MemorySpace::gmem)
      return emitOpError() << "argument #" << i
                           << " must live in gmem, got "
                           << stringifyMemorySpace(tensor.getMemorySpace());
  }
  if (failed(verifyStateLayouts()))
    return failure();
  ArrayAttr grid = getGridAttr();
  if (!grid)
    return success();
  // Every grid dimension is a dimension of some argument: the launch
  // learns its size from there. (It need not lead one: a packed batch
  // enumerates (sequence, head) with heads in the middle of [tokens, h, K].)
  llvm::StringSet<> covered;
  for (Type type : getArgumentTypes())
    if (auto tensor = dyn_cast<KDA2TensorType>(type))
      for (unsigned d = 0, e = tensor.getRank(); d < e; ++d)
        covered.insert(tensor.getDimName(d));
  for (auto nameAttr : grid.getAsRange<StringAttr>())
    if (!covered.contains(nameAttr.getValue()))
      return emitOpError() << "grid dimension '" << nameAttr.getValue()
                           << "' is not a dimension of any argument (the "
                              "launch could not know its size)";
  return success();
}

std::optional<std::pair<unsigned, StateLayout>> KernelOp::getStateLayout() {
  for (unsigned i = 0, e = getNumArguments(); i < e; ++i)
    if (auto state = getArgAttrOfType<StateLayoutAttr>(
            i, KDA2Dialect::getStateAttrName()))
      return std::make_pair(i, state.getValue());
  return std::nullopt;
}

/// The states of one kernel, and of every kernel in the same module, share
/// one layout: a prefill that writes K-major states and a decode that reads
/// V-major ones would transpose every state silently (invisibly so when
/// K == V).
LogicalResult KernelOp::verifyStateLayouts() {
  auto argName = [](KernelOp kernel, unsigned i) {
    ArrayAttr names = kernel.getArgNamesAttr();
    if (names && i < names.size())
      return ("'" + cast<StringAttr>(names[i]).getValue() + "'").str();
    return "#" + std::to_string(i);
  };
  std::optional<std::pair<unsigned, StateLayout>> first = getStateLayout();
  if (!first)
    return success();
  for (unsigned i = 0, e = getNumArguments(); i < e; ++i)
    if (auto state = getArgAttrOfType<StateLayoutAttr>(
            i, KDA2Dialect::getStateAttrName());
        state && state.getValue() != first->second)
      return emitOpError() << "state " << argName(*this, i) << " is "
                           << stringifyStateLayout(state.getValue())
                           << " but state " << argName(*this, first->first)
                           << " is " << stringifyStateLayout(first->second)
                           << "; one kernel's states share one layout";
  auto module = dyn_cast_or_null<ModuleOp>((*this)->getParentOp());
  if (!module)
    return success();
  // Against the kernels before this one: a conflict is reported once, at
  // the later kernel.
  for (KernelOp other : module.getOps<KernelOp>()) {
    if (other == *this)
      break;
    std::optional<std::pair<unsigned, StateLayout>> theirs =
        other.getStateLayout();
    if (theirs && theirs->second != first->second)
      return emitOpError()
             << "stores state " << argName(*this, first->first) << " "
             << (first->second == StateLayout::kv ? "K-major (kv)"
                                                  : "V-major (vk)")
             << ", but kernel @" << other.getSymName() << " in the same module "
             << "stores state " << argName(other, theirs->first) << " "
             << (theirs->second == StateLayout::kv ? "K-major (kv)"
                                                   : "V-major (vk)")
             << "; the kernels of one module hand states to each other and "
                "must agree";
  }
  return success();
}

/// True for ops a kernel body may hold outside schedule loops.
static bool isKernelLevelOp(Operation *op) {
  return isa<GmemOp, SmemAllocOp, RegAllocOp, DimOp, GridIndexOp, LoopOp,
             ReturnOp, arith::ConstantOp>(op);
}

LogicalResult KernelOp::verifyRegions() {
  Block &body = getBody().front();
  bool hasLayout = false, hasSchedule = false;
  bool hasAnnotation = getPragmasAttr() && !getPragmasAttr().empty();
  SmallVector<bool> declared(getNumArguments(), false);
  int64_t sharedBytes = 0;
  for (Operation &op : body) {
    if (!isKernelLevelOp(&op))
      return op.emitOpError()
             << "is outside a schedule loop; a kernel body holds only layout "
                "declarations, schedule loops, named sizes and constants";
    if (auto gmem = dyn_cast<GmemOp>(op)) {
      hasLayout = true;
      for (Value tensor : gmem.getTensors()) {
        unsigned index = cast<BlockArgument>(tensor).getArgNumber();
        if (declared[index])
          return gmem.emitOpError() << "argument #" << index
                                    << " is declared by more than one kda2.gmem";
        declared[index] = true;
      }
    }
    if (auto smem = dyn_cast<SmemAllocOp>(op)) {
      hasLayout = true;
      sharedBytes += smem.getSize();
    }
    hasLayout |= isa<RegAllocOp>(op);
    if (auto loop = dyn_cast<LoopOp>(op)) {
      hasSchedule = true;
      hasAnnotation |= loop.getAnnotationsAttr() && !loop.getAnnotationsAttr().empty();
    }
  }
  llvm::StringSet<> counters;
  WalkResult result = (*this)->walk([&](Operation *op) {
    if (isa<DeltaMaskedOp>(op))
      hasAnnotation = true;
    if (auto loop = dyn_cast<LoopOp>(op))
      hasAnnotation |= loop.getAnnotationsAttr() && !loop.getAnnotationsAttr().empty();
    if (auto counter = dyn_cast<CounterOp>(op)) {
      hasAnnotation = true;
      if (!counters.insert(counter.getName()).second) {
        counter.emitOpError() << "custom counter '" << counter.getName()
                              << "' is defined more than once in the kernel";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (!hasLayout)
    return emitOpError() << "has no layout declaration (kda2.gmem, "
                            "kda2.smem_alloc or kda2.reg_alloc)";
  if (!hasSchedule)
    return emitOpError() << "has no schedule loop (kda2.loop)";
  if (!hasAnnotation)
    return emitOpError() << "has no constraint annotation";
  if (const HardwareProfile *profile = getTargetProfile()) {
    // Kernel-wide pragmas are held to the profile like those on loops.
    if (ArrayAttr pragmas = getPragmasAttr())
      for (PragmaAttr pragma : pragmas.getAsRange<PragmaAttr>())
        if (failed(pragma.verifyOnLoop(*this, profile)))
          return failure();
    if (static_cast<uint64_t>(sharedBytes) >
        profile->sharedMemoryPerBlockBytes())
      return emitOpError() << "shared buffers total " << sharedBytes
                           << " bytes, more than the shared memory per block "
                              "of profile '"
                           << profile->name << "' ("
                           << profile->sharedMemoryPerBlockBytes()
                           << " bytes)";
  }
  return verifyKernelNumerics(*this);
}

//===----------------------------------------------------------------------===//
// Layout declarations
//===----------------------------------------------------------------------===//

LogicalResult GmemOp::verify() {
  if (getTensors().empty())
    return emitOpError() << "declares no tensor";
  auto kernel = cast<KernelOp>((*this)->getParentOp());
  for (Value tensor : getTensors()) {
    auto arg = dyn_cast<BlockArgument>(tensor);
    if (!arg || arg.getOwner()->getParentOp() != kernel)
      return emitOpError() << "operands must be kernel arguments";
    auto type = cast<KDA2TensorType>(tensor.getType());
    unsigned index = arg.getArgNumber();
    if (!getLayoutPermutation(getLayout(), type.getRank()))
      return emitOpError() << "layout " << stringifyLayout(getLayout())
                           << " does not apply to rank-" << type.getRank()
                           << " argument #" << index;
    if (getPacking() != Packing::vnni4)
      continue;
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    if (bits > 16)
      return emitOpError() << "vnni4 packing needs 8- or 16-bit elements, "
                              "argument #"
                           << index << " has " << type.getElementType();
    int64_t inner = type.getShape()[(*getLayoutPermutation(
        getLayout(), type.getRank()))[type.getRank() - 1]];
    if (!ShapedType::isDynamic(inner) && inner % 4 != 0)
      return emitOpError() << "vnni4 packing needs the innermost dimension of "
                              "argument #"
                           << index << " to be a multiple of 4, got " << inner;
  }
  return success();
}

LogicalResult SmemAllocOp::verify() {
  auto type = cast<KDA2TensorType>(getResult().getType());
  if (type.getMemorySpace() != MemorySpace::smem)
    return emitOpError() << "result must be a tensor in smem";
  int64_t bytes = *type.getStaticSizeInBytes();
  if (uint64_t(bytes) > getSize())
    return emitOpError() << "buffer of " << bytes
                         << " bytes does not fit its declared size of "
                         << getSize() << " bytes";
  auto kernel = cast<KernelOp>((*this)->getParentOp());
  if (const HardwareProfile *profile = kernel.getTargetProfile())
    if (static_cast<uint64_t>(getSize()) > profile->sharedMemoryPerBlockBytes())
      return emitOpError() << "size of " << getSize()
                           << " bytes exceeds the shared memory per block of "
                              "profile '"
                           << profile->name << "' ("
                           << profile->sharedMemoryPerBlockBytes()
                           << " bytes)";
  return success();
}

LogicalResult RegAllocOp::verify() {
  if (cast<KDA2TensorType>(getResult().getType()).getMemorySpace() !=
      MemorySpace::reg)
    return emitOpError() << "result must be a tensor in reg";
  auto type = cast<KDA2TensorType>(getResult().getType());
  if (getMma() && (type.getRank() != 2 || !type.hasStaticShape() ||
                   !type.getElementType().isF32()))
    return emitOpError() << "an mma register tile is a static 2-D f32 tile "
                            "(a tensor-core accumulator), got "
                         << type;
  if (getMma() && (type.getShape()[0] % 16 != 0 || type.getShape()[1] % 8 != 0))
    return emitOpError() << "an mma register tile is made of 16 x 8 "
                            "accumulator blocks (one warp per 16-row strip): "
                            "its rows must be a multiple of 16 and its "
                            "columns of 8, got "
                         << type.getShape()[0] << " x " << type.getShape()[1];
  if (getSplit() && !getMma())
    return emitOpError() << "split is only valid on an mma register tile";
  if (getSplit() && !isMmaSplit(*getSplit()))
    return emitOpError() << "split must be rows, cols, none or gather, got '"
                         << *getSplit() << "'";
  return success();
}

LogicalResult DimOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (kernel)
    for (Type type : kernel.getArgumentTypes())
      if (auto tensor = dyn_cast<KDA2TensorType>(type))
        for (unsigned i = 0, e = tensor.getRank(); i < e; ++i)
          if (tensor.getDimName(i) == getName())
            return success();
  return emitOpError() << "'" << getName()
                       << "' is not a dimension of the enclosing kernel";
}

LogicalResult GridIndexOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  ArrayAttr grid = kernel ? kernel.getGridAttr() : ArrayAttr();
  if (grid && llvm::is_contained(grid.getAsRange<StringAttr>(),
                                 StringAttr::get(getContext(), getName())))
    return success();
  return emitOpError() << "'" << getName()
                       << "' is not a grid dimension of the enclosing kernel";
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

void IfOp::build(OpBuilder &builder, OperationState &state, Value condition,
                 bool withElseRegion) {
  state.addOperands(condition);
  state.addRegion()->push_back(new Block());
  Region *elseRegion = state.addRegion();
  if (withElseRegion)
    elseRegion->push_back(new Block());
}

/// The innermost enclosing thread or warp loop whose induction variable
/// `value` depends on (through the ops that compute it), or null.
static LoopOp threadVariantSource(Value value) {
  SmallVector<Value> work = {value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<LoopOp>(arg.getOwner()->getParentOp());
      if (loop && (loop.getMapping() == LoopMapping::thread ||
                   loop.getMapping() == LoopMapping::warp ||
                   loop.getMapping() == LoopMapping::fragment))
        return loop;
      continue;
    }
    Operation *def = v.getDefiningOp();
    // A value computed inside a region (a loop body) is not traced further
    // than its op's operands.
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  return {};
}

LogicalResult IfOp::verify() {
  if (!(*this)->getParentOfType<LoopOp>())
    return emitOpError() << "must be inside a schedule loop";
  if (!getElseRegion().empty() && getElseRegion().front().getNumArguments())
    return emitOpError() << "regions take no arguments";
  LoopOp source = threadVariantSource(getCondition());
  if (!source)
    return success();
  // The condition can differ between threads: nothing in the regions may
  // need every thread of a warp or block.
  bool lanesCombine = source.getLanesPerIteration() > 1;
  for (auto loop = (*this)->getParentOfType<LoopOp>(); loop && !lanesCombine;
       loop = loop->getParentOfType<LoopOp>())
    if (ArrayAttr annotations = loop.getAnnotationsAttr())
      lanesCombine = llvm::any_of(
          annotations, [](Attribute a) { return isa<WarpReduceAttr>(a); });
  Operation *culprit = nullptr;
  StringRef why;
  (*this)->walk([&](Operation *op) {
    if (culprit || op == getOperation())
      return;
    if (auto loop = dyn_cast<LoopOp>(op);
        loop && loop.getMapping() != LoopMapping::serial) {
      culprit = op;
      why = "a parallel loop";
    } else if (isa<MatmulOp>(op)) {
      culprit = op;
      why = "a tensor-core product (every thread of the warp takes part)";
    } else if (isa<CounterOp>(op)) {
      culprit = op;
      why = "a counter";
    } else if (isa<ReduceOp>(op) && lanesCombine) {
      culprit = op;
      why = "a reduction across the lanes of an iteration (warp shuffles)";
    }
  });
  if (!culprit)
    return success();
  InFlightDiagnostic diag =
      emitOpError() << "the condition depends on the variable of a "
                    << stringifyLoopMapping(source.getMapping())
                    << " loop, so threads of one warp can take different "
                       "branches, but a branch holds "
                    << why;
  diag.attachNote(culprit->getLoc()) << "here";
  diag.attachNote(source.getLoc()) << "the loop";
  return diag;
}

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

void LoopOp::build(OpBuilder &builder, OperationState &state, Value upperBound,
                   LoopMapping mapping, ArrayAttr annotations) {
  state.addOperands(upperBound);
  state.getOrAddProperties<Properties>().mapping = mapping;
  if (annotations && !annotations.empty())
    state.getOrAddProperties<Properties>().annotations = annotations;
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  block->addArgument(builder.getIndexType(), state.location);
}

ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  StringRef mappingName;
  SMLoc mappingLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&mappingName))
    return failure();
  std::optional<LoopMapping> mapping = symbolizeLoopMapping(mappingName);
  if (!mapping)
    return parser.emitError(mappingLoc)
           << "expected loop mapping block, warp, thread, serial, fragment or ahead, got '"
           << mappingName << "'";
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand upper;
  iv.type = parser.getBuilder().getIndexType();
  if (parser.parseArgument(iv) || parser.parseKeyword("to") ||
      parser.parseOperand(upper) ||
      parser.resolveOperand(upper, parser.getBuilder().getIndexType(),
                            result.operands))
    return failure();
  Properties &props = result.getOrAddProperties<Properties>();
  props.mapping = *mapping;
  // `keyword(n)`, optional: the property stays unset without the keyword.
  auto parseCount = [&](StringRef keyword, IntegerAttr &property) {
    if (failed(parser.parseOptionalKeyword(keyword)))
      return success();
    int64_t value = 0;
    if (parser.parseLParen() || parser.parseInteger(value) ||
        parser.parseRParen())
      return failure();
    property = parser.getBuilder().getI64IntegerAttr(value);
    return success();
  };
  if (failed(parseCount("lanes", props.lanes)) ||
      failed(parseCount("columns", props.columns)))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("split"))) {
    StringRef split;
    if (parser.parseLParen() || parser.parseKeyword(&split) ||
        parser.parseRParen())
      return failure();
    props.split = parser.getBuilder().getStringAttr(split);
  }
  if (succeeded(parser.parseOptionalKeyword("annotations"))) {
    ArrayAttr annotations;
    if (parser.parseAttribute(annotations))
      return failure();
    props.annotations = annotations;
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  if (body->empty())
    body->push_back(new Block());
  return success();
}

void LoopOp::print(OpAsmPrinter &p) {
  p << " " << stringifyLoopMapping(getMapping()) << " ";
  p.printRegionArgument(getBody().getArgument(0), /*argAttrs=*/{},
                        /*omitType=*/true);
  p << " to " << getUpperBound();
  if (getLanes())
    p << " lanes(" << *getLanes() << ")";
  if (getColumns())
    p << " columns(" << *getColumns() << ")";
  if (getSplit())
    p << " split(" << *getSplit() << ")";
  if (getAnnotationsAttr() && !getAnnotationsAttr().empty())
    p << " annotations " << getAnnotationsAttr();
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {"mapping", "annotations", "lanes",
                                      "columns", "split"});
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult LoopOp::verify() {
  Block &block = getBody().front();
  if (block.getNumArguments() != 1 ||
      !block.getArgument(0).getType().isIndex())
    return emitOpError() << "body must take one index induction variable";
  if (getLanes()) {
    int64_t lanes = *getLanes();
    if (getMapping() != LoopMapping::thread)
      return emitOpError() << "lanes are a thread-loop schedule choice, not "
                              "valid on a "
                           << stringifyLoopMapping(getMapping()) << " loop";
    if (lanes < 1 || lanes > 32 || !llvm::isPowerOf2_64(lanes))
      return emitOpError() << "lanes must be a power of two in [1, 32], got "
                           << lanes;
  }
  // A fragment loop walks the elements of an mma register tile of
  // `columns` columns, each on the thread holding it: the block's threads
  // all take part, so it is not nested in another thread-level loop.
  bool fragment = getMapping() == LoopMapping::fragment;
  if (fragment != getColumns().has_value())
    return emitOpError() << (fragment ? "a fragment loop needs its tile's "
                                        "column count (columns)"
                                      : "columns are only valid on a "
                                        "fragment loop");
  if (getSplit() && (!fragment || !isMmaSplit(*getSplit())))
    return emitOpError() << (fragment ? "split must be rows, cols, none or gather, "
                                        "got '" +
                                            getSplit()->str() + "'"
                                      : "split is only valid on a fragment "
                                        "loop");
  if (fragment) {
    if (int64_t(*getColumns()) < 1)
      return emitOpError() << "columns must be positive, got "
                           << *getColumns();
    for (auto parent = (*this)->getParentOfType<LoopOp>(); parent;
         parent = parent->getParentOfType<LoopOp>())
      if (parent.getMapping() != LoopMapping::serial &&
          parent.getMapping() != LoopMapping::ahead &&
          parent.getMapping() != LoopMapping::block)
        return emitOpError() << "a fragment loop cannot be nested inside a "
                             << stringifyLoopMapping(parent.getMapping())
                             << " loop";
  }
  // `schedule.ahead(1)`: the body of a pipelined serial loop that a second
  // group of the block's threads runs ahead of the rest (uniform code, like
  // a serial loop of one iteration).
  if (getMapping() == LoopMapping::ahead) {
    APInt extent;
    if (!matchPattern(getUpperBound(), m_ConstantInt(&extent)) ||
        extent != 1)
      return emitOpError() << "an ahead loop runs its body once per iteration "
                              "of the loop around it: its extent must be 1";
    auto parent = dyn_cast<LoopOp>((*this)->getParentOp());
    if (!parent || parent.getMapping() != LoopMapping::serial)
      return emitOpError() << "an ahead loop must be directly inside a serial "
                              "loop (the pipelined loop it runs ahead of)";
    for (Operation &op : parent.getBodyBlock()->getOperations())
      if (auto other = dyn_cast<LoopOp>(op);
          other && other != *this && other.getMapping() == LoopMapping::ahead)
        return emitOpError() << "a loop body holds at most one ahead loop";
    bool nested = false;
    getBody().walk([&](LoopOp inner) {
      nested |= inner.getMapping() == LoopMapping::ahead;
    });
    if (nested)
      return emitOpError() << "ahead loops do not nest";
  }
  // Parallel mappings nest from coarse to fine; serial (and ahead) loops may
  // go anywhere.
  auto uniform = [](LoopMapping m) {
    return m == LoopMapping::serial || m == LoopMapping::ahead;
  };
  if (!uniform(getMapping()) && !fragment)
    for (auto parent = (*this)->getParentOfType<LoopOp>(); parent;
         parent = parent->getParentOfType<LoopOp>())
      if (!uniform(parent.getMapping())) {
        if (static_cast<int>(parent.getMapping()) >
            static_cast<int>(getMapping()))
          return emitOpError() << "a " << stringifyLoopMapping(getMapping())
                               << " loop cannot be nested inside a "
                               << stringifyLoopMapping(parent.getMapping())
                               << " loop";
        break;
      }
  ArrayAttr annotations = getAnnotationsAttr();
  if (!annotations)
    return success();
  SmallVector<Attribute> seen;
  for (Attribute attr : annotations) {
    auto annotation = dyn_cast<LoopAnnotationAttrInterface>(attr);
    if (!annotation)
      return emitOpError() << "expected a loop annotation, got " << attr;
    // Pragmas may repeat with different kinds; everything else once.
    bool duplicate = llvm::any_of(seen, [&](Attribute other) {
      return isa<PragmaAttr>(attr) ? other == attr
                                   : other.getTypeID() == attr.getTypeID();
    });
    if (duplicate)
      return emitOpError() << "annotation '" << annotation.getSpelling()
                           << "' appears more than once on the loop";
    seen.push_back(attr);
  }
  return success();
}

LogicalResult LoopOp::verifyRegions() {
  ArrayAttr annotations = getAnnotationsAttr();
  if (!annotations)
    return success();
  auto kernel = (*this)->getParentOfType<KernelOp>();
  const HardwareProfile *profile = kernel ? kernel.getTargetProfile() : nullptr;
  for (Attribute attr : annotations)
    if (failed(cast<LoopAnnotationAttrInterface>(attr).verifyOnLoop(
            getOperation(), profile)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp / StoreOp
//===----------------------------------------------------------------------===//

static LogicalResult tooManyIndices(Operation *op, KDA2TensorType tensor,
                                    unsigned numIndices, unsigned gridRank) {
  return op->emitOpError() << "has " << numIndices << " indices but " << tensor
                           << " has only " << tensor.getRank() - gridRank
                           << " addressable dimensions";
}

/// Verifies that accessing `tensor` with `numIndices` indices yields `type`.
static LogicalResult verifyAccess(Operation *op, KDA2TensorType tensor,
                                  unsigned numIndices, Type type,
                                  StringRef what) {
  unsigned gridRank =
      getImplicitGridRank(tensor, op->getParentOfType<KernelOp>());
  Type expected = getAccessType(tensor, gridRank, numIndices);
  if (!expected)
    return tooManyIndices(op, tensor, numIndices, gridRank);
  auto expectedTile = dyn_cast<RankedTensorType>(expected);
  auto tile = dyn_cast<RankedTensorType>(type);
  bool compatible = expectedTile && tile
                        ? expectedTile.getElementType() ==
                                  tile.getElementType() &&
                              compatibleShapes(expectedTile.getShape(),
                                               tile.getShape())
                        : expected == type;
  if (!compatible)
    return op->emitOpError() << "expected " << what << " type " << expected
                             << " for " << numIndices << " indices into "
                             << tensor << ", got " << type;
  return success();
}

LogicalResult LoadOp::verify() {
  auto tensor = cast<KDA2TensorType>(getSource().getType());
  std::optional<ArrayRef<int64_t>> windows = getWindows();
  if (!windows && !getLimits().empty())
    return emitOpError() << "has " << getLimits().size()
                         << " limits but no windows; limits bound windows";
  if (!windows)
    return verifyAccess(*this, tensor, getIndices().size(),
                        getResult().getType(), "result");
  if (int64_t count = llvm::count_if(*windows, [](int64_t n) { return n > 0; });
      !getLimits().empty() && int64_t(getLimits().size()) != count)
    return emitOpError() << "has " << getLimits().size() << " limits for "
                         << count << " windows (one per window, or none)";
  if (windows->size() != getIndices().size())
    return emitOpError() << "has " << windows->size() << " window sizes for "
                         << getIndices().size() << " indices";
  if (tensor.getMemorySpace() != MemorySpace::gmem)
    return emitOpError() << "reads windows of a "
                         << stringifyMemorySpace(tensor.getMemorySpace())
                         << " tensor; windows are for global tensors";
  if (llvm::any_of(*windows, [](int64_t n) { return n < 0; }) ||
      llvm::none_of(*windows, [](int64_t n) { return n > 0; }))
    return emitOpError() << "window sizes must be >= 0 with at least one "
                            "window (0: an index)";
  unsigned gridRank =
      getImplicitGridRank(tensor, getOperation()->getParentOfType<KernelOp>());
  Type rest = getAccessType(tensor, gridRank, getIndices().size());
  if (!rest)
    return tooManyIndices(*this, tensor, getIndices().size(), gridRank);
  SmallVector<int64_t> shape;
  for (auto [d, n] : llvm::enumerate(*windows)) {
    if (!n)
      continue;
    int64_t size = tensor.getShape()[gridRank + d];
    if (!ShapedType::isDynamic(size) && n > size)
      return emitOpError() << "window of " << n << " along dimension "
                           << gridRank + d << " of " << tensor
                           << ", which has " << size;
    shape.push_back(n);
  }
  if (auto tile = dyn_cast<RankedTensorType>(rest))
    llvm::append_range(shape, tile.getShape());
  auto expected = RankedTensorType::get(shape, tensor.getElementType());
  auto tile = dyn_cast<RankedTensorType>(getResult().getType());
  if (!tile || tile.getElementType() != expected.getElementType() ||
      !compatibleShapes(tile.getShape(), expected.getShape()))
    return emitOpError() << "expected result type " << expected
                         << " for windows " << "[" << llvm::join(
                                llvm::map_range(*windows, [](int64_t n) {
                                  return std::to_string(n);
                                }),
                                ", ")
                         << "] into " << tensor << ", got "
                         << getResult().getType();
  return success();
}

LogicalResult StoreOp::verify() {
  auto dest = dyn_cast<BlockArgument>(getDest());
  if (dest) {
    if (auto kernel = dyn_cast<KernelOp>(dest.getOwner()->getParentOp()))
      if (kernel.getArgIOKind(dest.getArgNumber()) == IOKind::in)
        return emitOpError() << "writes kernel input argument #"
                             << dest.getArgNumber()
                             << "; mark it {kda2.io = #kda2.io<out>} or "
                                "#kda2.io<inout>";
  }
  return verifyAccess(*this, cast<KDA2TensorType>(getDest().getType()),
                      getIndices().size(), getValue().getType(), "value");
}

/// A ready flag: an i32 element of a global kernel argument of the given
/// direction (an output for `kda2.signal`, an input for `kda2.wait`).
static LogicalResult verifyFlag(Operation *op, Value flags,
                                unsigned numIndices, bool output) {
  auto tensor = cast<KDA2TensorType>(flags.getType());
  auto arg = dyn_cast<BlockArgument>(flags);
  auto kernel = op->getParentOfType<KernelOp>();
  if (!arg || !kernel || arg.getOwner() != &kernel.getBody().front() ||
      tensor.getMemorySpace() != MemorySpace::gmem)
    return op->emitOpError() << "flags must be a global kernel argument";
  IOKind io = kernel.getArgIOKind(arg.getArgNumber());
  if (output ? io == IOKind::in : io != IOKind::in)
    return op->emitOpError()
           << "flags must be a kernel " << (output ? "output" : "input")
           << ", got argument #" << arg.getArgNumber() << " ("
           << stringifyIOKind(io) << ")";
  return verifyAccess(op, tensor, numIndices,
                      IntegerType::get(op->getContext(), 32), "flag");
}

LogicalResult SignalOp::verify() {
  return verifyFlag(*this, getFlags(), getIndices().size(), true);
}

LogicalResult WaitOp::verify() {
  return verifyFlag(*this, getFlags(), getIndices().size(), false);
}

/// launch_dependents and wait_prior order whole kernels: they stand in a
/// kernel, once each.
static LogicalResult verifyKernelOrder(Operation *op) {
  auto kernel = op->getParentOfType<KernelOp>();
  if (!kernel)
    return op->emitOpError() << "must be inside a kda2.kernel";
  Operation *first = nullptr;
  kernel.walk([&](Operation *other) {
    if (!first && other->getName() == op->getName())
      first = other;
  });
  if (first != op)
    return op->emitOpError() << "appears more than once in the kernel";
  return success();
}

LogicalResult LaunchDependentsOp::verify() { return verifyKernelOrder(*this); }

LogicalResult WaitPriorOp::verify() { return verifyKernelOrder(*this); }

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

#define KDA2_BINARY_VERIFIER(OP)                                               \
  LogicalResult OP::verify() {                                                 \
    return verifyElementwise(*this, {getLhs().getType(), getRhs().getType()},  \
                             getResult().getType());                           \
  }
KDA2_BINARY_VERIFIER(AddOp)
KDA2_BINARY_VERIFIER(SubOp)
KDA2_BINARY_VERIFIER(MulOp)
KDA2_BINARY_VERIFIER(DivOp)
KDA2_BINARY_VERIFIER(RemOp)
KDA2_BINARY_VERIFIER(MaxOp)
KDA2_BINARY_VERIFIER(MinOp)
#undef KDA2_BINARY_VERIFIER

LogicalResult CmpOp::verify() {
  return verifyElementwise(*this, {getLhs().getType(), getRhs().getType()},
                           getResult().getType(),
                           IntegerType::get(getContext(), 1));
}

LogicalResult SelectOp::verify() {
  Type cond = getCondition().getType();
  if (!getElementTypeOrSelf(cond).isInteger(1))
    return emitOpError() << "condition must be i1 or a tile of i1, got "
                         << cond;
  if (auto condShape = tileShape(cond)) {
    for (Type type : {getTrueValue().getType(), getFalseValue().getType()})
      if (auto shape = tileShape(type); shape && !compatibleShapes(*condShape, *shape))
        return emitOpError() << "condition and value tiles have incompatible "
                                "shapes";
    Type element = getElementTypeOrSelf(getTrueValue().getType());
    if (getElementTypeOrSelf(getFalseValue().getType()) != element)
      return emitOpError() << "operand element types differ: " << element
                           << " vs "
                           << getElementTypeOrSelf(getFalseValue().getType());
    Type expected = RankedTensorType::get(*condShape, element);
    if (!isa<RankedTensorType>(getResult().getType()) ||
        !compatibleShapes(*condShape, *tileShape(getResult().getType())) ||
        getElementTypeOrSelf(getResult().getType()) != element)
      return emitOpError() << "expected result type " << expected << ", got "
                           << getResult().getType();
    return success();
  }
  return verifyElementwise(
      *this, {getTrueValue().getType(), getFalseValue().getType()},
      getResult().getType());
}

LogicalResult CastOp::verify() {
  Type from = getInput().getType(), to = getResult().getType();
  std::optional<ArrayRef<int64_t>> fromShape = tileShape(from);
  std::optional<ArrayRef<int64_t>> toShape = tileShape(to);
  if (fromShape.has_value() != toShape.has_value() ||
      (fromShape && *fromShape != *toShape))
    return emitOpError() << "cannot change the shape: " << from << " -> "
                         << to;
  if (getElementTypeOrSelf(from).isIndex() ||
      getElementTypeOrSelf(to).isIndex())
    if (!getElementTypeOrSelf(from).isIntOrIndex() ||
        !getElementTypeOrSelf(to).isIntOrIndex())
      return emitOpError() << "index converts only to and from integers";
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and tile ops
//===----------------------------------------------------------------------===//

int64_t ReduceOp::getReducedAxis() {
  auto rank = static_cast<int64_t>(getInput().getType().getRank());
  return getAxis() ? static_cast<int64_t>(*getAxis()) : rank - 1;
}

LogicalResult ReduceOp::verify() {
  RankedTensorType input = getInput().getType();
  int64_t axis = getReducedAxis();
  if (axis < 0 || axis >= input.getRank())
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << input.getRank();
  SmallVector<int64_t> shape(input.getShape());
  shape.erase(shape.begin() + axis);
  Type expected = shape.empty() ? input.getElementType()
                                : Type(RankedTensorType::get(
                                      shape, input.getElementType()));
  if (getResult().getType() != expected)
    return emitOpError() << "expected result type " << expected << ", got "
                         << getResult().getType();
  return success();
}

LogicalResult MatmulOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  if (a.getRank() != 2 || b.getRank() != 2)
    return emitOpError() << "operands must be 2-D tiles";
  int64_t m = a.getDimSize(getTransposeA() ? 1 : 0),
          k = a.getDimSize(getTransposeA() ? 0 : 1);
  int64_t bk = getTransposeB() ? b.getDimSize(1) : b.getDimSize(0);
  int64_t n = getTransposeB() ? b.getDimSize(0) : b.getDimSize(1);
  if (!compatibleShapes({k}, {bk}))
    return emitOpError() << "contraction sizes differ: " << k << " vs " << bk;
  if (a.getElementType() != b.getElementType())
    return emitOpError() << "operand element types differ: "
                         << a.getElementType() << " vs " << b.getElementType();
  Type accElement = a.getElementType();
  if (accElement.isF16() || accElement.isBF16())
    accElement = Float32Type::get(getContext());
  auto expected = RankedTensorType::get({m, n}, accElement);
  if (getAcc()) {
    auto acc = cast<RankedTensorType>(getAcc().getType());
    if (!compatibleShapes(acc.getShape(), expected.getShape()) ||
        (!acc.getElementType().isF32() && acc.getElementType() != accElement))
      return emitOpError() << "accumulator must be shaped like " << expected
                           << ", got " << acc;
    expected = acc;
  }
  if (getResult().getType() != expected)
    return emitOpError() << "expected result type " << expected << ", got "
                         << getResult().getType();
  return success();
}

LogicalResult CumsumOp::verify() {
  int64_t rank = getInput().getType().getRank();
  // The I64Attr accessor returns uint64_t; read the axis as signed.
  auto axis = static_cast<int64_t>(getAxis());
  if (axis < 0 || axis >= rank)
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << rank;
  return success();
}

LogicalResult TriSolveOp::verify() {
  RankedTensorType a = getA().getType(), b = getB().getType();
  if (a.getRank() != 2 || !compatibleShapes({a.getDimSize(0)}, {a.getDimSize(1)}))
    return emitOpError() << "matrix must be a square 2-D tile, got " << a;
  if (b.getRank() != 2 || !compatibleShapes({a.getDimSize(0)}, {b.getDimSize(0)}))
    return emitOpError() << "right-hand side must be a 2-D tile with "
                         << a.getDimSize(0) << " rows, got " << b;
  if (getResult().getType() != b)
    return emitOpError() << "expected result type " << b << ", got "
                         << getResult().getType();
  return success();
}

LogicalResult L2NormOp::verify() {
  if (getInput().getType().getRank() < 1)
    return emitOpError() << "input must have at least one dimension";
  if (getEps().convertToDouble() <= 0.0)
    return emitOpError() << "eps must be positive, got "
                         << getEps().convertToDouble();
  return success();
}

//===----------------------------------------------------------------------===//
// Annotation ops
//===----------------------------------------------------------------------===//

void DeltaMaskedOp::build(OpBuilder &builder, OperationState &state,
                          Value value, Value mask, MaskType maskType,
                          double fill) {
  build(builder, state, value, mask, maskType, builder.getF64FloatAttr(fill));
}

LogicalResult DeltaMaskedOp::verify() {
  Type maskElement = getElementTypeOrSelf(getMask().getType());
  bool okElement = getMaskType() == MaskType::uint8 ? maskElement.isInteger(8)
                                                    : maskElement.isInteger(1);
  if (!okElement)
    return emitOpError() << "mask_type " << stringifyMaskType(getMaskType())
                         << " needs a mask of "
                         << (getMaskType() == MaskType::uint8 ? "8-bit integers"
                                                              : "i1")
                         << ", got " << getMask().getType();
  std::optional<ArrayRef<int64_t>> valueShape = tileShape(getValue().getType());
  std::optional<ArrayRef<int64_t>> maskShape = tileShape(getMask().getType());
  if (valueShape.has_value() != maskShape.has_value() ||
      (valueShape && !compatibleShapes(*valueShape, *maskShape)))
    return emitOpError() << "mask shape does not match the value: "
                         << getMask().getType() << " vs "
                         << getValue().getType();
  return success();
}

LogicalResult CounterOp::verify() {
  StringRef name = getName();
  bool identifier = !name.empty() && (llvm::isAlpha(name[0]) || name[0] == '_') &&
                    llvm::all_of(name, [](char c) {
                      return llvm::isAlnum(c) || c == '_';
                    });
  if (!identifier)
    return emitOpError() << "counter name '" << name
                         << "' is not an identifier";
  return success();
}

#define GET_OP_CLASSES
#include "kda2/Dialect/KDA2/IR/KDA2Ops.cpp.inc"
