module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_chunk_prep(%q: !kda2.tensor<[n, h, t, 128], bf16>, %k: !kda2.tensor<[n, h, t, 128], bf16>, %v: !kda2.tensor<[n, h, t, 128], bf16>, %g: !kda2.tensor<[n, h, t, 128], f32>, %beta: !kda2.tensor<[n, h, t], f32>, %scale: f32, %qd: !kda2.tensor<[n, h, nc, 16, 128], bf16> {kda2.io = #kda2.io<out>}, %kl: !kda2.tensor<[n, h, nc, 16, 128], bf16> {kda2.io = #kda2.io<out>}, %wn: !kda2.tensor<[n, h, nc, 16, 128], bf16> {kda2.io = #kda2.io<out>}, %tp: !kda2.tensor<[n, h, nc, 16, 16], bf16> {kda2.io = #kda2.io<out>}, %pb: !kda2.tensor<[n, h, nc, 16, 16], bf16> {kda2.io = #kda2.io<out>}, %gl: !kda2.tensor<[n, h, nc, 128], f32> {kda2.io = #kda2.io<out>}, %vc: !kda2.tensor<[n, h, ncv, 16, 32], bf16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["q", "k", "v", "g", "beta", "scale", "qd", "kl", "wn", "tp", "pb", "gl", "vc"], grid = ["n", "h"]} {
    kda2.gmem %q, %k, %v, %g layout(BSHD) packing(none) : !kda2.tensor<[n, h, t, 128], bf16>, !kda2.tensor<[n, h, t, 128], bf16>, !kda2.tensor<[n, h, t, 128], bf16>, !kda2.tensor<[n, h, t, 128], f32>
    kda2.gmem %beta layout(BSH) packing(none) : !kda2.tensor<[n, h, t], f32>
    kda2.gmem %qd, %kl, %wn, %tp, %pb, %gl, %vc layout(row_major) packing(none) : !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>, !kda2.tensor<[n, h, nc, 128], f32>, !kda2.tensor<[n, h, ncv, 16, 32], bf16>
    %Kd = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Ki = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Bt = kda2.smem_alloc size(256) : !kda2.tensor<[16], f32, smem>
    %A = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 16], f32, smem>
    %X = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 16], f32, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 16], bf16, smem>
    %Tn = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 16], bf16, smem>
    %P = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 16], f32, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 16], bf16, smem>
    %Gc = kda2.reg_alloc : !kda2.tensor<[16], f32, reg>
    %acc = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
    %0 = kda2.dim "nc" : index
    kda2.loop block %c to %0 annotations [#kda2.bank_conflict_free] {
      %c128 = arith.constant 128 : index
      kda2.loop thread %d to %c128 {
        %c0 = arith.constant 0 : index
        %cst = arith.constant 0.000000e+00 : f32
        kda2.store %cst, %acc[%c0] : f32, !kda2.tensor<[1], f32, reg>
        %c16_2 = arith.constant 16 : index
        kda2.loop serial %r to %c16_2 {
          %c0_5 = arith.constant 0 : index
          %c0_6 = arith.constant 0 : index
          %17 = kda2.load %acc[%c0_6] : !kda2.tensor<[1], f32, reg> -> f32
          %c16_7 = arith.constant 16 : index
          %18 = kda2.mul %c, %c16_7 : index, index -> index
          %19 = kda2.add %18, %r : index, index -> index
          %20 = kda2.load %g[%19, %d] : !kda2.tensor<[n, h, t, 128], f32> -> f32
          %21 = kda2.add %17, %20 : f32, f32 -> f32
          kda2.store %21, %acc[%c0_5] : f32, !kda2.tensor<[1], f32, reg>
          %c0_8 = arith.constant 0 : index
          %22 = kda2.load %acc[%c0_8] : !kda2.tensor<[1], f32, reg> -> f32
          kda2.store %22, %Gc[%r] : f32, !kda2.tensor<[16], f32, reg>
        }
        %c0_3 = arith.constant 0 : index
        %15 = kda2.load %acc[%c0_3] : !kda2.tensor<[1], f32, reg> -> f32
        %16 = kda2.exp %15 : f32
        kda2.store %16, %gl[%c, %d] : f32, !kda2.tensor<[n, h, nc, 128], f32>
        %c16_4 = arith.constant 16 : index
        kda2.loop serial %r to %c16_4 {
          %c16_5 = arith.constant 16 : index
          %17 = kda2.mul %c, %c16_5 : index, index -> index
          %18 = kda2.add %17, %r : index, index -> index
          %19 = kda2.load %k[%18, %d] : !kda2.tensor<[n, h, t, 128], bf16> -> bf16
          %20 = kda2.cast %19 : bf16 -> f32
          %21 = kda2.load %Gc[%r] : !kda2.tensor<[16], f32, reg> -> f32
          %22 = kda2.exp %21 : f32
          %23 = kda2.mul %20, %22 : f32, f32 -> f32
          %24 = kda2.cast %23 : f32 -> bf16
          kda2.store %24, %Kd[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
          %25 = kda2.load %Gc[%r] : !kda2.tensor<[16], f32, reg> -> f32
          %cst_6 = arith.constant 0.000000e+00 : f32
          %26 = kda2.sub %cst_6, %25 : f32, f32 -> f32
          %27 = kda2.exp %26 : f32
          %28 = kda2.mul %20, %27 : f32, f32 -> f32
          %29 = kda2.cast %28 : f32 -> bf16
          kda2.store %29, %Ki[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
          %c16_7 = arith.constant 16 : index
          %30 = kda2.mul %c, %c16_7 : index, index -> index
          %31 = kda2.add %30, %r : index, index -> index
          %32 = kda2.load %q[%31, %d] : !kda2.tensor<[n, h, t, 128], bf16> -> bf16
          %33 = kda2.cast %32 : bf16 -> f32
          %34 = kda2.load %Gc[%r] : !kda2.tensor<[16], f32, reg> -> f32
          %35 = kda2.exp %34 : f32
          %36 = kda2.mul %33, %35 : f32, f32 -> f32
          %37 = kda2.mul %36, %scale : f32, f32 -> f32
          %38 = kda2.cast %37 : f32 -> bf16
          kda2.store %38, %Qd[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
          %39 = kda2.load %Gc[%r] : !kda2.tensor<[16], f32, reg> -> f32
          %40 = kda2.sub %15, %39 : f32, f32 -> f32
          %41 = kda2.exp %40 : f32
          %42 = kda2.mul %20, %41 : f32, f32 -> f32
          %43 = kda2.cast %42 : f32 -> bf16
          kda2.store %43, %Kl[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
        }
      }
      %c16 = arith.constant 16 : index
      kda2.loop thread %r to %c16 {
        %c16_2 = arith.constant 16 : index
        %15 = kda2.mul %c, %c16_2 : index, index -> index
        %16 = kda2.add %15, %r : index, index -> index
        %17 = kda2.load %beta[%16] : !kda2.tensor<[n, h, t], f32> -> f32
        kda2.store %17, %Bt[%r] : f32, !kda2.tensor<[16], f32, smem>
      }
      %c128_0 = arith.constant 128 : index
      kda2.loop thread %x to %c128_0 {
        %c16_2 = arith.constant 16 : index
        %c128_3 = arith.constant 128 : index
        %15 = kda2.mul %c16_2, %c128_3 : index, index -> index
        %c128_4 = arith.constant 128 : index
        %16 = kda2.div %15, %c128_4 : index, index -> index
        kda2.loop serial %e to %16 {
          %c4 = arith.constant 4 : index
          %17 = kda2.mul %c, %c4 : index, index -> index
          %c128_5 = arith.constant 128 : index
          %18 = kda2.mul %e, %c128_5 : index, index -> index
          %19 = kda2.add %18, %x : index, index -> index
          %c16_6 = arith.constant 16 : index
          %c32 = arith.constant 32 : index
          %20 = kda2.mul %c16_6, %c32 : index, index -> index
          %21 = kda2.div %19, %20 : index, index -> index
          %22 = kda2.add %17, %21 : index, index -> index
          %c128_7 = arith.constant 128 : index
          %23 = kda2.mul %e, %c128_7 : index, index -> index
          %24 = kda2.add %23, %x : index, index -> index
          %c32_8 = arith.constant 32 : index
          %25 = kda2.div %24, %c32_8 : index, index -> index
          %c16_9 = arith.constant 16 : index
          %26 = kda2.rem %25, %c16_9 : index, index -> index
          %c32_10 = arith.constant 32 : index
          %27 = kda2.rem %x, %c32_10 : index, index -> index
          %c16_11 = arith.constant 16 : index
          %28 = kda2.mul %c, %c16_11 : index, index -> index
          %c128_12 = arith.constant 128 : index
          %29 = kda2.mul %e, %c128_12 : index, index -> index
          %30 = kda2.add %29, %x : index, index -> index
          %c32_13 = arith.constant 32 : index
          %31 = kda2.div %30, %c32_13 : index, index -> index
          %c16_14 = arith.constant 16 : index
          %32 = kda2.rem %31, %c16_14 : index, index -> index
          %33 = kda2.add %28, %32 : index, index -> index
          %c128_15 = arith.constant 128 : index
          %34 = kda2.mul %e, %c128_15 : index, index -> index
          %35 = kda2.add %34, %x : index, index -> index
          %c16_16 = arith.constant 16 : index
          %c32_17 = arith.constant 32 : index
          %36 = kda2.mul %c16_16, %c32_17 : index, index -> index
          %37 = kda2.div %35, %36 : index, index -> index
          %c32_18 = arith.constant 32 : index
          %38 = kda2.mul %37, %c32_18 : index, index -> index
          %c32_19 = arith.constant 32 : index
          %39 = kda2.rem %x, %c32_19 : index, index -> index
          %40 = kda2.add %38, %39 : index, index -> index
          %41 = kda2.load %v[%33, %40] : !kda2.tensor<[n, h, t, 128], bf16> -> bf16
          kda2.store %41, %vc[%22, %26, %27] : bf16, !kda2.tensor<[n, h, ncv, 16, 32], bf16>
        }
      }
      %1 = kda2.load %Kd[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
      %2 = kda2.load %Ki[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
      %3 = kda2.matmul %1, %2 {transpose_b} : tensor<16x128xbf16>, tensor<16x128xbf16> -> tensor<16x16xf32>
      kda2.store %3, %A[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32, smem>
      %4 = kda2.load %Qd[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
      %5 = kda2.load %Ki[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
      %6 = kda2.matmul %4, %5 {transpose_b} : tensor<16x128xbf16>, tensor<16x128xbf16> -> tensor<16x16xf32>
      kda2.store %6, %P[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32, smem>
      %c16_1 = arith.constant 16 : index
      kda2.loop thread %s to %c16_1 {
        %c16_2 = arith.constant 16 : index
        kda2.loop serial %i to %c16_2 {
          %c0 = arith.constant 0 : index
          %cst = arith.constant 0.000000e+00 : f32
          kda2.store %cst, %acc[%c0] : f32, !kda2.tensor<[1], f32, reg>
          kda2.loop serial %j to %i {
            %c0_7 = arith.constant 0 : index
            %c0_8 = arith.constant 0 : index
            %21 = kda2.load %acc[%c0_8] : !kda2.tensor<[1], f32, reg> -> f32
            %22 = kda2.load %A[%i, %j] : !kda2.tensor<[16, 16], f32, smem> -> f32
            %23 = kda2.load %X[%j, %s] : !kda2.tensor<[16, 16], f32, smem> -> f32
            %24 = kda2.mul %22, %23 : f32, f32 -> f32
            %25 = kda2.add %21, %24 : f32, f32 -> f32
            kda2.store %25, %acc[%c0_7] : f32, !kda2.tensor<[1], f32, reg>
          }
          %15 = kda2.cmp eq %i, %s : index, index -> i1
          %cst_4 = arith.constant 1.000000e+00 : f32
          %cst_5 = arith.constant 0.000000e+00 : f32
          %16 = kda2.select %15, %cst_4, %cst_5 : i1, f32, f32 -> f32
          %17 = kda2.load %Bt[%i] : !kda2.tensor<[16], f32, smem> -> f32
          %c0_6 = arith.constant 0 : index
          %18 = kda2.load %acc[%c0_6] : !kda2.tensor<[1], f32, reg> -> f32
          %19 = kda2.mul %17, %18 : f32, f32 -> f32
          %20 = kda2.sub %16, %19 : f32, f32 -> f32
          kda2.store %20, %X[%i, %s] : f32, !kda2.tensor<[16, 16], f32, smem>
        }
        %c16_3 = arith.constant 16 : index
        kda2.loop serial %i to %c16_3 {
          %15 = kda2.load %X[%i, %s] : !kda2.tensor<[16, 16], f32, smem> -> f32
          %16 = kda2.load %Bt[%s] : !kda2.tensor<[16], f32, smem> -> f32
          %17 = kda2.mul %15, %16 : f32, f32 -> f32
          %18 = kda2.cast %17 : f32 -> bf16
          kda2.store %18, %Tp[%i, %s] : bf16, !kda2.tensor<[16, 16], bf16, smem>
          %19 = kda2.load %X[%i, %s] : !kda2.tensor<[16, 16], f32, smem> -> f32
          %20 = kda2.load %Bt[%s] : !kda2.tensor<[16], f32, smem> -> f32
          %21 = kda2.mul %19, %20 : f32, f32 -> f32
          %cst = arith.constant 0.000000e+00 : f32
          %22 = kda2.sub %cst, %21 : f32, f32 -> f32
          %23 = kda2.cast %22 : f32 -> bf16
          kda2.store %23, %Tn[%i, %s] : bf16, !kda2.tensor<[16, 16], bf16, smem>
          %24 = kda2.cmp le %s, %i : index, index -> i1
          %25 = kda2.load %P[%i, %s] : !kda2.tensor<[16, 16], f32, smem> -> f32
          %cst_4 = arith.constant 0.000000e+00 : f32
          %26 = kda2.select %24, %25, %cst_4 : i1, f32, f32 -> f32
          %27 = kda2.cast %26 : f32 -> bf16
          kda2.store %27, %Pb[%i, %s] : bf16, !kda2.tensor<[16, 16], bf16, smem>
        }
      }
      %7 = kda2.load %Tn[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
      %8 = kda2.load %Kd[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
      %9 = kda2.matmul %7, %8 : tensor<16x16xbf16>, tensor<16x128xbf16> -> tensor<16x128xf32>
      %10 = kda2.cast %9 : tensor<16x128xf32> -> tensor<16x128xbf16>
      kda2.store %10, %wn[%c] : tensor<16x128xbf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>
      %11 = kda2.load %Qd[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
      kda2.store %11, %qd[%c] : tensor<16x128xbf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>
      %12 = kda2.load %Kl[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
      kda2.store %12, %kl[%c] : tensor<16x128xbf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>
      %13 = kda2.load %Tp[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
      kda2.store %13, %tp[%c] : tensor<16x16xbf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>
      %14 = kda2.load %Pb[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
      kda2.store %14, %pb[%c] : tensor<16x16xbf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>
    }
    kda2.return
  }
  kda2.kernel @kda_chunk_scan(%vc: !kda2.tensor<[n, h, ncv, 16, 32], bf16>, %qd: !kda2.tensor<[n, h, nc, 16, 128], bf16>, %kl: !kda2.tensor<[n, h, nc, 16, 128], bf16>, %wn: !kda2.tensor<[n, h, nc, 16, 128], bf16>, %tp: !kda2.tensor<[n, h, nc, 16, 16], bf16>, %pb: !kda2.tensor<[n, h, nc, 16, 16], bf16>, %gl: !kda2.tensor<[n, h, nc, 128], f32>, %h0: !kda2.tensor<[n, h, 128, 128], f32>, %o: !kda2.tensor<[n, h, t, 128], bf16> {kda2.io = #kda2.io<out>}, %ht: !kda2.tensor<[n, h, 128, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["vc", "qd", "kl", "wn", "tp", "pb", "gl", "h0", "o", "ht"], grid = ["n", "h"]} {
    kda2.gmem %o layout(BSHD) packing(none) : !kda2.tensor<[n, h, t, 128], bf16>
    kda2.gmem %vc, %qd, %kl, %wn, %tp, %pb, %gl, %h0, %ht layout(row_major) packing(none) : !kda2.tensor<[n, h, ncv, 16, 32], bf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>, !kda2.tensor<[n, h, nc, 128], f32>, !kda2.tensor<[n, h, 128, 128], f32>, !kda2.tensor<[n, h, 128, 128], f32>
    %S = kda2.smem_alloc size(16384) : !kda2.tensor<[128, 32], f32, smem>
    %Sb = kda2.smem_alloc size(8192) : !kda2.tensor<[128, 32], bf16, smem>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Wn = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 16], bf16, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 16], bf16, smem>
    %Gl = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %Vs = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 32], bf16, smem>
    %U = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 32], f32, smem>
    %Ub = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 32], bf16, smem>
    %O = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 32], f32, smem>
    %c4 = arith.constant 4 : index
    kda2.loop block %vb to %c4 annotations [#kda2.pragma<tma_coalesce>] {
      %c128 = arith.constant 128 : index
      kda2.loop thread %x to %c128 {
        %c128_1 = arith.constant 128 : index
        %c32 = arith.constant 32 : index
        %1 = kda2.mul %c128_1, %c32 : index, index -> index
        %c128_2 = arith.constant 128 : index
        %2 = kda2.div %1, %c128_2 : index, index -> index
        kda2.loop serial %e to %2 {
          %c32_3 = arith.constant 32 : index
          %c128_4 = arith.constant 128 : index
          %3 = kda2.div %c128_4, %c32_3 : index, index -> index
          %4 = kda2.mul %e, %3 : index, index -> index
          %c32_5 = arith.constant 32 : index
          %5 = kda2.div %x, %c32_5 : index, index -> index
          %6 = kda2.add %4, %5 : index, index -> index
          %c32_6 = arith.constant 32 : index
          %7 = kda2.rem %x, %c32_6 : index, index -> index
          %c32_7 = arith.constant 32 : index
          %c128_8 = arith.constant 128 : index
          %8 = kda2.div %c128_8, %c32_7 : index, index -> index
          %9 = kda2.mul %e, %8 : index, index -> index
          %c32_9 = arith.constant 32 : index
          %10 = kda2.div %x, %c32_9 : index, index -> index
          %11 = kda2.add %9, %10 : index, index -> index
          %c32_10 = arith.constant 32 : index
          %12 = kda2.mul %vb, %c32_10 : index, index -> index
          %c32_11 = arith.constant 32 : index
          %13 = kda2.rem %x, %c32_11 : index, index -> index
          %14 = kda2.add %12, %13 : index, index -> index
          %15 = kda2.load %h0[%11, %14] : !kda2.tensor<[n, h, 128, 128], f32> -> f32
          kda2.store %15, %S[%6, %7] : f32, !kda2.tensor<[128, 32], f32, smem>
        }
      }
      %0 = kda2.dim "nc" : index
      kda2.loop serial %c to %0 {
        %1 = kda2.load %qd[%c] : !kda2.tensor<[n, h, nc, 16, 128], bf16> -> tensor<16x128xbf16>
        kda2.store %1, %Qd[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
        %2 = kda2.load %kl[%c] : !kda2.tensor<[n, h, nc, 16, 128], bf16> -> tensor<16x128xbf16>
        kda2.store %2, %Kl[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
        %3 = kda2.load %wn[%c] : !kda2.tensor<[n, h, nc, 16, 128], bf16> -> tensor<16x128xbf16>
        kda2.store %3, %Wn[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
        %4 = kda2.load %tp[%c] : !kda2.tensor<[n, h, nc, 16, 16], bf16> -> tensor<16x16xbf16>
        kda2.store %4, %Tp[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
        %5 = kda2.load %pb[%c] : !kda2.tensor<[n, h, nc, 16, 16], bf16> -> tensor<16x16xbf16>
        kda2.store %5, %Pb[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
        %6 = kda2.load %gl[%c] : !kda2.tensor<[n, h, nc, 128], f32> -> tensor<128xf32>
        kda2.store %6, %Gl[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %c4_1 = arith.constant 4 : index
        %7 = kda2.mul %c, %c4_1 : index, index -> index
        %8 = kda2.add %7, %vb : index, index -> index
        %9 = kda2.load %vc[%8] : !kda2.tensor<[n, h, ncv, 16, 32], bf16> -> tensor<16x32xbf16>
        kda2.store %9, %Vs[] : tensor<16x32xbf16>, !kda2.tensor<[16, 32], bf16, smem>
        %c128_2 = arith.constant 128 : index
        kda2.loop thread %x to %c128_2 {
          %c128_5 = arith.constant 128 : index
          %c32 = arith.constant 32 : index
          %28 = kda2.mul %c128_5, %c32 : index, index -> index
          %c128_6 = arith.constant 128 : index
          %29 = kda2.div %28, %c128_6 : index, index -> index
          kda2.loop serial %e to %29 {
            %c32_7 = arith.constant 32 : index
            %c128_8 = arith.constant 128 : index
            %30 = kda2.div %c128_8, %c32_7 : index, index -> index
            %31 = kda2.mul %e, %30 : index, index -> index
            %c32_9 = arith.constant 32 : index
            %32 = kda2.div %x, %c32_9 : index, index -> index
            %33 = kda2.add %31, %32 : index, index -> index
            %c32_10 = arith.constant 32 : index
            %34 = kda2.rem %x, %c32_10 : index, index -> index
            %c32_11 = arith.constant 32 : index
            %c128_12 = arith.constant 128 : index
            %35 = kda2.div %c128_12, %c32_11 : index, index -> index
            %36 = kda2.mul %e, %35 : index, index -> index
            %c32_13 = arith.constant 32 : index
            %37 = kda2.div %x, %c32_13 : index, index -> index
            %38 = kda2.add %36, %37 : index, index -> index
            %c32_14 = arith.constant 32 : index
            %39 = kda2.rem %x, %c32_14 : index, index -> index
            %40 = kda2.load %S[%38, %39] : !kda2.tensor<[128, 32], f32, smem> -> f32
            %41 = kda2.cast %40 : f32 -> bf16
            kda2.store %41, %Sb[%33, %34] : bf16, !kda2.tensor<[128, 32], bf16, smem>
          }
        }
        %10 = kda2.load %Tp[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
        %11 = kda2.load %Vs[] : !kda2.tensor<[16, 32], bf16, smem> -> tensor<16x32xbf16>
        %12 = kda2.matmul %10, %11 : tensor<16x16xbf16>, tensor<16x32xbf16> -> tensor<16x32xf32>
        kda2.store %12, %U[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %13 = kda2.load %Wn[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %14 = kda2.load %Sb[] : !kda2.tensor<[128, 32], bf16, smem> -> tensor<128x32xbf16>
        %15 = kda2.load %U[] : !kda2.tensor<[16, 32], f32, smem> -> tensor<16x32xf32>
        %16 = kda2.matmul %13, %14 acc(%15) : tensor<16x128xbf16>, tensor<128x32xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %16, %U[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %17 = kda2.load %Qd[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %18 = kda2.load %Sb[] : !kda2.tensor<[128, 32], bf16, smem> -> tensor<128x32xbf16>
        %19 = kda2.matmul %17, %18 : tensor<16x128xbf16>, tensor<128x32xbf16> -> tensor<16x32xf32>
        kda2.store %19, %O[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %c128_3 = arith.constant 128 : index
        kda2.loop thread %x to %c128_3 {
          %c16 = arith.constant 16 : index
          %c32 = arith.constant 32 : index
          %28 = kda2.mul %c16, %c32 : index, index -> index
          %c128_5 = arith.constant 128 : index
          %29 = kda2.div %28, %c128_5 : index, index -> index
          kda2.loop serial %e to %29 {
            %c32_9 = arith.constant 32 : index
            %c128_10 = arith.constant 128 : index
            %32 = kda2.div %c128_10, %c32_9 : index, index -> index
            %33 = kda2.mul %e, %32 : index, index -> index
            %c32_11 = arith.constant 32 : index
            %34 = kda2.div %x, %c32_11 : index, index -> index
            %35 = kda2.add %33, %34 : index, index -> index
            %c32_12 = arith.constant 32 : index
            %36 = kda2.rem %x, %c32_12 : index, index -> index
            %c32_13 = arith.constant 32 : index
            %c128_14 = arith.constant 128 : index
            %37 = kda2.div %c128_14, %c32_13 : index, index -> index
            %38 = kda2.mul %e, %37 : index, index -> index
            %c32_15 = arith.constant 32 : index
            %39 = kda2.div %x, %c32_15 : index, index -> index
            %40 = kda2.add %38, %39 : index, index -> index
            %c32_16 = arith.constant 32 : index
            %41 = kda2.rem %x, %c32_16 : index, index -> index
            %42 = kda2.load %U[%40, %41] : !kda2.tensor<[16, 32], f32, smem> -> f32
            %43 = kda2.cast %42 : f32 -> bf16
            kda2.store %43, %Ub[%35, %36] : bf16, !kda2.tensor<[16, 32], bf16, smem>
          }
          %c128_6 = arith.constant 128 : index
          %c32_7 = arith.constant 32 : index
          %30 = kda2.mul %c128_6, %c32_7 : index, index -> index
          %c128_8 = arith.constant 128 : index
          %31 = kda2.div %30, %c128_8 : index, index -> index
          kda2.loop serial %e to %31 {
            %c32_9 = arith.constant 32 : index
            %c128_10 = arith.constant 128 : index
            %32 = kda2.div %c128_10, %c32_9 : index, index -> index
            %33 = kda2.mul %e, %32 : index, index -> index
            %c32_11 = arith.constant 32 : index
            %34 = kda2.div %x, %c32_11 : index, index -> index
            %35 = kda2.add %33, %34 : index, index -> index
            %c32_12 = arith.constant 32 : index
            %36 = kda2.rem %x, %c32_12 : index, index -> index
            %c32_13 = arith.constant 32 : index
            %c128_14 = arith.constant 128 : index
            %37 = kda2.div %c128_14, %c32_13 : index, index -> index
            %38 = kda2.mul %e, %37 : index, index -> index
            %c32_15 = arith.constant 32 : index
            %39 = kda2.div %x, %c32_15 : index, index -> index
            %40 = kda2.add %38, %39 : index, index -> index
            %c32_16 = arith.constant 32 : index
            %41 = kda2.rem %x, %c32_16 : index, index -> index
            %42 = kda2.load %S[%40, %41] : !kda2.tensor<[128, 32], f32, smem> -> f32
            %c32_17 = arith.constant 32 : index
            %c128_18 = arith.constant 128 : index
            %43 = kda2.div %c128_18, %c32_17 : index, index -> index
            %44 = kda2.mul %e, %43 : index, index -> index
            %c32_19 = arith.constant 32 : index
            %45 = kda2.div %x, %c32_19 : index, index -> index
            %46 = kda2.add %44, %45 : index, index -> index
            %47 = kda2.load %Gl[%46] : !kda2.tensor<[128], f32, smem> -> f32
            %48 = kda2.mul %42, %47 : f32, f32 -> f32
            kda2.store %48, %S[%35, %36] : f32, !kda2.tensor<[128, 32], f32, smem>
          }
        }
        %20 = kda2.load %Pb[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
        %21 = kda2.load %Ub[] : !kda2.tensor<[16, 32], bf16, smem> -> tensor<16x32xbf16>
        %22 = kda2.load %O[] : !kda2.tensor<[16, 32], f32, smem> -> tensor<16x32xf32>
        %23 = kda2.matmul %20, %21 acc(%22) : tensor<16x16xbf16>, tensor<16x32xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %23, %O[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %24 = kda2.load %Kl[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %25 = kda2.load %Ub[] : !kda2.tensor<[16, 32], bf16, smem> -> tensor<16x32xbf16>
        %26 = kda2.load %S[] : !kda2.tensor<[128, 32], f32, smem> -> tensor<128x32xf32>
        %27 = kda2.matmul %24, %25 acc(%26) {transpose_a} : tensor<16x128xbf16>, tensor<16x32xbf16>, tensor<128x32xf32> -> tensor<128x32xf32>
        kda2.store %27, %S[] : tensor<128x32xf32>, !kda2.tensor<[128, 32], f32, smem>
        %c128_4 = arith.constant 128 : index
        kda2.loop thread %x to %c128_4 {
          %c16 = arith.constant 16 : index
          %c32 = arith.constant 32 : index
          %28 = kda2.mul %c16, %c32 : index, index -> index
          %c128_5 = arith.constant 128 : index
          %29 = kda2.div %28, %c128_5 : index, index -> index
          kda2.loop serial %e to %29 {
            %c16_6 = arith.constant 16 : index
            %30 = kda2.mul %c, %c16_6 : index, index -> index
            %c32_7 = arith.constant 32 : index
            %c128_8 = arith.constant 128 : index
            %31 = kda2.div %c128_8, %c32_7 : index, index -> index
            %32 = kda2.mul %e, %31 : index, index -> index
            %33 = kda2.add %30, %32 : index, index -> index
            %c32_9 = arith.constant 32 : index
            %34 = kda2.div %x, %c32_9 : index, index -> index
            %35 = kda2.add %33, %34 : index, index -> index
            %c32_10 = arith.constant 32 : index
            %36 = kda2.mul %vb, %c32_10 : index, index -> index
            %c32_11 = arith.constant 32 : index
            %37 = kda2.rem %x, %c32_11 : index, index -> index
            %38 = kda2.add %36, %37 : index, index -> index
            %c32_12 = arith.constant 32 : index
            %c128_13 = arith.constant 128 : index
            %39 = kda2.div %c128_13, %c32_12 : index, index -> index
            %40 = kda2.mul %e, %39 : index, index -> index
            %c32_14 = arith.constant 32 : index
            %41 = kda2.div %x, %c32_14 : index, index -> index
            %42 = kda2.add %40, %41 : index, index -> index
            %c32_15 = arith.constant 32 : index
            %43 = kda2.rem %x, %c32_15 : index, index -> index
            %44 = kda2.load %O[%42, %43] : !kda2.tensor<[16, 32], f32, smem> -> f32
            %45 = kda2.cast %44 : f32 -> bf16
            kda2.store %45, %o[%35, %38] : bf16, !kda2.tensor<[n, h, t, 128], bf16>
          }
        }
      }
      %c128_0 = arith.constant 128 : index
      kda2.loop thread %x to %c128_0 {
        %c128_1 = arith.constant 128 : index
        %c32 = arith.constant 32 : index
        %1 = kda2.mul %c128_1, %c32 : index, index -> index
        %c128_2 = arith.constant 128 : index
        %2 = kda2.div %1, %c128_2 : index, index -> index
        kda2.loop serial %e to %2 {
          %c32_3 = arith.constant 32 : index
          %c128_4 = arith.constant 128 : index
          %3 = kda2.div %c128_4, %c32_3 : index, index -> index
          %4 = kda2.mul %e, %3 : index, index -> index
          %c32_5 = arith.constant 32 : index
          %5 = kda2.div %x, %c32_5 : index, index -> index
          %6 = kda2.add %4, %5 : index, index -> index
          %c32_6 = arith.constant 32 : index
          %7 = kda2.mul %vb, %c32_6 : index, index -> index
          %c32_7 = arith.constant 32 : index
          %8 = kda2.rem %x, %c32_7 : index, index -> index
          %9 = kda2.add %7, %8 : index, index -> index
          %c32_8 = arith.constant 32 : index
          %c128_9 = arith.constant 128 : index
          %10 = kda2.div %c128_9, %c32_8 : index, index -> index
          %11 = kda2.mul %e, %10 : index, index -> index
          %c32_10 = arith.constant 32 : index
          %12 = kda2.div %x, %c32_10 : index, index -> index
          %13 = kda2.add %11, %12 : index, index -> index
          %c32_11 = arith.constant 32 : index
          %14 = kda2.rem %x, %c32_11 : index, index -> index
          %15 = kda2.load %S[%13, %14] : !kda2.tensor<[128, 32], f32, smem> -> f32
          kda2.store %15, %ht[%6, %9] : f32, !kda2.tensor<[n, h, 128, 128], f32>
        }
      }
    }
    kda2.return
  }
}
