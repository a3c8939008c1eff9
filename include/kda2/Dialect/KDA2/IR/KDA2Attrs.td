//===- KDA2Attrs.td - kda2 attributes and enums ------------*- tablegen -*-===//
//
// Enumerations (memory spaces, physical layouts, packings, loop mappings,
// ...) and the constraint-annotation attributes of the .tirx DSL.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_DIALECT_KDA2_IR_KDA2ATTRS_TD
#define KDA2_DIALECT_KDA2_IR_KDA2ATTRS_TD

include "kda2/Dialect/KDA2/IR/KDA2Dialect.td"
include "kda2/Dialect/KDA2/IR/KDA2Interfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enumerations
//===----------------------------------------------------------------------===//

def KDA2_MemorySpace : I32EnumAttr<"MemorySpace", "memory space of a tensor", [
    I32EnumAttrCase<"gmem", 0>, I32EnumAttrCase<"smem", 1>,
    I32EnumAttrCase<"reg", 2>]> {
  let cppNamespace = "::mlir::kda2";
  let genSpecializedAttr = 0;
}

def KDA2_Layout : I32EnumAttr<"Layout", "physical layout of a global tensor", [
    I32EnumAttrCase<"row_major", 0>, I32EnumAttrCase<"BHSD", 1>,
    I32EnumAttrCase<"BSHD", 2>, I32EnumAttrCase<"BHS", 3>,
    I32EnumAttrCase<"BSH", 4>, I32EnumAttrCase<"KV", 5>,
    I32EnumAttrCase<"VK", 6>]> {
  let cppNamespace = "::mlir::kda2";
  let genSpecializedAttr = 0;
}
def KDA2_LayoutAttr : EnumAttr<KDA2_Dialect, KDA2_Layout, "layout">;

def KDA2_Packing : I32EnumAttr<"Packing", "element packing in memory", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"vnni4", 1>]> {
  let cppNamespace = "::mlir::kda2";
  let genSpecializedAttr = 0;
}
def KDA2_PackingAttr : EnumAttr<KDA2_Dialect, KDA2_Packing, "packing">;

def KDA2_LoopMapping : I32EnumAttr<"LoopMapping", "hardware level a loop maps to", [
    I32EnumAttrCase<"block", 0>, I32EnumAttrCase<"warp", 1>,
    I32EnumAttrCase<"thread", 2>, I32EnumAttrCase<"serial", 3>,
    I32EnumAttrCase<"fragment", 4>, I32EnumAttrCase<"ahead", 5>]> {
  let cppNamespace = "::mlir::kda2";
  let genSpecializedAttr = 0;
}
def KDA2_LoopMappingAttr : EnumAttr<KDA2_Dialect, KDA2_LoopMapping, "mapping">;

def KDA2_MaskType : I32EnumAttr<"MaskType", "element type of a delta mask", [
    I32EnumAttrCase<"uint8", 0>, I32EnumAttrCase<"boolean", 1, "bool">]> {
  let cppNamespace = "::mlir::kda2";
  let genSpecializedAttr = 0;
}
def KDA2_MaskTypeAttr : EnumAttr<KDA2_Dialect, KDA2_MaskType, "mask_type">;

def KDA2_CoalesceFallback : I32EnumAttr<"CoalesceFallback",
    "code path when a coalescing condition does not hold", [
    I32EnumAttrCase<"scalar", 0>, I32EnumAttrCase<"padding_align16", 1>,
    I32EnumAttrCase<"padding_align32", 2>]> {
  let cppNamespace = "::mlir::kda2";
  let genSpecializedAttr = 0;
}
def KDA2_CoalesceFallbackAttr
    : EnumAttr<KDA2_Dialect, KDA2_CoalesceFallback, "coalesce_fallback">;

def KDA2_PragmaKind : I32EnumAttr<"PragmaKind", "scheduler pragma", [
    I32EnumAttrCase<"tma_coalesce", 0>, I32EnumAttrCase<"l2_prefetch", 1>,
    I32EnumAttrCase<"sm_shuffle", 2>, I32EnumAttrCase<"tma_pipeline", 3>,
    I32EnumAttrCase<"unroll", 4>, I32EnumAttrCase<"wgmma", 5>,
    I32EnumAttrCase<"grid_first", 6>, I32EnumAttrCase<"fold_accumulator", 7>]> {
  let cppNamespace = "::mlir::kda2";
  let genSpecializedAttr = 0;
}

def KDA2_ReduceKind : I32EnumAttr<"ReduceKind", "reduction combiner", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>]> {
  let cppNamespace = "::mlir::kda2";
  let genSpecializedAttr = 0;
}
def KDA2_ReduceKindAttr : EnumAttr<KDA2_Dialect, KDA2_ReduceKind, "reduce_kind">;

def KDA2_CmpPredicate : I32EnumAttr<"CmpPredicate", "comparison predicate", [
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
    I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
    I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::mlir::kda2";
  let genSpecializedAttr = 0;
}
def KDA2_CmpPredicateAttr : EnumAttr<KDA2_Dialect, KDA2_CmpPredicate, "predicate">;

def KDA2_IOKind : I32EnumAttr<"IOKind", "direction of a kernel argument", [
    I32EnumAttrCase<"in", 0>, I32EnumAttrCase<"out", 1>,
    I32EnumAttrCase<"inout", 2>]> {
  let cppNamespace = "::mlir::kda2";
  let genSpecializedAttr = 0;
}
def KDA2_IOKindAttr : EnumAttr<KDA2_Dialect, KDA2_IOKind, "io"> {
  let assemblyFormat = "`<` $value `>`";
}

def KDA2_StateLayout : I32EnumAttr<"StateLayout",
    "memory order of a recurrent state's K x V matrix", [
    I32EnumAttrCase<"kv", 0>, I32EnumAttrCase<"vk", 1>]> {
  let cppNamespace = "::mlir::kda2";
  let genSpecializedAttr = 0;
}
def KDA2_StateLayoutAttr : EnumAttr<KDA2_Dialect, KDA2_StateLayout, "state"> {
  let summary = "`GMEM {state=kv|vk}`: the typed layout of a recurrent state";
  let description = [{
    On a kernel argument (`{kda2.state = #kda2.state<kv>}`): the argument
    holds recurrent states, each a K x V matrix stored K-major (`kv`: element
    (k, v) at k * V + v, flash-linear-attention's layout) or V-major (`vk`:
    at v * K + k). Kernels of one module share one state layout, and the
    runtime checks the layout a caller states against it, also when K == V.
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Constraint annotations on loops
//===----------------------------------------------------------------------===//

class KDA2_AnnotationAttr<string name, string attrMnemonic,
                          list<Trait> traits = []>
    : AttrDef<KDA2_Dialect, name,
              !listconcat(traits, [DeclareAttrInterfaceMethods<
                  KDA2_LoopAnnotationAttrInterface>])> {
  let mnemonic = attrMnemonic;
}

def KDA2_WarpReduceAttr : KDA2_AnnotationAttr<"WarpReduce", "warp_reduce"> {
  let summary = "`@warp_reduce`: reductions in the loop use warp shuffles";
  let description = [{
    Every reduction inside the annotated loop is carried out across the
    lanes of a warp with shuffles instead of through shared memory. A tile
    value stored into a scalar element inside such a loop is sum-reduced.
    The loop must contain at least one `kda2.reduce`.

    ```mlir
    kda2.loop block %i to %c32 annotations [#kda2.warp_reduce] { ... }
    ```
  }];
}

def KDA2_BankConflictFreeAttr
    : KDA2_AnnotationAttr<"BankConflictFree", "bank_conflict_free"> {
  let summary = "`$bank_conflict_free`: shared-memory accesses are conflict free";
  let description = [{
    The shared buffers the loop touches are padded or XOR-swizzled so that
    no access has a bank conflict. The loop must access shared memory, and
    every buffer it touches must fit the profile's shared memory per block
    (the padding is accounted for by the lowering).

    ```mlir
    kda2.loop block %i to %c32 annotations [#kda2.bank_conflict_free] { ... }
    ```
  }];
}

def KDA2_CoalescedAccessAttr
    : KDA2_AnnotationAttr<"CoalescedAccess", "coalesced_access"> {
  let summary = "`@coalesced_access`: 128-byte aligned contiguous global access";
  let description = [{
    Global loads and stores in the loop are 128-byte aligned and contiguous.
    When the loop bound or the innermost dimension of a global tensor it
    touches is dynamic, the annotation must carry a condition on a named
    dimension (`seqlen % 32 == 0`) and may name the fallback taken when it
    does not hold (default: scalar accesses).

    ```mlir
    #kda2.coalesced_access<dim = "seqlen", modulus = 32, fallback = padding_align32>
    #kda2.coalesced_access<>
    ```
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::StringAttr">:$dim,
    OptionalParameter<"int64_t">:$modulus,
    OptionalParameter<"::mlir::kda2::CoalesceFallbackAttr">:$fallback);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True when the annotation carries a `dim % modulus == 0` condition.
    bool hasCondition() const { return getDim() && !getDim().empty(); }
  }];
}

def KDA2_TmaBoundAttr : KDA2_AnnotationAttr<"TmaBound", "tma_bound"> {
  let summary = "`@tma_bound(rows, cols)`: bound on the TMA tile";
  let description = [{
    Tiles moved by the tensor memory accelerator in this loop are at most
    `rows x cols` elements. The bound must not exceed the hardware
    profile's maximum TMA tile (64x64 on A100-class, 128x128 on Hopper).

    ```mlir
    #kda2.tma_bound<64 x 64>
    ```
  }];
  let parameters = (ins "int64_t":$rows, "int64_t":$cols);
  let assemblyFormat = "`<` $rows `x` $cols `>`";
  let genVerifyDecl = 1;
}

def KDA2_ShapeHintAttr : KDA2_AnnotationAttr<"ShapeHint", "shape_hint"> {
  let summary = "`@shape_hint(dim, [values])`: specialise on a dynamic size";
  let description = [{
    The named dynamic dimension takes only the listed values in practice;
    one specialised code path is generated per value, with a runtime
    dispatch and a generic fallback. Values are positive and strictly
    increasing.

    ```mlir
    #kda2.shape_hint<"seqlen", [128, 256, 512]>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$dim,
                        ArrayRefParameter<"int64_t">:$values);
  let assemblyFormat = "`<` $dim `,` `[` $values `]` `>`";
  let genVerifyDecl = 1;
}

def KDA2_PipelineStagesAttr
    : KDA2_AnnotationAttr<"PipelineStages", "pipeline_stages"> {
  let summary = "`@pipeline_stages(n)`: buffer stages of a TMA pipeline";
  let description = [{
    On a `#pragma tma_pipeline` loop: its bulk tensor copies go to `n`
    stages of their shared buffers (default 2) and each iteration issues
    the copies of iteration i + n − 1, so up to n − 1 iterations' tiles are
    in flight while one computes: a chain whose iterations are shorter than
    a copy's latency is no longer bound by it. Each stage costs the copies'
    bytes of shared memory.

    ```mlir
    #kda2.pipeline_stages<4>
    ```
  }];
  let parameters = (ins "int64_t":$stages);
  let assemblyFormat = "`<` $stages `>`";
  let genVerifyDecl = 1;
}

def KDA2_BlocksPerSmAttr
    : KDA2_AnnotationAttr<"BlocksPerSm", "blocks_per_sm"> {
  let summary = "`@blocks_per_sm(n)`: at least n blocks of the kernel per SM";
  let description = [{
    On a block loop: the kernel is compiled so that `n` of its blocks fit
    on one SM at once (CUDA's `__launch_bounds__(threads, n)`: the PTX
    directive `.minnctapersm n`), ptxas keeping each thread's registers
    within the SM's register file divided by n blocks of the kernel's
    threads (it spills beyond that). Shared memory still has to fit n
    times. n is 1 to 32 (0: no bound, ptxas's own choice, so that a
    template can bind it); n times the block's threads must not pass 2048.

    ```mlir
    #kda2.blocks_per_sm<4>
    ```
  }];
  let parameters = (ins "int64_t":$blocks);
  let assemblyFormat = "`<` $blocks `>`";
  let genVerifyDecl = 1;
}

def KDA2_MmaWarpsAttr
    : KDA2_AnnotationAttr<"MmaWarps", "mma_warps"> {
  let summary = "`@mma_warps(n)`: n warps share the block's mma register tiles";
  let description = [{
    On a block loop whose tensor-core products keep their tiles in
    registers (`REG {layout=mma}`): the block's computing warps are n
    (1, 2, 4, 8 or 16) instead of one per 16-row strip or 8-column block of
    its smallest split tile, up to four. Every `split=rows` tile needs 16 rows
    per warp, every `split=cols` tile 8 columns (a contraction over one, 16);
    `split=none` tiles are held whole by each of them. More warps than
    four put two or more on each scheduler, which then hides one warp's
    dependent latencies behind another's (a chain at one block per SM).

    ```mlir
    #kda2.mma_warps<8>
    ```
  }];
  let parameters = (ins "int64_t":$warps);
  let assemblyFormat = "`<` $warps `>`";
  let genVerifyDecl = 1;
}

def KDA2_PersistentAttr
    : KDA2_AnnotationAttr<"Persistent", "persistent"> {
  let summary = "`@persistent(n)`: n resident blocks per SM walk the grid";
  let description = [{
    On the block loop of a kernel whose other top-level code holds no
    computation: the kernel is launched with at most n blocks per SM (the
    runtime caps the grid at n times the device's SM count: metadata
    `persistent n`), and each launched block b walks the work items p = b,
    b + B, b + 2B, ... (B the blocks launched) of the loop's iterations
    times the grid's instances, in the order the blocks would have started
    in (with `#pragma grid_first`: the grid instances fastest). All of them
    are resident from the start, so a kernel that lets its dependent launch
    early (`signal`) does so at once, and the dependent finds room on
    every SM beside the n blocks. n is 0 (off, so that a template can bind
    it) to 32.

    ```mlir
    #kda2.persistent<2>
    ```
  }];
  let parameters = (ins "int64_t":$blocks);
  let assemblyFormat = "`<` $blocks `>`";
  let genVerifyDecl = 1;
}

def KDA2_ProducerWarpAttr
    : KDA2_AnnotationAttr<"ProducerWarp", "producer_warp"> {
  let summary = "`@producer_warp`: one extra warp issues a TMA pipeline's copies";
  let description = [{
    On a `#pragma tma_pipeline` loop: the block gets one more warp, which
    only walks the loop issuing its bulk tensor copies (each stage once the
    block's warps are done with it: an mbarrier per stage that they arrive
    on at the end of their iteration), while the block's warps only wait
    for their tiles and compute. The copies' issue is then off the
    iterations' chain. The loop must sit in the kernel's uniform code under
    block loops only, and its trip count and the copies' indices must come
    from read-only inputs, dimensions and index arithmetic (the extra warp
    computes them too). Barriers of the block's warps become named barriers
    that leave the extra warp out.

    ```mlir
    #kda2.producer_warp
    ```
  }];
}

def KDA2_WarpgroupRegistersAttr
    : KDA2_AnnotationAttr<"WarpgroupRegisters", "warpgroup_registers"> {
  let summary = "`@warpgroup_registers(c, a, p)`: registers per thread of each "
                "group of a producer-warp pipeline (setmaxnreg)";
  let description = [{
    On a `#pragma tma_pipeline` loop with `@producer_warp` (sm_90a): the
    producer becomes a whole warpgroup (128 threads, one of which issues the
    copies), and each group of the block sets its registers per thread with
    `setmaxnreg` as it starts: `c` the computing threads, `a` the group of a
    `schedule.ahead` loop (0 without one), `p` the producer warpgroup. The
    launch holds the register file divided by the block's threads; the
    groups' counts must add up within it (setmaxnreg only moves registers between the block's warps), each a multiple
    of 8 from 24 to 256 (0: the launch's count). A kernel whose computing
    threads hold a large state (the prefill scan's) takes the registers the
    producer does not need.

    ```mlir
    #kda2.warpgroup_registers<232, 160, 40>
    ```
  }];
  let parameters = (ins "int64_t":$computing, "int64_t":$ahead,
                        "int64_t":$producer);
  let assemblyFormat = "`<` $computing `,` $ahead `,` $producer `>`";
  let genVerifyDecl = 1;
}

def KDA2_PragmaAttr : KDA2_AnnotationAttr<"Pragma", "pragma"> {
  let summary = "`#pragma name`: scheduler directive";
  let description = [{
    `tma_coalesce` merges tensor-memory accesses into bulk tensor copies
    (sm_90a), `tma_pipeline` (on a serial loop) issues the next iteration's
    bulk tensor copies while the current one computes (two buffer stages),
    `l2_prefetch` prefetches the next tile's global data into L2,
    `sm_shuffle` permutes the block order across SMs, `unroll` (on a serial
    loop with a constant trip count) unrolls the loop fully, so that its
    iterations' loads are in flight together and register tiles indexed by
    its variable stay in registers. `wgmma` (sm_90a) runs the tensor-core
    products inside the loop whose result is a split=rows mma register tile
    over whole warpgroups as warpgroup wgmma instructions, their shared
    operands read through matrix descriptors from TMA-swizzled tiles
    (docs/Dialect.md); other products stay mma.sync. `grid_first` (on a
    block loop of a kernel with a grid) dispatches the blocks with the grid
    coordinates varying fastest: consecutive blocks take every grid instance
    of one block-loop iteration before the next iteration's.

    ```mlir
    #kda2.pragma<l2_prefetch>
    ```
  }];
  let parameters = (ins EnumParameter<KDA2_PragmaKind>:$kind);
  let assemblyFormat = "`<` $kind `>`";
}

#endif // KDA2_DIALECT_KDA2_IR_KDA2ATTRS_TD
