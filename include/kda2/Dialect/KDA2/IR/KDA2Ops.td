//===- KDA2Ops.td - kda2 operations ------------------------*- tablegen -*-===//
//
// Kernels, layout declarations, schedule loops, element-wise and tile math,
// and the annotation ops of the kda2 dialect.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_DIALECT_KDA2_IR_KDA2OPS_TD
#define KDA2_DIALECT_KDA2_IR_KDA2OPS_TD

include "kda2/Dialect/KDA2/IR/KDA2Dialect.td"
include "kda2/Dialect/KDA2/IR/KDA2Attrs.td"
include "kda2/Dialect/KDA2/IR/KDA2Types.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def KDA2_AnyTensor : Type<CPred<"::llvm::isa<::mlir::kda2::KDA2TensorType>($_self)">,
                          "kda2 tensor", "::mlir::kda2::KDA2TensorType">;

/// A value of element-wise math: a scalar or a builtin ranked tensor tile.
def KDA2_Scalar : AnyTypeOf<[AnyFloat, AnyInteger, Index]>;
def KDA2_Value : AnyTypeOf<[AnyFloat, AnyInteger, Index, AnyRankedTensor]>;
def KDA2_FloatValue
    : AnyTypeOf<[AnyFloat, RankedTensorOf<[AnyFloat]>]>;
def KDA2_Tile : RankedTensorOf<[AnyFloat, AnyInteger]>;

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def KDA2_KernelOp : KDA2_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove, OpAsmOpInterface,
    SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "a GPU kernel written as declarations, schedule and annotations";
  let description = [{
    A kernel over `kda2.tensor` arguments and scalar inputs (integers and
    floats passed by value, e.g. a softmax scale). Outputs are arguments too, marked
    `{kda2.io = #kda2.io<out>}` (or `inout`); arguments without the
    attribute are inputs and are never written. The body holds only layout
    declarations (`kda2.gmem`, `kda2.smem_alloc`, `kda2.reg_alloc`), named
    sizes (`kda2.dim`), constants and schedule loops (`kda2.loop`); all
    computation lives inside loops. It must contain at least one layout
    declaration, one schedule loop and one constraint annotation.

    `grid` lists the leading dimension names that every global tensor
    shares (e.g. `["batch", "head"]`): one program instance runs per grid
    point and indices inside the kernel address the dimensions after them.
    `pragmas` holds kernel-wide `#kda2.pragma` directives. `arg_names`
    keeps the source names of the arguments (the IR prints them as `%q`,
    and the launch metadata uses them).

    ```mlir
    kda2.kernel @scale(%x: !kda2.tensor<[batch, n], f16>,
                       %y: !kda2.tensor<[batch, n], f16> {kda2.io = #kda2.io<out>})
        attributes {grid = ["batch"]} {
      kda2.gmem %x, %y layout(row_major) packing(none)
          : !kda2.tensor<[batch, n], f16>, !kda2.tensor<[batch, n], f16>
      %n = kda2.dim "n" : index
      kda2.loop thread %i to %n annotations [#kda2.coalesced_access<dim = "n", modulus = 8>] {
        %v = kda2.load %x[%i] : !kda2.tensor<[batch, n], f16> -> f16
        %e = kda2.exp %v : f16
        kda2.store %e, %y[%i] : f16, !kda2.tensor<[batch, n], f16>
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<StrArrayAttr>:$grid,
                       OptionalAttr<StrArrayAttr>:$arg_names,
                       OptionalAttr<TypedArrayAttrBase<KDA2_PragmaAttr,
                           "pragma array">>:$pragmas);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    /// The first argument with a `kda2.state` layout and that layout.
    std::optional<std::pair<unsigned, ::mlir::kda2::StateLayout>>
    getStateLayout();
    /// Checks that the kernel's states, and those of the other kernels of
    /// its module, share one layout.
    ::llvm::LogicalResult verifyStateLayouts();
    //===------------------------------------------------------------------===//
    // FunctionOpInterface
    //===------------------------------------------------------------------===//
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// Names the entry block arguments after their .tirx parameters (the
    /// NameLoc the frontend gives each argument).
    void getAsmBlockArgumentNames(::mlir::Region &region,
                                  ::mlir::OpAsmSetValueNameFn setNameFn);

    /// Source name of argument `i` (from `arg_names`), or "".
    ::llvm::StringRef getArgName(unsigned i);
    /// Direction of argument `i` (inputs by default).
    IOKind getArgIOKind(unsigned i);
    /// Number of leading grid dimensions of global tensors.
    unsigned getGridRank() {
      return getGridAttr() ? getGridAttr().size() : 0;
    }
    /// The hardware profile named by the enclosing module's `kda2.target`,
    /// or null when there is none.
    const HardwareProfile *getTargetProfile();
  }];
}

def KDA2_ReturnOp : KDA2_Op<"return", [Pure, HasParent<"KernelOp">,
                                       Terminator, ReturnLike]> {
  let summary = "kernel terminator";
  let description = [{
    Ends a `kda2.kernel`; outputs are written through `kda2.store`.

    ```mlir
    kda2.return
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Layout declarations
//===----------------------------------------------------------------------===//

def KDA2_GmemOp : KDA2_Op<"gmem", [HasParent<"KernelOp">]> {
  let summary = "declare the physical layout and packing of global tensors";
  let description = [{
    The .tirx `GMEM {layout=..., packing=...} a, b` line. Each operand is a
    kernel argument in global memory; its logical shape is ordered batch,
    head, sequence, feature (rank 4) or batch, head, sequence (rank 3), and
    `layout` names the physical order: `BSHD` stores `[b, s, h, d]`,
    `BHSD` is the logical order, `KV`/`VK` the two orders of a recurrent
    state's last two dimensions, `row_major` the logical order of any rank.
    `vnni4` packing interleaves groups of 4 elements of the innermost
    dimension (8/16-bit elements; loads use `ldmatrix`). An argument without
    a declaration is row-major and unpacked.

    ```mlir
    kda2.gmem %q, %k layout(BSHD) packing(none)
        : !kda2.tensor<[batch, head, seq, dim], f16>,
          !kda2.tensor<[batch, head, seq, dim], f16>
    ```
  }];
  let arguments = (ins Variadic<KDA2_AnyTensor>:$tensors,
                       EnumProp<KDA2_Layout>:$layout,
                       EnumProp<KDA2_Packing>:$packing);
  let assemblyFormat = [{
    $tensors `layout` `(` $layout `)` `packing` `(` $packing `)` attr-dict
    `:` qualified(type($tensors))
  }];
  let hasVerifier = 1;
}

def KDA2_SmemAllocOp : KDA2_Op<"smem_alloc", [HasParent<"KernelOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "declare a shared-memory buffer";
  let description = [{
    The .tirx `SMEM {size=128KB} s: Tensor[32, 32]` line: a static-shaped
    buffer in shared memory with a byte budget `size`, which must hold the
    tensor and fit the target profile's shared memory per block.

    ```mlir
    %s = kda2.smem_alloc size(131072) : !kda2.tensor<[32, 32], f32, smem>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$size);
  let results = (outs KDA2_AnyTensor:$result);
  let assemblyFormat = "`size` `(` $size `)` attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def KDA2_RegAllocOp : KDA2_Op<"reg_alloc", [HasParent<"KernelOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "declare a per-thread register tile";
  let description = [{
    A static-shaped tensor held in registers.

    With `mma` (`REG {layout=mma}` in .tirx) the tile is instead one tile of
    the whole block, [M, N] f32, spread over the registers of its warps in
    the layout of a tensor-core accumulator: warp w holds the 16-row strips
    w, w + W, ... (W warps), each lane two rows and two columns of every
    16 x 8 block. A tensor-core product reads it as its accumulator or, in
    f16/bf16, as its left operand, and writes it, without shared memory;
    element by element it is reached only in a fragment loop over it
    (`schedule.fragment`).

    `split` chooses how the tile's 16 x 8 blocks spread over the W warps:
    `"rows"` (the default, as above), `"cols"` (warp w holds the column
    range [w N/W, (w + 1) N/W) of every strip: a product whose left operand
    is such a tile contracts over columns split between the warps, and its
    partial sums meet through shared memory) or `"none"` (every warp holds
    the whole tile, a copy each).

    ```mlir
    %acc = kda2.reg_alloc : !kda2.tensor<[16, 8], f32, reg>
    %st = kda2.reg_alloc {mma} : !kda2.tensor<[64, 128], f32, reg>
    %sk = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 128], f32, reg>
    ```
  }];
  let arguments = (ins UnitAttr:$mma, OptionalAttr<StrAttr>:$split);
  let results = (outs KDA2_AnyTensor:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def KDA2_DimOp : KDA2_Op<"dim", [Pure]> {
  let summary = "runtime size of a named dimension";
  let description = [{
    The runtime size of the dynamic dimension `name`, which must appear in
    the type of an argument of the enclosing kernel.

    ```mlir
    %n = kda2.dim "seqlen" : index
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Index:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def KDA2_GridIndexOp : KDA2_Op<"grid_index", [Pure]> {
  let summary = "index of the current program instance along a grid dimension";
  let description = [{
    The coordinate, along the kernel's grid dimension `name`, of the program
    instance running this code (e.g. the sequence a block works on, to read
    `cu_seqlens[seq]` of a variable-length batch).

    ```mlir
    %seq = kda2.grid_index "n" : index
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Index:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Schedule
//===----------------------------------------------------------------------===//

def KDA2_LoopOp : KDA2_Op<"loop", [SingleBlock, NoTerminator,
    RecursiveMemoryEffects, DeclareOpInterfaceMethods<OpAsmOpInterface,
                                                      ["getAsmBlockArgumentNames"]>]> {
  let summary = "a schedule loop mapped to blocks, warps or threads";
  let description = [{
    Runs its body for `%i` in `[0, %upper)`, the iterations distributed over
    thread blocks, warps or threads of a block (`schedule.block(n)`,
    `schedule.warp(n)`, `schedule.thread(n)` in .tirx), or executed in
    order by the threads that reach the loop (`serial`, `schedule.serial(n)`:
    the token loop of a recurrence), or over the elements of an `mma`
    register tile of `columns` columns (`fragment`, `schedule.fragment(t)`:
    element `%i = r * columns + c` by the thread holding it; `upper` is the
    tile's size; `split` is the tile's, when not `rows`). A parallel loop may not be nested inside
    a parallel loop of a finer mapping (no block loop inside a thread loop). `annotations` holds the constraint annotations written before the
    loop; each checks itself against the loop.

    ```mlir
    kda2.loop block %i to %c32 annotations [#kda2.warp_reduce] {
      kda2.loop thread %j to %c32 { ... }
    }
    ```
  }];
  let arguments = (ins Index:$upperBound, EnumProp<KDA2_LoopMapping>:$mapping,
                       OptionalAttr<ArrayAttr>:$annotations,
                       OptionalAttr<I64Attr>:$lanes,
                       OptionalAttr<I64Attr>:$columns,
                       OptionalAttr<StrAttr>:$split);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$upperBound,
                                 "::mlir::kda2::LoopMapping":$mapping,
                                 "::mlir::ArrayAttr":$annotations)>];
  let extraClassDeclaration = [{
    /// The induction variable.
    ::mlir::Value getInductionVar() { return getBody().getArgument(0); }
    /// The loop body block.
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
    /// Lanes per iteration (1 unless `lanes` is set).
    int64_t getLanesPerIteration() {
      return getLanes() ? static_cast<int64_t>(*getLanes()) : 1;
    }
  }];
}

def KDA2_IfOp : KDA2_Op<"if", [SingleBlock, NoTerminator, NoRegionArguments,
    RecursiveMemoryEffects]> {
  let summary = "run a region when a condition holds, another otherwise";
  let description = [{
    `if cond:` / `else:` in .tirx: the `then` region runs when `condition`
    holds, the optional `else` region otherwise. Only statements inside a
    schedule loop are conditional. Names bound in a region are local to it
    (an `if` has no results); stores are its effect.

    When the condition can differ between the threads of a
    `schedule.thread` / `schedule.warp` loop (it depends on that loop's
    variable), the regions may not hold what needs every thread of a warp
    or block: lane reductions (warp shuffles), tensor-core products,
    counters, or parallel loops. A condition of uniform code (outside thread
    loops, or independent of their variables) has no such limit.

    ```mlir
    kda2.if %valid {
      kda2.store %s, %pool[%slot, %c] : ...
    } else {
      kda2.store %zero, %o[%tok, %c] : ...
    }
    ```
  }];
  let arguments = (ins I1:$condition);
  let regions = (region SizedRegion<1>:$thenRegion, AnyRegion:$elseRegion);
  let assemblyFormat = [{
    $condition $thenRegion (`else` $elseRegion^)? attr-dict
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$condition,
                                 "bool":$withElseRegion)>];
  let extraClassDeclaration = [{
    ::mlir::Block *getThenBlock() { return &getThenRegion().front(); }
    /// The else block, or null.
    ::mlir::Block *getElseBlock() {
      return getElseRegion().empty() ? nullptr : &getElseRegion().front();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Memory access
//===----------------------------------------------------------------------===//

def KDA2_LoadOp : KDA2_Op<"load", [MemoryEffects<[MemRead]>,
                                    AttrSizedOperandSegments]> {
  let summary = "read an element or a trailing tile of a tensor";
  let description = [{
    Indexes the dimensions after the kernel's grid (for global tensors) with
    `indices`. When every dimension is indexed the result is the element;
    otherwise it is a builtin tensor tile of the remaining dimensions
    (static sizes kept, named or `?` sizes dynamic).

    With `windows` (one size per index, global tensors only), an index with a
    size n > 0 starts a window of n consecutive positions along its
    dimension instead of fixing it: the tile is the windows' sizes, in order,
    then the dimensions after the indices. Positions past a dimension's end
    read as zero. It is the source of a whole-tile copy into shared memory
    (TMA box, or the block's copy). `limits` (one per window, in order, or
    none) bound the windows: positions at or past a window's limit read as
    zero too (a sequence's end inside a packed batch; TMA zeroes only past
    the tensor's end, so the copy then clears those rows in shared memory).

    ```mlir
    %row = kda2.load %q[%i] : !kda2.tensor<[batch, head, seq, 64], f16> -> tensor<64xf16>
    %e = kda2.load %s[%i, %j] : !kda2.tensor<[32, 32], f32, smem> -> f32
    %w = kda2.load %v[%t0, %h, %c0] {windows = array<i64: 32, 0, 16>}
        : !kda2.tensor<[tt, h, 128], bf16> -> tensor<32x16xbf16>
    %b = kda2.load %v[%t0, %h, %c0] limits(%end, %c128)
        {windows = array<i64: 32, 0, 16>}
        : !kda2.tensor<[tt, h, 128], bf16> -> tensor<32x16xbf16>
    ```
  }];
  let arguments = (ins KDA2_AnyTensor:$source, Variadic<Index>:$indices,
                       Variadic<Index>:$limits,
                       OptionalAttr<DenseI64ArrayAttr>:$windows);
  let results = (outs KDA2_Value:$result);
  let builders = [OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$source,
                                 "::mlir::ValueRange":$indices), [{
    build($_builder, $_state, result, source, indices, ::mlir::ValueRange(),
          ::mlir::DenseI64ArrayAttr());
  }]>];
  let assemblyFormat = [{
    $source `[` $indices `]` (`limits` `(` $limits^ `)`)? attr-dict `:`
    qualified(type($source)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def KDA2_StoreOp : KDA2_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "write an element or a trailing tile of a tensor";
  let description = [{
    The converse of `kda2.load`: the value's type must be what a load with
    the same indices would return. Writing a kernel input is an error.

    ```mlir
    kda2.store %v, %s[%i, %j] : f32, !kda2.tensor<[32, 32], f32, smem>
    ```
  }];
  let arguments = (ins KDA2_Value:$value, KDA2_AnyTensor:$dest,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` attr-dict `:` type($value) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Element-wise math
//===----------------------------------------------------------------------===//

class KDA2_BinaryOp<string mnemonic, string doc>
    : KDA2_Op<mnemonic, [Pure]> {
  let summary = "element-wise " # doc;
  let description = [{
    Element-wise }] # doc # [{ of scalars and tiles. A scalar operand is
    broadcast over a tile operand; two tiles must have compatible shapes.
    Both operands have the same element type; the result is the tile type
    (or the scalar type when both are scalars).

    ```mlir
    %d = kda2.}] # mnemonic # [{ %row, %m : tensor<32xf32>, f32 -> tensor<32xf32>
    ```
  }];
  let arguments = (ins KDA2_Value:$lhs, KDA2_Value:$rhs);
  let results = (outs KDA2_Value:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def KDA2_AddOp : KDA2_BinaryOp<"add", "addition">;
def KDA2_SubOp : KDA2_BinaryOp<"sub", "subtraction">;
def KDA2_MulOp : KDA2_BinaryOp<"mul", "multiplication">;
def KDA2_DivOp : KDA2_BinaryOp<"div", "division">;
def KDA2_RemOp : KDA2_BinaryOp<"rem", "remainder">;
def KDA2_MaxOp : KDA2_BinaryOp<"max", "maximum">;
def KDA2_MinOp : KDA2_BinaryOp<"min", "minimum">;

def KDA2_CmpOp : KDA2_Op<"cmp", [Pure]> {
  let summary = "element-wise comparison";
  let description = [{
    Compares scalars or tiles (with scalar broadcast) and yields `i1` or a
    tile of `i1`.

    ```mlir
    %c = kda2.cmp gt %a, %b : f32, f32 -> i1
    ```
  }];
  let arguments = (ins EnumProp<KDA2_CmpPredicate>:$predicate, KDA2_Value:$lhs,
                       KDA2_Value:$rhs);
  let results = (outs KDA2_Value:$result);
  let assemblyFormat = [{
    $predicate $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

class KDA2_UnaryOp<string mnemonic, string math>
    : KDA2_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = "element-wise " # math;
  let description = [{
    Computes `}] # math # [{` element-wise on a float scalar or tile.

    ```mlir
    %y = kda2.}] # mnemonic # [{ %x : tensor<64xf32>
    ```
  }];
  let arguments = (ins KDA2_FloatValue:$input);
  let results = (outs KDA2_FloatValue:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def KDA2_NegOp : KDA2_UnaryOp<"neg", "-x">;
def KDA2_ExpOp : KDA2_UnaryOp<"exp", "exp(x)">;
def KDA2_Exp2Op : KDA2_UnaryOp<"exp2", "2^x">;
def KDA2_LogOp : KDA2_UnaryOp<"log", "ln(x)">;
def KDA2_SqrtOp : KDA2_UnaryOp<"sqrt", "sqrt(x)">;
def KDA2_RsqrtOp : KDA2_UnaryOp<"rsqrt", "1/sqrt(x)">;
def KDA2_SigmoidOp : KDA2_UnaryOp<"sigmoid", "1/(1+exp(-x))">;
def KDA2_SoftplusOp : KDA2_UnaryOp<"softplus", "ln(1+exp(x))">;

def KDA2_CastOp : KDA2_Op<"cast", [Pure]> {
  let summary = "element type conversion";
  let description = [{
    Converts the element type of a scalar or tile (float/integer extension,
    truncation and int-float conversion), keeping the shape.

    ```mlir
    %f = kda2.cast %h : tensor<64xf16> -> tensor<64xf32>
    ```
  }];
  let arguments = (ins KDA2_Value:$input);
  let results = (outs KDA2_Value:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def KDA2_SelectOp : KDA2_Op<"select", [Pure]> {
  let summary = "element-wise choice";
  let description = [{
    `cond ? a : b` element-wise; `cond` is `i1` or a tile of `i1`, scalars
    broadcast over tiles. Lowered to predicated selects, never to branches.

    ```mlir
    %r = kda2.select %c, %v, %ninf : i1, f32, f32 -> f32
    ```
  }];
  let arguments = (ins KDA2_Value:$condition, KDA2_Value:$trueValue,
                       KDA2_Value:$falseValue);
  let results = (outs KDA2_Value:$result);
  let assemblyFormat = [{
    $condition `,` $trueValue `,` $falseValue attr-dict `:` type($condition)
    `,` type($trueValue) `,` type($falseValue) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and tile operations
//===----------------------------------------------------------------------===//

def KDA2_ReduceOp : KDA2_Op<"reduce", [Pure]> {
  let summary = "reduce a tile along one dimension";
  let description = [{
    Combines the elements of `input` along `axis` (default: the last) with
    `sum`, `max` or `min`. A rank-1 tile reduces to a scalar; a row-wise
    reduction of a `[m, n]` tile along axis 1 gives `[m]`.

    ```mlir
    %m = kda2.reduce max %row : tensor<32xf32> -> f32
    ```
  }];
  let arguments = (ins EnumProp<KDA2_ReduceKind>:$kind, KDA2_Tile:$input,
                       OptionalAttr<I64Attr>:$axis);
  let results = (outs KDA2_Value:$result);
  let assemblyFormat = [{
    $kind $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The reduced dimension, resolving the default.
    int64_t getReducedAxis();
  }];
}

def KDA2_MatmulOp : KDA2_Op<"matmul", [Pure]> {
  let summary = "tile matrix product on tensor cores";
  let description = [{
    `result = a · b (+ acc)` for 2-D tiles, `a: [m, k]` (or `[k, m]` with
    `transpose_a`), `b: [k, n]` (or `[n, k]` with `transpose_b`), result
    `[m, n]` in the accumulator's element type (f32 for f16/bf16 operands).
    The GPU lowering runs it on tensor cores (`ldmatrix` + `mma.sync`).

    ```mlir
    %c = kda2.matmul %a, %b : tensor<64x128xbf16>, tensor<128x64xbf16> -> tensor<64x64xf32>
    %d = kda2.matmul %a, %k acc(%c) {transpose_b} : tensor<64x128xbf16>, tensor<64x128xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    ```
  }];
  let arguments = (ins KDA2_Tile:$a, KDA2_Tile:$b, Optional<KDA2_Tile>:$acc,
                       UnitAttr:$transpose_a, UnitAttr:$transpose_b);
  let results = (outs KDA2_Tile:$result);
  let assemblyFormat = [{
    $a `,` $b (`acc` `(` $acc^ `)`)? attr-dict `:` type($a) `,` type($b)
    (`,` type($acc)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def KDA2_CumsumOp : KDA2_Op<"cumsum", [Pure, SameOperandsAndResultType]> {
  let summary = "inclusive prefix sum along one dimension";
  let description = [{
    `result[..., i, ...] = sum_{j <= i} input[..., j, ...]` along `axis`
    (default 0, the token dimension of a chunk); `exclusive` sums `j < i`.
    KDA uses it for the chunk-local cumulative log decay.

    ```mlir
    %gc = kda2.cumsum %g {axis = 0 : i64} : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnyFloat]>:$input,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       UnitAttr:$exclusive);
  let results = (outs RankedTensorOf<[AnyFloat]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def KDA2_TriSolveOp : KDA2_Op<"tri_solve", [Pure]> {
  let summary = "triangular solve of a tile system";
  let description = [{
    Solves `A · X = B` for `X` where `A: [n, n]` is lower (default) or upper
    triangular, with an implicit unit diagonal when `unit_diagonal` is set;
    `B: [n, m]`. KDA computes the WY/UT factor `(I + A)⁻¹` this way.

    ```mlir
    %x = kda2.tri_solve %a, %b {unit_diagonal} : tensor<64x64xf32>, tensor<64x128xf32> -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnyFloat]>:$a,
                       RankedTensorOf<[AnyFloat]>:$b,
                       DefaultValuedAttr<BoolAttr, "true">:$lower,
                       UnitAttr:$unit_diagonal);
  let results = (outs RankedTensorOf<[AnyFloat]>:$result);
  let assemblyFormat = [{
    $a `,` $b attr-dict `:` type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
}

def KDA2_L2NormOp : KDA2_Op<"l2norm", [Pure, SameOperandsAndResultType]> {
  let summary = "L2-normalise along the last dimension";
  let description = [{
    `x / sqrt(sum(x^2) + eps)` along the last dimension (q/k normalisation
    of KDA).

    ```mlir
    %qn = kda2.l2norm %q {eps = 1.0e-06 : f64} : tensor<128xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnyFloat]>:$input,
                       DefaultValuedAttr<F64Attr, "1e-6">:$eps);
  let results = (outs RankedTensorOf<[AnyFloat]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Annotation ops
//===----------------------------------------------------------------------===//

def KDA2_DeltaMaskedOp : KDA2_Op<"delta_masked", [Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "`@delta_masked(mask_type=...)`: apply a mask exactly";
  let description = [{
    `mask != 0 ? value : fill` element-wise. The mask's bits select the
    value exactly, with predication and no branch, and never by a floating
    multiply (so a `uint8` mask cannot perturb the value through a
    conversion). The mask has the integer type `mask_type` names (`ui8`/`i8`
    for `uint8`, `i1` for `bool`) and the value's shape; `fill` defaults to 0.

    ```mlir
    %r = kda2.delta_masked %v, %m mask_type(uint8) : f16, ui8
    %s = kda2.delta_masked %v, %m mask_type(uint8) {fill = -1.0e+30 : f64} : f32, ui8
    ```
  }];
  let arguments = (ins KDA2_FloatValue:$value, KDA2_Value:$mask,
                       EnumProp<KDA2_MaskType>:$mask_type,
                       DefaultValuedAttr<F64Attr, "0.0">:$fill);
  let results = (outs KDA2_FloatValue:$result);
  let assemblyFormat = [{
    $value `,` $mask `mask_type` `(` $mask_type `)` attr-dict `:`
    type($value) `,` type($mask)
  }];
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$value, "::mlir::Value":$mask,
                                 "::mlir::kda2::MaskType":$maskType,
                                 "double":$fill)>];
}

def KDA2_CounterOp : KDA2_Op<"counter"> {
  let summary = "`@custom_counter(name)`: record a value in a device counter";
  let description = [{
    Adds `value` to the device counter `name`, which the runtime reads back
    after the launch. Names are identifiers, unique within a kernel.

    ```mlir
    kda2.counter "l2_read_bytes", %bytes : i64
    ```
  }];
  let arguments = (ins StrAttr:$name, KDA2_Scalar:$value);
  let assemblyFormat = "$name `,` $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Ready flags between kernels
//===----------------------------------------------------------------------===//

def KDA2_SignalOp : KDA2_Op<"signal", [MemoryEffects<[MemWrite, MemRead]>]> {
  let summary = "`signal(f[i])`: publish the block's stores behind a ready flag";
  let description = [{
    Once every thread of the block has reached it, sets the i32 element
    `flags[indices]` (a kernel output, all of it indexed) to 1 with release
    semantics at GPU scope: a block of another kernel that reads the flag
    as set (`kda2.wait`) sees every global store the block made before it.
    Every thread of the block must reach it (uniform control flow). A
    kernel holding one lets its dependent kernel start early: on sm_90 the
    GPU lowering triggers the programmatic launch of the next kernel at its
    start (`griddepcontrol.launch_dependents`).

    ```mlir
    kda2.signal %ready[%slot] : !kda2.tensor<[h, ns], i32>
    ```
  }];
  let arguments = (ins KDA2_AnyTensor:$flags, Variadic<Index>:$indices);
  let assemblyFormat = [{
    $flags `[` $indices `]` attr-dict `:` qualified(type($flags))
  }];
  let hasVerifier = 1;
}

def KDA2_WaitOp : KDA2_Op<"wait", [MemoryEffects<[MemWrite, MemRead]>]> {
  let summary = "`wait_for(f[i])`: wait until a ready flag is set";
  let description = [{
    Waits until the i32 element `flags[indices]` (a kernel input, all of it
    indexed) is nonzero, reading it with acquire semantics at GPU scope;
    the block's later reads (tile copies included) then see what the
    signalling block stored before its `kda2.signal`. Every thread of the
    block must reach it, unless it sits at the top level of a `#pragma
    tma_pipeline` loop, where the thread issuing the loop's copies waits
    before it issues those of the same iteration. A kernel holding one
    runs as the programmatic dependent of the kernel before it on sm_90
    (its launch metadata says `pdl 1`) and waits for that kernel's end only
    before it exits (`griddepcontrol.wait`). A flag that stays unset for
    about four seconds traps (a launch error, not a hang).

    ```mlir
    kda2.wait %ready[%slot] : !kda2.tensor<[h, ns], i32>
    ```
  }];
  let arguments = (ins KDA2_AnyTensor:$flags, Variadic<Index>:$indices);
  let assemblyFormat = [{
    $flags `[` $indices `]` attr-dict `:` qualified(type($flags))
  }];
  let hasVerifier = 1;
}

def KDA2_LaunchDependentsOp : KDA2_Op<"launch_dependents", [MemoryEffects<[MemWrite]>]> {
  let summary = "`launch_dependents()`: let the next kernel launch early";
  let description = [{
    Lets the kernel launched after this one on the stream as its
    programmatic dependent (a kernel holding `kda2.wait_prior`) start once
    every block of this kernel has passed this point, instead of at this
    kernel's end (on sm_90: `griddepcontrol.launch_dependents`; earlier chips
    have no programmatic launch, and it lowers to nothing). Nothing this
    kernel stores is published by it: the dependent's `kda2.wait_prior`
    waits for this kernel's end.

    ```mlir
    kda2.launch_dependents
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def KDA2_WaitPriorOp : KDA2_Op<"wait_prior", [MemoryEffects<[MemWrite, MemRead]>]> {
  let summary = "`wait_prior()`: wait for the kernel launched before it to end";
  let description = [{
    Marks the kernel as the programmatic dependent of the kernel launched
    before it on the stream (its launch metadata says `pdl 1`: the runtime
    launches it with programmatic stream serialization, so its blocks may
    start while that kernel runs) and waits, where it stands, until that
    kernel has ended and its stores are visible (on sm_90:
    `griddepcontrol.wait`). What a thread does before it (index arithmetic,
    loads of inputs the kernel before does not write, barrier setup)
    overlaps the other kernel's tail; a thread that reads that kernel's
    results must pass it first. A `#pragma tma_pipeline` loop's producer
    thread waits before its first copy. On earlier chips the launch is an
    ordinary one (the stream orders the kernels) and it lowers to nothing.

    ```mlir
    kda2.wait_prior
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

#endif // KDA2_DIALECT_KDA2_IR_KDA2OPS_TD
