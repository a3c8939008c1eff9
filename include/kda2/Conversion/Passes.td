//===- Passes.td - kda2 conversion passes ------------------*- tablegen -*-===//
//
// Conversions out of the kda2 dialect.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_CONVERSION_PASSES_TD
#define KDA2_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertKDA2ToGPUPass : Pass<"convert-kda2-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower kda2 kernels to gpu.func kernels over scf/arith/math/vector/llvm";
  let description = [{
    Turns every `kda2.kernel` into a `gpu.func` kernel inside the
    `gpu.module @kda2_kernels` of a `gpu.container_module`:

    * tensor arguments become `!llvm.ptr<1>` parameters, scalars stay
      scalars, each named dynamic dimension adds an `i64` size parameter, and
      a kernel with `kda2.counter` ops takes a counter buffer last;
    * the grid prefix maps to `blockIdx.y`, top-level `block` loops to
      `blockIdx.x`, `thread` loops to `threadIdx.x` (guarded by their
      extent), `serial` loops to `scf.for`;
    * global accesses compute 64-bit physical offsets from the declared
      layout; contiguous tiles are loaded and stored as vectors (128-bit
      accesses where alignment allows), strided tiles element by element;
      shared buffers become workgroup memory, padded when a
      `$bank_conflict_free` loop needs it (proven by the bank analysis);
    * uniform reductions under `@warp_reduce` are distributed over the lanes
      of a warp and combined with `shfl.sync.bfly`; `kda2.delta_masked`
      becomes a compare and a select;
    * `kda2.matmul` of shared-memory tiles runs on tensor cores: the CTA's
      warps split the result into 16-row strips, read fragments with
      `ldmatrix` and multiply with `mma.sync` (m16n8k16, f32 accumulation),
      and store the result straight to its destination;
    * each kernel gets its launch metadata as the global
      `__kda2_meta_<kernel>` (see docs/Runtime.md).

    Tiles must have static shapes (bind dynamic feature sizes at import with
    `--tirx-bind`).
  }];
  let options = [
    Option<"fastMath", "fast-math", "bool", /*default=*/"false",
           "Mark floating-point math `fast` (reassociation, approximate exp)">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "On sm_90a, run the tensor-core products whose result is a "
           "warpgroup's split=rows register tile as wgmma (docs/Dialect.md)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target architecture; instructions it lacks are not emitted "
           "(`#pragma l2_prefetch` needs sm_90 or newer)">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect"
  ];
}

def FinalizeNVVMPass
    : Pass<"kda2-finalize-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Fix up kda2 kernels after convert-gpu-to-nvvm";
  let description = [{
    Runs after `convert-gpu-to-nvvm` on what it cannot express:

    * every parameter listed in a kernel's `kda2.tensor_maps` attribute (set
      by `convert-kda2-to-gpu` for `#pragma tma_coalesce`) becomes
      `llvm.byval = !llvm.array<128 x i8>` with `nvvm.grid_constant`, so PTX
      declares it `.param .align 64 .b8 p[128]` (a `CUtensorMap` passed by
      value, as `cuTensorMapEncodeTiled` makes it) and the TMA copies use its
      address in the parameter space; the list is dropped;
    * the dynamic shared memory symbol (`gpu.dynamic_shared_memory`, used
      when a kernel's shared buffers exceed 48 KB) becomes an external
      128-byte aligned declaration (`.extern .shared .align 128 .b8 s[]`):
      the conversion makes it internal, which the NVPTX back end demotes to a
      one-byte static variable that static buffers could overlap.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // KDA2_CONVERSION_PASSES_TD
