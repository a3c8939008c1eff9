//===- KDA2Types.td - kda2 types ---------------------------*- tablegen -*-===//
//
// The tensor type of kernel arguments and on-chip buffers.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_DIALECT_KDA2_IR_KDA2TYPES_TD
#define KDA2_DIALECT_KDA2_IR_KDA2TYPES_TD

include "kda2/Dialect/KDA2/IR/KDA2Dialect.td"
include "mlir/IR/AttrTypeBase.td"

def KDA2_TensorType : TypeDef<KDA2_Dialect, "KDA2Tensor"> {
  let mnemonic = "tensor";
  let summary = "a tensor in global memory, shared memory or registers";
  let description = [{
    A tensor with a logical shape whose dimensions are static sizes, named
    dynamic sizes (`seqlen`: every dimension of that name in a kernel has the
    same runtime size) or anonymous dynamic sizes (`?`), an element type,
    and a memory space (`gmem` when omitted). The physical layout of a
    global tensor is declared by `kda2.gmem`.

    ```mlir
    !kda2.tensor<[batch, head, seq_q, dim], f16>
    !kda2.tensor<[32, 32], f32, smem>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"::mlir::StringAttr">:$dimNames,
                        "::mlir::Type":$elementType,
                        "::mlir::kda2::MemorySpace":$memorySpace);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of dimensions.
    unsigned getRank() const { return getShape().size(); }
    /// True when every dimension is static.
    bool hasStaticShape() const;
    /// Size in bytes of a static-shaped tensor (elements rounded up to whole
    /// bytes); std::nullopt for a dynamic shape.
    std::optional<int64_t> getStaticSizeInBytes() const;
    /// The name of dimension `i`, empty when it has none.
    ::llvm::StringRef getDimName(unsigned i) const {
      return getDimNames()[i] ? getDimNames()[i].getValue() : "";
    }
  }];
}

#endif // KDA2_DIALECT_KDA2_IR_KDA2TYPES_TD
