//===- Passes.td - kda2 transformation passes --------------*- tablegen -*-===//
//
// Passes over the kda2 dialect.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_DIALECT_KDA2_TRANSFORMS_PASSES_TD
#define KDA2_DIALECT_KDA2_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def KDA2AttachTargetPass : Pass<"kda2-attach-target", "::mlir::ModuleOp"> {
  let summary = "Select the hardware profile a module is compiled for";
  let description = [{
    Sets the module attribute `kda2.target` to the named hardware profile,
    after loading `profile-file` (a YAML profile) into the context's
    registry when given. The verifier then checks every kernel against the
    profile: shared-memory budgets, TMA tile bounds, TMA availability. An
    unknown profile is an error that lists the known ones.

    ```
    kda2-opt --kda2-attach-target="profile=A100-40GB-SXM4" in.mlir
    ```
  }];
  let options = [
    Option<"profile", "profile", "std::string", /*default=*/"\"H200-SXM\"",
           "Name of the hardware profile">,
    Option<"profileFile", "profile-file", "std::string", /*default=*/"\"\"",
           "YAML file with an extra hardware profile to register first">,
  ];
  let dependentDialects = ["::mlir::kda2::KDA2Dialect"];
}

#endif // KDA2_DIALECT_KDA2_TRANSFORMS_PASSES_TD
