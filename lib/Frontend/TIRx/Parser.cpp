//===- Parser.cpp - .tirx recursive-descent parser --------------*- C++ -*-===//
//
// Implements the .tirx parser: a recursive-descent parser over the token
// stream of `Lexer`, one function per grammar rule of docs/TIRx.md. Two
// pieces of context shape the token stream. Inside brackets (`(`, `[`, an
// attribute `{...}`) and in a kernel header, newlines are insignificant and
// skipped (`nesting` counts the open ones). Inside a kernel body, statements
// are lines and blocks are indentation: every block knows its column, a
// line indented less closes it, and a line whose column matches no open
// block is an inconsistent dedent. Annotations and pragmas are collected and
// attached to the next statement of the same block. The parser stops at the
// first error (reported once; later reports are dropped) and bounds its
// recursion with `kMaxNestingDepth`.
//
//===----------------------------------------------------------------------===//

#include "kda2/Frontend/TIRx/Parser.h"
#include "kda2/Frontend/TIRx/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <cstdint>
#include <limits>

using namespace mlir::kda2::tirx;
using llvm::failed;
using llvm::failure;
using llvm::LogicalResult;
using llvm::SMLoc;
using llvm::StringRef;
using llvm::success;
using llvm::Twine;

namespace {

/// The parser state for one buffer.
class Parser {
public:
  /// Creates a parser over `buffer` reporting to `emitError`.
  Parser(StringRef buffer, ParseErrorFn emitError)
      : userEmitError(emitError), sink{this}, lexer(buffer, sink) {
    consume();
  }

  /// Parses the whole buffer.
  std::optional<Module> parseModule();
  LogicalResult parseBindingDefault(Module &module);

private:
  /// Forwards lexer errors to `emitError` (a member so that the lexer's
  /// `function_ref` stays valid for the parser's lifetime).
  struct ErrorSink {
    Parser *parser;
    void operator()(SMLoc loc, const Twine &message) const {
      (void)parser->emitError(loc, message);
    }
  };

  /// Counts one level of recursion for the lifetime of the guard.
  struct DepthGuard {
    explicit DepthGuard(Parser &parser) : parser(parser) { ++parser.depth; }
    ~DepthGuard() { --parser.depth; }
    Parser &parser;
  };

  //===--------------------------------------------------------------------===//
  // Token helpers and diagnostics
  //===--------------------------------------------------------------------===//

  /// Advances to the next significant token (skipping newlines when inside
  /// brackets).
  void consume() {
    tok = lexer.lex();
    while (nesting > 0 && tok.is(Token::newline))
      tok = lexer.lex();
  }

  /// Consumes an opening bracket and starts ignoring newlines.
  void consumeOpen() {
    ++nesting;
    consume();
  }

  /// Consumes a closing bracket and stops ignoring newlines (for this
  /// bracket).
  void consumeClose() {
    --nesting;
    consume();
  }

  /// Reports `message` at `loc` unless an error was already reported.
  LogicalResult emitError(SMLoc loc, const Twine &message) {
    if (!hadError) {
      hadError = true;
      userEmitError(loc, message);
    }
    return failure();
  }

  /// Reports "expected <what>, found <current token>" at the current token.
  LogicalResult emitExpected(const Twine &what) {
    return emitError(tok.loc, "expected " + what + ", found " + tok.describe());
  }

  /// Reports that the nesting limit was exceeded, at the current token.
  LogicalResult emitTooDeep() {
    return emitError(tok.loc, "nesting too deep (the limit is " +
                                  Twine(kMaxNestingDepth) + " levels)");
  }

  /// Returns true if the recursion depth is past the limit.
  bool tooDeep() const { return depth > kMaxNestingDepth; }

  //===--------------------------------------------------------------------===//
  // Grammar rules
  //===--------------------------------------------------------------------===//

  LogicalResult parseKernel(Kernel &kernel);
  LogicalResult parseParam(Param &param);
  LogicalResult parseCondition(Param &param);
  LogicalResult parsePragmaCondition(Pragma &pragma);
  LogicalResult parseResult(Param &result);
  LogicalResult parseTensorType(TensorType &type);
  LogicalResult parseTensorTypeBody(TensorType &type);
  LogicalResult parseInteger(int64_t &value, bool allowSizeSuffix);
  LogicalResult parseDeclAttrs(std::vector<DeclAttr> &attrs, bool isSmem);

  LogicalResult parseBlock(unsigned indent, std::vector<StmtPtr> &body);
  LogicalResult parseAnnotation(Annotation &annotation);
  LogicalResult parseStatement(unsigned indent, StmtPtr &stmt);
  LogicalResult parseGmemDecl(StmtPtr &stmt);
  LogicalResult parseSmemDecl(StmtPtr &stmt);
  LogicalResult parseFor(unsigned indent, StmtPtr &stmt);
  /// `if cond:` block [`else:` block] at indentation `indent`.
  LogicalResult parseIf(unsigned indent, StmtPtr &stmt);
  /// After the ':' of a loop or `if` header: the newline and the indented
  /// block; `what` names the header in errors.
  LogicalResult parseIndentedBlock(unsigned indent, StringRef what,
                                   std::vector<StmtPtr> &body);
  LogicalResult parseReturn(StmtPtr &stmt);
  LogicalResult parseAssignOrStore(StmtPtr &stmt);
  LogicalResult parseStatementEnd();

  LogicalResult parseExpr(ExprPtr &expr);
  /// `operand { kind operand }`, left-associative, as `op`.
  LogicalResult parseChain(ExprPtr &expr, Token::Kind kind, BinaryOp op,
                           LogicalResult (Parser::*operand)(ExprPtr &));
  /// `{ kind } operand`, as nested `op`.
  LogicalResult parsePrefix(ExprPtr &expr, Token::Kind kind, UnaryOp op,
                            LogicalResult (Parser::*operand)(ExprPtr &));
  LogicalResult parseOr(ExprPtr &expr);
  LogicalResult parseAnd(ExprPtr &expr);
  LogicalResult parseNot(ExprPtr &expr);
  LogicalResult parseComparison(ExprPtr &expr);
  LogicalResult parseAdditive(ExprPtr &expr);
  LogicalResult parseMultiplicative(ExprPtr &expr);
  LogicalResult parseUnary(ExprPtr &expr);
  LogicalResult parsePostfix(ExprPtr &expr);
  LogicalResult parsePrimary(ExprPtr &expr);
  LogicalResult parseIndex(ExprPtr &index);

  /// The user's error callback.
  ParseErrorFn userEmitError;
  /// True once an error has been reported.
  bool hadError = false;
  /// The lexer's error callback target.
  ErrorSink sink;
  /// The token source.
  Lexer lexer;
  /// The current token.
  Token tok;
  /// Number of open brackets (and kernel headers): newlines are skipped
  /// while positive.
  unsigned nesting = 0;
  /// Current recursion depth (expressions and loops).
  unsigned depth = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Module and kernels
//===----------------------------------------------------------------------===//

/// `#pragma default NAME=VALUE` (the current token is the pragma).
LogicalResult Parser::parseBindingDefault(Module &module) {
  BindingDefault entry;
  entry.loc = tok.loc;
  consume();
  if (tok.isNot(Token::identifier))
    return emitExpected("binding name after '#pragma default'");
  entry.name = tok.spelling.str();
  consume();
  if (tok.isNot(Token::equal))
    return emitExpected("'=' after '#pragma default " + entry.name + "'");
  consume();
  if (tok.isNot(Token::identifier) && tok.isNot(Token::integer))
    return emitExpected("a value (a binding value or a bound name) after "
                        "'#pragma default " +
                        entry.name + "='");
  entry.value = tok.spelling.str();
  entry.valueLoc = tok.loc;
  consume();
  if (tok.isNot(Token::newline) && tok.isNot(Token::eof))
    return emitExpected("newline after '#pragma default " + entry.name + "=" +
                        entry.value + "'");
  for (const BindingDefault &other : module.defaults)
    if (other.name == entry.name)
      return emitError(entry.loc, "'#pragma default' gives '" + entry.name +
                                      "' a value twice");
  module.defaults.push_back(std::move(entry));
  return success();
}

std::optional<Module> Parser::parseModule() {
  Module module;
  std::vector<Pragma> pragmas;
  while (!hadError) {
    switch (tok.kind) {
    case Token::newline:
      consume();
      continue;
    case Token::eof:
      if (!pragmas.empty())
        (void)emitError(pragmas.front().loc,
                        "pragma '" + pragmas.front().name +
                            "' is not followed by a kernel");
      return hadError ? std::nullopt : std::optional<Module>(std::move(module));
    case Token::pragma:
      if (tok.spelling == "default") {
        (void)parseBindingDefault(module);
        continue;
      }
      pragmas.push_back(Pragma{tok.loc, tok.spelling.str(), "", {}});
      consume();
      if (failed(parsePragmaCondition(pragmas.back())))
        continue;
      if (tok.isNot(Token::newline) && tok.isNot(Token::eof))
        (void)emitExpected("newline after pragma");
      continue;
    case Token::kw_func: {
      Kernel &kernel = module.kernels.emplace_back();
      kernel.pragmas = std::move(pragmas);
      pragmas.clear();
      (void)parseKernel(kernel);
      continue;
    }
    default:
      (void)emitExpected("'func' or '#pragma'");
      continue;
    }
  }
  return std::nullopt;
}

LogicalResult Parser::parseKernel(Kernel &kernel) {
  kernel.loc = tok.loc;
  // The whole header, up to the body's '{', may span lines.
  consumeOpen();
  if (tok.isNot(Token::identifier))
    return emitExpected("kernel name after 'func'");
  kernel.name = tok.spelling.str();
  kernel.nameLoc = tok.loc;
  consume();

  if (tok.isNot(Token::l_paren))
    return emitExpected("'(' after kernel name '" + kernel.name + "'");
  consumeOpen();
  if (tok.isNot(Token::r_paren)) {
    while (true) {
      if (failed(parseParam(kernel.params.emplace_back())))
        return failure();
      if (tok.is(Token::r_paren))
        break;
      if (tok.isNot(Token::comma))
        return emitExpected("',' or ')' in parameter list");
      consume();
    }
  }
  consumeClose();

  if (tok.is(Token::arrow)) {
    consume();
    if (tok.is(Token::l_paren)) {
      consumeOpen();
      while (true) {
        if (failed(parseResult(kernel.results.emplace_back())))
          return failure();
        if (tok.is(Token::r_paren))
          break;
        if (tok.isNot(Token::comma))
          return emitExpected("',' or ')' in result list");
        consume();
      }
      consumeClose();
    } else if (failed(parseResult(kernel.results.emplace_back()))) {
      return failure();
    }
  }

  if (tok.isNot(Token::l_brace))
    return emitExpected("'{' to begin the body of kernel '" + kernel.name +
                        "'");
  consumeClose(); // Ends the header: the body is line-based.

  if (tok.isNot(Token::r_brace)) {
    if (tok.isNot(Token::newline))
      return emitExpected("newline after '{'");
    consume();
    if (tok.isNot(Token::r_brace) && tok.isNot(Token::eof)) {
      if (failed(parseBlock(tok.column, kernel.body)))
        return failure();
    }
    if (tok.is(Token::eof))
      return emitExpected("'}' at the end of kernel '" + kernel.name + "'");
    if (tok.isNot(Token::r_brace))
      return emitError(tok.loc, "inconsistent dedent: this line's "
                                "indentation matches no enclosing block");
  }
  consume(); // '}'
  if (tok.isNot(Token::newline) && tok.isNot(Token::eof))
    return emitExpected("newline after '}' ending kernel '" + kernel.name +
                        "'");
  return success();
}

LogicalResult Parser::parseParam(Param &param) {
  // `inout pool: Tensor[...]`: read and written in place.
  if (tok.is(Token::identifier) && tok.spelling == "inout") {
    param.isInOut = true;
    param.inOutLoc = tok.loc;
    consume();
    if (tok.isNot(Token::identifier))
      return emitExpected("parameter name after 'inout'");
  }
  if (tok.isNot(Token::identifier))
    return emitExpected("parameter name");
  param.loc = tok.loc;
  param.name = tok.spelling.str();
  consume();
  if (tok.isNot(Token::colon))
    return emitExpected("':' after parameter name '" + param.name + "'");
  consume();
  // A scalar parameter names its element type instead of `Tensor[...]`.
  if (tok.is(Token::identifier) && tok.spelling != "Tensor") {
    param.scalarType = tok.spelling.str();
    param.scalarTypeLoc = tok.loc;
    consume();
  } else if (failed(parseTensorType(param.type))) {
    return failure();
  }
  return parseCondition(param);
}

LogicalResult Parser::parsePragmaCondition(Pragma &pragma) {
  // `#pragma grid_first if RDY`: applies when RDY is bound nonzero.
  if (tok.isNot(Token::kw_if))
    return success();
  consume();
  if (tok.isNot(Token::identifier))
    return emitExpected("binding name after 'if' in '#pragma " + pragma.name +
                        "'");
  pragma.condition = tok.spelling.str();
  pragma.conditionLoc = tok.loc;
  consume();
  return success();
}

LogicalResult Parser::parseCondition(Param &param) {
  // `ready: Tensor[h, ns, dtype=i32] if RDY`: present when RDY is bound to
  // a nonzero integer.
  if (tok.isNot(Token::kw_if))
    return success();
  consume();
  if (tok.isNot(Token::identifier))
    return emitExpected("binding name after 'if' in the declaration of '" +
                        param.name + "'");
  param.condition = tok.spelling.str();
  param.conditionLoc = tok.loc;
  consume();
  return success();
}

LogicalResult Parser::parseResult(Param &result) {
  if (tok.isNot(Token::identifier))
    return emitExpected("result name or 'Tensor'");
  SMLoc loc = tok.loc;
  StringRef name = tok.spelling;
  consume();
  if (tok.is(Token::colon)) {
    result.loc = loc;
    result.name = name.str();
    consume();
    if (failed(parseTensorType(result.type)))
      return failure();
    return parseCondition(result);
  }
  if (name != "Tensor")
    return emitExpected("':' after result name '" + name + "'");
  result.loc = loc;
  result.type.loc = loc;
  return parseTensorTypeBody(result.type);
}

LogicalResult Parser::parseTensorType(TensorType &type) {
  if (tok.isNot(Token::identifier) || tok.spelling != "Tensor")
    return emitExpected("'Tensor'");
  type.loc = tok.loc;
  consume();
  return parseTensorTypeBody(type);
}

LogicalResult Parser::parseTensorTypeBody(TensorType &type) {
  if (tok.isNot(Token::l_square))
    return emitExpected("'[' after 'Tensor'");
  consumeOpen();
  if (tok.is(Token::r_square)) {
    consumeClose();
    return success();
  }
  while (true) {
    if (tok.is(Token::identifier)) {
      SMLoc loc = tok.loc;
      StringRef name = tok.spelling;
      consume();
      if (tok.is(Token::equal)) {
        if (name != "dtype")
          return emitError(loc, "unknown tensor type keyword '" + name +
                                    "'; expected 'dtype'");
        consume();
        if (tok.isNot(Token::identifier))
          return emitExpected("element type after 'dtype='");
        type.dtype = tok.spelling.str();
        type.dtypeLoc = tok.loc;
        consume();
        if (tok.isNot(Token::r_square))
          return emitExpected("']' after the element type (dtype must come "
                              "last)");
        break;
      }
      Dim &dim = type.dims.emplace_back();
      dim.loc = loc;
      dim.kind = Dim::Kind::Named;
      dim.name = name.str();
    } else if (tok.is(Token::integer)) {
      Dim &dim = type.dims.emplace_back();
      dim.loc = tok.loc;
      dim.kind = Dim::Kind::Static;
      if (failed(parseInteger(dim.size, /*allowSizeSuffix=*/false)))
        return failure();
    } else if (tok.is(Token::question)) {
      Dim &dim = type.dims.emplace_back();
      dim.loc = tok.loc;
      dim.kind = Dim::Kind::Dynamic;
      consume();
    } else {
      return emitExpected(
          "dimension (a name, an integer or '?') or 'dtype=' in tensor type");
    }
    if (tok.is(Token::r_square))
      break;
    if (tok.isNot(Token::comma))
      return emitExpected("',' or ']' in tensor type");
    consume();
  }
  consumeClose();
  return success();
}

LogicalResult Parser::parseInteger(int64_t &value, bool allowSizeSuffix) {
  StringRef spelling = tok.spelling;
  size_t numDigits = 0;
  while (numDigits < spelling.size() && llvm::isDigit(spelling[numDigits]))
    ++numDigits;
  StringRef digits = spelling.take_front(numDigits);
  StringRef suffix = spelling.drop_front(numDigits);

  uint64_t raw = 0;
  const uint64_t maxValue = std::numeric_limits<int64_t>::max();
  if (digits.getAsInteger(10, raw) || raw > maxValue)
    return emitError(tok.loc, "integer literal too large");

  if (!suffix.empty()) {
    uint64_t scale = llvm::StringSwitch<uint64_t>(suffix)
                         .Case("B", 1)
                         .Case("KB", 1024)
                         .Case("MB", 1024 * 1024)
                         .Default(0);
    SMLoc suffixLoc = SMLoc::getFromPointer(suffix.begin());
    if (scale == 0)
      return emitError(suffixLoc,
                       "invalid suffix '" + suffix + "' on integer literal");
    if (!allowSizeSuffix)
      return emitError(suffixLoc, "size suffix '" + suffix +
                                      "' is only allowed in an SMEM 'size' "
                                      "value");
    if (raw > maxValue / scale)
      return emitError(tok.loc, "integer literal too large");
    raw *= scale;
  }
  value = static_cast<int64_t>(raw);
  consume();
  return success();
}

LogicalResult Parser::parseDeclAttrs(std::vector<DeclAttr> &attrs,
                                     bool isSmem) {
  consumeOpen(); // '{'
  if (tok.is(Token::r_brace)) {
    consumeClose();
    return success();
  }
  while (true) {
    if (tok.isNot(Token::identifier))
      return emitExpected("attribute name");
    DeclAttr &attr = attrs.emplace_back();
    attr.loc = tok.loc;
    attr.key = tok.spelling.str();
    consume();
    if (tok.isNot(Token::equal))
      return emitExpected("'=' after attribute name '" + attr.key + "'");
    consume();
    attr.valueLoc = tok.loc;
    if (tok.is(Token::identifier)) {
      attr.valueKind = DeclAttr::ValueKind::Identifier;
      attr.stringValue = tok.spelling.str();
      consume();
    } else if (tok.is(Token::string)) {
      attr.valueKind = DeclAttr::ValueKind::String;
      attr.stringValue = tok.getStringValue();
      consume();
    } else if (tok.is(Token::integer)) {
      attr.valueKind = DeclAttr::ValueKind::Integer;
      if (failed(
              parseInteger(attr.intValue,
                           /*allowSizeSuffix=*/isSmem && attr.key == "size")))
        return failure();
    } else if (tok.is(Token::l_square)) {
      attr.valueKind = DeclAttr::ValueKind::Range;
      consumeOpen();
      while (true) {
        DeclAttr::Bound &bound = attr.range.emplace_back();
        bound.loc = tok.loc;
        if (tok.is(Token::minus)) {
          bound.negative = true;
          consume();
        }
        if (tok.is(Token::identifier) && tok.spelling == "inf") {
          bound.value = std::numeric_limits<double>::infinity();
          consume();
        } else if (tok.is(Token::identifier)) {
          bound.name = tok.spelling.str();
          consume();
        } else if (tok.is(Token::integer) || tok.is(Token::floatlit)) {
          if (tok.spelling.getAsDouble(bound.value))
            return emitError(tok.loc, "invalid number '" + tok.spelling + "'");
          consume();
        } else {
          return emitExpected("a number, 'inf' or a bound name in '[lo, hi]'");
        }
        if (tok.is(Token::r_square))
          break;
        if (tok.isNot(Token::comma))
          return emitExpected("',' or ']' in '[lo, hi]'");
        consume();
      }
      consumeClose();
      if (attr.range.size() != 2)
        return emitError(attr.valueLoc, "a range has two ends, [lo, hi]; got " +
                                            std::to_string(attr.range.size()));
    } else {
      return emitExpected("attribute value (a name, an integer, a string or "
                          "[lo, hi]) after '" +
                          attr.key + "='");
    }
    if (tok.is(Token::r_brace))
      break;
    if (tok.isNot(Token::comma))
      return emitExpected("',' or '}' in attribute list");
    consume();
  }
  consumeClose();
  return success();
}

//===----------------------------------------------------------------------===//
// Blocks and statements
//===----------------------------------------------------------------------===//

LogicalResult Parser::parseBlock(unsigned indent, std::vector<StmtPtr> &body) {
  std::vector<Annotation> annotations;
  std::vector<Pragma> pragmas;
  while (true) {
    if (tok.is(Token::error))
      return failure();
    if (tok.is(Token::r_brace) || tok.is(Token::eof) || tok.column < indent) {
      // End of the block: nothing may be left waiting for a statement.
      bool annotationFirst =
          !annotations.empty() &&
          (pragmas.empty() || annotations.front().loc.getPointer() <
                                  pragmas.front().loc.getPointer());
      if (annotationFirst)
        return emitError(annotations.front().loc,
                         "annotation '" + annotations.front().getSpelling() +
                             "' is not followed by a statement");
      if (!pragmas.empty())
        return emitError(pragmas.front().loc,
                         "pragma '" + pragmas.front().name +
                             "' is not followed by a statement");
      return success();
    }
    if (tok.column > indent)
      return emitError(tok.loc, "unexpected indentation");

    if (tok.is(Token::pragma)) {
      pragmas.push_back(Pragma{tok.loc, tok.spelling.str(), "", {}});
      consume();
      if (failed(parsePragmaCondition(pragmas.back())))
        return failure();
      if (tok.isNot(Token::newline))
        return emitExpected("newline after pragma");
      consume();
      continue;
    }

    bool sawAnnotation = false;
    while (tok.is(Token::at) || tok.is(Token::dollar)) {
      if (failed(parseAnnotation(annotations.emplace_back())))
        return failure();
      sawAnnotation = true;
    }
    if (sawAnnotation && tok.is(Token::newline)) {
      consume();
      continue;
    }
    if (sawAnnotation && tok.is(Token::r_brace))
      continue; // Reported as a dangling annotation above.

    StmtPtr stmt;
    if (failed(parseStatement(indent, stmt)))
      return failure();
    stmt->annotations = std::move(annotations);
    stmt->pragmas = std::move(pragmas);
    annotations.clear();
    pragmas.clear();
    body.push_back(std::move(stmt));
  }
}

LogicalResult Parser::parseAnnotation(Annotation &annotation) {
  annotation.loc = tok.loc;
  annotation.dollar = tok.is(Token::dollar);
  StringRef sigil = annotation.dollar ? "$" : "@";
  consume();
  if (tok.isNot(Token::identifier))
    return emitExpected("annotation name after '" + sigil + "'");
  annotation.name = tok.spelling.str();
  annotation.nameLoc = tok.loc;
  consume();
  std::string spelling = annotation.getSpelling();

  if (tok.is(Token::l_paren)) {
    consumeOpen();
    if (tok.isNot(Token::r_paren)) {
      while (true) {
        AnnotationArg &arg = annotation.args.emplace_back();
        arg.loc = tok.loc;
        if (failed(parseExpr(arg.value)))
          return failure();
        auto *name = llvm::dyn_cast<NameExpr>(arg.value.get());
        if (name && tok.is(Token::equal)) {
          arg.key = name->name;
          consume();
          if (failed(parseExpr(arg.value)))
            return failure();
        }
        if (tok.is(Token::r_paren))
          break;
        if (tok.isNot(Token::comma))
          return emitExpected("',' or ')' in the arguments of annotation '" +
                              spelling + "'");
        consume();
      }
    }
    consumeClose();
  }

  if (tok.is(Token::kw_if)) {
    consume();
    if (failed(parseComparison(annotation.condition)))
      return failure();
    if (tok.isNot(Token::kw_else))
      return emitExpected("'else' after the condition of annotation '" +
                          spelling + "'");
    consume();
    if (tok.isNot(Token::identifier))
      return emitExpected("fallback name after 'else' in annotation '" +
                          spelling + "'");
    annotation.fallback = tok.spelling.str();
    annotation.fallbackLoc = tok.loc;
    consume();
  }
  return success();
}

LogicalResult Parser::parseStatement(unsigned indent, StmtPtr &stmt) {
  switch (tok.kind) {
  case Token::kw_GMEM:
  case Token::kw_GRID:
    return parseGmemDecl(stmt);
  case Token::kw_SMEM:
  case Token::kw_REG:
    return parseSmemDecl(stmt);
  case Token::kw_for:
    return parseFor(indent, stmt);
  case Token::kw_if:
    return parseIf(indent, stmt);
  case Token::kw_else:
    return emitError(tok.loc, "'else' without a matching 'if' at this "
                              "indentation");
  case Token::kw_return:
    return parseReturn(stmt);
  case Token::identifier:
    return parseAssignOrStore(stmt);
  default:
    return emitExpected("statement");
  }
}

LogicalResult Parser::parseStatementEnd() {
  if (tok.is(Token::r_brace))
    return success(); // `... }` closes the kernel on the statement's line.
  if (tok.isNot(Token::newline))
    return emitExpected("newline after statement");
  consume();
  return success();
}

LogicalResult Parser::parseGmemDecl(StmtPtr &stmt) {
  auto decl = std::make_unique<GmemDeclStmt>(tok.loc);
  decl->isGrid = tok.is(Token::kw_GRID);
  consume();
  if (!decl->isGrid && tok.is(Token::l_brace) &&
      failed(parseDeclAttrs(decl->attrs, /*isSmem=*/false)))
    return failure();
  while (true) {
    if (tok.isNot(Token::identifier))
      return emitExpected(decl->isGrid ? "dimension name in GRID declaration"
                                       : "tensor name in GMEM declaration");
    decl->names.push_back(NameRef{tok.loc, tok.spelling.str()});
    consume();
    if (tok.isNot(Token::comma))
      break;
    consume();
  }
  stmt = std::move(decl);
  return parseStatementEnd();
}

LogicalResult Parser::parseSmemDecl(StmtPtr &stmt) {
  auto decl = std::make_unique<SmemDeclStmt>(tok.loc);
  decl->isRegister = tok.is(Token::kw_REG);
  consume();
  if (tok.is(Token::l_brace) &&
      failed(parseDeclAttrs(decl->attrs, /*isSmem=*/true)))
    return failure();
  if (tok.isNot(Token::identifier))
    return emitExpected(decl->isRegister ? "tile name in REG declaration"
                                         : "buffer name in SMEM declaration");
  decl->name = tok.spelling.str();
  decl->nameLoc = tok.loc;
  consume();
  if (tok.isNot(Token::colon))
    return emitExpected("':' after " +
                        std::string(decl->isRegister ? "REG tile" : "SMEM buffer") +
                        " name '" + decl->name + "'");
  consume();
  if (failed(parseTensorType(decl->type)))
    return failure();
  stmt = std::move(decl);
  return parseStatementEnd();
}

LogicalResult Parser::parseFor(unsigned indent, StmtPtr &stmt) {
  DepthGuard guard(*this);
  if (tooDeep())
    return emitTooDeep();
  auto loop = std::make_unique<ForStmt>(tok.loc);
  consume();
  // A loop variable's name and location, or false (nothing consumed).
  auto variable = [&](std::string &name, SMLoc &loc) {
    if (tok.isNot(Token::identifier))
      return false;
    name = tok.spelling.str();
    loc = tok.loc;
    consume();
    return true;
  };
  if (!variable(loop->var, loop->varLoc))
    return emitExpected("loop variable after 'for'");
  if (tok.is(Token::comma)) { // for r, c in schedule.fragment(t)
    consume();
    if (!variable(loop->var2, loop->var2Loc))
      return emitExpected("second loop variable after ','");
  }
  if (tok.isNot(Token::kw_in))
    return emitExpected("'in' after loop variable '" +
                        (loop->var2.empty() ? loop->var : loop->var2) + "'");
  consume();

  ExprPtr iterator;
  if (failed(parseExpr(iterator)))
    return failure();
  if (!llvm::isa<CallExpr>(iterator.get()))
    return emitError(getStartLoc(*iterator),
                     "expected an iterator call such as "
                     "'schedule.block(32)' after 'in'");
  loop->iterator.reset(llvm::cast<CallExpr>(iterator.release()));

  if (tok.isNot(Token::colon))
    return emitExpected("':' after loop header");
  consume();
  if (failed(parseIndentedBlock(indent, "loop header", loop->body)))
    return failure();
  stmt = std::move(loop);
  return success();
}

LogicalResult Parser::parseIndentedBlock(unsigned indent, StringRef what,
                                         std::vector<StmtPtr> &body) {
  if (tok.isNot(Token::newline))
    return emitExpected("newline after ':' (the body goes on the following, "
                        "indented lines)");
  consume();
  if (tok.is(Token::error))
    return failure();
  if (tok.is(Token::r_brace) || tok.is(Token::eof) || tok.column <= indent)
    return emitExpected(("an indented block after " + what).str());

  unsigned bodyIndent = tok.column;
  if (failed(parseBlock(bodyIndent, body)))
    return failure();
  // The body ended on a line indented less than it; that line must line up
  // with this block or an outer one.
  if (tok.isNot(Token::r_brace) && tok.isNot(Token::eof) && tok.column > indent)
    return emitError(tok.loc, "inconsistent dedent: this line's indentation "
                              "matches no enclosing block");
  return success();
}

LogicalResult Parser::parseIf(unsigned indent, StmtPtr &stmt) {
  DepthGuard guard(*this);
  if (tooDeep())
    return emitTooDeep();
  auto branch = std::make_unique<IfStmt>(tok.loc);
  consume();
  if (failed(parseExpr(branch->condition)))
    return failure();
  if (tok.isNot(Token::colon))
    return emitExpected("':' after the condition of 'if'");
  consume();
  if (failed(parseIndentedBlock(indent, "'if'", branch->thenBody)))
    return failure();
  if (tok.is(Token::kw_else) && tok.column == indent) {
    branch->elseLoc = tok.loc;
    consume();
    if (tok.isNot(Token::colon))
      return emitExpected("':' after 'else'");
    consume();
    if (failed(parseIndentedBlock(indent, "'else'", branch->elseBody)))
      return failure();
  }
  stmt = std::move(branch);
  return success();
}

LogicalResult Parser::parseReturn(StmtPtr &stmt) {
  auto ret = std::make_unique<ReturnStmt>(tok.loc);
  consume();
  while (true) {
    if (tok.isNot(Token::identifier))
      return emitExpected(ret->values.empty() ? "name after 'return'"
                                              : "name after ',' in return");
    ret->values.push_back(NameRef{tok.loc, tok.spelling.str()});
    consume();
    if (tok.isNot(Token::comma))
      break;
    consume();
  }
  stmt = std::move(ret);
  return parseStatementEnd();
}

LogicalResult Parser::parseAssignOrStore(StmtPtr &stmt) {
  SMLoc loc = tok.loc;
  ExprPtr target;
  if (failed(parsePostfix(target)))
    return failure();
  // A call standing alone: `signal(ready[i])`.
  if (llvm::isa<CallExpr>(target.get()) &&
      (tok.is(Token::newline) || tok.is(Token::r_brace))) {
    auto call = std::make_unique<CallStmt>(loc);
    call->call.reset(llvm::cast<CallExpr>(target.release()));
    stmt = std::move(call);
    return parseStatementEnd();
  }

  AssignOp op;
  switch (tok.kind) {
  case Token::equal:
    op = AssignOp::Assign;
    break;
  case Token::plus_equal:
    op = AssignOp::Add;
    break;
  case Token::minus_equal:
    op = AssignOp::Sub;
    break;
  case Token::star_equal:
    op = AssignOp::Mul;
    break;
  case Token::slash_equal:
    op = AssignOp::Div;
    break;
  default:
    return emitExpected("'=', '+=', '-=', '*=' or '/=' after assignment "
                        "target");
  }
  SMLoc opLoc = tok.loc;

  if (auto *name = llvm::dyn_cast<NameExpr>(target.get())) {
    auto assign = std::make_unique<AssignStmt>(loc);
    assign->target = name->name;
    assign->op = op;
    assign->opLoc = opLoc;
    consume();
    if (failed(parseExpr(assign->value)))
      return failure();
    stmt = std::move(assign);
  } else if (llvm::isa<IndexExpr>(target.get())) {
    auto store = std::make_unique<StoreStmt>(loc);
    store->target.reset(llvm::cast<IndexExpr>(target.release()));
    store->op = op;
    store->opLoc = opLoc;
    consume();
    if (failed(parseExpr(store->value)))
      return failure();
    stmt = std::move(store);
  } else {
    return emitError(loc, "assignment target must be a name or an indexed "
                          "tensor");
  }
  return parseStatementEnd();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

LogicalResult Parser::parseExpr(ExprPtr &expr) {
  DepthGuard guard(*this);
  if (tooDeep())
    return emitTooDeep();
  if (failed(parseOr(expr)))
    return failure();
  if (tok.isNot(Token::kw_if))
    return success();
  SMLoc ifLoc = tok.loc;
  consume();
  ExprPtr condition, falseValue;
  if (failed(parseOr(condition)))
    return failure();
  if (tok.isNot(Token::kw_else))
    return emitExpected("'else' in conditional expression");
  consume();
  if (failed(parseExpr(falseValue)))
    return failure();
  expr = std::make_unique<CondExpr>(
      ifLoc, std::move(expr), std::move(condition), std::move(falseValue));
  return success();
}

LogicalResult Parser::parseChain(ExprPtr &expr, Token::Kind kind, BinaryOp op,
                                 LogicalResult (Parser::*operand)(ExprPtr &)) {
  if (failed((this->*operand)(expr)))
    return failure();
  while (tok.is(kind)) {
    SMLoc opLoc = tok.loc;
    consume();
    ExprPtr rhs;
    if (failed((this->*operand)(rhs)))
      return failure();
    expr =
        std::make_unique<BinaryExpr>(opLoc, op, std::move(expr), std::move(rhs));
  }
  return success();
}

LogicalResult Parser::parsePrefix(ExprPtr &expr, Token::Kind kind, UnaryOp op,
                                  LogicalResult (Parser::*operand)(ExprPtr &)) {
  if (tok.isNot(kind))
    return (this->*operand)(expr);
  DepthGuard guard(*this);
  if (tooDeep())
    return emitTooDeep();
  SMLoc opLoc = tok.loc;
  consume();
  ExprPtr inner;
  if (failed(parsePrefix(inner, kind, op, operand)))
    return failure();
  expr = std::make_unique<UnaryExpr>(opLoc, op, std::move(inner));
  return success();
}

LogicalResult Parser::parseOr(ExprPtr &expr) {
  return parseChain(expr, Token::kw_or, BinaryOp::Or, &Parser::parseAnd);
}

LogicalResult Parser::parseAnd(ExprPtr &expr) {
  return parseChain(expr, Token::kw_and, BinaryOp::And, &Parser::parseNot);
}

LogicalResult Parser::parseNot(ExprPtr &expr) {
  return parsePrefix(expr, Token::kw_not, UnaryOp::Not,
                     &Parser::parseComparison);
}

/// Maps a comparison token to its operator.
static std::optional<BinaryOp> getComparisonOp(Token::Kind kind) {
  switch (kind) {
  case Token::eq_eq:
    return BinaryOp::Eq;
  case Token::bang_eq:
    return BinaryOp::Ne;
  case Token::less:
    return BinaryOp::Lt;
  case Token::less_eq:
    return BinaryOp::Le;
  case Token::greater:
    return BinaryOp::Gt;
  case Token::greater_eq:
    return BinaryOp::Ge;
  default:
    return std::nullopt;
  }
}

LogicalResult Parser::parseComparison(ExprPtr &expr) {
  if (failed(parseAdditive(expr)))
    return failure();
  std::optional<BinaryOp> op = getComparisonOp(tok.kind);
  if (!op)
    return success();
  SMLoc opLoc = tok.loc;
  consume();
  ExprPtr rhs;
  if (failed(parseAdditive(rhs)))
    return failure();
  expr =
      std::make_unique<BinaryExpr>(opLoc, *op, std::move(expr), std::move(rhs));
  if (getComparisonOp(tok.kind))
    return emitError(tok.loc, "comparison operators cannot be chained; use "
                              "parentheses");
  return success();
}

LogicalResult Parser::parseAdditive(ExprPtr &expr) {
  if (failed(parseMultiplicative(expr)))
    return failure();
  while (tok.is(Token::plus) || tok.is(Token::minus)) {
    BinaryOp op = tok.is(Token::plus) ? BinaryOp::Add : BinaryOp::Sub;
    SMLoc opLoc = tok.loc;
    consume();
    ExprPtr rhs;
    if (failed(parseMultiplicative(rhs)))
      return failure();
    expr = std::make_unique<BinaryExpr>(opLoc, op, std::move(expr),
                                        std::move(rhs));
  }
  return success();
}

LogicalResult Parser::parseMultiplicative(ExprPtr &expr) {
  if (failed(parseUnary(expr)))
    return failure();
  while (tok.is(Token::star) || tok.is(Token::slash) ||
         tok.is(Token::percent)) {
    BinaryOp op = tok.is(Token::star)    ? BinaryOp::Mul
                  : tok.is(Token::slash) ? BinaryOp::Div
                                         : BinaryOp::Rem;
    SMLoc opLoc = tok.loc;
    consume();
    ExprPtr rhs;
    if (failed(parseUnary(rhs)))
      return failure();
    expr = std::make_unique<BinaryExpr>(opLoc, op, std::move(expr),
                                        std::move(rhs));
  }
  return success();
}

LogicalResult Parser::parseUnary(ExprPtr &expr) {
  return parsePrefix(expr, Token::minus, UnaryOp::Neg, &Parser::parsePostfix);
}

LogicalResult Parser::parsePostfix(ExprPtr &expr) {
  if (failed(parsePrimary(expr)))
    return failure();
  while (tok.is(Token::l_square)) {
    SMLoc loc = tok.loc;
    consumeOpen();
    std::vector<ExprPtr> indices;
    while (true) {
      if (failed(parseIndex(indices.emplace_back())))
        return failure();
      if (tok.is(Token::r_square))
        break;
      if (tok.isNot(Token::comma))
        return emitExpected("',' or ']' in index list");
      consume();
    }
    consumeClose();
    expr =
        std::make_unique<IndexExpr>(loc, std::move(expr), std::move(indices));
  }
  return success();
}

LogicalResult Parser::parseIndex(ExprPtr &index) {
  ExprPtr lower;
  if (tok.isNot(Token::colon) && failed(parseExpr(lower)))
    return failure();
  if (tok.isNot(Token::colon)) {
    index = std::move(lower);
    return success();
  }
  SMLoc colonLoc = tok.loc;
  consume();
  ExprPtr upper;
  if (tok.isNot(Token::comma) && tok.isNot(Token::r_square) &&
      failed(parseExpr(upper)))
    return failure();
  index =
      std::make_unique<SliceExpr>(colonLoc, std::move(lower), std::move(upper));
  return success();
}

LogicalResult Parser::parsePrimary(ExprPtr &expr) {
  switch (tok.kind) {
  case Token::integer: {
    SMLoc loc = tok.loc;
    int64_t value = 0;
    if (failed(parseInteger(value, /*allowSizeSuffix=*/false)))
      return failure();
    expr = std::make_unique<IntLitExpr>(loc, value);
    return success();
  }
  case Token::floatlit: {
    double value = 0;
    // getAsDouble accepts an overflow (as infinity); reject it.
    if (tok.spelling.getAsDouble(value) || std::isinf(value))
      return emitError(tok.loc,
                       "float literal '" + tok.spelling + "' is out of range");
    expr = std::make_unique<FloatLitExpr>(tok.loc, value);
    consume();
    return success();
  }
  case Token::string:
    expr = std::make_unique<StringLitExpr>(tok.loc, tok.getStringValue());
    consume();
    return success();

  case Token::identifier: {
    SMLoc loc = tok.loc;
    if (tok.spelling == "inf") {
      expr = std::make_unique<FloatLitExpr>(
          loc, std::numeric_limits<double>::infinity());
      consume();
      return success();
    }
    std::string name = tok.spelling.str();
    bool dotted = false;
    consume();
    while (tok.is(Token::dot)) {
      consume();
      if (tok.isNot(Token::identifier))
        return emitExpected("name after '.'");
      name += ".";
      name += tok.spelling.str();
      dotted = true;
      consume();
    }
    if (tok.isNot(Token::l_paren)) {
      if (dotted)
        return emitExpected("'(' after '" + name +
                            "' (a dotted name must be called)");
      expr = std::make_unique<NameExpr>(loc, std::move(name));
      return success();
    }
    consumeOpen();
    std::vector<ExprPtr> args;
    if (tok.isNot(Token::r_paren)) {
      while (true) {
        if (failed(parseExpr(args.emplace_back())))
          return failure();
        if (tok.is(Token::r_paren))
          break;
        if (tok.isNot(Token::comma))
          return emitExpected("',' or ')' in call to '" + name + "'");
        consume();
      }
    }
    consumeClose();
    expr = std::make_unique<CallExpr>(loc, std::move(name), std::move(args));
    return success();
  }

  case Token::l_paren: {
    consumeOpen();
    if (failed(parseExpr(expr)))
      return failure();
    if (tok.isNot(Token::r_paren))
      return emitExpected("')' to close '('");
    consumeClose();
    return success();
  }

  case Token::l_square: {
    SMLoc loc = tok.loc;
    consumeOpen();
    std::vector<ExprPtr> elements;
    if (tok.isNot(Token::r_square)) {
      while (true) {
        if (failed(parseExpr(elements.emplace_back())))
          return failure();
        if (tok.is(Token::r_square))
          break;
        if (tok.isNot(Token::comma))
          return emitExpected("',' or ']' in list");
        consume();
      }
    }
    consumeClose();
    expr = std::make_unique<ListExpr>(loc, std::move(elements));
    return success();
  }

  default:
    return emitExpected("expression");
  }
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::optional<Module> mlir::kda2::tirx::parseTIRx(llvm::SourceMgr &sourceMgr,
                                                  unsigned bufferId,
                                                  ParseErrorFn emitError) {
  StringRef buffer = sourceMgr.getMemoryBuffer(bufferId)->getBuffer();
  Parser parser(buffer, emitError);
  return parser.parseModule();
}

std::optional<Module> mlir::kda2::tirx::parseTIRx(llvm::SourceMgr &sourceMgr,
                                                  unsigned bufferId) {
  return parseTIRx(sourceMgr, bufferId, [&](SMLoc loc, const Twine &message) {
    sourceMgr.PrintMessage(loc, llvm::SourceMgr::DK_Error, message);
  });
}
