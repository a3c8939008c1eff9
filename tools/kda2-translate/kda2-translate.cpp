//===- kda2-translate.cpp - kda2 translation driver -------------*- C++ -*-===//
//
// mlir-translate for kda2: `--import-tirx` turns a .tirx file into kda2 IR.
//
//===----------------------------------------------------------------------===//

#include "kda2/InitAll.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::kda2::registerAllTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "kda2 translation driver\n"));
}
