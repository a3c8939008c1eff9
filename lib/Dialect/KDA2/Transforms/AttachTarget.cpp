//===- AttachTarget.cpp - Select a module's hardware profile ---*- C++ -*-===//
//
// Implements --kda2-attach-target: optionally registers a YAML profile file
// with the context's profile registry, checks that the requested profile
// exists, and records it as the module attribute `kda2.target`. Verification
// after the pass then holds every kernel to that profile's limits.
//
//===----------------------------------------------------------------------===//

#include "kda2/Dialect/KDA2/Transforms/Passes.h"

namespace mlir::kda2 {
#define GEN_PASS_DEF_KDA2ATTACHTARGETPASS
#include "kda2/Dialect/KDA2/Transforms/Passes.h.inc"
} // namespace mlir::kda2

using namespace mlir;
using namespace mlir::kda2;

namespace {
struct AttachTargetPass
    : kda2::impl::KDA2AttachTargetPassBase<AttachTargetPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void AttachTargetPass::runOnOperation() {
  ModuleOp module = getOperation();
  ProfileRegistry &profiles =
      getContext().getLoadedDialect<KDA2Dialect>()->getProfiles();
  // Loading the same file twice (e.g. from two pipelines) is not an error.
  if (!profileFile.empty()) {
    if (llvm::Error err = profiles.addFromFile(profileFile)) {
      std::string message = llvm::toString(std::move(err));
      if (!StringRef(message).contains("duplicate hardware profile")) {
        module.emitError() << message;
        return signalPassFailure();
      }
    }
  }
  llvm::Expected<const HardwareProfile *> found = profiles.get(profile);
  if (!found) {
    module.emitError() << llvm::toString(found.takeError());
    return signalPassFailure();
  }
  module->setAttr(KDA2Dialect::getTargetAttrName(),
                  StringAttr::get(&getContext(), (*found)->name));
}
