// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="shapes=n=1" | FileCheck %s --check-prefix=UNKNOWN
// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="shapes=n=1 data=flag=0" | FileCheck %s --check-prefix=OFF
// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="shapes=n=1 data=flag=1" | FileCheck %s --check-prefix=ON
// RUN: not kda2-opt %s -o /dev/null --kda2-test-simulator="shapes=n=1 data=flag=0/1" 2>&1 | FileCheck %s --check-prefix=TWO
// An integer scalar parameter given with data= (a switch such as a scan's
// `boundaries`): the branch it decides runs one side. Unknown, both sides
// run (and the report says so); 0 skips the 64 stores, 1 makes them.
// UNKNOWN: pipes (simulated SM): {{.*}} global 64,
// UNKNOWN: note: 1 data-dependent branches ran both sides
// OFF: pipes (simulated SM): {{.*}} global 0,
// OFF-NOT: ran both sides
// ON: pipes (simulated SM): {{.*}} global 64,
// ON-NOT: ran both sides
// TWO: error: data for scalar parameter 'flag' of kernel 'flagged' must be one integer, for an integer parameter
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @flagged(%p: !llvm.ptr<1>, %flag: i32, %n: i64) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : i32
      %on = arith.cmpi ne, %flag, %c0 : i32
      scf.if %on {
        %tid = gpu.thread_id x
        %x = arith.constant 1.0 : f32
        %ti = arith.index_cast %tid : index to i64
        %c0i = arith.constant 0 : index
        %c1i = arith.constant 1 : index
        %c64 = arith.constant 64 : index
        scf.for %i = %c0i to %c64 step %c1i {
          %ii = arith.index_cast %i : index to i64
          %c32 = arith.constant 32 : i64
          %row = arith.muli %ii, %c32 : i64
          %e = arith.addi %row, %ti : i64
          %a = llvm.getelementptr %p[%e] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
          llvm.store %x, %a : f32, !llvm.ptr<1>
        }
      }
      gpu.return
    }
    llvm.mlir.global external constant @__kda2_meta_flagged("kda2-kernel-v1\0Aname flagged\0Ablock 32 1 1\0Agrid.x n\0Aarg ptr p f32 out 1 n\0Aarg scalar flag i32\0Aarg dim n\0Aend\0A\00") {addr_space = 1 : i32}
  }
}
