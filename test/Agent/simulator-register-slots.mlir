// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="shapes=n=1 data=flag=0" | FileCheck %s --check-prefix=OFF
// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="shapes=n=1 data=flag=1" | FileCheck %s --check-prefix=ON
// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="shapes=n=1" | FileCheck %s --check-prefix=UNKNOWN
// A value kept in a register tile (an alloca indexed by constants: a
// scan's next-checkpoint counter) is tracked from its store to its loads:
// the branch it decides each trip runs one side. Here the flag is stored
// once before the loop, then reloaded in each of its 8 trips (and the
// trip's own store of it, from a known value, keeps it known). Given, the
// branch runs one side per trip (0: no stores; 1: 8 x 8 stores); unknown,
// both sides run in every trip.
// OFF: pipes (simulated SM): {{.*}} global 0,
// OFF-NOT: ran both sides
// ON: pipes (simulated SM): {{.*}} global 64,
// ON-NOT: ran both sides
// UNKNOWN: pipes (simulated SM): {{.*}} global 64,
// UNKNOWN: note: 8 data-dependent branches ran both sides
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @slots(%p: !llvm.ptr<1>, %flag: i32, %n: i64) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %reg = memref.alloca() : memref<1xi32>
      %c0i = arith.constant 0 : index
      %c1i = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      memref.store %flag, %reg[%c0i] : memref<1xi32>
      %tid = gpu.thread_id x
      %ti = arith.index_cast %tid : index to i64
      %x = arith.constant 1.0 : f32
      %c0 = arith.constant 0 : i32
      scf.for %i = %c0i to %c8 step %c1i {
        %v = memref.load %reg[%c0i] : memref<1xi32>
        %on = arith.cmpi ne, %v, %c0 : i32
        scf.if %on {
          scf.for %j = %c0i to %c8 step %c1i {
            %jj = arith.index_cast %j : index to i64
            %c32 = arith.constant 32 : i64
            %row = arith.muli %jj, %c32 : i64
            %e = arith.addi %row, %ti : i64
            %a = llvm.getelementptr %p[%e] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %x, %a : f32, !llvm.ptr<1>
          }
        }
        memref.store %v, %reg[%c0i] : memref<1xi32>
      }
      gpu.return
    }
    llvm.mlir.global external constant @__kda2_meta_slots("kda2-kernel-v1\0Aname slots\0Ablock 32 1 1\0Agrid.x n\0Aarg ptr p f32 out 1 n\0Aarg scalar flag i32\0Aarg dim n\0Aend\0A\00") {addr_space = 1 : i32}
  }
}
