module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_chunk_prep(%q: !kda2.tensor<[tt, hqk, 128], bf16> {kda2.stride = 7 : i64}, %k: !kda2.tensor<[tt, hqk, 128], bf16> {kda2.stride = 8 : i64}, %g: !kda2.tensor<[tt, h, 128], f32> {kda2.range = array<f64: -5.000000e+00, 0.000000e+00>, kda2.stride = 9 : i64}, %beta: !kda2.tensor<[tt, h], f32> {kda2.stride = 10 : i64}, %cu_seqlens: !kda2.tensor<[np1], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %scale: f32, %sq: i64, %sk: i64, %sg: i64, %sb: i64, %qd: !kda2.tensor<[h, ns, 16, 128], bf16> {kda2.io = #kda2.io<out>}, %kl: !kda2.tensor<[h, ns, 16, 128], bf16> {kda2.io = #kda2.io<out>}, %wn: !kda2.tensor<[h, ns, 16, 128], bf16> {kda2.io = #kda2.io<out>}, %tp: !kda2.tensor<[h, ns, 16, 16], bf16> {kda2.io = #kda2.io<out>}, %pb: !kda2.tensor<[h, ns, 16, 16], bf16> {kda2.io = #kda2.io<out>}, %gl: !kda2.tensor<[h, ns, 128], f32> {kda2.io = #kda2.io<out>}, %kc: !kda2.tensor<[h, nm, 16, 128], bf16> {kda2.io = #kda2.io<out>}, %ec: !kda2.tensor<[h, nm, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["q", "k", "g", "beta", "cu_seqlens", "ckpt_offsets", "scale", "sq", "sk", "sg", "sb", "qd", "kl", "wn", "tp", "pb", "gl", "kc", "ec"], grid = ["h"], kda2.bindings = {BPS = 0 : i64, C = 16 : i64, GB = 5 : i64, K = 128 : i64, PDL = 0 : i64}} {
    kda2.gmem %q layout(row_major) packing(none) : !kda2.tensor<[tt, hqk, 128], bf16>
    kda2.gmem %k layout(row_major) packing(none) : !kda2.tensor<[tt, hqk, 128], bf16>
    kda2.gmem %beta layout(row_major) packing(none) : !kda2.tensor<[tt, h], f32>
    kda2.gmem %cu_seqlens, %ckpt_offsets layout(row_major) packing(none) : !kda2.tensor<[np1], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %g layout(row_major) packing(none) : !kda2.tensor<[tt, h, 128], f32>
    kda2.gmem %qd, %kl, %wn, %tp, %pb, %gl, %kc, %ec layout(row_major) packing(none) : !kda2.tensor<[h, ns, 16, 128], bf16>, !kda2.tensor<[h, ns, 16, 128], bf16>, !kda2.tensor<[h, ns, 16, 128], bf16>, !kda2.tensor<[h, ns, 16, 16], bf16>, !kda2.tensor<[h, ns, 16, 16], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[h, nm, 16, 128], bf16>, !kda2.tensor<[h, nm, 128], f32>
    %Ki = kda2.smem_alloc size(32768) : !kda2.tensor<[16, 128], bf16, smem>
    %Km = kda2.smem_alloc size(32768) : !kda2.tensor<[16, 128], bf16, smem>
    %Qm = kda2.smem_alloc size(32768) : !kda2.tensor<[16, 128], bf16, smem>
    %Bt = kda2.smem_alloc size(256) : !kda2.tensor<[16], f32, smem>
    %A = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 16], f32, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 16], bf16, smem>
    %P = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 16], f32, smem>
    %Eg = kda2.smem_alloc size(1024) : !kda2.tensor<[128], f32, smem>
    %Gs = kda2.smem_alloc size(32768) : !kda2.tensor<[16, 128], f32, smem>
    %W = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 128], f32, reg>
    %Dm = kda2.reg_alloc : !kda2.tensor<[16], f32, reg>
    %Pr = kda2.reg_alloc : !kda2.tensor<[16], f32, reg>
    %Xc = kda2.reg_alloc : !kda2.tensor<[16], f32, reg>
    %Ac = kda2.reg_alloc : !kda2.tensor<[16], f32, reg>
    %acc = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
    %lo = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %hi = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %0 = kda2.dim "ns" : index
    kda2.loop block %sl to %0 annotations [#kda2.bank_conflict_free, #kda2.blocks_per_sm<0>] {
      %1 = kda2.grid_index "h" : index
      %c0 = arith.constant 0 : index
      %c0_i32 = arith.constant 0 : i32
      kda2.store %c0_i32, %lo[%c0] : i32, !kda2.tensor<[1], i32, reg>
      %c0_0 = arith.constant 0 : index
      %2 = kda2.dim "np1" : index
      %c1 = arith.constant 1 : index
      %3 = kda2.sub %2, %c1 : index, index -> index
      %4 = kda2.cast %3 : index -> i32
      kda2.store %4, %hi[%c0_0] : i32, !kda2.tensor<[1], i32, reg>
      %c16 = arith.constant 16 : index
      kda2.loop serial %it to %c16 annotations [#kda2.pragma<unroll>] {
        %c0_6 = arith.constant 0 : index
        %28 = kda2.load %hi[%c0_6] : !kda2.tensor<[1], i32, reg> -> i32
        %c0_7 = arith.constant 0 : index
        %29 = kda2.load %lo[%c0_7] : !kda2.tensor<[1], i32, reg> -> i32
        %30 = kda2.sub %28, %29 : i32, i32 -> i32
        %c1_i32_8 = arith.constant 1 : i32
        %31 = kda2.cmp gt %30, %c1_i32_8 : i32, i32 -> i1
        kda2.if %31 {
          %c0_9 = arith.constant 0 : index
          %32 = kda2.load %lo[%c0_9] : !kda2.tensor<[1], i32, reg> -> i32
          %c0_10 = arith.constant 0 : index
          %33 = kda2.load %hi[%c0_10] : !kda2.tensor<[1], i32, reg> -> i32
          %34 = kda2.add %32, %33 : i32, i32 -> i32
          %c2_i32 = arith.constant 2 : i32
          %35 = kda2.div %34, %c2_i32 : i32, i32 -> i32
          %36 = kda2.cast %35 : i32 -> index
          %37 = kda2.load %cu_seqlens[%36] : !kda2.tensor<[np1], i32> -> i32
          %c16_11 = arith.constant 16 : index
          %38 = kda2.cast %37 : i32 -> index
          %39 = kda2.div %38, %c16_11 : index, index -> index
          %40 = kda2.cast %35 : i32 -> index
          %41 = kda2.add %39, %40 : index, index -> index
          %42 = kda2.cmp le %41, %sl : index, index -> i1
          %c0_12 = arith.constant 0 : index
          %c0_13 = arith.constant 0 : index
          %43 = kda2.load %lo[%c0_13] : !kda2.tensor<[1], i32, reg> -> i32
          %44 = kda2.select %42, %35, %43 : i1, i32, i32 -> i32
          kda2.store %44, %lo[%c0_12] : i32, !kda2.tensor<[1], i32, reg>
          %c0_14 = arith.constant 0 : index
          %c0_15 = arith.constant 0 : index
          %45 = kda2.load %hi[%c0_15] : !kda2.tensor<[1], i32, reg> -> i32
          %46 = kda2.select %42, %45, %35 : i1, i32, i32 -> i32
          kda2.store %46, %hi[%c0_14] : i32, !kda2.tensor<[1], i32, reg>
        }
      }
      %c0_1 = arith.constant 0 : index
      %5 = kda2.load %lo[%c0_1] : !kda2.tensor<[1], i32, reg> -> i32
      %6 = kda2.dim "hqk" : index
      %7 = kda2.mul %1, %6 : index, index -> index
      %8 = kda2.dim "h" : index
      %9 = kda2.div %7, %8 : index, index -> index
      %10 = kda2.cast %5 : i32 -> index
      %11 = kda2.load %cu_seqlens[%10] : !kda2.tensor<[np1], i32> -> i32
      %c1_i32 = arith.constant 1 : i32
      %12 = kda2.add %5, %c1_i32 : i32, i32 -> i32
      %13 = kda2.cast %12 : i32 -> index
      %14 = kda2.load %cu_seqlens[%13] : !kda2.tensor<[np1], i32> -> i32
      %15 = kda2.sub %14, %11 : i32, i32 -> i32
      %c16_2 = arith.constant 16 : index
      %16 = kda2.cast %11 : i32 -> index
      %17 = kda2.div %16, %c16_2 : index, index -> index
      %18 = kda2.cast %5 : i32 -> index
      %19 = kda2.add %17, %18 : index, index -> index
      %20 = kda2.sub %sl, %19 : index, index -> index
      %c16_3 = arith.constant 16 : index
      %21 = kda2.mul %20, %c16_3 : index, index -> index
      %22 = kda2.cast %11 : i32 -> index
      %23 = kda2.add %22, %21 : index, index -> index
      %c16_4 = arith.constant 16 : index
      %24 = kda2.mul %20, %c16_4 : index, index -> index
      %25 = kda2.cast %15 : i32 -> index
      %26 = kda2.sub %25, %24 : index, index -> index
      %c1_5 = arith.constant 1 : index
      %27 = kda2.min %26, %c1_5 : index, index -> index
      kda2.loop serial %live to %27 {
        %c128 = arith.constant 128 : index
        kda2.loop thread %d to %c128 {
          %c0_9 = arith.constant 0 : index
          %cst = arith.constant 0.000000e+00 : f32
          kda2.store %cst, %acc[%c0_9] : f32, !kda2.tensor<[1], f32, reg>
          %c16_10 = arith.constant 16 : index
          %c2 = arith.constant 2 : index
          %38 = kda2.div %c16_10, %c2 : index, index -> index
          kda2.loop serial %r to %38 annotations [#kda2.pragma<unroll>] {
            %c0_22 = arith.constant 0 : index
            %c0_23 = arith.constant 0 : index
            %49 = kda2.load %acc[%c0_23] : !kda2.tensor<[1], f32, reg> -> f32
            %50 = kda2.cmp lt %r, %26 : index, index -> i1
            %51 = kda2.add %23, %r : index, index -> index
            %52 = kda2.load %g[%51, %1, %d] : !kda2.tensor<[tt, h, 128], f32> -> f32
            %cst_24 = arith.constant 0.000000e+00 : f32
            %53 = kda2.select %50, %52, %cst_24 : i1, f32, f32 -> f32
            %54 = kda2.add %49, %53 : f32, f32 -> f32
            kda2.store %54, %acc[%c0_22] : f32, !kda2.tensor<[1], f32, reg>
            %c0_25 = arith.constant 0 : index
            %55 = kda2.load %acc[%c0_25] : !kda2.tensor<[1], f32, reg> -> f32
            kda2.store %55, %Pr[%r] : f32, !kda2.tensor<[16], f32, reg>
          }
          %c0_11 = arith.constant 0 : index
          %39 = kda2.load %acc[%c0_11] : !kda2.tensor<[1], f32, reg> -> f32
          %40 = kda2.exp %39 : f32
          %cst_12 = arith.constant 0.000000e+00 : f32
          %41 = kda2.sub %cst_12, %40 : f32, f32 -> f32
          kda2.store %41, %Eg[%d] : f32, !kda2.tensor<[128], f32, smem>
          %c16_13 = arith.constant 16 : index
          %c2_14 = arith.constant 2 : index
          %42 = kda2.div %c16_13, %c2_14 : index, index -> index
          kda2.loop serial %r to %42 annotations [#kda2.pragma<unroll>] {
            %49 = kda2.load %Pr[%r] : !kda2.tensor<[16], f32, reg> -> f32
            %50 = kda2.sub %49, %39 : f32, f32 -> f32
            kda2.store %50, %Dm[%r] : f32, !kda2.tensor<[16], f32, reg>
          }
          %c0_15 = arith.constant 0 : index
          %cst_16 = arith.constant 0.000000e+00 : f32
          kda2.store %cst_16, %acc[%c0_15] : f32, !kda2.tensor<[1], f32, reg>
          %c16_17 = arith.constant 16 : index
          %c2_18 = arith.constant 2 : index
          %43 = kda2.div %c16_17, %c2_18 : index, index -> index
          kda2.loop serial %r to %43 annotations [#kda2.pragma<unroll>] {
            %c0_22 = arith.constant 0 : index
            %c0_23 = arith.constant 0 : index
            %49 = kda2.load %acc[%c0_23] : !kda2.tensor<[1], f32, reg> -> f32
            %c16_24 = arith.constant 16 : index
            %c2_25 = arith.constant 2 : index
            %50 = kda2.div %c16_24, %c2_25 : index, index -> index
            %51 = kda2.add %50, %r : index, index -> index
            %52 = kda2.cmp lt %51, %26 : index, index -> i1
            %c16_26 = arith.constant 16 : index
            %c2_27 = arith.constant 2 : index
            %53 = kda2.div %c16_26, %c2_27 : index, index -> index
            %54 = kda2.add %23, %53 : index, index -> index
            %55 = kda2.add %54, %r : index, index -> index
            %56 = kda2.load %g[%55, %1, %d] : !kda2.tensor<[tt, h, 128], f32> -> f32
            %cst_28 = arith.constant 0.000000e+00 : f32
            %57 = kda2.select %52, %56, %cst_28 : i1, f32, f32 -> f32
            %58 = kda2.add %49, %57 : f32, f32 -> f32
            kda2.store %58, %acc[%c0_22] : f32, !kda2.tensor<[1], f32, reg>
            %c16_29 = arith.constant 16 : index
            %c2_30 = arith.constant 2 : index
            %59 = kda2.div %c16_29, %c2_30 : index, index -> index
            %60 = kda2.add %59, %r : index, index -> index
            %c0_31 = arith.constant 0 : index
            %61 = kda2.load %acc[%c0_31] : !kda2.tensor<[1], f32, reg> -> f32
            kda2.store %61, %Dm[%60] : f32, !kda2.tensor<[16], f32, reg>
          }
          %c0_19 = arith.constant 0 : index
          %44 = kda2.load %acc[%c0_19] : !kda2.tensor<[1], f32, reg> -> f32
          %45 = kda2.add %39, %44 : f32, f32 -> f32
          %46 = kda2.exp %45 : f32
          kda2.store %46, %gl[%sl, %d] : f32, !kda2.tensor<[h, ns, 128], f32>
          %c0_20 = arith.constant 0 : index
          %47 = kda2.load %acc[%c0_20] : !kda2.tensor<[1], f32, reg> -> f32
          %48 = kda2.exp %47 : f32
          %c16_21 = arith.constant 16 : index
          kda2.loop serial %r to %c16_21 annotations [#kda2.pragma<unroll>] {
            %49 = kda2.cmp lt %r, %26 : index, index -> i1
            %50 = kda2.add %23, %r : index, index -> index
            %51 = kda2.load %k[%50, %9, %d] : !kda2.tensor<[tt, hqk, 128], bf16> -> bf16
            %52 = kda2.cast %51 : bf16 -> f32
            %cst_22 = arith.constant 0.000000e+00 : f32
            %53 = kda2.select %49, %52, %cst_22 : i1, f32, f32 -> f32
            %54 = kda2.cmp lt %r, %26 : index, index -> i1
            %55 = kda2.add %23, %r : index, index -> index
            %56 = kda2.load %q[%55, %9, %d] : !kda2.tensor<[tt, hqk, 128], bf16> -> bf16
            %57 = kda2.cast %56 : bf16 -> f32
            %cst_23 = arith.constant 0.000000e+00 : f32
            %58 = kda2.select %54, %57, %cst_23 : i1, f32, f32 -> f32
            %59 = kda2.mul %58, %scale : f32, f32 -> f32
            %60 = kda2.load %Dm[%r] : !kda2.tensor<[16], f32, reg> -> f32
            %61 = kda2.exp %60 : f32
            %62 = kda2.load %Dm[%r] : !kda2.tensor<[16], f32, reg> -> f32
            %cst_24 = arith.constant 0.000000e+00 : f32
            %63 = kda2.sub %cst_24, %62 : f32, f32 -> f32
            %64 = kda2.exp %63 : f32
            %65 = kda2.mul %40, %61 : f32, f32 -> f32
            %66 = kda2.mul %59, %65 : f32, f32 -> f32
            %67 = kda2.cast %66 : f32 -> bf16
            kda2.store %67, %qd[%sl, %r, %d] : bf16, !kda2.tensor<[h, ns, 16, 128], bf16>
            %68 = kda2.mul %53, %61 : f32, f32 -> f32
            %69 = kda2.cast %68 : f32 -> bf16
            kda2.store %69, %Km[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
            %70 = kda2.mul %53, %64 : f32, f32 -> f32
            %71 = kda2.cast %70 : f32 -> bf16
            kda2.store %71, %Ki[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
            %72 = kda2.mul %59, %61 : f32, f32 -> f32
            %73 = kda2.cast %72 : f32 -> bf16
            kda2.store %73, %Qm[%r, %d] : bf16, !kda2.tensor<[16, 128], bf16, smem>
            %74 = kda2.mul %48, %64 : f32, f32 -> f32
            %75 = kda2.mul %53, %74 : f32, f32 -> f32
            %76 = kda2.cast %75 : f32 -> bf16
            kda2.store %76, %kl[%sl, %r, %d] : bf16, !kda2.tensor<[h, ns, 16, 128], bf16>
          }
        }
        %c16_6 = arith.constant 16 : index
        kda2.loop thread %r to %c16_6 {
          %38 = kda2.cmp lt %r, %26 : index, index -> i1
          %39 = kda2.add %23, %r : index, index -> index
          %40 = kda2.load %beta[%39, %1] : !kda2.tensor<[tt, h], f32> -> f32
          %cst = arith.constant 0.000000e+00 : f32
          %41 = kda2.select %38, %40, %cst : i1, f32, f32 -> f32
          kda2.store %41, %Bt[%r] : f32, !kda2.tensor<[16], f32, smem>
        }
        %28 = kda2.load %Km[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %29 = kda2.load %Ki[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %30 = kda2.matmul %28, %29 {transpose_b} : tensor<16x128xbf16>, tensor<16x128xbf16> -> tensor<16x16xf32>
        kda2.store %30, %A[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32, smem>
        %31 = kda2.load %Qm[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %32 = kda2.load %Ki[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %33 = kda2.matmul %31, %32 {transpose_b} : tensor<16x128xbf16>, tensor<16x128xbf16> -> tensor<16x16xf32>
        kda2.store %33, %P[] : tensor<16x16xf32>, !kda2.tensor<[16, 16], f32, smem>
        %c16_7 = arith.constant 16 : index
        kda2.loop thread %s to %c16_7 {
          %c16_9 = arith.constant 16 : index
          kda2.loop serial %i to %c16_9 annotations [#kda2.pragma<unroll>] {
            %cst = arith.constant 0.000000e+00 : f32
            kda2.store %cst, %Ac[%i] : f32, !kda2.tensor<[16], f32, reg>
          }
          %c16_10 = arith.constant 16 : index
          kda2.loop serial %j to %c16_10 annotations [#kda2.pragma<unroll>] {
            %38 = kda2.cmp eq %j, %s : index, index -> i1
            %cst = arith.constant 1.000000e+00 : f32
            %cst_12 = arith.constant 0.000000e+00 : f32
            %39 = kda2.select %38, %cst, %cst_12 : i1, f32, f32 -> f32
            %40 = kda2.load %Bt[%j] : !kda2.tensor<[16], f32, smem> -> f32
            %41 = kda2.load %Ac[%j] : !kda2.tensor<[16], f32, reg> -> f32
            %42 = kda2.mul %40, %41 : f32, f32 -> f32
            %43 = kda2.sub %39, %42 : f32, f32 -> f32
            kda2.store %43, %Xc[%j] : f32, !kda2.tensor<[16], f32, reg>
            %c16_13 = arith.constant 16 : index
            kda2.loop serial %i to %c16_13 annotations [#kda2.pragma<unroll>] {
              %44 = kda2.load %Ac[%i] : !kda2.tensor<[16], f32, reg> -> f32
              %45 = kda2.cmp gt %i, %j : index, index -> i1
              %46 = kda2.load %A[%i, %j] : !kda2.tensor<[16, 16], f32, smem> -> f32
              %47 = kda2.load %Xc[%j] : !kda2.tensor<[16], f32, reg> -> f32
              %48 = kda2.mul %46, %47 : f32, f32 -> f32
              %cst_14 = arith.constant 0.000000e+00 : f32
              %49 = kda2.select %45, %48, %cst_14 : i1, f32, f32 -> f32
              %50 = kda2.add %44, %49 : f32, f32 -> f32
              kda2.store %50, %Ac[%i] : f32, !kda2.tensor<[16], f32, reg>
            }
          }
          %c16_11 = arith.constant 16 : index
          kda2.loop serial %i to %c16_11 annotations [#kda2.pragma<unroll>] {
            %38 = kda2.load %Xc[%i] : !kda2.tensor<[16], f32, reg> -> f32
            %39 = kda2.load %Bt[%s] : !kda2.tensor<[16], f32, smem> -> f32
            %40 = kda2.mul %38, %39 : f32, f32 -> f32
            %41 = kda2.cast %40 : f32 -> bf16
            kda2.store %41, %Tp[%i, %s] : bf16, !kda2.tensor<[16, 16], bf16, smem>
            %42 = kda2.cmp le %s, %i : index, index -> i1
            %43 = kda2.load %P[%i, %s] : !kda2.tensor<[16, 16], f32, smem> -> f32
            %cst = arith.constant 0.000000e+00 : f32
            %44 = kda2.select %42, %43, %cst : i1, f32, f32 -> f32
            %45 = kda2.cast %44 : f32 -> bf16
            kda2.store %45, %pb[%sl, %i, %s] : bf16, !kda2.tensor<[h, ns, 16, 16], bf16>
          }
        }
        %34 = kda2.load %Tp[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
        %35 = kda2.load %Km[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %36 = kda2.matmul %34, %35 : tensor<16x16xbf16>, tensor<16x128xbf16> -> tensor<16x128xf32>
        kda2.store %36, %W[] : tensor<16x128xf32>, !kda2.tensor<[16, 128], f32, reg>
        %c2048 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048 columns(128) split(cols) {
          %c128_9 = arith.constant 128 : index
          %38 = kda2.div %arg0, %c128_9 : index, index -> index
          %39 = kda2.rem %arg0, %c128_9 : index, index -> index
          %40 = kda2.load %W[%38, %39] : !kda2.tensor<[16, 128], f32, reg> -> f32
          %41 = kda2.load %Eg[%39] : !kda2.tensor<[128], f32, smem> -> f32
          %42 = kda2.mul %40, %41 : f32, f32 -> f32
          %43 = kda2.cast %42 : f32 -> bf16
          kda2.store %43, %wn[%sl, %38, %39] : bf16, !kda2.tensor<[h, ns, 16, 128], bf16>
        }
        %37 = kda2.load %Tp[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
        kda2.store %37, %tp[%sl] : tensor<16x16xbf16>, !kda2.tensor<[h, ns, 16, 16], bf16>
        %c128_8 = arith.constant 128 : index
        kda2.loop thread %d to %c128_8 {
          %38 = kda2.dim "m" : index
          kda2.loop serial %j to %38 {
            %39 = kda2.cast %5 : i32 -> index
            %40 = kda2.load %ckpt_offsets[%39, %j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32_9 = arith.constant 1 : i32
            %41 = kda2.cmp ge %40, %c1_i32_9 : i32, i32 -> i1
            %42 = kda2.cmp le %40, %15 : i32, i32 -> i1
            %false = arith.constant false
            %43 = kda2.select %41, %42, %false : i1, i1, i1 -> i1
            %c1_i32_10 = arith.constant 1 : i32
            %44 = kda2.sub %40, %c1_i32_10 : i32, i32 -> i32
            %c16_11 = arith.constant 16 : index
            %45 = kda2.cast %44 : i32 -> index
            %46 = kda2.div %45, %c16_11 : index, index -> index
            %47 = kda2.cmp eq %46, %20 : index, index -> i1
            %false_12 = arith.constant false
            %48 = kda2.select %43, %47, %false_12 : i1, i1, i1 -> i1
            kda2.if %48 {
              %c16_13 = arith.constant 16 : index
              %49 = kda2.mul %20, %c16_13 : index, index -> index
              %50 = kda2.cast %40 : i32 -> index
              %51 = kda2.sub %50, %49 : index, index -> index
              %c0_14 = arith.constant 0 : index
              %cst = arith.constant 0.000000e+00 : f32
              kda2.store %cst, %acc[%c0_14] : f32, !kda2.tensor<[1], f32, reg>
              kda2.loop serial %r to %51 {
                %c0_20 = arith.constant 0 : index
                %c0_21 = arith.constant 0 : index
                %60 = kda2.load %acc[%c0_21] : !kda2.tensor<[1], f32, reg> -> f32
                %61 = kda2.add %23, %r : index, index -> index
                %62 = kda2.load %g[%61, %1, %d] : !kda2.tensor<[tt, h, 128], f32> -> f32
                %63 = kda2.add %60, %62 : f32, f32 -> f32
                kda2.store %63, %acc[%c0_20] : f32, !kda2.tensor<[1], f32, reg>
              }
              %c0_15 = arith.constant 0 : index
              %52 = kda2.load %acc[%c0_15] : !kda2.tensor<[1], f32, reg> -> f32
              %53 = kda2.dim "m" : index
              %54 = kda2.cast %5 : i32 -> index
              %55 = kda2.mul %54, %53 : index, index -> index
              %56 = kda2.add %55, %j : index, index -> index
              %cst_16 = arith.constant 0.000000e+00 : f32
              %57 = kda2.min %52, %cst_16 : f32, f32 -> f32
              %58 = kda2.exp %57 : f32
              kda2.store %58, %ec[%56, %d] : f32, !kda2.tensor<[h, nm, 128], f32>
              %c0_17 = arith.constant 0 : index
              %cst_18 = arith.constant 0.000000e+00 : f32
              kda2.store %cst_18, %acc[%c0_17] : f32, !kda2.tensor<[1], f32, reg>
              kda2.loop serial %r to %51 {
                %c0_20 = arith.constant 0 : index
                %c0_21 = arith.constant 0 : index
                %60 = kda2.load %acc[%c0_21] : !kda2.tensor<[1], f32, reg> -> f32
                %61 = kda2.add %23, %r : index, index -> index
                %62 = kda2.load %g[%61, %1, %d] : !kda2.tensor<[tt, h, 128], f32> -> f32
                %63 = kda2.add %60, %62 : f32, f32 -> f32
                kda2.store %63, %acc[%c0_20] : f32, !kda2.tensor<[1], f32, reg>
                %64 = kda2.dim "m" : index
                %65 = kda2.cast %5 : i32 -> index
                %66 = kda2.mul %65, %64 : index, index -> index
                %67 = kda2.add %66, %j : index, index -> index
                %68 = kda2.add %23, %r : index, index -> index
                %69 = kda2.load %k[%68, %9, %d] : !kda2.tensor<[tt, hqk, 128], bf16> -> bf16
                %70 = kda2.cast %69 : bf16 -> f32
                %c0_22 = arith.constant 0 : index
                %71 = kda2.load %acc[%c0_22] : !kda2.tensor<[1], f32, reg> -> f32
                %72 = kda2.sub %52, %71 : f32, f32 -> f32
                %cst_23 = arith.constant 0.000000e+00 : f32
                %73 = kda2.min %72, %cst_23 : f32, f32 -> f32
                %74 = kda2.exp %73 : f32
                %75 = kda2.mul %70, %74 : f32, f32 -> f32
                %76 = kda2.cast %75 : f32 -> bf16
                kda2.store %76, %kc[%67, %r, %d] : bf16, !kda2.tensor<[h, nm, 16, 128], bf16>
              }
              %c16_19 = arith.constant 16 : index
              %59 = kda2.sub %c16_19, %51 : index, index -> index
              kda2.loop serial %r to %59 {
                %60 = kda2.dim "m" : index
                %61 = kda2.cast %5 : i32 -> index
                %62 = kda2.mul %61, %60 : index, index -> index
                %63 = kda2.add %62, %j : index, index -> index
                %64 = kda2.add %51, %r : index, index -> index
                %cst_20 = arith.constant 0.000000e+00 : f32
                %65 = kda2.cast %cst_20 : f32 -> bf16
                kda2.store %65, %kc[%63, %64, %d] : bf16, !kda2.tensor<[h, nm, 16, 128], bf16>
              }
            }
          }
        }
      }
    }
    kda2.return
  }
  kda2.kernel @kda_chunk_scan(%v: !kda2.tensor<[tt, h, 128], bf16> {kda2.stride = 9 : i64}, %qd: !kda2.tensor<[h, ns, 16, 128], bf16>, %kl: !kda2.tensor<[h, ns, 16, 128], bf16>, %wn: !kda2.tensor<[h, ns, 16, 128], bf16>, %tp: !kda2.tensor<[h, ns, 16, 16], bf16>, %pb: !kda2.tensor<[h, ns, 16, 16], bf16>, %gl: !kda2.tensor<[h, ns, 128], f32>, %h0: !kda2.tensor<[n, h, 128, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %sv: i64, %o: !kda2.tensor<[tt, h, 128], bf16> {kda2.io = #kda2.io<out>}, %ht: !kda2.tensor<[n, h, 128, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["v", "qd", "kl", "wn", "tp", "pb", "gl", "h0", "cu_seqlens", "sv", "o", "ht"], grid = ["n", "h"], kda2.bindings = {C = 16 : i64, K = 128 : i64, NVB = 4 : i64, V = 128 : i64, VB = 32 : i64}} {
    kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[tt, h, 128], bf16>
    kda2.gmem %qd, %kl, %wn, %tp, %pb, %gl, %o, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[h, ns, 16, 128], bf16>, !kda2.tensor<[h, ns, 16, 128], bf16>, !kda2.tensor<[h, ns, 16, 128], bf16>, !kda2.tensor<[h, ns, 16, 16], bf16>, !kda2.tensor<[h, ns, 16, 16], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[tt, h, 128], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %h0, %ht layout(row_major) packing(none) : !kda2.tensor<[n, h, 128, 128], f32>, !kda2.tensor<[n, h, 128, 128], f32>
    %S = kda2.smem_alloc size(65536) : !kda2.tensor<[128, 32], f32, smem>
    %Sb = kda2.smem_alloc size(32768) : !kda2.tensor<[128, 32], bf16, smem>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Wn = kda2.smem_alloc size(16384) : !kda2.tensor<[16, 128], bf16, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 16], bf16, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 16], bf16, smem>
    %Gl = kda2.smem_alloc size(1024) : !kda2.tensor<[128], f32, smem>
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
      %c16 = arith.constant 16 : index
      %6 = kda2.cast %2 : i32 -> index
      %7 = kda2.div %6, %c16 : index, index -> index
      %8 = kda2.add %7, %0 : index, index -> index
      %c128 = arith.constant 128 : index
      kda2.loop thread %x to %c128 {
        %c128_4 = arith.constant 128 : index
        %c32 = arith.constant 32 : index
        %13 = kda2.mul %c128_4, %c32 : index, index -> index
        %c128_5 = arith.constant 128 : index
        %14 = kda2.div %13, %c128_5 : index, index -> index
        kda2.loop serial %e to %14 {
          %c32_6 = arith.constant 32 : index
          %c128_7 = arith.constant 128 : index
          %15 = kda2.div %c128_7, %c32_6 : index, index -> index
          %16 = kda2.mul %e, %15 : index, index -> index
          %c32_8 = arith.constant 32 : index
          %17 = kda2.div %x, %c32_8 : index, index -> index
          %18 = kda2.add %16, %17 : index, index -> index
          %c32_9 = arith.constant 32 : index
          %19 = kda2.rem %x, %c32_9 : index, index -> index
          %c32_10 = arith.constant 32 : index
          %c128_11 = arith.constant 128 : index
          %20 = kda2.div %c128_11, %c32_10 : index, index -> index
          %21 = kda2.mul %e, %20 : index, index -> index
          %c32_12 = arith.constant 32 : index
          %22 = kda2.div %x, %c32_12 : index, index -> index
          %23 = kda2.add %21, %22 : index, index -> index
          %c32_13 = arith.constant 32 : index
          %24 = kda2.mul %vb, %c32_13 : index, index -> index
          %c32_14 = arith.constant 32 : index
          %25 = kda2.rem %x, %c32_14 : index, index -> index
          %26 = kda2.add %24, %25 : index, index -> index
          %27 = kda2.load %h0[%23, %26] : !kda2.tensor<[n, h, 128, 128], f32> -> f32
          kda2.store %27, %S[%18, %19] : f32, !kda2.tensor<[128, 32], f32, smem>
        }
      }
      %c16_0 = arith.constant 16 : index
      %9 = kda2.cast %5 : i32 -> index
      %10 = kda2.add %9, %c16_0 : index, index -> index
      %c1_1 = arith.constant 1 : index
      %11 = kda2.sub %10, %c1_1 : index, index -> index
      %c16_2 = arith.constant 16 : index
      %12 = kda2.div %11, %c16_2 : index, index -> index
      kda2.loop serial %c to %12 annotations [#kda2.pragma<tma_pipeline>] {
        %13 = kda2.add %8, %c : index, index -> index
        %14 = kda2.load %qd[%13] : !kda2.tensor<[h, ns, 16, 128], bf16> -> tensor<16x128xbf16>
        kda2.store %14, %Qd[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
        %15 = kda2.add %8, %c : index, index -> index
        %16 = kda2.load %kl[%15] : !kda2.tensor<[h, ns, 16, 128], bf16> -> tensor<16x128xbf16>
        kda2.store %16, %Kl[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
        %17 = kda2.add %8, %c : index, index -> index
        %18 = kda2.load %wn[%17] : !kda2.tensor<[h, ns, 16, 128], bf16> -> tensor<16x128xbf16>
        kda2.store %18, %Wn[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
        %19 = kda2.add %8, %c : index, index -> index
        %20 = kda2.load %tp[%19] : !kda2.tensor<[h, ns, 16, 16], bf16> -> tensor<16x16xbf16>
        kda2.store %20, %Tp[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
        %21 = kda2.add %8, %c : index, index -> index
        %22 = kda2.load %pb[%21] : !kda2.tensor<[h, ns, 16, 16], bf16> -> tensor<16x16xbf16>
        kda2.store %22, %Pb[] : tensor<16x16xbf16>, !kda2.tensor<[16, 16], bf16, smem>
        %23 = kda2.add %8, %c : index, index -> index
        %24 = kda2.load %gl[%23] : !kda2.tensor<[h, ns, 128], f32> -> tensor<128xf32>
        kda2.store %24, %Gl[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %25 = kda2.add %2, %5 : i32, i32 -> i32
        %26 = kda2.cast %25 : i32 -> index
        %c16_4 = arith.constant 16 : index
        %27 = kda2.mul %c, %c16_4 : index, index -> index
        %28 = kda2.cast %2 : i32 -> index
        %29 = kda2.add %28, %27 : index, index -> index
        %c32 = arith.constant 32 : index
        %30 = kda2.mul %vb, %c32 : index, index -> index
        %c128_5 = arith.constant 128 : index
        %31 = kda2.load %v[%29, %1, %30] limits(%26, %c128_5) {windows = array<i64: 16, 0, 32>} : !kda2.tensor<[tt, h, 128], bf16> -> tensor<16x32xbf16>
        kda2.store %31, %Vs[] : tensor<16x32xbf16>, !kda2.tensor<[16, 32], bf16, smem>
        %c128_6 = arith.constant 128 : index
        kda2.loop thread %x to %c128_6 {
          %c128_9 = arith.constant 128 : index
          %c32_10 = arith.constant 32 : index
          %50 = kda2.mul %c128_9, %c32_10 : index, index -> index
          %c128_11 = arith.constant 128 : index
          %51 = kda2.div %50, %c128_11 : index, index -> index
          kda2.loop serial %e to %51 annotations [#kda2.pragma<unroll>] {
            %c32_12 = arith.constant 32 : index
            %c128_13 = arith.constant 128 : index
            %52 = kda2.div %c128_13, %c32_12 : index, index -> index
            %53 = kda2.mul %e, %52 : index, index -> index
            %c32_14 = arith.constant 32 : index
            %54 = kda2.div %x, %c32_14 : index, index -> index
            %55 = kda2.add %53, %54 : index, index -> index
            %c32_15 = arith.constant 32 : index
            %56 = kda2.rem %x, %c32_15 : index, index -> index
            %57 = kda2.load %S[%55, %56] : !kda2.tensor<[128, 32], f32, smem> -> f32
            %c32_16 = arith.constant 32 : index
            %c128_17 = arith.constant 128 : index
            %58 = kda2.div %c128_17, %c32_16 : index, index -> index
            %59 = kda2.mul %e, %58 : index, index -> index
            %c32_18 = arith.constant 32 : index
            %60 = kda2.div %x, %c32_18 : index, index -> index
            %61 = kda2.add %59, %60 : index, index -> index
            %c32_19 = arith.constant 32 : index
            %62 = kda2.rem %x, %c32_19 : index, index -> index
            %63 = kda2.cast %57 : f32 -> bf16
            kda2.store %63, %Sb[%61, %62] : bf16, !kda2.tensor<[128, 32], bf16, smem>
            %c32_20 = arith.constant 32 : index
            %c128_21 = arith.constant 128 : index
            %64 = kda2.div %c128_21, %c32_20 : index, index -> index
            %65 = kda2.mul %e, %64 : index, index -> index
            %c32_22 = arith.constant 32 : index
            %66 = kda2.div %x, %c32_22 : index, index -> index
            %67 = kda2.add %65, %66 : index, index -> index
            %c32_23 = arith.constant 32 : index
            %68 = kda2.rem %x, %c32_23 : index, index -> index
            %c32_24 = arith.constant 32 : index
            %c128_25 = arith.constant 128 : index
            %69 = kda2.div %c128_25, %c32_24 : index, index -> index
            %70 = kda2.mul %e, %69 : index, index -> index
            %c32_26 = arith.constant 32 : index
            %71 = kda2.div %x, %c32_26 : index, index -> index
            %72 = kda2.add %70, %71 : index, index -> index
            %73 = kda2.load %Gl[%72] : !kda2.tensor<[128], f32, smem> -> f32
            %74 = kda2.mul %57, %73 : f32, f32 -> f32
            kda2.store %74, %S[%67, %68] : f32, !kda2.tensor<[128, 32], f32, smem>
          }
        }
        %32 = kda2.load %Tp[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
        %33 = kda2.load %Vs[] : !kda2.tensor<[16, 32], bf16, smem> -> tensor<16x32xbf16>
        %34 = kda2.matmul %32, %33 : tensor<16x16xbf16>, tensor<16x32xbf16> -> tensor<16x32xf32>
        kda2.store %34, %U[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %35 = kda2.load %Wn[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %36 = kda2.load %Sb[] : !kda2.tensor<[128, 32], bf16, smem> -> tensor<128x32xbf16>
        %37 = kda2.load %U[] : !kda2.tensor<[16, 32], f32, smem> -> tensor<16x32xf32>
        %38 = kda2.matmul %35, %36 acc(%37) : tensor<16x128xbf16>, tensor<128x32xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %38, %U[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %39 = kda2.load %Qd[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %40 = kda2.load %Sb[] : !kda2.tensor<[128, 32], bf16, smem> -> tensor<128x32xbf16>
        %41 = kda2.matmul %39, %40 : tensor<16x128xbf16>, tensor<128x32xbf16> -> tensor<16x32xf32>
        kda2.store %41, %O[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %c128_7 = arith.constant 128 : index
        kda2.loop thread %x to %c128_7 {
          %c16_9 = arith.constant 16 : index
          %c32_10 = arith.constant 32 : index
          %50 = kda2.mul %c16_9, %c32_10 : index, index -> index
          %c128_11 = arith.constant 128 : index
          %51 = kda2.div %50, %c128_11 : index, index -> index
          kda2.loop serial %e to %51 annotations [#kda2.pragma<unroll>] {
            %c32_12 = arith.constant 32 : index
            %c128_13 = arith.constant 128 : index
            %52 = kda2.div %c128_13, %c32_12 : index, index -> index
            %53 = kda2.mul %e, %52 : index, index -> index
            %c32_14 = arith.constant 32 : index
            %54 = kda2.div %x, %c32_14 : index, index -> index
            %55 = kda2.add %53, %54 : index, index -> index
            %c32_15 = arith.constant 32 : index
            %56 = kda2.rem %x, %c32_15 : index, index -> index
            %c32_16 = arith.constant 32 : index
            %c128_17 = arith.constant 128 : index
            %57 = kda2.div %c128_17, %c32_16 : index, index -> index
            %58 = kda2.mul %e, %57 : index, index -> index
            %c32_18 = arith.constant 32 : index
            %59 = kda2.div %x, %c32_18 : index, index -> index
            %60 = kda2.add %58, %59 : index, index -> index
            %c32_19 = arith.constant 32 : index
            %61 = kda2.rem %x, %c32_19 : index, index -> index
            %62 = kda2.load %U[%60, %61] : !kda2.tensor<[16, 32], f32, smem> -> f32
            %63 = kda2.cast %62 : f32 -> bf16
            kda2.store %63, %Ub[%55, %56] : bf16, !kda2.tensor<[16, 32], bf16, smem>
          }
        }
        %42 = kda2.load %Pb[] : !kda2.tensor<[16, 16], bf16, smem> -> tensor<16x16xbf16>
        %43 = kda2.load %Ub[] : !kda2.tensor<[16, 32], bf16, smem> -> tensor<16x32xbf16>
        %44 = kda2.load %O[] : !kda2.tensor<[16, 32], f32, smem> -> tensor<16x32xf32>
        %45 = kda2.matmul %42, %43 acc(%44) : tensor<16x16xbf16>, tensor<16x32xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %45, %O[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, smem>
        %46 = kda2.load %Kl[] : !kda2.tensor<[16, 128], bf16, smem> -> tensor<16x128xbf16>
        %47 = kda2.load %Ub[] : !kda2.tensor<[16, 32], bf16, smem> -> tensor<16x32xbf16>
        %48 = kda2.load %S[] : !kda2.tensor<[128, 32], f32, smem> -> tensor<128x32xf32>
        %49 = kda2.matmul %46, %47 acc(%48) {transpose_a} : tensor<16x128xbf16>, tensor<16x32xbf16>, tensor<128x32xf32> -> tensor<128x32xf32>
        kda2.store %49, %S[] : tensor<128x32xf32>, !kda2.tensor<[128, 32], f32, smem>
        %c128_8 = arith.constant 128 : index
        kda2.loop thread %x to %c128_8 {
          %c16_9 = arith.constant 16 : index
          %c32_10 = arith.constant 32 : index
          %50 = kda2.mul %c16_9, %c32_10 : index, index -> index
          %c128_11 = arith.constant 128 : index
          %51 = kda2.div %50, %c128_11 : index, index -> index
          kda2.loop serial %e to %51 annotations [#kda2.pragma<unroll>] {
            %c32_12 = arith.constant 32 : index
            %c128_13 = arith.constant 128 : index
            %52 = kda2.div %c128_13, %c32_12 : index, index -> index
            %53 = kda2.mul %e, %52 : index, index -> index
            %c32_14 = arith.constant 32 : index
            %54 = kda2.div %x, %c32_14 : index, index -> index
            %55 = kda2.add %53, %54 : index, index -> index
            %c16_15 = arith.constant 16 : index
            %56 = kda2.mul %c, %c16_15 : index, index -> index
            %57 = kda2.cast %5 : i32 -> index
            %58 = kda2.sub %57, %56 : index, index -> index
            %59 = kda2.sub %58, %55 : index, index -> index
            %c1_16 = arith.constant 1 : index
            %60 = kda2.min %59, %c1_16 : index, index -> index
            kda2.loop serial %live to %60 {
              %c16_17 = arith.constant 16 : index
              %61 = kda2.mul %c, %c16_17 : index, index -> index
              %62 = kda2.cast %2 : i32 -> index
              %63 = kda2.add %62, %61 : index, index -> index
              %64 = kda2.add %63, %55 : index, index -> index
              %c32_18 = arith.constant 32 : index
              %65 = kda2.mul %vb, %c32_18 : index, index -> index
              %c32_19 = arith.constant 32 : index
              %66 = kda2.rem %x, %c32_19 : index, index -> index
              %67 = kda2.add %65, %66 : index, index -> index
              %c32_20 = arith.constant 32 : index
              %68 = kda2.rem %x, %c32_20 : index, index -> index
              %69 = kda2.load %O[%55, %68] : !kda2.tensor<[16, 32], f32, smem> -> f32
              %70 = kda2.cast %69 : f32 -> bf16
              kda2.store %70, %o[%64, %1, %67] : bf16, !kda2.tensor<[tt, h, 128], bf16>
            }
          }
        }
      }
      %c128_3 = arith.constant 128 : index
      kda2.loop thread %x to %c128_3 {
        %c128_4 = arith.constant 128 : index
        %c32 = arith.constant 32 : index
        %13 = kda2.mul %c128_4, %c32 : index, index -> index
        %c128_5 = arith.constant 128 : index
        %14 = kda2.div %13, %c128_5 : index, index -> index
        kda2.loop serial %e to %14 {
          %c32_6 = arith.constant 32 : index
          %c128_7 = arith.constant 128 : index
          %15 = kda2.div %c128_7, %c32_6 : index, index -> index
          %16 = kda2.mul %e, %15 : index, index -> index
          %c32_8 = arith.constant 32 : index
          %17 = kda2.div %x, %c32_8 : index, index -> index
          %18 = kda2.add %16, %17 : index, index -> index
          %c32_9 = arith.constant 32 : index
          %19 = kda2.mul %vb, %c32_9 : index, index -> index
          %c32_10 = arith.constant 32 : index
          %20 = kda2.rem %x, %c32_10 : index, index -> index
          %21 = kda2.add %19, %20 : index, index -> index
          %c32_11 = arith.constant 32 : index
          %c128_12 = arith.constant 128 : index
          %22 = kda2.div %c128_12, %c32_11 : index, index -> index
          %23 = kda2.mul %e, %22 : index, index -> index
          %c32_13 = arith.constant 32 : index
          %24 = kda2.div %x, %c32_13 : index, index -> index
          %25 = kda2.add %23, %24 : index, index -> index
          %c32_14 = arith.constant 32 : index
          %26 = kda2.rem %x, %c32_14 : index, index -> index
          %27 = kda2.load %S[%25, %26] : !kda2.tensor<[128, 32], f32, smem> -> f32
          kda2.store %27, %ht[%18, %21] : f32, !kda2.tensor<[n, h, 128, 128], f32>
        }
      }
    }
    kda2.return
  }
}
