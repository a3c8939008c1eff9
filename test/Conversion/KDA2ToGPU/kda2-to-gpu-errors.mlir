// RUN: kda2-opt %s --split-input-file --convert-kda2-to-gpu --verify-diagnostics
//
// One case per error of --convert-kda2-to-gpu (KDA2ToGPU.cpp). Every input
// is valid kda2 IR (it passes the dialect verifier) that the GPU lowering
// does not support.
//
// Not reachable from valid IR:
//  * "block loop extent must be a constant or a named dimension": a block
//    loop must be at the top level of the kernel (checked first), where the
//    only index values are arith.constant and kda2.dim (the kernel verifier
//    allows nothing else there, and scalar arguments cannot be index).
//  * "unsupported loop mapping": warp loops, the only mapping that reaches
//    it, are rejected by the analysis before emission.
//  * "internal error: operand not lowered": every value a verified kernel
//    can use is lowered before its users.

// A '?' dimension has no name, so its size cannot become a parameter.
// expected-error @below {{'kda2.kernel' op anonymous dynamic dimension '?' cannot be lowered; name it so its size becomes a kernel parameter}}
kda2.kernel @anonymous_dim(%x: !kda2.tensor<[?, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[?, 4], f32>
  %c4 = arith.constant 4 : index
  kda2.loop thread %j to %c4 annotations [#kda2.coalesced_access<>] {
    %c0 = arith.constant 0 : index
    %v = kda2.load %x[%c0, %j] : !kda2.tensor<[?, 4], f32> -> f32
  }
  kda2.return
}

// -----

// A block loop nested in a (top-level) serial loop.
kda2.kernel @nested_block_loop(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  kda2.loop serial %s to %c2 {
    // expected-error @below {{'kda2.loop' op GPU lowering supports block loops only at the top level of a kernel}}
    kda2.loop block %i to %c4 annotations [#kda2.coalesced_access<>] {
      %v = kda2.load %x[%i] : !kda2.tensor<[4], f32> -> f32
    }
  }
  kda2.return
}

// -----

// A thread loop inside a thread loop.
kda2.kernel @nested_thread_loops(%x: !kda2.tensor<[4, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4, 4], f32>
  %c4 = arith.constant 4 : index
  kda2.loop thread %i to %c4 annotations [#kda2.coalesced_access<>] {
    // expected-error @below {{'kda2.loop' op GPU lowering does not support nested thread loops yet}}
    kda2.loop thread %j to %c4 {
      %v = kda2.load %x[%i, %j] : !kda2.tensor<[4, 4], f32> -> f32
    }
  }
  kda2.return
}

// -----

// The block size is static: a thread loop over a named size is rejected.
kda2.kernel @dynamic_thread_extent(%x: !kda2.tensor<[n], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[n], f32>
  %n = kda2.dim "n" : index
  // expected-error @below {{'kda2.loop' op thread loop extent must be a constant for the GPU lowering}}
  kda2.loop thread %j to %n annotations [#kda2.coalesced_access<dim = "n", modulus = 32>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[n], f32> -> f32
  }
  kda2.return
}

// -----

// 512 iterations on 4 lanes each need 2048 threads.
kda2.kernel @too_many_threads(%x: !kda2.tensor<[512], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[512], f32>
  %c512 = arith.constant 512 : index
  // expected-error @below {{'kda2.loop' op thread loop needs 2048 threads, more than 1024 per block}}
  kda2.loop thread %j to %c512 lanes(4) annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[512], f32> -> f32
  }
  kda2.return
}

// -----

// Warp loops have no GPU mapping yet.
kda2.kernel @warp_loop(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c4 = arith.constant 4 : index
  // expected-error @below {{'kda2.loop' op GPU lowering does not support warp loops yet}}
  kda2.loop warp %w to %c4 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%w] : !kda2.tensor<[4], f32> -> f32
  }
  kda2.return
}

// -----

// A tensor-core matmul needs the whole block: not inside a thread loop.
kda2.kernel @matmul_in_thread_loop(%x: !kda2.tensor<[16, 16], f16>, %y: !kda2.tensor<[16, 16], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none) : !kda2.tensor<[16, 16], f16>, !kda2.tensor<[16, 16], f32>
  %s = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], f16, smem>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[16, 16], f16, smem> -> tensor<16x16xf16>
    %b = kda2.load %s[] : !kda2.tensor<[16, 16], f16, smem> -> tensor<16x16xf16>
    // expected-error @below {{'kda2.matmul' op runs on tensor cores with every warp of the block: write it outside thread and fragment loops}}
    %m = kda2.matmul %a, %b : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
    kda2.store %m, %y[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32>
  }
  kda2.return
}

// -----

// Operands come from shared memory (ldmatrix), not straight from global.
kda2.kernel @matmul_global_operand(%x: !kda2.tensor<[16, 16], f16>, %y: !kda2.tensor<[16, 16], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none) : !kda2.tensor<[16, 16], f16>, !kda2.tensor<[16, 16], f32>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %x[] : !kda2.tensor<[16, 16], f16> -> tensor<16x16xf16>
    // expected-error @below {{'kda2.matmul' op operand a must be a tile loaded from a shared buffer (stage global data through SMEM: the tensor-core path reads fragments with ldmatrix)}}
    %m = kda2.matmul %a, %a : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
    kda2.store %m, %y[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32>
  }
  kda2.return
}

// -----

// f64 operands have no mma.sync shape here (f32 ones run in TF32).
kda2.kernel @matmul_f64(%y: !kda2.tensor<[16, 16], f64> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[16, 16], f64>
  %s = kda2.smem_alloc size(2048) : !kda2.tensor<[16, 16], f64, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[16, 16], f64, smem> -> tensor<16x16xf64>
    // expected-error @below {{'kda2.matmul' op tensor-core lowering needs f16, bf16 or f32 (TF32) operands of one type and an f32 result, got 'tensor<16x16xf64>', 'tensor<16x16xf64>' -> 'tensor<16x16xf64>'}}
    %m = kda2.matmul %a, %a : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
    kda2.store %m, %y[] : tensor<16x16xf64>, !kda2.tensor<[16, 16], f64>
  }
  kda2.return
}

// -----

// TF32 products step k by 8 (m16n8k8).
kda2.kernel @matmul_tf32_shape(%y: !kda2.tensor<[16, 8], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[16, 8], f32>
  %s = kda2.smem_alloc size(256) : !kda2.tensor<[16, 4], f32, smem>
  %t = kda2.smem_alloc size(128) : !kda2.tensor<[4, 8], f32, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[16, 4], f32, smem> -> tensor<16x4xf32>
    %b = kda2.load %t[] : !kda2.tensor<[4, 8], f32, smem> -> tensor<4x8xf32>
    // expected-error @below {{'kda2.matmul' op tensor-core tiles are 16x8x8 (m x n x k): m = 16 must be a multiple of 16, k = 4 of 8, n = 8 of 8}}
    %m = kda2.matmul %a, %b : tensor<16x4xf32>, tensor<4x8xf32> -> tensor<16x8xf32>
    kda2.store %m, %y[] : tensor<16x8xf32>, !kda2.tensor<[16, 8], f32>
  }
  kda2.return
}

// -----

// Tiles are multiples of the 16x8x16 instruction shape.
kda2.kernel @matmul_shape(%y: !kda2.tensor<[8, 8], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[8, 8], f32>
  %s = kda2.smem_alloc size(128) : !kda2.tensor<[8, 8], f16, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[8, 8], f16, smem> -> tensor<8x8xf16>
    %b = kda2.load %s[] : !kda2.tensor<[8, 8], f16, smem> -> tensor<8x8xf16>
    // expected-error @below {{'kda2.matmul' op tensor-core tiles are 16x8x16 (m x n x k): m = 8 must be a multiple of 16, k = 8 of 16, n = 8 of 8}}
    %m = kda2.matmul %a, %b : tensor<8x8xf16>, tensor<8x8xf16> -> tensor<8x8xf32>
    kda2.store %m, %y[] : tensor<8x8xf32>, !kda2.tensor<[8, 8], f32>
  }
  kda2.return
}

// -----

// The result is written fragment by fragment: one store, nothing else.
kda2.kernel @matmul_result_used(%y: !kda2.tensor<[16, 16], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[16, 16], f32>
  %s = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], f16, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[16, 16], f16, smem> -> tensor<16x16xf16>
    %b = kda2.load %s[] : !kda2.tensor<[16, 16], f16, smem> -> tensor<16x16xf16>
    // expected-error @below {{'kda2.matmul' op result must have exactly one use, a kda2.store of the whole tile (the tensor-core path writes it fragment by fragment)}}
    %m = kda2.matmul %a, %b : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
    %e = kda2.exp %m : tensor<16x16xf32>
    kda2.store %e, %y[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32>
  }
  kda2.return
}

// -----

// An operand tile loaded once but used by something else as well.
kda2.kernel @matmul_operand_shared(%y: !kda2.tensor<[16, 16], f32> {kda2.io = #kda2.io<out>}, %z: !kda2.tensor<[16, 16], f16> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y, %z layout(row_major) packing(none) : !kda2.tensor<[16, 16], f32>, !kda2.tensor<[16, 16], f16>
  %s = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], f16, smem>
  %c1 = arith.constant 1 : index
  kda2.loop serial %i to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %s[] : !kda2.tensor<[16, 16], f16, smem> -> tensor<16x16xf16>
    // expected-error @below {{'kda2.matmul' op operand a is also used by another operation; load the tile again for it}}
    %m = kda2.matmul %a, %a : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
    kda2.store %m, %y[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32>
    kda2.store %a, %z[] : tensor<16x16xf16>, !kda2.tensor<[16, 16], f16>
  }
  kda2.return
}

// -----

// kda2.tri_solve is not lowered.
kda2.kernel @tri_solve(%x: !kda2.tensor<[4, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4, 4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %x[] : !kda2.tensor<[4, 4], f32> -> tensor<4x4xf32>
    // expected-error @below {{'kda2.tri_solve' op is not supported by the GPU lowering yet (write the substitution as loops over a shared buffer)}}
    %t = kda2.tri_solve %a, %a : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  }
  kda2.return
}

// -----

// A tile over a named (unbound) feature dimension has no static shape.
kda2.kernel @dynamic_tile(%x: !kda2.tensor<[8, n], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[8, n], f32>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 annotations [#kda2.coalesced_access<dim = "n", modulus = 8>] {
    // expected-error @below {{'kda2.load' op produces the dynamic tile 'tensor<?xf32>'; bind its feature dimension to a size first (kda2-translate --import-tirx --tirx-bind=<dim>=<n>)}}
    %row = kda2.load %x[%j] : !kda2.tensor<[8, n], f32> -> tensor<?xf32>
  }
  kda2.return
}

// -----

// Under $bank_conflict_free the index must be affine in the thread variable.
kda2.kernel @non_affine_shared_index(%y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  %s = kda2.smem_alloc size(4096) : !kda2.tensor<[32, 32], f32, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  kda2.loop thread %j to %c32 annotations [#kda2.bank_conflict_free] {
    %jj = kda2.mul %j, %j : index, index -> index
    // expected-error @below {{'kda2.load' op index is not an affine function of the thread variable; '$bank_conflict_free' cannot be proven}}
    %v = kda2.load %s[%jj, %c0] : !kda2.tensor<[32, 32], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}

// -----

// Lanes reading every other f32 of a row: lanes l and l + 16 share a bank
// whatever the row pitch, so no padding of the last dimension helps.
kda2.kernel @stride2_last_dim(%y: !kda2.tensor<[32], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  // expected-error @below {{'kda2.smem_alloc' op no padding of the last dimension makes every access in the '$bank_conflict_free' loops conflict free}}
  %s = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 64], f32, smem>
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  kda2.loop thread %j to %c32 annotations [#kda2.bank_conflict_free] {
    %j2 = kda2.mul %j, %c2 : index, index -> index
    %v = kda2.load %s[%c0, %j2] : !kda2.tensor<[32, 64], f32, smem> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[32], f32>
  }
  kda2.return
}

// -----

// A register tile used in a lanes(4) loop is split over the 4 lanes: its
// size must be divisible by 4.
kda2.kernel @reg_tile_not_divisible(%x: !kda2.tensor<[8, 6], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[8, 6], f32>
  // expected-error @below {{'kda2.reg_alloc' op a register tile used by a lanes(4) loop must be rank 1 with a size divisible by 4}}
  %r = kda2.reg_alloc : !kda2.tensor<[6], f32, reg>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 lanes(4) annotations [#kda2.coalesced_access<>] {
    %row = kda2.load %x[%j] : !kda2.tensor<[8, 6], f32> -> tensor<6xf32>
    kda2.store %row, %r[] : tensor<6xf32>, !kda2.tensor<[6], f32, reg>
  }
  kda2.return
}

// -----

// The same for a rank-2 register tile.
kda2.kernel @reg_tile_rank2(%x: !kda2.tensor<[8, 2, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[8, 2, 4], f32>
  // expected-error @below {{'kda2.reg_alloc' op a register tile used by a lanes(2) loop must be rank 1 with a size divisible by 2}}
  %r = kda2.reg_alloc : !kda2.tensor<[2, 4], f32, reg>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 lanes(2) annotations [#kda2.coalesced_access<>] {
    %t = kda2.load %x[%j] : !kda2.tensor<[8, 2, 4], f32> -> tensor<2x4xf32>
    kda2.store %t, %r[] : tensor<2x4xf32>, !kda2.tensor<[2, 4], f32, reg>
  }
  kda2.return
}

// -----

// Column-wise reductions of a rank-2 tile are not lowered.
kda2.kernel @reduce_axis0(%x: !kda2.tensor<[4, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4, 4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %x[] : !kda2.tensor<[4, 4], f32> -> tensor<4x4xf32>
    // expected-error @below {{'kda2.reduce' op GPU lowering supports reductions of rank-1 tiles and row-wise reductions of rank-2 tiles}}
    %r = kda2.reduce sum %a {axis = 0 : i64} : tensor<4x4xf32> -> tensor<4xf32>
  }
  kda2.return
}

// -----

// l2norm of a rank-2 tile.
kda2.kernel @l2norm_rank2(%x: !kda2.tensor<[4, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4, 4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %x[] : !kda2.tensor<[4, 4], f32> -> tensor<4x4xf32>
    // expected-error @below {{'kda2.l2norm' op GPU lowering supports l2norm of rank-1 tiles}}
    %n = kda2.l2norm %a : tensor<4x4xf32>
  }
  kda2.return
}

// -----

// cumsum of a rank-2 tile.
kda2.kernel @cumsum_rank2(%x: !kda2.tensor<[4, 4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4, 4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %x[] : !kda2.tensor<[4, 4], f32> -> tensor<4x4xf32>
    // expected-error @below {{'kda2.cumsum' op GPU lowering supports cumsum of rank-1 tiles outside lanes(P) loops}}
    %c = kda2.cumsum %a {axis = 0 : i64} : tensor<4x4xf32>
  }
  kda2.return
}

// -----

// cumsum of a tile distributed over the lanes of a lanes(4) loop.
kda2.kernel @cumsum_distributed(%x: !kda2.tensor<[8, 16], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[8, 16], f32>
  %c8 = arith.constant 8 : index
  kda2.loop thread %j to %c8 lanes(4) annotations [#kda2.coalesced_access<>] {
    %a = kda2.load %x[%j] : !kda2.tensor<[8, 16], f32> -> tensor<16xf32>
    // expected-error @below {{'kda2.cumsum' op GPU lowering supports cumsum of rank-1 tiles outside lanes(P) loops}}
    %c = kda2.cumsum %a : tensor<16xf32>
  }
  kda2.return
}

// -----

// Ops of other dialects inside loops are not lowered (arith.constant is).
kda2.kernel @foreign_op(%x: !kda2.tensor<[4], i32>, %y: !kda2.tensor<[4], i32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[4], i32>, !kda2.tensor<[4], i32>
  %c4 = arith.constant 4 : index
  kda2.loop thread %j to %c4 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[4], i32> -> i32
    // expected-error @below {{'arith.addi' op is not supported by the GPU lowering}}
    %w = arith.addi %v, %v : i32
    kda2.store %w, %y[%j] : i32, !kda2.tensor<[4], i32>
  }
  kda2.return
}

// -----

// The same message for an op with more than one result.
kda2.kernel @two_results(%x: !kda2.tensor<[4], i32>, %y: !kda2.tensor<[4], i32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[4], i32>, !kda2.tensor<[4], i32>
  %c4 = arith.constant 4 : index
  kda2.loop thread %j to %c4 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[4], i32> -> i32
    // expected-error @below {{'arith.addui_extended' op is not supported by the GPU lowering}}
    %w, %o = arith.addui_extended %v, %v : i32, i1
    kda2.store %w, %y[%j] : i32, !kda2.tensor<[4], i32>
  }
  kda2.return
}

// -----

// Resource limit: a tile each thread holds stays within 4096 elements.
kda2.kernel @huge_thread_tile(%x: !kda2.tensor<[n, 128, 128], f32>, %y: !kda2.tensor<[n, 128], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["n"]} {
  kda2.gmem %x, %y layout(row_major) packing(none) : !kda2.tensor<[n, 128, 128], f32>, !kda2.tensor<[n, 128], f32>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    // expected-error @below {{'kda2.load' op makes each thread hold a tile of 16384 elements (the limit is 4096): split it over lanes (schedule.thread(n, P)), stage it in shared memory, or multiply it on tensor cores}}
    %t = kda2.load %x[] : !kda2.tensor<[n, 128, 128], f32> -> tensor<128x128xf32>
    %r = kda2.reduce sum %t {axis = 1 : i64} : tensor<128x128xf32> -> tensor<128xf32>
    kda2.store %r, %y[] : tensor<128xf32>, !kda2.tensor<[n, 128], f32>
  }
  kda2.return
}

// -----

// The same limit for register tiles.
kda2.kernel @huge_register_tile(%y: !kda2.tensor<[4], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  // expected-error @below {{'kda2.reg_alloc' op makes each thread hold a tile of 8192 elements (the limit is 4096)}}
  %r = kda2.reg_alloc : !kda2.tensor<[8192], f32, reg>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %r[%j] : !kda2.tensor<[8192], f32, reg> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[4], f32>
  }
  kda2.return
}

// -----

// `#pragma unroll` needs a trip count known at compile time.
kda2.kernel @unroll_dynamic(%x: !kda2.tensor<[t], f32>, %y: !kda2.tensor<[1], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none) : !kda2.tensor<[t], f32>, !kda2.tensor<[1], f32>
  %c1 = arith.constant 1 : index
  kda2.loop thread %j to %c1 {
    %t = kda2.dim "t" : index
    // expected-error @below {{'kda2.loop' op '#pragma unroll' needs a constant trip count (bind the extent's names with --tirx-bind)}}
    kda2.loop serial %i to %t annotations [#kda2.pragma<unroll>] {
      %v = kda2.load %x[%i] : !kda2.tensor<[t], f32> -> f32
      kda2.store %v, %y[%j] : f32, !kda2.tensor<[1], f32>
    }
  }
  kda2.return
}

// -----

// ... and one of bounded size (code size).
kda2.kernel @unroll_huge(%y: !kda2.tensor<[1], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %y layout(row_major) packing(none) : !kda2.tensor<[1], f32>
  %c1 = arith.constant 1 : index
  %big = arith.constant 100000 : index
  kda2.loop thread %j to %c1 {
    // expected-error @below {{'kda2.loop' op '#pragma unroll' on a loop of 100000 iterations (at most 1024)}}
    kda2.loop serial %i to %big annotations [#kda2.pragma<unroll>] {
      %v = arith.constant 1.0 : f32
      kda2.store %v, %y[%j] : f32, !kda2.tensor<[1], f32>
    }
  }
  kda2.return
}

// -----

// Inside an unrolled loop an extent may wait for the outer loop's copies,
// but one that never becomes a constant is still an error.
kda2.kernel @unroll_nested_dynamic(%x: !kda2.tensor<[t], f32>, %y: !kda2.tensor<[1], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y layout(row_major) packing(none) : !kda2.tensor<[t], f32>, !kda2.tensor<[1], f32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  kda2.loop thread %j to %c1 {
    %t = kda2.dim "t" : index
    kda2.loop serial %i to %c2 annotations [#kda2.pragma<unroll>] {
      // expected-error @below {{'#pragma unroll' needs a constant trip count (bind the extent's names with --tirx-bind)}}
      kda2.loop serial %k to %t annotations [#kda2.pragma<unroll>] {
        %v = kda2.load %x[%k] : !kda2.tensor<[t], f32> -> f32
        kda2.store %v, %y[%j] : f32, !kda2.tensor<[1], f32>
      }
    }
  }
  kda2.return
}

// -----

// An mma register tile is reached element by element only in a fragment
// loop over it (each thread holds its own elements, in fixed registers).
kda2.kernel @mma_element_outside(%x: !kda2.tensor<[b, 16, 8], f32>, %o: !kda2.tensor<[b, 16, 8], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %x, %o layout(row_major) packing(none) : !kda2.tensor<[b, 16, 8], f32>, !kda2.tensor<[b, 16, 8], f32>
  %S = kda2.reg_alloc {mma} : !kda2.tensor<[16, 8], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %c128 = arith.constant 128 : index
    kda2.loop fragment %e to %c128 columns(8) {
      %c8 = arith.constant 8 : index
      %r = kda2.div %e, %c8 : index, index -> index
      %c = kda2.rem %e, %c8 : index, index -> index
      %v = kda2.load %x[%r, %c] : !kda2.tensor<[b, 16, 8], f32> -> f32
      kda2.store %v, %S[%r, %c] : f32, !kda2.tensor<[16, 8], f32, reg>
    }
    %c32 = arith.constant 32 : index
    kda2.loop thread %t to %c32 {
      %c16 = arith.constant 16 : index
      %c8 = arith.constant 8 : index
      %r = kda2.rem %t, %c16 : index, index -> index
      %c = kda2.rem %t, %c8 : index, index -> index
      // expected-error @below {{'kda2.load' op reaches an element of an mma register tile other than at (r, c) of a fragment loop over it ('for r, c in schedule.fragment(t)'); products read and write the tile whole}}
      %v = kda2.load %S[%r, %c] : !kda2.tensor<[16, 8], f32, reg> -> f32
      kda2.store %v, %o[%r, %c] : f32, !kda2.tensor<[b, 16, 8], f32>
    }
  }
  kda2.return
}

// -----

// The tile's 16-row strips must split evenly over the block's warps (here
// four, for the 128-thread loop).
kda2.kernel @mma_rows_over_warps(%x: !kda2.tensor<[b, 128], f32>, %o: !kda2.tensor<[b, 16, 8], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %x, %o layout(row_major) packing(none) : !kda2.tensor<[b, 128], f32>, !kda2.tensor<[b, 16, 8], f32>
  // expected-error @below {{'kda2.reg_alloc' op mma register tile [16, 8] does not split over the block's 4 warps: its rows must be a multiple of 16 per warp (64) and its columns of 8}}
  %S = kda2.reg_alloc {mma} : !kda2.tensor<[16, 8], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %c128 = arith.constant 128 : index
    kda2.loop thread %t to %c128 {
      %v = kda2.load %x[%t] : !kda2.tensor<[b, 128], f32> -> f32
      kda2.store %v, %o[%t, %t] : f32, !kda2.tensor<[b, 16, 8], f32>
    }
    kda2.loop fragment %e to %c128 columns(8) {
      %c8 = arith.constant 8 : index
      %r = kda2.div %e, %c8 : index, index -> index
      %c = kda2.rem %e, %c8 : index, index -> index
      %v = kda2.load %S[%r, %c] : !kda2.tensor<[16, 8], f32, reg> -> f32
      kda2.store %v, %o[%r, %c] : f32, !kda2.tensor<[b, 16, 8], f32>
    }
  }
  kda2.return
}

// -----

// Only a and the accumulator of a product can live in mma registers.
kda2.kernel @mma_as_b(%w: !kda2.tensor<[b, 16, 16], bf16>, %o: !kda2.tensor<[b, 16, 16], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w, %o layout(row_major) packing(none) : !kda2.tensor<[b, 16, 16], bf16>, !kda2.tensor<[b, 16, 16], f32>
  %W = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], bf16, smem>
  %S = kda2.reg_alloc {mma} : !kda2.tensor<[16, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 16, 16], bf16> -> tensor<16x16xbf16>
    kda2.store %t, %W[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
    %a = kda2.load %W[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
    %s = kda2.load %S[] : !kda2.tensor<[16, 16], f32, reg> -> tensor<16x16xf32>
    %sb = kda2.cast %s : tensor<16x16xf32> -> tensor<16x16xbf16>
    // expected-error @below {{'kda2.matmul' op operand b cannot come from an mma register tile (only a and acc can): stage it in shared memory}}
    %m = kda2.matmul %a, %sb : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
    kda2.store %m, %o[] : tensor<16x16xf32>, !kda2.tensor<[b, 16, 16], f32>
  }
  kda2.return
}

// -----

// A split=rows left operand (each warp its own strips) cannot give a
// split=cols result (each warp its own columns of every strip).
kda2.kernel @mma_split_rows_to_cols(%w: !kda2.tensor<[b, 16, 16], bf16>) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w layout(row_major) packing(none) : !kda2.tensor<[b, 16, 16], bf16>
  %W = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], bf16, smem>
  %S = kda2.reg_alloc {mma} : !kda2.tensor<[16, 16], f32, reg>
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 16, 16], bf16> -> tensor<16x16xbf16>
    kda2.store %t, %W[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
    %s = kda2.load %S[] : !kda2.tensor<[16, 16], f32, reg> -> tensor<16x16xf32>
    %sb = kda2.cast %s : tensor<16x16xf32> -> tensor<16x16xbf16>
    %bw = kda2.load %W[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
    // expected-error @below {{'kda2.matmul' op a split=rows left operand gives each warp its own rows: the result must be split=rows too, not split=cols}}
    %m = kda2.matmul %sb, %bw : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
    kda2.store %m, %T[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32, reg>
  }
  kda2.return
}

// -----

// The accumulator and the result of a product share their split.
kda2.kernel @mma_split_acc(%w: !kda2.tensor<[b, 16, 16], bf16>) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w layout(row_major) packing(none) : !kda2.tensor<[b, 16, 16], bf16>
  %W = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], bf16, smem>
  %S = kda2.reg_alloc {mma} : !kda2.tensor<[16, 16], f32, reg>
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 16, 16], bf16> -> tensor<16x16xbf16>
    kda2.store %t, %W[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
    %a = kda2.load %W[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
    %bw = kda2.load %W[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
    %acc = kda2.load %T[] : !kda2.tensor<[16, 16], f32, reg> -> tensor<16x16xf32>
    // expected-error @below {{'kda2.matmul' op accumulates a split=cols mma tile into a split=rows one: the accumulator and the result must share their split}}
    %m = kda2.matmul %a, %bw acc(%acc) : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32> -> tensor<16x16xf32>
    kda2.store %m, %S[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32, reg>
  }
  kda2.return
}

// -----

// A product of a split=cols tile sums partials across the warps: into an
// mma tile, not memory.
kda2.kernel @mma_split_to_memory(%w: !kda2.tensor<[b, 16, 16], bf16>, %o: !kda2.tensor<[b, 16, 16], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w, %o layout(row_major) packing(none) : !kda2.tensor<[b, 16, 16], bf16>, !kda2.tensor<[b, 16, 16], f32>
  %W = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], bf16, smem>
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 16, 16], bf16> -> tensor<16x16xbf16>
    kda2.store %t, %W[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
    %s = kda2.load %T[] : !kda2.tensor<[16, 16], f32, reg> -> tensor<16x16xf32>
    %sb = kda2.cast %s : tensor<16x16xf32> -> tensor<16x16xbf16>
    %bw = kda2.load %W[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
    // expected-error @below {{'kda2.matmul' op with a split=cols mma tile, the result goes into an mma register tile}}
    %m = kda2.matmul %sb, %bw : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
    kda2.store %m, %o[] : tensor<16x16xf32>, !kda2.tensor<[b, 16, 16], f32>
  }
  kda2.return
}

// -----

// A split=none left operand (every warp all rows) cannot give a split=rows
// result over four warps (S: four 16-row strips).
kda2.kernel @mma_split_none_to_rows(%w: !kda2.tensor<[b, 16, 16], bf16>) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w layout(row_major) packing(none) : !kda2.tensor<[b, 16, 16], bf16>
  %W = kda2.smem_alloc size(512) : !kda2.tensor<[16, 16], bf16, smem>
  %S = kda2.reg_alloc {mma} : !kda2.tensor<[64, 16], f32, reg>
  %N = kda2.reg_alloc {mma, split = "none"} : !kda2.tensor<[64, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 16, 16], bf16> -> tensor<16x16xbf16>
    kda2.store %t, %W[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
    %n = kda2.load %N[] : !kda2.tensor<[64, 16], f32, reg> -> tensor<64x16xf32>
    %nb = kda2.cast %n : tensor<64x16xf32> -> tensor<64x16xbf16>
    %bw = kda2.load %W[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
    // expected-error @below {{'kda2.matmul' op a split=none left operand gives every warp all of its rows: the result must be split=cols or none, not split=rows}}
    %m = kda2.matmul %nb, %bw : tensor<64x16xbf16>, tensor<16x16xbf16> -> tensor<64x16xf32>
    kda2.store %m, %S[] : tensor<64x16xf32>, !kda2.tensor<[64, 16], f32, reg>
  }
  kda2.return
}

// -----

// Contracting over a split=cols tile takes 16 of its columns per warp:
// T's 32 columns are four blocks of 8 (four warps), one k step for two.
kda2.kernel @mma_split_k(%w: !kda2.tensor<[b, 16, 32], bf16>) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w layout(row_major) packing(none) : !kda2.tensor<[b, 16, 32], bf16>
  %W = kda2.smem_alloc size(1024) : !kda2.tensor<[16, 32], bf16, smem>
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 32], f32, reg>
  %U = kda2.reg_alloc {mma, split = "none"} : !kda2.tensor<[16, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 16, 32], bf16> -> tensor<16x32xbf16>
    kda2.store %t, %W[] : tensor<16x32xbf16>, !kda2.tensor<[16, 32], bf16, smem>
    %s = kda2.load %T[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
    %sb = kda2.cast %s : tensor<16x32xf32> -> tensor<16x32xbf16>
    %bw = kda2.load %W[] : !kda2.tensor<[16, 32], bf16, smem> -> tensor<16x32xbf16>
    // expected-error @below {{'kda2.matmul' op contracts over the 32 columns of a split=cols mma tile: the block's 4 warps need 16 of them each (a multiple of 64)}}
    %m = kda2.matmul %sb, %bw {transpose_b} : tensor<16x32xbf16>, tensor<16x32xbf16> -> tensor<16x16xf32>
    kda2.store %m, %U[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32, reg>
  }
  kda2.return
}

// -----

// A split=cols tile takes whole 8-column blocks per warp (here four warps,
// for the 128-thread loop).
kda2.kernel @mma_cols_over_warps(%x: !kda2.tensor<[b, 128], f32>, %o: !kda2.tensor<[b, 16, 16], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %x, %o layout(row_major) packing(none) : !kda2.tensor<[b, 128], f32>, !kda2.tensor<[b, 16, 16], f32>
  // expected-error @below {{'kda2.reg_alloc' op mma register tile [16, 16] does not split by columns over the block's 4 warps: its columns must be a multiple of 8 per warp (32) and its rows of 16}}
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 16], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %c128 = arith.constant 128 : index
    kda2.loop thread %t to %c128 {
      %v = kda2.load %x[%t] : !kda2.tensor<[b, 128], f32> -> f32
      kda2.store %v, %o[%t, %t] : f32, !kda2.tensor<[b, 16, 16], f32>
    }
  }
  kda2.return
}

// -----

// A fragment loop walks a tile of its own split: the threads of a
// split=none loop hold other elements than those of a split=cols tile.
kda2.kernel @mma_fragment_split(%o: !kda2.tensor<[b, 16, 32], f32> {kda2.io = #kda2.io<out>}) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %o layout(row_major) packing(none) : !kda2.tensor<[b, 16, 32], f32>
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 32], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %c512 = arith.constant 512 : index
    kda2.loop fragment %e to %c512 columns(32) split(none) {
      %c32 = arith.constant 32 : index
      %r = kda2.div %e, %c32 : index, index -> index
      %c = kda2.rem %e, %c32 : index, index -> index
      // expected-error @below {{'kda2.load' op reaches an mma register tile in a fragment loop over a tile of another split (the threads hold different elements)}}
      %v = kda2.load %T[%r, %c] : !kda2.tensor<[16, 32], f32, reg> -> f32
      kda2.store %v, %o[%r, %c] : f32, !kda2.tensor<[b, 16, 32], f32>
    }
  }
  kda2.return
}

// -----

// The partial sums live in static shared memory, or in dynamic shared
// memory after the buffers when larger than static memory holds; four
// warps' [16, 512] partials, twice (the halves successive reductions take
// in turn), are 262144 bytes, more than a block may hold.
kda2.kernel @mma_split_scratch(%w: !kda2.tensor<[b, 512, 64], bf16>) attributes {grid = ["b"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %w layout(row_major) packing(none) : !kda2.tensor<[b, 512, 64], bf16>
  %W = kda2.smem_alloc size(65536) : !kda2.tensor<[512, 64], bf16, smem>
  %T = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 64], f32, reg>
  %U = kda2.reg_alloc {mma, split = "none"} : !kda2.tensor<[16, 512], f32, reg>
  %b = kda2.dim "b" : index
  kda2.loop block %i to %b {
    %t = kda2.load %w[] : !kda2.tensor<[b, 512, 64], bf16> -> tensor<512x64xbf16>
    kda2.store %t, %W[] : tensor<512x64xbf16>, !kda2.tensor<[512, 64], bf16, smem>
    %s = kda2.load %T[] : !kda2.tensor<[16, 64], f32, reg> -> tensor<16x64xf32>
    %sb = kda2.cast %s : tensor<16x64xf32> -> tensor<16x64xbf16>
    %bw = kda2.load %W[] : !kda2.tensor<[512, 64], bf16, smem> -> tensor<512x64xbf16>
    // expected-error @below {{'kda2.matmul' op the partial sums of the products that contract over split=cols tiles need 262144 bytes of shared memory (two halves of W·M·N floats for the largest reduction), more than the 232448 a block may hold on sm_90a; split smaller products}}
    %m = kda2.matmul %sb, %bw {transpose_b} : tensor<16x64xbf16>, tensor<512x64xbf16> -> tensor<16x512xf32>
    kda2.store %m, %U[] : tensor<16x512xf32>, !kda2.tensor<[16, 512], f32, reg>
  }
  kda2.return
}

// -----

// A window is the source of a whole-tile copy into a shared buffer; read
// into a thread's registers it is an error, not a silent element load.
kda2.kernel @window_in_registers(%v: !kda2.tensor<[t, 64], bf16>, %o: !kda2.tensor<[16, 64], f32> {kda2.io = #kda2.io<out>}) attributes {pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[t, 64], bf16>
  kda2.gmem %o layout(row_major) packing(none) : !kda2.tensor<[16, 64], f32>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    kda2.loop thread %x to %c1 {
      // expected-error @below {{'kda2.load' op reads a window: it is copied whole into a shared buffer, in uniform code (a kda2.store of it, outside thread loops)}}
      %w = kda2.load %v[%x] {windows = array<i64: 16>} : !kda2.tensor<[t, 64], bf16> -> tensor<16x64xbf16>
    }
  }
  kda2.return
}

// -----

// Ready flags: the block meets at a signal (its stores, then the flag), so
// every thread must reach it: not in a thread loop. Likewise a wait outside
// a pipelined loop's top level.
kda2.kernel @signal_in_thread_loop(%x: !kda2.tensor<[n, 64], f32>, %y: !kda2.tensor<[n, 64], f32> {kda2.io = #kda2.io<out>}, %ready: !kda2.tensor<[n], i32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y, %ready layout(row_major) packing(none) : !kda2.tensor<[n, 64], f32>, !kda2.tensor<[n, 64], f32>, !kda2.tensor<[n], i32>
  %n = kda2.dim "n" : index
  %c64 = arith.constant 64 : index
  kda2.loop block %i to %n {
    kda2.loop thread %t to %c64 annotations [#kda2.coalesced_access<>] {
      %v = kda2.load %x[%i, %t] : !kda2.tensor<[n, 64], f32> -> f32
      kda2.store %v, %y[%i, %t] : f32, !kda2.tensor<[n, 64], f32>
      // expected-error @below {{'kda2.signal' op must be reached by every thread of the block (uniform code), not inside a thread loop}}
      kda2.signal %ready[%i] : !kda2.tensor<[n], i32>
    }
  }
  kda2.return
}

// -----

kda2.kernel @wait_in_thread_loop(%x: !kda2.tensor<[n, 64], f32>, %ready: !kda2.tensor<[n], i32>, %y: !kda2.tensor<[n, 64], f32> {kda2.io = #kda2.io<out>}) {
  kda2.gmem %x, %y, %ready layout(row_major) packing(none) : !kda2.tensor<[n, 64], f32>, !kda2.tensor<[n, 64], f32>, !kda2.tensor<[n], i32>
  %n = kda2.dim "n" : index
  %c64 = arith.constant 64 : index
  kda2.loop block %i to %n {
    kda2.loop thread %t to %c64 annotations [#kda2.coalesced_access<>] {
      // expected-error @below {{'kda2.wait' op must be reached by every thread of the block (uniform code), not inside a thread loop}}
      kda2.wait %ready[%i] : !kda2.tensor<[n], i32>
      %v = kda2.load %x[%i, %t] : !kda2.tensor<[n, 64], f32> -> f32
      kda2.store %v, %y[%i, %t] : f32, !kda2.tensor<[n, 64], f32>
    }
  }
  kda2.return
}
