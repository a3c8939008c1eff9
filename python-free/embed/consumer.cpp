//===- consumer.cpp - embed kda2 in another MLIR tool -----------*- C++ -*-===//
//
// Uses only the installed kda2 headers and libraries: imports the .tirx file
// given as argv[1], retargets it to the profile argv[2] with the
// kda2-attach-target pass, verifies, and prints the module.
//
//===----------------------------------------------------------------------===//

#include "kda2/InitAll.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: kda2-consumer <file.tirx> <profile>\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  mlir::kda2::registerAllDialects(registry);
  mlir::MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  std::string includedPath;
  if (sourceMgr.AddIncludeFile(argv[1], llvm::SMLoc(), includedPath) == 0) {
    llvm::errs() << "cannot read " << argv[1] << "\n";
    return 1;
  }
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::kda2::importTIRx(sourceMgr, &context);
  if (!module)
    return 1;

  mlir::PassManager pm(&context);
  mlir::kda2::KDA2AttachTargetPassOptions options;
  options.profile = argv[2];
  pm.addPass(mlir::kda2::createKDA2AttachTargetPass(options));
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
