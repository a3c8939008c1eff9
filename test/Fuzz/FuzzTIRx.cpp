//===- FuzzTIRx.cpp - libFuzzer target: the .tirx frontend ----------------===//
//
// Feeds the input bytes as a .tirx file to mlir::kda2::importTIRx (lexer,
// parser, emitter, kda2 verifier against the H200-SXM profile), once without
// and once with dimension bindings (static tile shapes reach other verifier
// paths). Checks: a rejected input gets at least one error and every error
// is located at file:line:col of the input; a module the frontend accepts
// must print, parse back and verify, as `kda2-opt --verify-roundtrip`
// expects of it.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "kda2/Dialect/KDA2/IR/KDA2.h"
#include "kda2/Frontend/TIRx/ImportTIRx.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

static void checkRoundTrip(ModuleOp module, MLIRContext &context) {
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  std::string diagnostics;
  ScopedDiagnosticHandler collect(&context, [&](Diagnostic &diag) {
    diagnostics += diag.str() + "\n";
    return success();
  });
  OwningOpRef<ModuleOp> reparsed = parseSourceString<ModuleOp>(
      printed, ParserConfig(&context, /*verifyAfterParse=*/true));
  if (!reparsed)
    kda2fuzz::fuzzCheckFailed(
        "the imported module does not parse back after printing",
        diagnostics + "---\n" + printed);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(MLIRContext::Threading::DISABLED);
  context.loadDialect<kda2::KDA2Dialect, arith::ArithDialect>();
  // The documented contract: a rejected input gets at least one error, and
  // every error is located at file:line:col of the input.
  unsigned errors = 0;
  std::string unlocated;
  ScopedDiagnosticHandler check(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    ++errors;
    // (As the SourceMgr handler prints it: through name/fused locations.)
    auto fileLoc = diag.getLocation()->findInstanceOf<FileLineColLoc>();
    if (!fileLoc || fileLoc.getFilename() != "fuzz.tirx")
      unlocated += diag.str() + "\n";
    return success();
  });

  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  kda2::ImportTIRxOptions bound;
  bound.bindings = {{"dim", 64}, {"K", 128}, {"V", 128}, {"VB", 32},
                    {"NVB", 4},  {"LANES", 4}, {"B", 2},  {"H", 4}};
  for (const kda2::ImportTIRxOptions &options :
       {kda2::ImportTIRxOptions(), bound}) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(bytes, "fuzz.tirx"),
        llvm::SMLoc());
    errors = 0;
    OwningOpRef<ModuleOp> module = kda2::importTIRx(sourceMgr, &context,
                                                    options);
    if (!unlocated.empty())
      kda2fuzz::fuzzCheckFailed("an error without a file:line:col location",
                                unlocated);
    if (!module && errors == 0)
      kda2fuzz::fuzzCheckFailed("the import failed without an error");
    if (module && errors != 0)
      kda2fuzz::fuzzCheckFailed("the import reported an error but succeeded");
    if (module)
      checkRoundTrip(*module, context);
  }
  return 0;
}
