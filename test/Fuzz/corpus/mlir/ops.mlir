// RUN: kda2-opt %s | kda2-opt | FileCheck %s
// RUN: kda2-opt %s --mlir-print-op-generic | kda2-opt | FileCheck %s
// Round trip of every kda2 op, attribute and type.

module attributes {kda2.target = "H200-SXM"} {

// CHECK-LABEL: kda2.kernel @delta_softmax
// CHECK-SAME: %[[Q:.*]]: !kda2.tensor<[batch, head, seq_q, dim], f16>
// CHECK-SAME: {kda2.io = #kda2.io<out>}
// CHECK-SAME: attributes {grid = ["batch", "head"]}
kda2.kernel @delta_softmax(%q: !kda2.tensor<[batch, head, seq_q, dim], f16>,
                           %k: !kda2.tensor<[batch, head, seq_k, dim], f16>,
                           %mask: !kda2.tensor<[batch, head, seq_q, seq_k], ui8>,
                           %out: !kda2.tensor<[batch, head, seq_q, seq_k], f16> {kda2.io = #kda2.io<out>})
    attributes {grid = ["batch", "head"]} {
  // CHECK: kda2.gmem %[[Q]], %{{.*}}, %{{.*}} layout(BSHD) packing(none)
  kda2.gmem %q, %k, %mask layout(BSHD) packing(none)
      : !kda2.tensor<[batch, head, seq_q, dim], f16>,
        !kda2.tensor<[batch, head, seq_k, dim], f16>,
        !kda2.tensor<[batch, head, seq_q, seq_k], ui8>
  // CHECK: %[[S:.*]] = kda2.smem_alloc size(131072) : !kda2.tensor<[32, 32], f32, smem>
  %s = kda2.smem_alloc size(131072) : !kda2.tensor<[32, 32], f32, smem>
  // CHECK: kda2.reg_alloc : !kda2.tensor<[16, 8], f32, reg>
  %r = kda2.reg_alloc : !kda2.tensor<[16, 8], f32, reg>
  // CHECK: kda2.dim "seq_q" : index
  %sq = kda2.dim "seq_q" : index
  %c32 = arith.constant 32 : index
  // CHECK: kda2.loop block %[[I:.*]] to %{{.*}} annotations [#kda2.warp_reduce, #kda2.pragma<l2_prefetch>] {
  kda2.loop block %i to %c32 annotations [#kda2.warp_reduce, #kda2.pragma<l2_prefetch>] {
    // CHECK: kda2.loop thread %[[J:.*]] to
    kda2.loop thread %j to %c32 {
      // CHECK: kda2.load %[[Q]][%[[I]]] : !kda2.tensor<[batch, head, seq_q, dim], f16> -> tensor<?xf16>
      %qi = kda2.load %q[%i] : !kda2.tensor<[batch, head, seq_q, dim], f16> -> tensor<?xf16>
      %kj = kda2.load %k[%j] : !kda2.tensor<[batch, head, seq_k, dim], f16> -> tensor<?xf16>
      // CHECK: kda2.mul {{.*}} : tensor<?xf16>, tensor<?xf16> -> tensor<?xf16>
      %p = kda2.mul %qi, %kj : tensor<?xf16>, tensor<?xf16> -> tensor<?xf16>
      // CHECK: kda2.reduce sum {{.*}} : tensor<?xf16> -> f16
      %d = kda2.reduce sum %p : tensor<?xf16> -> f16
      %m = kda2.load %mask[%i, %j] : !kda2.tensor<[batch, head, seq_q, seq_k], ui8> -> ui8
      // CHECK: kda2.delta_masked {{.*}} mask_type(uint8) : f16, ui8
      %v = kda2.delta_masked %d, %m mask_type(uint8) : f16, ui8
      // CHECK: kda2.cast {{.*}} : f16 -> f32
      %f = kda2.cast %v : f16 -> f32
      // CHECK: kda2.store {{.*}}, %[[S]][%[[I]], %[[J]]] : f32, !kda2.tensor<[32, 32], f32, smem>
      kda2.store %f, %s[%i, %j] : f32, !kda2.tensor<[32, 32], f32, smem>
    }
  }
  // CHECK: annotations [#kda2.bank_conflict_free, #kda2.coalesced_access<dim = "seq_q", modulus = 32, fallback = padding_align32>, #kda2.tma_bound<128 x 128>, #kda2.shape_hint<"seq_q", [128, 256, 512]>]
  kda2.loop block %i to %sq annotations [#kda2.bank_conflict_free,
      #kda2.coalesced_access<dim = "seq_q", modulus = 32, fallback = padding_align32>,
      #kda2.tma_bound<128 x 128>, #kda2.shape_hint<"seq_q", [128, 256, 512]>] {
    %c0 = arith.constant 0 : index
    %row = kda2.load %s[%c0] : !kda2.tensor<[32, 32], f32, smem> -> tensor<32xf32>
    // CHECK: kda2.reduce max
    %mx = kda2.reduce max %row : tensor<32xf32> -> f32
    // CHECK: kda2.sub {{.*}} : tensor<32xf32>, f32 -> tensor<32xf32>
    %sh = kda2.sub %row, %mx : tensor<32xf32>, f32 -> tensor<32xf32>
    // CHECK: kda2.exp {{.*}} : tensor<32xf32>
    %e = kda2.exp %sh : tensor<32xf32>
    %sum = kda2.reduce sum %e : tensor<32xf32> -> f32
    // CHECK: kda2.div
    %o = kda2.div %e, %sum : tensor<32xf32>, f32 -> tensor<32xf32>
    %oh = kda2.cast %o : tensor<32xf32> -> tensor<32xf16>
    %c = kda2.cmp gt %mx, %sum : f32, f32 -> i1
    // CHECK: kda2.select {{.*}} : i1, f32, f32 -> f32
    %sel = kda2.select %c, %mx, %sum : i1, f32, f32 -> f32
    %a = kda2.add %sel, %mx : f32, f32 -> f32
    %mn = kda2.min %a, %mx : f32, f32 -> f32
    %mxx = kda2.max %mn, %mx : f32, f32 -> f32
    %rm = kda2.rem %mxx, %mx : f32, f32 -> f32
    // CHECK: kda2.counter "sum_exp", {{.*}} : f32
    kda2.counter "sum_exp", %rm : f32
  }
  kda2.return
}

// CHECK-LABEL: kda2.kernel @tile_ops
kda2.kernel @tile_ops(%x: !kda2.tensor<[n, 64, 64], bf16>,
                      %y: !kda2.tensor<[n, 64, 64], f32> {kda2.io = #kda2.io<inout>})
    attributes {grid = ["n"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %x layout(row_major) packing(vnni4) : !kda2.tensor<[n, 64, 64], bf16>
  %c1 = arith.constant 1 : index
  kda2.loop warp %w to %c1 {
    %a = kda2.load %x[] : !kda2.tensor<[n, 64, 64], bf16> -> tensor<64x64xbf16>
    %acc = kda2.load %y[] : !kda2.tensor<[n, 64, 64], f32> -> tensor<64x64xf32>
    // CHECK: kda2.matmul {{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    %m = kda2.matmul %a, %a : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    // CHECK: kda2.matmul {{.*}} acc({{.*}}) {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    %m2 = kda2.matmul %a, %a acc(%m) {transpose_b} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    // CHECK: kda2.cumsum {{.*}} {exclusive} : tensor<64x64xf32>
    %cs = kda2.cumsum %m2 {axis = 0 : i64, exclusive} : tensor<64x64xf32>
    // CHECK: kda2.tri_solve {{.*}} {unit_diagonal} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    %t = kda2.tri_solve %cs, %acc {unit_diagonal} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    // CHECK: kda2.l2norm
    %l = kda2.l2norm %t : tensor<64x64xf32>
    %s1 = kda2.sigmoid %l : tensor<64x64xf32>
    %s2 = kda2.exp2 %s1 : tensor<64x64xf32>
    %s3 = kda2.neg %s2 : tensor<64x64xf32>
    %s4 = kda2.sqrt %s3 : tensor<64x64xf32>
    %s5 = kda2.rsqrt %s4 : tensor<64x64xf32>
    %s6 = kda2.softplus %s5 : tensor<64x64xf32>
    %s7 = kda2.log %s6 : tensor<64x64xf32>
    // CHECK: kda2.reduce sum {{.*}} {axis = 1 : i64} : tensor<64x64xf32> -> tensor<64xf32>
    %rows = kda2.reduce sum %s7 {axis = 1 : i64} : tensor<64x64xf32> -> tensor<64xf32>
    kda2.store %s7, %y[] : tensor<64x64xf32>, !kda2.tensor<[n, 64, 64], f32>
  }
  kda2.return
}

// A rank-0 shared buffer under $bank_conflict_free with a target profile
// (computing its padding used to crash the verifier).
// CHECK-LABEL: kda2.kernel @scalar_smem
kda2.kernel @scalar_smem(%x: !kda2.tensor<[4], f32>) {
  // CHECK: kda2.smem_alloc size(4) : !kda2.tensor<[], f32, smem>
  %s = kda2.smem_alloc size(4) : !kda2.tensor<[], f32, smem>
  %c1 = arith.constant 1 : index
  // CHECK: annotations [#kda2.bank_conflict_free]
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %v = kda2.load %s[] : !kda2.tensor<[], f32, smem> -> f32
  }
  kda2.return
}

// The integer compile-time bindings a kernel was built with (the .tirx
// importer's record of --tirx-bind), kept sorted by name.
// CHECK-LABEL: kda2.kernel @bound
// CHECK-SAME: attributes {kda2.bindings = {BS = 1 : i64, GF = 2 : i64, QKN = 0 : i64}}
kda2.kernel @bound(%x: !kda2.tensor<[4], f32>)
    attributes {kda2.bindings = {QKN = 0 : i64, GF = 2 : i64, BS = 1 : i64}} {
  %s = kda2.smem_alloc size(4) : !kda2.tensor<[], f32, smem>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %v = kda2.load %s[] : !kda2.tensor<[], f32, smem> -> f32
  }
  kda2.return
}

}
