// RUN: kda2-opt %s --convert-kda2-to-gpu | FileCheck %s
// RUN: kda2-translate --kda2-to-ptx %s | FileCheck %s --check-prefix=PTX
// packing(vnni4): the innermost dimension (k) is stored in groups of 4
// interleaved over the next one (n): element (n, k) of each [n, k] matrix
// sits at ((k / 4) * n_size + n) * 4 + k % 4, the VNNI order of a matmul's
// B operand. A tile copy reads whole groups (4 halves, 8 bytes) and writes
// them to the shared [n, k] rows, which the tensor cores then read with the
// plain (non-transposed) ldmatrix; element accesses use the same address
// formula. bench/sanitize_kernels.py runs @vnni_mm on the GPU against a
// float64 reference with the operand packed on the host.

// CHECK-LABEL: gpu.func @vnni_mm(
// The group stride of w: 4 * n_size (n_size = 64).
// CHECK: %[[NI:.*]] = arith.index_cast %c64{{.*}} : index to i64
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-NEXT: %[[GROUP:.*]] = arith.muli %[[C4]], %[[NI]] : i64
// The copy of w: 64 rows x 8 groups of 4, four halves per piece, at
// (k / 4) * group + k % 4.
// CHECK: scf.for %{{.*}} = %thread_id_x to %c512{{.*}} step %c128
// CHECK: arith.divui %{{.*}}, %c4_i64{{.*}} : i64
// CHECK-NEXT: arith.muli %{{.*}}, %[[GROUP]] : i64
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xbf16>
// CHECK: vector.store %{{.*}} : memref<64x32xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x32xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: nvvm.mma.sync

// PTX-LABEL: .entry vnni_mm(
// PTX: ld.global.nc.v2.b32
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

kda2.kernel @vnni_mm(%a: !kda2.tensor<[b, 64, 32], bf16>, %w: !kda2.tensor<[b, 64, 32], bf16>,
                     %y: !kda2.tensor<[b, 64, 64], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "w", "y"], grid = ["b"]} {
  kda2.gmem %a, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, 64, 32], bf16>, !kda2.tensor<[b, 64, 64], f32>
  kda2.gmem %w layout(row_major) packing(vnni4) : !kda2.tensor<[b, 64, 32], bf16>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %sw = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %ta = kda2.load %a[] : !kda2.tensor<[b, 64, 32], bf16> -> tensor<64x32xbf16>
    kda2.store %ta, %sa[] : tensor<64x32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
    %tw = kda2.load %w[] : !kda2.tensor<[b, 64, 32], bf16> -> tensor<64x32xbf16>
    kda2.store %tw, %sw[] : tensor<64x32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
    %fa = kda2.load %sa[] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<64x32xbf16>
    %fw = kda2.load %sw[] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<64x32xbf16>
    %p = kda2.matmul %fa, %fw {transpose_b} : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    kda2.store %p, %y[] : tensor<64x64xf32>, !kda2.tensor<[b, 64, 64], f32>
  }
}

// Element accesses use the same formula: @vnni_unpack copies a packed
// tensor to a plain one, one element at a time.
// CHECK-LABEL: gpu.func @vnni_unpack(
// CHECK: arith.divui %{{.*}}, %c4_i64{{.*}} : i64
// CHECK: arith.remui %{{.*}}, %c4_i64{{.*}} : i64
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> bf16
kda2.kernel @vnni_unpack(%w: !kda2.tensor<[b, 64, 32], bf16>,
                         %u: !kda2.tensor<[b, 64, 32], bf16> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["w", "u"], grid = ["b"]} {
  kda2.gmem %w layout(row_major) packing(vnni4) : !kda2.tensor<[b, 64, 32], bf16>
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  kda2.loop thread %n to %c64 annotations [#kda2.coalesced_access<>] {
    kda2.loop serial %k to %c32 {
      %x = kda2.load %w[%n, %k] : !kda2.tensor<[b, 64, 32], bf16> -> bf16
      kda2.store %x, %u[%n, %k] : bf16, !kda2.tensor<[b, 64, 32], bf16>
    }
  }
}
