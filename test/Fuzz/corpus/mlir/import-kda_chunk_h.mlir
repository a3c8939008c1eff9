module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_chunk_scan_h(%v: !kda2.tensor<[tt, h, 128], bf16> {kda2.stride = 12 : i64}, %kl: !kda2.tensor<[h, ns, 32, 128], bf16>, %wn: !kda2.tensor<[h, ns, 32, 128], bf16>, %tp: !kda2.tensor<[h, ns, 32, 32], bf16>, %gl: !kda2.tensor<[h, ns, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %checkpoint_blocks: !kda2.tensor<[n, nc], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %boundaries: i32, %sv: i64, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %hs: !kda2.tensor<[h, ns, 128, 128], bf16> {kda2.io = #kda2.io<out>}, %us: !kda2.tensor<[h, ns, 128, 32], bf16> {kda2.io = #kda2.io<out>}, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["v", "kl", "wn", "tp", "gl", "cu_seqlens", "state_indices", "has_initial_state", "checkpoint_blocks", "ckpt_offsets", "offset_blocks", "boundaries", "sv", "pool", "hs", "us", "ckpt"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, NVB = 8 : i64, V = 128 : i64, VB = 16 : i64}} {
    kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[tt, h, 128], bf16>
    kda2.gmem %kl, %wn, %tp, %gl, %hs, %us, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[h, ns, 128, 128], bf16>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %state_indices, %has_initial_state, %checkpoint_blocks layout(row_major) packing(none) : !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n, nc], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %pool, %ckpt layout(KV) packing(none) : !kda2.tensor<[slots, h, 128, 128], f32>, !kda2.tensor<[blocks, h, 128, 128], f32>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Wn = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Gl = kda2.smem_alloc size(1024) : !kda2.tensor<[128], f32, smem>
    %Vs = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 16], bf16, smem>
    %St = kda2.reg_alloc {mma} : !kda2.tensor<[16, 128], f32, reg>
    %Ut = kda2.reg_alloc {mma} : !kda2.tensor<[16, 32], f32, reg>
    %nx = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %nb = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %c8 = arith.constant 8 : index
    kda2.loop block %vb to %c8 annotations [#kda2.pragma<tma_coalesce>] {
      %0 = kda2.grid_index "n" : index
      %1 = kda2.grid_index "h" : index
      %2 = kda2.load %cu_seqlens[%0] : !kda2.tensor<[np1], i32> -> i32
      %c1 = arith.constant 1 : index
      %3 = kda2.add %0, %c1 : index, index -> index
      %4 = kda2.load %cu_seqlens[%3] : !kda2.tensor<[np1], i32> -> i32
      %5 = kda2.sub %4, %2 : i32, i32 -> i32
      %c32 = arith.constant 32 : index
      %6 = kda2.cast %2 : i32 -> index
      %7 = kda2.div %6, %c32 : index, index -> index
      %8 = kda2.add %7, %0 : index, index -> index
      %9 = kda2.load %state_indices[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32 = arith.constant 0 : i32
      %10 = kda2.cmp ge %9, %c0_i32 : i32, i32 -> i1
      %11 = kda2.dim "slots" : index
      %12 = kda2.cast %9 : i32 -> index
      %13 = kda2.cmp lt %12, %11 : index, index -> i1
      %false = arith.constant false
      %14 = kda2.select %10, %13, %false : i1, i1, i1 -> i1
      %15 = kda2.load %has_initial_state[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32_0 = arith.constant 0 : i32
      %16 = kda2.cmp ne %15, %c0_i32_0 : i32, i32 -> i1
      %false_1 = arith.constant false
      %17 = kda2.select %14, %16, %false_1 : i1, i1, i1 -> i1
      %c0_i32_2 = arith.constant 0 : i32
      %18 = kda2.max %9, %c0_i32_2 : i32, i32 -> i32
      %19 = kda2.dim "slots" : index
      %c1_3 = arith.constant 1 : index
      %20 = kda2.sub %19, %c1_3 : index, index -> index
      %21 = kda2.cast %18 : i32 -> index
      %22 = kda2.min %21, %20 : index, index -> index
      %c2048 = arith.constant 2048 : index
      kda2.loop fragment %arg0 to %c2048 columns(128) {
        %c128 = arith.constant 128 : index
        %34 = kda2.div %arg0, %c128 : index, index -> index
        %35 = kda2.rem %arg0, %c128 : index, index -> index
        %c16 = arith.constant 16 : index
        %36 = kda2.mul %vb, %c16 : index, index -> index
        %37 = kda2.add %36, %34 : index, index -> index
        %38 = kda2.load %pool[%22, %1, %35, %37] : !kda2.tensor<[slots, h, 128, 128], f32> -> f32
        %cst = arith.constant 0.000000e+00 : f32
        %39 = kda2.select %17, %38, %cst : i1, f32, f32 -> f32
        kda2.store %39, %St[%34, %35] : f32, !kda2.tensor<[16, 128], f32, reg>
      }
      %c0 = arith.constant 0 : index
      %c32_4 = arith.constant 32 : index
      %23 = kda2.cast %5 : i32 -> index
      %24 = kda2.add %23, %c32_4 : index, index -> index
      %c1_5 = arith.constant 1 : index
      %25 = kda2.sub %24, %c1_5 : index, index -> index
      %c32_6 = arith.constant 32 : index
      %26 = kda2.div %25, %c32_6 : index, index -> index
      %27 = kda2.cast %26 : index -> i32
      kda2.store %27, %nx[%c0] : i32, !kda2.tensor<[1], i32, reg>
      %28 = kda2.dim "m" : index
      kda2.loop serial %j to %28 {
        %34 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
        %c1_i32 = arith.constant 1 : i32
        %35 = kda2.cmp ge %34, %c1_i32 : i32, i32 -> i1
        %36 = kda2.cmp le %34, %5 : i32, i32 -> i1
        %false_12 = arith.constant false
        %37 = kda2.select %35, %36, %false_12 : i1, i1, i1 -> i1
        kda2.if %37 {
          %c0_13 = arith.constant 0 : index
          %c0_14 = arith.constant 0 : index
          %38 = kda2.load %nx[%c0_14] : !kda2.tensor<[1], i32, reg> -> i32
          %c1_i32_15 = arith.constant 1 : i32
          %39 = kda2.sub %34, %c1_i32_15 : i32, i32 -> i32
          %c32_16 = arith.constant 32 : index
          %40 = kda2.cast %39 : i32 -> index
          %41 = kda2.div %40, %c32_16 : index, index -> index
          %42 = kda2.cast %38 : i32 -> index
          %43 = kda2.min %42, %41 : index, index -> index
          %44 = kda2.cast %43 : index -> i32
          kda2.store %44, %nx[%c0_13] : i32, !kda2.tensor<[1], i32, reg>
        }
      }
      %c0_7 = arith.constant 0 : index
      %c0_8 = arith.constant 0 : index
      %29 = kda2.load %checkpoint_blocks[%c0_8] : !kda2.tensor<[n, nc], i32> -> i32
      kda2.store %29, %nb[%c0_7] : i32, !kda2.tensor<[1], i32, reg>
      %c32_9 = arith.constant 32 : index
      %30 = kda2.cast %5 : i32 -> index
      %31 = kda2.add %30, %c32_9 : index, index -> index
      %c1_10 = arith.constant 1 : index
      %32 = kda2.sub %31, %c1_10 : index, index -> index
      %c32_11 = arith.constant 32 : index
      %33 = kda2.div %32, %c32_11 : index, index -> index
      kda2.loop serial %c to %33 annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp] {
        %34 = kda2.add %8, %c : index, index -> index
        %35 = kda2.load %kl[%34] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %35, %Kl[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %36 = kda2.add %8, %c : index, index -> index
        %37 = kda2.load %wn[%36] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %37, %Wn[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %38 = kda2.add %8, %c : index, index -> index
        %39 = kda2.load %tp[%38] : !kda2.tensor<[h, ns, 32, 32], bf16> -> tensor<32x32xbf16>
        kda2.store %39, %Tp[] : tensor<32x32xbf16>, !kda2.tensor<[32, 32], bf16, smem>
        %40 = kda2.add %8, %c : index, index -> index
        %41 = kda2.load %gl[%40] : !kda2.tensor<[h, ns, 128], f32> -> tensor<128xf32>
        kda2.store %41, %Gl[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %42 = kda2.add %2, %5 : i32, i32 -> i32
        %43 = kda2.cast %42 : i32 -> index
        %c32_12 = arith.constant 32 : index
        %44 = kda2.mul %c, %c32_12 : index, index -> index
        %45 = kda2.cast %2 : i32 -> index
        %46 = kda2.add %45, %44 : index, index -> index
        %c16 = arith.constant 16 : index
        %47 = kda2.mul %vb, %c16 : index, index -> index
        %c128 = arith.constant 128 : index
        %48 = kda2.load %v[%46, %1, %47] limits(%43, %c128) {windows = array<i64: 32, 0, 16>} : !kda2.tensor<[tt, h, 128], bf16> -> tensor<32x16xbf16>
        kda2.store %48, %Vs[] : tensor<32x16xbf16>, !kda2.tensor<[32, 16], bf16, smem>
        %c0_13 = arith.constant 0 : index
        %49 = kda2.load %nb[%c0_13] : !kda2.tensor<[1], i32, reg> -> i32
        %c0_14 = arith.constant 0 : index
        %c1_15 = arith.constant 1 : index
        %50 = kda2.add %c, %c1_15 : index, index -> index
        %51 = kda2.dim "nc" : index
        %c1_16 = arith.constant 1 : index
        %52 = kda2.sub %51, %c1_16 : index, index -> index
        %53 = kda2.min %50, %52 : index, index -> index
        %54 = kda2.load %checkpoint_blocks[%53] : !kda2.tensor<[n, nc], i32> -> i32
        kda2.store %54, %nb[%c0_14] : i32, !kda2.tensor<[1], i32, reg>
        %c0_17 = arith.constant 0 : index
        %55 = kda2.load %nx[%c0_17] : !kda2.tensor<[1], i32, reg> -> i32
        %56 = kda2.cast %55 : i32 -> index
        %57 = kda2.cmp eq %c, %56 : index, index -> i1
        kda2.if %57 {
          %79 = kda2.dim "m" : index
          kda2.loop serial %j to %79 {
            %80 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %81 = kda2.load %offset_blocks[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %82 = kda2.cmp ge %80, %c1_i32 : i32, i32 -> i1
            %false_24 = arith.constant false
            %83 = kda2.select %14, %82, %false_24 : i1, i1, i1 -> i1
            %84 = kda2.cmp le %80, %5 : i32, i32 -> i1
            %false_25 = arith.constant false
            %85 = kda2.select %83, %84, %false_25 : i1, i1, i1 -> i1
            %c1_i32_26 = arith.constant 1 : i32
            %86 = kda2.sub %80, %c1_i32_26 : i32, i32 -> i32
            %c32_27 = arith.constant 32 : index
            %87 = kda2.cast %86 : i32 -> index
            %88 = kda2.div %87, %c32_27 : index, index -> index
            %89 = kda2.cmp eq %88, %c : index, index -> i1
            %false_28 = arith.constant false
            %90 = kda2.select %85, %89, %false_28 : i1, i1, i1 -> i1
            %c0_i32_29 = arith.constant 0 : i32
            %91 = kda2.cmp ge %81, %c0_i32_29 : i32, i32 -> i1
            %false_30 = arith.constant false
            %92 = kda2.select %90, %91, %false_30 : i1, i1, i1 -> i1
            %93 = kda2.dim "blocks" : index
            %94 = kda2.cast %81 : i32 -> index
            %95 = kda2.cmp lt %94, %93 : index, index -> i1
            %false_31 = arith.constant false
            %96 = kda2.select %92, %95, %false_31 : i1, i1, i1 -> i1
            kda2.if %96 {
              %c2048_32 = arith.constant 2048 : index
              kda2.loop fragment %arg0 to %c2048_32 columns(128) {
                %c128_33 = arith.constant 128 : index
                %97 = kda2.div %arg0, %c128_33 : index, index -> index
                %98 = kda2.rem %arg0, %c128_33 : index, index -> index
                %99 = kda2.cast %81 : i32 -> index
                %c16_34 = arith.constant 16 : index
                %100 = kda2.mul %vb, %c16_34 : index, index -> index
                %101 = kda2.add %100, %97 : index, index -> index
                %102 = kda2.load %St[%97, %98] : !kda2.tensor<[16, 128], f32, reg> -> f32
                kda2.store %102, %ckpt[%99, %1, %98, %101] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
              }
            }
          }
        }
        %58 = kda2.load %Vs[] : !kda2.tensor<[32, 16], bf16, smem> -> tensor<32x16xbf16>
        %59 = kda2.load %Tp[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %60 = kda2.matmul %58, %59 {transpose_a, transpose_b} : tensor<32x16xbf16>, tensor<32x32xbf16> -> tensor<16x32xf32>
        kda2.store %60, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %61 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %62 = kda2.cast %61 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %63 = kda2.load %Wn[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %64 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %65 = kda2.matmul %62, %63 acc(%64) {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %65, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c2048_18 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_18 columns(128) {
          %c128_24 = arith.constant 128 : index
          %79 = kda2.div %arg0, %c128_24 : index, index -> index
          %80 = kda2.rem %arg0, %c128_24 : index, index -> index
          %81 = kda2.load %St[%79, %80] : !kda2.tensor<[16, 128], f32, reg> -> f32
          %82 = kda2.add %8, %c : index, index -> index
          %c16_25 = arith.constant 16 : index
          %83 = kda2.mul %vb, %c16_25 : index, index -> index
          %84 = kda2.add %83, %79 : index, index -> index
          %85 = kda2.cast %81 : f32 -> bf16
          kda2.store %85, %hs[%82, %84, %80] : bf16, !kda2.tensor<[h, ns, 128, 128], bf16>
          %86 = kda2.load %Gl[%80] : !kda2.tensor<[128], f32, smem> -> f32
          %87 = kda2.mul %81, %86 : f32, f32 -> f32
          kda2.store %87, %St[%79, %80] : f32, !kda2.tensor<[16, 128], f32, reg>
        }
        %66 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %67 = kda2.cast %66 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %68 = kda2.load %Kl[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %69 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %70 = kda2.matmul %67, %68 acc(%69) : tensor<16x32xbf16>, tensor<32x128xbf16>, tensor<16x128xf32> -> tensor<16x128xf32>
        kda2.store %70, %St[] : tensor<16x128xf32>, !kda2.tensor<[16, 128], f32, reg>
        %c512 = arith.constant 512 : index
        kda2.loop fragment %arg0 to %c512 columns(32) {
          %c32_24 = arith.constant 32 : index
          %79 = kda2.div %arg0, %c32_24 : index, index -> index
          %80 = kda2.rem %arg0, %c32_24 : index, index -> index
          %81 = kda2.add %8, %c : index, index -> index
          %c16_25 = arith.constant 16 : index
          %82 = kda2.mul %vb, %c16_25 : index, index -> index
          %83 = kda2.add %82, %79 : index, index -> index
          %84 = kda2.load %Ut[%79, %80] : !kda2.tensor<[16, 32], f32, reg> -> f32
          %85 = kda2.cast %84 : f32 -> bf16
          kda2.store %85, %us[%81, %83, %80] : bf16, !kda2.tensor<[h, ns, 128, 32], bf16>
        }
        %c0_i32_19 = arith.constant 0 : i32
        %71 = kda2.cmp ne %boundaries, %c0_i32_19 : i32, i32 -> i1
        %false_20 = arith.constant false
        %72 = kda2.select %14, %71, %false_20 : i1, i1, i1 -> i1
        %c0_i32_21 = arith.constant 0 : i32
        %73 = kda2.cmp ge %49, %c0_i32_21 : i32, i32 -> i1
        %false_22 = arith.constant false
        %74 = kda2.select %72, %73, %false_22 : i1, i1, i1 -> i1
        %75 = kda2.dim "blocks" : index
        %76 = kda2.cast %49 : i32 -> index
        %77 = kda2.cmp lt %76, %75 : index, index -> i1
        %false_23 = arith.constant false
        %78 = kda2.select %74, %77, %false_23 : i1, i1, i1 -> i1
        kda2.if %78 {
          %c2048_24 = arith.constant 2048 : index
          kda2.loop fragment %arg0 to %c2048_24 columns(128) {
            %c128_25 = arith.constant 128 : index
            %79 = kda2.div %arg0, %c128_25 : index, index -> index
            %80 = kda2.rem %arg0, %c128_25 : index, index -> index
            %81 = kda2.cast %49 : i32 -> index
            %c16_26 = arith.constant 16 : index
            %82 = kda2.mul %vb, %c16_26 : index, index -> index
            %83 = kda2.add %82, %79 : index, index -> index
            %84 = kda2.load %St[%79, %80] : !kda2.tensor<[16, 128], f32, reg> -> f32
            kda2.store %84, %ckpt[%81, %1, %80, %83] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
          }
        }
        kda2.if %57 {
          %c0_24 = arith.constant 0 : index
          %c32_25 = arith.constant 32 : index
          %79 = kda2.cast %5 : i32 -> index
          %80 = kda2.add %79, %c32_25 : index, index -> index
          %c1_26 = arith.constant 1 : index
          %81 = kda2.sub %80, %c1_26 : index, index -> index
          %c32_27 = arith.constant 32 : index
          %82 = kda2.div %81, %c32_27 : index, index -> index
          %83 = kda2.cast %82 : index -> i32
          kda2.store %83, %nx[%c0_24] : i32, !kda2.tensor<[1], i32, reg>
          %84 = kda2.dim "m" : index
          kda2.loop serial %j to %84 {
            %85 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %86 = kda2.cmp ge %85, %c1_i32 : i32, i32 -> i1
            %87 = kda2.cmp le %85, %5 : i32, i32 -> i1
            %false_28 = arith.constant false
            %88 = kda2.select %86, %87, %false_28 : i1, i1, i1 -> i1
            %c1_i32_29 = arith.constant 1 : i32
            %89 = kda2.sub %85, %c1_i32_29 : i32, i32 -> i32
            %c32_30 = arith.constant 32 : index
            %90 = kda2.cast %89 : i32 -> index
            %91 = kda2.div %90, %c32_30 : index, index -> index
            %92 = kda2.cmp gt %91, %c : index, index -> i1
            %false_31 = arith.constant false
            %93 = kda2.select %88, %92, %false_31 : i1, i1, i1 -> i1
            kda2.if %93 {
              %c0_32 = arith.constant 0 : index
              %c0_33 = arith.constant 0 : index
              %94 = kda2.load %nx[%c0_33] : !kda2.tensor<[1], i32, reg> -> i32
              %c1_i32_34 = arith.constant 1 : i32
              %95 = kda2.sub %85, %c1_i32_34 : i32, i32 -> i32
              %c32_35 = arith.constant 32 : index
              %96 = kda2.cast %95 : i32 -> index
              %97 = kda2.div %96, %c32_35 : index, index -> index
              %98 = kda2.cast %94 : i32 -> index
              %99 = kda2.min %98, %97 : index, index -> index
              %100 = kda2.cast %99 : index -> i32
              kda2.store %100, %nx[%c0_32] : i32, !kda2.tensor<[1], i32, reg>
            }
          }
        }
      }
      kda2.if %14 {
        %c2048_12 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_12 columns(128) {
          %c128 = arith.constant 128 : index
          %34 = kda2.div %arg0, %c128 : index, index -> index
          %35 = kda2.rem %arg0, %c128 : index, index -> index
          %36 = kda2.cast %9 : i32 -> index
          %c16 = arith.constant 16 : index
          %37 = kda2.mul %vb, %c16 : index, index -> index
          %38 = kda2.add %37, %34 : index, index -> index
          %39 = kda2.load %St[%34, %35] : !kda2.tensor<[16, 128], f32, reg> -> f32
          kda2.store %39, %pool[%36, %1, %35, %38] : f32, !kda2.tensor<[slots, h, 128, 128], f32>
        }
      }
    }
    kda2.return
  }
  kda2.kernel @kda_chunk_scan_hk(%v: !kda2.tensor<[tt, h, 128], bf16> {kda2.stride = 12 : i64}, %kl: !kda2.tensor<[h, ns, 32, 128], bf16>, %wn: !kda2.tensor<[h, ns, 32, 128], bf16>, %tp: !kda2.tensor<[h, ns, 32, 32], bf16>, %gl: !kda2.tensor<[h, ns, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %checkpoint_blocks: !kda2.tensor<[n, nc], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %boundaries: i32, %sv: i64, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %hs: !kda2.tensor<[h, ns, 128, 128], bf16> {kda2.io = #kda2.io<out>}, %us: !kda2.tensor<[h, ns, 128, 32], bf16> {kda2.io = #kda2.io<out>}, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["v", "kl", "wn", "tp", "gl", "cu_seqlens", "state_indices", "has_initial_state", "checkpoint_blocks", "ckpt_offsets", "offset_blocks", "boundaries", "sv", "pool", "hs", "us", "ckpt"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, HKB = 0 : i64, K = 128 : i64, NVB = 8 : i64, V = 128 : i64, VB = 16 : i64}} {
    kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[tt, h, 128], bf16>
    kda2.gmem %kl, %wn, %tp, %gl, %hs, %us, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[h, ns, 128, 128], bf16>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %state_indices, %has_initial_state, %checkpoint_blocks layout(row_major) packing(none) : !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n, nc], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %pool, %ckpt layout(KV) packing(none) : !kda2.tensor<[slots, h, 128, 128], f32>, !kda2.tensor<[blocks, h, 128, 128], f32>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Wn = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Gl = kda2.smem_alloc size(1024) : !kda2.tensor<[128], f32, smem>
    %Vs = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 16], bf16, smem>
    %St = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 128], f32, reg>
    %Ut = kda2.reg_alloc {mma, split = "none"} : !kda2.tensor<[16, 32], f32, reg>
    %nx = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %nb = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %c8 = arith.constant 8 : index
    kda2.loop block %vb to %c8 annotations [#kda2.pragma<tma_coalesce>, #kda2.blocks_per_sm<0>] {
      %0 = kda2.grid_index "n" : index
      %1 = kda2.grid_index "h" : index
      %2 = kda2.load %cu_seqlens[%0] : !kda2.tensor<[np1], i32> -> i32
      %c1 = arith.constant 1 : index
      %3 = kda2.add %0, %c1 : index, index -> index
      %4 = kda2.load %cu_seqlens[%3] : !kda2.tensor<[np1], i32> -> i32
      %5 = kda2.sub %4, %2 : i32, i32 -> i32
      %c32 = arith.constant 32 : index
      %6 = kda2.cast %2 : i32 -> index
      %7 = kda2.div %6, %c32 : index, index -> index
      %8 = kda2.add %7, %0 : index, index -> index
      %9 = kda2.load %state_indices[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32 = arith.constant 0 : i32
      %10 = kda2.cmp ge %9, %c0_i32 : i32, i32 -> i1
      %11 = kda2.dim "slots" : index
      %12 = kda2.cast %9 : i32 -> index
      %13 = kda2.cmp lt %12, %11 : index, index -> i1
      %false = arith.constant false
      %14 = kda2.select %10, %13, %false : i1, i1, i1 -> i1
      %15 = kda2.load %has_initial_state[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32_0 = arith.constant 0 : i32
      %16 = kda2.cmp ne %15, %c0_i32_0 : i32, i32 -> i1
      %false_1 = arith.constant false
      %17 = kda2.select %14, %16, %false_1 : i1, i1, i1 -> i1
      %c0_i32_2 = arith.constant 0 : i32
      %18 = kda2.max %9, %c0_i32_2 : i32, i32 -> i32
      %19 = kda2.dim "slots" : index
      %c1_3 = arith.constant 1 : index
      %20 = kda2.sub %19, %c1_3 : index, index -> index
      %21 = kda2.cast %18 : i32 -> index
      %22 = kda2.min %21, %20 : index, index -> index
      %c2048 = arith.constant 2048 : index
      kda2.loop fragment %arg0 to %c2048 columns(128) split(cols) {
        %c128 = arith.constant 128 : index
        %34 = kda2.div %arg0, %c128 : index, index -> index
        %35 = kda2.rem %arg0, %c128 : index, index -> index
        %c16 = arith.constant 16 : index
        %36 = kda2.mul %vb, %c16 : index, index -> index
        %37 = kda2.add %36, %34 : index, index -> index
        %38 = kda2.load %pool[%22, %1, %35, %37] : !kda2.tensor<[slots, h, 128, 128], f32> -> f32
        %cst = arith.constant 0.000000e+00 : f32
        %39 = kda2.select %17, %38, %cst : i1, f32, f32 -> f32
        kda2.store %39, %St[%34, %35] : f32, !kda2.tensor<[16, 128], f32, reg>
      }
      %c0 = arith.constant 0 : index
      %c32_4 = arith.constant 32 : index
      %23 = kda2.cast %5 : i32 -> index
      %24 = kda2.add %23, %c32_4 : index, index -> index
      %c1_5 = arith.constant 1 : index
      %25 = kda2.sub %24, %c1_5 : index, index -> index
      %c32_6 = arith.constant 32 : index
      %26 = kda2.div %25, %c32_6 : index, index -> index
      %27 = kda2.cast %26 : index -> i32
      kda2.store %27, %nx[%c0] : i32, !kda2.tensor<[1], i32, reg>
      %28 = kda2.dim "m" : index
      kda2.loop serial %j to %28 {
        %34 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
        %c1_i32 = arith.constant 1 : i32
        %35 = kda2.cmp ge %34, %c1_i32 : i32, i32 -> i1
        %36 = kda2.cmp le %34, %5 : i32, i32 -> i1
        %false_12 = arith.constant false
        %37 = kda2.select %35, %36, %false_12 : i1, i1, i1 -> i1
        kda2.if %37 {
          %c0_13 = arith.constant 0 : index
          %c0_14 = arith.constant 0 : index
          %38 = kda2.load %nx[%c0_14] : !kda2.tensor<[1], i32, reg> -> i32
          %c1_i32_15 = arith.constant 1 : i32
          %39 = kda2.sub %34, %c1_i32_15 : i32, i32 -> i32
          %c32_16 = arith.constant 32 : index
          %40 = kda2.cast %39 : i32 -> index
          %41 = kda2.div %40, %c32_16 : index, index -> index
          %42 = kda2.cast %38 : i32 -> index
          %43 = kda2.min %42, %41 : index, index -> index
          %44 = kda2.cast %43 : index -> i32
          kda2.store %44, %nx[%c0_13] : i32, !kda2.tensor<[1], i32, reg>
        }
      }
      %c0_7 = arith.constant 0 : index
      %c0_8 = arith.constant 0 : index
      %29 = kda2.load %checkpoint_blocks[%c0_8] : !kda2.tensor<[n, nc], i32> -> i32
      kda2.store %29, %nb[%c0_7] : i32, !kda2.tensor<[1], i32, reg>
      %c32_9 = arith.constant 32 : index
      %30 = kda2.cast %5 : i32 -> index
      %31 = kda2.add %30, %c32_9 : index, index -> index
      %c1_10 = arith.constant 1 : index
      %32 = kda2.sub %31, %c1_10 : index, index -> index
      %c32_11 = arith.constant 32 : index
      %33 = kda2.div %32, %c32_11 : index, index -> index
      kda2.loop serial %c to %33 annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp] {
        %34 = kda2.add %8, %c : index, index -> index
        %35 = kda2.load %kl[%34] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %35, %Kl[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %36 = kda2.add %8, %c : index, index -> index
        %37 = kda2.load %wn[%36] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %37, %Wn[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %38 = kda2.add %8, %c : index, index -> index
        %39 = kda2.load %tp[%38] : !kda2.tensor<[h, ns, 32, 32], bf16> -> tensor<32x32xbf16>
        kda2.store %39, %Tp[] : tensor<32x32xbf16>, !kda2.tensor<[32, 32], bf16, smem>
        %40 = kda2.add %8, %c : index, index -> index
        %41 = kda2.load %gl[%40] : !kda2.tensor<[h, ns, 128], f32> -> tensor<128xf32>
        kda2.store %41, %Gl[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %42 = kda2.add %2, %5 : i32, i32 -> i32
        %43 = kda2.cast %42 : i32 -> index
        %c32_12 = arith.constant 32 : index
        %44 = kda2.mul %c, %c32_12 : index, index -> index
        %45 = kda2.cast %2 : i32 -> index
        %46 = kda2.add %45, %44 : index, index -> index
        %c16 = arith.constant 16 : index
        %47 = kda2.mul %vb, %c16 : index, index -> index
        %c128 = arith.constant 128 : index
        %48 = kda2.load %v[%46, %1, %47] limits(%43, %c128) {windows = array<i64: 32, 0, 16>} : !kda2.tensor<[tt, h, 128], bf16> -> tensor<32x16xbf16>
        kda2.store %48, %Vs[] : tensor<32x16xbf16>, !kda2.tensor<[32, 16], bf16, smem>
        %c0_13 = arith.constant 0 : index
        %49 = kda2.load %nb[%c0_13] : !kda2.tensor<[1], i32, reg> -> i32
        %c0_14 = arith.constant 0 : index
        %c1_15 = arith.constant 1 : index
        %50 = kda2.add %c, %c1_15 : index, index -> index
        %51 = kda2.dim "nc" : index
        %c1_16 = arith.constant 1 : index
        %52 = kda2.sub %51, %c1_16 : index, index -> index
        %53 = kda2.min %50, %52 : index, index -> index
        %54 = kda2.load %checkpoint_blocks[%53] : !kda2.tensor<[n, nc], i32> -> i32
        kda2.store %54, %nb[%c0_14] : i32, !kda2.tensor<[1], i32, reg>
        %c0_17 = arith.constant 0 : index
        %55 = kda2.load %nx[%c0_17] : !kda2.tensor<[1], i32, reg> -> i32
        %56 = kda2.cast %55 : i32 -> index
        %57 = kda2.cmp eq %c, %56 : index, index -> i1
        kda2.if %57 {
          %79 = kda2.dim "m" : index
          kda2.loop serial %j to %79 {
            %80 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %81 = kda2.load %offset_blocks[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %82 = kda2.cmp ge %80, %c1_i32 : i32, i32 -> i1
            %false_24 = arith.constant false
            %83 = kda2.select %14, %82, %false_24 : i1, i1, i1 -> i1
            %84 = kda2.cmp le %80, %5 : i32, i32 -> i1
            %false_25 = arith.constant false
            %85 = kda2.select %83, %84, %false_25 : i1, i1, i1 -> i1
            %c1_i32_26 = arith.constant 1 : i32
            %86 = kda2.sub %80, %c1_i32_26 : i32, i32 -> i32
            %c32_27 = arith.constant 32 : index
            %87 = kda2.cast %86 : i32 -> index
            %88 = kda2.div %87, %c32_27 : index, index -> index
            %89 = kda2.cmp eq %88, %c : index, index -> i1
            %false_28 = arith.constant false
            %90 = kda2.select %85, %89, %false_28 : i1, i1, i1 -> i1
            %c0_i32_29 = arith.constant 0 : i32
            %91 = kda2.cmp ge %81, %c0_i32_29 : i32, i32 -> i1
            %false_30 = arith.constant false
            %92 = kda2.select %90, %91, %false_30 : i1, i1, i1 -> i1
            %93 = kda2.dim "blocks" : index
            %94 = kda2.cast %81 : i32 -> index
            %95 = kda2.cmp lt %94, %93 : index, index -> i1
            %false_31 = arith.constant false
            %96 = kda2.select %92, %95, %false_31 : i1, i1, i1 -> i1
            kda2.if %96 {
              %c2048_32 = arith.constant 2048 : index
              kda2.loop fragment %arg0 to %c2048_32 columns(128) split(cols) {
                %c128_33 = arith.constant 128 : index
                %97 = kda2.div %arg0, %c128_33 : index, index -> index
                %98 = kda2.rem %arg0, %c128_33 : index, index -> index
                %99 = kda2.cast %81 : i32 -> index
                %c16_34 = arith.constant 16 : index
                %100 = kda2.mul %vb, %c16_34 : index, index -> index
                %101 = kda2.add %100, %97 : index, index -> index
                %102 = kda2.load %St[%97, %98] : !kda2.tensor<[16, 128], f32, reg> -> f32
                kda2.store %102, %ckpt[%99, %1, %98, %101] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
              }
            }
          }
        }
        %58 = kda2.load %Vs[] : !kda2.tensor<[32, 16], bf16, smem> -> tensor<32x16xbf16>
        %59 = kda2.load %Tp[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %60 = kda2.matmul %58, %59 {transpose_a, transpose_b} : tensor<32x16xbf16>, tensor<32x32xbf16> -> tensor<16x32xf32>
        kda2.store %60, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %61 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %62 = kda2.cast %61 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %63 = kda2.load %Wn[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %64 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %65 = kda2.matmul %62, %63 acc(%64) {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %65, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c2048_18 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_18 columns(128) split(cols) {
          %c128_24 = arith.constant 128 : index
          %79 = kda2.div %arg0, %c128_24 : index, index -> index
          %80 = kda2.rem %arg0, %c128_24 : index, index -> index
          %81 = kda2.load %St[%79, %80] : !kda2.tensor<[16, 128], f32, reg> -> f32
          %82 = kda2.add %8, %c : index, index -> index
          %c16_25 = arith.constant 16 : index
          %83 = kda2.mul %vb, %c16_25 : index, index -> index
          %84 = kda2.add %83, %79 : index, index -> index
          %85 = kda2.cast %81 : f32 -> bf16
          kda2.store %85, %hs[%82, %84, %80] : bf16, !kda2.tensor<[h, ns, 128, 128], bf16>
          %86 = kda2.load %Gl[%80] : !kda2.tensor<[128], f32, smem> -> f32
          %87 = kda2.mul %81, %86 : f32, f32 -> f32
          kda2.store %87, %St[%79, %80] : f32, !kda2.tensor<[16, 128], f32, reg>
        }
        %66 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %67 = kda2.cast %66 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %68 = kda2.load %Kl[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %69 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %70 = kda2.matmul %67, %68 acc(%69) : tensor<16x32xbf16>, tensor<32x128xbf16>, tensor<16x128xf32> -> tensor<16x128xf32>
        kda2.store %70, %St[] : tensor<16x128xf32>, !kda2.tensor<[16, 128], f32, reg>
        %c512 = arith.constant 512 : index
        kda2.loop fragment %arg0 to %c512 columns(32) split(none) {
          %c32_24 = arith.constant 32 : index
          %79 = kda2.div %arg0, %c32_24 : index, index -> index
          %80 = kda2.rem %arg0, %c32_24 : index, index -> index
          %81 = kda2.add %8, %c : index, index -> index
          %c16_25 = arith.constant 16 : index
          %82 = kda2.mul %vb, %c16_25 : index, index -> index
          %83 = kda2.add %82, %79 : index, index -> index
          %84 = kda2.load %Ut[%79, %80] : !kda2.tensor<[16, 32], f32, reg> -> f32
          %85 = kda2.cast %84 : f32 -> bf16
          kda2.store %85, %us[%81, %83, %80] : bf16, !kda2.tensor<[h, ns, 128, 32], bf16>
        }
        %c0_i32_19 = arith.constant 0 : i32
        %71 = kda2.cmp ne %boundaries, %c0_i32_19 : i32, i32 -> i1
        %false_20 = arith.constant false
        %72 = kda2.select %14, %71, %false_20 : i1, i1, i1 -> i1
        %c0_i32_21 = arith.constant 0 : i32
        %73 = kda2.cmp ge %49, %c0_i32_21 : i32, i32 -> i1
        %false_22 = arith.constant false
        %74 = kda2.select %72, %73, %false_22 : i1, i1, i1 -> i1
        %75 = kda2.dim "blocks" : index
        %76 = kda2.cast %49 : i32 -> index
        %77 = kda2.cmp lt %76, %75 : index, index -> i1
        %false_23 = arith.constant false
        %78 = kda2.select %74, %77, %false_23 : i1, i1, i1 -> i1
        kda2.if %78 {
          %c2048_24 = arith.constant 2048 : index
          kda2.loop fragment %arg0 to %c2048_24 columns(128) split(cols) {
            %c128_25 = arith.constant 128 : index
            %79 = kda2.div %arg0, %c128_25 : index, index -> index
            %80 = kda2.rem %arg0, %c128_25 : index, index -> index
            %81 = kda2.cast %49 : i32 -> index
            %c16_26 = arith.constant 16 : index
            %82 = kda2.mul %vb, %c16_26 : index, index -> index
            %83 = kda2.add %82, %79 : index, index -> index
            %84 = kda2.load %St[%79, %80] : !kda2.tensor<[16, 128], f32, reg> -> f32
            kda2.store %84, %ckpt[%81, %1, %80, %83] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
          }
        }
        kda2.if %57 {
          %c0_24 = arith.constant 0 : index
          %c32_25 = arith.constant 32 : index
          %79 = kda2.cast %5 : i32 -> index
          %80 = kda2.add %79, %c32_25 : index, index -> index
          %c1_26 = arith.constant 1 : index
          %81 = kda2.sub %80, %c1_26 : index, index -> index
          %c32_27 = arith.constant 32 : index
          %82 = kda2.div %81, %c32_27 : index, index -> index
          %83 = kda2.cast %82 : index -> i32
          kda2.store %83, %nx[%c0_24] : i32, !kda2.tensor<[1], i32, reg>
          %84 = kda2.dim "m" : index
          kda2.loop serial %j to %84 {
            %85 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %86 = kda2.cmp ge %85, %c1_i32 : i32, i32 -> i1
            %87 = kda2.cmp le %85, %5 : i32, i32 -> i1
            %false_28 = arith.constant false
            %88 = kda2.select %86, %87, %false_28 : i1, i1, i1 -> i1
            %c1_i32_29 = arith.constant 1 : i32
            %89 = kda2.sub %85, %c1_i32_29 : i32, i32 -> i32
            %c32_30 = arith.constant 32 : index
            %90 = kda2.cast %89 : i32 -> index
            %91 = kda2.div %90, %c32_30 : index, index -> index
            %92 = kda2.cmp gt %91, %c : index, index -> i1
            %false_31 = arith.constant false
            %93 = kda2.select %88, %92, %false_31 : i1, i1, i1 -> i1
            kda2.if %93 {
              %c0_32 = arith.constant 0 : index
              %c0_33 = arith.constant 0 : index
              %94 = kda2.load %nx[%c0_33] : !kda2.tensor<[1], i32, reg> -> i32
              %c1_i32_34 = arith.constant 1 : i32
              %95 = kda2.sub %85, %c1_i32_34 : i32, i32 -> i32
              %c32_35 = arith.constant 32 : index
              %96 = kda2.cast %95 : i32 -> index
              %97 = kda2.div %96, %c32_35 : index, index -> index
              %98 = kda2.cast %94 : i32 -> index
              %99 = kda2.min %98, %97 : index, index -> index
              %100 = kda2.cast %99 : index -> i32
              kda2.store %100, %nx[%c0_32] : i32, !kda2.tensor<[1], i32, reg>
            }
          }
        }
      }
      kda2.if %14 {
        %c2048_12 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_12 columns(128) split(cols) {
          %c128 = arith.constant 128 : index
          %34 = kda2.div %arg0, %c128 : index, index -> index
          %35 = kda2.rem %arg0, %c128 : index, index -> index
          %36 = kda2.cast %9 : i32 -> index
          %c16 = arith.constant 16 : index
          %37 = kda2.mul %vb, %c16 : index, index -> index
          %38 = kda2.add %37, %34 : index, index -> index
          %39 = kda2.load %St[%34, %35] : !kda2.tensor<[16, 128], f32, reg> -> f32
          kda2.store %39, %pool[%36, %1, %35, %38] : f32, !kda2.tensor<[slots, h, 128, 128], f32>
        }
      }
    }
    kda2.return
  }
  kda2.kernel @kda_chunk_scan_o(%v: !kda2.tensor<[tt, h, 128], bf16> {kda2.stride = 14 : i64}, %qd: !kda2.tensor<[h, ns, 32, 128], bf16>, %kl: !kda2.tensor<[h, ns, 32, 128], bf16>, %wn: !kda2.tensor<[h, ns, 32, 128], bf16>, %tp: !kda2.tensor<[h, ns, 32, 32], bf16>, %pb: !kda2.tensor<[h, ns, 32, 32], bf16>, %gl: !kda2.tensor<[h, ns, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %checkpoint_blocks: !kda2.tensor<[n, nc], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %boundaries: i32, %sv: i64, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %o: !kda2.tensor<[tt, h, 128], bf16> {kda2.io = #kda2.io<out>}, %us: !kda2.tensor<[h, ns, 128, 32], bf16> {kda2.io = #kda2.io<out>}, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["v", "qd", "kl", "wn", "tp", "pb", "gl", "cu_seqlens", "state_indices", "has_initial_state", "checkpoint_blocks", "ckpt_offsets", "offset_blocks", "boundaries", "sv", "pool", "o", "us", "ckpt"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, NVB = 8 : i64, OB = 0 : i64, V = 128 : i64, VB = 16 : i64}} {
    kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[tt, h, 128], bf16>
    kda2.gmem %qd, %kl, %wn, %tp, %pb, %gl, %o, %us, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[tt, h, 128], bf16>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %state_indices, %has_initial_state, %checkpoint_blocks layout(row_major) packing(none) : !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n, nc], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %pool, %ckpt layout(KV) packing(none) : !kda2.tensor<[slots, h, 128, 128], f32>, !kda2.tensor<[blocks, h, 128, 128], f32>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Wn = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Gl = kda2.smem_alloc size(1024) : !kda2.tensor<[128], f32, smem>
    %Vs = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 16], bf16, smem>
    %St = kda2.reg_alloc {mma} : !kda2.tensor<[16, 128], f32, reg>
    %Ut = kda2.reg_alloc {mma} : !kda2.tensor<[16, 32], f32, reg>
    %Ot = kda2.reg_alloc {mma} : !kda2.tensor<[16, 32], f32, reg>
    %nx = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %nb = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %c8 = arith.constant 8 : index
    kda2.loop block %vb to %c8 annotations [#kda2.pragma<tma_coalesce>, #kda2.blocks_per_sm<0>] {
      %0 = kda2.grid_index "n" : index
      %1 = kda2.grid_index "h" : index
      %2 = kda2.load %cu_seqlens[%0] : !kda2.tensor<[np1], i32> -> i32
      %c1 = arith.constant 1 : index
      %3 = kda2.add %0, %c1 : index, index -> index
      %4 = kda2.load %cu_seqlens[%3] : !kda2.tensor<[np1], i32> -> i32
      %5 = kda2.sub %4, %2 : i32, i32 -> i32
      %c32 = arith.constant 32 : index
      %6 = kda2.cast %2 : i32 -> index
      %7 = kda2.div %6, %c32 : index, index -> index
      %8 = kda2.add %7, %0 : index, index -> index
      %9 = kda2.load %state_indices[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32 = arith.constant 0 : i32
      %10 = kda2.cmp ge %9, %c0_i32 : i32, i32 -> i1
      %11 = kda2.dim "slots" : index
      %12 = kda2.cast %9 : i32 -> index
      %13 = kda2.cmp lt %12, %11 : index, index -> i1
      %false = arith.constant false
      %14 = kda2.select %10, %13, %false : i1, i1, i1 -> i1
      %15 = kda2.load %has_initial_state[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32_0 = arith.constant 0 : i32
      %16 = kda2.cmp ne %15, %c0_i32_0 : i32, i32 -> i1
      %false_1 = arith.constant false
      %17 = kda2.select %14, %16, %false_1 : i1, i1, i1 -> i1
      %c0_i32_2 = arith.constant 0 : i32
      %18 = kda2.max %9, %c0_i32_2 : i32, i32 -> i32
      %19 = kda2.dim "slots" : index
      %c1_3 = arith.constant 1 : index
      %20 = kda2.sub %19, %c1_3 : index, index -> index
      %21 = kda2.cast %18 : i32 -> index
      %22 = kda2.min %21, %20 : index, index -> index
      %c2048 = arith.constant 2048 : index
      kda2.loop fragment %arg0 to %c2048 columns(128) {
        %c128 = arith.constant 128 : index
        %34 = kda2.div %arg0, %c128 : index, index -> index
        %35 = kda2.rem %arg0, %c128 : index, index -> index
        %c16 = arith.constant 16 : index
        %36 = kda2.mul %vb, %c16 : index, index -> index
        %37 = kda2.add %36, %34 : index, index -> index
        %38 = kda2.load %pool[%22, %1, %35, %37] : !kda2.tensor<[slots, h, 128, 128], f32> -> f32
        %cst = arith.constant 0.000000e+00 : f32
        %39 = kda2.select %17, %38, %cst : i1, f32, f32 -> f32
        kda2.store %39, %St[%34, %35] : f32, !kda2.tensor<[16, 128], f32, reg>
      }
      %c0 = arith.constant 0 : index
      %c32_4 = arith.constant 32 : index
      %23 = kda2.cast %5 : i32 -> index
      %24 = kda2.add %23, %c32_4 : index, index -> index
      %c1_5 = arith.constant 1 : index
      %25 = kda2.sub %24, %c1_5 : index, index -> index
      %c32_6 = arith.constant 32 : index
      %26 = kda2.div %25, %c32_6 : index, index -> index
      %27 = kda2.cast %26 : index -> i32
      kda2.store %27, %nx[%c0] : i32, !kda2.tensor<[1], i32, reg>
      %28 = kda2.dim "m" : index
      kda2.loop serial %j to %28 {
        %34 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
        %c1_i32 = arith.constant 1 : i32
        %35 = kda2.cmp ge %34, %c1_i32 : i32, i32 -> i1
        %36 = kda2.cmp le %34, %5 : i32, i32 -> i1
        %false_12 = arith.constant false
        %37 = kda2.select %35, %36, %false_12 : i1, i1, i1 -> i1
        kda2.if %37 {
          %c0_13 = arith.constant 0 : index
          %c0_14 = arith.constant 0 : index
          %38 = kda2.load %nx[%c0_14] : !kda2.tensor<[1], i32, reg> -> i32
          %c1_i32_15 = arith.constant 1 : i32
          %39 = kda2.sub %34, %c1_i32_15 : i32, i32 -> i32
          %c32_16 = arith.constant 32 : index
          %40 = kda2.cast %39 : i32 -> index
          %41 = kda2.div %40, %c32_16 : index, index -> index
          %42 = kda2.cast %38 : i32 -> index
          %43 = kda2.min %42, %41 : index, index -> index
          %44 = kda2.cast %43 : index -> i32
          kda2.store %44, %nx[%c0_13] : i32, !kda2.tensor<[1], i32, reg>
        }
      }
      %c0_7 = arith.constant 0 : index
      %c0_8 = arith.constant 0 : index
      %29 = kda2.load %checkpoint_blocks[%c0_8] : !kda2.tensor<[n, nc], i32> -> i32
      kda2.store %29, %nb[%c0_7] : i32, !kda2.tensor<[1], i32, reg>
      %c32_9 = arith.constant 32 : index
      %30 = kda2.cast %5 : i32 -> index
      %31 = kda2.add %30, %c32_9 : index, index -> index
      %c1_10 = arith.constant 1 : index
      %32 = kda2.sub %31, %c1_10 : index, index -> index
      %c32_11 = arith.constant 32 : index
      %33 = kda2.div %32, %c32_11 : index, index -> index
      kda2.loop serial %c to %33 annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp] {
        %34 = kda2.add %8, %c : index, index -> index
        %35 = kda2.load %qd[%34] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %35, %Qd[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %36 = kda2.add %8, %c : index, index -> index
        %37 = kda2.load %kl[%36] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %37, %Kl[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %38 = kda2.add %8, %c : index, index -> index
        %39 = kda2.load %wn[%38] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %39, %Wn[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %40 = kda2.add %8, %c : index, index -> index
        %41 = kda2.load %tp[%40] : !kda2.tensor<[h, ns, 32, 32], bf16> -> tensor<32x32xbf16>
        kda2.store %41, %Tp[] : tensor<32x32xbf16>, !kda2.tensor<[32, 32], bf16, smem>
        %42 = kda2.add %8, %c : index, index -> index
        %43 = kda2.load %pb[%42] : !kda2.tensor<[h, ns, 32, 32], bf16> -> tensor<32x32xbf16>
        kda2.store %43, %Pb[] : tensor<32x32xbf16>, !kda2.tensor<[32, 32], bf16, smem>
        %44 = kda2.add %8, %c : index, index -> index
        %45 = kda2.load %gl[%44] : !kda2.tensor<[h, ns, 128], f32> -> tensor<128xf32>
        kda2.store %45, %Gl[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %46 = kda2.add %2, %5 : i32, i32 -> i32
        %47 = kda2.cast %46 : i32 -> index
        %c32_12 = arith.constant 32 : index
        %48 = kda2.mul %c, %c32_12 : index, index -> index
        %49 = kda2.cast %2 : i32 -> index
        %50 = kda2.add %49, %48 : index, index -> index
        %c16 = arith.constant 16 : index
        %51 = kda2.mul %vb, %c16 : index, index -> index
        %c128 = arith.constant 128 : index
        %52 = kda2.load %v[%50, %1, %51] limits(%47, %c128) {windows = array<i64: 32, 0, 16>} : !kda2.tensor<[tt, h, 128], bf16> -> tensor<32x16xbf16>
        kda2.store %52, %Vs[] : tensor<32x16xbf16>, !kda2.tensor<[32, 16], bf16, smem>
        %c0_13 = arith.constant 0 : index
        %53 = kda2.load %nb[%c0_13] : !kda2.tensor<[1], i32, reg> -> i32
        %c0_14 = arith.constant 0 : index
        %c1_15 = arith.constant 1 : index
        %54 = kda2.add %c, %c1_15 : index, index -> index
        %55 = kda2.dim "nc" : index
        %c1_16 = arith.constant 1 : index
        %56 = kda2.sub %55, %c1_16 : index, index -> index
        %57 = kda2.min %54, %56 : index, index -> index
        %58 = kda2.load %checkpoint_blocks[%57] : !kda2.tensor<[n, nc], i32> -> i32
        kda2.store %58, %nb[%c0_14] : i32, !kda2.tensor<[1], i32, reg>
        %c0_17 = arith.constant 0 : index
        %59 = kda2.load %nx[%c0_17] : !kda2.tensor<[1], i32, reg> -> i32
        %60 = kda2.cast %59 : i32 -> index
        %61 = kda2.cmp eq %c, %60 : index, index -> i1
        kda2.if %61 {
          %92 = kda2.dim "m" : index
          kda2.loop serial %j to %92 {
            %93 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %94 = kda2.load %offset_blocks[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %95 = kda2.cmp ge %93, %c1_i32 : i32, i32 -> i1
            %false_24 = arith.constant false
            %96 = kda2.select %14, %95, %false_24 : i1, i1, i1 -> i1
            %97 = kda2.cmp le %93, %5 : i32, i32 -> i1
            %false_25 = arith.constant false
            %98 = kda2.select %96, %97, %false_25 : i1, i1, i1 -> i1
            %c1_i32_26 = arith.constant 1 : i32
            %99 = kda2.sub %93, %c1_i32_26 : i32, i32 -> i32
            %c32_27 = arith.constant 32 : index
            %100 = kda2.cast %99 : i32 -> index
            %101 = kda2.div %100, %c32_27 : index, index -> index
            %102 = kda2.cmp eq %101, %c : index, index -> i1
            %false_28 = arith.constant false
            %103 = kda2.select %98, %102, %false_28 : i1, i1, i1 -> i1
            %c0_i32_29 = arith.constant 0 : i32
            %104 = kda2.cmp ge %94, %c0_i32_29 : i32, i32 -> i1
            %false_30 = arith.constant false
            %105 = kda2.select %103, %104, %false_30 : i1, i1, i1 -> i1
            %106 = kda2.dim "blocks" : index
            %107 = kda2.cast %94 : i32 -> index
            %108 = kda2.cmp lt %107, %106 : index, index -> i1
            %false_31 = arith.constant false
            %109 = kda2.select %105, %108, %false_31 : i1, i1, i1 -> i1
            kda2.if %109 {
              %c2048_32 = arith.constant 2048 : index
              kda2.loop fragment %arg0 to %c2048_32 columns(128) {
                %c128_33 = arith.constant 128 : index
                %110 = kda2.div %arg0, %c128_33 : index, index -> index
                %111 = kda2.rem %arg0, %c128_33 : index, index -> index
                %112 = kda2.cast %94 : i32 -> index
                %c16_34 = arith.constant 16 : index
                %113 = kda2.mul %vb, %c16_34 : index, index -> index
                %114 = kda2.add %113, %110 : index, index -> index
                %115 = kda2.load %St[%110, %111] : !kda2.tensor<[16, 128], f32, reg> -> f32
                kda2.store %115, %ckpt[%112, %1, %111, %114] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
              }
            }
          }
        }
        %62 = kda2.load %Vs[] : !kda2.tensor<[32, 16], bf16, smem> -> tensor<32x16xbf16>
        %63 = kda2.load %Tp[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %64 = kda2.matmul %62, %63 {transpose_a, transpose_b} : tensor<32x16xbf16>, tensor<32x32xbf16> -> tensor<16x32xf32>
        kda2.store %64, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %65 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %66 = kda2.cast %65 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %67 = kda2.load %Qd[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %68 = kda2.matmul %66, %67 {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16> -> tensor<16x32xf32>
        kda2.store %68, %Ot[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %69 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %70 = kda2.cast %69 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %71 = kda2.load %Wn[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %72 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %73 = kda2.matmul %70, %71 acc(%72) {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %73, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c2048_18 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_18 columns(128) {
          %c128_24 = arith.constant 128 : index
          %92 = kda2.div %arg0, %c128_24 : index, index -> index
          %93 = kda2.rem %arg0, %c128_24 : index, index -> index
          %94 = kda2.load %St[%92, %93] : !kda2.tensor<[16, 128], f32, reg> -> f32
          %95 = kda2.load %Gl[%93] : !kda2.tensor<[128], f32, smem> -> f32
          %96 = kda2.mul %94, %95 : f32, f32 -> f32
          kda2.store %96, %St[%92, %93] : f32, !kda2.tensor<[16, 128], f32, reg>
        }
        %74 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %75 = kda2.cast %74 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %76 = kda2.load %Kl[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %77 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %78 = kda2.matmul %75, %76 acc(%77) : tensor<16x32xbf16>, tensor<32x128xbf16>, tensor<16x128xf32> -> tensor<16x128xf32>
        kda2.store %78, %St[] : tensor<16x128xf32>, !kda2.tensor<[16, 128], f32, reg>
        %79 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %80 = kda2.cast %79 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %81 = kda2.load %Pb[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %82 = kda2.load %Ot[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %83 = kda2.matmul %80, %81 acc(%82) {transpose_b} : tensor<16x32xbf16>, tensor<32x32xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %83, %Ot[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c512 = arith.constant 512 : index
        kda2.loop fragment %arg0 to %c512 columns(32) {
          %c32_24 = arith.constant 32 : index
          %92 = kda2.div %arg0, %c32_24 : index, index -> index
          %93 = kda2.rem %arg0, %c32_24 : index, index -> index
          %c32_25 = arith.constant 32 : index
          %94 = kda2.mul %c, %c32_25 : index, index -> index
          %95 = kda2.add %94, %93 : index, index -> index
          %96 = kda2.cast %5 : i32 -> index
          %97 = kda2.cmp lt %95, %96 : index, index -> i1
          kda2.if %97 {
            %c32_26 = arith.constant 32 : index
            %98 = kda2.mul %c, %c32_26 : index, index -> index
            %99 = kda2.cast %2 : i32 -> index
            %100 = kda2.add %99, %98 : index, index -> index
            %101 = kda2.add %100, %93 : index, index -> index
            %c16_27 = arith.constant 16 : index
            %102 = kda2.mul %vb, %c16_27 : index, index -> index
            %103 = kda2.add %102, %92 : index, index -> index
            %104 = kda2.load %Ot[%92, %93] : !kda2.tensor<[16, 32], f32, reg> -> f32
            %105 = kda2.cast %104 : f32 -> bf16
            %cst = arith.constant 0.000000e+00 : f32
            %106 = kda2.cast %105 : bf16 -> f32
            %107 = kda2.select %14, %106, %cst : i1, f32, f32 -> f32
            %108 = kda2.cast %107 : f32 -> bf16
            kda2.store %108, %o[%101, %1, %103] : bf16, !kda2.tensor<[tt, h, 128], bf16>
          }
        }
        %c0_i32_19 = arith.constant 0 : i32
        %84 = kda2.cmp ne %boundaries, %c0_i32_19 : i32, i32 -> i1
        %false_20 = arith.constant false
        %85 = kda2.select %14, %84, %false_20 : i1, i1, i1 -> i1
        %c0_i32_21 = arith.constant 0 : i32
        %86 = kda2.cmp ge %53, %c0_i32_21 : i32, i32 -> i1
        %false_22 = arith.constant false
        %87 = kda2.select %85, %86, %false_22 : i1, i1, i1 -> i1
        %88 = kda2.dim "blocks" : index
        %89 = kda2.cast %53 : i32 -> index
        %90 = kda2.cmp lt %89, %88 : index, index -> i1
        %false_23 = arith.constant false
        %91 = kda2.select %87, %90, %false_23 : i1, i1, i1 -> i1
        kda2.if %91 {
          %c2048_24 = arith.constant 2048 : index
          kda2.loop fragment %arg0 to %c2048_24 columns(128) {
            %c128_25 = arith.constant 128 : index
            %92 = kda2.div %arg0, %c128_25 : index, index -> index
            %93 = kda2.rem %arg0, %c128_25 : index, index -> index
            %94 = kda2.cast %53 : i32 -> index
            %c16_26 = arith.constant 16 : index
            %95 = kda2.mul %vb, %c16_26 : index, index -> index
            %96 = kda2.add %95, %92 : index, index -> index
            %97 = kda2.load %St[%92, %93] : !kda2.tensor<[16, 128], f32, reg> -> f32
            kda2.store %97, %ckpt[%94, %1, %93, %96] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
          }
        }
        kda2.if %61 {
          %c512_24 = arith.constant 512 : index
          kda2.loop fragment %arg0 to %c512_24 columns(32) {
            %c32_29 = arith.constant 32 : index
            %98 = kda2.div %arg0, %c32_29 : index, index -> index
            %99 = kda2.rem %arg0, %c32_29 : index, index -> index
            %100 = kda2.add %8, %c : index, index -> index
            %c16_30 = arith.constant 16 : index
            %101 = kda2.mul %vb, %c16_30 : index, index -> index
            %102 = kda2.add %101, %98 : index, index -> index
            %103 = kda2.load %Ut[%98, %99] : !kda2.tensor<[16, 32], f32, reg> -> f32
            %104 = kda2.cast %103 : f32 -> bf16
            kda2.store %104, %us[%100, %102, %99] : bf16, !kda2.tensor<[h, ns, 128, 32], bf16>
          }
          %c0_25 = arith.constant 0 : index
          %c32_26 = arith.constant 32 : index
          %92 = kda2.cast %5 : i32 -> index
          %93 = kda2.add %92, %c32_26 : index, index -> index
          %c1_27 = arith.constant 1 : index
          %94 = kda2.sub %93, %c1_27 : index, index -> index
          %c32_28 = arith.constant 32 : index
          %95 = kda2.div %94, %c32_28 : index, index -> index
          %96 = kda2.cast %95 : index -> i32
          kda2.store %96, %nx[%c0_25] : i32, !kda2.tensor<[1], i32, reg>
          %97 = kda2.dim "m" : index
          kda2.loop serial %j to %97 {
            %98 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %99 = kda2.cmp ge %98, %c1_i32 : i32, i32 -> i1
            %100 = kda2.cmp le %98, %5 : i32, i32 -> i1
            %false_29 = arith.constant false
            %101 = kda2.select %99, %100, %false_29 : i1, i1, i1 -> i1
            %c1_i32_30 = arith.constant 1 : i32
            %102 = kda2.sub %98, %c1_i32_30 : i32, i32 -> i32
            %c32_31 = arith.constant 32 : index
            %103 = kda2.cast %102 : i32 -> index
            %104 = kda2.div %103, %c32_31 : index, index -> index
            %105 = kda2.cmp gt %104, %c : index, index -> i1
            %false_32 = arith.constant false
            %106 = kda2.select %101, %105, %false_32 : i1, i1, i1 -> i1
            kda2.if %106 {
              %c0_33 = arith.constant 0 : index
              %c0_34 = arith.constant 0 : index
              %107 = kda2.load %nx[%c0_34] : !kda2.tensor<[1], i32, reg> -> i32
              %c1_i32_35 = arith.constant 1 : i32
              %108 = kda2.sub %98, %c1_i32_35 : i32, i32 -> i32
              %c32_36 = arith.constant 32 : index
              %109 = kda2.cast %108 : i32 -> index
              %110 = kda2.div %109, %c32_36 : index, index -> index
              %111 = kda2.cast %107 : i32 -> index
              %112 = kda2.min %111, %110 : index, index -> index
              %113 = kda2.cast %112 : index -> i32
              kda2.store %113, %nx[%c0_33] : i32, !kda2.tensor<[1], i32, reg>
            }
          }
        }
      }
      kda2.if %14 {
        %c2048_12 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_12 columns(128) {
          %c128 = arith.constant 128 : index
          %34 = kda2.div %arg0, %c128 : index, index -> index
          %35 = kda2.rem %arg0, %c128 : index, index -> index
          %36 = kda2.cast %9 : i32 -> index
          %c16 = arith.constant 16 : index
          %37 = kda2.mul %vb, %c16 : index, index -> index
          %38 = kda2.add %37, %34 : index, index -> index
          %39 = kda2.load %St[%34, %35] : !kda2.tensor<[16, 128], f32, reg> -> f32
          kda2.store %39, %pool[%36, %1, %35, %38] : f32, !kda2.tensor<[slots, h, 128, 128], f32>
        }
      }
    }
    kda2.return
  }
  kda2.kernel @kda_chunk_scan_ok(%v: !kda2.tensor<[tt, h, 128], bf16> {kda2.stride = 14 : i64}, %qd: !kda2.tensor<[h, ns, 32, 128], bf16>, %kl: !kda2.tensor<[h, ns, 32, 128], bf16>, %wn: !kda2.tensor<[h, ns, 32, 128], bf16>, %tp: !kda2.tensor<[h, ns, 32, 32], bf16>, %pb: !kda2.tensor<[h, ns, 32, 32], bf16>, %gl: !kda2.tensor<[h, ns, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %checkpoint_blocks: !kda2.tensor<[n, nc], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %boundaries: i32, %sv: i64, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %o: !kda2.tensor<[tt, h, 128], bf16> {kda2.io = #kda2.io<out>}, %us: !kda2.tensor<[h, ns, 128, 32], bf16> {kda2.io = #kda2.io<out>}, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["v", "qd", "kl", "wn", "tp", "pb", "gl", "cu_seqlens", "state_indices", "has_initial_state", "checkpoint_blocks", "ckpt_offsets", "offset_blocks", "boundaries", "sv", "pool", "o", "us", "ckpt"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, NVB = 8 : i64, OKB = 2 : i64, OS = 2 : i64, OW = 2 : i64, PDL = 0 : i64, V = 128 : i64, VB = 16 : i64}} {
    kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[tt, h, 128], bf16>
    kda2.gmem %qd, %kl, %wn, %tp, %pb, %gl, %o, %us, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[tt, h, 128], bf16>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %state_indices, %has_initial_state, %checkpoint_blocks layout(row_major) packing(none) : !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n, nc], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %pool, %ckpt layout(KV) packing(none) : !kda2.tensor<[slots, h, 128, 128], f32>, !kda2.tensor<[blocks, h, 128, 128], f32>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Wn = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Gl = kda2.smem_alloc size(1024) : !kda2.tensor<[128], f32, smem>
    %Vs = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 16], bf16, smem>
    %St = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 128], f32, reg>
    %Ut = kda2.reg_alloc {mma, split = "none"} : !kda2.tensor<[16, 32], f32, reg>
    %Ot = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 32], f32, reg>
    %nx = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %nb = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %c8 = arith.constant 8 : index
    kda2.loop block %vb to %c8 annotations [#kda2.pragma<tma_coalesce>, #kda2.blocks_per_sm<2>, #kda2.mma_warps<2>] {
      %0 = kda2.grid_index "n" : index
      %1 = kda2.grid_index "h" : index
      %2 = kda2.load %cu_seqlens[%0] : !kda2.tensor<[np1], i32> -> i32
      %c1 = arith.constant 1 : index
      %3 = kda2.add %0, %c1 : index, index -> index
      %4 = kda2.load %cu_seqlens[%3] : !kda2.tensor<[np1], i32> -> i32
      %5 = kda2.sub %4, %2 : i32, i32 -> i32
      %c32 = arith.constant 32 : index
      %6 = kda2.cast %2 : i32 -> index
      %7 = kda2.div %6, %c32 : index, index -> index
      %8 = kda2.add %7, %0 : index, index -> index
      %9 = kda2.load %state_indices[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32 = arith.constant 0 : i32
      %10 = kda2.cmp ge %9, %c0_i32 : i32, i32 -> i1
      %11 = kda2.dim "slots" : index
      %12 = kda2.cast %9 : i32 -> index
      %13 = kda2.cmp lt %12, %11 : index, index -> i1
      %false = arith.constant false
      %14 = kda2.select %10, %13, %false : i1, i1, i1 -> i1
      %15 = kda2.load %has_initial_state[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32_0 = arith.constant 0 : i32
      %16 = kda2.cmp ne %15, %c0_i32_0 : i32, i32 -> i1
      %false_1 = arith.constant false
      %17 = kda2.select %14, %16, %false_1 : i1, i1, i1 -> i1
      %c0_i32_2 = arith.constant 0 : i32
      %18 = kda2.max %9, %c0_i32_2 : i32, i32 -> i32
      %19 = kda2.dim "slots" : index
      %c1_3 = arith.constant 1 : index
      %20 = kda2.sub %19, %c1_3 : index, index -> index
      %21 = kda2.cast %18 : i32 -> index
      %22 = kda2.min %21, %20 : index, index -> index
      %c32_4 = arith.constant 32 : index
      %23 = kda2.cast %5 : i32 -> index
      %24 = kda2.add %23, %c32_4 : index, index -> index
      %c1_5 = arith.constant 1 : index
      %25 = kda2.sub %24, %c1_5 : index, index -> index
      %c32_6 = arith.constant 32 : index
      %26 = kda2.div %25, %c32_6 : index, index -> index
      %c0 = arith.constant 0 : index
      %c2048 = arith.constant 2048 : index
      kda2.loop fragment %arg0 to %c2048 columns(128) split(cols) {
        %c128 = arith.constant 128 : index
        %31 = kda2.div %arg0, %c128 : index, index -> index
        %32 = kda2.rem %arg0, %c128 : index, index -> index
        %c16 = arith.constant 16 : index
        %33 = kda2.mul %vb, %c16 : index, index -> index
        %34 = kda2.add %33, %31 : index, index -> index
        %35 = kda2.load %pool[%22, %1, %32, %34] : !kda2.tensor<[slots, h, 128, 128], f32> -> f32
        %cst = arith.constant 0.000000e+00 : f32
        %36 = kda2.select %17, %35, %cst : i1, f32, f32 -> f32
        kda2.store %36, %St[%31, %32] : f32, !kda2.tensor<[16, 128], f32, reg>
      }
      %c0_7 = arith.constant 0 : index
      %27 = kda2.cast %26 : index -> i32
      kda2.store %27, %nx[%c0_7] : i32, !kda2.tensor<[1], i32, reg>
      %28 = kda2.dim "m" : index
      kda2.loop serial %j to %28 {
        %31 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
        %c1_i32 = arith.constant 1 : i32
        %32 = kda2.cmp ge %31, %c1_i32 : i32, i32 -> i1
        %33 = kda2.cmp le %31, %5 : i32, i32 -> i1
        %false_10 = arith.constant false
        %34 = kda2.select %32, %33, %false_10 : i1, i1, i1 -> i1
        kda2.if %34 {
          %c0_11 = arith.constant 0 : index
          %c0_12 = arith.constant 0 : index
          %35 = kda2.load %nx[%c0_12] : !kda2.tensor<[1], i32, reg> -> i32
          %c1_i32_13 = arith.constant 1 : i32
          %36 = kda2.sub %31, %c1_i32_13 : i32, i32 -> i32
          %c32_14 = arith.constant 32 : index
          %37 = kda2.cast %36 : i32 -> index
          %38 = kda2.div %37, %c32_14 : index, index -> index
          %39 = kda2.cast %35 : i32 -> index
          %40 = kda2.min %39, %38 : index, index -> index
          %41 = kda2.cast %40 : index -> i32
          kda2.store %41, %nx[%c0_11] : i32, !kda2.tensor<[1], i32, reg>
        }
      }
      %c0_8 = arith.constant 0 : index
      %c0_9 = arith.constant 0 : index
      %29 = kda2.load %checkpoint_blocks[%c0_9] : !kda2.tensor<[n, nc], i32> -> i32
      kda2.store %29, %nb[%c0_8] : i32, !kda2.tensor<[1], i32, reg>
      %30 = kda2.sub %26, %c0 : index, index -> index
      kda2.loop serial %cl to %30 annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp, #kda2.pipeline_stages<2>] {
        %31 = kda2.add %c0, %cl : index, index -> index
        %32 = kda2.add %8, %31 : index, index -> index
        %33 = kda2.load %qd[%32] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %33, %Qd[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %34 = kda2.add %8, %31 : index, index -> index
        %35 = kda2.load %kl[%34] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %35, %Kl[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %36 = kda2.add %8, %31 : index, index -> index
        %37 = kda2.load %wn[%36] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %37, %Wn[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %38 = kda2.add %8, %31 : index, index -> index
        %39 = kda2.load %tp[%38] : !kda2.tensor<[h, ns, 32, 32], bf16> -> tensor<32x32xbf16>
        kda2.store %39, %Tp[] : tensor<32x32xbf16>, !kda2.tensor<[32, 32], bf16, smem>
        %40 = kda2.add %8, %31 : index, index -> index
        %41 = kda2.load %pb[%40] : !kda2.tensor<[h, ns, 32, 32], bf16> -> tensor<32x32xbf16>
        kda2.store %41, %Pb[] : tensor<32x32xbf16>, !kda2.tensor<[32, 32], bf16, smem>
        %42 = kda2.add %8, %31 : index, index -> index
        %43 = kda2.load %gl[%42] : !kda2.tensor<[h, ns, 128], f32> -> tensor<128xf32>
        kda2.store %43, %Gl[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %44 = kda2.add %2, %5 : i32, i32 -> i32
        %45 = kda2.cast %44 : i32 -> index
        %c32_10 = arith.constant 32 : index
        %46 = kda2.mul %31, %c32_10 : index, index -> index
        %47 = kda2.cast %2 : i32 -> index
        %48 = kda2.add %47, %46 : index, index -> index
        %c16 = arith.constant 16 : index
        %49 = kda2.mul %vb, %c16 : index, index -> index
        %c128 = arith.constant 128 : index
        %50 = kda2.load %v[%48, %1, %49] limits(%45, %c128) {windows = array<i64: 32, 0, 16>} : !kda2.tensor<[tt, h, 128], bf16> -> tensor<32x16xbf16>
        kda2.store %50, %Vs[] : tensor<32x16xbf16>, !kda2.tensor<[32, 16], bf16, smem>
        %c0_11 = arith.constant 0 : index
        %51 = kda2.load %nb[%c0_11] : !kda2.tensor<[1], i32, reg> -> i32
        %c0_12 = arith.constant 0 : index
        %c1_13 = arith.constant 1 : index
        %52 = kda2.add %31, %c1_13 : index, index -> index
        %53 = kda2.dim "nc" : index
        %c1_14 = arith.constant 1 : index
        %54 = kda2.sub %53, %c1_14 : index, index -> index
        %55 = kda2.min %52, %54 : index, index -> index
        %56 = kda2.load %checkpoint_blocks[%55] : !kda2.tensor<[n, nc], i32> -> i32
        kda2.store %56, %nb[%c0_12] : i32, !kda2.tensor<[1], i32, reg>
        %c0_15 = arith.constant 0 : index
        %57 = kda2.load %nx[%c0_15] : !kda2.tensor<[1], i32, reg> -> i32
        %58 = kda2.cast %57 : i32 -> index
        %59 = kda2.cmp eq %31, %58 : index, index -> i1
        kda2.if %59 {
          %90 = kda2.dim "m" : index
          kda2.loop serial %j to %90 {
            %91 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %92 = kda2.load %offset_blocks[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %93 = kda2.cmp ge %91, %c1_i32 : i32, i32 -> i1
            %false_22 = arith.constant false
            %94 = kda2.select %14, %93, %false_22 : i1, i1, i1 -> i1
            %95 = kda2.cmp le %91, %5 : i32, i32 -> i1
            %false_23 = arith.constant false
            %96 = kda2.select %94, %95, %false_23 : i1, i1, i1 -> i1
            %c1_i32_24 = arith.constant 1 : i32
            %97 = kda2.sub %91, %c1_i32_24 : i32, i32 -> i32
            %c32_25 = arith.constant 32 : index
            %98 = kda2.cast %97 : i32 -> index
            %99 = kda2.div %98, %c32_25 : index, index -> index
            %100 = kda2.cmp eq %99, %31 : index, index -> i1
            %false_26 = arith.constant false
            %101 = kda2.select %96, %100, %false_26 : i1, i1, i1 -> i1
            %c0_i32_27 = arith.constant 0 : i32
            %102 = kda2.cmp ge %92, %c0_i32_27 : i32, i32 -> i1
            %false_28 = arith.constant false
            %103 = kda2.select %101, %102, %false_28 : i1, i1, i1 -> i1
            %104 = kda2.dim "blocks" : index
            %105 = kda2.cast %92 : i32 -> index
            %106 = kda2.cmp lt %105, %104 : index, index -> i1
            %false_29 = arith.constant false
            %107 = kda2.select %103, %106, %false_29 : i1, i1, i1 -> i1
            kda2.if %107 {
              %c2048_30 = arith.constant 2048 : index
              kda2.loop fragment %arg0 to %c2048_30 columns(128) split(cols) {
                %c128_31 = arith.constant 128 : index
                %108 = kda2.div %arg0, %c128_31 : index, index -> index
                %109 = kda2.rem %arg0, %c128_31 : index, index -> index
                %110 = kda2.cast %92 : i32 -> index
                %c16_32 = arith.constant 16 : index
                %111 = kda2.mul %vb, %c16_32 : index, index -> index
                %112 = kda2.add %111, %108 : index, index -> index
                %113 = kda2.load %St[%108, %109] : !kda2.tensor<[16, 128], f32, reg> -> f32
                kda2.store %113, %ckpt[%110, %1, %109, %112] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
              }
            }
          }
        }
        %60 = kda2.load %Vs[] : !kda2.tensor<[32, 16], bf16, smem> -> tensor<32x16xbf16>
        %61 = kda2.load %Tp[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %62 = kda2.matmul %60, %61 {transpose_a, transpose_b} : tensor<32x16xbf16>, tensor<32x32xbf16> -> tensor<16x32xf32>
        kda2.store %62, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %63 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %64 = kda2.cast %63 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %65 = kda2.load %Wn[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %66 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %67 = kda2.matmul %64, %65 acc(%66) {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %67, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %68 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %69 = kda2.cast %68 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %70 = kda2.load %Qd[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %71 = kda2.matmul %69, %70 {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16> -> tensor<16x32xf32>
        kda2.store %71, %Ot[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c2048_16 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_16 columns(128) split(cols) {
          %c128_22 = arith.constant 128 : index
          %90 = kda2.div %arg0, %c128_22 : index, index -> index
          %91 = kda2.rem %arg0, %c128_22 : index, index -> index
          %92 = kda2.load %St[%90, %91] : !kda2.tensor<[16, 128], f32, reg> -> f32
          %93 = kda2.load %Gl[%91] : !kda2.tensor<[128], f32, smem> -> f32
          %94 = kda2.mul %92, %93 : f32, f32 -> f32
          kda2.store %94, %St[%90, %91] : f32, !kda2.tensor<[16, 128], f32, reg>
        }
        %72 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %73 = kda2.cast %72 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %74 = kda2.load %Kl[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %75 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %76 = kda2.matmul %73, %74 acc(%75) : tensor<16x32xbf16>, tensor<32x128xbf16>, tensor<16x128xf32> -> tensor<16x128xf32>
        kda2.store %76, %St[] : tensor<16x128xf32>, !kda2.tensor<[16, 128], f32, reg>
        %77 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %78 = kda2.cast %77 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %79 = kda2.load %Pb[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %80 = kda2.load %Ot[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %81 = kda2.matmul %78, %79 acc(%80) {transpose_b} : tensor<16x32xbf16>, tensor<32x32xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %81, %Ot[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c512 = arith.constant 512 : index
        kda2.loop fragment %arg0 to %c512 columns(32) split(cols) {
          %c32_22 = arith.constant 32 : index
          %90 = kda2.div %arg0, %c32_22 : index, index -> index
          %91 = kda2.rem %arg0, %c32_22 : index, index -> index
          %c32_23 = arith.constant 32 : index
          %92 = kda2.mul %31, %c32_23 : index, index -> index
          %93 = kda2.add %92, %91 : index, index -> index
          %94 = kda2.cast %5 : i32 -> index
          %95 = kda2.cmp lt %93, %94 : index, index -> i1
          kda2.if %95 {
            %c32_24 = arith.constant 32 : index
            %96 = kda2.mul %31, %c32_24 : index, index -> index
            %97 = kda2.cast %2 : i32 -> index
            %98 = kda2.add %97, %96 : index, index -> index
            %99 = kda2.add %98, %91 : index, index -> index
            %c16_25 = arith.constant 16 : index
            %100 = kda2.mul %vb, %c16_25 : index, index -> index
            %101 = kda2.add %100, %90 : index, index -> index
            %102 = kda2.load %Ot[%90, %91] : !kda2.tensor<[16, 32], f32, reg> -> f32
            %103 = kda2.cast %102 : f32 -> bf16
            %cst = arith.constant 0.000000e+00 : f32
            %104 = kda2.cast %103 : bf16 -> f32
            %105 = kda2.select %14, %104, %cst : i1, f32, f32 -> f32
            %106 = kda2.cast %105 : f32 -> bf16
            kda2.store %106, %o[%99, %1, %101] : bf16, !kda2.tensor<[tt, h, 128], bf16>
          }
        }
        %c0_i32_17 = arith.constant 0 : i32
        %82 = kda2.cmp ne %boundaries, %c0_i32_17 : i32, i32 -> i1
        %false_18 = arith.constant false
        %83 = kda2.select %14, %82, %false_18 : i1, i1, i1 -> i1
        %c0_i32_19 = arith.constant 0 : i32
        %84 = kda2.cmp ge %51, %c0_i32_19 : i32, i32 -> i1
        %false_20 = arith.constant false
        %85 = kda2.select %83, %84, %false_20 : i1, i1, i1 -> i1
        %86 = kda2.dim "blocks" : index
        %87 = kda2.cast %51 : i32 -> index
        %88 = kda2.cmp lt %87, %86 : index, index -> i1
        %false_21 = arith.constant false
        %89 = kda2.select %85, %88, %false_21 : i1, i1, i1 -> i1
        kda2.if %89 {
          %c2048_22 = arith.constant 2048 : index
          kda2.loop fragment %arg0 to %c2048_22 columns(128) split(cols) {
            %c128_23 = arith.constant 128 : index
            %90 = kda2.div %arg0, %c128_23 : index, index -> index
            %91 = kda2.rem %arg0, %c128_23 : index, index -> index
            %92 = kda2.cast %51 : i32 -> index
            %c16_24 = arith.constant 16 : index
            %93 = kda2.mul %vb, %c16_24 : index, index -> index
            %94 = kda2.add %93, %90 : index, index -> index
            %95 = kda2.load %St[%90, %91] : !kda2.tensor<[16, 128], f32, reg> -> f32
            kda2.store %95, %ckpt[%92, %1, %91, %94] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
          }
        }
        kda2.if %59 {
          %c512_22 = arith.constant 512 : index
          kda2.loop fragment %arg0 to %c512_22 columns(32) split(none) {
            %c32_27 = arith.constant 32 : index
            %96 = kda2.div %arg0, %c32_27 : index, index -> index
            %97 = kda2.rem %arg0, %c32_27 : index, index -> index
            %98 = kda2.add %8, %31 : index, index -> index
            %c16_28 = arith.constant 16 : index
            %99 = kda2.mul %vb, %c16_28 : index, index -> index
            %100 = kda2.add %99, %96 : index, index -> index
            %101 = kda2.load %Ut[%96, %97] : !kda2.tensor<[16, 32], f32, reg> -> f32
            %102 = kda2.cast %101 : f32 -> bf16
            kda2.store %102, %us[%98, %100, %97] : bf16, !kda2.tensor<[h, ns, 128, 32], bf16>
          }
          %c0_23 = arith.constant 0 : index
          %c32_24 = arith.constant 32 : index
          %90 = kda2.cast %5 : i32 -> index
          %91 = kda2.add %90, %c32_24 : index, index -> index
          %c1_25 = arith.constant 1 : index
          %92 = kda2.sub %91, %c1_25 : index, index -> index
          %c32_26 = arith.constant 32 : index
          %93 = kda2.div %92, %c32_26 : index, index -> index
          %94 = kda2.cast %93 : index -> i32
          kda2.store %94, %nx[%c0_23] : i32, !kda2.tensor<[1], i32, reg>
          %95 = kda2.dim "m" : index
          kda2.loop serial %j to %95 {
            %96 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %97 = kda2.cmp ge %96, %c1_i32 : i32, i32 -> i1
            %98 = kda2.cmp le %96, %5 : i32, i32 -> i1
            %false_27 = arith.constant false
            %99 = kda2.select %97, %98, %false_27 : i1, i1, i1 -> i1
            %c1_i32_28 = arith.constant 1 : i32
            %100 = kda2.sub %96, %c1_i32_28 : i32, i32 -> i32
            %c32_29 = arith.constant 32 : index
            %101 = kda2.cast %100 : i32 -> index
            %102 = kda2.div %101, %c32_29 : index, index -> index
            %103 = kda2.cmp gt %102, %31 : index, index -> i1
            %false_30 = arith.constant false
            %104 = kda2.select %99, %103, %false_30 : i1, i1, i1 -> i1
            kda2.if %104 {
              %c0_31 = arith.constant 0 : index
              %c0_32 = arith.constant 0 : index
              %105 = kda2.load %nx[%c0_32] : !kda2.tensor<[1], i32, reg> -> i32
              %c1_i32_33 = arith.constant 1 : i32
              %106 = kda2.sub %96, %c1_i32_33 : i32, i32 -> i32
              %c32_34 = arith.constant 32 : index
              %107 = kda2.cast %106 : i32 -> index
              %108 = kda2.div %107, %c32_34 : index, index -> index
              %109 = kda2.cast %105 : i32 -> index
              %110 = kda2.min %109, %108 : index, index -> index
              %111 = kda2.cast %110 : index -> i32
              kda2.store %111, %nx[%c0_31] : i32, !kda2.tensor<[1], i32, reg>
            }
          }
        }
      }
      kda2.if %14 {
        %c2048_10 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_10 columns(128) split(cols) {
          %c128 = arith.constant 128 : index
          %31 = kda2.div %arg0, %c128 : index, index -> index
          %32 = kda2.rem %arg0, %c128 : index, index -> index
          %33 = kda2.cast %9 : i32 -> index
          %c16 = arith.constant 16 : index
          %34 = kda2.mul %vb, %c16 : index, index -> index
          %35 = kda2.add %34, %31 : index, index -> index
          %36 = kda2.load %St[%31, %32] : !kda2.tensor<[16, 128], f32, reg> -> f32
          kda2.store %36, %pool[%33, %1, %32, %35] : f32, !kda2.tensor<[slots, h, 128, 128], f32>
        }
      }
    }
    kda2.return
  }
  kda2.kernel @kda_chunk_out(%qd: !kda2.tensor<[h, ns, 32, 128], bf16>, %pb: !kda2.tensor<[h, ns, 32, 32], bf16>, %hs: !kda2.tensor<[h, ns, 128, 128], bf16>, %us: !kda2.tensor<[h, ns, 128, 32], bf16>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %nslots: i32, %o: !kda2.tensor<[tt, h, 128], bf16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["qd", "pb", "hs", "us", "cu_seqlens", "state_indices", "nslots", "o"], grid = ["h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, V = 128 : i64}} {
    kda2.gmem %qd, %pb, %hs, %us, %o, %cu_seqlens, %state_indices layout(row_major) packing(none) : !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128, 128], bf16>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[tt, h, 128], bf16>, !kda2.tensor<[np1], i32>, !kda2.tensor<[n], i32>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Hs = kda2.smem_alloc size(131072) : !kda2.tensor<[128, 128], bf16, smem>
    %Us = kda2.smem_alloc size(32768) : !kda2.tensor<[128, 32], bf16, smem>
    %O = kda2.smem_alloc size(32768) : !kda2.tensor<[32, 128], f32, smem>
    %lo = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %hi = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %0 = kda2.dim "ns" : index
    kda2.loop block %sl to %0 annotations [#kda2.pragma<tma_coalesce>] {
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
        %c0_5 = arith.constant 0 : index
        %26 = kda2.load %hi[%c0_5] : !kda2.tensor<[1], i32, reg> -> i32
        %c0_6 = arith.constant 0 : index
        %27 = kda2.load %lo[%c0_6] : !kda2.tensor<[1], i32, reg> -> i32
        %28 = kda2.sub %26, %27 : i32, i32 -> i32
        %c1_i32_7 = arith.constant 1 : i32
        %29 = kda2.cmp gt %28, %c1_i32_7 : i32, i32 -> i1
        kda2.if %29 {
          %c0_8 = arith.constant 0 : index
          %30 = kda2.load %lo[%c0_8] : !kda2.tensor<[1], i32, reg> -> i32
          %c0_9 = arith.constant 0 : index
          %31 = kda2.load %hi[%c0_9] : !kda2.tensor<[1], i32, reg> -> i32
          %32 = kda2.add %30, %31 : i32, i32 -> i32
          %c2_i32 = arith.constant 2 : i32
          %33 = kda2.div %32, %c2_i32 : i32, i32 -> i32
          %34 = kda2.cast %33 : i32 -> index
          %35 = kda2.load %cu_seqlens[%34] : !kda2.tensor<[np1], i32> -> i32
          %c32_10 = arith.constant 32 : index
          %36 = kda2.cast %35 : i32 -> index
          %37 = kda2.div %36, %c32_10 : index, index -> index
          %38 = kda2.cast %33 : i32 -> index
          %39 = kda2.add %37, %38 : index, index -> index
          %40 = kda2.cmp le %39, %sl : index, index -> i1
          %c0_11 = arith.constant 0 : index
          %c0_12 = arith.constant 0 : index
          %41 = kda2.load %lo[%c0_12] : !kda2.tensor<[1], i32, reg> -> i32
          %42 = kda2.select %40, %33, %41 : i1, i32, i32 -> i32
          kda2.store %42, %lo[%c0_11] : i32, !kda2.tensor<[1], i32, reg>
          %c0_13 = arith.constant 0 : index
          %c0_14 = arith.constant 0 : index
          %43 = kda2.load %hi[%c0_14] : !kda2.tensor<[1], i32, reg> -> i32
          %44 = kda2.select %40, %43, %33 : i1, i32, i32 -> i32
          kda2.store %44, %hi[%c0_13] : i32, !kda2.tensor<[1], i32, reg>
        }
      }
      %c0_1 = arith.constant 0 : index
      %5 = kda2.load %lo[%c0_1] : !kda2.tensor<[1], i32, reg> -> i32
      %6 = kda2.cast %5 : i32 -> index
      %7 = kda2.load %cu_seqlens[%6] : !kda2.tensor<[np1], i32> -> i32
      %c1_i32 = arith.constant 1 : i32
      %8 = kda2.add %5, %c1_i32 : i32, i32 -> i32
      %9 = kda2.cast %8 : i32 -> index
      %10 = kda2.load %cu_seqlens[%9] : !kda2.tensor<[np1], i32> -> i32
      %11 = kda2.sub %10, %7 : i32, i32 -> i32
      %c32 = arith.constant 32 : index
      %12 = kda2.cast %7 : i32 -> index
      %13 = kda2.div %12, %c32 : index, index -> index
      %14 = kda2.cast %5 : i32 -> index
      %15 = kda2.add %13, %14 : index, index -> index
      %16 = kda2.sub %sl, %15 : index, index -> index
      %17 = kda2.cast %5 : i32 -> index
      %18 = kda2.load %state_indices[%17] : !kda2.tensor<[n], i32> -> i32
      %c0_i32_2 = arith.constant 0 : i32
      %19 = kda2.cmp ge %18, %c0_i32_2 : i32, i32 -> i1
      %20 = kda2.cmp lt %18, %nslots : i32, i32 -> i1
      %false = arith.constant false
      %21 = kda2.select %19, %20, %false : i1, i1, i1 -> i1
      %c32_3 = arith.constant 32 : index
      %22 = kda2.mul %16, %c32_3 : index, index -> index
      %23 = kda2.cast %11 : i32 -> index
      %24 = kda2.sub %23, %22 : index, index -> index
      %c1_4 = arith.constant 1 : index
      %25 = kda2.min %24, %c1_4 : index, index -> index
      kda2.loop serial %live to %25 {
        %26 = kda2.load %qd[%sl] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %26, %Qd[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %27 = kda2.load %pb[%sl] : !kda2.tensor<[h, ns, 32, 32], bf16> -> tensor<32x32xbf16>
        kda2.store %27, %Pb[] : tensor<32x32xbf16>, !kda2.tensor<[32, 32], bf16, smem>
        %28 = kda2.load %hs[%sl] : !kda2.tensor<[h, ns, 128, 128], bf16> -> tensor<128x128xbf16>
        kda2.store %28, %Hs[] : tensor<128x128xbf16>, !kda2.tensor<[128, 128], bf16, smem>
        %29 = kda2.load %us[%sl] : !kda2.tensor<[h, ns, 128, 32], bf16> -> tensor<128x32xbf16>
        kda2.store %29, %Us[] : tensor<128x32xbf16>, !kda2.tensor<[128, 32], bf16, smem>
        %30 = kda2.load %Qd[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %31 = kda2.load %Hs[] : !kda2.tensor<[128, 128], bf16, smem> -> tensor<128x128xbf16>
        %32 = kda2.matmul %30, %31 {transpose_b} : tensor<32x128xbf16>, tensor<128x128xbf16> -> tensor<32x128xf32>
        kda2.store %32, %O[] : tensor<32x128xf32>, !kda2.tensor<[32, 128], f32, smem>
        %33 = kda2.load %Pb[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %34 = kda2.load %Us[] : !kda2.tensor<[128, 32], bf16, smem> -> tensor<128x32xbf16>
        %35 = kda2.load %O[] : !kda2.tensor<[32, 128], f32, smem> -> tensor<32x128xf32>
        %36 = kda2.matmul %33, %34 acc(%35) {transpose_b} : tensor<32x32xbf16>, tensor<128x32xbf16>, tensor<32x128xf32> -> tensor<32x128xf32>
        kda2.store %36, %O[] : tensor<32x128xf32>, !kda2.tensor<[32, 128], f32, smem>
        %c128 = arith.constant 128 : index
        kda2.loop thread %x to %c128 {
          %c32_5 = arith.constant 32 : index
          %c128_6 = arith.constant 128 : index
          %37 = kda2.mul %c32_5, %c128_6 : index, index -> index
          %c128_7 = arith.constant 128 : index
          %38 = kda2.div %37, %c128_7 : index, index -> index
          kda2.loop serial %e to %38 {
            %c128_8 = arith.constant 128 : index
            %c128_9 = arith.constant 128 : index
            %39 = kda2.div %c128_9, %c128_8 : index, index -> index
            %40 = kda2.mul %e, %39 : index, index -> index
            %c128_10 = arith.constant 128 : index
            %41 = kda2.div %x, %c128_10 : index, index -> index
            %42 = kda2.add %40, %41 : index, index -> index
            %c32_11 = arith.constant 32 : index
            %43 = kda2.mul %16, %c32_11 : index, index -> index
            %44 = kda2.cast %11 : i32 -> index
            %45 = kda2.sub %44, %43 : index, index -> index
            %46 = kda2.sub %45, %42 : index, index -> index
            %c1_12 = arith.constant 1 : index
            %47 = kda2.min %46, %c1_12 : index, index -> index
            kda2.loop serial %ok to %47 {
              %c32_13 = arith.constant 32 : index
              %48 = kda2.mul %16, %c32_13 : index, index -> index
              %49 = kda2.cast %7 : i32 -> index
              %50 = kda2.add %49, %48 : index, index -> index
              %51 = kda2.add %50, %42 : index, index -> index
              %c128_14 = arith.constant 128 : index
              %52 = kda2.rem %x, %c128_14 : index, index -> index
              %c128_15 = arith.constant 128 : index
              %53 = kda2.rem %x, %c128_15 : index, index -> index
              %54 = kda2.load %O[%42, %53] : !kda2.tensor<[32, 128], f32, smem> -> f32
              %55 = kda2.cast %54 : f32 -> bf16
              %cst = arith.constant 0.000000e+00 : f32
              %56 = kda2.cast %55 : bf16 -> f32
              %57 = kda2.select %21, %56, %cst : i1, f32, f32 -> f32
              %58 = kda2.cast %57 : f32 -> bf16
              kda2.store %58, %o[%51, %1, %52] : bf16, !kda2.tensor<[tt, h, 128], bf16>
            }
          }
        }
      }
    }
    kda2.return
  }
  kda2.kernel @kda_chunk_ckpt(%kc: !kda2.tensor<[h, nm, 32, 128], bf16>, %ec: !kda2.tensor<[h, nm, 128], f32>, %us: !kda2.tensor<[h, ns, 128, 32], bf16>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %nslots: i32, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["kc", "ec", "us", "cu_seqlens", "state_indices", "ckpt_offsets", "offset_blocks", "nslots", "ckpt"], grid = ["h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, V = 128 : i64}, pragmas = [#kda2.pragma<tma_coalesce>]} {
    kda2.gmem %kc, %ec, %us, %cu_seqlens, %state_indices layout(row_major) packing(none) : !kda2.tensor<[h, nm, 32, 128], bf16>, !kda2.tensor<[h, nm, 128], f32>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[np1], i32>, !kda2.tensor<[n], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %ckpt layout(KV) packing(none) : !kda2.tensor<[blocks, h, 128, 128], f32>
    %Kc = kda2.smem_alloc size(32768) : !kda2.tensor<[32, 128], bf16, smem>
    %Us = kda2.smem_alloc size(8192) : !kda2.tensor<[64, 32], bf16, smem>
    %Ec = kda2.smem_alloc size(1024) : !kda2.tensor<[128], f32, smem>
    %A = kda2.smem_alloc size(65536) : !kda2.tensor<[128, 64], f32, smem>
    %0 = kda2.dim "nm" : index
    kda2.loop block %o to %0 {
      %1 = kda2.grid_index "h" : index
      %2 = kda2.dim "m" : index
      %3 = kda2.div %o, %2 : index, index -> index
      %4 = kda2.dim "m" : index
      %5 = kda2.rem %o, %4 : index, index -> index
      %6 = kda2.load %cu_seqlens[%3] : !kda2.tensor<[np1], i32> -> i32
      %c1 = arith.constant 1 : index
      %7 = kda2.add %3, %c1 : index, index -> index
      %8 = kda2.load %cu_seqlens[%7] : !kda2.tensor<[np1], i32> -> i32
      %9 = kda2.sub %8, %6 : i32, i32 -> i32
      %10 = kda2.load %state_indices[%3] : !kda2.tensor<[n], i32> -> i32
      %11 = kda2.load %ckpt_offsets[%3, %5] : !kda2.tensor<[n, m], i32> -> i32
      %12 = kda2.load %offset_blocks[%3, %5] : !kda2.tensor<[n, m], i32> -> i32
      %c0_i32 = arith.constant 0 : i32
      %13 = kda2.cmp ge %10, %c0_i32 : i32, i32 -> i1
      %14 = kda2.cmp lt %10, %nslots : i32, i32 -> i1
      %false = arith.constant false
      %15 = kda2.select %13, %14, %false : i1, i1, i1 -> i1
      %c1_i32 = arith.constant 1 : i32
      %16 = kda2.cmp ge %11, %c1_i32 : i32, i32 -> i1
      %false_0 = arith.constant false
      %17 = kda2.select %15, %16, %false_0 : i1, i1, i1 -> i1
      %18 = kda2.cmp le %11, %9 : i32, i32 -> i1
      %false_1 = arith.constant false
      %19 = kda2.select %17, %18, %false_1 : i1, i1, i1 -> i1
      %c0_i32_2 = arith.constant 0 : i32
      %20 = kda2.cmp ge %12, %c0_i32_2 : i32, i32 -> i1
      %false_3 = arith.constant false
      %21 = kda2.select %19, %20, %false_3 : i1, i1, i1 -> i1
      %22 = kda2.dim "blocks" : index
      %23 = kda2.cast %12 : i32 -> index
      %24 = kda2.cmp lt %23, %22 : index, index -> i1
      %false_4 = arith.constant false
      %25 = kda2.select %21, %24, %false_4 : i1, i1, i1 -> i1
      kda2.if %25 {
        %26 = kda2.load %kc[%o] : !kda2.tensor<[h, nm, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %26, %Kc[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %27 = kda2.load %ec[%o] : !kda2.tensor<[h, nm, 128], f32> -> tensor<128xf32>
        kda2.store %27, %Ec[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %c128 = arith.constant 128 : index
        %c64 = arith.constant 64 : index
        %28 = kda2.div %c128, %c64 : index, index -> index
        kda2.loop serial %vb to %28 {
          %c32 = arith.constant 32 : index
          %29 = kda2.cast %6 : i32 -> index
          %30 = kda2.div %29, %c32 : index, index -> index
          %31 = kda2.add %30, %3 : index, index -> index
          %c1_i32_5 = arith.constant 1 : i32
          %32 = kda2.sub %11, %c1_i32_5 : i32, i32 -> i32
          %c32_6 = arith.constant 32 : index
          %33 = kda2.cast %32 : i32 -> index
          %34 = kda2.div %33, %c32_6 : index, index -> index
          %35 = kda2.add %31, %34 : index, index -> index
          %c64_7 = arith.constant 64 : index
          %36 = kda2.mul %vb, %c64_7 : index, index -> index
          %37 = kda2.load %us[%35, %36] {windows = array<i64: 0, 64>} : !kda2.tensor<[h, ns, 128, 32], bf16> -> tensor<64x32xbf16>
          kda2.store %37, %Us[] : tensor<64x32xbf16>, !kda2.tensor<[64, 32], bf16, smem>
          %c128_8 = arith.constant 128 : index
          kda2.loop thread %x to %c128_8 {
            %c128_10 = arith.constant 128 : index
            %c2 = arith.constant 2 : index
            %42 = kda2.div %c128_10, %c2 : index, index -> index
            kda2.loop serial %e to %42 {
              %c2_11 = arith.constant 2 : index
              %43 = kda2.mul %e, %c2_11 : index, index -> index
              %c64_12 = arith.constant 64 : index
              %44 = kda2.div %x, %c64_12 : index, index -> index
              %45 = kda2.add %43, %44 : index, index -> index
              %c64_13 = arith.constant 64 : index
              %46 = kda2.rem %x, %c64_13 : index, index -> index
              %47 = kda2.cast %12 : i32 -> index
              %c64_14 = arith.constant 64 : index
              %48 = kda2.mul %vb, %c64_14 : index, index -> index
              %c64_15 = arith.constant 64 : index
              %49 = kda2.rem %x, %c64_15 : index, index -> index
              %50 = kda2.add %48, %49 : index, index -> index
              %51 = kda2.load %ckpt[%47, %1, %45, %50] : !kda2.tensor<[blocks, h, 128, 128], f32> -> f32
              %52 = kda2.load %Ec[%45] : !kda2.tensor<[128], f32, smem> -> f32
              %53 = kda2.mul %51, %52 : f32, f32 -> f32
              kda2.store %53, %A[%45, %46] : f32, !kda2.tensor<[128, 64], f32, smem>
            }
          }
          %38 = kda2.load %Kc[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
          %39 = kda2.load %Us[] : !kda2.tensor<[64, 32], bf16, smem> -> tensor<64x32xbf16>
          %40 = kda2.load %A[] : !kda2.tensor<[128, 64], f32, smem> -> tensor<128x64xf32>
          %41 = kda2.matmul %38, %39 acc(%40) {transpose_a, transpose_b} : tensor<32x128xbf16>, tensor<64x32xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
          kda2.store %41, %A[] : tensor<128x64xf32>, !kda2.tensor<[128, 64], f32, smem>
          %c128_9 = arith.constant 128 : index
          kda2.loop thread %x to %c128_9 {
            %c128_10 = arith.constant 128 : index
            %c2 = arith.constant 2 : index
            %42 = kda2.div %c128_10, %c2 : index, index -> index
            kda2.loop serial %e to %42 {
              %c2_11 = arith.constant 2 : index
              %43 = kda2.mul %e, %c2_11 : index, index -> index
              %c64_12 = arith.constant 64 : index
              %44 = kda2.div %x, %c64_12 : index, index -> index
              %45 = kda2.add %43, %44 : index, index -> index
              %46 = kda2.cast %12 : i32 -> index
              %c64_13 = arith.constant 64 : index
              %47 = kda2.mul %vb, %c64_13 : index, index -> index
              %c64_14 = arith.constant 64 : index
              %48 = kda2.rem %x, %c64_14 : index, index -> index
              %49 = kda2.add %47, %48 : index, index -> index
              %c64_15 = arith.constant 64 : index
              %50 = kda2.rem %x, %c64_15 : index, index -> index
              %51 = kda2.load %A[%45, %50] : !kda2.tensor<[128, 64], f32, smem> -> f32
              kda2.store %51, %ckpt[%46, %1, %45, %49] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
            }
          }
        }
      }
    }
    kda2.return
  }
}
