// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="grid=1" | FileCheck %s
// The lowering's inline wgmma (`kda2_wgmma` carries its shape, docs/
// Dialect.md): each of the warpgroup's four warps issues a quarter of an
// m64n32k16 (16 384 flops), so a chain of 16 puts as much on the tensor pipe
// as simulator-tensor-core.mlir's 16 mma.sync m16n8k16 per warp — an inline
// asm without the attribute would count as none.

// CHECK-LABEL: simulator: @wgmma_chain on H200-SXM
// CHECK: pipes (simulated SM): alu {{[0-9]+}}, sfu 0, tensor 64, shared 0,

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @wgmma_chain(%a: i32, %d: i64, %c: f32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %t = llvm.mlir.constant(true) : i1
      %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %c) -> (f32) {
        %s = llvm.inline_asm has_side_effects asm_dialect = att {kda2_wgmma = #nvvm.shape<m = 64, n = 32, k = 16>} "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {$0}, {$2, $3, $4, $5}, $6, $7, 1, 1, 0;", "=f,0,r,r,r,r,l,b" %acc, %a, %a, %a, %a, %d, %t : (f32, i32, i32, i32, i32, i64, i1) -> !llvm.struct<(f32)>
        %e = llvm.extractvalue %s[0] : !llvm.struct<(f32)>
        scf.yield %e : f32
      }
      gpu.return
    }
  }
}
