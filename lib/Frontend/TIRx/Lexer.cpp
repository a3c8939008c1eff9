//===- Lexer.cpp - .tirx tokenizer ------------------------------*- C++ -*-===//
//
// Implements the .tirx tokenizer. Whitespace other than newlines, `//`
// comments and `#` comments (any `#` line that is not `#pragma NAME`) are
// skipped; a newline produces a `newline` token only when its line held a
// token, so blank and comment-only lines are invisible to the parser. The
// first token of every line checks that the line's indentation holds no tab.
// Every read is bounded by the end of the buffer, so truncated input,
// embedded NUL bytes and arbitrary binary data are diagnosed, never read
// past.
//
//===----------------------------------------------------------------------===//

#include "kda2/Frontend/TIRx/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir::kda2::tirx;

//===----------------------------------------------------------------------===//
// Token
//===----------------------------------------------------------------------===//

llvm::StringRef Token::getKindSpelling(Kind k) {
  switch (k) {
  case eof:
    return "end of file";
  case error:
    return "invalid token";
  case newline:
    return "newline";
  case identifier:
    return "identifier";
  case integer:
    return "integer literal";
  case floatlit:
    return "float literal";
  case string:
    return "string literal";
  case pragma:
    return "#pragma";
  case kw_func:
    return "func";
  case kw_for:
    return "for";
  case kw_in:
    return "in";
  case kw_if:
    return "if";
  case kw_else:
    return "else";
  case kw_return:
    return "return";
  case kw_GMEM:
    return "GMEM";
  case kw_SMEM:
    return "SMEM";
  case kw_REG:
    return "REG";
  case kw_GRID:
    return "GRID";
  case kw_and:
    return "and";
  case kw_or:
    return "or";
  case kw_not:
    return "not";
  case l_paren:
    return "(";
  case r_paren:
    return ")";
  case l_square:
    return "[";
  case r_square:
    return "]";
  case l_brace:
    return "{";
  case r_brace:
    return "}";
  case comma:
    return ",";
  case colon:
    return ":";
  case dot:
    return ".";
  case at:
    return "@";
  case dollar:
    return "$";
  case question:
    return "?";
  case arrow:
    return "->";
  case equal:
    return "=";
  case plus_equal:
    return "+=";
  case minus_equal:
    return "-=";
  case star_equal:
    return "*=";
  case slash_equal:
    return "/=";
  case plus:
    return "+";
  case minus:
    return "-";
  case star:
    return "*";
  case slash:
    return "/";
  case percent:
    return "%";
  case eq_eq:
    return "==";
  case bang_eq:
    return "!=";
  case less:
    return "<";
  case less_eq:
    return "<=";
  case greater:
    return ">";
  case greater_eq:
    return ">=";
  }
  return "token";
}

std::string Token::describe() const {
  switch (kind) {
  case eof:
  case error:
    return getKindSpelling(kind).str();
  case newline:
    return "'newline'";
  case identifier:
    return ("identifier '" + spelling + "'").str();
  case integer:
  case floatlit:
    return (getKindSpelling(kind) + " '" + spelling + "'").str();
  case string:
    return "string literal";
  case pragma:
    return ("'#pragma " + spelling + "'").str();
  default:
    return ("'" + getKindSpelling(kind) + "'").str();
  }
}

std::string Token::getStringValue() const {
  std::string result;
  llvm::StringRef body = spelling;
  if (body.size() >= 2)
    body = body.drop_front().drop_back();
  for (size_t i = 0, e = body.size(); i < e; ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 == e) {
      result.push_back(c);
      continue;
    }
    switch (body[++i]) {
    case 'n':
      result.push_back('\n');
      break;
    case 't':
      result.push_back('\t');
      break;
    default: // '\\' and '"'; the lexer rejects every other escape.
      result.push_back(body[i]);
      break;
    }
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

Lexer::Lexer(llvm::StringRef buffer, ErrorFn emitError)
    : bufEnd(buffer.end()), curPtr(buffer.begin()), lineStart(buffer.begin()),
      emitError(emitError) {}

Token Lexer::emitErrorToken(const char *loc, const llvm::Twine &message) {
  emitError(llvm::SMLoc::getFromPointer(loc), message);
  failed = true;
  curPtr = bufEnd;
  Token tok;
  tok.kind = Token::error;
  tok.loc = llvm::SMLoc::getFromPointer(loc);
  return tok;
}

bool Lexer::beginToken(Token &tok, const char *start) {
  tok.loc = llvm::SMLoc::getFromPointer(start);
  tok.column = static_cast<unsigned>(start - lineStart);
  tok.atLineStart = !tokenOnLine;
  tokenOnLine = true;
  if (tok.atLineStart) {
    for (const char *p = lineStart; p != start; ++p) {
      if (*p == '\t') {
        tok = emitErrorToken(p,
                             "tabs are not allowed in indentation; use spaces");
        return false;
      }
    }
  }
  return true;
}

Token &Lexer::formToken(Token &tok, Token::Kind kind, const char *start) {
  tok.kind = kind;
  tok.spelling = llvm::StringRef(start, curPtr - start);
  return tok;
}

Token Lexer::lex() {
  if (failed) {
    Token tok;
    tok.kind = Token::eof;
    tok.loc = llvm::SMLoc::getFromPointer(bufEnd);
    return tok;
  }

  while (true) {
    Token tok;
    const char *start = curPtr;

    if (curPtr == bufEnd) {
      tok.loc = llvm::SMLoc::getFromPointer(curPtr);
      tok.column = static_cast<unsigned>(curPtr - lineStart);
      if (tokenOnLine) {
        // Terminate the last line even without a trailing '\n'.
        tokenOnLine = false;
        tok.kind = Token::newline;
        return tok;
      }
      tok.kind = Token::eof;
      tok.atLineStart = true;
      return tok;
    }

    char c = *curPtr++;
    switch (c) {
    case ' ':
    case '\t':
    case '\r':
    case '\f':
    case '\v':
      continue;

    case '\n': {
      const char *oldLineStart = lineStart;
      lineStart = curPtr;
      if (!tokenOnLine)
        continue;
      tokenOnLine = false;
      tok.kind = Token::newline;
      tok.loc = llvm::SMLoc::getFromPointer(start);
      tok.column = static_cast<unsigned>(start - oldLineStart);
      return tok;
    }

    case '/':
      if (peek(curPtr) == '/') {
        while (curPtr != bufEnd && *curPtr != '\n')
          ++curPtr;
        continue;
      }
      break;

    case '#':
      if (lexHash(tok, start))
        return tok;
      continue;

    default:
      break;
    }

    // Everything below produces a token starting at `start`.
    if (!beginToken(tok, start))
      return tok;

    if (isIdentStart(c))
      return lexIdentifier(tok, start);
    if (llvm::isDigit(c))
      return lexNumber(tok, start);

    auto withEqual = [&](Token::Kind plain, Token::Kind withEq) {
      if (peek(curPtr) == '=') {
        ++curPtr;
        return formToken(tok, withEq, start);
      }
      return formToken(tok, plain, start);
    };

    switch (c) {
    case '"':
      return lexString(tok, start);
    case '(':
      return formToken(tok, Token::l_paren, start);
    case ')':
      return formToken(tok, Token::r_paren, start);
    case '[':
      return formToken(tok, Token::l_square, start);
    case ']':
      return formToken(tok, Token::r_square, start);
    case '{':
      return formToken(tok, Token::l_brace, start);
    case '}':
      return formToken(tok, Token::r_brace, start);
    case ',':
      return formToken(tok, Token::comma, start);
    case ':':
      return formToken(tok, Token::colon, start);
    case '.':
      return formToken(tok, Token::dot, start);
    case '@':
      return formToken(tok, Token::at, start);
    case '$':
      return formToken(tok, Token::dollar, start);
    case '?':
      return formToken(tok, Token::question, start);
    case '%':
      return formToken(tok, Token::percent, start);
    case '=':
      return withEqual(Token::equal, Token::eq_eq);
    case '+':
      return withEqual(Token::plus, Token::plus_equal);
    case '*':
      return withEqual(Token::star, Token::star_equal);
    case '/':
      return withEqual(Token::slash, Token::slash_equal);
    case '<':
      return withEqual(Token::less, Token::less_eq);
    case '>':
      return withEqual(Token::greater, Token::greater_eq);
    case '-':
      if (peek(curPtr) == '>') {
        ++curPtr;
        return formToken(tok, Token::arrow, start);
      }
      return withEqual(Token::minus, Token::minus_equal);
    case '!':
      if (peek(curPtr) == '=') {
        ++curPtr;
        return formToken(tok, Token::bang_eq, start);
      }
      return emitErrorToken(start, "unexpected character '!'; did you mean "
                                   "'!='?");
    default:
      break;
    }

    unsigned char uc = static_cast<unsigned char>(c);
    if (llvm::isPrint(c))
      return emitErrorToken(start, "unexpected character '" +
                                       llvm::StringRef(start, 1) + "'");
    return emitErrorToken(start, "unexpected character '\\x" +
                                     llvm::utohexstr(uc, /*LowerCase=*/true,
                                                     /*Width=*/2) +
                                     "'");
  }
}

bool Lexer::lexHash(Token &tok, const char *start) {
  // `#pragma` followed by a blank, or by the end of the line, is a
  // directive; any other `#` starts a comment.
  llvm::StringRef rest(curPtr, bufEnd - curPtr);
  if (rest.starts_with("pragma")) {
    const char *afterKw = curPtr + 6;
    char next = peek(afterKw);
    if (afterKw == bufEnd || next == ' ' || next == '\t' || next == '\n' ||
        next == '\r') {
      if (!beginToken(tok, start))
        return true;
      curPtr = afterKw;
      while (curPtr != bufEnd && (*curPtr == ' ' || *curPtr == '\t'))
        ++curPtr;
      if (curPtr == bufEnd || !isIdentStart(*curPtr)) {
        tok = emitErrorToken(curPtr, "expected pragma name after '#pragma'");
        return true;
      }
      const char *nameStart = curPtr;
      while (curPtr != bufEnd && isIdentChar(*curPtr))
        ++curPtr;
      tok.kind = Token::pragma;
      tok.spelling = llvm::StringRef(nameStart, curPtr - nameStart);
      return true;
    }
  }
  while (curPtr != bufEnd && *curPtr != '\n')
    ++curPtr;
  return false;
}

Token Lexer::lexIdentifier(Token &tok, const char *start) {
  while (curPtr != bufEnd && isIdentChar(*curPtr))
    ++curPtr;
  llvm::StringRef spelling(start, curPtr - start);
  Token::Kind kind = llvm::StringSwitch<Token::Kind>(spelling)
                         .Case("func", Token::kw_func)
                         .Case("for", Token::kw_for)
                         .Case("in", Token::kw_in)
                         .Case("if", Token::kw_if)
                         .Case("else", Token::kw_else)
                         .Case("return", Token::kw_return)
                         .Case("GMEM", Token::kw_GMEM)
                         .Case("SMEM", Token::kw_SMEM)
                         .Case("REG", Token::kw_REG)
                         .Case("GRID", Token::kw_GRID)
                         .Case("and", Token::kw_and)
                         .Case("or", Token::kw_or)
                         .Case("not", Token::kw_not)
                         .Default(Token::identifier);
  return formToken(tok, kind, start);
}

Token Lexer::lexNumber(Token &tok, const char *start) {
  while (curPtr != bufEnd && llvm::isDigit(*curPtr))
    ++curPtr;
  bool isFloat = false;
  // Fraction: '.' must be followed by a digit (so `x[1].` stays an error in
  // the parser rather than a float).
  if (peek(curPtr) == '.' && llvm::isDigit(peek(curPtr + 1))) {
    isFloat = true;
    curPtr += 2;
    while (curPtr != bufEnd && llvm::isDigit(*curPtr))
      ++curPtr;
  }
  // Exponent: e/E, optional sign, at least one digit.
  char e = peek(curPtr);
  if (e == 'e' || e == 'E') {
    char n1 = peek(curPtr + 1);
    if (llvm::isDigit(n1) ||
        ((n1 == '+' || n1 == '-') && llvm::isDigit(peek(curPtr + 2)))) {
      isFloat = true;
      curPtr += llvm::isDigit(n1) ? 1 : 2;
      while (curPtr != bufEnd && llvm::isDigit(*curPtr))
        ++curPtr;
    }
  }
  // A suffix (`128KB`) stays part of an integer token; the parser decides
  // where it is allowed.
  const char *suffixStart = curPtr;
  while (curPtr != bufEnd && isIdentChar(*curPtr))
    ++curPtr;
  if (isFloat && curPtr != suffixStart)
    return emitErrorToken(
        suffixStart, "invalid suffix '" +
                         llvm::StringRef(suffixStart, curPtr - suffixStart) +
                         "' on float literal");
  return formToken(tok, isFloat ? Token::floatlit : Token::integer, start);
}

Token Lexer::lexString(Token &tok, const char *start) {
  while (true) {
    if (curPtr == bufEnd || *curPtr == '\n' || *curPtr == '\r')
      return emitErrorToken(start, "unterminated string literal");
    char c = *curPtr++;
    if (c == '"')
      return formToken(tok, Token::string, start);
    if (c != '\\')
      continue;
    char esc = peek(curPtr);
    if (esc == '"' || esc == '\\' || esc == 'n' || esc == 't') {
      ++curPtr;
      continue;
    }
    if (curPtr == bufEnd || esc == '\n')
      return emitErrorToken(start, "unterminated string literal");
    return emitErrorToken(curPtr - 1,
                          "unknown escape sequence in string literal; "
                          "expected one of \\\" \\\\ \\n \\t");
  }
}
