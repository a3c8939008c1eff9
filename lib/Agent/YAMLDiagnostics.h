//===- YAMLDiagnostics.h - Located errors for the YAML loaders --*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
//
// Shared by the hardware-profile and rule-base loaders (internal header):
// rendering llvm::SourceMgr diagnostics as "<buffer>:<line>:<col>: error:
// ..." text and collecting them from llvm::yaml::Input.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_LIB_AGENT_YAMLDIAGNOSTICS_H
#define KDA2_LIB_AGENT_YAMLDIAGNOSTICS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::kda2::yamldiag {

/// Renders `diag` as "<buffer>:<line>:<col>: error: <message>" followed by
/// the offending source line and a caret, without a trailing newline.
inline std::string render(const llvm::SMDiagnostic &diag) {
  std::string text;
  llvm::raw_string_ostream os(text);
  diag.print(/*ProgName=*/nullptr, os, /*ShowColors=*/false);
  return llvm::StringRef(text).rtrim('\n').str();
}

/// SourceMgr handler appending each diagnostic to the std::string at `ctx`.
inline void collect(const llvm::SMDiagnostic &diag, void *ctx) {
  std::string &out = *static_cast<std::string *>(ctx);
  if (!out.empty())
    out += '\n';
  out += render(diag);
}

inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::make_error<llvm::StringError>(message,
                                             llvm::inconvertibleErrorCode());
}

/// llvm::yaml::Input reports some errors without a location ("<unknown>:0:
/// error: unknown node kind" for an alias such as `*x`): those are located
/// at the start of `buffer`, so every error names its file, line and column.
inline std::string locateAll(llvm::StringRef diagnostics,
                             llvm::StringRef buffer) {
  std::string out;
  llvm::SmallVector<llvm::StringRef> lines;
  diagnostics.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (!out.empty())
      out += '\n';
    if (line.consume_front("<unknown>:0: error: "))
      out += (buffer + ":1:1: error: " + line).str();
    else
      out += line.str();
  }
  return out;
}

} // namespace mlir::kda2::yamldiag

#endif // KDA2_LIB_AGENT_YAMLDIAGNOSTICS_H
