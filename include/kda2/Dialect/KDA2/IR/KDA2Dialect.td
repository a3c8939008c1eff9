//===- KDA2Dialect.td - kda2 dialect definition ------------*- tablegen -*-===//
//
// The kda2 dialect: a kernel IR for attention operators (first Kimi Delta
// Attention) written as layout declarations, an explicit schedule and
// hardware-constraint annotations, the three element kinds of a .tirx file.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_DIALECT_KDA2_IR_KDA2DIALECT_TD
#define KDA2_DIALECT_KDA2_IR_KDA2DIALECT_TD

include "mlir/IR/OpBase.td"

def KDA2_Dialect : Dialect {
  let name = "kda2";
  let cppNamespace = "::mlir::kda2";
  let summary = "Kernel IR for attention operators with explicit schedules";
  let description = [{
    A `kda2.kernel` holds exactly three kinds of elements:

    * **layout declarations**: `kda2.gmem` (physical layout and packing of
      global tensors), `kda2.smem_alloc` and `kda2.reg_alloc` (on-chip
      buffers);
    * **an explicit schedule**: `kda2.loop` ops mapped to thread blocks,
      warps or threads, holding the computation (`kda2.load`, element-wise
      math, reductions, tile ops, `kda2.store`);
    * **constraint annotations**: attributes on loops (`#kda2.warp_reduce`,
      `#kda2.bank_conflict_free`, `#kda2.coalesced_access<...>`,
      `#kda2.tma_bound<...>`, `#kda2.shape_hint<...>`, `#kda2.pragma<...>`)
      and the annotation ops `kda2.delta_masked` and `kda2.counter`.

    The hardware the kernel is checked against is named by the module
    attribute `kda2.target = "H200-SXM"` (a hardware profile).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The hardware profiles known in this context: the built-in ones plus
    /// any a tool loaded from a file.
    ProfileRegistry &getProfiles() { return *profiles; }

    /// Name of the module attribute that selects the hardware profile.
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return "kda2.target";
    }
    /// Name of the kernel-argument attribute giving its direction.
    static constexpr ::llvm::StringLiteral getIOAttrName() {
      return "kda2.io";
    }
    /// Name of the kernel-argument attribute giving a state's layout.
    static constexpr ::llvm::StringLiteral getStateAttrName() {
      return "kda2.state";
    }
    /// Name of the kernel-argument attribute bounding its values (the
    /// caller's promise the numerics check relies on).
    static constexpr ::llvm::StringLiteral getRangeAttrName() {
      return "kda2.range";
    }
    /// Name of the kernel-argument attribute naming the integer parameter
    /// that holds the element stride of a tensor's outermost physical
    /// dimension (a runtime row pitch: inputs sliced from a fused
    /// projection).
    static constexpr ::llvm::StringLiteral getStrideAttrName() {
      return "kda2.stride";
    }
    /// Name of the kernel attribute recording the compile-time integer
    /// bindings (`--tirx-bind=GF=2,...`) the kernel's source refers to: a
    /// dictionary name -> i64, written into the launch metadata as `bind`
    /// lines.
    static constexpr ::llvm::StringLiteral getBindingsAttrName() {
      return "kda2.bindings";
    }

  private:
    void registerAttributes();
    void registerTypes();
    std::unique_ptr<ProfileRegistry> profiles;
  }];
}

class KDA2_Op<string mnemonic, list<Trait> traits = []>
    : Op<KDA2_Dialect, mnemonic, traits>;

#endif // KDA2_DIALECT_KDA2_IR_KDA2DIALECT_TD
