//===- KDA2Interfaces.td - kda2 interfaces -----------------*- tablegen -*-===//
//
// Interfaces shared by kda2 attributes.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_DIALECT_KDA2_IR_KDA2INTERFACES_TD
#define KDA2_DIALECT_KDA2_IR_KDA2INTERFACES_TD

include "mlir/IR/OpBase.td"

def KDA2_LoopAnnotationAttrInterface
    : AttrInterface<"LoopAnnotationAttrInterface"> {
  let cppNamespace = "::mlir::kda2";
  let description = [{
    A constraint annotation that may be attached to a `kda2.loop`. Each one
    names its .tirx spelling (for diagnostics) and checks itself against the
    loop it annotates (the hardware profile is null when the module names
    no target).
  }];
  let methods = [
    InterfaceMethod<"The .tirx spelling, e.g. `@warp_reduce`.",
                    "::llvm::StringRef", "getSpelling">,
    InterfaceMethod<[{
        Verify the annotation on `loop`; emit an error on `loop` and fail
        when it does not hold.
      }], "::llvm::LogicalResult", "verifyOnLoop",
      (ins "::mlir::Operation *":$loop,
           "const ::mlir::kda2::HardwareProfile *":$profile)>,
  ];
}

#endif // KDA2_DIALECT_KDA2_IR_KDA2INTERFACES_TD
