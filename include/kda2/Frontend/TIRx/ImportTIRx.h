//===- ImportTIRx.h - .tirx to kda2 IR --------------------------*- C++ -*-===//
//
// Builds kda2 IR from a .tirx kernel description, with FileLineColLoc
// locations taken from the source, and registers the `--import-tirx`
// translation.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_FRONTEND_TIRX_IMPORTTIRX_H
#define KDA2_FRONTEND_TIRX_IMPORTTIRX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <map>

namespace mlir::kda2 {

/// Options of the .tirx importer.
struct ImportTIRxOptions {
  /// Hardware profile recorded as the module's `kda2.target`; empty for none.
  std::string profile = "H200-SXM";
  /// Compile-time constants (`dim=64`): a named dimension listed here
  /// becomes that static size, so tiles over it get static shapes (needed by
  /// the GPU lowering); any other listed name can be used as an integer
  /// constant (loop extents, index arithmetic). Each kernel records the ones
  /// its source refers to as `kda2.bindings` (name -> i64), which the GPU
  /// lowering writes into its launch metadata as `bind` lines.
  std::map<std::string, int64_t> bindings;
  /// Element-type parameters (`IN=f16`): a dtype spelled with a name listed
  /// here (`Tensor[…, dtype=IN]`, the conversion `IN(x)`) is that type.
  std::map<std::string, std::string> typeBindings;
  /// Layout parameters (`SL=VK`): `GMEM {layout=SL}` means that layout.
  std::map<std::string, std::string> layoutBindings;
  /// Names bound to a state layout (`--tirx-bind=SS=kv`): usable as the
  /// value of `state=` in GMEM declarations.
  std::map<std::string, std::string> stateBindings;
};

/// The element type a .tirx dtype name denotes (f16, bf16, f32, f64, bool,
/// i8, u8/uint8, i16, i32, i64), or null.
Type parseElementTypeName(llvm::StringRef name, MLIRContext *context);

/// Adds one `--tirx-bind` entry to \p options: `name=<positive size>`,
/// `name=<element type>` (f16, bf16, ...) or `name=<layout>` (BSHD, VK, ...).
/// Fails with "--tirx-bind expects <name>=<positive size>, <name>=<element
/// type> or <name>=<layout>, got '<entry>'".
llvm::Error addTIRxBinding(ImportTIRxOptions &options, llvm::StringRef entry,
                           MLIRContext *context);

/// Parses the main buffer of `sourceMgr` as .tirx and returns a verified
/// module of kda2 kernels, or null after emitting located diagnostics
/// (file:line:col) through the context's diagnostic engine.
OwningOpRef<ModuleOp> importTIRx(llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context,
                                 const ImportTIRxOptions &options = {});

/// Registers `--import-tirx` (with `--tirx-profile=<name>` and
/// `--tirx-bind=<name>=<size|type>,...`) with mlir-translate-style tools.
void registerImportTIRxTranslation();

} // namespace mlir::kda2

#endif // KDA2_FRONTEND_TIRX_IMPORTTIRX_H
