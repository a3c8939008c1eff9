// RUN: kda2-opt %s --convert-kda2-to-gpu | FileCheck %s
// Block barriers are placed by what each op of uniform code reads and writes
// (shared and global tensors), not after every write: a barrier goes before
// an op that touches a tensor written since the last barrier, or writes one
// read since it. Tensor-core products that write (or accumulate into) a whole
// shared tile of the same shape own the same elements in the same threads,
// so an accumulating product needs no barrier after the one it continues.
// A serial loop's body ends with a barrier only when the next iteration
// touches what this one left.

// CHECK-LABEL: gpu.func @chain(
// CHECK-SAME: workgroup(%[[SA:[^ ]*]] : {{.*}}, %[[SW:[^ ]*]] : {{.*}}, %[[SU:[^ ]*]] : {{.*}}, %[[SO:[^ ]*]] : {{.*}})
// CHECK: scf.for
// Staging writes sa and sw (no barrier between); the products read them.
// CHECK: memref.store %{{.*}}, %[[SA]]
// CHECK-NOT: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[SW]]
// CHECK: gpu.barrier
// U = A W, U += A W, O = A W: no barrier among the three products.
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: {{(memref|vector)}}.store %{{.*}}, %[[SO]]
// The thread loops read U and O, written by other threads.
// CHECK: gpu.barrier
// CHECK: memref.load %[[SU]]
// Reading O after reading U needs nothing more.
// CHECK-NOT: gpu.barrier
// CHECK: memref.load %[[SO]]
// The next iteration's staging overwrites what the products read.
// CHECK: gpu.barrier
// CHECK-NEXT: }
// Nothing after the loop touches shared memory: no barrier before the end.
// CHECK-NEXT: gpu.return
kda2.kernel @chain(%a: !kda2.tensor<[b, 32, 64], bf16>, %w: !kda2.tensor<[b, 64, 32], bf16>,
                   %y: !kda2.tensor<[b, 32, 32], f32> {kda2.io = #kda2.io<out>},
                   %z: !kda2.tensor<[b, 32, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {arg_names = ["a", "w", "y", "z"], grid = ["b"]} {
  kda2.gmem %a, %w, %y, %z layout(row_major) packing(none)
      : !kda2.tensor<[b, 32, 64], bf16>, !kda2.tensor<[b, 64, 32], bf16>, !kda2.tensor<[b, 32, 32], f32>, !kda2.tensor<[b, 32, 32], f32>
  %sa = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 64], bf16, smem>
  %sw = kda2.smem_alloc size(4096) : !kda2.tensor<[64, 32], bf16, smem>
  %su = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 32], f32, smem>
  %so = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 32], f32, smem>
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %c2 = arith.constant 2 : index
  kda2.loop serial %it to %c2 annotations [#kda2.bank_conflict_free] {
    kda2.loop thread %j to %c64 {
      kda2.loop serial %r to %c32 {
        %x = kda2.load %a[%r, %j] : !kda2.tensor<[b, 32, 64], bf16> -> bf16
        kda2.store %x, %sa[%r, %j] : bf16, !kda2.tensor<[32, 64], bf16, smem>
      }
    }
    // Staging the other operand needs no barrier after the first.
    kda2.loop thread %j to %c32 {
      kda2.loop serial %r to %c64 {
        %x = kda2.load %w[%r, %j] : !kda2.tensor<[b, 64, 32], bf16> -> bf16
        kda2.store %x, %sw[%r, %j] : bf16, !kda2.tensor<[64, 32], bf16, smem>
      }
    }
    %ta = kda2.load %sa[] : !kda2.tensor<[32, 64], bf16, smem> -> tensor<32x64xbf16>
    %tw = kda2.load %sw[] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<64x32xbf16>
    %u0 = kda2.matmul %ta, %tw : tensor<32x64xbf16>, tensor<64x32xbf16> -> tensor<32x32xf32>
    kda2.store %u0, %su[] : tensor<32x32xf32>, !kda2.tensor<[32, 32], f32, smem>
    %ta1 = kda2.load %sa[] : !kda2.tensor<[32, 64], bf16, smem> -> tensor<32x64xbf16>
    %tw1 = kda2.load %sw[] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<64x32xbf16>
    %tu = kda2.load %su[] : !kda2.tensor<[32, 32], f32, smem> -> tensor<32x32xf32>
    %u1 = kda2.matmul %ta1, %tw1 acc(%tu) : tensor<32x64xbf16>, tensor<64x32xbf16>, tensor<32x32xf32> -> tensor<32x32xf32>
    kda2.store %u1, %su[] : tensor<32x32xf32>, !kda2.tensor<[32, 32], f32, smem>
    %ta2 = kda2.load %sa[] : !kda2.tensor<[32, 64], bf16, smem> -> tensor<32x64xbf16>
    %tw2 = kda2.load %sw[] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<64x32xbf16>
    %o = kda2.matmul %ta2, %tw2 : tensor<32x64xbf16>, tensor<64x32xbf16> -> tensor<32x32xf32>
    kda2.store %o, %so[] : tensor<32x32xf32>, !kda2.tensor<[32, 32], f32, smem>
    kda2.loop thread %j to %c32 {
      kda2.loop serial %r to %c32 {
        %x = kda2.load %su[%r, %j] : !kda2.tensor<[32, 32], f32, smem> -> f32
        kda2.store %x, %y[%r, %j] : f32, !kda2.tensor<[b, 32, 32], f32>
      }
    }
    kda2.loop thread %j to %c32 {
      kda2.loop serial %r to %c32 {
        %x = kda2.load %so[%r, %j] : !kda2.tensor<[32, 32], f32, smem> -> f32
        kda2.store %x, %z[%r, %j] : f32, !kda2.tensor<[b, 32, 32], f32>
      }
    }
  }
}
