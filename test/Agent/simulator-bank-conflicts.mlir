// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="grid=4" | FileCheck %s
// Shared-memory bank conflicts come from the lanes' concrete addresses:
// lane l of warp w reads buf[w][l] (stride one float: one wavefront per
// warp) or buf[l][w] (stride 32 floats: every lane in bank w, 32 wavefronts).

// CHECK-LABEL: simulator: @stride1 on H200-SXM
// CHECK: pipes (simulated SM): alu {{[0-9]+}}, sfu 0, tensor 0, shared 4,
// CHECK: bank conflicts: 0 extra wavefronts of 16 (simulated SM: 0)
// CHECK: stalls (warp-cycles, simulated SM): {{.*}}pipe busy 0,

// CHECK-LABEL: simulator: @stride32 on H200-SXM
// CHECK: bank conflicts: 496 extra wavefronts of 512 (simulated SM: 124)
// CHECK: stalls (warp-cycles, simulated SM): {{.*}}pipe busy {{[1-9][0-9]*}},

// CHECK-LABEL: simulator: @padded on H200-SXM
// CHECK: bank conflicts: 0 extra wavefronts

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @stride1(%out: !llvm.ptr<1>) workgroup(%buf : memref<4x32xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %lane = arith.remui %tid, %c32 : index
      %w = arith.divui %tid, %c32 : index
      %v = memref.load %buf[%w, %lane] : memref<4x32xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @stride32(%out: !llvm.ptr<1>) workgroup(%buf : memref<32x32xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %lane = arith.remui %tid, %c32 : index
      %w = arith.divui %tid, %c32 : index
      %v = memref.load %buf[%lane, %w] : memref<32x32xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    // Same column walk with rows padded to 33 floats: conflict free.
    gpu.func @padded(%out: !llvm.ptr<1>) workgroup(%buf : memref<32x33xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %c32 = arith.constant 32 : index
      %lane = arith.remui %tid, %c32 : index
      %w = arith.divui %tid, %c32 : index
      %v = memref.load %buf[%lane, %w] : memref<32x33xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
