//===- Parser.h - .tirx recursive-descent parser ----------------*- C++ -*-===//
//
// The entry point of the .tirx frontend: parses one source buffer into the
// AST of `kda2/Frontend/TIRx/AST.h`. The parser checks the grammar only
// (including the indentation rules of kernel bodies); everything semantic is
// left to the AST-to-MLIR emitter. It stops at the first error, which it
// reports exactly once through a callback, and never crashes or recurses
// without bound on any input.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_FRONTEND_TIRX_PARSER_H
#define KDA2_FRONTEND_TIRX_PARSER_H

#include "kda2/Frontend/TIRx/AST.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"

#include <optional>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::kda2::tirx {

/// Callback receiving a parse error: the location of the offending token
/// and a lower-case message such as
/// "expected ':' after loop header, found 'newline'".
using ParseErrorFn = llvm::function_ref<void(llvm::SMLoc, const llvm::Twine &)>;

/// The deepest nesting the parser accepts, counting parenthesized and
/// bracketed sub-expressions, unary operators, chained conditionals and
/// nested loops; deeper input is rejected with "nesting too deep".
constexpr unsigned kMaxNestingDepth = 256;

/// Parses buffer `bufferId` of `sourceMgr` as a .tirx file. On success
/// returns the module (whose locations point into that buffer) without
/// calling `emitError`. On failure calls `emitError` exactly once, for the
/// first error, and returns std::nullopt.
std::optional<Module> parseTIRx(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                                ParseErrorFn emitError);

/// Convenience overload: reports errors through `sourceMgr.PrintMessage`
/// as `llvm::SourceMgr::DK_Error` diagnostics (to llvm::errs()).
std::optional<Module> parseTIRx(llvm::SourceMgr &sourceMgr, unsigned bufferId);

} // namespace mlir::kda2::tirx

#endif // KDA2_FRONTEND_TIRX_PARSER_H
