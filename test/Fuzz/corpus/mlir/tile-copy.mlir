// RUN: kda2-opt %s --convert-kda2-to-gpu | FileCheck %s
// RUN: kda2-translate --kda2-to-ptx --kda2-chip=sm_80 %s | FileCheck %s --check-prefix=PTX
// A whole tile stored in uniform code straight from a load (`s[] = x[i]`)
// is copied by the whole block: thread t moves the 16-byte pieces t,
// t + blockDim, ... (row = piece / pieces-per-row); a barrier separates it
// from the ops that read it (test/Conversion/KDA2ToGPU/barriers.mlir). Here
// the block has 128 threads (the tensor-core matmul's minimum), the tile
// is 64 x 32 bf16 = 256 pieces of 8 halves. The copy back to global memory
// works the same way; a dynamic index (the chunk c of a t-long sequence) is
// bounds-checked once per copy: rows past the end read as zero and are not
// written. bench/sanitize_kernels.py runs @copy_mm on the GPU.

// CHECK-LABEL: gpu.func @copy_mm(
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK: scf.for %[[P:.*]] = %thread_id_x to %c256{{.*}} step %c128
// CHECK: %[[ROW:.*]] = arith.divui %[[P]], %c4{{.*}} : index
// CHECK: %[[V:.*]] = scf.if %[[IN]] -> (vector<8xbf16>) {
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK: } else {
// CHECK: vector.store %[[V]], %{{.*}}[%[[ROW]], %{{.*}}] : memref<64x32xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK: gpu.barrier
// CHECK: nvvm.mma.sync
// The result tile goes back to global memory 16 bytes (4 floats) at a time,
// after a barrier (other threads wrote it).
// CHECK: gpu.barrier
// CHECK-NOT: nvvm.mma.sync
// CHECK: scf.for %{{.*}} = %thread_id_x to %c1024{{.*}} step %c128
// CHECK: vector.load %{{.*}} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: gpu.barrier

// PTX-LABEL: .entry copy_mm(
// PTX: ld.global.nc.v4.{{[bu]}}32
// PTX: st.shared.v4.{{[bu]}}32
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX: st.global.v4.b32

kda2.kernel @copy_mm(%a: !kda2.tensor<[b, c, 64, 32], bf16>, %w: !kda2.tensor<[b, 32, 64], bf16>,
                     %y: !kda2.tensor<[b, c, 64, 64], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "w", "y"], grid = ["b"]} {
  kda2.gmem %a, %w, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, c, 64, 32], bf16>, !kda2.tensor<[b, 32, 64], bf16>, !kda2.tensor<[b, c, 64, 64], f32>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %sw = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 64], bf16, smem>
  %sy = kda2.smem_alloc size(16384) : !kda2.tensor<[64, 64], f32, smem>
  %n = kda2.dim "c" : index
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %tw = kda2.load %w[] : !kda2.tensor<[b, 32, 64], bf16> -> tensor<32x64xbf16>
    kda2.store %tw, %sw[] : tensor<32x64xbf16>, !kda2.tensor<[32, 64], bf16, smem>
  }
  // One chunk past the end too (c + 1 iterations): it must read zeros and
  // write nothing.
  kda2.loop serial %once to %c1 {
  %n1 = kda2.add %n, %c1 : index, index -> index
  kda2.loop serial %ci to %n1 {
    %ta = kda2.load %a[%ci] : !kda2.tensor<[b, c, 64, 32], bf16> -> tensor<64x32xbf16>
    kda2.store %ta, %sa[] : tensor<64x32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
    %fa = kda2.load %sa[] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<64x32xbf16>
    %fw = kda2.load %sw[] : !kda2.tensor<[32, 64], bf16, smem> -> tensor<32x64xbf16>
    %p = kda2.matmul %fa, %fw : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
    kda2.store %p, %sy[] : tensor<64x64xf32>, !kda2.tensor<[64, 64], f32, smem>
    %ty = kda2.load %sy[] : !kda2.tensor<[64, 64], f32, smem> -> tensor<64x64xf32>
    kda2.store %ty, %y[%ci] : tensor<64x64xf32>, !kda2.tensor<[b, c, 64, 64], f32>
  }
  }
}
