//===- ImportTIRx.cpp - Build kda2 IR from a .tirx AST ---------*- C++ -*-===//
//
// The second half of the .tirx frontend: walks the AST from Parser.cpp and
// builds a module of `kda2.kernel`s. Every op gets the FileLineColLoc of the
// source construct it comes from, so both the emitter's own errors and the
// dialect verifier's point at file:line:col.
//
// Semantics decided here (see docs/TIRx.md):
//  * results become kernel arguments marked `kda2.io = out`;
//  * the grid is the longest common prefix of named dimensions shared by all
//    parameters and results (at most rank - 1 of the smallest tensor);
//    indices address the dimensions after it;
//  * literals take the type of the other operand (f32 / index otherwise);
//    mixed float widths promote to the wider type;
//  * a tile stored into a scalar element inside a `@warp_reduce` loop is
//    sum-reduced; anywhere else it is an error;
//  * `@delta_masked` masks an assignment with `mask[<innermost loop vars>]`.
//
//===----------------------------------------------------------------------===//

#include "kda2/Frontend/TIRx/ImportTIRx.h"

#include "kda2/Dialect/KDA2/IR/KDA2.h"
#include "kda2/Frontend/TIRx/Parser.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Format.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"

#include <cctype>
#include <optional>

using namespace mlir;
using namespace mlir::kda2;
namespace ast = mlir::kda2::tirx;

/// A number for a message: `%g`.
static std::string formatNumber(double x) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%g", x);
  return s;
}

namespace {

/// A value bound to a .tirx name, with the loop depth it was bound at.
struct Binding {
  Value value;
  unsigned depth;
};

/// One enclosing schedule loop during emission.
struct LoopFrame {
  LoopOp op;
  bool warpReduce;
};

/// Walks one parsed .tirx file and builds kda2 IR. Errors are reported as
/// MLIR diagnostics; after the first one, emission stops.
class Emitter {
public:
  Emitter(llvm::SourceMgr &sourceMgr, MLIRContext *context,
          const ImportTIRxOptions &options)
      : sourceMgr(sourceMgr), context(context), options(options),
        builder(context) {}

  OwningOpRef<ModuleOp> emit(const ast::Module &module, SMLoc fileLoc);

private:
  //===--------------------------------------------------------------------===//
  // Locations and errors
  //===--------------------------------------------------------------------===//

  Location loc(SMLoc at) {
    if (!at.isValid())
      return UnknownLoc::get(context);
    unsigned id = sourceMgr.FindBufferContainingLoc(at);
    auto [line, col] = sourceMgr.getLineAndColumn(at, id);
    StringRef file = sourceMgr.getMemoryBuffer(id)->getBufferIdentifier();
    return FileLineColLoc::get(context, file, line, col);
  }

  InFlightDiagnostic error(SMLoc at) { return mlir::emitError(loc(at)); }

  //===--------------------------------------------------------------------===//
  // Kernels and statements
  //===--------------------------------------------------------------------===//

  LogicalResult emitKernel(const ast::Kernel &kernel);
  FailureOr<Type> elementType(StringRef name, SMLoc at);
  FailureOr<Type> elementType(const ast::TensorType &type, Type fallback);
  FailureOr<KDA2TensorType> tensorType(const ast::TensorType &type,
                                       Type fallback, MemorySpace space,
                                       StringRef what);
  LogicalResult emitTopLevel(const ast::Stmt &stmt);
  LogicalResult emitGmem(const ast::GmemDeclStmt &decl);
  LogicalResult emitGrid(const ast::GmemDeclStmt &decl);
  LogicalResult checkStateLayout(const ast::NameRef &name, Layout &layout,
                                 bool layoutGiven, StateLayout state,
                                 const ast::DeclAttr &attr);
  LogicalResult emitSmem(const ast::SmemDeclStmt &decl);
  LogicalResult emitFor(const ast::ForStmt &loop);
  LogicalResult emitFragmentFor(const ast::ForStmt &loop);
  LogicalResult emitIf(const ast::IfStmt &branch);
  LogicalResult emitCallStmt(const ast::CallStmt &stmt);
  std::optional<int64_t> staticValue(const ast::Expr &expr);
  LogicalResult emitBody(const std::vector<ast::StmtPtr> &body);
  LogicalResult emitStatement(const ast::Stmt &stmt);
  LogicalResult emitAssign(const ast::AssignStmt &assign);
  LogicalResult emitStore(const ast::StoreStmt &store);
  LogicalResult rejectAnnotations(const ast::Stmt &stmt, StringRef what);

  //===--------------------------------------------------------------------===//
  // Annotations
  //===--------------------------------------------------------------------===//

  FailureOr<Attribute> loopAnnotation(const ast::Annotation &annotation);
  FailureOr<PragmaAttr> pragma(const ast::Pragma &pragma);
  FailureOr<Value> applyStatementAnnotations(const ast::Stmt &stmt,
                                             Value value);
  LogicalResult expectArgs(const ast::Annotation &annotation, size_t count,
                           StringRef usage);

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  FailureOr<Value> emitExpr(const ast::Expr &expr, Type hint = {});
  FailureOr<Value> emitLiteral(const ast::Expr &expr, Type hint, bool negate);
  FailureOr<Value> emitName(const ast::NameExpr &name);
  FailureOr<Value> emitIndex(const ast::IndexExpr &index);
  /// `t[s0:, i, s1:]` copied whole into a shared tile of type `tile`: a
  /// windowed kda2.load whose windows take their sizes from the tile.
  FailureOr<Value> emitWindowedLoad(const ast::IndexExpr &index,
                                    RankedTensorType tile);
  /// One index expression as an `index` value.
  FailureOr<Value> emitIndexValue(const ast::Expr &expr, StringRef tensorName);
  FailureOr<SmallVector<Value>> emitIndices(const ast::IndexExpr &index,
                                            StringRef tensorName);
  FailureOr<Value> emitCall(const ast::CallExpr &call);
  FailureOr<Value> emitBinary(const ast::BinaryExpr &binary);
  FailureOr<Value> emitCond(const ast::CondExpr &cond);
  FailureOr<Value> emitBinaryOp(ast::BinaryOp op, Value lhs, Value rhs,
                                SMLoc at);
  FailureOr<Value> toCondition(Value value, SMLoc at);
  FailureOr<Value> emitLogical(const ast::BinaryExpr &binary);
  FailureOr<std::pair<Value, Value>> unify(Value lhs, Value rhs, SMLoc at);
  Value castElement(Value value, Type element, Location at);
  FailureOr<Value> coerceForStore(Value value, Type expected, SMLoc at,
                                  StringRef tensorName);

  /// A tensor (parameter, result or shared buffer) by .tirx name, or null.
  Value lookupTensor(StringRef name) {
    auto it = tensors.find(name);
    return it == tensors.end() ? Value() : it->second;
  }
  /// The error for a reference to `name` when it is a conditional
  /// parameter this build leaves out (`x: Tensor[...] if NAME` with NAME
  /// zero or unbound); empty otherwise.
  std::string absentMessage(StringRef name) {
    auto it = absentParams.find(name);
    if (it == absentParams.end())
      return "";
    return ("'" + name + "' is not a parameter of this build: it exists only "
            "when " + it->second + " is bound to a nonzero integer "
            "(--tirx-bind=" + it->second + "=1)")
        .str();
  }
  /// True when `name` is a named dimension of the current kernel.
  bool isDimName(StringRef name) { return dimNames.contains(name); }
  /// The integer `name` is bound to with --tirx-bind, if any. Every lookup
  /// that finds one records it for the kernel's `kda2.bindings`.
  std::optional<int64_t> boundInteger(StringRef name) {
    auto it = options.bindings.find(name.str());
    if (it == options.bindings.end())
      return std::nullopt;
    // A binding that makes parameters exist is recorded only when it does
    // (nonzero), so that builds without them keep their metadata.
    if (it->second != 0 || !conditions.contains(name))
      usedBindings[it->first] = it->second;
    return it->second;
  }

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  const ImportTIRxOptions &options;
  OpBuilder builder;

  // Per-kernel state.
  KernelOp kernel;
  llvm::StringMap<Value> tensors;
  llvm::StringMap<unsigned> argIndex;
  llvm::StringSet<> dimNames;
  llvm::StringSet<> boundDims;
  llvm::StringSet<> gmemDeclared;
  /// The declared type of each tensor parameter and result, as written.
  llvm::StringMap<const ast::TensorType *> declaredTypes;
  /// Conditional parameters this build leaves out, with their condition.
  llvm::StringMap<std::string> absentParams;
  /// The bindings that make conditional parameters exist.
  llvm::StringSet<> conditions;
  /// The integer bindings the kernel's source refers to (kda2.bindings).
  std::map<std::string, int64_t> usedBindings;
  std::vector<llvm::StringMap<Binding>> scopes;
  /// True when `name` is bound in an enclosing scope (a loop variable or a
  /// local value).
  bool isLocalName(StringRef name) const {
    for (const auto &scope : scopes)
      if (scope.count(name))
        return true;
    return false;
  }
  std::vector<LoopFrame> loops;
  SmallVector<std::string> resultNames;
  bool sawReturn = false;
  bool sawGrid = false;
  bool sawSchedule = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Module and kernel
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> Emitter::emit(const ast::Module &module, SMLoc fileLoc) {
  OwningOpRef<ModuleOp> result = ModuleOp::create(loc(fileLoc));
  if (!options.profile.empty()) {
    auto *dialect = context->getLoadedDialect<KDA2Dialect>();
    llvm::Expected<const HardwareProfile *> profile =
        dialect->getProfiles().get(options.profile);
    if (!profile) {
      mlir::emitError(loc(fileLoc)) << llvm::toString(profile.takeError());
      return nullptr;
    }
    (*result)->setAttr(KDA2Dialect::getTargetAttrName(),
                       StringAttr::get(context, (*profile)->name));
  }
  if (module.kernels.empty()) {
    mlir::emitError(loc(fileLoc)) << "no kernel in file; expected 'func'";
    return nullptr;
  }
  builder.setInsertionPointToEnd(result->getBody());
  llvm::StringSet<> kernelNames;
  for (const ast::Kernel &kernel : module.kernels) {
    if (!kernelNames.insert(kernel.name).second) {
      error(kernel.nameLoc) << "kernel '" << kernel.name
                            << "' is defined more than once";
      return nullptr;
    }
    OpBuilder::InsertionGuard guard(builder);
    if (failed(emitKernel(kernel)))
      return nullptr;
  }
  if (failed(mlir::verify(*result)))
    return nullptr;
  return result;
}

Type mlir::kda2::parseElementTypeName(StringRef name, MLIRContext *context) {
  Builder b(context);
  return llvm::StringSwitch<Type>(name)
      .Case("f16", b.getF16Type())
      .Case("bf16", b.getBF16Type())
      .Case("f32", b.getF32Type())
      .Case("f64", b.getF64Type())
      .Case("bool", b.getI1Type())
      .Case("i8", b.getI8Type())
      .Cases({"u8", "uint8"}, b.getIntegerType(8, false))
      .Case("i16", b.getI16Type())
      .Case("i32", b.getI32Type())
      .Case("i64", b.getI64Type())
      .Default(Type());
}

FailureOr<Type> Emitter::elementType(const ast::TensorType &type,
                                     Type fallback) {
  if (type.dtype.empty())
    return fallback;
  return elementType(type.dtype, type.dtypeLoc);
}

FailureOr<Type> Emitter::elementType(StringRef name, SMLoc at) {
  auto bound = options.typeBindings.find(name.str());
  StringRef spelled =
      bound != options.typeBindings.end() ? StringRef(bound->second) : name;
  if (Type element = parseElementTypeName(spelled, builder.getContext()))
    return element;
  return error(at) << "unknown element type '" << name
                   << "'; expected f16, bf16, f32, f64, bool, i8, uint8, "
                      "i16, i32, i64 or a name bound with --tirx-bind="
                   << name << "=<type>";
}

FailureOr<KDA2TensorType> Emitter::tensorType(const ast::TensorType &type,
                                              Type fallback, MemorySpace space,
                                              StringRef what) {
  FailureOr<Type> element = elementType(type, fallback);
  if (failed(element))
    return failure();
  SmallVector<int64_t> shape;
  SmallVector<StringAttr> names;
  for (const ast::Dim &dim : type.dims) {
    switch (dim.kind) {
    case ast::Dim::Kind::Static:
      if (dim.size <= 0)
        return error(dim.loc) << "dimension of " << what
                              << " must be positive, got " << dim.size;
      shape.push_back(dim.size);
      names.push_back(builder.getStringAttr(""));
      break;
    case ast::Dim::Kind::Named:
      if (std::optional<int64_t> bound = boundInteger(dim.name)) {
        if (*bound <= 0)
          return error(dim.loc) << "dimension '" << dim.name << "' of " << what
                                << " is bound to " << *bound
                                << "; a dimension must be positive";
        shape.push_back(*bound);
        names.push_back(builder.getStringAttr(""));
        boundDims.insert(dim.name);
        break;
      }
      [[fallthrough]];
    case ast::Dim::Kind::Dynamic:
      if (space != MemorySpace::gmem)
        return error(dim.loc)
               << what << " needs a static shape; dimension '"
               << (dim.name.empty() ? "?" : dim.name) << "' is dynamic";
      shape.push_back(ShapedType::kDynamic);
      names.push_back(builder.getStringAttr(dim.name));
      break;
    }
  }
  // The remaining type rules (a size that overflows 64 bits) are reported
  // at the `Tensor` keyword.
  auto result = KDA2TensorType::getChecked(
      [&] { return error(type.loc); }, context, ArrayRef<int64_t>(shape),
      ArrayRef<StringAttr>(names), *element, space);
  if (!result)
    return failure();
  return result;
}

/// The grid: the longest common prefix of named dimensions of `types`,
/// leaving at least one addressable dimension in each.
static SmallVector<StringRef> inferGrid(ArrayRef<KDA2TensorType> types) {
  SmallVector<StringRef> grid;
  if (types.empty())
    return grid;
  unsigned limit = ~0u;
  for (KDA2TensorType type : types)
    limit = std::min(limit, type.getRank() == 0 ? 0 : type.getRank() - 1);
  for (unsigned d = 0; d < limit; ++d) {
    StringRef name = types.front().getDimName(d);
    if (name.empty() || llvm::any_of(types, [&](KDA2TensorType t) {
          return t.getDimName(d) != name;
        }))
      break;
    grid.push_back(name);
  }
  return grid;
}

LogicalResult Emitter::emitKernel(const ast::Kernel &kernelAst) {
  tensors.clear();
  argIndex.clear();
  dimNames.clear();
  boundDims.clear();
  gmemDeclared.clear();
  declaredTypes.clear();
  absentParams.clear();
  conditions.clear();
  usedBindings.clear();
  scopes.clear();
  loops.clear();
  resultNames.clear();
  sawReturn = false;
  sawGrid = false;
  sawSchedule = false;

  // Unnamed results take their names from the return statement (`return
  // out`), which must be the last top-level statement.
  const ast::ReturnStmt *ret = nullptr;
  if (!kernelAst.body.empty())
    ret = dyn_cast<ast::ReturnStmt>(kernelAst.body.back().get());
  for (auto [i, result] : llvm::enumerate(kernelAst.results)) {
    std::string name = result.name;
    if (name.empty())
      name = ret && i < ret->values.size()
                 ? ret->values[i].name
                 : (kernelAst.results.size() == 1 ? "out"
                                                  : "out" + std::to_string(i));
    resultNames.push_back(name);
  }

  SmallVector<Type> argTypes;
  SmallVector<KDA2TensorType> tensorTypes;
  SmallVector<std::pair<std::string, SMLoc>> argNames;
  llvm::StringSet<> scalarNames;
  auto addArg = [&](const ast::Param &param, StringRef name) -> LogicalResult {
    if (!param.condition.empty()) {
      // Present only with its binding nonzero.
      conditions.insert(param.condition);
      auto bound = options.bindings.find(param.condition);
      if (bound == options.bindings.end() || bound->second == 0) {
        if (options.typeBindings.count(param.condition) ||
            options.layoutBindings.count(param.condition) ||
            options.stateBindings.count(param.condition))
          return error(param.conditionLoc)
                 << "'" << param.condition
                 << "' must be bound to an integer to make '" << name
                 << "' conditional";
        absentParams[name] = param.condition;
        return success();
      }
      boundInteger(param.condition);
    }
    if (param.isInOut && !param.scalarType.empty())
      return error(param.inOutLoc)
             << "'inout' applies to tensors; scalar '" << name
             << "' is passed by value";
    if (!param.scalarType.empty()) {
      FailureOr<Type> scalar =
          elementType(param.scalarType, param.scalarTypeLoc);
      if (failed(scalar))
        return failure();
      if (argIndex.count(name))
        return error(param.loc) << "'" << name
                                << "' is declared more than once in the "
                                   "kernel signature";
      argIndex[name] = argTypes.size();
      argTypes.push_back(*scalar);
      argNames.push_back({name.str(), param.loc});
      scalarNames.insert(name);
      return success();
    }
    FailureOr<KDA2TensorType> type =
        tensorType(param.type, builder.getF16Type(), MemorySpace::gmem,
                   "tensor '" + name.str() + "'");
    if (failed(type))
      return failure();
    if (argIndex.count(name))
      return error(param.loc) << "'" << name
                              << "' is declared more than once in the kernel "
                                 "signature";
    argIndex[name] = argTypes.size();
    declaredTypes[name] = &param.type;
    argTypes.push_back(*type);
    tensorTypes.push_back(*type);
    argNames.push_back({name.str(), param.loc});
    for (unsigned d = 0; d < type->getRank(); ++d)
      if (!type->getDimName(d).empty())
        dimNames.insert(type->getDimName(d));
    return success();
  };
  SmallVector<bool> inOut;
  for (const ast::Param &param : kernelAst.params) {
    size_t before = argTypes.size();
    if (failed(addArg(param, param.name)))
      return failure();
    if (argTypes.size() > before)
      inOut.push_back(param.isInOut);
  }
  for (auto [param, name] : llvm::zip(kernelAst.results, resultNames))
    if (failed(addArg(param, name)))
      return failure();
  // A conditional result this build leaves out is not returned (`return`
  // may still name it).
  llvm::erase_if(resultNames, [&](const std::string &name) {
    return absentParams.count(name) != 0;
  });

  kernel = KernelOp::create(builder, loc(kernelAst.loc), kernelAst.name,
                            builder.getFunctionType(argTypes, {}));
  for (auto [i, isInOut] : llvm::enumerate(inOut))
    if (isInOut)
      kernel.setArgAttr(i, KDA2Dialect::getIOAttrName(),
                        IOKindAttr::get(context, IOKind::inout));
  for (unsigned i = inOut.size(); i < argTypes.size(); ++i)
    kernel.setArgAttr(i, KDA2Dialect::getIOAttrName(),
                      IOKindAttr::get(context, IOKind::out));
  kernel.setArgNamesAttr(builder.getStrArrayAttr(llvm::to_vector(
      llvm::map_range(argNames, [](auto &n) { return StringRef(n.first); }))));
  SmallVector<StringRef> grid = inferGrid(tensorTypes);
  if (!grid.empty())
    kernel.setGridAttr(builder.getStrArrayAttr(grid));
  SmallVector<Attribute> pragmas;
  for (const ast::Pragma &p : kernelAst.pragmas) {
    FailureOr<PragmaAttr> attr = pragma(p);
    if (failed(attr))
      return failure();
    if (*attr) // null: a conditional pragma that is off
      pragmas.push_back(*attr);
  }
  if (!pragmas.empty())
    kernel.setPragmasAttr(builder.getArrayAttr(pragmas));

  Block &entry = kernel.getBody().front();
  for (auto [i, name] : llvm::enumerate(argNames)) {
    BlockArgument arg = entry.getArgument(i);
    arg.setLoc(NameLoc::get(builder.getStringAttr(name.first),
                            loc(name.second)));
    if (!scalarNames.contains(name.first))
      tensors[name.first] = arg;
  }
  builder.setInsertionPoint(entry.getTerminator());
  scopes.emplace_back();
  for (auto [i, name] : llvm::enumerate(argNames))
    if (scalarNames.contains(name.first))
      scopes.back()[name.first] = {entry.getArgument(i), 0};
  for (const ast::StmtPtr &stmt : kernelAst.body)
    if (failed(emitTopLevel(*stmt)))
      return failure();
  if (!resultNames.empty() && !sawReturn)
    return error(kernelAst.loc) << "kernel '" << kernelAst.name
                                << "' declares results but has no return "
                                   "statement";
  // The integer bindings the kernel's source refers to, for the launch
  // metadata (`bind` lines): the compile-time switches it was built with.
  if (!usedBindings.empty()) {
    SmallVector<NamedAttribute> entries;
    for (const auto &[name, value] : usedBindings)
      entries.push_back(builder.getNamedAttr(
          name, builder.getI64IntegerAttr(value)));
    kernel->setAttr(KDA2Dialect::getBindingsAttrName(),
                    builder.getDictionaryAttr(entries));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult Emitter::rejectAnnotations(const ast::Stmt &stmt,
                                         StringRef what) {
  if (!stmt.annotations.empty())
    return error(stmt.annotations.front().loc)
           << "annotation '" << stmt.annotations.front().getSpelling()
           << "' cannot apply to " << what;
  if (!stmt.pragmas.empty())
    return error(stmt.pragmas.front().loc)
           << "'#pragma " << stmt.pragmas.front().name
           << "' must precede a schedule loop, not " << what;
  return success();
}

LogicalResult Emitter::emitTopLevel(const ast::Stmt &stmt) {
  if (sawReturn)
    return error(stmt.loc) << "statement after 'return'";
  switch (stmt.getKind()) {
  case ast::Stmt::Kind::GmemDecl:
    return emitGmem(cast<ast::GmemDeclStmt>(stmt));
  case ast::Stmt::Kind::SmemDecl:
    return emitSmem(cast<ast::SmemDeclStmt>(stmt));
  case ast::Stmt::Kind::For:
    sawSchedule = true;
    return emitFor(cast<ast::ForStmt>(stmt));
  case ast::Stmt::Kind::If: {
    // An `if` decided at import may choose among declarations (and loops):
    // the statements of the branch it keeps are top-level ones.
    const auto &branch = cast<ast::IfStmt>(stmt);
    if (std::optional<int64_t> known = staticValue(*branch.condition)) {
      if (failed(rejectAnnotations(branch, "an 'if' statement")))
        return failure();
      for (const ast::StmtPtr &kept :
           *known ? branch.thenBody : branch.elseBody)
        if (failed(emitTopLevel(*kept)))
          return failure();
      return success();
    }
    [[fallthrough]];
  }
  case ast::Stmt::Kind::Assign:
  case ast::Stmt::Kind::Store:
  case ast::Stmt::Kind::Call:
    return error(stmt.loc)
           << "statement outside a schedule loop; computation belongs "
              "inside 'for … in schedule.block/warp/thread(…)'";
  case ast::Stmt::Kind::Return: {
    if (failed(rejectAnnotations(stmt, "a return statement")))
      return failure();
    const auto &ret = cast<ast::ReturnStmt>(stmt);
    sawReturn = true;
    SmallVector<ast::NameRef> values;
    for (const ast::NameRef &value : ret.values)
      if (!absentParams.count(value.name))
        values.push_back(value);
    if (values.size() != resultNames.size())
      return error(ret.loc) << "return lists " << values.size()
                            << " values but the kernel declares "
                            << resultNames.size() << " results";
    for (auto [value, name] : llvm::zip(values, resultNames))
      if (value.name != name)
        return error(value.loc) << "returns '" << value.name
                                << "', but the kernel's result is named '"
                                << name << "'";
    return success();
  }
  }
  return failure();
}

LogicalResult Emitter::emitGmem(const ast::GmemDeclStmt &decl) {
  if (decl.isGrid)
    return emitGrid(decl);
  if (failed(rejectAnnotations(decl, "a GMEM declaration")))
    return failure();
  Layout layout = Layout::row_major;
  bool layoutGiven = false;
  Packing packing = Packing::none;
  std::optional<StateLayout> state;
  const ast::DeclAttr *stateAttr = nullptr;
  DenseF64ArrayAttr range;
  IntegerAttr stride;
  for (const ast::DeclAttr &attr : decl.attrs) {
    bool isIdent = attr.valueKind == ast::DeclAttr::ValueKind::Identifier;
    if (attr.key == "layout") {
      // A layout may be a template parameter (--tirx-bind=SL=VK).
      StringRef name = attr.stringValue;
      if (auto bound = options.layoutBindings.find(name.str());
          isIdent && bound != options.layoutBindings.end())
        name = bound->second;
      std::optional<Layout> parsed =
          isIdent ? symbolizeLayout(name) : std::nullopt;
      if (!parsed)
        return error(attr.valueLoc)
               << "unknown layout; expected row_major, BHSD, BSHD, BHS, "
                  "BSH, KV, VK or a name bound with --tirx-bind=<name>=<layout>";
      layout = *parsed;
      layoutGiven = true;
    } else if (attr.key == "packing") {
      std::optional<Packing> parsed =
          isIdent ? symbolizePacking(attr.stringValue) : std::nullopt;
      if (!parsed)
        return error(attr.valueLoc)
               << "unknown packing; expected none or vnni4";
      packing = *parsed;
    } else if (attr.key == "state") {
      StringRef name = attr.stringValue;
      if (auto bound = options.stateBindings.find(name.str());
          isIdent && bound != options.stateBindings.end())
        name = bound->second;
      state = isIdent ? symbolizeStateLayout(name) : std::nullopt;
      if (!state)
        return error(attr.valueLoc)
               << "unknown state layout; expected kv (each state a K x V "
                  "matrix stored K-major), vk (V-major) or a name bound "
                  "with --tirx-bind=<name>=kv|vk";
      stateAttr = &attr;
    } else if (attr.key == "range") {
      if (attr.valueKind != ast::DeclAttr::ValueKind::Range)
        return error(attr.valueLoc)
               << "range= takes [lo, hi], e.g. [-5, 0] or [-inf, 0]";
      double ends[2];
      for (auto [i, bound] : llvm::enumerate(attr.range)) {
        double value = bound.value;
        if (!bound.name.empty()) {
          std::optional<int64_t> named = boundInteger(bound.name);
          if (!named)
            return error(bound.loc)
                   << "'" << bound.name
                   << "' in a range must be bound with --tirx-bind";
          value = static_cast<double>(*named);
        }
        ends[i] = bound.negative ? -value : value;
      }
      if (!(ends[0] <= ends[1]))
        return error(attr.valueLoc)
               << "empty range [" << formatNumber(ends[0]) << ", "
               << formatNumber(ends[1]) << "]: lo must be <= hi";
      range = builder.getDenseF64ArrayAttr({ends[0], ends[1]});
    } else if (attr.key == "stride") {
      // The outermost dimension's element stride, a runtime integer
      // parameter: inputs that are row slices of a wider tensor.
      auto param = isIdent ? argIndex.find(attr.stringValue) : argIndex.end();
      Type type = param != argIndex.end()
                      ? kernel.getArgumentTypes()[param->second]
                      : Type();
      if (!type || !type.isSignlessInteger() ||
          !llvm::is_contained({32u, 64u}, type.getIntOrFloatBitWidth()))
        return error(attr.valueLoc)
               << "stride= names an i32 or i64 scalar parameter holding the "
                  "outermost dimension's stride in elements";
      stride = builder.getI64IntegerAttr(param->second);
    } else {
      return error(attr.loc)
             << "unknown GMEM attribute '" << attr.key
             << "'; expected layout, packing, state, range or stride";
    }
  }
  SmallVector<Value> operands;
  for (const ast::NameRef &name : decl.names) {
    auto it = argIndex.find(name.name);
    if (std::string absent = absentMessage(name.name); !absent.empty())
      return error(name.loc) << absent;
    if (it == argIndex.end())
      return error(name.loc) << "'" << name.name
                             << "' is not a kernel parameter or result";
    if (!gmemDeclared.insert(name.name).second)
      return error(name.loc) << "'" << name.name
                             << "' is already declared by a GMEM line";
    operands.push_back(kernel.getArgument(it->second));
    if (state && failed(checkStateLayout(name, layout, layoutGiven, *state,
                                         *stateAttr)))
      return failure();
    layoutGiven |= state.has_value(); // the first state fixed it
    if (state)
      kernel.setArgAttr(it->second, KDA2Dialect::getStateAttrName(),
                        StateLayoutAttr::get(context, *state));
    if (range)
      kernel.setArgAttr(it->second, KDA2Dialect::getRangeAttrName(), range);
    if (stride) {
      if (!declaredTypes.lookup(name.name))
        return error(name.loc) << "'" << name.name
                               << "' is a scalar; only tensors have a stride";
      kernel.setArgAttr(it->second, KDA2Dialect::getStrideAttrName(), stride);
    }
  }
  GmemOp::create(builder, loc(decl.loc), operands, layout, packing);
  return success();
}

/// `GMEM {state=kv|vk} h0`: the tensor holds recurrent states. Its last two
/// dimensions must be named K and V, and the order the declared type and
/// `layout` store them in must be the one `state` states: the check that
/// keeps a transposed state from compiling, also when K == V. Without
/// `layout=`, `layout` becomes the one that stores the state as stated.
LogicalResult Emitter::checkStateLayout(const ast::NameRef &name,
                                        Layout &layout, bool layoutGiven,
                                        StateLayout state,
                                        const ast::DeclAttr &attr) {
  const ast::TensorType *type = declaredTypes.lookup(name.name);
  if (!type)
    return error(name.loc) << "'" << name.name
                           << "' is a scalar; only tensors hold states";
  size_t rank = type->dims.size();
  auto dimName = [](const ast::Dim &d) {
    return d.kind == ast::Dim::Kind::Named
               ? d.name
               : d.kind == ast::Dim::Kind::Static ? std::to_string(d.size)
                                                  : std::string("?");
  };
  if (rank < 2)
    return error(name.loc) << "state '" << name.name
                           << "' must have rank 2 or more (its last two "
                              "dimensions are K and V)";
  std::string a = dimName(type->dims[rank - 2]);
  std::string b = dimName(type->dims[rank - 1]);
  if (!((a == "K" && b == "V") || (a == "V" && b == "K")))
    return error(type->dims[rank - 2].loc)
           << "state '" << name.name
           << "': its last two dimensions must be named K and V (in either "
              "order), got "
           << a << ", " << b;
  // Without `layout=`, the state decides it: KV keeps the declared order,
  // VK swaps the last two dimensions.
  if (!layoutGiven) {
    bool declaredKMajor = b == "V";
    layout = declaredKMajor == (state == StateLayout::kv) ? Layout::KV
                                                          : Layout::VK;
    return success();
  }
  std::optional<SmallVector<int64_t>> perm =
      getLayoutPermutation(layout, rank);
  bool swapped = perm && (*perm)[rank - 1] == int64_t(rank - 2);
  std::string inner = swapped ? a : b; // the dimension stored innermost
  StateLayout stored = inner == "V" ? StateLayout::kv : StateLayout::vk;
  if (stored != state)
    return error(attr.valueLoc)
           << "'" << name.name << "' is declared state="
           << stringifyStateLayout(state) << " ("
           << (state == StateLayout::kv ? "K-major" : "V-major")
           << "), but its type [.., " << a << ", " << b << "] with layout "
           << stringifyLayout(layout) << " stores it "
           << (stored == StateLayout::kv ? "K-major (kv)" : "V-major (vk)");
  return success();
}

/// `GRID d0, d1`: the program instances enumerate these named dimensions
/// (replacing the inferred grid). Tensors whose leading dimensions are grid
/// dimensions, in grid order (e.g. a per-head `A_log: Tensor[h]`), are
/// indexed by the instance implicitly.
LogicalResult Emitter::emitGrid(const ast::GmemDeclStmt &decl) {
  if (failed(rejectAnnotations(decl, "a GRID declaration")))
    return failure();
  if (sawSchedule)
    return error(decl.loc) << "GRID must come before the schedule loops";
  if (sawGrid)
    return error(decl.loc) << "the kernel already has a GRID declaration";
  sawGrid = true;
  SmallVector<StringRef> names;
  for (const ast::NameRef &name : decl.names) {
    if (!isDimName(name.name))
      return error(name.loc) << "GRID dimension '" << name.name
                             << "' is not a named dimension of the kernel";
    if (llvm::is_contained(names, name.name))
      return error(name.loc) << "GRID lists '" << name.name << "' twice";
    names.push_back(name.name);
  }
  kernel.setGridAttr(builder.getStrArrayAttr(names));
  return success();
}

LogicalResult Emitter::emitSmem(const ast::SmemDeclStmt &decl) {
  if (decl.isRegister) {
    if (failed(rejectAnnotations(decl, "a REG declaration")))
      return failure();
    // `layout=mma`: one tile of the block in the tensor-core accumulator
    // layout (kda2.reg_alloc {mma}), reached by products and fragment loops.
    // `split=rows|cols|none`: how its blocks spread over the warps.
    // `gather=G` (an integer or a bound name; nonzero: on) with split=none:
    // products into it that contract over a split=cols tile reduce block
    // by block (kda2.reg_alloc split "gather").
    bool mma = false;
    const ast::DeclAttr *split = nullptr, *gather = nullptr;
    bool gatherOn = false;
    for (const ast::DeclAttr &attr : decl.attrs) {
      if (attr.key == "gather") {
        std::optional<int64_t> value;
        if (attr.valueKind == ast::DeclAttr::ValueKind::Integer)
          value = attr.intValue;
        else if (attr.valueKind == ast::DeclAttr::ValueKind::Identifier) {
          // Off (0) keeps the kernel's metadata as without it.
          conditions.insert(attr.stringValue);
          value = boundInteger(attr.stringValue);
        }
        if (!value || (*value != 0 && *value != 1))
          return error(attr.valueLoc)
                 << "gather= takes 0 (off), 1 (on) or a name bound to one "
                    "with --tirx-bind";
        gather = &attr;
        gatherOn = *value != 0;
        continue;
      }
      if (attr.key == "split") {
        if (attr.valueKind != ast::DeclAttr::ValueKind::Identifier ||
            (attr.stringValue != "rows" && attr.stringValue != "cols" &&
             attr.stringValue != "none"))
          return error(attr.valueLoc)
                 << "an mma tile's split is 'rows' (16-row strips per warp), "
                    "'cols' (a column range per warp) or 'none' (a copy in "
                    "every warp)";
        split = &attr;
        continue;
      }
      if (attr.key != "layout")
        return error(attr.loc) << "unknown REG attribute '" << attr.key
                               << "'; expected layout=mma, split= or gather=";
      if (attr.valueKind != ast::DeclAttr::ValueKind::Identifier ||
          attr.stringValue != "mma")
        return error(attr.valueLoc)
               << "a REG tile's layout is 'mma' (the tensor-core "
                  "accumulator layout)";
      mma = true;
    }
    if (split && !mma)
      return error(split->loc)
             << "'split' applies to a REG {layout=mma} tile only";
    if (gather && (!split || split->stringValue != "none"))
      return error(gather->loc)
             << "'gather' applies to a REG {layout=mma, split=none} tile only "
                "(the warps' partial sums reduced block by block into a tile "
                "every warp holds)";
    if (lookupTensor(decl.name))
      return error(decl.nameLoc) << "'" << decl.name << "' is already defined";
    FailureOr<KDA2TensorType> type =
        tensorType(decl.type, builder.getF32Type(), MemorySpace::reg,
                   "REG tile '" + decl.name + "'");
    if (failed(type))
      return failure();
    if (mma && (type->getRank() != 2 || !type->hasStaticShape() ||
                !type->getElementType().isF32()))
      return error(decl.loc)
             << "REG {layout=mma} tile '" << decl.name
             << "' must be a 2-D f32 tile of static shape (a tensor-core "
                "accumulator)";
    Location at = NameLoc::get(builder.getStringAttr(decl.name), loc(decl.loc));
    auto alloc = RegAllocOp::create(builder, at, *type, /*mma=*/false,
                                    /*split=*/StringAttr());
    if (mma)
      alloc.setMma(true);
    if (split && split->stringValue != "rows")
      alloc.setSplit(gatherOn ? StringRef("gather") : split->stringValue);
    tensors[decl.name] = alloc.getResult();
    return success();
  }
  if (failed(rejectAnnotations(decl, "an SMEM declaration")))
    return failure();
  std::optional<int64_t> size;
  for (const ast::DeclAttr &attr : decl.attrs) {
    if (attr.key != "size")
      return error(attr.loc) << "unknown SMEM attribute '" << attr.key
                             << "'; expected size";
    if (attr.valueKind != ast::DeclAttr::ValueKind::Integer ||
        attr.intValue <= 0)
      return error(attr.valueLoc)
             << "SMEM size must be a positive byte count such as 128KB";
    size = attr.intValue;
  }
  if (!size)
    return error(decl.loc) << "SMEM declaration of '" << decl.name
                           << "' needs a size, e.g. SMEM {size=48KB}";
  if (lookupTensor(decl.name))
    return error(decl.nameLoc) << "'" << decl.name << "' is already defined";
  FailureOr<KDA2TensorType> type =
      tensorType(decl.type, builder.getF32Type(), MemorySpace::smem,
                 "SMEM buffer '" + decl.name + "'");
  if (failed(type))
    return failure();
  Location allocLoc =
      NameLoc::get(builder.getStringAttr(decl.name), loc(decl.loc));
  auto alloc = SmemAllocOp::create(builder, allocLoc, *type,
                                   builder.getI64IntegerAttr(*size));
  tensors[decl.name] = alloc.getResult();
  return success();
}

LogicalResult Emitter::emitFor(const ast::ForStmt &loopAst) {
  const ast::CallExpr &iter = *loopAst.iterator;
  if (iter.callee == "schedule.fragment")
    return emitFragmentFor(loopAst);
  if (!loopAst.var2.empty())
    return error(loopAst.var2Loc)
           << "only 'for r, c in schedule.fragment(t)' binds two loop "
              "variables";
  std::optional<LoopMapping> mapping =
      llvm::StringSwitch<std::optional<LoopMapping>>(iter.callee)
          .Case("schedule.block", LoopMapping::block)
          .Case("schedule.warp", LoopMapping::warp)
          .Case("schedule.thread", LoopMapping::thread)
          .Case("schedule.serial", LoopMapping::serial)
          .Case("schedule.ahead", LoopMapping::ahead)
          .Default(std::nullopt);
  if (!mapping) {
    if (iter.callee == "range")
      return error(iter.loc)
             << "plain 'for … in range(…)' is not allowed in a kernel: the "
                "schedule must be explicit; use schedule.block(n), "
                "schedule.warp(n), schedule.thread(n) or schedule.serial(n)";
    return error(iter.loc) << "unknown schedule '" << iter.callee
                           << "'; expected schedule.block, schedule.warp, "
                              "schedule.thread, schedule.serial or "
                              "schedule.ahead";
  }
  bool isThread = *mapping == LoopMapping::thread;
  if (iter.args.empty() || iter.args.size() > (isThread ? 2u : 1u))
    return error(iter.loc) << "'" << iter.callee << "' takes "
                           << (isThread ? "an extent and optionally the lanes "
                                          "per iteration"
                                        : "one extent")
                           << ", got " << iter.args.size() << " arguments";
  IntegerAttr lanes;
  if (iter.args.size() == 2) {
    const ast::Expr &arg = *iter.args[1];
    std::optional<int64_t> value;
    if (const auto *lit = dyn_cast<ast::IntLitExpr>(&arg))
      value = lit->value;
    else if (const auto *name = dyn_cast<ast::NameExpr>(&arg))
      value = boundInteger(name->name);
    if (!value)
      return error(arg.loc) << "lanes per iteration must be an integer "
                               "literal or a name bound with --tirx-bind";
    lanes = builder.getI64IntegerAttr(*value);
  }
  Value upper;
  const ast::Expr &extent = *iter.args.front();
  if (const auto *lit = dyn_cast<ast::IntLitExpr>(&extent)) {
    if (lit->value <= 0)
      return error(lit->loc) << "loop extent must be positive";
    upper = arith::ConstantIndexOp::create(builder, loc(lit->loc), lit->value);
  } else if (const auto *name = dyn_cast<ast::NameExpr>(&extent);
             name && boundInteger(name->name)) {
    upper = arith::ConstantIndexOp::create(builder, loc(name->loc),
                                           *boundInteger(name->name));
  } else if (const auto *name = dyn_cast<ast::NameExpr>(&extent);
             name && (isDimName(name->name) ||
                      *mapping != LoopMapping::serial ||
                      !isLocalName(name->name))) {
    if (!isDimName(name->name))
      return error(name->loc) << "loop extent '" << name->name
                              << "' is not a dimension of the kernel";
    upper = DimOp::create(builder, loc(name->loc), builder.getIndexType(),
                          name->name);
  } else if (*mapping == LoopMapping::serial) {
    // A serial loop may run for any index expression (e.g. eos - bos of a
    // variable-length sequence).
    FailureOr<Value> value = emitExpr(extent, builder.getIndexType());
    if (failed(value))
      return failure();
    if (!value->getType().isIntOrIndex())
      return error(ast::getStartLoc(extent))
             << "loop extent must be an integer, got " << value->getType();
    upper = castElement(*value, builder.getIndexType(), loc(extent.loc));
  } else {
    return error(ast::getStartLoc(extent))
           << "loop extent must be an integer or a dimension name";
  }

  SmallVector<Attribute> annotations;
  bool warpReduce = false;
  for (const ast::Pragma &p : loopAst.pragmas) {
    FailureOr<PragmaAttr> attr = pragma(p);
    if (failed(attr))
      return failure();
    if (*attr) // null: a conditional pragma that is off
      annotations.push_back(*attr);
  }
  for (const ast::Annotation &a : loopAst.annotations) {
    FailureOr<Attribute> attr = loopAnnotation(a);
    if (failed(attr))
      return failure();
    if (!*attr) // an annotation that is off (@persistent(0))
      continue;
    warpReduce |= isa<WarpReduceAttr>(*attr);
    annotations.push_back(*attr);
  }
  auto loop = LoopOp::create(builder, loc(loopAst.loc), upper, *mapping,
                             builder.getArrayAttr(annotations));
  if (lanes)
    loop.setLanesAttr(lanes);
  loop.getBody().getArgument(0).setLoc(
      NameLoc::get(builder.getStringAttr(loopAst.var), loc(loopAst.varLoc)));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(loop.getBodyBlock());
  loops.push_back({loop, warpReduce});
  scopes.emplace_back();
  scopes.back()[loopAst.var] = {loop.getInductionVar(),
                                static_cast<unsigned>(loops.size())};
  LogicalResult result = emitBody(loopAst.body);
  scopes.pop_back();
  loops.pop_back();
  return result;
}

/// `for r, c in schedule.fragment(t)`: the elements (r, c) of the mma
/// register tile t, each by the thread holding it. The loop runs over
/// i = r * N + c (N the tile's columns); r and c are i / N and i % N.
LogicalResult Emitter::emitFragmentFor(const ast::ForStmt &loopAst) {
  const ast::CallExpr &iter = *loopAst.iterator;
  const auto *name = iter.args.size() == 1
                         ? dyn_cast<ast::NameExpr>(iter.args.front().get())
                         : nullptr;
  if (!name)
    return error(iter.loc) << "'schedule.fragment' takes the name of a REG "
                              "{layout=mma} tile";
  Value tile = lookupTensor(name->name);
  auto alloc = tile ? tile.getDefiningOp<RegAllocOp>() : RegAllocOp();
  if (!alloc || !alloc.getMma())
    return error(name->loc) << "'" << name->name
                            << "' is not a REG {layout=mma} tile";
  if (loopAst.var2.empty())
    return error(loopAst.varLoc)
           << "'schedule.fragment' binds a row and a column: write 'for "
           << loopAst.var << ", c in schedule.fragment(" << name->name
           << ")'";
  if (!loopAst.pragmas.empty() || !loopAst.annotations.empty())
    return error(loopAst.loc)
           << "a fragment loop takes no pragmas or annotations";
  auto type = cast<KDA2TensorType>(tile.getType());
  int64_t rows = type.getShape()[0], columns = type.getShape()[1];
  Location at = loc(loopAst.loc);
  Value upper = arith::ConstantIndexOp::create(builder, at, rows * columns);
  auto loop = LoopOp::create(builder, at, upper, LoopMapping::fragment,
                             builder.getArrayAttr({}));
  loop.setColumnsAttr(builder.getI64IntegerAttr(columns));
  if (alloc.getSplitAttr())
    loop.setSplitAttr(alloc.getSplitAttr());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(loop.getBodyBlock());
  Value n = arith::ConstantIndexOp::create(builder, at, columns);
  Type index = builder.getIndexType();
  Value row = DivOp::create(
      builder,
      NameLoc::get(builder.getStringAttr(loopAst.var), loc(loopAst.varLoc)),
      index, loop.getInductionVar(), n);
  Value col = RemOp::create(
      builder,
      NameLoc::get(builder.getStringAttr(loopAst.var2), loc(loopAst.var2Loc)),
      index, loop.getInductionVar(), n);
  loops.push_back({loop, false});
  scopes.emplace_back();
  unsigned depth = static_cast<unsigned>(loops.size());
  scopes.back()[loopAst.var] = {row, depth};
  scopes.back()[loopAst.var2] = {col, depth};
  LogicalResult result = emitBody(loopAst.body);
  scopes.pop_back();
  loops.pop_back();
  return result;
}

LogicalResult Emitter::emitBody(const std::vector<ast::StmtPtr> &body) {
  for (const ast::StmtPtr &stmt : body)
    if (failed(emitStatement(*stmt)))
      return failure();
  return success();
}

LogicalResult Emitter::emitStatement(const ast::Stmt &stmt) {
  switch (stmt.getKind()) {
  case ast::Stmt::Kind::GmemDecl:
  case ast::Stmt::Kind::SmemDecl:
    return error(stmt.loc) << "declarations belong at the top level of the "
                              "kernel, not inside a loop";
  case ast::Stmt::Kind::Return:
    return error(stmt.loc) << "'return' inside a schedule loop";
  case ast::Stmt::Kind::For:
    return emitFor(cast<ast::ForStmt>(stmt));
  case ast::Stmt::Kind::If:
    return emitIf(cast<ast::IfStmt>(stmt));
  case ast::Stmt::Kind::Assign:
    return emitAssign(cast<ast::AssignStmt>(stmt));
  case ast::Stmt::Kind::Store:
    return emitStore(cast<ast::StoreStmt>(stmt));
  case ast::Stmt::Kind::Call:
    return emitCallStmt(cast<ast::CallStmt>(stmt));
  }
  return failure();
}

/// `signal(f[i, ...])` and `wait_for(f[i, ...])`: a ready flag between a
/// kernel and the kernel launched after it (kda2.signal, kda2.wait);
/// `launch_dependents()` and `wait_prior()`: the programmatic launch of the
/// next kernel and the wait for the one before (kda2.launch_dependents,
/// kda2.wait_prior).
LogicalResult Emitter::emitCallStmt(const ast::CallStmt &stmt) {
  if (failed(rejectAnnotations(stmt, "a call statement")))
    return failure();
  const ast::CallExpr &call = *stmt.call;
  bool launch = call.callee == "launch_dependents";
  if (launch || call.callee == "wait_prior") {
    if (!call.args.empty())
      return error(call.loc) << "'" << call.callee
                             << "' takes no arguments: " << call.callee
                             << "()";
    // Once per kernel: the module's verifier says so at the second one.
    if (launch)
      LaunchDependentsOp::create(builder, loc(stmt.loc));
    else
      WaitPriorOp::create(builder, loc(stmt.loc));
    return success();
  }
  bool signal = call.callee == "signal";
  if (!signal && call.callee != "wait_for")
    return error(call.loc) << "'" << call.callee
                           << "(...)' is not a statement; a call standing "
                              "alone is signal(f[i]), wait_for(f[i]), "
                              "launch_dependents() or wait_prior()";
  const auto *flag = call.args.size() == 1
                         ? dyn_cast<ast::IndexExpr>(call.args[0].get())
                         : nullptr;
  const auto *base =
      flag ? dyn_cast<ast::NameExpr>(flag->base.get()) : nullptr;
  if (!base)
    return error(call.loc) << "'" << call.callee
                           << "' takes one flag, an element of an i32 "
                              "tensor: " << call.callee << "(ready[i])";
  Value tensor = lookupTensor(base->name);
  if (!tensor) {
    if (std::string absent = absentMessage(base->name); !absent.empty())
      return error(flag->loc) << absent;
    return error(flag->loc) << "'" << base->name
                            << "' is not a tensor parameter or result";
  }
  auto type = cast<KDA2TensorType>(tensor.getType());
  auto arg = dyn_cast<BlockArgument>(tensor);
  if (!arg || type.getMemorySpace() != MemorySpace::gmem)
    return error(flag->loc) << "'" << base->name
                            << "' is a shared buffer; flags are global "
                               "tensors (kernel parameters or results)";
  if (!type.getElementType().isInteger(32))
    return error(flag->loc) << "flags are i32; '" << base->name << "' holds "
                            << type.getElementType();
  bool input = kernel.getArgIOKind(arg.getArgNumber()) == IOKind::in;
  if (signal == input)
    return error(flag->loc)
           << "'" << call.callee << "' " << (signal ? "sets" : "reads")
           << " a flag of " << (signal ? "a result" : "an input") << "; '"
           << base->name << "' is " << (input ? "an input" : "a result");
  FailureOr<SmallVector<Value>> indices = emitIndices(*flag, base->name);
  if (failed(indices))
    return failure();
  Type access = getAccessType(type, getImplicitGridRank(type, kernel),
                              indices->size());
  if (!access || isa<RankedTensorType>(access))
    return error(flag->loc) << "'" << call.callee
                            << "' takes one element: index every dimension "
                               "of '" << base->name
                            << "' after the kernel's grid";
  if (signal)
    SignalOp::create(builder, loc(stmt.loc), tensor, *indices);
  else
    WaitOp::create(builder, loc(stmt.loc), tensor, *indices);
  return success();
}

/// `if cond:` … `else:` …: a kda2.if whose regions hold the branches. Each
/// branch is a scope of its own: names it binds are not visible after it.
/// The value of an integer expression made of literals and names bound with
/// --tirx-bind (not shadowed by a local, a tensor or a dimension), if it
/// is one.
std::optional<int64_t> Emitter::staticValue(const ast::Expr &expr) {
  if (const auto *lit = dyn_cast<ast::IntLitExpr>(&expr))
    return lit->value;
  if (const auto *name = dyn_cast<ast::NameExpr>(&expr)) {
    if (isLocalName(name->name) || lookupTensor(name->name) ||
        isDimName(name->name))
      return std::nullopt;
    return boundInteger(name->name);
  }
  if (const auto *unary = dyn_cast<ast::UnaryExpr>(&expr)) {
    std::optional<int64_t> v = staticValue(*unary->operand);
    if (!v)
      return std::nullopt;
    return unary->op == ast::UnaryOp::Neg ? -*v : int64_t(*v == 0);
  }
  const auto *binary = dyn_cast<ast::BinaryExpr>(&expr);
  if (!binary)
    return std::nullopt;
  std::optional<int64_t> l = staticValue(*binary->lhs);
  std::optional<int64_t> r = l ? staticValue(*binary->rhs) : std::nullopt;
  if (!r)
    return std::nullopt;
  switch (binary->op) {
  case ast::BinaryOp::Eq:
    return *l == *r;
  case ast::BinaryOp::Ne:
    return *l != *r;
  case ast::BinaryOp::Lt:
    return *l < *r;
  case ast::BinaryOp::Le:
    return *l <= *r;
  case ast::BinaryOp::Gt:
    return *l > *r;
  case ast::BinaryOp::Ge:
    return *l >= *r;
  case ast::BinaryOp::Add:
    return *l + *r;
  case ast::BinaryOp::Sub:
    return *l - *r;
  case ast::BinaryOp::Mul:
    return *l * *r;
  case ast::BinaryOp::And:
    return *l != 0 && *r != 0;
  case ast::BinaryOp::Or:
    return *l != 0 || *r != 0;
  case ast::BinaryOp::Div:
  case ast::BinaryOp::Rem:
    return std::nullopt; // the emitted forms' rounding rules apply
  }
  return std::nullopt;
}

LogicalResult Emitter::emitIf(const ast::IfStmt &branch) {
  if (failed(rejectAnnotations(branch, "an 'if' statement")))
    return failure();
  auto emitScope = [&](const std::vector<ast::StmtPtr> &body) {
    scopes.emplace_back();
    LogicalResult result = emitBody(body);
    scopes.pop_back();
    return result;
  };
  // A condition known at import (bindings, literals) keeps only its branch,
  // imported in place: the other one is not imported, so it may name a
  // conditional parameter this build leaves out (`if RDY:
  // signal(ready[i])`), and the names the kept branch binds stay bound
  // after it (`if TQ: kv = Ks[r, d]` / `else: kv = k[...]`).
  if (std::optional<int64_t> known = staticValue(*branch.condition))
    return emitBody(*known ? branch.thenBody : branch.elseBody);
  FailureOr<Value> condition = emitExpr(*branch.condition);
  if (failed(condition))
    return failure();
  if (isa<RankedTensorType>(condition->getType()))
    return error(ast::getStartLoc(*branch.condition))
           << "the condition of 'if' must be a scalar, got the tile "
           << condition->getType()
           << "; use where(c, a, b) to choose element-wise";
  condition = toCondition(*condition, branch.loc);
  if (failed(condition))
    return failure();
  auto op = IfOp::create(builder, loc(branch.loc), *condition,
                         /*withElseRegion=*/!branch.elseBody.empty());
  auto emitRegion = [&](Block *block,
                        const std::vector<ast::StmtPtr> &body) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(block);
    return emitScope(body);
  };
  if (failed(emitRegion(op.getThenBlock(), branch.thenBody)))
    return failure();
  if (Block *elseBlock = op.getElseBlock())
    return emitRegion(elseBlock, branch.elseBody);
  return success();
}

/// The binary operator a compound assignment applies.
static ast::BinaryOp compoundOp(ast::AssignOp op) {
  switch (op) {
  case ast::AssignOp::Add:
    return ast::BinaryOp::Add;
  case ast::AssignOp::Sub:
    return ast::BinaryOp::Sub;
  case ast::AssignOp::Mul:
    return ast::BinaryOp::Mul;
  case ast::AssignOp::Div:
  case ast::AssignOp::Assign:
    return ast::BinaryOp::Div;
  }
  return ast::BinaryOp::Add;
}

LogicalResult Emitter::emitAssign(const ast::AssignStmt &assign) {
  if (!assign.pragmas.empty())
    return error(assign.pragmas.front().loc)
           << "'#pragma " << assign.pragmas.front().name
           << "' must precede a schedule loop";
  if (lookupTensor(assign.target) || isDimName(assign.target))
    return error(assign.loc) << "cannot assign to '" << assign.target
                             << "': it names a tensor or a dimension";
  Value current;
  if (assign.op != ast::AssignOp::Assign) {
    auto it = scopes.back().find(assign.target);
    if (it == scopes.back().end()) {
      for (auto &scope : scopes)
        if (scope.count(assign.target))
          return error(assign.loc)
                 << "'" << assign.target
                 << "' is defined outside this loop or 'if' branch; "
                    "loop-carried accumulation is not supported, use "
                    "reduce.sum(…), and a branch cannot update an outer "
                    "name (store into a REG tile instead)";
      return error(assign.loc) << "'" << assign.target << "' is not defined";
    }
    current = it->second.value;
  }
  FailureOr<Value> value =
      emitExpr(*assign.value, current ? getElementTypeOrSelf(current.getType())
                                      : Type());
  if (failed(value))
    return failure();
  if (current) {
    value = emitBinaryOp(compoundOp(assign.op), current, *value, assign.opLoc);
    if (failed(value))
      return failure();
  }
  value = applyStatementAnnotations(assign, *value);
  if (failed(value))
    return failure();
  scopes.back()[assign.target] = {*value, static_cast<unsigned>(loops.size())};
  return success();
}

FailureOr<Value> Emitter::coerceForStore(Value value, Type expected, SMLoc at,
                                         StringRef tensorName) {
  bool valueTile = isa<RankedTensorType>(value.getType());
  bool slotTile = isa<RankedTensorType>(expected);
  if (valueTile && !slotTile) {
    bool inWarpReduce =
        llvm::any_of(loops, [](const LoopFrame &f) { return f.warpReduce; });
    if (!inWarpReduce)
      return error(at) << "cannot store a tile of type " << value.getType()
                       << " into a scalar element of '" << tensorName
                       << "'; reduce it first (reduce.sum) or annotate the "
                          "loop @warp_reduce";
    auto tile = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> rest(tile.getShape().drop_back());
    Type resultType = rest.empty() ? tile.getElementType()
                                   : Type(RankedTensorType::get(
                                         rest, tile.getElementType()));
    if (!rest.empty())
      return error(at) << "@warp_reduce reduces only rank-1 tiles into a "
                          "scalar, got "
                       << value.getType();
    value = ReduceOp::create(builder, loc(at), resultType, ReduceKind::sum,
                             value, IntegerAttr());
  } else if (!valueTile && slotTile) {
    return error(at) << "cannot store the scalar " << value.getType()
                     << " into the tile " << expected << " of '" << tensorName
                     << "'";
  }
  return castElement(value, getElementTypeOrSelf(expected), loc(at));
}

/// Whether `index` holds a slice other than the full ':' (a window).
static bool hasWindow(const ast::IndexExpr &index) {
  return llvm::any_of(index.indices, [](const ast::ExprPtr &e) {
    const auto *slice = dyn_cast<ast::SliceExpr>(e.get());
    return slice && !slice->isFull();
  });
}

LogicalResult Emitter::emitStore(const ast::StoreStmt &store) {
  if (failed(rejectAnnotations(store, "a store; annotate the loop instead")))
    return failure();
  const ast::IndexExpr &target = *store.target;
  const auto *base = dyn_cast<ast::NameExpr>(target.base.get());
  Value tensor = base ? lookupTensor(base->name) : Value();
  if (!tensor) {
    if (std::string absent = base ? absentMessage(base->name) : "";
        !absent.empty())
      return error(target.loc) << absent;
    return error(target.loc) << "the target of a store must be a tensor "
                                "parameter, result or SMEM buffer";
  }
  if (auto arg = dyn_cast<BlockArgument>(tensor))
    if (kernel.getArgIOKind(arg.getArgNumber()) == IOKind::in)
      return error(store.loc) << "'" << base->name
                              << "' is a kernel input and cannot be written";
  FailureOr<SmallVector<Value>> indices = emitIndices(target, base->name);
  if (failed(indices))
    return failure();
  auto type = cast<KDA2TensorType>(tensor.getType());
  Type expected = getAccessType(type, getImplicitGridRank(type, kernel),
                                indices->size());
  if (!expected)
    return error(target.loc) << "too many indices for '" << base->name << "'";
  FailureOr<Value> value;
  const auto *windowed = dyn_cast<ast::IndexExpr>(store.value.get());
  if (windowed && hasWindow(*windowed)) {
    // `Buf[:, :] = t[s:, i, c:]`: a window of t copied into the buffer.
    auto tile = dyn_cast<RankedTensorType>(expected);
    if (!tile || store.op != ast::AssignOp::Assign ||
        type.getMemorySpace() != MemorySpace::smem)
      return error(windowed->loc)
             << "a window ('start:') is read by a whole-tile copy into a "
                "shared buffer: 'Buf[:, :] = t[start:, ...]'";
    value = emitWindowedLoad(*windowed, tile);
  } else {
    value = emitExpr(*store.value, getElementTypeOrSelf(expected));
  }
  if (failed(value))
    return failure();
  if (store.op != ast::AssignOp::Assign) {
    Value current = LoadOp::create(builder, loc(store.loc), expected, tensor,
                                   *indices);
    value = emitBinaryOp(compoundOp(store.op), current, *value, store.opLoc);
    if (failed(value))
      return failure();
  }
  value = coerceForStore(*value, expected, store.opLoc, base->name);
  if (failed(value))
    return failure();
  StoreOp::create(builder, loc(store.loc), *value, tensor, *indices);
  return success();
}

//===----------------------------------------------------------------------===//
// Annotations
//===----------------------------------------------------------------------===//

LogicalResult Emitter::expectArgs(const ast::Annotation &annotation,
                                  size_t count, StringRef usage) {
  if (annotation.args.size() != count)
    return error(annotation.loc) << "'" << annotation.getSpelling()
                                 << "' takes " << usage << ", got "
                                 << annotation.args.size() << " arguments";
  return success();
}

/// The integer value of `expr` when it is an integer literal.
static std::optional<int64_t> intLiteral(const ast::Expr &expr) {
  if (const auto *lit = dyn_cast<ast::IntLitExpr>(&expr))
    return lit->value;
  return std::nullopt;
}

/// The name `expr` spells when it is a name or a string literal.
static std::optional<std::string> nameOrString(const ast::Expr &expr) {
  if (const auto *name = dyn_cast<ast::NameExpr>(&expr))
    return name->name;
  if (const auto *str = dyn_cast<ast::StringLitExpr>(&expr))
    return str->value;
  return std::nullopt;
}

FailureOr<PragmaAttr> Emitter::pragma(const ast::Pragma &p) {
  std::optional<PragmaKind> kind = symbolizePragmaKind(p.name);
  if (!kind)
    return error(p.loc) << "unknown pragma '" << p.name
                        << "'; expected tma_coalesce, tma_pipeline, "
                           "l2_prefetch, sm_shuffle, unroll, wgmma, "
                           "grid_first or fold_accumulator";
  if (!p.condition.empty()) {
    // `#pragma name if NAME`: only with NAME bound nonzero (recorded in
    // kda2.bindings only then, like a conditional parameter's binding).
    conditions.insert(p.condition);
    auto bound = options.bindings.find(p.condition);
    if (bound == options.bindings.end()) {
      if (options.typeBindings.count(p.condition) ||
          options.layoutBindings.count(p.condition) ||
          options.stateBindings.count(p.condition))
        return error(p.conditionLoc)
               << "'" << p.condition
               << "' must be bound to an integer to make '#pragma " << p.name
               << "' conditional";
      return PragmaAttr(); // unbound: off
    }
    if (!*boundInteger(p.condition))
      return PragmaAttr();
  }
  return PragmaAttr::get(context, *kind);
}

/// An attribute built with getChecked (null: its verifier reported why).
static FailureOr<Attribute> checked(Attribute attr) {
  if (!attr)
    return failure();
  return attr;
}

FailureOr<Attribute> Emitter::loopAnnotation(const ast::Annotation &a) {
  if (a.condition && a.name != "coalesced_access")
    return error(a.loc) << "only @coalesced_access takes an 'if … else …' "
                           "condition";
  if (a.name == "warp_reduce") {
    if (failed(expectArgs(a, 0, "no arguments")))
      return failure();
    return Attribute(WarpReduceAttr::get(context));
  }
  if (a.name == "bank_conflict_free") {
    if (failed(expectArgs(a, 0, "no arguments")))
      return failure();
    return Attribute(BankConflictFreeAttr::get(context));
  }
  if (a.name == "coalesced_access") {
    if (failed(expectArgs(a, 0, "no arguments (write 'if dim % N == 0 else "
                                "fallback' after it)")))
      return failure();
    if (!a.condition)
      return Attribute(CoalescedAccessAttr::get(context, StringAttr(), 0,
                                                CoalesceFallbackAttr()));
    // The condition has the form `dim % N == 0`.
    const auto *eq = dyn_cast<ast::BinaryExpr>(a.condition.get());
    const auto *rem =
        eq ? dyn_cast<ast::BinaryExpr>(eq->lhs.get()) : nullptr;
    const auto *dim = rem ? dyn_cast<ast::NameExpr>(rem->lhs.get()) : nullptr;
    std::optional<int64_t> modulus =
        rem ? intLiteral(*rem->rhs) : std::nullopt;
    std::optional<int64_t> zero = eq ? intLiteral(*eq->rhs) : std::nullopt;
    if (!eq || eq->op != ast::BinaryOp::Eq || !rem ||
        rem->op != ast::BinaryOp::Rem || !dim || !modulus || *modulus <= 0 ||
        zero != 0)
      return error(ast::getStartLoc(*a.condition))
             << "coalescing condition must have the form 'dim % N == 0' "
                "with N > 0";
    if (!isDimName(dim->name))
      return error(dim->loc) << "'" << dim->name
                             << "' is not a dimension of the kernel";
    CoalesceFallbackAttr fallback;
    if (!a.fallback.empty()) {
      std::optional<CoalesceFallback> kind =
          symbolizeCoalesceFallback(a.fallback);
      if (!kind)
        return error(a.fallbackLoc)
               << "unknown fallback '" << a.fallback
               << "'; expected scalar, padding_align16 or padding_align32";
      fallback = CoalesceFallbackAttr::get(context, *kind);
    }
    return Attribute(CoalescedAccessAttr::get(
        context, builder.getStringAttr(dim->name), *modulus, fallback));
  }
  if (a.name == "tma_bound") {
    if (failed(expectArgs(a, 2, "two integers (rows, cols)")))
      return failure();
    std::optional<int64_t> rows = intLiteral(*a.args[0].value);
    std::optional<int64_t> cols = intLiteral(*a.args[1].value);
    if (!rows || !cols)
      return error(a.loc) << "'@tma_bound' takes two integers (rows, cols)";
    Attribute attr = TmaBoundAttr::getChecked([&] { return error(a.loc); },
                                              context, *rows, *cols);
    return checked(attr);
  }
  // One integer: a literal or a name bound with --tirx-bind.
  auto integerArg = [&](StringRef what) -> FailureOr<int64_t> {
    if (failed(expectArgs(a, 1, ("one integer (" + what + ")").str())))
      return failure();
    std::optional<int64_t> value = intLiteral(*a.args[0].value);
    if (const auto *name = dyn_cast<ast::NameExpr>(a.args[0].value.get()))
      value = boundInteger(name->name);
    if (!value)
      return error(a.loc) << "'" << a.getSpelling()
                          << "' takes an integer literal or a name bound "
                             "with --tirx-bind";
    return *value;
  };
  if (a.name == "pipeline_stages") {
    FailureOr<int64_t> stages = integerArg("the buffer stages");
    if (failed(stages))
      return failure();
    return checked(PipelineStagesAttr::getChecked(
        [&] { return error(a.loc); }, context, *stages));
  }
  if (a.name == "blocks_per_sm") {
    FailureOr<int64_t> blocks = integerArg("the blocks per SM");
    if (failed(blocks))
      return failure();
    return checked(BlocksPerSmAttr::getChecked(
        [&] { return error(a.loc); }, context, *blocks));
  }
  if (a.name == "mma_warps") {
    FailureOr<int64_t> warps = integerArg("the computing warps");
    if (failed(warps))
      return failure();
    return checked(MmaWarpsAttr::getChecked([&] { return error(a.loc); },
                                            context, *warps));
  }
  if (a.name == "persistent") {
    // 0 is off: no annotation, and a binding giving it is then not recorded
    // (like a conditional parameter's), so builds without it keep their
    // metadata.
    if (a.args.size() == 1)
      if (const auto *name = dyn_cast<ast::NameExpr>(a.args[0].value.get()))
        conditions.insert(name->name);
    FailureOr<int64_t> blocks = integerArg("the resident blocks per SM");
    if (failed(blocks))
      return failure();
    if (*blocks == 0)
      return Attribute();
    return checked(PersistentAttr::getChecked(
        [&] { return error(a.loc); }, context, *blocks));
  }
  if (a.name == "warpgroup_registers") {
    if (failed(expectArgs(a, 3, "three integers (registers per thread of the "
                                "computing, ahead and producer groups)")))
      return failure();
    SmallVector<int64_t> counts;
    for (const ast::AnnotationArg &arg : a.args) {
      std::optional<int64_t> value = intLiteral(*arg.value);
      if (const auto *name = dyn_cast<ast::NameExpr>(arg.value.get()))
        value = boundInteger(name->name);
      if (!value)
        return error(arg.loc) << "'@warpgroup_registers' takes integer "
                                 "literals or names bound with --tirx-bind";
      counts.push_back(*value);
    }
    // All three 0: off (no annotation; a template binds them).
    if (llvm::all_of(counts, [](int64_t c) { return c == 0; }))
      return Attribute();
    return checked(WarpgroupRegistersAttr::getChecked(
        [&] { return error(a.loc); }, context, counts[0], counts[1],
        counts[2]));
  }
  if (a.name == "producer_warp") {
    if (failed(expectArgs(a, 0, "no arguments")))
      return failure();
    return Attribute(ProducerWarpAttr::get(context));
  }
  if (a.name == "shape_hint") {
    if (failed(expectArgs(a, 2, "a dimension and a list of sizes")))
      return failure();
    std::optional<std::string> dim = nameOrString(*a.args[0].value);
    const auto *list = dyn_cast<ast::ListExpr>(a.args[1].value.get());
    if (!dim || !list)
      return error(a.loc) << "'@shape_hint' takes a dimension and a list of "
                             "sizes, e.g. @shape_hint(seqlen, [128, 256])";
    if (!isDimName(*dim))
      return error(a.args[0].loc) << "'" << *dim
                                  << "' is not a dimension of the kernel";
    SmallVector<int64_t> values;
    for (const ast::ExprPtr &element : list->elements) {
      std::optional<int64_t> value = intLiteral(*element);
      if (!value)
        return error(ast::getStartLoc(*element))
               << "shape hint values must be integers";
      values.push_back(*value);
    }
    Attribute attr = ShapeHintAttr::getChecked(
        [&] { return error(a.loc); }, context, builder.getStringAttr(*dim),
        ArrayRef<int64_t>(values));
    return checked(attr);
  }
  if (a.name == "delta_masked" || a.name == "custom_counter")
    return error(a.loc) << "'" << a.getSpelling()
                        << "' applies to an assignment, not a loop";
  return error(a.loc) << "unknown annotation '" << a.getSpelling()
                      << "'; expected @warp_reduce, $bank_conflict_free, "
                         "@coalesced_access, @tma_bound, @pipeline_stages, "
                         "@producer_warp, @warpgroup_registers, "
                         "@blocks_per_sm, @mma_warps, @shape_hint, "
                         "@delta_masked or "
                         "@custom_counter";
}

FailureOr<Value> Emitter::applyStatementAnnotations(const ast::Stmt &stmt,
                                                    Value value) {
  for (const ast::Annotation &a : stmt.annotations) {
    if (a.condition)
      return error(a.loc) << "only @coalesced_access takes an 'if … else …' "
                             "condition";
    if (a.name == "custom_counter") {
      if (failed(expectArgs(a, 1, "one counter name")))
        return failure();
      std::optional<std::string> name = nameOrString(*a.args[0].value);
      if (!name)
        return error(a.args[0].loc) << "counter name must be a name or a "
                                       "string";
      if (isa<RankedTensorType>(value.getType()))
        return error(a.loc) << "'@custom_counter' records a scalar, got "
                            << value.getType();
      CounterOp::create(builder, loc(a.loc), *name, value);
      continue;
    }
    if (a.name != "delta_masked") {
      if (a.name == "warp_reduce" || a.name == "bank_conflict_free" ||
          a.name == "coalesced_access" || a.name == "tma_bound" ||
          a.name == "shape_hint")
        return error(a.loc) << "'" << a.getSpelling()
                            << "' applies to a schedule loop, not an "
                               "assignment";
      return error(a.loc) << "unknown annotation '" << a.getSpelling() << "'";
    }
    // @delta_masked(mask_type=uint8, mask=name, fill=value)
    std::optional<MaskType> maskType;
    std::string maskName = "mask";
    SMLoc maskLoc = a.loc;
    double fill = 0.0;
    for (const ast::AnnotationArg &arg : a.args) {
      if (arg.key == "mask_type") {
        std::optional<std::string> name = nameOrString(*arg.value);
        maskType = name ? symbolizeMaskType(*name) : std::nullopt;
        if (!maskType)
          return error(arg.loc) << "unknown mask_type; expected uint8 or bool";
      } else if (arg.key == "mask") {
        std::optional<std::string> name = nameOrString(*arg.value);
        if (!name)
          return error(arg.loc) << "mask must name a tensor";
        maskName = *name;
        maskLoc = arg.loc;
      } else if (arg.key == "fill") {
        // A negative fill (`fill=-1e30`, `fill=-inf`) is a negated literal.
        const ast::Expr *fillExpr = arg.value.get();
        bool negate = false;
        if (const auto *unary = dyn_cast<ast::UnaryExpr>(fillExpr)) {
          fillExpr = unary->operand.get();
          negate = true;
        }
        FailureOr<Value> literal =
            emitLiteral(*fillExpr, builder.getF64Type(), negate);
        if (failed(literal))
          return failure();
        auto constant = literal->getDefiningOp<arith::ConstantOp>();
        fill = cast<FloatAttr>(constant.getValue()).getValueAsDouble();
        constant.erase();
      } else {
        return error(arg.loc) << "'@delta_masked' takes mask_type=, mask= "
                                 "and fill=, got '"
                              << (arg.key.empty() ? "a positional argument"
                                                  : arg.key)
                              << "'";
      }
    }
    if (!maskType)
      return error(a.loc) << "'@delta_masked' needs mask_type=uint8 or "
                             "mask_type=bool";
    Value mask = lookupTensor(maskName);
    if (!mask)
      return error(maskLoc) << "'@delta_masked' needs a mask tensor: name it "
                               "with mask=<tensor> or declare a parameter "
                               "called 'mask'";
    auto maskTensor = cast<KDA2TensorType>(mask.getType());
    unsigned addressable =
        maskTensor.getRank() - getImplicitGridRank(maskTensor, kernel);
    if (addressable > loops.size())
      return error(a.loc) << "'@delta_masked' indexes '" << maskName
                          << "' with the enclosing loop variables, but it has "
                          << addressable << " addressable dimensions and the "
                          << "statement is inside " << loops.size()
                          << " loops";
    SmallVector<Value> indices;
    for (size_t i = loops.size() - addressable; i < loops.size(); ++i)
      indices.push_back(loops[i].op.getInductionVar());
    Type maskElement = maskTensor.getElementType();
    bool ok = *maskType == MaskType::uint8 ? maskElement.isInteger(8)
                                           : maskElement.isInteger(1);
    if (!ok)
      return error(a.loc) << "mask '" << maskName << "' has element type "
                          << maskElement << " but mask_type="
                          << stringifyMaskType(*maskType)
                          << " needs " << stringifyMaskType(*maskType)
                          << "; declare it as Tensor[…, dtype="
                          << stringifyMaskType(*maskType) << "]";
    Value maskValue = LoadOp::create(builder, loc(a.loc), maskElement, mask,
                                     indices);
    if (!isa<FloatType>(getElementTypeOrSelf(value.getType())))
      return error(a.loc) << "'@delta_masked' masks float values, got "
                          << value.getType();
    if (isa<RankedTensorType>(value.getType()))
      return error(a.loc) << "'@delta_masked' masks one element per loop "
                             "iteration; the value is the tile "
                          << value.getType();
    value = DeltaMaskedOp::create(builder, loc(a.loc), value, maskValue,
                                  *maskType, fill);
  }
  return value;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

FailureOr<Value> Emitter::emitLiteral(const ast::Expr &expr, Type hint,
                                      bool negate) {
  Type element = hint ? getElementTypeOrSelf(hint) : Type();
  if (const auto *lit = dyn_cast<ast::IntLitExpr>(&expr)) {
    int64_t value = negate ? -lit->value : lit->value;
    if (element && isa<FloatType>(element))
      return Value(arith::ConstantOp::create(
          builder, loc(expr.loc), FloatAttr::get(element, double(value))));
    if (!element || element.isIndex())
      return Value(arith::ConstantIndexOp::create(builder, loc(expr.loc), value));
    return Value(arith::ConstantOp::create(
        builder, loc(expr.loc), IntegerAttr::get(element, value)));
  }
  const auto *lit = dyn_cast<ast::FloatLitExpr>(&expr);
  if (!lit)
    return error(ast::getStartLoc(expr)) << "expected a number";
  if (!element || !isa<FloatType>(element))
    element = builder.getF32Type();
  double value = negate ? -lit->value : lit->value;
  return Value(arith::ConstantOp::create(builder, loc(expr.loc),
                                         FloatAttr::get(element, value)));
}

FailureOr<Value> Emitter::emitExpr(const ast::Expr &expr, Type hint) {
  switch (expr.getKind()) {
  case ast::Expr::Kind::IntLit:
  case ast::Expr::Kind::FloatLit:
    return emitLiteral(expr, hint, false);
  case ast::Expr::Kind::Name:
    return emitName(cast<ast::NameExpr>(expr));
  case ast::Expr::Kind::Index:
    return emitIndex(cast<ast::IndexExpr>(expr));
  case ast::Expr::Kind::Call:
    return emitCall(cast<ast::CallExpr>(expr));
  case ast::Expr::Kind::Binary:
    return emitBinary(cast<ast::BinaryExpr>(expr));
  case ast::Expr::Kind::Cond:
    return emitCond(cast<ast::CondExpr>(expr));
  case ast::Expr::Kind::Unary: {
    const auto &unary = cast<ast::UnaryExpr>(expr);
    if (unary.op == ast::UnaryOp::Not) {
      FailureOr<Value> operand = emitExpr(*unary.operand);
      if (failed(operand))
        return failure();
      operand = toCondition(*operand, unary.loc);
      if (failed(operand))
        return failure();
      Value no = arith::ConstantOp::create(builder, loc(unary.loc),
                                           builder.getBoolAttr(false));
      return emitBinaryOp(ast::BinaryOp::Eq, *operand, no, unary.loc);
    }
    if (isa<ast::IntLitExpr, ast::FloatLitExpr>(unary.operand.get()))
      return emitLiteral(*unary.operand, hint, true);
    FailureOr<Value> operand = emitExpr(*unary.operand, hint);
    if (failed(operand))
      return failure();
    if (isa<FloatType>(getElementTypeOrSelf(operand->getType())))
      return Value(NegOp::create(builder, loc(unary.loc), *operand));
    Value zero = arith::ConstantOp::create(
        builder, loc(unary.loc),
        builder.getZeroAttr(getElementTypeOrSelf(operand->getType())));
    return emitBinaryOp(ast::BinaryOp::Sub, zero, *operand, unary.loc);
  }
  case ast::Expr::Kind::StringLit:
    return error(expr.loc) << "a string is not a value";
  case ast::Expr::Kind::Slice:
    return error(expr.loc) << "a slice ':' may only appear as an index";
  case ast::Expr::Kind::List:
    return error(expr.loc) << "a list is only allowed as an annotation "
                              "argument";
  }
  return failure();
}

FailureOr<Value> Emitter::emitName(const ast::NameExpr &name) {
  for (auto &scope : llvm::reverse(scopes)) {
    auto it = scope.find(name.name);
    if (it != scope.end())
      return it->second.value;
  }
  if (Value tensor = lookupTensor(name.name)) {
    // A bare tensor name is its whole addressable tile.
    auto type = cast<KDA2TensorType>(tensor.getType());
    Type result = getAccessType(type, getImplicitGridRank(type, kernel), 0);
    return Value(LoadOp::create(builder, loc(name.loc), result, tensor,
                                ValueRange()));
  }
  if (isDimName(name.name))
    return Value(DimOp::create(builder, loc(name.loc), builder.getIndexType(),
                               name.name));
  if (std::optional<int64_t> bound = boundInteger(name.name))
    return Value(arith::ConstantIndexOp::create(builder, loc(name.loc),
                                                *bound));
  if (name.name == "inf")
    return Value(arith::ConstantOp::create(
        builder, loc(name.loc),
        builder.getF32FloatAttr(std::numeric_limits<float>::infinity())));
  if (std::string absent = absentMessage(name.name); !absent.empty())
    return error(name.loc) << absent;
  return error(name.loc) << "unknown name '" << name.name << "'";
}

/// The indices of `index` before its trailing full slices (which select
/// whole dimensions).
static size_t indexedCount(const ast::IndexExpr &index) {
  size_t count = index.indices.size();
  while (count > 0) {
    const auto *slice = dyn_cast<ast::SliceExpr>(index.indices[count - 1].get());
    if (!slice || !slice->isFull())
      break;
    --count;
  }
  return count;
}

FailureOr<SmallVector<Value>>
Emitter::emitIndices(const ast::IndexExpr &index, StringRef tensorName) {
  SmallVector<Value> indices;
  size_t count = indexedCount(index);
  for (size_t i = 0; i < count; ++i) {
    const ast::Expr &expr = *index.indices[i];
    if (isa<ast::SliceExpr>(expr))
      return error(expr.loc)
             << "only trailing ':' slices (and 'start:' windows in a whole-tile "
                "copy into a shared buffer) are supported when indexing '"
             << tensorName << "'";
    FailureOr<Value> value = emitIndexValue(expr, tensorName);
    if (failed(value))
      return failure();
    indices.push_back(*value);
  }
  return indices;
}

FailureOr<Value> Emitter::emitIndexValue(const ast::Expr &expr,
                                         StringRef tensorName) {
  FailureOr<Value> value = emitExpr(expr, builder.getIndexType());
  if (failed(value))
    return failure();
  // An integer scalar (a slot read from an int32 tensor) indexes as is.
  if (value->getType().isSignlessInteger() && !value->getType().isInteger(1))
    value = castElement(*value, builder.getIndexType(), loc(expr.loc));
  if (!value->getType().isIndex())
    return error(ast::getStartLoc(expr))
           << "index into '" << tensorName << "' must be an integer index, got "
           << value->getType();
  return value;
}

FailureOr<Value> Emitter::emitWindowedLoad(const ast::IndexExpr &index,
                                           RankedTensorType tile) {
  const auto *base = dyn_cast<ast::NameExpr>(index.base.get());
  Value tensor = base ? lookupTensor(base->name) : Value();
  if (!tensor) {
    if (std::string absent = base ? absentMessage(base->name) : "";
        !absent.empty())
      return error(index.loc) << absent;
    return error(index.loc) << "only tensors (parameters, results, SMEM "
                               "buffers) can be indexed";
  }
  auto type = cast<KDA2TensorType>(tensor.getType());
  if (type.getMemorySpace() != MemorySpace::gmem)
    return error(index.loc) << "windows ('start:') read global tensors; '"
                            << base->name << "' is not one";
  size_t count = indexedCount(index);
  unsigned gridRank = getImplicitGridRank(type, kernel);
  SmallVector<Value> indices;
  SmallVector<int64_t> windows;
  // Each window's limit ('start:stop'), null where it has none.
  SmallVector<std::pair<Value, const ast::SliceExpr *>> limits;
  int64_t used = 0;
  for (size_t i = 0; i < count; ++i) {
    const ast::Expr &expr = *index.indices[i];
    const ast::Expr *at = &expr;
    int64_t size = 0;
    if (const auto *slice = dyn_cast<ast::SliceExpr>(&expr)) {
      if (!slice->lower)
        return error(expr.loc)
               << "a window is written 'start:' or 'start:stop': it takes its "
                  "size from the destination tile (a full ':' only after the "
                  "last index)";
      if (used >= tile.getRank())
        return error(expr.loc) << "more windows than the destination tile's "
                               << tile.getRank() << " dimensions";
      at = slice->lower.get();
      size = tile.getShape()[used++];
      Value limit;
      if (slice->upper) {
        FailureOr<Value> stop = emitIndexValue(*slice->upper, base->name);
        if (failed(stop))
          return failure();
        limit = *stop;
      }
      limits.push_back({limit, slice});
    }
    FailureOr<Value> value = emitIndexValue(*at, base->name);
    if (failed(value))
      return failure();
    indices.push_back(*value);
    windows.push_back(size);
  }
  // With one limit, every window has one: a window without its own stops
  // at its dimension's end.
  SmallVector<Value> limitValues;
  if (llvm::any_of(limits, [](auto &l) { return bool(l.first); })) {
    int64_t w = 0;
    for (auto [i, n] : llvm::enumerate(windows)) {
      if (!n)
        continue;
      auto [limit, slice] = limits[w++];
      if (!limit) {
        unsigned d = gridRank + i;
        int64_t size =
            d < type.getRank() ? type.getShape()[d] : ShapedType::kDynamic;
        StringRef dim = d < type.getRank() ? type.getDimName(d) : "";
        if (!ShapedType::isDynamic(size))
          limit = arith::ConstantIndexOp::create(builder, loc(slice->loc), size);
        else if (!dim.empty())
          limit = DimOp::create(builder, loc(slice->loc),
                                builder.getIndexType(), dim);
        else
          return error(slice->loc)
                 << "this window needs a stop ('start:stop') like the others "
                    "of the copy: its dimension has no name or size";
      }
      limitValues.push_back(limit);
    }
  }
  Type rest = getAccessType(type, gridRank, indices.size());
  ArrayRef<int64_t> restShape;
  if (auto restTile = dyn_cast_if_present<RankedTensorType>(rest))
    restShape = restTile.getShape();
  if (!rest || tile.getRank() - used != int64_t(restShape.size()))
    return error(index.loc)
           << "the windows and the dimensions after them make a tile of rank "
           << used + int64_t(restShape.size()) << ", the destination has "
           << tile.getRank();
  auto load = LoadOp::create(
      builder, loc(index.loc),
      RankedTensorType::get(tile.getShape(), type.getElementType()), tensor,
      indices, limitValues, builder.getDenseI64ArrayAttr(windows));
  return Value(load);
}

FailureOr<Value> Emitter::emitIndex(const ast::IndexExpr &index) {
  const auto *base = dyn_cast<ast::NameExpr>(index.base.get());
  Value tensor = base ? lookupTensor(base->name) : Value();
  if (!tensor) {
    if (std::string absent = base ? absentMessage(base->name) : "";
        !absent.empty())
      return error(index.loc) << absent;
    return error(index.loc) << "only tensors (parameters, results, SMEM "
                               "buffers) can be indexed";
  }
  FailureOr<SmallVector<Value>> indices = emitIndices(index, base->name);
  if (failed(indices))
    return failure();
  auto type = cast<KDA2TensorType>(tensor.getType());
  unsigned gridRank = getImplicitGridRank(type, kernel);
  Type result = getAccessType(type, gridRank, indices->size());
  if (!result)
    return error(index.loc) << "'" << base->name << "' has "
                            << type.getRank() - gridRank
                            << " addressable dimensions, got "
                            << indices->size() << " indices";
  return Value(
      LoadOp::create(builder, loc(index.loc), result, tensor, *indices));
}

/// Builds a one-operand kda2 op whose result type is its operand's.
template <typename OpT>
static Value buildUnary(OpBuilder &b, Location loc, Value v) {
  return OpT::create(b, loc, v);
}

FailureOr<Value> Emitter::emitCall(const ast::CallExpr &call) {
  if (call.callee == "grid_index") {
    const auto *name = call.args.size() == 1
                           ? dyn_cast<ast::NameExpr>(call.args[0].get())
                           : nullptr;
    ArrayAttr grid = kernel.getGridAttr();
    if (!name)
      return error(call.loc) << "'grid_index' takes one grid dimension name";
    if (!grid || !llvm::is_contained(grid.getAsRange<StringAttr>(),
                                     builder.getStringAttr(name->name)))
      return error(name->loc) << "'" << name->name
                              << "' is not a grid dimension of the kernel";
    return Value(GridIndexOp::create(builder, loc(call.loc),
                                     builder.getIndexType(), name->name));
  }
  SmallVector<Value> args;
  for (const ast::ExprPtr &arg : call.args) {
    FailureOr<Value> value =
        emitExpr(*arg, args.empty() ? Type() : args.front().getType());
    if (failed(value))
      return failure();
    args.push_back(*value);
  }
  Location at = loc(call.loc);
  auto arity = [&](size_t n) -> LogicalResult {
    if (args.size() != n)
      return error(call.loc) << "'" << call.callee << "' takes " << n
                             << (n == 1 ? " argument" : " arguments")
                             << ", got " << args.size();
    return success();
  };
  auto floatArg = [&](Value v) -> LogicalResult {
    if (!isa<FloatType>(getElementTypeOrSelf(v.getType())))
      return error(call.loc) << "'" << call.callee
                             << "' needs a float operand, got " << v.getType();
    return success();
  };
  auto tileArg = [&](Value v) -> LogicalResult {
    if (!isa<RankedTensorType>(v.getType()))
      return error(call.loc) << "'" << call.callee
                             << "' needs a tile operand, got " << v.getType();
    return success();
  };

  using UnaryBuilder = Value (*)(OpBuilder &, Location, Value);
  UnaryBuilder unary = llvm::StringSwitch<UnaryBuilder>(call.callee)
                           .Case("exp", &buildUnary<ExpOp>)
                           .Case("exp2", &buildUnary<Exp2Op>)
                           .Case("log", &buildUnary<LogOp>)
                           .Case("sqrt", &buildUnary<SqrtOp>)
                           .Case("rsqrt", &buildUnary<RsqrtOp>)
                           .Case("sigmoid", &buildUnary<SigmoidOp>)
                           .Case("softplus", &buildUnary<SoftplusOp>)
                           .Case("cumsum", &buildUnary<CumsumOp>)
                           .Case("l2norm", &buildUnary<L2NormOp>)
                           .Default(nullptr);
  if (unary) {
    if (failed(arity(1)) || failed(floatArg(args[0])))
      return failure();
    if ((call.callee == "cumsum" || call.callee == "l2norm") &&
        failed(tileArg(args[0])))
      return failure();
    return unary(builder, at, args[0]);
  }

  // Conversions are spelled as the target element type: f32(x), bf16(x).
  // A name bound to an element type with --tirx-bind (`IN(x)`) converts too.
  if (llvm::is_contained({"f16", "bf16", "f32", "f64", "i8", "i16", "i32",
                          "i64"},
                         StringRef(call.callee)) ||
      options.typeBindings.count(call.callee)) {
    if (failed(arity(1)))
      return failure();
    FailureOr<Type> element = elementType(call.callee, call.loc);
    if (failed(element))
      return failure();
    return castElement(args[0], *element, at);
  }

  std::optional<ReduceKind> reduce =
      llvm::StringSwitch<std::optional<ReduceKind>>(call.callee)
          .Case("reduce.sum", ReduceKind::sum)
          .Case("reduce.max", ReduceKind::max)
          .Case("reduce.min", ReduceKind::min)
          .Default(std::nullopt);
  if (reduce) {
    if (failed(arity(1)) || failed(tileArg(args[0])))
      return failure();
    auto tile = cast<RankedTensorType>(args[0].getType());
    SmallVector<int64_t> rest(tile.getShape().drop_back());
    Type result = rest.empty() ? tile.getElementType()
                               : Type(RankedTensorType::get(
                                     rest, tile.getElementType()));
    return Value(
        ReduceOp::create(builder, at, result, *reduce, args[0], IntegerAttr()));
  }
  if (call.callee == "max" || call.callee == "min") {
    if (failed(arity(2)))
      return failure();
    FailureOr<std::pair<Value, Value>> ops = unify(args[0], args[1], call.loc);
    if (failed(ops))
      return failure();
    Type result = isa<RankedTensorType>(ops->second.getType())
                      ? ops->second.getType()
                      : ops->first.getType();
    if (call.callee == "max")
      return Value(MaxOp::create(builder, at, result, ops->first, ops->second));
    return Value(MinOp::create(builder, at, result, ops->first, ops->second));
  }
  if (call.callee == "where") {
    if (failed(arity(3)))
      return failure();
    FailureOr<Value> cond = toCondition(args[0], call.loc);
    FailureOr<std::pair<Value, Value>> ops = unify(args[1], args[2], call.loc);
    if (failed(cond) || failed(ops))
      return failure();
    Type result = isa<RankedTensorType>(cond->getType())
                      ? Type(RankedTensorType::get(
                            cast<RankedTensorType>(cond->getType()).getShape(),
                            getElementTypeOrSelf(ops->first.getType())))
                  : isa<RankedTensorType>(ops->second.getType())
                      ? ops->second.getType()
                      : ops->first.getType();
    return Value(SelectOp::create(builder, at, result, *cond, ops->first,
                                  ops->second));
  }
  // matmul(a, b[, acc]) = a·b (+ acc); matmul_nt: a·bᵀ; matmul_tn: aᵀ·b;
  // matmul_tt: aᵀ·bᵀ.
  if (call.callee == "matmul" || call.callee == "matmul_nt" ||
      call.callee == "matmul_tn" || call.callee == "matmul_tt") {
    if (args.size() != 2 && args.size() != 3)
      return error(call.loc) << "'" << call.callee
                             << "' takes 2 or 3 arguments (a, b[, acc]), got "
                             << args.size();
    for (Value arg : args)
      if (failed(tileArg(arg)))
        return failure();
    auto a = cast<RankedTensorType>(args[0].getType());
    auto b = cast<RankedTensorType>(args[1].getType());
    bool transB = call.callee == "matmul_nt" || call.callee == "matmul_tt",
         transA = call.callee == "matmul_tn" || call.callee == "matmul_tt";
    if (a.getRank() != 2 || b.getRank() != 2)
      return error(call.loc) << "'" << call.callee << "' needs 2-D tiles";
    Type element = a.getElementType();
    if (element.isF16() || element.isBF16())
      element = builder.getF32Type();
    auto result = RankedTensorType::get(
        {a.getDimSize(transA ? 1 : 0),
         transB ? b.getDimSize(0) : b.getDimSize(1)},
        element);
    Value acc = args.size() == 3 ? args[2] : Value();
    if (acc && acc.getType() != Type(result))
      return error(call.loc) << "the accumulator of '" << call.callee
                             << "' must be " << result << ", got "
                             << acc.getType();
    auto op = MatmulOp::create(builder, at, result, args[0], args[1], acc);
    if (transB)
      op.setTransposeB(true);
    if (transA)
      op.setTransposeA(true);
    return Value(op);
  }
  if (call.callee == "tri_solve") {
    if (failed(arity(2)) || failed(tileArg(args[0])) ||
        failed(tileArg(args[1])))
      return failure();
    auto op = TriSolveOp::create(builder, at, args[1].getType(), args[0],
                                 args[1]);
    op.setUnitDiagonal(true);
    return Value(op);
  }
  return error(call.loc) << "unknown function '" << call.callee << "'";
}

Value Emitter::castElement(Value value, Type element, Location at) {
  Type current = getElementTypeOrSelf(value.getType());
  if (current == element)
    return value;
  Type target = element;
  if (auto tile = dyn_cast<RankedTensorType>(value.getType()))
    target = RankedTensorType::get(tile.getShape(), element);
  return CastOp::create(builder, at, target, value);
}

FailureOr<std::pair<Value, Value>> Emitter::unify(Value lhs, Value rhs,
                                                  SMLoc at) {
  Type a = getElementTypeOrSelf(lhs.getType());
  Type b = getElementTypeOrSelf(rhs.getType());
  if (a == b)
    return std::make_pair(lhs, rhs);
  // Promote to the wider float; integers and indices convert to floats.
  Type target;
  if (isa<FloatType>(a) && isa<FloatType>(b))
    target = a.getIntOrFloatBitWidth() >= b.getIntOrFloatBitWidth() ? a : b;
  else if (isa<FloatType>(a))
    target = a;
  else if (isa<FloatType>(b))
    target = b;
  else if (a.isIndex() || b.isIndex())
    target = IndexType::get(context); // integers used as indices
  else if (a.isSignlessInteger() && b.isSignlessInteger() &&
           a.getIntOrFloatBitWidth() > 1 && b.getIntOrFloatBitWidth() > 1)
    // Integers of different widths (an int64 index tensor against an int32
    // scalar): the narrower is sign-extended to the wider.
    target = a.getIntOrFloatBitWidth() > b.getIntOrFloatBitWidth() ? a : b;
  else
    return error(at) << "operand types differ: " << lhs.getType() << " vs "
                     << rhs.getType();
  return std::make_pair(castElement(lhs, target, loc(at)),
                        castElement(rhs, target, loc(at)));
}

FailureOr<Value> Emitter::emitBinaryOp(ast::BinaryOp op, Value lhs, Value rhs,
                                       SMLoc at) {
  FailureOr<std::pair<Value, Value>> ops = unify(lhs, rhs, at);
  if (failed(ops))
    return failure();
  auto [a, b] = *ops;
  auto aTile = dyn_cast<RankedTensorType>(a.getType());
  auto bTile = dyn_cast<RankedTensorType>(b.getType());
  if (aTile && bTile && aTile.getShape() != bTile.getShape()) {
    // Keep the more static of two compatible shapes.
    if (aTile.getNumDynamicDims() > bTile.getNumDynamicDims())
      std::swap(aTile, bTile);
  }
  Type shapeType = aTile ? Type(aTile) : bTile ? Type(bTile) : a.getType();
  Location l = loc(at);
  if (ast::isComparison(op)) {
    std::optional<CmpPredicate> pred;
    switch (op) {
    case ast::BinaryOp::Eq: pred = CmpPredicate::eq; break;
    case ast::BinaryOp::Ne: pred = CmpPredicate::ne; break;
    case ast::BinaryOp::Lt: pred = CmpPredicate::lt; break;
    case ast::BinaryOp::Le: pred = CmpPredicate::le; break;
    case ast::BinaryOp::Gt: pred = CmpPredicate::gt; break;
    default: pred = CmpPredicate::ge; break;
    }
    Type i1 = builder.getI1Type();
    Type result = isa<RankedTensorType>(shapeType)
                      ? Type(RankedTensorType::get(
                            cast<RankedTensorType>(shapeType).getShape(), i1))
                      : i1;
    return Value(CmpOp::create(builder, l, result, *pred, a, b));
  }
  switch (op) {
  case ast::BinaryOp::Add:
    return Value(AddOp::create(builder, l, shapeType, a, b));
  case ast::BinaryOp::Sub:
    return Value(SubOp::create(builder, l, shapeType, a, b));
  case ast::BinaryOp::Mul:
    return Value(MulOp::create(builder, l, shapeType, a, b));
  case ast::BinaryOp::Div:
    return Value(DivOp::create(builder, l, shapeType, a, b));
  default:
    return Value(RemOp::create(builder, l, shapeType, a, b));
  }
}

/// True when `expr` is a numeric literal (possibly negated).
static bool isLiteral(const ast::Expr &expr) {
  if (const auto *unary = dyn_cast<ast::UnaryExpr>(&expr))
    return isLiteral(*unary->operand);
  return isa<ast::IntLitExpr, ast::FloatLitExpr>(expr) ||
         (isa<ast::NameExpr>(expr) && cast<ast::NameExpr>(expr).name == "inf");
}

FailureOr<Value> Emitter::emitBinary(const ast::BinaryExpr &binary) {
  if (binary.op == ast::BinaryOp::And || binary.op == ast::BinaryOp::Or)
    return emitLogical(binary);
  // Literals take the type of the other operand: emit the other one first.
  bool lhsLiteral = isLiteral(*binary.lhs);
  FailureOr<Value> lhs, rhs;
  if (lhsLiteral && !isLiteral(*binary.rhs)) {
    rhs = emitExpr(*binary.rhs);
    if (failed(rhs))
      return failure();
    lhs = emitExpr(*binary.lhs, rhs->getType());
  } else {
    lhs = emitExpr(*binary.lhs);
    if (failed(lhs))
      return failure();
    rhs = emitExpr(*binary.rhs, lhs->getType());
  }
  if (failed(lhs) || failed(rhs))
    return failure();
  return emitBinaryOp(binary.op, *lhs, *rhs, binary.loc);
}

/// `a and b`, `a or b`: both sides are conditions (non-booleans mean
/// `!= 0`), combined element-wise as selects (`a ? b : false`,
/// `a ? true : b`); both sides are evaluated.
FailureOr<Value> Emitter::emitLogical(const ast::BinaryExpr &binary) {
  FailureOr<Value> lhs = emitExpr(*binary.lhs);
  if (failed(lhs))
    return failure();
  lhs = toCondition(*lhs, binary.loc);
  if (failed(lhs))
    return failure();
  FailureOr<Value> rhs = emitExpr(*binary.rhs);
  if (failed(rhs))
    return failure();
  rhs = toCondition(*rhs, binary.loc);
  if (failed(rhs))
    return failure();
  auto lTile = dyn_cast<RankedTensorType>(lhs->getType());
  auto rTile = dyn_cast<RankedTensorType>(rhs->getType());
  if (lTile && rTile && lTile.getShape() != rTile.getShape())
    return error(binary.loc) << "'" << ast::stringifyBinaryOp(binary.op)
                             << "' of tiles of different shapes, "
                             << lTile << " and " << rTile;
  Type result = lTile ? Type(lTile) : rTile ? Type(rTile) : lhs->getType();
  Location l = loc(binary.loc);
  bool isAnd = binary.op == ast::BinaryOp::And;
  Value constant =
      arith::ConstantOp::create(builder, l, builder.getBoolAttr(!isAnd));
  return Value(isAnd ? SelectOp::create(builder, l, result, *lhs, *rhs,
                                        constant)
                     : SelectOp::create(builder, l, result, *lhs, constant,
                                        *rhs));
}

FailureOr<Value> Emitter::toCondition(Value value, SMLoc at) {
  Type element = getElementTypeOrSelf(value.getType());
  if (element.isInteger(1))
    return value;
  // Truthiness: a value is true when it is not zero.
  Value zero = arith::ConstantOp::create(builder, loc(at),
                                         builder.getZeroAttr(element));
  return emitBinaryOp(ast::BinaryOp::Ne, value, zero, at);
}

FailureOr<Value> Emitter::emitCond(const ast::CondExpr &cond) {
  FailureOr<Value> condition = emitExpr(*cond.condition);
  if (failed(condition))
    return failure();
  condition = toCondition(*condition, cond.loc);
  if (failed(condition))
    return failure();
  FailureOr<Value> trueValue, falseValue;
  if (isLiteral(*cond.trueValue) && !isLiteral(*cond.falseValue)) {
    falseValue = emitExpr(*cond.falseValue);
    if (failed(falseValue))
      return failure();
    trueValue = emitExpr(*cond.trueValue, falseValue->getType());
  } else {
    trueValue = emitExpr(*cond.trueValue);
    if (failed(trueValue))
      return failure();
    falseValue = emitExpr(*cond.falseValue, trueValue->getType());
  }
  if (failed(trueValue) || failed(falseValue))
    return failure();
  FailureOr<std::pair<Value, Value>> ops =
      unify(*trueValue, *falseValue, cond.loc);
  if (failed(ops))
    return failure();
  Type element = getElementTypeOrSelf(ops->first.getType());
  Type result = ops->first.getType();
  if (auto tile = dyn_cast<RankedTensorType>(condition->getType()))
    result = RankedTensorType::get(tile.getShape(), element);
  else if (isa<RankedTensorType>(ops->second.getType()))
    result = ops->second.getType();
  return Value(SelectOp::create(builder, loc(cond.loc), result, *condition,
                                ops->first, ops->second));
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> mlir::kda2::importTIRx(llvm::SourceMgr &sourceMgr,
                                             MLIRContext *context,
                                             const ImportTIRxOptions &options) {
  context->loadDialect<KDA2Dialect, arith::ArithDialect>();
  // Errors carry the .tirx location; a dump of the generated op after each
  // (MLIR's default) would only bury them.
  bool printOp = context->shouldPrintOpOnDiagnostic();
  context->printOpOnDiagnostic(false);
  llvm::scope_exit restore(
      [&] { context->printOpOnDiagnostic(printOp); });
  unsigned bufferId = sourceMgr.getMainFileID();
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  SMLoc fileLoc = SMLoc::getFromPointer(buffer->getBufferStart());
  Location bufferLoc = FileLineColLoc::get(
      context, buffer->getBufferIdentifier(), /*line=*/1, /*column=*/1);
  bool parseFailed = false;
  std::optional<ast::Module> module = tirx::parseTIRx(
      sourceMgr, bufferId, [&](SMLoc at, const llvm::Twine &message) {
        parseFailed = true;
        Location where = bufferLoc;
        if (at.isValid()) {
          auto [line, col] = sourceMgr.getLineAndColumn(at, bufferId);
          where = FileLineColLoc::get(context, buffer->getBufferIdentifier(),
                                      line, col);
        }
        mlir::emitError(where) << message;
      });
  if (!module || parseFailed)
    return nullptr;
  // `#pragma default NAME=VALUE`: NAME's value unless --tirx-bind gives one.
  ImportTIRxOptions bound = options;
  for (const ast::BindingDefault &entry : module->defaults) {
    auto at = [&](SMLoc loc) -> Location {
      auto [line, col] = sourceMgr.getLineAndColumn(loc, bufferId);
      return FileLineColLoc::get(context, buffer->getBufferIdentifier(), line,
                                 col);
    };
    const std::string &name = entry.name, &value = entry.value;
    if (options.bindings.count(name) || options.typeBindings.count(name) ||
        options.layoutBindings.count(name) ||
        options.stateBindings.count(name))
      continue;
    // Another binding's name: its value, whatever its kind.
    bool copied = false;
    auto copy = [&](auto &map) {
      auto it = map.find(value);
      if (copied || it == map.end())
        return;
      auto v = it->second;
      map[name] = v;
      copied = true;
    };
    copy(bound.bindings);
    copy(bound.typeBindings);
    copy(bound.layoutBindings);
    copy(bound.stateBindings);
    if (copied)
      continue;
    if (llvm::Error error =
            addTIRxBinding(bound, name + "=" + value, context)) {
      llvm::consumeError(std::move(error));
      mlir::emitError(at(entry.valueLoc))
          << "'#pragma default " << name << "=" << value << "': '" << value
          << "' is neither bound (--tirx-bind=" << value
          << "=...) nor a binding value (an integer >= 0, an element type, "
             "a layout, kv or vk)";
      return nullptr;
    }
  }
  Emitter emitter(sourceMgr, context, bound);
  return emitter.emit(*module, fileLoc);
}

llvm::Error mlir::kda2::addTIRxBinding(ImportTIRxOptions &options,
                                       StringRef entry, MLIRContext *context) {
  auto [name, value] = entry.split('=');
  int64_t size;
  if (!name.empty() && !value.empty() &&
      !std::isdigit(static_cast<unsigned char>(value.front())) &&
      value.front() != '-' && parseElementTypeName(value, context)) {
    options.typeBindings[name.str()] = value.str();
    return llvm::Error::success();
  }
  if (!name.empty() && symbolizeLayout(value)) {
    options.layoutBindings[name.str()] = value.str();
    return llvm::Error::success();
  }
  if (!name.empty() && symbolizeStateLayout(value)) {
    options.stateBindings[name.str()] = value.str();
    return llvm::Error::success();
  }
  if (name.empty() || value.getAsInteger(10, size) || size < 0)
    return llvm::createStringError(
        "--tirx-bind expects <name>=<integer >= 0>, <name>=<element type>, "
        "<name>=<layout> or <name>=<state layout kv|vk>, got '" +
        entry + "'");
  options.bindings[name.str()] = size;
  return llvm::Error::success();
}

void mlir::kda2::registerImportTIRxTranslation() {
  static llvm::cl::opt<std::string> profile(
      "tirx-profile",
      llvm::cl::desc("Hardware profile the imported module targets "
                     "(empty: none)"),
      llvm::cl::init("H200-SXM"));
  static llvm::cl::list<std::string> bind(
      "tirx-bind",
      llvm::cl::desc("Bind names to static sizes or element types: "
                     "dim=64,K=128,IN=f16"),
      llvm::cl::CommaSeparated);
  TranslateToMLIRRegistration registration(
      "import-tirx", "Import a .tirx kernel description into kda2 IR",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        ImportTIRxOptions options;
        options.profile = profile;
        for (const std::string &entry : bind)
          if (llvm::Error err = addTIRxBinding(options, entry, context)) {
            mlir::emitError(UnknownLoc::get(context))
                << llvm::toString(std::move(err));
            return OwningOpRef<Operation *>();
          }
        return OwningOpRef<Operation *>(
            importTIRx(sourceMgr, context, options).release());
      },
      [](DialectRegistry &registry) {
        registry.insert<KDA2Dialect, arith::ArithDialect>();
      });
}
