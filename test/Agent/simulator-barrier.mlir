// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="grid=1" | FileCheck %s
// Warp 0 runs a dependent chain of 64 multiplies that the other warps skip.
// With a bar.sync after it the other three warps wait for warp 0 (barrier
// stall); without one they finish early (no barrier stall).

// CHECK-LABEL: simulator: @with_barrier
// CHECK: pipes (simulated SM): {{.*}}sync 4
// CHECK: stalls (warp-cycles, simulated SM): dependency {{[0-9]+}}, memory 0, barrier {{[1-9][0-9]*}},

// Named barrier (bar.sync 1, 96: the computing warps of a block with a
// producer warp): warps 1 and 2 wait for warp 0's 64 multiplies only, not
// for warp 3, which never reaches it and runs 1024 (a barrier of all live
// warps would hold the three for ~12k warp-cycles).
// CHECK-LABEL: simulator: @named_barrier
// CHECK: pipes (simulated SM): {{.*}}sync 3
// CHECK: stalls (warp-cycles, simulated SM): dependency {{[0-9]+}}, memory 0, barrier {{[1-9][0-9]?[0-9]?}},
// CHECK-NOT: never completes

// CHECK-LABEL: simulator: @without_barrier
// CHECK: pipes (simulated SM): {{.*}}sync 0
// CHECK: stalls (warp-cycles, simulated SM): dependency {{[0-9]+}}, memory 0, barrier 0,

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @with_barrier(%x: f32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %first = arith.cmpi ult, %tid, %c32 : index
      scf.if %first {
        %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %x) -> (f32) {
          %m = arith.mulf %acc, %acc : f32
          scf.yield %m : f32
        }
      }
      gpu.barrier
      gpu.return
    }
    gpu.func @named_barrier(%x: f32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c96 = arith.constant 96 : index
      %c1024 = arith.constant 1024 : index
      %id = arith.constant 1 : i32
      %n = arith.constant 96 : i32
      %first = arith.cmpi ult, %tid, %c32 : index
      %last = arith.cmpi uge, %tid, %c96 : index
      scf.if %first {
        %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %x) -> (f32) {
          %m = arith.mulf %acc, %acc : f32
          scf.yield %m : f32
        }
      }
      scf.if %last {
        %r = scf.for %i = %c0 to %c1024 step %c1 iter_args(%acc = %x) -> (f32) {
          %m = arith.mulf %acc, %acc : f32
          scf.yield %m : f32
        }
      } else {
        nvvm.barrier id = %id number_of_threads = %n
      }
      gpu.return
    }
    gpu.func @without_barrier(%x: f32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %first = arith.cmpi ult, %tid, %c32 : index
      scf.if %first {
        %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %x) -> (f32) {
          %m = arith.mulf %acc, %acc : f32
          scf.yield %m : f32
        }
      }
      gpu.return
    }
  }
}
