//===- FuzzIR.cpp - libFuzzer target: kda2 IR parsing and verification ----===//
//
// Parses the input bytes as MLIR with the dialects kda2 IR uses
// (mlir::kda2::registerAllDialects: kda2 + arith), runs the verifier (the
// kda2 op, type and attribute verifiers and the kernel rules, including the
// hardware-profile checks when the input names a `kda2.target`), and checks
// that a module that verifies prints, parses back and verifies again.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "kda2/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

static const DialectRegistry &registry() {
  static const DialectRegistry *r = [] {
    auto *reg = new DialectRegistry();
    kda2::registerAllDialects(*reg);
    return reg;
  }();
  return *r;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  std::string diagnostics;
  ScopedDiagnosticHandler collect(&context, [&](Diagnostic &diag) {
    diagnostics += diag.str() + "\n";
    return success();
  });

  // A std::string keeps the buffer NUL-terminated for the lexer.
  std::string text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      text, ParserConfig(&context, /*verifyAfterParse=*/false), "fuzz.mlir");
  if (!module || failed(verify(*module)))
    return 0;

  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  diagnostics.clear();
  OwningOpRef<ModuleOp> reparsed = parseSourceString<ModuleOp>(
      printed, ParserConfig(&context, /*verifyAfterParse=*/true));
  if (!reparsed)
    kda2fuzz::fuzzCheckFailed(
        "a verified module does not parse back after printing",
        diagnostics + "---\n" + printed);
  return 0;
}
