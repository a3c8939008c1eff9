//===- Lexer.h - .tirx tokenizer --------------------------------*- C++ -*-===//
//
// The tokenizer of the .tirx kernel language. It turns a source buffer into
// tokens on demand: identifiers and keywords, integer literals (with an
// optional unit suffix such as `KB`, validated by the parser), float
// literals, string literals, `#pragma NAME` directives, punctuation, and one
// `newline` token at the end of every line that holds a token (blank and
// comment-only lines produce none). Each token records its column and
// whether it is the first on its line, which is all the parser needs to
// implement the indentation rules. The lexer reports malformed input (an
// unexpected character, an unterminated string, a tab in indentation)
// through a callback and then returns `error` once and `eof` afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_FRONTEND_TIRX_LEXER_H
#define KDA2_FRONTEND_TIRX_LEXER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"

#include <string>

namespace mlir::kda2::tirx {

/// One token of .tirx source.
struct Token {
  /// The token kinds.
  enum Kind {
    // Markers.
    eof,     ///< End of the buffer.
    error,   ///< Malformed input (already reported through the callback).
    newline, ///< End of a line holding at least one token.

    // Tokens with a payload.
    identifier, ///< `[A-Za-z_][A-Za-z0-9_]*` that is not a keyword.
    integer,    ///< `[0-9]+` plus an optional identifier-like suffix.
    floatlit,   ///< `1.0`, `1e-6`, `2.5E+3`.
    string,     ///< `"..."`; the spelling includes the quotes.
    pragma,     ///< `#pragma NAME`; the spelling is NAME, `loc` the `#`.

    // Keywords.
    kw_func,   ///< `func`
    kw_for,    ///< `for`
    kw_in,     ///< `in`
    kw_if,     ///< `if`
    kw_else,   ///< `else`
    kw_return, ///< `return`
    kw_GMEM,   ///< `GMEM`
    kw_SMEM,   ///< `SMEM`
    kw_REG,    ///< `REG`
    kw_GRID,   ///< `GRID`
    kw_and,    ///< `and`
    kw_or,     ///< `or`
    kw_not,    ///< `not`

    // Punctuation.
    l_paren,     ///< `(`
    r_paren,     ///< `)`
    l_square,    ///< `[`
    r_square,    ///< `]`
    l_brace,     ///< `{`
    r_brace,     ///< `}`
    comma,       ///< `,`
    colon,       ///< `:`
    dot,         ///< `.`
    at,          ///< `@`
    dollar,      ///< `$`
    question,    ///< `?`
    arrow,       ///< `->`
    equal,       ///< `=`
    plus_equal,  ///< `+=`
    minus_equal, ///< `-=`
    star_equal,  ///< `*=`
    slash_equal, ///< `/=`
    plus,        ///< `+`
    minus,       ///< `-`
    star,        ///< `*`
    slash,       ///< `/`
    percent,     ///< `%`
    eq_eq,       ///< `==`
    bang_eq,     ///< `!=`
    less,        ///< `<`
    less_eq,     ///< `<=`
    greater,     ///< `>`
    greater_eq,  ///< `>=`
  };

  /// The kind of the token.
  Kind kind = eof;
  /// The source text of the token (for `pragma`, just the name; for
  /// `newline` and `eof`, empty).
  llvm::StringRef spelling;
  /// The location of the token's first character.
  llvm::SMLoc loc;
  /// Zero-based byte column of the token's first character on its line.
  unsigned column = 0;
  /// True if no other token precedes this one on its line.
  bool atLineStart = false;

  /// Returns true if the token has kind `k`.
  bool is(Kind k) const { return kind == k; }
  /// Returns true if the token does not have kind `k`.
  bool isNot(Kind k) const { return kind != k; }

  /// Returns a short description for diagnostics, e.g. "'('",
  /// "identifier 'foo'", "'newline'", "end of file".
  std::string describe() const;

  /// For a `string` token: returns the contents with escapes decoded.
  std::string getStringValue() const;

  /// Returns the fixed spelling of a keyword or punctuation kind (e.g.
  /// "for", "->"), or a descriptive name for the other kinds.
  static llvm::StringRef getKindSpelling(Kind k);
};

/// Tokenizes one .tirx buffer on demand.
class Lexer {
public:
  /// Callback receiving a lexical error: the location and the message.
  using ErrorFn = llvm::function_ref<void(llvm::SMLoc, const llvm::Twine &)>;

  /// Creates a lexer over `buffer`, reporting errors through `emitError`.
  /// The buffer need not be NUL-terminated and may contain any bytes.
  Lexer(llvm::StringRef buffer, ErrorFn emitError);

  /// Returns the next token. After an `error` token, returns `eof` forever.
  Token lex();

private:
  /// Starts a token at `start`: sets its column, whether it begins its
  /// line, and rejects tabs in the line's indentation. Returns false (after
  /// reporting) on a tab.
  bool beginToken(Token &tok, const char *start);
  /// Finishes `tok` as kind `kind` spanning [start, curPtr).
  Token &formToken(Token &tok, Token::Kind kind, const char *start);
  /// Reports `message` at `loc` and returns an `error` token.
  Token emitErrorToken(const char *loc, const llvm::Twine &message);
  /// Lexes an identifier or keyword starting at `start`.
  Token lexIdentifier(Token &tok, const char *start);
  /// Lexes an integer or float literal starting at `start`.
  Token lexNumber(Token &tok, const char *start);
  /// Lexes a string literal whose opening quote is at `start`.
  Token lexString(Token &tok, const char *start);
  /// Lexes `#...` at `start`: a pragma token, or skips a comment. Returns
  /// true and sets `tok` if a token (pragma or error) was produced.
  bool lexHash(Token &tok, const char *start);
  /// Returns the character at `p`, or 0 at/after the end of the buffer.
  char peek(const char *p) const { return p < bufEnd ? *p : 0; }

  /// One past the last character of the buffer.
  const char *bufEnd;
  /// The next character to lex.
  const char *curPtr;
  /// The first character of the current line.
  const char *lineStart;
  /// True once a token has been produced on the current line.
  bool tokenOnLine = false;
  /// True once an error was reported; the lexer then only returns `eof`.
  bool failed = false;
  /// The error callback.
  ErrorFn emitError;
};

} // namespace mlir::kda2::tirx

#endif // KDA2_FRONTEND_TIRX_LEXER_H
