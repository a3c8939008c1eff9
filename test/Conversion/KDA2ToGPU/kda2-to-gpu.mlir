// RUN: kda2-opt %s --split-input-file --convert-kda2-to-gpu | FileCheck %s
//
// --convert-kda2-to-gpu (lib/Conversion/KDA2ToGPU/KDA2ToGPU.cpp): kernel
// signatures, the mapping of grid/block/thread/serial loops, lanes, global
// addressing and vector accesses, shared and register buffers, masks,
// counters, uniform stores and the launch metadata. The output is not
// canonicalized, so the checks skip the repeated constants.

// Signature: tensors become !llvm.ptr<1>, scalars stay, one i64 per named
// dimension in order of first use, the counter buffer last; the kernel goes
// into a gpu.module of a gpu.container_module with its known block size and
// the __kda2_meta_<kernel> launch metadata.
// CHECK: module attributes {gpu.container_module}
// CHECK: gpu.module @kda2_kernels
// CHECK-LABEL: gpu.func @signature(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1>{{( \{[^}]*\})?}}, %[[S:[^:]*]]: f32, %[[C:[^:]*]]: i32,
// CHECK-SAME: %[[Y:[^:]*]]: !llvm.ptr<1>{{( \{[^}]*\})?}}, %[[B:[^:]*]]: i64, %[[N:[^:]*]]: i64,
// CHECK-SAME: %[[CNT:[^:]*]]: !llvm.ptr<1>)
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 32, 1, 1>}
// CHECK: llvm.atomicrmw add
// CHECK: gpu.return
// CHECK: llvm.mlir.global external constant @__kda2_meta_signature("kda2-kernel-v1\0A
// CHECK-SAME: block 32 1 1\0Agrid.x n\0Agrid.y b\0A
// CHECK-SAME: arg ptr x bf16 in 3 b n 64\0Aarg scalar s f32\0Aarg scalar c i32\0Aarg ptr y bf16 out 3 b n 64\0A
// CHECK-SAME: arg dim b\0Aarg dim n\0Aarg counters 1\0Acounter rows i64\0Aend\0A\00")
// CHECK-SAME: {addr_space = 1 : i32, alignment = 1 : i64}
kda2.kernel @signature(%x: !kda2.tensor<[b, n, 64], bf16>, %s: f32, %c: i32,
                       %y: !kda2.tensor<[b, n, 64], bf16> {kda2.io = #kda2.io<out>})
    attributes {grid = ["b"], arg_names = ["x", "s", "c", "y"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, n, 64], bf16>, !kda2.tensor<[b, n, 64], bf16>
  %n = kda2.dim "n" : index
  kda2.loop block %i to %n annotations [#kda2.coalesced_access<dim = "n", modulus = 8>] {
    %row = kda2.load %x[%i] : !kda2.tensor<[b, n, 64], bf16> -> tensor<64xbf16>
    kda2.store %row, %y[%i] : tensor<64xbf16>, !kda2.tensor<[b, n, 64], bf16>
    kda2.counter "rows", %c : i32
  }
  kda2.return
}

// -----

// Grid prefix: blockIdx.y enumerates (b, h) row-major, h fastest: the
// remainder by h is h's index, the quotient is divided again by b.
// CHECK-LABEL: gpu.func @grid_prefix(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1>{{( \{[^}]*\})?}}, %[[Y:[^:]*]]: !llvm.ptr<1>{{( \{[^}]*\})?}}, %[[B:[^:]*]]: i64, %[[H:[^:]*]]: i64)
// CHECK-DAG: %[[BI:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK-DAG: %[[HI:.*]] = arith.index_cast %[[H]] : i64 to index
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK-NEXT: %[[HIDX:.*]] = arith.remui %[[BY]], %[[HI]] : index
// CHECK-NEXT: %[[REST:.*]] = arith.divui %[[BY]], %[[HI]] : index
// CHECK-NEXT: %[[BIDX:.*]] = arith.remui %[[REST]], %[[BI]] : index
// CHECK: %[[BIDX64:.*]] = arith.index_cast %[[BIDX]] : index to i64
// CHECK: %[[HIDX64:.*]] = arith.index_cast %[[HIDX]] : index to i64
// CHECK: llvm.getelementptr %[[X]]
kda2.kernel @grid_prefix(%x: !kda2.tensor<[b, h, 32], f32>,
                         %y: !kda2.tensor<[b, h, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {grid = ["b", "h"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[b, h, 32], f32>, !kda2.tensor<[b, h, 32], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[b, h, 32], f32> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[b, h, 32], f32>
  }
  kda2.return
}

// -----

// Block loops map to blockIdx.x: the widest loop (gridDim.x) runs unguarded,
// a narrower one is guarded by its own extent.
// CHECK-LABEL: gpu.func @block_loops(
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[BX0:.*]] = gpu.block_id x
// CHECK-NOT: scf.if
// CHECK: arith.index_cast %[[BX0]] : index to i64
// CHECK: %[[BX1:.*]] = gpu.block_id x
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[BX1]], %[[C8]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: arith.index_cast %[[BX1]] : index to i64
// CHECK: grid.x 16 8\0A
kda2.kernel @block_loops(%x: !kda2.tensor<[16], f32>,
                         %y: !kda2.tensor<[16], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[16], f32>, !kda2.tensor<[16], f32>
  %c16 = arith.constant 16 : index
  %c8 = arith.constant 8 : index
  kda2.loop block %i to %c16 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%i] : !kda2.tensor<[16], f32> -> f32
    kda2.store %v, %y[%i] : f32, !kda2.tensor<[16], f32>
  }
  kda2.loop block %i to %c8 {
    %v = kda2.load %x[%i] : !kda2.tensor<[16], f32> -> f32
    kda2.store %v, %y[%i] : f32, !kda2.tensor<[16], f32>
  }
  kda2.return
}

// -----

// Thread loops map to threadIdx.x; blockDim.x is the largest extent (64): the
// loop of 64 is unguarded, the loop of 40 is guarded.
// CHECK-LABEL: gpu.func @thread_loops(
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[C40:.*]] = arith.constant 40 : index
// CHECK-NOT: scf.if
// CHECK: arith.index_cast %[[TID]] : index to i64
// CHECK: llvm.store
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[TID]], %[[C40]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: arith.index_cast %[[TID]] : index to i64
// CHECK: llvm.store
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: gpu.return
kda2.kernel @thread_loops(%x: !kda2.tensor<[64], f32>,
                          %y: !kda2.tensor<[64], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[64], f32>, !kda2.tensor<[64], f32>
  %c64 = arith.constant 64 : index
  %c40 = arith.constant 40 : index
  kda2.loop thread %j to %c64 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[64], f32> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[64], f32>
  }
  kda2.loop thread %j to %c40 {
    %v = kda2.load %x[%j] : !kda2.tensor<[64], f32> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[64], f32>
  }
  kda2.return
}

// -----

// lanes(4) over 8 iterations (not whole warps): iteration threadIdx.x / 4
// runs on lanes threadIdx.x % 4 of one warp, each loading its 16-element
// quarter of the row with one vector load; the reduction combines the 4
// partial sums with a 2-step butterfly (xor 2, 1). A scalar result is
// stored by the first lane of each iteration.
// CHECK-LABEL: gpu.func @lanes(
// CHECK-SAME: known_block_size = array<i32: 32, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[J:.*]] = arith.divui %[[TID]], %[[C4]] : index
// CHECK: %[[C4B:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[PART:.*]] = arith.remui %[[TID]], %[[C4B]] : index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[START:.*]] = arith.muli %[[PART]], %[[C16]] : index
// CHECK: arith.index_cast %[[J]] : index to i64
// CHECK: arith.index_cast %[[START]] : index to i64
// CHECK: %[[P:.*]] = llvm.getelementptr
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<16xf32>
// CHECK-NEXT: %[[SUM:.*]] = vector.reduction <add>, %[[V]] : vector<16xf32> into f32
// CHECK-NEXT: %[[O2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[W:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[SH2:.*]], %{{.*}} = gpu.shuffle xor %[[SUM]], %[[O2]], %[[W]] : f32
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[SUM]], %[[SH2]] : f32
// CHECK-NEXT: %[[O1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[W1:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[SH1:.*]], %{{.*}} = gpu.shuffle xor %[[S2]], %[[O1]], %[[W1]] : f32
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[S2]], %[[SH1]] : f32
// CHECK-NOT: gpu.shuffle
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[PART]], %{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: llvm.store %[[S1]]
kda2.kernel @lanes(%x: !kda2.tensor<[8, 64], f32>,
                   %y: !kda2.tensor<[8], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[8, 64], f32>, !kda2.tensor<[8], f32>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 lanes(4) annotations [#kda2.warp_reduce] {
    %row = kda2.load %x[%j] : !kda2.tensor<[8, 64], f32> -> tensor<64xf32>
    %s = kda2.reduce sum %row : tensor<64xf32> -> f32
    kda2.store %s, %y[%j] : f32, !kda2.tensor<[8], f32>
  }
  kda2.return
}

// -----

// lanes(4) over 10 iterations: 40 threads, so the guard leaves threads
// 40..63 of warp 1 idle. The butterfly then uses nvvm.shfl.sync with the
// member mask of the active lanes (0xff in warp 1, all lanes elsewhere), not
// a full-mask gpu.shuffle that would wait for the idle lanes.
// CHECK-LABEL: gpu.func @lanes_partial_warp(
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: scf.if
// CHECK: %[[SUM:.*]] = vector.reduction <add>, %{{.*}} : vector<16xf32> into f32
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %{{.*}} : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[WARP]], %[[C1]] : index
// CHECK-NEXT: %[[PART:.*]] = arith.constant 255 : i32
// CHECK-NEXT: %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-NEXT: %[[MASK:.*]] = arith.select %[[LAST]], %[[PART]], %[[ALL]] : i32
// CHECK-NEXT: %[[O2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[CL:.*]] = arith.constant 31 : i32
// CHECK-NEXT: %[[SH2:.*]] = nvvm.shfl.sync bfly %[[MASK]], %[[SUM]], %[[O2]], %[[CL]] : f32 -> f32
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[SUM]], %[[SH2]] : f32
// CHECK: nvvm.shfl.sync bfly %[[MASK]], %[[S2]], %{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
kda2.kernel @lanes_partial_warp(%x: !kda2.tensor<[10, 64], f32>,
                                %y: !kda2.tensor<[10], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[10, 64], f32>, !kda2.tensor<[10], f32>
  %c10 = arith.constant 10 : index
  kda2.loop thread %j to %c10 lanes(4) annotations [#kda2.warp_reduce] {
    %row = kda2.load %x[%j] : !kda2.tensor<[10, 64], f32> -> tensor<64xf32>
    %s = kda2.reduce sum %row : tensor<64xf32> -> f32
    kda2.store %s, %y[%j] : f32, !kda2.tensor<[10], f32>
  }
  kda2.return
}

// -----

// lanes(2) over an extent of whole warps (32): the lanes of an iteration sit
// in different warps (iteration threadIdx.x % 32, part threadIdx.x / 32), so
// each warp loads whole rows' halves; the partial sums meet in a shared
// scratch of one f32 per thread, between two barriers, instead of shuffles.
// CHECK-LABEL: gpu.func @lanes_across_warps(
// CHECK-SAME: workgroup(%[[SCRATCH:.*]] : memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]] : index
// CHECK: %[[J:.*]] = arith.remui %[[TID]], %{{.*}} : index
// CHECK: %[[PART:.*]] = arith.divui %[[TID]], %{{.*}} : index
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<32xf32>
// CHECK-NEXT: %[[SUM:.*]] = vector.reduction <add>, %[[V]] : vector<32xf32> into f32
// CHECK: %[[SLOT:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK-NEXT: memref.store %[[SUM]], %[[SCRATCH]][%[[SLOT]]]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[P0:.*]] = memref.load %[[SCRATCH]]
// CHECK: %[[P1:.*]] = memref.load %[[SCRATCH]]
// CHECK-NEXT: %[[TOTAL:.*]] = arith.addf %[[P0]], %[[P1]] : f32
// CHECK-NEXT: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[PART]], %{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: llvm.store %[[TOTAL]]
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
kda2.kernel @lanes_across_warps(%x: !kda2.tensor<[32, 64], f32>,
                                %y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[32, 64], f32>, !kda2.tensor<[32], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 lanes(2) annotations [#kda2.warp_reduce] {
    %row = kda2.load %x[%j] : !kda2.tensor<[32, 64], f32> -> tensor<64xf32>
    %s = kda2.reduce sum %row : tensor<64xf32> -> f32
    kda2.store %s, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}

// -----

// Two loops of the same extent and lanes, one with a token loop inside
// (whose iterations would each wait at the scratch's barriers): both keep
// the lanes in one warp, so a thread holds the same column and part in both
// (a register tile filled in the first is used in the second).
// CHECK-LABEL: gpu.func @lanes_placed_alike(
// CHECK-NOT: workgroup(
// CHECK: gpu.shuffle xor
// CHECK: scf.for
// CHECK: gpu.shuffle xor
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
kda2.kernel @lanes_placed_alike(%x: !kda2.tensor<[t, 32, 64], f32>,
                                %y: !kda2.tensor<[t, 32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[t, 32, 64], f32>, !kda2.tensor<[t, 32], f32>
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %t = kda2.dim "t" : index
  kda2.loop thread %j to %c32 lanes(2) annotations [#kda2.warp_reduce] {
    %row = kda2.load %x[%c0, %j] : !kda2.tensor<[t, 32, 64], f32> -> tensor<64xf32>
    %s = kda2.reduce sum %row : tensor<64xf32> -> f32
    kda2.store %s, %y[%c0, %j] : f32, !kda2.tensor<[t, 32], f32>
  }
  kda2.loop thread %j to %c32 lanes(2) annotations [#kda2.warp_reduce] {
    kda2.loop serial %i to %t {
      %row = kda2.load %x[%i, %j] : !kda2.tensor<[t, 32, 64], f32> -> tensor<64xf32>
      %s = kda2.reduce sum %row : tensor<64xf32> -> f32
      kda2.store %s, %y[%i, %j] : f32, !kda2.tensor<[t, 32], f32>
    }
  }
  kda2.return
}

// -----

// A serial loop is an scf.for from 0 to its extent, here a size parameter.
// CHECK-LABEL: gpu.func @serial(
// CHECK-SAME: %[[T:[^:]*]]: i64)
// CHECK: %[[TI:.*]] = arith.index_cast %[[T]] : i64 to index
// CHECK: scf.if
// CHECK: %[[STEP:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[LB:.*]] = arith.constant 0 : index
// CHECK-NEXT: scf.for %[[I:.*]] = %[[LB]] to %[[TI]] step %[[STEP]] {
// CHECK: arith.index_cast %[[I]] : index to i64
// CHECK: llvm.load
// CHECK: arith.addf
// CHECK: memref.store
// CHECK-NEXT: {{^ *}}}
kda2.kernel @serial(%x: !kda2.tensor<[t], f32>,
                    %y: !kda2.tensor<[1], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[t], f32>, !kda2.tensor<[1], f32>
  %r = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %t = kda2.dim "t" : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<dim = "t", modulus = 4>] {
    kda2.loop serial %i to %t {
      %v = kda2.load %x[%i] : !kda2.tensor<[t], f32> -> f32
      %a = kda2.load %r[%c0] : !kda2.tensor<[1], f32, reg> -> f32
      %s = kda2.add %a, %v : f32, f32 -> f32
      kda2.store %s, %r[%c0] : f32, !kda2.tensor<[1], f32, reg>
    }
    %a = kda2.load %r[%c0] : !kda2.tensor<[1], f32, reg> -> f32
    kda2.store %a, %y[%j] : f32, !kda2.tensor<[1], f32>
  }
  kda2.return
}

// -----

// A contiguous bf16 row of 64 elements: a 64-bit element offset (index_cast
// to i64, muli by the stride, addi), a getelementptr and one vector load
// aligned to 16 bytes (128-bit accesses).
// CHECK-LABEL: gpu.func @contiguous_bf16(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr<1>
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : i64
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[ONE]], %[[C64]] : i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[I64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: %[[T1:.*]] = arith.muli %[[I64]], %[[ROW]] : i64
// CHECK-NEXT: %[[O1:.*]] = arith.addi %[[ZERO]], %[[T1]] : i64
// CHECK-NEXT: %[[K64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: %[[T2:.*]] = arith.muli %[[K64]], %[[ONE]] : i64
// CHECK-NEXT: %[[OFF:.*]] = arith.addi %[[O1]], %[[T2]] : i64
// CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %[[X]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<64xbf16>
kda2.kernel @contiguous_bf16(%x: !kda2.tensor<[8, 64], bf16>,
                             %y: !kda2.tensor<[8, 64], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[8, 64], bf16>, !kda2.tensor<[8, 64], f32>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 annotations [#kda2.coalesced_access<>] {
    %row = kda2.load %x[%j] : !kda2.tensor<[8, 64], bf16> -> tensor<64xbf16>
    %f = kda2.cast %row : tensor<64xbf16> -> tensor<64xf32>
    kda2.store %f, %y[%j] : tensor<64xf32>, !kda2.tensor<[8, 64], f32>
  }
  kda2.return
}

// -----

// The same for an f32 row of 4 elements (16 bytes): one 128-bit load and
// one 128-bit store.
// CHECK-LABEL: gpu.func @contiguous_f32(
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.store %[[V]], %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
kda2.kernel @contiguous_f32(%x: !kda2.tensor<[32, 4], f32>,
                            %y: !kda2.tensor<[32, 4], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[32, 4], f32>, !kda2.tensor<[32, 4], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %row = kda2.load %x[%j] : !kda2.tensor<[32, 4], f32> -> tensor<4xf32>
    kda2.store %row, %y[%j] : tensor<4xf32>, !kda2.tensor<[32, 4], f32>
  }
  kda2.return
}

// -----

// A tile along a strided dimension (layout VK stores [8, 4] K-first, so a
// logical row has stride 8) is gathered element by element.
// CHECK-LABEL: gpu.func @strided_gather(
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[ROW:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: llvm.store %[[ROW]], %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
kda2.kernel @strided_gather(%x: !kda2.tensor<[8, 4], f32>,
                            %y: !kda2.tensor<[8, 4], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x layout(VK) packing(none) : !kda2.tensor<[8, 4], f32>
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[8, 4], f32>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 annotations [#kda2.coalesced_access<>] {
    %row = kda2.load %x[%j] : !kda2.tensor<[8, 4], f32> -> tensor<4xf32>
    kda2.store %row, %y[%j] : tensor<4xf32>, !kda2.tensor<[8, 4], f32>
  }
  kda2.return
}

// -----

// A shared buffer is a workgroup attribution; a barrier goes before a thread
// loop that reads what an earlier one wrote, none after the last.
// CHECK-LABEL: gpu.func @shared(
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: memref.store %{{.*}}, %[[SMEM]][%[[TID]]] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load %[[SMEM]][%[[TID]]] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK: llvm.store
// CHECK-NEXT: gpu.return
kda2.kernel @shared(%x: !kda2.tensor<[32], f32>,
                    %y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[32], f32>, !kda2.tensor<[32], f32>
  %s = kda2.smem_alloc size(128) : !kda2.tensor<[32], f32, smem>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[32], f32> -> f32
    kda2.store %v, %s[%j] : f32, !kda2.tensor<[32], f32, smem>
  }
  kda2.loop thread %j to %c32 {
    %v = kda2.load %s[%j] : !kda2.tensor<[32], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}

// -----

// A register tile is a private memref.alloca at the top of the kernel,
// accessed with vector loads and stores.
// CHECK-LABEL: gpu.func @register_tile(
// CHECK-NEXT: %[[REG:.*]] = memref.alloca() : memref<4xf32>
// CHECK: vector.store %{{.*}}, %[[REG]][%{{.*}}] : memref<4xf32>, vector<4xf32>
// CHECK: vector.load %[[REG]][%{{.*}}] : memref<4xf32>, vector<4xf32>
kda2.kernel @register_tile(%x: !kda2.tensor<[32, 4], f32>,
                           %y: !kda2.tensor<[32, 4], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[32, 4], f32>, !kda2.tensor<[32, 4], f32>
  %r = kda2.reg_alloc : !kda2.tensor<[4], f32, reg>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %row = kda2.load %x[%j] : !kda2.tensor<[32, 4], f32> -> tensor<4xf32>
    kda2.store %row, %r[] : tensor<4xf32>, !kda2.tensor<[4], f32, reg>
    %back = kda2.load %r[] : !kda2.tensor<[4], f32, reg> -> tensor<4xf32>
    kda2.store %back, %y[%j] : tensor<4xf32>, !kda2.tensor<[32, 4], f32>
  }
  kda2.return
}

// -----

// kda2.delta_masked selects on the mask bits (mask != 0) and never
// multiplies by the mask.
// CHECK-LABEL: gpu.func @delta_masked(
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: %[[M:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<1> -> i8
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT: %[[KEEP:.*]] = arith.cmpi ne, %[[M]], %[[Z]] : i8
// CHECK-NEXT: %[[FILL:.*]] = arith.constant -1.000000e+30 : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[KEEP]], %[[V]], %[[FILL]] : f32
// CHECK-NOT: arith.mulf
// CHECK: llvm.store %[[R]]
// CHECK-NOT: arith.mulf
// CHECK: gpu.return
kda2.kernel @delta_masked(%x: !kda2.tensor<[32], f32>, %m: !kda2.tensor<[32], ui8>,
                          %y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %m, %y layout(row_major) packing(none)
      : !kda2.tensor<[32], f32>, !kda2.tensor<[32], ui8>, !kda2.tensor<[32], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 {
    %v = kda2.load %x[%j] : !kda2.tensor<[32], f32> -> f32
    %k = kda2.load %m[%j] : !kda2.tensor<[32], ui8> -> ui8
    %r = kda2.delta_masked %v, %k mask_type(uint8) {fill = -1.0e+30 : f64} : f32, ui8
    kda2.store %r, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}

// -----

// Counters are atomic adds into 8-byte slots of the counter buffer (floats
// as f64, integers as i64), in order of appearance. In a thread loop every
// iteration counts; in uniform code only thread 0 does.
// CHECK-LABEL: gpu.func @counters(
// CHECK-SAME: %[[CNT:[^:]*]]: !llvm.ptr<1>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %[[CNT]][0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
// CHECK-NEXT: %[[V64:.*]] = arith.extf %[[V]] : f32 to f64
// CHECK-NEXT: llvm.atomicrmw fadd %[[P0]], %[[V64]] monotonic : !llvm.ptr<1>, f64
// (The guarded block keeps only the atomic: its address and operand are
// computed in front of the guard.)
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : index
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[CNT]][1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT: %[[ONE64:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: llvm.atomicrmw add %[[P1]], %[[ONE64]] monotonic : !llvm.ptr<1>, i64
// CHECK: counter sum f64\0Acounter blocks i64\0Aend
kda2.kernel @counters(%x: !kda2.tensor<[32], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  %c32 = arith.constant 32 : index
  %c4 = arith.constant 4 : index
  kda2.loop thread %j to %c32 {
    %v = kda2.load %x[%j] : !kda2.tensor<[32], f32> -> f32
    kda2.counter "sum", %v : f32
  }
  kda2.loop block %i to %c4 {
    %c1 = arith.constant 1 : i32
    kda2.counter "blocks", %c1 : i32
  }
  kda2.return
}

// -----

// Uniform code (outside thread loops) runs on every thread; its global and
// shared stores are made by thread 0, and a barrier separates a shared store
// from the reads of it.
// CHECK-LABEL: gpu.func @uniform_store(
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[T0:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[T0]] {
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[BX]]] : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[G0:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : index
// CHECK: scf.if %[[G0]] {
// CHECK: llvm.store
// CHECK-NEXT: {{^ *}}}
kda2.kernel @uniform_store(%x: !kda2.tensor<[4], f32>,
                           %y: !kda2.tensor<[4], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[4], f32>, !kda2.tensor<[4], f32>
  %s = kda2.smem_alloc size(16) : !kda2.tensor<[4], f32, smem>
  %c4 = arith.constant 4 : index
  kda2.loop block %i to %c4 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%i] : !kda2.tensor<[4], f32> -> f32
    kda2.store %v, %s[%i] : f32, !kda2.tensor<[4], f32, smem>
    %w = kda2.load %s[%i] : !kda2.tensor<[4], f32, smem> -> f32
    kda2.store %w, %y[%i] : f32, !kda2.tensor<[4], f32>
  }
  kda2.return
}
