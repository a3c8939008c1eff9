// RUN: kda2-opt %s --split-input-file --verify-diagnostics
//
// One case per diagnostic of the kda2 dialect (lib/Dialect/KDA2/IR): type,
// attribute and op verifiers, the custom parsers, the kernel rules, the loop
// annotations (the profile-dependent ones under a `kda2.target` module) and
// the dialect attribute checks. Messages that ODS generates (operand type
// constraints, traits) are upstream's and not repeated here.
//
// Not reachable from textual IR, so not tested here:
//  * KDA2TensorType::verify "expected N dimension names, got M" and
//    "named dimension 'x' must be dynamic": the type parser records one name
//    per dimension and makes every named dimension dynamic; only C++ callers
//    of KDA2TensorType::get can produce them.
//  * KDA2Dialect::verifyRegionArgAttribute "'kda2.io' is only valid on
//    kda2.kernel arguments": MLIR verifies argument attributes only for
//    FunctionOpInterface ops, and kda2-opt registers no function-like op
//    other than kda2.kernel (no func dialect).
//  * ShapeHintAttr::verify "shape hint for 'x' lists no values": the
//    generated parser of `#kda2.shape_hint<"x", [...]>` needs at least one
//    value; test/Frontend/TIRx/errors.tirx reaches it from
//    `@shape_hint(x, [])`.

//===----------------------------------------------------------------------===//
// !kda2.tensor
//===----------------------------------------------------------------------===//

// Element type must be an integer or a float.
// expected-error @below {{expected an integer or float element type, got 'index'}}
kda2.kernel @k(%x: !kda2.tensor<[4], index>) {
}
