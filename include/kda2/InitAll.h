//===- InitAll.h - Register every kda2 dialect, pass, translation -*- C++ -*-===//
//
// The one place that lists what kda2's tools (and an embedding compiler)
// register: the kda2 dialect plus the upstream dialects our IR uses, our
// passes, and the .tirx import translation. Only what we use is registered,
// to keep links small.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_INITALL_H
#define KDA2_INITALL_H

#include "kda2/Dialect/KDA2/IR/KDA2.h"
#include "kda2/Dialect/KDA2/Transforms/Passes.h"
#include "kda2/Frontend/TIRx/ImportTIRx.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::kda2 {

/// Adds the kda2 dialect and the upstream dialects kda2 IR contains.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<KDA2Dialect, arith::ArithDialect>();
}

/// Registers kda2's passes and the upstream ones our pipelines use.
inline void registerAllPasses() {
  registerKDA2Passes();
  registerCanonicalizerPass();
  registerCSEPass();
}

/// Registers kda2's translations (.tirx import).
inline void registerAllTranslations() { registerImportTIRxTranslation(); }

} // namespace mlir::kda2

#endif // KDA2_INITALL_H
