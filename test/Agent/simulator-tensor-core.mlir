// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="grid=1" | FileCheck %s
// Each warp issues a chain of 16 dependent mma.sync m16n8k16 on the tensor
// pipe: every product waits for the previous one's latency.

// CHECK-LABEL: simulator: @mma_chain on H200-SXM
// CHECK: pipes (simulated SM): alu {{[0-9]+}}, sfu 0, tensor 64, shared 0,
// CHECK: stalls (warp-cycles, simulated SM): dependency {{[1-9][0-9]*}},

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma_chain(%a: i32, %b: i32, %c: f32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %c) -> (f32) {
        %d = nvvm.mma.sync A[%a, %a, %a, %a]  B[%b, %b]  C[%acc, %acc, %acc, %acc]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
        %e = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
        scf.yield %e : f32
      }
      gpu.return
    }
  }
}
