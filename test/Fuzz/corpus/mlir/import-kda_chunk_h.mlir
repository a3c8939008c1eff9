module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_chunk_scan_h(%vc: !kda2.tensor<[h, nsv, 32, 16], bf16>, %kl: !kda2.tensor<[h, ns, 32, 128], bf16>, %wn: !kda2.tensor<[h, ns, 32, 128], bf16>, %tp: !kda2.tensor<[h, ns, 32, 32], bf16>, %gl: !kda2.tensor<[h, ns, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %checkpoint_blocks: !kda2.tensor<[n, nc], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %boundaries: i32, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %hs: !kda2.tensor<[h, ns, 128, 128], bf16> {kda2.io = #kda2.io<out>}, %us: !kda2.tensor<[h, ns, 128, 32], bf16> {kda2.io = #kda2.io<out>}, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["vc", "kl", "wn", "tp", "gl", "cu_seqlens", "state_indices", "has_initial_state", "checkpoint_blocks", "ckpt_offsets", "offset_blocks", "boundaries", "pool", "hs", "us", "ckpt"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, NVB = 8 : i64, V = 128 : i64, VB = 16 : i64}} {
    kda2.gmem %vc, %kl, %wn, %tp, %gl, %hs, %us, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[h, nsv, 32, 16], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[h, ns, 128, 128], bf16>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %state_indices, %has_initial_state, %checkpoint_blocks layout(row_major) packing(none) : !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n, nc], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %pool, %ckpt layout(KV) packing(none) : !kda2.tensor<[slots, h, 128, 128], f32>, !kda2.tensor<[blocks, h, 128, 128], f32>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Wn = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Gl = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
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
        %42 = kda2.add %8, %c : index, index -> index
        %c8_12 = arith.constant 8 : index
        %43 = kda2.mul %42, %c8_12 : index, index -> index
        %44 = kda2.add %43, %vb : index, index -> index
        %45 = kda2.load %vc[%44] : !kda2.tensor<[h, nsv, 32, 16], bf16> -> tensor<32x16xbf16>
        kda2.store %45, %Vs[] : tensor<32x16xbf16>, !kda2.tensor<[32, 16], bf16, smem>
        %c0_13 = arith.constant 0 : index
        %46 = kda2.load %nb[%c0_13] : !kda2.tensor<[1], i32, reg> -> i32
        %c0_14 = arith.constant 0 : index
        %c1_15 = arith.constant 1 : index
        %47 = kda2.add %c, %c1_15 : index, index -> index
        %48 = kda2.dim "nc" : index
        %c1_16 = arith.constant 1 : index
        %49 = kda2.sub %48, %c1_16 : index, index -> index
        %50 = kda2.min %47, %49 : index, index -> index
        %51 = kda2.load %checkpoint_blocks[%50] : !kda2.tensor<[n, nc], i32> -> i32
        kda2.store %51, %nb[%c0_14] : i32, !kda2.tensor<[1], i32, reg>
        %c0_17 = arith.constant 0 : index
        %52 = kda2.load %nx[%c0_17] : !kda2.tensor<[1], i32, reg> -> i32
        %53 = kda2.cast %52 : i32 -> index
        %54 = kda2.cmp eq %c, %53 : index, index -> i1
        kda2.if %54 {
          %76 = kda2.dim "m" : index
          kda2.loop serial %j to %76 {
            %77 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %78 = kda2.load %offset_blocks[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %79 = kda2.cmp ge %77, %c1_i32 : i32, i32 -> i1
            %false_24 = arith.constant false
            %80 = kda2.select %14, %79, %false_24 : i1, i1, i1 -> i1
            %81 = kda2.cmp le %77, %5 : i32, i32 -> i1
            %false_25 = arith.constant false
            %82 = kda2.select %80, %81, %false_25 : i1, i1, i1 -> i1
            %c1_i32_26 = arith.constant 1 : i32
            %83 = kda2.sub %77, %c1_i32_26 : i32, i32 -> i32
            %c32_27 = arith.constant 32 : index
            %84 = kda2.cast %83 : i32 -> index
            %85 = kda2.div %84, %c32_27 : index, index -> index
            %86 = kda2.cmp eq %85, %c : index, index -> i1
            %false_28 = arith.constant false
            %87 = kda2.select %82, %86, %false_28 : i1, i1, i1 -> i1
            %c0_i32_29 = arith.constant 0 : i32
            %88 = kda2.cmp ge %78, %c0_i32_29 : i32, i32 -> i1
            %false_30 = arith.constant false
            %89 = kda2.select %87, %88, %false_30 : i1, i1, i1 -> i1
            %90 = kda2.dim "blocks" : index
            %91 = kda2.cast %78 : i32 -> index
            %92 = kda2.cmp lt %91, %90 : index, index -> i1
            %false_31 = arith.constant false
            %93 = kda2.select %89, %92, %false_31 : i1, i1, i1 -> i1
            kda2.if %93 {
              %c2048_32 = arith.constant 2048 : index
              kda2.loop fragment %arg0 to %c2048_32 columns(128) {
                %c128 = arith.constant 128 : index
                %94 = kda2.div %arg0, %c128 : index, index -> index
                %95 = kda2.rem %arg0, %c128 : index, index -> index
                %96 = kda2.cast %78 : i32 -> index
                %c16 = arith.constant 16 : index
                %97 = kda2.mul %vb, %c16 : index, index -> index
                %98 = kda2.add %97, %94 : index, index -> index
                %99 = kda2.load %St[%94, %95] : !kda2.tensor<[16, 128], f32, reg> -> f32
                kda2.store %99, %ckpt[%96, %1, %95, %98] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
              }
            }
          }
        }
        %55 = kda2.load %Vs[] : !kda2.tensor<[32, 16], bf16, smem> -> tensor<32x16xbf16>
        %56 = kda2.load %Tp[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %57 = kda2.matmul %55, %56 {transpose_a, transpose_b} : tensor<32x16xbf16>, tensor<32x32xbf16> -> tensor<16x32xf32>
        kda2.store %57, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %58 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %59 = kda2.cast %58 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %60 = kda2.load %Wn[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %61 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %62 = kda2.matmul %59, %60 acc(%61) {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %62, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c2048_18 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_18 columns(128) {
          %c128 = arith.constant 128 : index
          %76 = kda2.div %arg0, %c128 : index, index -> index
          %77 = kda2.rem %arg0, %c128 : index, index -> index
          %78 = kda2.load %St[%76, %77] : !kda2.tensor<[16, 128], f32, reg> -> f32
          %79 = kda2.add %8, %c : index, index -> index
          %c16 = arith.constant 16 : index
          %80 = kda2.mul %vb, %c16 : index, index -> index
          %81 = kda2.add %80, %76 : index, index -> index
          %82 = kda2.cast %78 : f32 -> bf16
          kda2.store %82, %hs[%79, %81, %77] : bf16, !kda2.tensor<[h, ns, 128, 128], bf16>
          %83 = kda2.load %Gl[%77] : !kda2.tensor<[128], f32, smem> -> f32
          %84 = kda2.mul %78, %83 : f32, f32 -> f32
          kda2.store %84, %St[%76, %77] : f32, !kda2.tensor<[16, 128], f32, reg>
        }
        %63 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %64 = kda2.cast %63 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %65 = kda2.load %Kl[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %66 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %67 = kda2.matmul %64, %65 acc(%66) : tensor<16x32xbf16>, tensor<32x128xbf16>, tensor<16x128xf32> -> tensor<16x128xf32>
        kda2.store %67, %St[] : tensor<16x128xf32>, !kda2.tensor<[16, 128], f32, reg>
        %c512 = arith.constant 512 : index
        kda2.loop fragment %arg0 to %c512 columns(32) {
          %c32_24 = arith.constant 32 : index
          %76 = kda2.div %arg0, %c32_24 : index, index -> index
          %77 = kda2.rem %arg0, %c32_24 : index, index -> index
          %78 = kda2.add %8, %c : index, index -> index
          %c16 = arith.constant 16 : index
          %79 = kda2.mul %vb, %c16 : index, index -> index
          %80 = kda2.add %79, %76 : index, index -> index
          %81 = kda2.load %Ut[%76, %77] : !kda2.tensor<[16, 32], f32, reg> -> f32
          %82 = kda2.cast %81 : f32 -> bf16
          kda2.store %82, %us[%78, %80, %77] : bf16, !kda2.tensor<[h, ns, 128, 32], bf16>
        }
        %c0_i32_19 = arith.constant 0 : i32
        %68 = kda2.cmp ne %boundaries, %c0_i32_19 : i32, i32 -> i1
        %false_20 = arith.constant false
        %69 = kda2.select %14, %68, %false_20 : i1, i1, i1 -> i1
        %c0_i32_21 = arith.constant 0 : i32
        %70 = kda2.cmp ge %46, %c0_i32_21 : i32, i32 -> i1
        %false_22 = arith.constant false
        %71 = kda2.select %69, %70, %false_22 : i1, i1, i1 -> i1
        %72 = kda2.dim "blocks" : index
        %73 = kda2.cast %46 : i32 -> index
        %74 = kda2.cmp lt %73, %72 : index, index -> i1
        %false_23 = arith.constant false
        %75 = kda2.select %71, %74, %false_23 : i1, i1, i1 -> i1
        kda2.if %75 {
          %c2048_24 = arith.constant 2048 : index
          kda2.loop fragment %arg0 to %c2048_24 columns(128) {
            %c128 = arith.constant 128 : index
            %76 = kda2.div %arg0, %c128 : index, index -> index
            %77 = kda2.rem %arg0, %c128 : index, index -> index
            %78 = kda2.cast %46 : i32 -> index
            %c16 = arith.constant 16 : index
            %79 = kda2.mul %vb, %c16 : index, index -> index
            %80 = kda2.add %79, %76 : index, index -> index
            %81 = kda2.load %St[%76, %77] : !kda2.tensor<[16, 128], f32, reg> -> f32
            kda2.store %81, %ckpt[%78, %1, %77, %80] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
          }
        }
        kda2.if %54 {
          %c0_24 = arith.constant 0 : index
          %c32_25 = arith.constant 32 : index
          %76 = kda2.cast %5 : i32 -> index
          %77 = kda2.add %76, %c32_25 : index, index -> index
          %c1_26 = arith.constant 1 : index
          %78 = kda2.sub %77, %c1_26 : index, index -> index
          %c32_27 = arith.constant 32 : index
          %79 = kda2.div %78, %c32_27 : index, index -> index
          %80 = kda2.cast %79 : index -> i32
          kda2.store %80, %nx[%c0_24] : i32, !kda2.tensor<[1], i32, reg>
          %81 = kda2.dim "m" : index
          kda2.loop serial %j to %81 {
            %82 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %83 = kda2.cmp ge %82, %c1_i32 : i32, i32 -> i1
            %84 = kda2.cmp le %82, %5 : i32, i32 -> i1
            %false_28 = arith.constant false
            %85 = kda2.select %83, %84, %false_28 : i1, i1, i1 -> i1
            %c1_i32_29 = arith.constant 1 : i32
            %86 = kda2.sub %82, %c1_i32_29 : i32, i32 -> i32
            %c32_30 = arith.constant 32 : index
            %87 = kda2.cast %86 : i32 -> index
            %88 = kda2.div %87, %c32_30 : index, index -> index
            %89 = kda2.cmp gt %88, %c : index, index -> i1
            %false_31 = arith.constant false
            %90 = kda2.select %85, %89, %false_31 : i1, i1, i1 -> i1
            kda2.if %90 {
              %c0_32 = arith.constant 0 : index
              %c0_33 = arith.constant 0 : index
              %91 = kda2.load %nx[%c0_33] : !kda2.tensor<[1], i32, reg> -> i32
              %c1_i32_34 = arith.constant 1 : i32
              %92 = kda2.sub %82, %c1_i32_34 : i32, i32 -> i32
              %c32_35 = arith.constant 32 : index
              %93 = kda2.cast %92 : i32 -> index
              %94 = kda2.div %93, %c32_35 : index, index -> index
              %95 = kda2.cast %91 : i32 -> index
              %96 = kda2.min %95, %94 : index, index -> index
              %97 = kda2.cast %96 : index -> i32
              kda2.store %97, %nx[%c0_32] : i32, !kda2.tensor<[1], i32, reg>
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
  kda2.kernel @kda_chunk_scan_hk(%vc: !kda2.tensor<[h, nsv, 32, 16], bf16>, %kl: !kda2.tensor<[h, ns, 32, 128], bf16>, %wn: !kda2.tensor<[h, ns, 32, 128], bf16>, %tp: !kda2.tensor<[h, ns, 32, 32], bf16>, %gl: !kda2.tensor<[h, ns, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %checkpoint_blocks: !kda2.tensor<[n, nc], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %boundaries: i32, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %hs: !kda2.tensor<[h, ns, 128, 128], bf16> {kda2.io = #kda2.io<out>}, %us: !kda2.tensor<[h, ns, 128, 32], bf16> {kda2.io = #kda2.io<out>}, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["vc", "kl", "wn", "tp", "gl", "cu_seqlens", "state_indices", "has_initial_state", "checkpoint_blocks", "ckpt_offsets", "offset_blocks", "boundaries", "pool", "hs", "us", "ckpt"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, NVB = 8 : i64, V = 128 : i64, VB = 16 : i64}} {
    kda2.gmem %vc, %kl, %wn, %tp, %gl, %hs, %us, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[h, nsv, 32, 16], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[h, ns, 128, 128], bf16>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %state_indices, %has_initial_state, %checkpoint_blocks layout(row_major) packing(none) : !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n, nc], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %pool, %ckpt layout(KV) packing(none) : !kda2.tensor<[slots, h, 128, 128], f32>, !kda2.tensor<[blocks, h, 128, 128], f32>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Wn = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Gl = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %Vs = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 16], bf16, smem>
    %St = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 128], f32, reg>
    %Ut = kda2.reg_alloc {mma, split = "none"} : !kda2.tensor<[16, 32], f32, reg>
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
        %42 = kda2.add %8, %c : index, index -> index
        %c8_12 = arith.constant 8 : index
        %43 = kda2.mul %42, %c8_12 : index, index -> index
        %44 = kda2.add %43, %vb : index, index -> index
        %45 = kda2.load %vc[%44] : !kda2.tensor<[h, nsv, 32, 16], bf16> -> tensor<32x16xbf16>
        kda2.store %45, %Vs[] : tensor<32x16xbf16>, !kda2.tensor<[32, 16], bf16, smem>
        %c0_13 = arith.constant 0 : index
        %46 = kda2.load %nb[%c0_13] : !kda2.tensor<[1], i32, reg> -> i32
        %c0_14 = arith.constant 0 : index
        %c1_15 = arith.constant 1 : index
        %47 = kda2.add %c, %c1_15 : index, index -> index
        %48 = kda2.dim "nc" : index
        %c1_16 = arith.constant 1 : index
        %49 = kda2.sub %48, %c1_16 : index, index -> index
        %50 = kda2.min %47, %49 : index, index -> index
        %51 = kda2.load %checkpoint_blocks[%50] : !kda2.tensor<[n, nc], i32> -> i32
        kda2.store %51, %nb[%c0_14] : i32, !kda2.tensor<[1], i32, reg>
        %c0_17 = arith.constant 0 : index
        %52 = kda2.load %nx[%c0_17] : !kda2.tensor<[1], i32, reg> -> i32
        %53 = kda2.cast %52 : i32 -> index
        %54 = kda2.cmp eq %c, %53 : index, index -> i1
        kda2.if %54 {
          %76 = kda2.dim "m" : index
          kda2.loop serial %j to %76 {
            %77 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %78 = kda2.load %offset_blocks[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %79 = kda2.cmp ge %77, %c1_i32 : i32, i32 -> i1
            %false_24 = arith.constant false
            %80 = kda2.select %14, %79, %false_24 : i1, i1, i1 -> i1
            %81 = kda2.cmp le %77, %5 : i32, i32 -> i1
            %false_25 = arith.constant false
            %82 = kda2.select %80, %81, %false_25 : i1, i1, i1 -> i1
            %c1_i32_26 = arith.constant 1 : i32
            %83 = kda2.sub %77, %c1_i32_26 : i32, i32 -> i32
            %c32_27 = arith.constant 32 : index
            %84 = kda2.cast %83 : i32 -> index
            %85 = kda2.div %84, %c32_27 : index, index -> index
            %86 = kda2.cmp eq %85, %c : index, index -> i1
            %false_28 = arith.constant false
            %87 = kda2.select %82, %86, %false_28 : i1, i1, i1 -> i1
            %c0_i32_29 = arith.constant 0 : i32
            %88 = kda2.cmp ge %78, %c0_i32_29 : i32, i32 -> i1
            %false_30 = arith.constant false
            %89 = kda2.select %87, %88, %false_30 : i1, i1, i1 -> i1
            %90 = kda2.dim "blocks" : index
            %91 = kda2.cast %78 : i32 -> index
            %92 = kda2.cmp lt %91, %90 : index, index -> i1
            %false_31 = arith.constant false
            %93 = kda2.select %89, %92, %false_31 : i1, i1, i1 -> i1
            kda2.if %93 {
              %c2048_32 = arith.constant 2048 : index
              kda2.loop fragment %arg0 to %c2048_32 columns(128) split(cols) {
                %c128 = arith.constant 128 : index
                %94 = kda2.div %arg0, %c128 : index, index -> index
                %95 = kda2.rem %arg0, %c128 : index, index -> index
                %96 = kda2.cast %78 : i32 -> index
                %c16 = arith.constant 16 : index
                %97 = kda2.mul %vb, %c16 : index, index -> index
                %98 = kda2.add %97, %94 : index, index -> index
                %99 = kda2.load %St[%94, %95] : !kda2.tensor<[16, 128], f32, reg> -> f32
                kda2.store %99, %ckpt[%96, %1, %95, %98] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
              }
            }
          }
        }
        %55 = kda2.load %Vs[] : !kda2.tensor<[32, 16], bf16, smem> -> tensor<32x16xbf16>
        %56 = kda2.load %Tp[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %57 = kda2.matmul %55, %56 {transpose_a, transpose_b} : tensor<32x16xbf16>, tensor<32x32xbf16> -> tensor<16x32xf32>
        kda2.store %57, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %58 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %59 = kda2.cast %58 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %60 = kda2.load %Wn[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %61 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %62 = kda2.matmul %59, %60 acc(%61) {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %62, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c2048_18 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_18 columns(128) split(cols) {
          %c128 = arith.constant 128 : index
          %76 = kda2.div %arg0, %c128 : index, index -> index
          %77 = kda2.rem %arg0, %c128 : index, index -> index
          %78 = kda2.load %St[%76, %77] : !kda2.tensor<[16, 128], f32, reg> -> f32
          %79 = kda2.add %8, %c : index, index -> index
          %c16 = arith.constant 16 : index
          %80 = kda2.mul %vb, %c16 : index, index -> index
          %81 = kda2.add %80, %76 : index, index -> index
          %82 = kda2.cast %78 : f32 -> bf16
          kda2.store %82, %hs[%79, %81, %77] : bf16, !kda2.tensor<[h, ns, 128, 128], bf16>
          %83 = kda2.load %Gl[%77] : !kda2.tensor<[128], f32, smem> -> f32
          %84 = kda2.mul %78, %83 : f32, f32 -> f32
          kda2.store %84, %St[%76, %77] : f32, !kda2.tensor<[16, 128], f32, reg>
        }
        %63 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %64 = kda2.cast %63 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %65 = kda2.load %Kl[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %66 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %67 = kda2.matmul %64, %65 acc(%66) : tensor<16x32xbf16>, tensor<32x128xbf16>, tensor<16x128xf32> -> tensor<16x128xf32>
        kda2.store %67, %St[] : tensor<16x128xf32>, !kda2.tensor<[16, 128], f32, reg>
        %c512 = arith.constant 512 : index
        kda2.loop fragment %arg0 to %c512 columns(32) split(none) {
          %c32_24 = arith.constant 32 : index
          %76 = kda2.div %arg0, %c32_24 : index, index -> index
          %77 = kda2.rem %arg0, %c32_24 : index, index -> index
          %78 = kda2.add %8, %c : index, index -> index
          %c16 = arith.constant 16 : index
          %79 = kda2.mul %vb, %c16 : index, index -> index
          %80 = kda2.add %79, %76 : index, index -> index
          %81 = kda2.load %Ut[%76, %77] : !kda2.tensor<[16, 32], f32, reg> -> f32
          %82 = kda2.cast %81 : f32 -> bf16
          kda2.store %82, %us[%78, %80, %77] : bf16, !kda2.tensor<[h, ns, 128, 32], bf16>
        }
        %c0_i32_19 = arith.constant 0 : i32
        %68 = kda2.cmp ne %boundaries, %c0_i32_19 : i32, i32 -> i1
        %false_20 = arith.constant false
        %69 = kda2.select %14, %68, %false_20 : i1, i1, i1 -> i1
        %c0_i32_21 = arith.constant 0 : i32
        %70 = kda2.cmp ge %46, %c0_i32_21 : i32, i32 -> i1
        %false_22 = arith.constant false
        %71 = kda2.select %69, %70, %false_22 : i1, i1, i1 -> i1
        %72 = kda2.dim "blocks" : index
        %73 = kda2.cast %46 : i32 -> index
        %74 = kda2.cmp lt %73, %72 : index, index -> i1
        %false_23 = arith.constant false
        %75 = kda2.select %71, %74, %false_23 : i1, i1, i1 -> i1
        kda2.if %75 {
          %c2048_24 = arith.constant 2048 : index
          kda2.loop fragment %arg0 to %c2048_24 columns(128) split(cols) {
            %c128 = arith.constant 128 : index
            %76 = kda2.div %arg0, %c128 : index, index -> index
            %77 = kda2.rem %arg0, %c128 : index, index -> index
            %78 = kda2.cast %46 : i32 -> index
            %c16 = arith.constant 16 : index
            %79 = kda2.mul %vb, %c16 : index, index -> index
            %80 = kda2.add %79, %76 : index, index -> index
            %81 = kda2.load %St[%76, %77] : !kda2.tensor<[16, 128], f32, reg> -> f32
            kda2.store %81, %ckpt[%78, %1, %77, %80] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
          }
        }
        kda2.if %54 {
          %c0_24 = arith.constant 0 : index
          %c32_25 = arith.constant 32 : index
          %76 = kda2.cast %5 : i32 -> index
          %77 = kda2.add %76, %c32_25 : index, index -> index
          %c1_26 = arith.constant 1 : index
          %78 = kda2.sub %77, %c1_26 : index, index -> index
          %c32_27 = arith.constant 32 : index
          %79 = kda2.div %78, %c32_27 : index, index -> index
          %80 = kda2.cast %79 : index -> i32
          kda2.store %80, %nx[%c0_24] : i32, !kda2.tensor<[1], i32, reg>
          %81 = kda2.dim "m" : index
          kda2.loop serial %j to %81 {
            %82 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %83 = kda2.cmp ge %82, %c1_i32 : i32, i32 -> i1
            %84 = kda2.cmp le %82, %5 : i32, i32 -> i1
            %false_28 = arith.constant false
            %85 = kda2.select %83, %84, %false_28 : i1, i1, i1 -> i1
            %c1_i32_29 = arith.constant 1 : i32
            %86 = kda2.sub %82, %c1_i32_29 : i32, i32 -> i32
            %c32_30 = arith.constant 32 : index
            %87 = kda2.cast %86 : i32 -> index
            %88 = kda2.div %87, %c32_30 : index, index -> index
            %89 = kda2.cmp gt %88, %c : index, index -> i1
            %false_31 = arith.constant false
            %90 = kda2.select %85, %89, %false_31 : i1, i1, i1 -> i1
            kda2.if %90 {
              %c0_32 = arith.constant 0 : index
              %c0_33 = arith.constant 0 : index
              %91 = kda2.load %nx[%c0_33] : !kda2.tensor<[1], i32, reg> -> i32
              %c1_i32_34 = arith.constant 1 : i32
              %92 = kda2.sub %82, %c1_i32_34 : i32, i32 -> i32
              %c32_35 = arith.constant 32 : index
              %93 = kda2.cast %92 : i32 -> index
              %94 = kda2.div %93, %c32_35 : index, index -> index
              %95 = kda2.cast %91 : i32 -> index
              %96 = kda2.min %95, %94 : index, index -> index
              %97 = kda2.cast %96 : index -> i32
              kda2.store %97, %nx[%c0_32] : i32, !kda2.tensor<[1], i32, reg>
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
  kda2.kernel @kda_chunk_scan_o(%vc: !kda2.tensor<[h, nsv, 32, 16], bf16>, %qd: !kda2.tensor<[h, ns, 32, 128], bf16>, %kl: !kda2.tensor<[h, ns, 32, 128], bf16>, %wn: !kda2.tensor<[h, ns, 32, 128], bf16>, %tp: !kda2.tensor<[h, ns, 32, 32], bf16>, %pb: !kda2.tensor<[h, ns, 32, 32], bf16>, %gl: !kda2.tensor<[h, ns, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %checkpoint_blocks: !kda2.tensor<[n, nc], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %boundaries: i32, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %o: !kda2.tensor<[tt, h, 128], bf16> {kda2.io = #kda2.io<out>}, %us: !kda2.tensor<[h, ns, 128, 32], bf16> {kda2.io = #kda2.io<out>}, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["vc", "qd", "kl", "wn", "tp", "pb", "gl", "cu_seqlens", "state_indices", "has_initial_state", "checkpoint_blocks", "ckpt_offsets", "offset_blocks", "boundaries", "pool", "o", "us", "ckpt"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, NVB = 8 : i64, OB = 0 : i64, V = 128 : i64, VB = 16 : i64}} {
    kda2.gmem %vc, %qd, %kl, %wn, %tp, %pb, %gl, %o, %us, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[h, nsv, 32, 16], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[tt, h, 128], bf16>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %state_indices, %has_initial_state, %checkpoint_blocks layout(row_major) packing(none) : !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n, nc], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %pool, %ckpt layout(KV) packing(none) : !kda2.tensor<[slots, h, 128, 128], f32>, !kda2.tensor<[blocks, h, 128, 128], f32>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Wn = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Gl = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
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
        %46 = kda2.add %8, %c : index, index -> index
        %c8_12 = arith.constant 8 : index
        %47 = kda2.mul %46, %c8_12 : index, index -> index
        %48 = kda2.add %47, %vb : index, index -> index
        %49 = kda2.load %vc[%48] : !kda2.tensor<[h, nsv, 32, 16], bf16> -> tensor<32x16xbf16>
        kda2.store %49, %Vs[] : tensor<32x16xbf16>, !kda2.tensor<[32, 16], bf16, smem>
        %c0_13 = arith.constant 0 : index
        %50 = kda2.load %nb[%c0_13] : !kda2.tensor<[1], i32, reg> -> i32
        %c0_14 = arith.constant 0 : index
        %c1_15 = arith.constant 1 : index
        %51 = kda2.add %c, %c1_15 : index, index -> index
        %52 = kda2.dim "nc" : index
        %c1_16 = arith.constant 1 : index
        %53 = kda2.sub %52, %c1_16 : index, index -> index
        %54 = kda2.min %51, %53 : index, index -> index
        %55 = kda2.load %checkpoint_blocks[%54] : !kda2.tensor<[n, nc], i32> -> i32
        kda2.store %55, %nb[%c0_14] : i32, !kda2.tensor<[1], i32, reg>
        %c0_17 = arith.constant 0 : index
        %56 = kda2.load %nx[%c0_17] : !kda2.tensor<[1], i32, reg> -> i32
        %57 = kda2.cast %56 : i32 -> index
        %58 = kda2.cmp eq %c, %57 : index, index -> i1
        kda2.if %58 {
          %89 = kda2.dim "m" : index
          kda2.loop serial %j to %89 {
            %90 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %91 = kda2.load %offset_blocks[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %92 = kda2.cmp ge %90, %c1_i32 : i32, i32 -> i1
            %false_24 = arith.constant false
            %93 = kda2.select %14, %92, %false_24 : i1, i1, i1 -> i1
            %94 = kda2.cmp le %90, %5 : i32, i32 -> i1
            %false_25 = arith.constant false
            %95 = kda2.select %93, %94, %false_25 : i1, i1, i1 -> i1
            %c1_i32_26 = arith.constant 1 : i32
            %96 = kda2.sub %90, %c1_i32_26 : i32, i32 -> i32
            %c32_27 = arith.constant 32 : index
            %97 = kda2.cast %96 : i32 -> index
            %98 = kda2.div %97, %c32_27 : index, index -> index
            %99 = kda2.cmp eq %98, %c : index, index -> i1
            %false_28 = arith.constant false
            %100 = kda2.select %95, %99, %false_28 : i1, i1, i1 -> i1
            %c0_i32_29 = arith.constant 0 : i32
            %101 = kda2.cmp ge %91, %c0_i32_29 : i32, i32 -> i1
            %false_30 = arith.constant false
            %102 = kda2.select %100, %101, %false_30 : i1, i1, i1 -> i1
            %103 = kda2.dim "blocks" : index
            %104 = kda2.cast %91 : i32 -> index
            %105 = kda2.cmp lt %104, %103 : index, index -> i1
            %false_31 = arith.constant false
            %106 = kda2.select %102, %105, %false_31 : i1, i1, i1 -> i1
            kda2.if %106 {
              %c2048_32 = arith.constant 2048 : index
              kda2.loop fragment %arg0 to %c2048_32 columns(128) {
                %c128 = arith.constant 128 : index
                %107 = kda2.div %arg0, %c128 : index, index -> index
                %108 = kda2.rem %arg0, %c128 : index, index -> index
                %109 = kda2.cast %91 : i32 -> index
                %c16 = arith.constant 16 : index
                %110 = kda2.mul %vb, %c16 : index, index -> index
                %111 = kda2.add %110, %107 : index, index -> index
                %112 = kda2.load %St[%107, %108] : !kda2.tensor<[16, 128], f32, reg> -> f32
                kda2.store %112, %ckpt[%109, %1, %108, %111] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
              }
            }
          }
        }
        %59 = kda2.load %Vs[] : !kda2.tensor<[32, 16], bf16, smem> -> tensor<32x16xbf16>
        %60 = kda2.load %Tp[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %61 = kda2.matmul %59, %60 {transpose_a, transpose_b} : tensor<32x16xbf16>, tensor<32x32xbf16> -> tensor<16x32xf32>
        kda2.store %61, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %62 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %63 = kda2.cast %62 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %64 = kda2.load %Qd[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %65 = kda2.matmul %63, %64 {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16> -> tensor<16x32xf32>
        kda2.store %65, %Ot[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %66 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %67 = kda2.cast %66 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %68 = kda2.load %Wn[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %69 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %70 = kda2.matmul %67, %68 acc(%69) {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %70, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c2048_18 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_18 columns(128) {
          %c128 = arith.constant 128 : index
          %89 = kda2.div %arg0, %c128 : index, index -> index
          %90 = kda2.rem %arg0, %c128 : index, index -> index
          %91 = kda2.load %St[%89, %90] : !kda2.tensor<[16, 128], f32, reg> -> f32
          %92 = kda2.load %Gl[%90] : !kda2.tensor<[128], f32, smem> -> f32
          %93 = kda2.mul %91, %92 : f32, f32 -> f32
          kda2.store %93, %St[%89, %90] : f32, !kda2.tensor<[16, 128], f32, reg>
        }
        %71 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %72 = kda2.cast %71 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %73 = kda2.load %Kl[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %74 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %75 = kda2.matmul %72, %73 acc(%74) : tensor<16x32xbf16>, tensor<32x128xbf16>, tensor<16x128xf32> -> tensor<16x128xf32>
        kda2.store %75, %St[] : tensor<16x128xf32>, !kda2.tensor<[16, 128], f32, reg>
        %76 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %77 = kda2.cast %76 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %78 = kda2.load %Pb[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %79 = kda2.load %Ot[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %80 = kda2.matmul %77, %78 acc(%79) {transpose_b} : tensor<16x32xbf16>, tensor<32x32xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %80, %Ot[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c512 = arith.constant 512 : index
        kda2.loop fragment %arg0 to %c512 columns(32) {
          %c32_24 = arith.constant 32 : index
          %89 = kda2.div %arg0, %c32_24 : index, index -> index
          %90 = kda2.rem %arg0, %c32_24 : index, index -> index
          %c32_25 = arith.constant 32 : index
          %91 = kda2.mul %c, %c32_25 : index, index -> index
          %92 = kda2.add %91, %90 : index, index -> index
          %93 = kda2.cast %5 : i32 -> index
          %94 = kda2.cmp lt %92, %93 : index, index -> i1
          kda2.if %94 {
            %c32_26 = arith.constant 32 : index
            %95 = kda2.mul %c, %c32_26 : index, index -> index
            %96 = kda2.cast %2 : i32 -> index
            %97 = kda2.add %96, %95 : index, index -> index
            %98 = kda2.add %97, %90 : index, index -> index
            %c16 = arith.constant 16 : index
            %99 = kda2.mul %vb, %c16 : index, index -> index
            %100 = kda2.add %99, %89 : index, index -> index
            %101 = kda2.load %Ot[%89, %90] : !kda2.tensor<[16, 32], f32, reg> -> f32
            %102 = kda2.cast %101 : f32 -> bf16
            %cst = arith.constant 0.000000e+00 : f32
            %103 = kda2.cast %102 : bf16 -> f32
            %104 = kda2.select %14, %103, %cst : i1, f32, f32 -> f32
            %105 = kda2.cast %104 : f32 -> bf16
            kda2.store %105, %o[%98, %1, %100] : bf16, !kda2.tensor<[tt, h, 128], bf16>
          }
        }
        %c0_i32_19 = arith.constant 0 : i32
        %81 = kda2.cmp ne %boundaries, %c0_i32_19 : i32, i32 -> i1
        %false_20 = arith.constant false
        %82 = kda2.select %14, %81, %false_20 : i1, i1, i1 -> i1
        %c0_i32_21 = arith.constant 0 : i32
        %83 = kda2.cmp ge %50, %c0_i32_21 : i32, i32 -> i1
        %false_22 = arith.constant false
        %84 = kda2.select %82, %83, %false_22 : i1, i1, i1 -> i1
        %85 = kda2.dim "blocks" : index
        %86 = kda2.cast %50 : i32 -> index
        %87 = kda2.cmp lt %86, %85 : index, index -> i1
        %false_23 = arith.constant false
        %88 = kda2.select %84, %87, %false_23 : i1, i1, i1 -> i1
        kda2.if %88 {
          %c2048_24 = arith.constant 2048 : index
          kda2.loop fragment %arg0 to %c2048_24 columns(128) {
            %c128 = arith.constant 128 : index
            %89 = kda2.div %arg0, %c128 : index, index -> index
            %90 = kda2.rem %arg0, %c128 : index, index -> index
            %91 = kda2.cast %50 : i32 -> index
            %c16 = arith.constant 16 : index
            %92 = kda2.mul %vb, %c16 : index, index -> index
            %93 = kda2.add %92, %89 : index, index -> index
            %94 = kda2.load %St[%89, %90] : !kda2.tensor<[16, 128], f32, reg> -> f32
            kda2.store %94, %ckpt[%91, %1, %90, %93] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
          }
        }
        kda2.if %58 {
          %c512_24 = arith.constant 512 : index
          kda2.loop fragment %arg0 to %c512_24 columns(32) {
            %c32_29 = arith.constant 32 : index
            %95 = kda2.div %arg0, %c32_29 : index, index -> index
            %96 = kda2.rem %arg0, %c32_29 : index, index -> index
            %97 = kda2.add %8, %c : index, index -> index
            %c16 = arith.constant 16 : index
            %98 = kda2.mul %vb, %c16 : index, index -> index
            %99 = kda2.add %98, %95 : index, index -> index
            %100 = kda2.load %Ut[%95, %96] : !kda2.tensor<[16, 32], f32, reg> -> f32
            %101 = kda2.cast %100 : f32 -> bf16
            kda2.store %101, %us[%97, %99, %96] : bf16, !kda2.tensor<[h, ns, 128, 32], bf16>
          }
          %c0_25 = arith.constant 0 : index
          %c32_26 = arith.constant 32 : index
          %89 = kda2.cast %5 : i32 -> index
          %90 = kda2.add %89, %c32_26 : index, index -> index
          %c1_27 = arith.constant 1 : index
          %91 = kda2.sub %90, %c1_27 : index, index -> index
          %c32_28 = arith.constant 32 : index
          %92 = kda2.div %91, %c32_28 : index, index -> index
          %93 = kda2.cast %92 : index -> i32
          kda2.store %93, %nx[%c0_25] : i32, !kda2.tensor<[1], i32, reg>
          %94 = kda2.dim "m" : index
          kda2.loop serial %j to %94 {
            %95 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %96 = kda2.cmp ge %95, %c1_i32 : i32, i32 -> i1
            %97 = kda2.cmp le %95, %5 : i32, i32 -> i1
            %false_29 = arith.constant false
            %98 = kda2.select %96, %97, %false_29 : i1, i1, i1 -> i1
            %c1_i32_30 = arith.constant 1 : i32
            %99 = kda2.sub %95, %c1_i32_30 : i32, i32 -> i32
            %c32_31 = arith.constant 32 : index
            %100 = kda2.cast %99 : i32 -> index
            %101 = kda2.div %100, %c32_31 : index, index -> index
            %102 = kda2.cmp gt %101, %c : index, index -> i1
            %false_32 = arith.constant false
            %103 = kda2.select %98, %102, %false_32 : i1, i1, i1 -> i1
            kda2.if %103 {
              %c0_33 = arith.constant 0 : index
              %c0_34 = arith.constant 0 : index
              %104 = kda2.load %nx[%c0_34] : !kda2.tensor<[1], i32, reg> -> i32
              %c1_i32_35 = arith.constant 1 : i32
              %105 = kda2.sub %95, %c1_i32_35 : i32, i32 -> i32
              %c32_36 = arith.constant 32 : index
              %106 = kda2.cast %105 : i32 -> index
              %107 = kda2.div %106, %c32_36 : index, index -> index
              %108 = kda2.cast %104 : i32 -> index
              %109 = kda2.min %108, %107 : index, index -> index
              %110 = kda2.cast %109 : index -> i32
              kda2.store %110, %nx[%c0_33] : i32, !kda2.tensor<[1], i32, reg>
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
  kda2.kernel @kda_chunk_scan_ok(%vc: !kda2.tensor<[h, nsv, 32, 16], bf16>, %qd: !kda2.tensor<[h, ns, 32, 128], bf16>, %kl: !kda2.tensor<[h, ns, 32, 128], bf16>, %wn: !kda2.tensor<[h, ns, 32, 128], bf16>, %tp: !kda2.tensor<[h, ns, 32, 32], bf16>, %pb: !kda2.tensor<[h, ns, 32, 32], bf16>, %gl: !kda2.tensor<[h, ns, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %checkpoint_blocks: !kda2.tensor<[n, nc], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %boundaries: i32, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %o: !kda2.tensor<[tt, h, 128], bf16> {kda2.io = #kda2.io<out>}, %us: !kda2.tensor<[h, ns, 128, 32], bf16> {kda2.io = #kda2.io<out>}, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["vc", "qd", "kl", "wn", "tp", "pb", "gl", "cu_seqlens", "state_indices", "has_initial_state", "checkpoint_blocks", "ckpt_offsets", "offset_blocks", "boundaries", "pool", "o", "us", "ckpt"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, NVB = 8 : i64, OKB = 2 : i64, V = 128 : i64, VB = 16 : i64}} {
    kda2.gmem %vc, %qd, %kl, %wn, %tp, %pb, %gl, %o, %us, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[h, nsv, 32, 16], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[tt, h, 128], bf16>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %state_indices, %has_initial_state, %checkpoint_blocks layout(row_major) packing(none) : !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n, nc], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %pool, %ckpt layout(KV) packing(none) : !kda2.tensor<[slots, h, 128, 128], f32>, !kda2.tensor<[blocks, h, 128, 128], f32>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Wn = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Gl = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %Vs = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 16], bf16, smem>
    %St = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 128], f32, reg>
    %Ut = kda2.reg_alloc {mma, split = "none"} : !kda2.tensor<[16, 32], f32, reg>
    %Ot = kda2.reg_alloc {mma, split = "cols"} : !kda2.tensor<[16, 32], f32, reg>
    %nx = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %nb = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
    %c8 = arith.constant 8 : index
    kda2.loop block %vb to %c8 annotations [#kda2.pragma<tma_coalesce>, #kda2.blocks_per_sm<2>] {
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
        %46 = kda2.add %8, %c : index, index -> index
        %c8_12 = arith.constant 8 : index
        %47 = kda2.mul %46, %c8_12 : index, index -> index
        %48 = kda2.add %47, %vb : index, index -> index
        %49 = kda2.load %vc[%48] : !kda2.tensor<[h, nsv, 32, 16], bf16> -> tensor<32x16xbf16>
        kda2.store %49, %Vs[] : tensor<32x16xbf16>, !kda2.tensor<[32, 16], bf16, smem>
        %c0_13 = arith.constant 0 : index
        %50 = kda2.load %nb[%c0_13] : !kda2.tensor<[1], i32, reg> -> i32
        %c0_14 = arith.constant 0 : index
        %c1_15 = arith.constant 1 : index
        %51 = kda2.add %c, %c1_15 : index, index -> index
        %52 = kda2.dim "nc" : index
        %c1_16 = arith.constant 1 : index
        %53 = kda2.sub %52, %c1_16 : index, index -> index
        %54 = kda2.min %51, %53 : index, index -> index
        %55 = kda2.load %checkpoint_blocks[%54] : !kda2.tensor<[n, nc], i32> -> i32
        kda2.store %55, %nb[%c0_14] : i32, !kda2.tensor<[1], i32, reg>
        %c0_17 = arith.constant 0 : index
        %56 = kda2.load %nx[%c0_17] : !kda2.tensor<[1], i32, reg> -> i32
        %57 = kda2.cast %56 : i32 -> index
        %58 = kda2.cmp eq %c, %57 : index, index -> i1
        kda2.if %58 {
          %89 = kda2.dim "m" : index
          kda2.loop serial %j to %89 {
            %90 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %91 = kda2.load %offset_blocks[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %92 = kda2.cmp ge %90, %c1_i32 : i32, i32 -> i1
            %false_24 = arith.constant false
            %93 = kda2.select %14, %92, %false_24 : i1, i1, i1 -> i1
            %94 = kda2.cmp le %90, %5 : i32, i32 -> i1
            %false_25 = arith.constant false
            %95 = kda2.select %93, %94, %false_25 : i1, i1, i1 -> i1
            %c1_i32_26 = arith.constant 1 : i32
            %96 = kda2.sub %90, %c1_i32_26 : i32, i32 -> i32
            %c32_27 = arith.constant 32 : index
            %97 = kda2.cast %96 : i32 -> index
            %98 = kda2.div %97, %c32_27 : index, index -> index
            %99 = kda2.cmp eq %98, %c : index, index -> i1
            %false_28 = arith.constant false
            %100 = kda2.select %95, %99, %false_28 : i1, i1, i1 -> i1
            %c0_i32_29 = arith.constant 0 : i32
            %101 = kda2.cmp ge %91, %c0_i32_29 : i32, i32 -> i1
            %false_30 = arith.constant false
            %102 = kda2.select %100, %101, %false_30 : i1, i1, i1 -> i1
            %103 = kda2.dim "blocks" : index
            %104 = kda2.cast %91 : i32 -> index
            %105 = kda2.cmp lt %104, %103 : index, index -> i1
            %false_31 = arith.constant false
            %106 = kda2.select %102, %105, %false_31 : i1, i1, i1 -> i1
            kda2.if %106 {
              %c2048_32 = arith.constant 2048 : index
              kda2.loop fragment %arg0 to %c2048_32 columns(128) split(cols) {
                %c128 = arith.constant 128 : index
                %107 = kda2.div %arg0, %c128 : index, index -> index
                %108 = kda2.rem %arg0, %c128 : index, index -> index
                %109 = kda2.cast %91 : i32 -> index
                %c16 = arith.constant 16 : index
                %110 = kda2.mul %vb, %c16 : index, index -> index
                %111 = kda2.add %110, %107 : index, index -> index
                %112 = kda2.load %St[%107, %108] : !kda2.tensor<[16, 128], f32, reg> -> f32
                kda2.store %112, %ckpt[%109, %1, %108, %111] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
              }
            }
          }
        }
        %59 = kda2.load %Vs[] : !kda2.tensor<[32, 16], bf16, smem> -> tensor<32x16xbf16>
        %60 = kda2.load %Tp[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %61 = kda2.matmul %59, %60 {transpose_a, transpose_b} : tensor<32x16xbf16>, tensor<32x32xbf16> -> tensor<16x32xf32>
        kda2.store %61, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %62 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %63 = kda2.cast %62 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %64 = kda2.load %Wn[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %65 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %66 = kda2.matmul %63, %64 acc(%65) {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %66, %Ut[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %67 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %68 = kda2.cast %67 : tensor<16x128xf32> -> tensor<16x128xbf16>
        %69 = kda2.load %Qd[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %70 = kda2.matmul %68, %69 {transpose_b} : tensor<16x128xbf16>, tensor<32x128xbf16> -> tensor<16x32xf32>
        kda2.store %70, %Ot[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c2048_18 = arith.constant 2048 : index
        kda2.loop fragment %arg0 to %c2048_18 columns(128) split(cols) {
          %c128 = arith.constant 128 : index
          %89 = kda2.div %arg0, %c128 : index, index -> index
          %90 = kda2.rem %arg0, %c128 : index, index -> index
          %91 = kda2.load %St[%89, %90] : !kda2.tensor<[16, 128], f32, reg> -> f32
          %92 = kda2.load %Gl[%90] : !kda2.tensor<[128], f32, smem> -> f32
          %93 = kda2.mul %91, %92 : f32, f32 -> f32
          kda2.store %93, %St[%89, %90] : f32, !kda2.tensor<[16, 128], f32, reg>
        }
        %71 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %72 = kda2.cast %71 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %73 = kda2.load %Kl[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %74 = kda2.load %St[] : !kda2.tensor<[16, 128], f32, reg> -> tensor<16x128xf32>
        %75 = kda2.matmul %72, %73 acc(%74) : tensor<16x32xbf16>, tensor<32x128xbf16>, tensor<16x128xf32> -> tensor<16x128xf32>
        kda2.store %75, %St[] : tensor<16x128xf32>, !kda2.tensor<[16, 128], f32, reg>
        %76 = kda2.load %Ut[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %77 = kda2.cast %76 : tensor<16x32xf32> -> tensor<16x32xbf16>
        %78 = kda2.load %Pb[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %79 = kda2.load %Ot[] : !kda2.tensor<[16, 32], f32, reg> -> tensor<16x32xf32>
        %80 = kda2.matmul %77, %78 acc(%79) {transpose_b} : tensor<16x32xbf16>, tensor<32x32xbf16>, tensor<16x32xf32> -> tensor<16x32xf32>
        kda2.store %80, %Ot[] : tensor<16x32xf32>, !kda2.tensor<[16, 32], f32, reg>
        %c512 = arith.constant 512 : index
        kda2.loop fragment %arg0 to %c512 columns(32) split(cols) {
          %c32_24 = arith.constant 32 : index
          %89 = kda2.div %arg0, %c32_24 : index, index -> index
          %90 = kda2.rem %arg0, %c32_24 : index, index -> index
          %c32_25 = arith.constant 32 : index
          %91 = kda2.mul %c, %c32_25 : index, index -> index
          %92 = kda2.add %91, %90 : index, index -> index
          %93 = kda2.cast %5 : i32 -> index
          %94 = kda2.cmp lt %92, %93 : index, index -> i1
          kda2.if %94 {
            %c32_26 = arith.constant 32 : index
            %95 = kda2.mul %c, %c32_26 : index, index -> index
            %96 = kda2.cast %2 : i32 -> index
            %97 = kda2.add %96, %95 : index, index -> index
            %98 = kda2.add %97, %90 : index, index -> index
            %c16 = arith.constant 16 : index
            %99 = kda2.mul %vb, %c16 : index, index -> index
            %100 = kda2.add %99, %89 : index, index -> index
            %101 = kda2.load %Ot[%89, %90] : !kda2.tensor<[16, 32], f32, reg> -> f32
            %102 = kda2.cast %101 : f32 -> bf16
            %cst = arith.constant 0.000000e+00 : f32
            %103 = kda2.cast %102 : bf16 -> f32
            %104 = kda2.select %14, %103, %cst : i1, f32, f32 -> f32
            %105 = kda2.cast %104 : f32 -> bf16
            kda2.store %105, %o[%98, %1, %100] : bf16, !kda2.tensor<[tt, h, 128], bf16>
          }
        }
        %c0_i32_19 = arith.constant 0 : i32
        %81 = kda2.cmp ne %boundaries, %c0_i32_19 : i32, i32 -> i1
        %false_20 = arith.constant false
        %82 = kda2.select %14, %81, %false_20 : i1, i1, i1 -> i1
        %c0_i32_21 = arith.constant 0 : i32
        %83 = kda2.cmp ge %50, %c0_i32_21 : i32, i32 -> i1
        %false_22 = arith.constant false
        %84 = kda2.select %82, %83, %false_22 : i1, i1, i1 -> i1
        %85 = kda2.dim "blocks" : index
        %86 = kda2.cast %50 : i32 -> index
        %87 = kda2.cmp lt %86, %85 : index, index -> i1
        %false_23 = arith.constant false
        %88 = kda2.select %84, %87, %false_23 : i1, i1, i1 -> i1
        kda2.if %88 {
          %c2048_24 = arith.constant 2048 : index
          kda2.loop fragment %arg0 to %c2048_24 columns(128) split(cols) {
            %c128 = arith.constant 128 : index
            %89 = kda2.div %arg0, %c128 : index, index -> index
            %90 = kda2.rem %arg0, %c128 : index, index -> index
            %91 = kda2.cast %50 : i32 -> index
            %c16 = arith.constant 16 : index
            %92 = kda2.mul %vb, %c16 : index, index -> index
            %93 = kda2.add %92, %89 : index, index -> index
            %94 = kda2.load %St[%89, %90] : !kda2.tensor<[16, 128], f32, reg> -> f32
            kda2.store %94, %ckpt[%91, %1, %90, %93] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
          }
        }
        kda2.if %58 {
          %c512_24 = arith.constant 512 : index
          kda2.loop fragment %arg0 to %c512_24 columns(32) split(none) {
            %c32_29 = arith.constant 32 : index
            %95 = kda2.div %arg0, %c32_29 : index, index -> index
            %96 = kda2.rem %arg0, %c32_29 : index, index -> index
            %97 = kda2.add %8, %c : index, index -> index
            %c16 = arith.constant 16 : index
            %98 = kda2.mul %vb, %c16 : index, index -> index
            %99 = kda2.add %98, %95 : index, index -> index
            %100 = kda2.load %Ut[%95, %96] : !kda2.tensor<[16, 32], f32, reg> -> f32
            %101 = kda2.cast %100 : f32 -> bf16
            kda2.store %101, %us[%97, %99, %96] : bf16, !kda2.tensor<[h, ns, 128, 32], bf16>
          }
          %c0_25 = arith.constant 0 : index
          %c32_26 = arith.constant 32 : index
          %89 = kda2.cast %5 : i32 -> index
          %90 = kda2.add %89, %c32_26 : index, index -> index
          %c1_27 = arith.constant 1 : index
          %91 = kda2.sub %90, %c1_27 : index, index -> index
          %c32_28 = arith.constant 32 : index
          %92 = kda2.div %91, %c32_28 : index, index -> index
          %93 = kda2.cast %92 : index -> i32
          kda2.store %93, %nx[%c0_25] : i32, !kda2.tensor<[1], i32, reg>
          %94 = kda2.dim "m" : index
          kda2.loop serial %j to %94 {
            %95 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %96 = kda2.cmp ge %95, %c1_i32 : i32, i32 -> i1
            %97 = kda2.cmp le %95, %5 : i32, i32 -> i1
            %false_29 = arith.constant false
            %98 = kda2.select %96, %97, %false_29 : i1, i1, i1 -> i1
            %c1_i32_30 = arith.constant 1 : i32
            %99 = kda2.sub %95, %c1_i32_30 : i32, i32 -> i32
            %c32_31 = arith.constant 32 : index
            %100 = kda2.cast %99 : i32 -> index
            %101 = kda2.div %100, %c32_31 : index, index -> index
            %102 = kda2.cmp gt %101, %c : index, index -> i1
            %false_32 = arith.constant false
            %103 = kda2.select %98, %102, %false_32 : i1, i1, i1 -> i1
            kda2.if %103 {
              %c0_33 = arith.constant 0 : index
              %c0_34 = arith.constant 0 : index
              %104 = kda2.load %nx[%c0_34] : !kda2.tensor<[1], i32, reg> -> i32
              %c1_i32_35 = arith.constant 1 : i32
              %105 = kda2.sub %95, %c1_i32_35 : i32, i32 -> i32
              %c32_36 = arith.constant 32 : index
              %106 = kda2.cast %105 : i32 -> index
              %107 = kda2.div %106, %c32_36 : index, index -> index
              %108 = kda2.cast %104 : i32 -> index
              %109 = kda2.min %108, %107 : index, index -> index
              %110 = kda2.cast %109 : index -> i32
              kda2.store %110, %nx[%c0_33] : i32, !kda2.tensor<[1], i32, reg>
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
  kda2.kernel @kda_chunk_out(%qd: !kda2.tensor<[h, ns, 32, 128], bf16>, %pb: !kda2.tensor<[h, ns, 32, 32], bf16>, %hs: !kda2.tensor<[h, ns, 128, 128], bf16>, %us: !kda2.tensor<[h, ns, 128, 32], bf16>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %nslots: i32, %o: !kda2.tensor<[tt, h, 128], bf16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["qd", "pb", "hs", "us", "cu_seqlens", "state_indices", "nslots", "o"], grid = ["h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, V = 128 : i64}} {
    kda2.gmem %qd, %pb, %hs, %us, %o, %cu_seqlens, %state_indices layout(row_major) packing(none) : !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128, 128], bf16>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[tt, h, 128], bf16>, !kda2.tensor<[np1], i32>, !kda2.tensor<[n], i32>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Hs = kda2.smem_alloc size(32768) : !kda2.tensor<[128, 128], bf16, smem>
    %Us = kda2.smem_alloc size(16384) : !kda2.tensor<[128, 32], bf16, smem>
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
  kda2.kernel @kda_chunk_ckpt(%kc: !kda2.tensor<[h, nm, 32, 128], bf16>, %ec: !kda2.tensor<[h, nm, 128], f32>, %us: !kda2.tensor<[h, ns, 128, 32], bf16>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %nslots: i32, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["kc", "ec", "us", "cu_seqlens", "state_indices", "ckpt_offsets", "offset_blocks", "nslots", "ckpt"], grid = ["h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, V = 128 : i64}} {
    kda2.gmem %kc, %ec, %us, %cu_seqlens, %state_indices layout(row_major) packing(none) : !kda2.tensor<[h, nm, 32, 128], bf16>, !kda2.tensor<[h, nm, 128], f32>, !kda2.tensor<[h, ns, 128, 32], bf16>, !kda2.tensor<[np1], i32>, !kda2.tensor<[n], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %ckpt layout(KV) packing(none) : !kda2.tensor<[blocks, h, 128, 128], f32>
    %Kc = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Us = kda2.smem_alloc size(16384) : !kda2.tensor<[128, 32], bf16, smem>
    %Ec = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %A = kda2.smem_alloc size(65536) : !kda2.tensor<[128, 128], f32, smem>
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
        %c32 = arith.constant 32 : index
        %27 = kda2.cast %6 : i32 -> index
        %28 = kda2.div %27, %c32 : index, index -> index
        %29 = kda2.add %28, %3 : index, index -> index
        %c1_i32_5 = arith.constant 1 : i32
        %30 = kda2.sub %11, %c1_i32_5 : i32, i32 -> i32
        %c32_6 = arith.constant 32 : index
        %31 = kda2.cast %30 : i32 -> index
        %32 = kda2.div %31, %c32_6 : index, index -> index
        %33 = kda2.add %29, %32 : index, index -> index
        %34 = kda2.load %us[%33] : !kda2.tensor<[h, ns, 128, 32], bf16> -> tensor<128x32xbf16>
        kda2.store %34, %Us[] : tensor<128x32xbf16>, !kda2.tensor<[128, 32], bf16, smem>
        %35 = kda2.load %ec[%o] : !kda2.tensor<[h, nm, 128], f32> -> tensor<128xf32>
        kda2.store %35, %Ec[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %c128 = arith.constant 128 : index
        kda2.loop thread %x to %c128 {
          %c128_8 = arith.constant 128 : index
          %c128_9 = arith.constant 128 : index
          %40 = kda2.mul %c128_8, %c128_9 : index, index -> index
          %c128_10 = arith.constant 128 : index
          %41 = kda2.div %40, %c128_10 : index, index -> index
          kda2.loop serial %e to %41 annotations [#kda2.pragma<unroll>] {
            %c128_11 = arith.constant 128 : index
            %c128_12 = arith.constant 128 : index
            %42 = kda2.div %c128_12, %c128_11 : index, index -> index
            %43 = kda2.mul %e, %42 : index, index -> index
            %c128_13 = arith.constant 128 : index
            %44 = kda2.div %x, %c128_13 : index, index -> index
            %45 = kda2.add %43, %44 : index, index -> index
            %c128_14 = arith.constant 128 : index
            %46 = kda2.rem %x, %c128_14 : index, index -> index
            %47 = kda2.cast %12 : i32 -> index
            %c128_15 = arith.constant 128 : index
            %48 = kda2.rem %x, %c128_15 : index, index -> index
            %49 = kda2.load %ckpt[%47, %1, %45, %48] : !kda2.tensor<[blocks, h, 128, 128], f32> -> f32
            %50 = kda2.load %Ec[%45] : !kda2.tensor<[128], f32, smem> -> f32
            %51 = kda2.mul %49, %50 : f32, f32 -> f32
            kda2.store %51, %A[%45, %46] : f32, !kda2.tensor<[128, 128], f32, smem>
          }
        }
        %36 = kda2.load %Kc[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %37 = kda2.load %Us[] : !kda2.tensor<[128, 32], bf16, smem> -> tensor<128x32xbf16>
        %38 = kda2.load %A[] : !kda2.tensor<[128, 128], f32, smem> -> tensor<128x128xf32>
        %39 = kda2.matmul %36, %37 acc(%38) {transpose_a, transpose_b} : tensor<32x128xbf16>, tensor<128x32xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
        kda2.store %39, %A[] : tensor<128x128xf32>, !kda2.tensor<[128, 128], f32, smem>
        %c128_7 = arith.constant 128 : index
        kda2.loop thread %x to %c128_7 {
          %c128_8 = arith.constant 128 : index
          %c128_9 = arith.constant 128 : index
          %40 = kda2.mul %c128_8, %c128_9 : index, index -> index
          %c128_10 = arith.constant 128 : index
          %41 = kda2.div %40, %c128_10 : index, index -> index
          kda2.loop serial %e to %41 annotations [#kda2.pragma<unroll>] {
            %c128_11 = arith.constant 128 : index
            %c128_12 = arith.constant 128 : index
            %42 = kda2.div %c128_12, %c128_11 : index, index -> index
            %43 = kda2.mul %e, %42 : index, index -> index
            %c128_13 = arith.constant 128 : index
            %44 = kda2.div %x, %c128_13 : index, index -> index
            %45 = kda2.add %43, %44 : index, index -> index
            %46 = kda2.cast %12 : i32 -> index
            %c128_14 = arith.constant 128 : index
            %47 = kda2.rem %x, %c128_14 : index, index -> index
            %c128_15 = arith.constant 128 : index
            %48 = kda2.rem %x, %c128_15 : index, index -> index
            %49 = kda2.load %A[%45, %48] : !kda2.tensor<[128, 128], f32, smem> -> f32
            kda2.store %49, %ckpt[%46, %1, %45, %47] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
          }
        }
      }
    }
    kda2.return
  }
}
