module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_decode_conv(%qkv: !kda2.tensor<[tt, D], bf16> {kda2.stride = 13 : i64}, %conv_w: !kda2.tensor<[D, 4], f32>, %a: !kda2.tensor<[tt, h, 128], f32>, %b: !kda2.tensor<[tt, h], f32>, %gout: !kda2.tensor<[tt, h, 128], bf16>, %A_log: !kda2.tensor<[h], f32>, %dt_bias: !kda2.tensor<[h, 128], f32>, %norm_w: !kda2.tensor<[128], f32>, %cu_seqlens: !kda2.tensor<[np1], i64>, %state_indices: !kda2.tensor<[n], i64>, %has_initial_state: !kda2.tensor<[n], i32>, %conv_state: !kda2.tensor<[slots, D, 3], bf16> {kda2.io = #kda2.io<inout>}, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %sx: i64, %scale: f32, %lower_bound: f32, %eps: f32, %o: !kda2.tensor<[tt, h, 128], bf16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["qkv", "conv_w", "a", "b", "gout", "A_log", "dt_bias", "norm_w", "cu_seqlens", "state_indices", "has_initial_state", "conv_state", "pool", "sx", "scale", "lower_bound", "eps", "o"], grid = ["n", "h"], kda2.bindings = {AL = 1 : i64, DB = 1 : i64, GF = 2 : i64, K = 128 : i64, LANES = 4 : i64, V = 128 : i64, W = 4 : i64, W1 = 3 : i64}} {
    kda2.gmem %qkv layout(row_major) packing(none) : !kda2.tensor<[tt, D], bf16>
    kda2.gmem %conv_w, %a, %b, %gout, %A_log, %dt_bias, %norm_w, %o layout(row_major) packing(none) : !kda2.tensor<[D, 4], f32>, !kda2.tensor<[tt, h, 128], f32>, !kda2.tensor<[tt, h], f32>, !kda2.tensor<[tt, h, 128], bf16>, !kda2.tensor<[h], f32>, !kda2.tensor<[h, 128], f32>, !kda2.tensor<[128], f32>, !kda2.tensor<[tt, h, 128], bf16>
    kda2.gmem %cu_seqlens, %state_indices, %has_initial_state, %conv_state layout(row_major) packing(none) : !kda2.tensor<[np1], i64>, !kda2.tensor<[n], i64>, !kda2.tensor<[n], i32>, !kda2.tensor<[slots, D, 3], bf16>
    kda2.gmem %pool layout(VK) packing(none) : !kda2.tensor<[slots, h, 128, 128], f32>
    %WinQ = kda2.smem_alloc size(2048) : !kda2.tensor<[128, 3], f32, smem>
    %WinK = kda2.smem_alloc size(2048) : !kda2.tensor<[128, 3], f32, smem>
    %WinV = kda2.smem_alloc size(2048) : !kda2.tensor<[128, 3], f32, smem>
    %Qs = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %Ks = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %Vs = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %Eg = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %Os = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %s = kda2.reg_alloc : !kda2.tensor<[128], f32, reg>
    %acc = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
    %c1 = arith.constant 1 : index
    kda2.loop block %blk to %c1 {
      %0 = kda2.grid_index "n" : index
      %1 = kda2.grid_index "h" : index
      %2 = kda2.load %cu_seqlens[%0] : !kda2.tensor<[np1], i64> -> i64
      %c1_0 = arith.constant 1 : index
      %3 = kda2.add %0, %c1_0 : index, index -> index
      %4 = kda2.load %cu_seqlens[%3] : !kda2.tensor<[np1], i64> -> i64
      %5 = kda2.load %state_indices[] : !kda2.tensor<[n], i64> -> i64
      %c0_i64 = arith.constant 0 : i64
      %6 = kda2.cmp ge %5, %c0_i64 : i64, i64 -> i1
      %7 = kda2.dim "slots" : index
      %8 = kda2.cast %5 : i64 -> index
      %9 = kda2.cmp lt %8, %7 : index, index -> i1
      %false = arith.constant false
      %10 = kda2.select %6, %9, %false : i1, i1, i1 -> i1
      %11 = kda2.load %has_initial_state[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32 = arith.constant 0 : i32
      %12 = kda2.cmp ne %11, %c0_i32 : i32, i32 -> i1
      %false_1 = arith.constant false
      %13 = kda2.select %10, %12, %false_1 : i1, i1, i1 -> i1
      %c0_i64_2 = arith.constant 0 : i64
      %14 = kda2.max %5, %c0_i64_2 : i64, i64 -> i64
      %15 = kda2.dim "slots" : index
      %c1_3 = arith.constant 1 : index
      %16 = kda2.sub %15, %c1_3 : index, index -> index
      %17 = kda2.cast %14 : i64 -> index
      %18 = kda2.min %17, %16 : index, index -> index
      kda2.if %10 {
        %c128 = arith.constant 128 : index
        kda2.loop thread %d to %c128 {
          %c3 = arith.constant 3 : index
          kda2.loop serial %w to %c3 annotations [#kda2.pragma<unroll>] {
            %c128_9 = arith.constant 128 : index
            %21 = kda2.mul %1, %c128_9 : index, index -> index
            %22 = kda2.add %21, %d : index, index -> index
            %23 = kda2.load %conv_state[%18, %22, %w] : !kda2.tensor<[slots, D, 3], bf16> -> bf16
            %24 = kda2.cast %23 : bf16 -> f32
            %cst = arith.constant 0.000000e+00 : f32
            %25 = kda2.select %13, %24, %cst : i1, f32, f32 -> f32
            kda2.store %25, %WinQ[%d, %w] : f32, !kda2.tensor<[128, 3], f32, smem>
            %26 = kda2.dim "h" : index
            %c128_10 = arith.constant 128 : index
            %27 = kda2.mul %26, %c128_10 : index, index -> index
            %c128_11 = arith.constant 128 : index
            %28 = kda2.mul %1, %c128_11 : index, index -> index
            %29 = kda2.add %27, %28 : index, index -> index
            %30 = kda2.add %29, %d : index, index -> index
            %31 = kda2.load %conv_state[%18, %30, %w] : !kda2.tensor<[slots, D, 3], bf16> -> bf16
            %32 = kda2.cast %31 : bf16 -> f32
            %cst_12 = arith.constant 0.000000e+00 : f32
            %33 = kda2.select %13, %32, %cst_12 : i1, f32, f32 -> f32
            kda2.store %33, %WinK[%d, %w] : f32, !kda2.tensor<[128, 3], f32, smem>
          }
        }
        %c128_4 = arith.constant 128 : index
        kda2.loop thread %d to %c128_4 {
          %c3 = arith.constant 3 : index
          kda2.loop serial %w to %c3 annotations [#kda2.pragma<unroll>] {
            %21 = kda2.dim "h" : index
            %c2 = arith.constant 2 : index
            %22 = kda2.mul %c2, %21 : index, index -> index
            %c128_9 = arith.constant 128 : index
            %23 = kda2.mul %22, %c128_9 : index, index -> index
            %c128_10 = arith.constant 128 : index
            %24 = kda2.mul %1, %c128_10 : index, index -> index
            %25 = kda2.add %23, %24 : index, index -> index
            %26 = kda2.add %25, %d : index, index -> index
            %27 = kda2.load %conv_state[%18, %26, %w] : !kda2.tensor<[slots, D, 3], bf16> -> bf16
            %28 = kda2.cast %27 : bf16 -> f32
            %cst = arith.constant 0.000000e+00 : f32
            %29 = kda2.select %13, %28, %cst : i1, f32, f32 -> f32
            kda2.store %29, %WinV[%d, %w] : f32, !kda2.tensor<[128, 3], f32, smem>
          }
        }
        %c128_5 = arith.constant 128 : index
        kda2.loop thread %j to %c128_5 lanes(4) annotations [#kda2.coalesced_access<>] {
          %21 = kda2.load %pool[%18, %1, %j] : !kda2.tensor<[slots, h, 128, 128], f32> -> tensor<128xf32>
          %cst = arith.constant 0.000000e+00 : f32
          %22 = kda2.select %13, %21, %cst : i1, tensor<128xf32>, f32 -> tensor<128xf32>
          kda2.store %22, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
        }
        %19 = kda2.sub %4, %2 : i64, i64 -> i64
        %20 = kda2.cast %19 : i64 -> index
        kda2.loop serial %i to %20 {
          %21 = kda2.cast %2 : i64 -> index
          %22 = kda2.add %21, %i : index, index -> index
          %c128_9 = arith.constant 128 : index
          kda2.loop thread %d to %c128_9 {
            %c128_13 = arith.constant 128 : index
            %23 = kda2.mul %1, %c128_13 : index, index -> index
            %24 = kda2.add %23, %d : index, index -> index
            %25 = kda2.load %qkv[%22, %24] : !kda2.tensor<[tt, D], bf16> -> bf16
            %26 = kda2.cast %25 : bf16 -> f32
            %c0 = arith.constant 0 : index
            %c3 = arith.constant 3 : index
            %27 = kda2.load %conv_w[%24, %c3] : !kda2.tensor<[D, 4], f32> -> f32
            %28 = kda2.mul %27, %26 : f32, f32 -> f32
            kda2.store %28, %acc[%c0] : f32, !kda2.tensor<[1], f32, reg>
            %c3_14 = arith.constant 3 : index
            kda2.loop serial %w to %c3_14 annotations [#kda2.pragma<unroll>] {
              %c0_33 = arith.constant 0 : index
              %c0_34 = arith.constant 0 : index
              %64 = kda2.load %acc[%c0_34] : !kda2.tensor<[1], f32, reg> -> f32
              %65 = kda2.load %conv_w[%24, %w] : !kda2.tensor<[D, 4], f32> -> f32
              %66 = kda2.load %WinQ[%d, %w] : !kda2.tensor<[128, 3], f32, smem> -> f32
              %67 = kda2.mul %65, %66 : f32, f32 -> f32
              %68 = kda2.add %64, %67 : f32, f32 -> f32
              kda2.store %68, %acc[%c0_33] : f32, !kda2.tensor<[1], f32, reg>
            }
            %c0_15 = arith.constant 0 : index
            %29 = kda2.load %acc[%c0_15] : !kda2.tensor<[1], f32, reg> -> f32
            %c0_16 = arith.constant 0 : index
            %30 = kda2.load %acc[%c0_16] : !kda2.tensor<[1], f32, reg> -> f32
            %31 = kda2.sigmoid %30 : f32
            %32 = kda2.mul %29, %31 : f32, f32 -> f32
            kda2.store %32, %Qs[%d] : f32, !kda2.tensor<[128], f32, smem>
            %c3_17 = arith.constant 3 : index
            kda2.loop serial %w to %c3_17 annotations [#kda2.pragma<unroll>] {
              %c1_33 = arith.constant 1 : index
              %64 = kda2.add %w, %c1_33 : index, index -> index
              %c3_34 = arith.constant 3 : index
              %65 = kda2.cmp lt %64, %c3_34 : index, index -> i1
              %c1_35 = arith.constant 1 : index
              %66 = kda2.add %w, %c1_35 : index, index -> index
              %c3_36 = arith.constant 3 : index
              %c1_37 = arith.constant 1 : index
              %67 = kda2.sub %c3_36, %c1_37 : index, index -> index
              %68 = kda2.min %66, %67 : index, index -> index
              %69 = kda2.load %WinQ[%d, %68] : !kda2.tensor<[128, 3], f32, smem> -> f32
              %70 = kda2.select %65, %69, %26 : i1, f32, f32 -> f32
              kda2.store %70, %WinQ[%d, %w] : f32, !kda2.tensor<[128, 3], f32, smem>
            }
            %33 = kda2.dim "h" : index
            %c128_18 = arith.constant 128 : index
            %34 = kda2.mul %33, %c128_18 : index, index -> index
            %c128_19 = arith.constant 128 : index
            %35 = kda2.mul %1, %c128_19 : index, index -> index
            %36 = kda2.add %34, %35 : index, index -> index
            %37 = kda2.add %36, %d : index, index -> index
            %38 = kda2.load %qkv[%22, %37] : !kda2.tensor<[tt, D], bf16> -> bf16
            %39 = kda2.cast %38 : bf16 -> f32
            %c0_20 = arith.constant 0 : index
            %c3_21 = arith.constant 3 : index
            %40 = kda2.load %conv_w[%37, %c3_21] : !kda2.tensor<[D, 4], f32> -> f32
            %41 = kda2.mul %40, %39 : f32, f32 -> f32
            kda2.store %41, %acc[%c0_20] : f32, !kda2.tensor<[1], f32, reg>
            %c3_22 = arith.constant 3 : index
            kda2.loop serial %w to %c3_22 annotations [#kda2.pragma<unroll>] {
              %c0_33 = arith.constant 0 : index
              %c0_34 = arith.constant 0 : index
              %64 = kda2.load %acc[%c0_34] : !kda2.tensor<[1], f32, reg> -> f32
              %65 = kda2.load %conv_w[%37, %w] : !kda2.tensor<[D, 4], f32> -> f32
              %66 = kda2.load %WinK[%d, %w] : !kda2.tensor<[128, 3], f32, smem> -> f32
              %67 = kda2.mul %65, %66 : f32, f32 -> f32
              %68 = kda2.add %64, %67 : f32, f32 -> f32
              kda2.store %68, %acc[%c0_33] : f32, !kda2.tensor<[1], f32, reg>
            }
            %c0_23 = arith.constant 0 : index
            %42 = kda2.load %acc[%c0_23] : !kda2.tensor<[1], f32, reg> -> f32
            %c0_24 = arith.constant 0 : index
            %43 = kda2.load %acc[%c0_24] : !kda2.tensor<[1], f32, reg> -> f32
            %44 = kda2.sigmoid %43 : f32
            %45 = kda2.mul %42, %44 : f32, f32 -> f32
            kda2.store %45, %Ks[%d] : f32, !kda2.tensor<[128], f32, smem>
            %c3_25 = arith.constant 3 : index
            kda2.loop serial %w to %c3_25 annotations [#kda2.pragma<unroll>] {
              %c1_33 = arith.constant 1 : index
              %64 = kda2.add %w, %c1_33 : index, index -> index
              %c3_34 = arith.constant 3 : index
              %65 = kda2.cmp lt %64, %c3_34 : index, index -> i1
              %c1_35 = arith.constant 1 : index
              %66 = kda2.add %w, %c1_35 : index, index -> index
              %c3_36 = arith.constant 3 : index
              %c1_37 = arith.constant 1 : index
              %67 = kda2.sub %c3_36, %c1_37 : index, index -> index
              %68 = kda2.min %66, %67 : index, index -> index
              %69 = kda2.load %WinK[%d, %68] : !kda2.tensor<[128, 3], f32, smem> -> f32
              %70 = kda2.select %65, %69, %39 : i1, f32, f32 -> f32
              kda2.store %70, %WinK[%d, %w] : f32, !kda2.tensor<[128, 3], f32, smem>
            }
            %46 = kda2.load %a[%22, %1, %d] : !kda2.tensor<[tt, h, 128], f32> -> f32
            %c1_26 = arith.constant 1 : index
            %c1_27 = arith.constant 1 : index
            %47 = kda2.cmp eq %c1_26, %c1_27 : index, index -> i1
            %48 = kda2.load %dt_bias[%d] : !kda2.tensor<[h, 128], f32> -> f32
            %cst = arith.constant 0.000000e+00 : f32
            %49 = kda2.select %47, %48, %cst : i1, f32, f32 -> f32
            %50 = kda2.add %46, %49 : f32, f32 -> f32
            %c1_28 = arith.constant 1 : index
            %c1_29 = arith.constant 1 : index
            %51 = kda2.cmp eq %c1_28, %c1_29 : index, index -> i1
            %52 = kda2.load %A_log[] : !kda2.tensor<[h], f32> -> f32
            %53 = kda2.exp %52 : f32
            %cst_30 = arith.constant 1.000000e+00 : f32
            %54 = kda2.select %51, %53, %cst_30 : i1, f32, f32 -> f32
            %c2 = arith.constant 2 : index
            %c1_31 = arith.constant 1 : index
            %55 = kda2.cmp eq %c2, %c1_31 : index, index -> i1
            %56 = kda2.mul %54, %50 : f32, f32 -> f32
            %57 = kda2.sigmoid %56 : f32
            %58 = kda2.mul %57, %lower_bound : f32, f32 -> f32
            %59 = kda2.softplus %50 : f32
            %60 = kda2.mul %54, %59 : f32, f32 -> f32
            %cst_32 = arith.constant 0.000000e+00 : f32
            %61 = kda2.sub %cst_32, %60 : f32, f32 -> f32
            %62 = kda2.select %55, %58, %61 : i1, f32, f32 -> f32
            %63 = kda2.exp %62 : f32
            kda2.store %63, %Eg[%d] : f32, !kda2.tensor<[128], f32, smem>
          }
          %c128_10 = arith.constant 128 : index
          kda2.loop thread %d to %c128_10 {
            %23 = kda2.dim "h" : index
            %c2 = arith.constant 2 : index
            %24 = kda2.mul %c2, %23 : index, index -> index
            %c128_13 = arith.constant 128 : index
            %25 = kda2.mul %24, %c128_13 : index, index -> index
            %c128_14 = arith.constant 128 : index
            %26 = kda2.mul %1, %c128_14 : index, index -> index
            %27 = kda2.add %25, %26 : index, index -> index
            %28 = kda2.add %27, %d : index, index -> index
            %29 = kda2.load %qkv[%22, %28] : !kda2.tensor<[tt, D], bf16> -> bf16
            %30 = kda2.cast %29 : bf16 -> f32
            %c0 = arith.constant 0 : index
            %c3 = arith.constant 3 : index
            %31 = kda2.load %conv_w[%28, %c3] : !kda2.tensor<[D, 4], f32> -> f32
            %32 = kda2.mul %31, %30 : f32, f32 -> f32
            kda2.store %32, %acc[%c0] : f32, !kda2.tensor<[1], f32, reg>
            %c3_15 = arith.constant 3 : index
            kda2.loop serial %w to %c3_15 annotations [#kda2.pragma<unroll>] {
              %c0_19 = arith.constant 0 : index
              %c0_20 = arith.constant 0 : index
              %37 = kda2.load %acc[%c0_20] : !kda2.tensor<[1], f32, reg> -> f32
              %38 = kda2.load %conv_w[%28, %w] : !kda2.tensor<[D, 4], f32> -> f32
              %39 = kda2.load %WinV[%d, %w] : !kda2.tensor<[128, 3], f32, smem> -> f32
              %40 = kda2.mul %38, %39 : f32, f32 -> f32
              %41 = kda2.add %37, %40 : f32, f32 -> f32
              kda2.store %41, %acc[%c0_19] : f32, !kda2.tensor<[1], f32, reg>
            }
            %c0_16 = arith.constant 0 : index
            %33 = kda2.load %acc[%c0_16] : !kda2.tensor<[1], f32, reg> -> f32
            %c0_17 = arith.constant 0 : index
            %34 = kda2.load %acc[%c0_17] : !kda2.tensor<[1], f32, reg> -> f32
            %35 = kda2.sigmoid %34 : f32
            %36 = kda2.mul %33, %35 : f32, f32 -> f32
            kda2.store %36, %Vs[%d] : f32, !kda2.tensor<[128], f32, smem>
            %c3_18 = arith.constant 3 : index
            kda2.loop serial %w to %c3_18 annotations [#kda2.pragma<unroll>] {
              %c1_19 = arith.constant 1 : index
              %37 = kda2.add %w, %c1_19 : index, index -> index
              %c3_20 = arith.constant 3 : index
              %38 = kda2.cmp lt %37, %c3_20 : index, index -> i1
              %c1_21 = arith.constant 1 : index
              %39 = kda2.add %w, %c1_21 : index, index -> index
              %c3_22 = arith.constant 3 : index
              %c1_23 = arith.constant 1 : index
              %40 = kda2.sub %c3_22, %c1_23 : index, index -> index
              %41 = kda2.min %39, %40 : index, index -> index
              %42 = kda2.load %WinV[%d, %41] : !kda2.tensor<[128, 3], f32, smem> -> f32
              %43 = kda2.select %38, %42, %30 : i1, f32, f32 -> f32
              kda2.store %43, %WinV[%d, %w] : f32, !kda2.tensor<[128, 3], f32, smem>
            }
          }
          %c128_11 = arith.constant 128 : index
          kda2.loop thread %j to %c128_11 lanes(4) annotations [#kda2.coalesced_access<>] {
            %23 = kda2.load %Qs[] : !kda2.tensor<[128], f32, smem> -> tensor<128xf32>
            %24 = kda2.l2norm %23 : tensor<128xf32>
            %25 = kda2.load %Ks[] : !kda2.tensor<[128], f32, smem> -> tensor<128xf32>
            %26 = kda2.l2norm %25 : tensor<128xf32>
            %27 = kda2.load %b[%22, %1] : !kda2.tensor<[tt, h], f32> -> f32
            %28 = kda2.sigmoid %27 : f32
            %29 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
            %30 = kda2.load %Eg[] : !kda2.tensor<[128], f32, smem> -> tensor<128xf32>
            %31 = kda2.mul %29, %30 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %32 = kda2.load %Vs[%j] : !kda2.tensor<[128], f32, smem> -> f32
            %33 = kda2.mul %26, %31 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %34 = kda2.reduce sum %33 : tensor<128xf32> -> f32
            %35 = kda2.sub %32, %34 : f32, f32 -> f32
            %36 = kda2.mul %35, %28 : f32, f32 -> f32
            %37 = kda2.mul %26, %36 : tensor<128xf32>, f32 -> tensor<128xf32>
            %38 = kda2.add %31, %37 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            kda2.store %38, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
            %39 = kda2.mul %24, %38 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %40 = kda2.reduce sum %39 : tensor<128xf32> -> f32
            %41 = kda2.mul %40, %scale : f32, f32 -> f32
            kda2.store %41, %Os[%j] : f32, !kda2.tensor<[128], f32, smem>
          }
          %c128_12 = arith.constant 128 : index
          kda2.loop thread %j to %c128_12 {
            %23 = kda2.load %Os[] : !kda2.tensor<[128], f32, smem> -> tensor<128xf32>
            %24 = kda2.load %Os[] : !kda2.tensor<[128], f32, smem> -> tensor<128xf32>
            %25 = kda2.mul %23, %24 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %26 = kda2.reduce sum %25 : tensor<128xf32> -> f32
            %c128_13 = arith.constant 128 : index
            %27 = kda2.cast %c128_13 : index -> i32
            %28 = kda2.cast %27 : i32 -> f32
            %cst = arith.constant 1.000000e+00 : f32
            %29 = kda2.div %cst, %28 : f32, f32 -> f32
            %30 = kda2.mul %26, %29 : f32, f32 -> f32
            %31 = kda2.load %Os[%j] : !kda2.tensor<[128], f32, smem> -> f32
            %32 = kda2.add %30, %eps : f32, f32 -> f32
            %33 = kda2.rsqrt %32 : f32
            %34 = kda2.mul %31, %33 : f32, f32 -> f32
            %35 = kda2.load %norm_w[%j] : !kda2.tensor<[128], f32> -> f32
            %36 = kda2.mul %34, %35 : f32, f32 -> f32
            %37 = kda2.load %gout[%22, %1, %j] : !kda2.tensor<[tt, h, 128], bf16> -> bf16
            %38 = kda2.cast %37 : bf16 -> f32
            %39 = kda2.sigmoid %38 : f32
            %40 = kda2.mul %36, %39 : f32, f32 -> f32
            %41 = kda2.cast %40 : f32 -> bf16
            kda2.store %41, %o[%22, %1, %j] : bf16, !kda2.tensor<[tt, h, 128], bf16>
          }
        }
        %c128_6 = arith.constant 128 : index
        kda2.loop thread %j to %c128_6 lanes(4) annotations [#kda2.coalesced_access<>] {
          %21 = kda2.cast %5 : i64 -> index
          %22 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
          kda2.store %22, %pool[%21, %1, %j] : tensor<128xf32>, !kda2.tensor<[slots, h, 128, 128], f32>
        }
        %c128_7 = arith.constant 128 : index
        kda2.loop thread %d to %c128_7 {
          %c3 = arith.constant 3 : index
          kda2.loop serial %w to %c3 annotations [#kda2.pragma<unroll>] {
            %21 = kda2.cast %5 : i64 -> index
            %c128_9 = arith.constant 128 : index
            %22 = kda2.mul %1, %c128_9 : index, index -> index
            %23 = kda2.add %22, %d : index, index -> index
            %24 = kda2.load %WinQ[%d, %w] : !kda2.tensor<[128, 3], f32, smem> -> f32
            %25 = kda2.cast %24 : f32 -> bf16
            kda2.store %25, %conv_state[%21, %23, %w] : bf16, !kda2.tensor<[slots, D, 3], bf16>
            %26 = kda2.cast %5 : i64 -> index
            %27 = kda2.dim "h" : index
            %c128_10 = arith.constant 128 : index
            %28 = kda2.mul %27, %c128_10 : index, index -> index
            %c128_11 = arith.constant 128 : index
            %29 = kda2.mul %1, %c128_11 : index, index -> index
            %30 = kda2.add %28, %29 : index, index -> index
            %31 = kda2.add %30, %d : index, index -> index
            %32 = kda2.load %WinK[%d, %w] : !kda2.tensor<[128, 3], f32, smem> -> f32
            %33 = kda2.cast %32 : f32 -> bf16
            kda2.store %33, %conv_state[%26, %31, %w] : bf16, !kda2.tensor<[slots, D, 3], bf16>
          }
        }
        %c128_8 = arith.constant 128 : index
        kda2.loop thread %d to %c128_8 {
          %c3 = arith.constant 3 : index
          kda2.loop serial %w to %c3 annotations [#kda2.pragma<unroll>] {
            %21 = kda2.cast %5 : i64 -> index
            %22 = kda2.dim "h" : index
            %c2 = arith.constant 2 : index
            %23 = kda2.mul %c2, %22 : index, index -> index
            %c128_9 = arith.constant 128 : index
            %24 = kda2.mul %23, %c128_9 : index, index -> index
            %c128_10 = arith.constant 128 : index
            %25 = kda2.mul %1, %c128_10 : index, index -> index
            %26 = kda2.add %24, %25 : index, index -> index
            %27 = kda2.add %26, %d : index, index -> index
            %28 = kda2.load %WinV[%d, %w] : !kda2.tensor<[128, 3], f32, smem> -> f32
            %29 = kda2.cast %28 : f32 -> bf16
            kda2.store %29, %conv_state[%21, %27, %w] : bf16, !kda2.tensor<[slots, D, 3], bf16>
          }
        }
      } else {
        %19 = kda2.sub %4, %2 : i64, i64 -> i64
        %20 = kda2.cast %19 : i64 -> index
        kda2.loop serial %i to %20 {
          %c128 = arith.constant 128 : index
          kda2.loop thread %j to %c128 {
            %21 = kda2.cast %2 : i64 -> index
            %22 = kda2.add %21, %i : index, index -> index
            %cst = arith.constant 0.000000e+00 : bf16
            kda2.store %cst, %o[%22, %1, %j] : bf16, !kda2.tensor<[tt, h, 128], bf16>
          }
        }
      }
    }
    kda2.return
  }
}
