// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="grid=1" | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's/^name: H200-SXM/name: nounroll/' %kda2_src/profiles/H200-SXM.yaml > %t/nounroll.yaml
// RUN: printf 'simulator:\n  unroll_partial_threshold: 0\n' >> %t/nounroll.yaml
// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="grid=1 profile=nounroll profile-file=%t/nounroll.yaml" \
// RUN:   | FileCheck %s --check-prefix=OFF
// Loop unrolling (docs/Simulator.md): a warp sums 8 floats loaded from
// global memory in a loop whose addresses depend only on the counter. The
// small loop is unrolled completely and its loads issue before the adds
// that use them, so the warp waits for DRAM about once (a few hundred
// cycles), not 8 times. With a bar.sync in the body the loop is not
// unrolled, and neither is any loop when unrolling is off: one DRAM
// latency per trip (thousands of cycles).

// CHECK-LABEL: simulator: @sum_loads
// CHECK: cycles: {{[0-9]{3}$}}
// CHECK-LABEL: simulator: @sum_loads_barrier
// CHECK: cycles: {{[0-9]{4}$}}

// OFF-LABEL: simulator: @sum_loads
// OFF: cycles: {{[0-9]{4}$}}
// OFF-LABEL: simulator: @sum_loads_barrier
// OFF: cycles: {{[0-9]{4}$}}

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @sum_loads(%p: !llvm.ptr<1>, %x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %x) -> (f32) {
        %row = arith.muli %i, %c32 : index
        %e = arith.addi %row, %tid : index
        %ei = arith.index_cast %e : index to i64
        %a = llvm.getelementptr %p[%ei] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        %v = llvm.load %a : !llvm.ptr<1> -> f32
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
      gpu.return
    }
    gpu.func @sum_loads_barrier(%p: !llvm.ptr<1>, %x: f32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %x) -> (f32) {
        %row = arith.muli %i, %c32 : index
        %e = arith.addi %row, %tid : index
        %ei = arith.index_cast %e : index to i64
        %a = llvm.getelementptr %p[%ei] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        %v = llvm.load %a : !llvm.ptr<1> -> f32
        %s = arith.addf %acc, %v : f32
        gpu.barrier
        scf.yield %s : f32
      }
      gpu.return
    }
  }
}
