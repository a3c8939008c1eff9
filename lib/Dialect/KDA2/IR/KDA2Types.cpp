//===- KDA2Types.cpp - kda2 types ------------------------------*- C++ -*-===//
//
// The `!kda2.tensor<[dims], element-type(, memory-space)?>` type: parsing,
// printing and verification. A dimension is an integer (static), an
// identifier (named, dynamic) or `?` (anonymous, dynamic).
//
//===----------------------------------------------------------------------===//

#include "kda2/Dialect/KDA2/IR/KDA2.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::kda2;

#define GET_TYPEDEF_CLASSES
#include "kda2/Dialect/KDA2/IR/KDA2OpsTypes.cpp.inc"

void KDA2Dialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "kda2/Dialect/KDA2/IR/KDA2OpsTypes.cpp.inc"
      >();
}

/// True when `name` is a .tirx identifier: [A-Za-z_][A-Za-z0-9_]*.
static bool isIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

LogicalResult
KDA2TensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                   ArrayRef<int64_t> shape, ArrayRef<StringAttr> dimNames,
                   Type elementType, MemorySpace memorySpace) {
  if (shape.size() != dimNames.size())
    return emitError() << "expected " << shape.size()
                       << " dimension names, got " << dimNames.size();
  if (!elementType.isIntOrFloat())
    return emitError() << "expected an integer or float element type, got "
                       << elementType;
  for (auto [i, size] : llvm::enumerate(shape)) {
    StringAttr name = dimNames[i];
    bool named = name && !name.getValue().empty();
    if (named && !isIdentifier(name.getValue()))
      return emitError() << "dimension name '" << name.getValue()
                         << "' is not an identifier";
    if (named && !ShapedType::isDynamic(size))
      return emitError() << "named dimension '" << name.getValue()
                         << "' must be dynamic";
    if (!ShapedType::isDynamic(size) && size <= 0)
      return emitError() << "dimension #" << i << " has non-positive size "
                         << size;
  }
  if (memorySpace != MemorySpace::gmem &&
      llvm::any_of(shape, ShapedType::isDynamic))
    return emitError() << "a tensor in " << stringifyMemorySpace(memorySpace)
                       << " must have a static shape";
  // Sizes are computed in int64_t (getStaticSizeInBytes, shared-memory
  // budgets): the static dimensions' bit count must fit.
  int64_t bits = elementType.getIntOrFloatBitWidth();
  for (int64_t size : shape)
    if (!ShapedType::isDynamic(size) && llvm::MulOverflow(bits, size, bits))
      return emitError() << "tensor too large: its static dimensions hold "
                            "more than 2^63 - 1 bits";
  return success();
}

bool KDA2TensorType::hasStaticShape() const {
  return llvm::none_of(getShape(), ShapedType::isDynamic);
}

std::optional<int64_t> KDA2TensorType::getStaticSizeInBytes() const {
  if (!hasStaticShape())
    return std::nullopt;
  // The verifier guarantees that the bit count fits in int64_t.
  int64_t bits = getElementType().getIntOrFloatBitWidth();
  for (int64_t size : getShape())
    bits *= size;
  return bits / 8 + (bits % 8 != 0);
}

Type KDA2TensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  SmallVector<StringAttr> names;
  if (parser.parseLess() || parser.parseLSquare())
    return {};
  if (failed(parser.parseOptionalRSquare())) {
    auto parseDim = [&]() -> ParseResult {
      if (succeeded(parser.parseOptionalQuestion())) {
        shape.push_back(ShapedType::kDynamic);
        names.push_back(StringAttr::get(parser.getContext(), ""));
        return success();
      }
      int64_t size = 0;
      OptionalParseResult intResult = parser.parseOptionalInteger(size);
      if (intResult.has_value()) {
        if (failed(*intResult))
          return failure();
        shape.push_back(size);
        names.push_back(StringAttr::get(parser.getContext(), ""));
        return success();
      }
      StringRef name;
      if (parser.parseKeyword(&name))
        return failure();
      shape.push_back(ShapedType::kDynamic);
      names.push_back(StringAttr::get(parser.getContext(), name));
      return success();
    };
    if (parser.parseCommaSeparatedList(parseDim) || parser.parseRSquare())
      return {};
  }
  Type elementType;
  if (parser.parseComma() || parser.parseType(elementType))
    return {};
  MemorySpace space = MemorySpace::gmem;
  if (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return {};
    std::optional<MemorySpace> parsed = symbolizeMemorySpace(keyword);
    if (!parsed) {
      parser.emitError(loc) << "expected memory space gmem, smem or reg, got '"
                            << keyword << "'";
      return {};
    }
    space = *parsed;
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), shape, names, elementType, space);
}

void KDA2TensorType::print(AsmPrinter &printer) const {
  printer << "<[";
  for (unsigned i = 0, e = getRank(); i < e; ++i) {
    if (i)
      printer << ", ";
    if (!getDimName(i).empty())
      printer << getDimName(i);
    else if (ShapedType::isDynamic(getShape()[i]))
      printer << "?";
    else
      printer << getShape()[i];
  }
  printer << "], " << getElementType();
  if (getMemorySpace() != MemorySpace::gmem)
    printer << ", " << stringifyMemorySpace(getMemorySpace());
  printer << ">";
}
