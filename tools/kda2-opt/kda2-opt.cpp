//===- kda2-opt.cpp - kda2 optimizer driver ---------------------*- C++ -*-===//
//
// mlir-opt for kda2: parses kda2 IR, runs registered passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "kda2/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::kda2::registerAllDialects(registry);
  mlir::kda2::registerGPUBackendDialects(registry);
  mlir::kda2::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "kda2 optimizer driver\n", registry));
}
