module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_chunk_prep(%q: !kda2.tensor<[tt, hqk, 128], bf16> {kda2.stride = 7 : i64}, %k: !kda2.tensor<[tt, hqk, 128], bf16> {kda2.stride = 8 : i64}, %v: !kda2.tensor<[tt, h, 128], bf16> {kda2.stride = 9 : i64}, %g: !kda2.tensor<[tt, h, 128], f32> {kda2.range = array<f64: -5.000000e+00, 0.000000e+00>, kda2.stride = 10 : i64}, %beta: !kda2.tensor<[tt, h], f32> {kda2.stride = 11 : i64}, %cu_seqlens: !kda2.tensor<[np1], i32>, %scale: f32, %sq: i64, %sk: i64, %sv: i64, %sg: i64, %sb: i64, %qd: !kda2.tensor<[n, h, nc, 16, 128], bf16> {kda2.io = #kda2.io<out>}, %kl: !kda2.tensor<[n, h, nc, 16, 128], bf16> {kda2.io = #kda2.io<out>}, %wn: !kda2.tensor<[n, h, nc, 16, 128], bf16> {kda2.io = #kda2.io<out>}, %tp: !kda2.tensor<[n, h, nc, 16, 16], bf16> {kda2.io = #kda2.io<out>}, %pb: !kda2.tensor<[n, h, nc, 16, 16], bf16> {kda2.io = #kda2.io<out>}, %gl: !kda2.tensor<[n, h, nc, 128], f32> {kda2.io = #kda2.io<out>}, %vc: !kda2.tensor<[n, h, ncv, 16, 32], bf16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["q", "k", "v", "g", "beta", "cu_seqlens", "scale", "sq", "sk", "sv", "sg", "sb", "qd", "kl", "wn", "tp", "pb", "gl", "vc"], grid = ["n", "h"], kda2.bindings = {C = 16 : i64, GB = 5 : i64, K = 128 : i64, NVB = 4 : i64, V = 128 : i64, VB = 32 : i64}} {
    kda2.gmem %q layout(row_major) packing(none) : !kda2.tensor<[tt, hqk, 128], bf16>
    kda2.gmem %k layout(row_major) packing(none) : !kda2.tensor<[tt, hqk, 128], bf16>
    kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[tt, h, 128], bf16>
    kda2.gmem %beta layout(row_major) packing(none) : !kda2.tensor<[tt, h], f32>
    kda2.gmem %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[np1], i32>
    kda2.gmem %g layout(row_major) packing(none) : !kda2.tensor<[tt, h, 128], f32>
    kda2.gmem %qd, %kl, %wn, %tp, %pb, %gl, %vc layout(row_major) packing(none) : !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>, !kda2.tensor<[n, h, nc, 128], f32>, !kda2.tensor<[n, h, ncv, 16, 32], bf16>
    %Kd = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Ki = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Km = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Qm = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Bt = kda2.smem_alloc size(256) : !kda2.tensor<[16], f32, smem>
    %A = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 16], f32, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 16], bf16, smem>
    %Tn = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 16], bf16, smem>
    %P = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 16], f32, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 16], bf16, smem>
    %Dm = kda2.reg_alloc : !kda2.tensor<[16], f32, reg>
    %Pr = kda2.reg_alloc : !kda2.tensor<[16], f32, reg>
    %Xc = kda2.reg_alloc : !kda2.tensor<[16], f32, reg>
    %acc = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
    %0 = kda2.dim "nc" : index
    kda2.loop block %c to %0 annotations [#kda2.bank_conflict_free] {
      %1 = kda2.grid_index "n" : index
      %2 = kda2.grid_index "h" : index
      %3 = kda2.dim "hqk" : index
      %4 = kda2.mul %2, %3 : index, index -> index
      %5 = kda2.dim "h" : index
      %6 = kda2.div %4, %5 : index, index -> index
      %7 = kda2.load %cu_seqlens[%1] : !kda2.tensor<[np1], i32> -> i32
      %c1 = arith.constant 1 : index
      %8 = kda2.add %1, %c1 : index, index -> index
      %9 = kda2.load %cu_seqlens[%8] : !kda2.tensor<[np1], i32> -> i32
      %10 = kda2.sub %9, %7 : i32, i32 -> i32
      %c16 = arith.constant 16 : index
      %11 = kda2.mul %c, %c16 : index, index -> index
      %12 = kda2.cast %7 : i32 -> index
      %13 = kda2.add %12, %11 : index, index -> index
      %c16_0 = arith.constant 16 : index
      %14 = kda2.mul %c, %c16_0 : index, index -> index
      %15 = kda2.cast %10 : i32 -> index
      %16 = kda2.sub %15, %14 : index, index -> index
      %c1_1 = arith.constant 1 : index
      %17 = kda2.min %16, %c1_1 : index, index -> index
      kda2.loop serial %live to %17 {
        %c128 = arith.constant 128 : index
        kda2.loop thread %d to %c128 {
          %c0 = arith.constant 0 : index
          %cst = arith.constant 0.000000e+00 : f32
          kda2.store %cst, %acc[%c0] : f32, !kda2.tensor<[1], f32, reg>
          %c16_5 = arith.constant 16 : index
          %c2 = arith.constant 2 : index
          %32 = kda2.div %c16_5, %c2 : index, index -> index
          kda2.loop serial %r to %32 annotations [#kda2.pragma<unroll>] {
            %c0_16 = arith.constant 0 : index
            %c0_17 = arith.constant 0 : index
            %42 = kda2.load %acc[%c0_17] : !kda2.tensor<[1], f32, reg> -> f32
            %c16_18 = arith.constant 16 : index
            %43 = kda2.mul %c, %c16_18 : index, index -> index
            %44 = kda2.add %43, %r : index, index -> index
            %45 = kda2.cast %10 : i32 -> index
            %46 = kda2.cmp lt %44, %45 : index, index -> i1
            %47 = kda2.add %13, %r : index, index -> index
            %48 = kda2.load %g[%47, %2, %d] : !kda2.tensor<[tt, h, 128], f32> -> f32
            %cst_19 = arith.constant 0.000000e+00 : f32
            %49 = kda2.select %46, %48, %cst_19 : i1, f32, f32 -> f32
            %50 = kda2.add %42, %49 : f32, f32 -> f32
            kda2.store %50, %acc[%c0_16] : f32, !kda2.tensor<[1], f32, reg>
            %c0_20 = arith.constant 0 : index
            %51 = kda2.load %acc[%c0_20] : !kda2.tensor<[1], f32, reg> -> f32
            kda2.store %51, %Pr[%r] : f32, !kda2.tensor<[16], f32, reg>
          }
          %c0_6 = arith.constant 0 : index
          %33 = kda2.load %acc[%c0_6] : !kda2.tensor<[1], f32, reg> -> f32
          %34 = kda2.exp %33 : f32
          %c16_7 = arith.constant 16 : index
          %c2_8 = arith.constant 2 : index
          %35 = kda2.div %c16_7, %c2_8 : index, index -> index
          kda2.loop serial %r to %35 annotations [#kda2.pragma<unroll>] {
            %42 = kda2.load %Pr[%r] : !kda2.tensor<[16], f32, reg> -> f32
            %43 = kda2.sub %42, %33 : f32, f32 -> f32
            kda2.store %43, %Dm[%r] : f32, !kda2.tensor<[16], f32, reg>
          }
          %c0_9 = arith.constant 0 : index
          %cst_10 = arith.constant 0.000000e+00 : f32
          kda2.store %cst_10, %acc[%c0_9] : f32, !kda2.tensor<[1], f32, reg>
          %c16_11 = arith.constant 16 : index
          %c2_12 = arith.constant 2 : index
          %36 = kda2.div %c16_11, %c2_12 : index, index -> index
          kda2.loop serial %r to %36 annotations [#kda2.pragma<unroll>] {
            %c0_16 = arith.constant 0 : index
            %c0_17 = arith.constant 0 : index
            %42 = kda2.load %acc[%c0_17] : !kda2.tensor<[1], f32, reg> -> f32
            %c16_18 = arith.constant 16 : index
            %43 = kda2.mul %c, %c16_18 : index, index -> index
            %c16_19 = arith.constant 16 : index
            %c2_20 = arith.constant 2 : index
            %44 = kda2.div %c16_19, %c2_20 : index, index -> index
            %45 = kda2.add %43, %44 : index, index -> index
            %46 = kda2.add %45, %r : index, index -> index
            %47 = kda2.cast %10 : i32 -> index
            %48 = kda2.cmp lt %46, %47 : index, index -> i1
            %c16_21 = arith.constant 16 : index
            %c2_22 = arith.constant 2 : index
            %49 = kda2.div %c16_21, %c2_22 : index, index -> index
            %50 = kda2.add %13, %49 : index, index -> index
            %51 = kda2.add %50, %r : index, index -> index
            %52 = kda2.load %g[%51, %2, %d] : !kda2.tensor<[tt, h, 128], f32> -> f32
            %cst_23 = arith.constant 0.000000e+00 : f32
            %53 = kda2.select %48, %52, %cst_23 : i1, f32, f32 -> f32
            %54 = kda2.add %42, %53 : f32, f32 -> f32
            kda2.store %54, %acc[%c0_16] : f32, !kda2.tensor<[1], f32, reg>
            %c16_24 = arith.constant 16 : index
            %c2_25 = arith.constant 2 : index
            %55 = kda2.div %c16_24, %c2_25 : index, index -> index
            %56 = kda2.add %55, %r : index, index -> index
            %c0_26 = arith.constant 0 : index
            %57 = kda2.load %acc[%c0_26] : !kda2.tensor<[1], f32, reg> -> f32
            kda2.store %57, %Dm[%56] : f32, !kda2.tensor<[16], f32, reg>
          }
          %c0_13 = arith.constant 0 : index
          %37 = kda2.load %acc[%c0_13] : !kda2.tensor<[1], f32, reg> -> f32
          %38 = kda2.add %33, %37 : f32, f32 -> f32
          %39 = kda2.exp %38 : f32
          kda2.store %39, %gl[%c, %d] : f32, !kda2.tensor<[n, h, nc, 128], f32>
          %c0_14 = arith.constant 0 : index
          %40 = kda2.load %acc[%c0_14] : !kda2.tensor<[1], f32, reg> -> f32
          %41 = kda2.exp %40 : f32
          %c16_15 = arith.constant 16 : index
          kda2.loop serial %r to %c16_15 annotations [#kda2.pragma<unroll>] {
            %c16_16 = arith.constant 16 : index
            %42 = kda2.mul %c, %c16_16 : index, index -> index
            %43 = kda2.add %42, %r : index, index -> index
            %44 = kda2.cast %10 : i32 -> index
            %45 = kda2.cmp lt %43, %44 : index, index -> i1
            %46 = kda2.add %13, %r : index, index -> index
            %47 = kda2.load %k[%46, %6, %d] : !kda2.tensor<[tt, hqk, 128], bf16> -> bf16
            %48 = kda2.cast %47 : bf16 -> f32
            %cst_17 = arith.constant 0.000000e+00 : f32
            %49 = kda2.select %45, %48, %cst_17 : i1, f32, f32 -> f32
            %c16_18 = arith.constant 16 : index
            %50 = kda2.mul %c, %c16_18 : index, index -> index
            %51 = kda2.add %50, %r : index, index -> index
            %52 = kda2.cast %10 : i32 -> index
            %53 = kda2.cmp lt %51, %52 : index, index -> i1
            %54 = kda2.add %13, %r : index, index -> index
            %55 = kda2.load %q[%54, %6, %d] : !kda2.tensor<[tt, hqk, 128], bf16> -> bf16
            %56 = kda2.cast %55 : bf16 -> f32
            %cst_19 = arith.constant 0.000000e+00 : f32
            %57 = kda2.select %53, %56, %cst_19 : i1, f32, f32 -> f32
            %58 = kda2.mul %57, %scale : f32, f32 -> f32
            %59 = kda2.load %Dm[%r] : !kda2.tensor<[16], f32, reg> -> f32
            %60 = kda2.exp %59 : f32
            %61 = kda2.load %Dm[%r] : !kda2.tensor<[16], f32, reg> -> f32
            %cst_20 = arith.constant 0.000000e+00 : f32
            %62 = kda2.sub %cst_20, %61 : f32, f32 -> f32
            %63 = kda2.exp %62 : f32
            %64 = kda2.mul %34, %60 : f32, f32 -> f32
            %65 = kda2.mul %49, %64 : f32, f32 -> f32
            %66 = kda2.cast %65 : f32 -> bf16
            kda2.store %66, %Kd[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
            %67 = kda2.mul %58, %64 : f32, f32 -> f32
            %68 = kda2.cast %67 : f32 -> bf16
            kda2.store %68, %Qd[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
            %69 = kda2.mul %49, %60 : f32, f32 -> f32
            %70 = kda2.cast %69 : f32 -> bf16
            kda2.store %70, %Km[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
            %71 = kda2.mul %49, %63 : f32, f32 -> f32
            %72 = kda2.cast %71 : f32 -> bf16
            kda2.store %72, %Ki[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
            %73 = kda2.mul %58, %60 : f32, f32 -> f32
            %74 = kda2.cast %73 : f32 -> bf16
            kda2.store %74, %Qm[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
            %75 = kda2.mul %41, %63 : f32, f32 -> f32
            %76 = kda2.mul %49, %75 : f32, f32 -> f32
            %77 = kda2.cast %76 : f32 -> bf16
            kda2.store %77, %Kl[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
          }
        }
        %c16_2 = arith.constant 16 : index
        kda2.loop thread %r to %c16_2 {
          %c16_5 = arith.constant 16 : index
          %32 = kda2.mul %c, %c16_5 : index, index -> index
          %33 = kda2.add %32, %r : index, index -> index
          %34 = kda2.cast %10 : i32 -> index
          %35 = kda2.cmp lt %33, %34 : index, index -> i1
          %36 = kda2.add %13, %r : index, index -> index
          %37 = kda2.load %beta[%36, %2] : !kda2.tensor<[tt, h], f32> -> f32
          %cst = arith.constant 0.000000e+00 : f32
          %38 = kda2.select %35, %37, %cst : i1, f32, f32 -> f32
          kda2.store %38, %Bt[%r] : f32, !kda2.tensor<[16], f32, smem>
        }
        %c128_3 = arith.constant 128 : index
        kda2.loop thread %x to %c128_3 {
          %c16_5 = arith.constant 16 : index
          %c128_6 = arith.constant 128 : index
          %32 = kda2.mul %c16_5, %c128_6 : index, index -> index
          %c128_7 = arith.constant 128 : index
          %33 = kda2.div %32, %c128_7 : index, index -> index
          kda2.loop serial %e to %33 annotations [#kda2.pragma<unroll>] {
            %c128_8 = arith.constant 128 : index
            %34 = kda2.mul %e, %c128_8 : index, index -> index
            %35 = kda2.add %34, %x : index, index -> index
            %c32 = arith.constant 32 : index
            %36 = kda2.div %35, %c32 : index, index -> index
            %c16_9 = arith.constant 16 : index
            %37 = kda2.rem %36, %c16_9 : index, index -> index
            %c4 = arith.constant 4 : index
            %38 = kda2.mul %c, %c4 : index, index -> index
            %c128_10 = arith.constant 128 : index
            %39 = kda2.mul %e, %c128_10 : index, index -> index
            %40 = kda2.add %39, %x : index, index -> index
            %c16_11 = arith.constant 16 : index
            %c32_12 = arith.constant 32 : index
            %41 = kda2.mul %c16_11, %c32_12 : index, index -> index
            %42 = kda2.div %40, %41 : index, index -> index
            %43 = kda2.add %38, %42 : index, index -> index
            %c32_13 = arith.constant 32 : index
            %44 = kda2.rem %x, %c32_13 : index, index -> index
            %c16_14 = arith.constant 16 : index
            %45 = kda2.mul %c, %c16_14 : index, index -> index
            %46 = kda2.add %45, %37 : index, index -> index
            %47 = kda2.cast %10 : i32 -> index
            %48 = kda2.cmp lt %46, %47 : index, index -> i1
            %49 = kda2.add %13, %37 : index, index -> index
            %c128_15 = arith.constant 128 : index
            %50 = kda2.mul %e, %c128_15 : index, index -> index
            %51 = kda2.add %50, %x : index, index -> index
            %c16_16 = arith.constant 16 : index
            %c32_17 = arith.constant 32 : index
            %52 = kda2.mul %c16_16, %c32_17 : index, index -> index
            %53 = kda2.div %51, %52 : index, index -> index
            %c32_18 = arith.constant 32 : index
            %54 = kda2.mul %53, %c32_18 : index, index -> index
            %c32_19 = arith.constant 32 : index
            %55 = kda2.rem %x, %c32_19 : index, index -> index
            %56 = kda2.add %54, %55 : index, index -> index
            %57 = kda2.load %v[%49, %2, %56] : !kda2.tensor<[tt, h, 128], bf16> -> bf16
            %cst = arith.constant 0.000000e+00 : f32
            %58 = kda2.cast %57 : bf16 -> f32
            %59 = kda2.select %48, %58, %cst : i1, f32, f32 -> f32
            %60 = kda2.cast %59 : f32 -> bf16
            kda2.store %60, %vc[%43, %37, %44] : bf16, !kda2.tensor<[n, h, ncv, 16, 32], bf16>
          }
        }
        %18 = kda2.load %Km[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %19 = kda2.load %Ki[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %20 = kda2.matmul %18, %19 {transpose_b} : tensor<16x128xbf16>, tensor<16x128xbf16> -> tensor<16x16xf32>
        kda2.store %20, %A[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32, smem>
        %21 = kda2.load %Qm[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %22 = kda2.load %Ki[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %23 = kda2.matmul %21, %22 {transpose_b} : tensor<16x128xbf16>, tensor<16x128xbf16> -> tensor<16x16xf32>
        kda2.store %23, %P[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32, smem>
        %c16_4 = arith.constant 16 : index
        kda2.loop thread %s to %c16_4 {
          %c16_5 = arith.constant 16 : index
          kda2.loop serial %i to %c16_5 annotations [#kda2.pragma<unroll>] {
            %c0 = arith.constant 0 : index
            %cst = arith.constant 0.000000e+00 : f32
            kda2.store %cst, %acc[%c0] : f32, !kda2.tensor<[1], f32, reg>
            %c16_7 = arith.constant 16 : index
            kda2.loop serial %j to %c16_7 annotations [#kda2.pragma<unroll>] {
              %c0_11 = arith.constant 0 : index
              %c0_12 = arith.constant 0 : index
              %38 = kda2.load %acc[%c0_12] : !kda2.tensor<[1], f32, reg> -> f32
              %39 = kda2.cmp lt %j, %i : index, index -> i1
              %40 = kda2.load %A[%i, %j] : !kda2.tensor<[16, 16], f32, smem> -> f32
              %41 = kda2.load %Xc[%j] : !kda2.tensor<[16], f32, reg> -> f32
              %42 = kda2.mul %40, %41 : f32, f32 -> f32
              %cst_13 = arith.constant 0.000000e+00 : f32
              %43 = kda2.select %39, %42, %cst_13 : i1, f32, f32 -> f32
              %44 = kda2.add %38, %43 : f32, f32 -> f32
              kda2.store %44, %acc[%c0_11] : f32, !kda2.tensor<[1], f32, reg>
            }
            %32 = kda2.cmp eq %i, %s : index, index -> i1
            %cst_8 = arith.constant 1.000000e+00 : f32
            %cst_9 = arith.constant 0.000000e+00 : f32
            %33 = kda2.select %32, %cst_8, %cst_9 : i1, f32, f32 -> f32
            %34 = kda2.load %Bt[%i] : !kda2.tensor<[16], f32, smem> -> f32
            %c0_10 = arith.constant 0 : index
            %35 = kda2.load %acc[%c0_10] : !kda2.tensor<[1], f32, reg> -> f32
            %36 = kda2.mul %34, %35 : f32, f32 -> f32
            %37 = kda2.sub %33, %36 : f32, f32 -> f32
            kda2.store %37, %Xc[%i] : f32, !kda2.tensor<[16], f32, reg>
          }
          %c16_6 = arith.constant 16 : index
          kda2.loop serial %i to %c16_6 annotations [#kda2.pragma<unroll>] {
            %32 = kda2.load %Xc[%i] : !kda2.tensor<[16], f32, reg> -> f32
            %33 = kda2.load %Bt[%s] : !kda2.tensor<[16], f32, smem> -> f32
            %34 = kda2.mul %32, %33 : f32, f32 -> f32
            %35 = kda2.cast %34 : f32 -> bf16
            kda2.store %35, %Tp[%i, %s] : bf16, !kda2.tensor<[16, 16], bf16, smem>
            %36 = kda2.load %Xc[%i] : !kda2.tensor<[16], f32, reg> -> f32
            %37 = kda2.load %Bt[%s] : !kda2.tensor<[16], f32, smem> -> f32
            %38 = kda2.mul %36, %37 : f32, f32 -> f32
            %cst = arith.constant 0.000000e+00 : f32
            %39 = kda2.sub %cst, %38 : f32, f32 -> f32
            %40 = kda2.cast %39 : f32 -> bf16
            kda2.store %40, %Tn[%i, %s] : bf16, !kda2.tensor<[16, 16], bf16, smem>
            %41 = kda2.cmp le %s, %i : index, index -> i1
            %42 = kda2.load %P[%i, %s] : !kda2.tensor<[16, 16], f32, smem> -> f32
            %cst_7 = arith.constant 0.000000e+00 : f32
            %43 = kda2.select %41, %42, %cst_7 : i1, f32, f32 -> f32
            %44 = kda2.cast %43 : f32 -> bf16
            kda2.store %44, %Pb[%i, %s] : bf16, !kda2.tensor<[16, 16], bf16, smem>
          }
        }
        %24 = kda2.load %Tn[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
        %25 = kda2.load %Kd[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %26 = kda2.matmul %24, %25 : tensor<16x16xbf16>, tensor<16x128xbf16> -> tensor<16x128xf32>
        %27 = kda2.cast %26 : tensor<16x128xf32> -> tensor<16x128xbf16>
        kda2.store %27, %wn[%c] : tensor<16x128xbf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>
        %28 = kda2.load %Qd[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        kda2.store %28, %qd[%c] : tensor<16x128xbf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>
        %29 = kda2.load %Kl[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        kda2.store %29, %kl[%c] : tensor<16x128xbf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>
        %30 = kda2.load %Tp[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
        kda2.store %30, %tp[%c] : tensor<16x16xbf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>
        %31 = kda2.load %Pb[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
        kda2.store %31, %pb[%c] : tensor<16x16xbf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>
      }
    }
    kda2.return
  }
  kda2.kernel @kda_chunk_scan(%vc: !kda2.tensor<[n, h, ncv, 16, 32], bf16>, %qd: !kda2.tensor<[n, h, nc, 16, 128], bf16>, %kl: !kda2.tensor<[n, h, nc, 16, 128], bf16>, %wn: !kda2.tensor<[n, h, nc, 16, 128], bf16>, %tp: !kda2.tensor<[n, h, nc, 16, 16], bf16>, %pb: !kda2.tensor<[n, h, nc, 16, 16], bf16>, %gl: !kda2.tensor<[n, h, nc, 128], f32>, %h0: !kda2.tensor<[n, h, 128, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %o: !kda2.tensor<[tt, h, 128], bf16> {kda2.io = #kda2.io<out>}, %ht: !kda2.tensor<[n, h, 128, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["vc", "qd", "kl", "wn", "tp", "pb", "gl", "h0", "cu_seqlens", "o", "ht"], grid = ["n", "h"], kda2.bindings = {C = 16 : i64, K = 128 : i64, NVB = 4 : i64, V = 128 : i64, VB = 32 : i64}} {
    kda2.gmem %vc, %qd, %kl, %wn, %tp, %pb, %gl, %o, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[n, h, ncv, 16, 32], bf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 128], bf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>, !kda2.tensor<[n, h, nc, 16, 16], bf16>, !kda2.tensor<[n, h, nc, 128], f32>, !kda2.tensor<[tt, h, 128], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %h0, %ht layout(row_major) packing(none) : !kda2.tensor<[n, h, 128, 128], f32>, !kda2.tensor<[n, h, 128, 128], f32>
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
      %0 = kda2.grid_index "n" : index
      %1 = kda2.grid_index "h" : index
      %2 = kda2.load %cu_seqlens[%0] : !kda2.tensor<[np1], i32> -> i32
      %c1 = arith.constant 1 : index
      %3 = kda2.add %0, %c1 : index, index -> index
      %4 = kda2.load %cu_seqlens[%3] : !kda2.tensor<[np1], i32> -> i32
      %5 = kda2.sub %4, %2 : i32, i32 -> i32
      %c128 = arith.constant 128 : index
      kda2.loop thread %x to %c128 {
        %c128_3 = arith.constant 128 : index
        %c32 = arith.constant 32 : index
        %10 = kda2.mul %c128_3, %c32 : index, index -> index
        %c128_4 = arith.constant 128 : index
        %11 = kda2.div %10, %c128_4 : index, index -> index
        kda2.loop serial %e to %11 {
          %c32_5 = arith.constant 32 : index
          %c128_6 = arith.constant 128 : index
          %12 = kda2.div %c128_6, %c32_5 : index, index -> index
          %13 = kda2.mul %e, %12 : index, index -> index
          %c32_7 = arith.constant 32 : index
          %14 = kda2.div %x, %c32_7 : index, index -> index
          %15 = kda2.add %13, %14 : index, index -> index
          %c32_8 = arith.constant 32 : index
          %16 = kda2.rem %x, %c32_8 : index, index -> index
          %c32_9 = arith.constant 32 : index
          %c128_10 = arith.constant 128 : index
          %17 = kda2.div %c128_10, %c32_9 : index, index -> index
          %18 = kda2.mul %e, %17 : index, index -> index
          %c32_11 = arith.constant 32 : index
          %19 = kda2.div %x, %c32_11 : index, index -> index
          %20 = kda2.add %18, %19 : index, index -> index
          %c32_12 = arith.constant 32 : index
          %21 = kda2.mul %vb, %c32_12 : index, index -> index
          %c32_13 = arith.constant 32 : index
          %22 = kda2.rem %x, %c32_13 : index, index -> index
          %23 = kda2.add %21, %22 : index, index -> index
          %24 = kda2.load %h0[%20, %23] : !kda2.tensor<[n, h, 128, 128], f32> -> f32
          kda2.store %24, %S[%15, %16] : f32, !kda2.tensor<[128, 32], f32, smem>
        }
      }
      %c16 = arith.constant 16 : index
      %6 = kda2.cast %5 : i32 -> index
      %7 = kda2.add %6, %c16 : index, index -> index
      %c1_0 = arith.constant 1 : index
      %8 = kda2.sub %7, %c1_0 : index, index -> index
      %c16_1 = arith.constant 16 : index
      %9 = kda2.div %8, %c16_1 : index, index -> index
      kda2.loop serial %c to %9 annotations [#kda2.pragma<tma_pipeline>] {
        %10 = kda2.load %qd[%c] : !kda2.tensor<[n, h, nc, 16, 128], bf16> -> tensor<16x128xbf16>
        kda2.store %10, %Qd[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
        %11 = kda2.load %kl[%c] : !kda2.tensor<[n, h, nc, 16, 128], bf16> -> tensor<16x128xbf16>
        kda2.store %11, %Kl[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
        %12 = kda2.load %wn[%c] : !kda2.tensor<[n, h, nc, 16, 128], bf16> -> tensor<16x128xbf16>
        kda2.store %12, %Wn[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
        %13 = kda2.load %tp[%c] : !kda2.tensor<[n, h, nc, 16, 16], bf16> -> tensor<16x16xbf16>
        kda2.store %13, %Tp[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
        %14 = kda2.load %pb[%c] : !kda2.tensor<[n, h, nc, 16, 16], bf16> -> tensor<16x16xbf16>
        kda2.store %14, %Pb[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
        %15 = kda2.load %gl[%c] : !kda2.tensor<[n, h, nc, 128], f32> -> tensor<128xf32>
        kda2.store %15, %Gl[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %c4_3 = arith.constant 4 : index
        %16 = kda2.mul %c, %c4_3 : index, index -> index
        %17 = kda2.add %16, %vb : index, index -> index
        %18 = kda2.load %vc[%17] : !kda2.tensor<[n, h, ncv, 16, 32], bf16> -> tensor<16x32xbf16>
        kda2.store %18, %Vs[] : tensor<16x32xbf16>, !kda2.tensor<[16, 32], bf16, smem>
        %c128_4 = arith.constant 128 : index
        kda2.loop thread %x to %c128_4 {
          %c128_7 = arith.constant 128 : index
          %c32 = arith.constant 32 : index
          %37 = kda2.mul %c128_7, %c32 : index, index -> index
          %c128_8 = arith.constant 128 : index
          %38 = kda2.div %37, %c128_8 : index, index -> index
          kda2.loop serial %e to %38 annotations [#kda2.pragma<unroll>] {
            %c32_9 = arith.constant 32 : index
            %c128_10 = arith.constant 128 : index
            %39 = kda2.div %c128_10, %c32_9 : index, index -> index
            %40 = kda2.mul %e, %39 : index, index -> index
            %c32_11 = arith.constant 32 : index
            %41 = kda2.div %x, %c32_11 : index, index -> index
            %42 = kda2.add %40, %41 : index, index -> index
            %c32_12 = arith.constant 32 : index
            %43 = kda2.rem %x, %c32_12 : index, index -> index
            %44 = kda2.load %S[%42, %43] : !kda2.tensor<[128, 32], f32, smem> -> f32
            %c32_13 = arith.constant 32 : index
            %c128_14 = arith.constant 128 : index
            %45 = kda2.div %c128_14, %c32_13 : index, index -> index
            %46 = kda2.mul %e, %45 : index, index -> index
            %c32_15 = arith.constant 32 : index
            %47 = kda2.div %x, %c32_15 : index, index -> index
            %48 = kda2.add %46, %47 : index, index -> index
            %c32_16 = arith.constant 32 : index
            %49 = kda2.rem %x, %c32_16 : index, index -> index
            %50 = kda2.cast %44 : f32 -> bf16
            kda2.store %50, %Sb[%48, %49] : bf16, !kda2.tensor<[128, 32], bf16, smem>
            %c32_17 = arith.constant 32 : index
            %c128_18 = arith.constant 128 : index
            %51 = kda2.div %c128_18, %c32_17 : index, index -> index
            %52 = kda2.mul %e, %51 : index, index -> index
            %c32_19 = arith.constant 32 : index
            %53 = kda2.div %x, %c32_19 : index, index -> index
            %54 = kda2.add %52, %53 : index, index -> index
            %c32_20 = arith.constant 32 : index
            %55 = kda2.rem %x, %c32_20 : index, index -> index
            %c32_21 = arith.constant 32 : index
            %c128_22 = arith.constant 128 : index
            %56 = kda2.div %c128_22, %c32_21 : index, index -> index
            %57 = kda2.mul %e, %56 : index, index -> index
            %c32_23 = arith.constant 32 : index
            %58 = kda2.div %x, %c32_23 : index, index -> index
            %59 = kda2.add %57, %58 : index, index -> index
            %60 = kda2.load %Gl[%59] : !kda2.tensor<[128], f32, smem> -> f32
            %61 = kda2.mul %44, %60 : f32, f32 -> f32
            kda2.store %61, %S[%54, %55] : f32, !kda2.tensor<[128, 32], f32, smem>
          }
        }
        %19 = kda2.load %Tp[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
        %20 = kda2.load %Vs[] : !kda2.tensor<[16, 32], bf16, smem> -> tensor<16x32xbf16>
        %21 = kda2.matmul %19, %20 : tensor<16x16xbf16>, tensor<16x32xbf16> -> tensor<16x32xf32>
        kda2.store %21, %U[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %22 = kda2.load %Wn[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %23 = kda2.load %Sb[] : !kda2.tensor<[128, 32], bf16, smem> -> tensor<128x32xbf16>
        %24 = kda2.load %U[] : !kda2.tensor<[16, 32], f32, smem> -> tensor<16x32xf32>
        %25 = kda2.matmul %22, %23 acc(%24) : tensor<16x128xbf16>, tensor<128x32xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %25, %U[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %26 = kda2.load %Qd[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %27 = kda2.load %Sb[] : !kda2.tensor<[128, 32], bf16, smem> -> tensor<128x32xbf16>
        %28 = kda2.matmul %26, %27 : tensor<16x128xbf16>, tensor<128x32xbf16> -> tensor<16x32xf32>
        kda2.store %28, %O[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %c128_5 = arith.constant 128 : index
        kda2.loop thread %x to %c128_5 {
          %c16_7 = arith.constant 16 : index
          %c32 = arith.constant 32 : index
          %37 = kda2.mul %c16_7, %c32 : index, index -> index
          %c128_8 = arith.constant 128 : index
          %38 = kda2.div %37, %c128_8 : index, index -> index
          kda2.loop serial %e to %38 annotations [#kda2.pragma<unroll>] {
            %c32_9 = arith.constant 32 : index
            %c128_10 = arith.constant 128 : index
            %39 = kda2.div %c128_10, %c32_9 : index, index -> index
            %40 = kda2.mul %e, %39 : index, index -> index
            %c32_11 = arith.constant 32 : index
            %41 = kda2.div %x, %c32_11 : index, index -> index
            %42 = kda2.add %40, %41 : index, index -> index
            %c32_12 = arith.constant 32 : index
            %43 = kda2.rem %x, %c32_12 : index, index -> index
            %c32_13 = arith.constant 32 : index
            %c128_14 = arith.constant 128 : index
            %44 = kda2.div %c128_14, %c32_13 : index, index -> index
            %45 = kda2.mul %e, %44 : index, index -> index
            %c32_15 = arith.constant 32 : index
            %46 = kda2.div %x, %c32_15 : index, index -> index
            %47 = kda2.add %45, %46 : index, index -> index
            %c32_16 = arith.constant 32 : index
            %48 = kda2.rem %x, %c32_16 : index, index -> index
            %49 = kda2.load %U[%47, %48] : !kda2.tensor<[16, 32], f32, smem> -> f32
            %50 = kda2.cast %49 : f32 -> bf16
            kda2.store %50, %Ub[%42, %43] : bf16, !kda2.tensor<[16, 32], bf16, smem>
          }
        }
        %29 = kda2.load %Pb[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
        %30 = kda2.load %Ub[] : !kda2.tensor<[16, 32], bf16, smem> -> tensor<16x32xbf16>
        %31 = kda2.load %O[] : !kda2.tensor<[16, 32], f32, smem> -> tensor<16x32xf32>
        %32 = kda2.matmul %29, %30 acc(%31) : tensor<16x16xbf16>, tensor<16x32xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %32, %O[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %33 = kda2.load %Kl[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %34 = kda2.load %Ub[] : !kda2.tensor<[16, 32], bf16, smem> -> tensor<16x32xbf16>
        %35 = kda2.load %S[] : !kda2.tensor<[128, 32], f32, smem> -> tensor<128x32xf32>
        %36 = kda2.matmul %33, %34 acc(%35) {transpose_a} : tensor<16x128xbf16>, tensor<16x32xbf16>, tensor<128x32xf32> -> tensor<128x32xf32>
        kda2.store %36, %S[] : tensor<128x32xf32>, !kda2.tensor<[128, 32], f32, smem>
        %c128_6 = arith.constant 128 : index
        kda2.loop thread %x to %c128_6 {
          %c16_7 = arith.constant 16 : index
          %c32 = arith.constant 32 : index
          %37 = kda2.mul %c16_7, %c32 : index, index -> index
          %c128_8 = arith.constant 128 : index
          %38 = kda2.div %37, %c128_8 : index, index -> index
          kda2.loop serial %e to %38 annotations [#kda2.pragma<unroll>] {
            %c32_9 = arith.constant 32 : index
            %c128_10 = arith.constant 128 : index
            %39 = kda2.div %c128_10, %c32_9 : index, index -> index
            %40 = kda2.mul %e, %39 : index, index -> index
            %c32_11 = arith.constant 32 : index
            %41 = kda2.div %x, %c32_11 : index, index -> index
            %42 = kda2.add %40, %41 : index, index -> index
            %c16_12 = arith.constant 16 : index
            %43 = kda2.mul %c, %c16_12 : index, index -> index
            %44 = kda2.cast %5 : i32 -> index
            %45 = kda2.sub %44, %43 : index, index -> index
            %46 = kda2.sub %45, %42 : index, index -> index
            %c1_13 = arith.constant 1 : index
            %47 = kda2.min %46, %c1_13 : index, index -> index
            kda2.loop serial %live to %47 {
              %c16_14 = arith.constant 16 : index
              %48 = kda2.mul %c, %c16_14 : index, index -> index
              %49 = kda2.cast %2 : i32 -> index
              %50 = kda2.add %49, %48 : index, index -> index
              %51 = kda2.add %50, %42 : index, index -> index
              %c32_15 = arith.constant 32 : index
              %52 = kda2.mul %vb, %c32_15 : index, index -> index
              %c32_16 = arith.constant 32 : index
              %53 = kda2.rem %x, %c32_16 : index, index -> index
              %54 = kda2.add %52, %53 : index, index -> index
              %c32_17 = arith.constant 32 : index
              %55 = kda2.rem %x, %c32_17 : index, index -> index
              %56 = kda2.load %O[%42, %55] : !kda2.tensor<[16, 32], f32, smem> -> f32
              %57 = kda2.cast %56 : f32 -> bf16
              kda2.store %57, %o[%51, %1, %54] : bf16, !kda2.tensor<[tt, h, 128], bf16>
            }
          }
        }
      }
      %c128_2 = arith.constant 128 : index
      kda2.loop thread %x to %c128_2 {
        %c128_3 = arith.constant 128 : index
        %c32 = arith.constant 32 : index
        %10 = kda2.mul %c128_3, %c32 : index, index -> index
        %c128_4 = arith.constant 128 : index
        %11 = kda2.div %10, %c128_4 : index, index -> index
        kda2.loop serial %e to %11 {
          %c32_5 = arith.constant 32 : index
          %c128_6 = arith.constant 128 : index
          %12 = kda2.div %c128_6, %c32_5 : index, index -> index
          %13 = kda2.mul %e, %12 : index, index -> index
          %c32_7 = arith.constant 32 : index
          %14 = kda2.div %x, %c32_7 : index, index -> index
          %15 = kda2.add %13, %14 : index, index -> index
          %c32_8 = arith.constant 32 : index
          %16 = kda2.mul %vb, %c32_8 : index, index -> index
          %c32_9 = arith.constant 32 : index
          %17 = kda2.rem %x, %c32_9 : index, index -> index
          %18 = kda2.add %16, %17 : index, index -> index
          %c32_10 = arith.constant 32 : index
          %c128_11 = arith.constant 128 : index
          %19 = kda2.div %c128_11, %c32_10 : index, index -> index
          %20 = kda2.mul %e, %19 : index, index -> index
          %c32_12 = arith.constant 32 : index
          %21 = kda2.div %x, %c32_12 : index, index -> index
          %22 = kda2.add %20, %21 : index, index -> index
          %c32_13 = arith.constant 32 : index
          %23 = kda2.rem %x, %c32_13 : index, index -> index
          %24 = kda2.load %S[%22, %23] : !kda2.tensor<[128, 32], f32, smem> -> f32
          kda2.store %24, %ht[%15, %18] : f32, !kda2.tensor<[n, h, 128, 128], f32>
        }
      }
    }
    kda2.return
  }
}
