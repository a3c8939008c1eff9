// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="grid=1" | FileCheck %s
// Warp 0 runs a dependent chain of 64 multiplies that the other warps skip.
// With a bar.sync after it the other three warps wait for warp 0 (barrier
// stall); without one they finish early (no barrier stall).

// CHECK-LABEL: simulator: @with_barrier
// CHECK: pipes (simulated SM): {{.*}}sync 4
// CHECK: stalls (warp-cycles, simulated SM): dependency {{[0-9]+}}, memory 0, barrier {{[1-9][0-9]*}},

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
