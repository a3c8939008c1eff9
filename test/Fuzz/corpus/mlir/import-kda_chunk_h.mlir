module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_chunk_scan_h(%vc: !kda2.tensor<[n, h, ncv, 32, 8], bf16>, %kl: !kda2.tensor<[n, h, nc, 32, 128], bf16>, %wn: !kda2.tensor<[n, h, nc, 32, 128], bf16>, %tp: !kda2.tensor<[n, h, nc, 32, 32], bf16>, %gl: !kda2.tensor<[n, h, nc, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %checkpoint_blocks: !kda2.tensor<[n, nc], i32>, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %hs: !kda2.tensor<[n, h, nc, 128, 128], bf16> {kda2.io = #kda2.io<out>}, %us: !kda2.tensor<[n, h, nc, 32, 128], bf16> {kda2.io = #kda2.io<out>}, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["vc", "kl", "wn", "tp", "gl", "cu_seqlens", "state_indices", "has_initial_state", "checkpoint_blocks", "pool", "hs", "us", "ckpt"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, NVB = 16 : i64, V = 128 : i64, VB = 8 : i64}} {
    kda2.gmem %vc, %kl, %wn, %tp, %gl, %hs, %us, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[n, h, ncv, 32, 8], bf16>, !kda2.tensor<[n, h, nc, 32, 128], bf16>, !kda2.tensor<[n, h, nc, 32, 128], bf16>, !kda2.tensor<[n, h, nc, 32, 32], bf16>, !kda2.tensor<[n, h, nc, 128], f32>, !kda2.tensor<[n, h, nc, 128, 128], bf16>, !kda2.tensor<[n, h, nc, 32, 128], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %state_indices, %has_initial_state, %checkpoint_blocks layout(row_major) packing(none) : !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n, nc], i32>
    kda2.gmem %pool, %ckpt layout(KV) packing(none) : !kda2.tensor<[slots, h, 128, 128], f32>, !kda2.tensor<[blocks, h, 128, 128], f32>
    %S = kda2.smem_alloc size(16384) : !kda2.tensor<[128, 8], f32, smem>
    %Sb = kda2.smem_alloc size(8192) : !kda2.tensor<[128, 8], bf16, smem>
    %Kl = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Wn = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Tp = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Gl = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %Vs = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 8], bf16, smem>
    %U = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 8], f32, smem>
    %Ub = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 8], bf16, smem>
    %c16 = arith.constant 16 : index
    kda2.loop block %vb to %c16 annotations [#kda2.pragma<tma_coalesce>] {
      %0 = kda2.grid_index "n" : index
      %1 = kda2.grid_index "h" : index
      %2 = kda2.load %cu_seqlens[%0] : !kda2.tensor<[np1], i32> -> i32
      %c1 = arith.constant 1 : index
      %3 = kda2.add %0, %c1 : index, index -> index
      %4 = kda2.load %cu_seqlens[%3] : !kda2.tensor<[np1], i32> -> i32
      %5 = kda2.sub %4, %2 : i32, i32 -> i32
      %6 = kda2.load %state_indices[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32 = arith.constant 0 : i32
      %7 = kda2.cmp ge %6, %c0_i32 : i32, i32 -> i1
      %8 = kda2.dim "slots" : index
      %9 = kda2.cast %6 : i32 -> index
      %10 = kda2.cmp lt %9, %8 : index, index -> i1
      %false = arith.constant false
      %11 = kda2.select %7, %10, %false : i1, i1, i1 -> i1
      %12 = kda2.load %has_initial_state[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32_0 = arith.constant 0 : i32
      %13 = kda2.cmp ne %12, %c0_i32_0 : i32, i32 -> i1
      %false_1 = arith.constant false
      %14 = kda2.select %11, %13, %false_1 : i1, i1, i1 -> i1
      %c0_i32_2 = arith.constant 0 : i32
      %15 = kda2.max %6, %c0_i32_2 : i32, i32 -> i32
      %16 = kda2.dim "slots" : index
      %c1_3 = arith.constant 1 : index
      %17 = kda2.sub %16, %c1_3 : index, index -> index
      %18 = kda2.cast %15 : i32 -> index
      %19 = kda2.min %18, %17 : index, index -> index
      %c128 = arith.constant 128 : index
      kda2.loop thread %x to %c128 {
        %c128_15 = arith.constant 128 : index
        %c8 = arith.constant 8 : index
        %39 = kda2.mul %c128_15, %c8 : index, index -> index
        %c128_16 = arith.constant 128 : index
        %40 = kda2.div %39, %c128_16 : index, index -> index
        kda2.loop serial %e to %40 annotations [#kda2.pragma<unroll>] {
          %c8_17 = arith.constant 8 : index
          %c128_18 = arith.constant 128 : index
          %41 = kda2.div %c128_18, %c8_17 : index, index -> index
          %42 = kda2.mul %e, %41 : index, index -> index
          %c8_19 = arith.constant 8 : index
          %43 = kda2.div %x, %c8_19 : index, index -> index
          %44 = kda2.add %42, %43 : index, index -> index
          %c8_20 = arith.constant 8 : index
          %45 = kda2.rem %x, %c8_20 : index, index -> index
          %c8_21 = arith.constant 8 : index
          %46 = kda2.mul %vb, %c8_21 : index, index -> index
          %c8_22 = arith.constant 8 : index
          %47 = kda2.rem %x, %c8_22 : index, index -> index
          %48 = kda2.add %46, %47 : index, index -> index
          %49 = kda2.load %pool[%19, %1, %44, %48] : !kda2.tensor<[slots, h, 128, 128], f32> -> f32
          %cst = arith.constant 0.000000e+00 : f32
          %50 = kda2.select %14, %49, %cst : i1, f32, f32 -> f32
          kda2.store %50, %S[%44, %45] : f32, !kda2.tensor<[128, 8], f32, smem>
        }
      }
      %c32 = arith.constant 32 : index
      %20 = kda2.cast %5 : i32 -> index
      %21 = kda2.add %20, %c32 : index, index -> index
      %c1_4 = arith.constant 1 : index
      %22 = kda2.sub %21, %c1_4 : index, index -> index
      %c32_5 = arith.constant 32 : index
      %23 = kda2.div %22, %c32_5 : index, index -> index
      kda2.loop serial %c to %23 annotations [#kda2.pragma<tma_pipeline>] {
        %39 = kda2.load %kl[%c] : !kda2.tensor<[n, h, nc, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %39, %Kl[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %40 = kda2.load %wn[%c] : !kda2.tensor<[n, h, nc, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %40, %Wn[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %41 = kda2.load %tp[%c] : !kda2.tensor<[n, h, nc, 32, 32], bf16> -> tensor<32x32xbf16>
        kda2.store %41, %Tp[] : tensor<32x32xbf16>, !kda2.tensor<[32, 32], bf16, smem>
        %42 = kda2.load %gl[%c] : !kda2.tensor<[n, h, nc, 128], f32> -> tensor<128xf32>
        kda2.store %42, %Gl[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %c16_15 = arith.constant 16 : index
        %43 = kda2.mul %c, %c16_15 : index, index -> index
        %44 = kda2.add %43, %vb : index, index -> index
        %45 = kda2.load %vc[%44] : !kda2.tensor<[n, h, ncv, 32, 8], bf16> -> tensor<32x8xbf16>
        kda2.store %45, %Vs[] : tensor<32x8xbf16>, !kda2.tensor<[32, 8], bf16, smem>
        %c1_16 = arith.constant 1 : index
        %46 = kda2.sub %c, %c1_16 : index, index -> index
        %c0_17 = arith.constant 0 : index
        %47 = kda2.max %46, %c0_17 : index, index -> index
        %48 = kda2.load %checkpoint_blocks[%47] : !kda2.tensor<[n, nc], i32> -> i32
        %c0_18 = arith.constant 0 : index
        %49 = kda2.cmp gt %c, %c0_18 : index, index -> i1
        %false_19 = arith.constant false
        %50 = kda2.select %11, %49, %false_19 : i1, i1, i1 -> i1
        %c0_i32_20 = arith.constant 0 : i32
        %51 = kda2.cmp ge %48, %c0_i32_20 : i32, i32 -> i1
        %false_21 = arith.constant false
        %52 = kda2.select %50, %51, %false_21 : i1, i1, i1 -> i1
        %53 = kda2.dim "blocks" : index
        %54 = kda2.cast %48 : i32 -> index
        %55 = kda2.cmp lt %54, %53 : index, index -> i1
        %false_22 = arith.constant false
        %56 = kda2.select %52, %55, %false_22 : i1, i1, i1 -> i1
        %c128_23 = arith.constant 128 : index
        kda2.loop thread %x to %c128_23 {
          %c128_25 = arith.constant 128 : index
          %c8 = arith.constant 8 : index
          %68 = kda2.mul %c128_25, %c8 : index, index -> index
          %c128_26 = arith.constant 128 : index
          %69 = kda2.div %68, %c128_26 : index, index -> index
          kda2.loop serial %e to %69 annotations [#kda2.pragma<unroll>] {
            %c8_27 = arith.constant 8 : index
            %c128_28 = arith.constant 128 : index
            %70 = kda2.div %c128_28, %c8_27 : index, index -> index
            %71 = kda2.mul %e, %70 : index, index -> index
            %c8_29 = arith.constant 8 : index
            %72 = kda2.div %x, %c8_29 : index, index -> index
            %73 = kda2.add %71, %72 : index, index -> index
            %c8_30 = arith.constant 8 : index
            %74 = kda2.rem %x, %c8_30 : index, index -> index
            %75 = kda2.load %S[%73, %74] : !kda2.tensor<[128, 8], f32, smem> -> f32
            %c8_31 = arith.constant 8 : index
            %76 = kda2.rem %x, %c8_31 : index, index -> index
            %77 = kda2.cast %75 : f32 -> bf16
            kda2.store %77, %Sb[%73, %76] : bf16, !kda2.tensor<[128, 8], bf16, smem>
            %c8_32 = arith.constant 8 : index
            %78 = kda2.mul %vb, %c8_32 : index, index -> index
            %c8_33 = arith.constant 8 : index
            %79 = kda2.rem %x, %c8_33 : index, index -> index
            %80 = kda2.add %78, %79 : index, index -> index
            %81 = kda2.cast %75 : f32 -> bf16
            kda2.store %81, %hs[%c, %73, %80] : bf16, !kda2.tensor<[n, h, nc, 128, 128], bf16>
            kda2.if %56 {
              %85 = kda2.cast %48 : i32 -> index
              %c8_35 = arith.constant 8 : index
              %86 = kda2.mul %vb, %c8_35 : index, index -> index
              %c8_36 = arith.constant 8 : index
              %87 = kda2.rem %x, %c8_36 : index, index -> index
              %88 = kda2.add %86, %87 : index, index -> index
              kda2.store %75, %ckpt[%85, %1, %73, %88] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
            }
            %c8_34 = arith.constant 8 : index
            %82 = kda2.rem %x, %c8_34 : index, index -> index
            %83 = kda2.load %Gl[%73] : !kda2.tensor<[128], f32, smem> -> f32
            %84 = kda2.mul %75, %83 : f32, f32 -> f32
            kda2.store %84, %S[%73, %82] : f32, !kda2.tensor<[128, 8], f32, smem>
          }
        }
        %57 = kda2.load %Tp[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %58 = kda2.load %Vs[] : !kda2.tensor<[32, 8], bf16, smem> -> tensor<32x8xbf16>
        %59 = kda2.matmul %57, %58 : tensor<32x32xbf16>, tensor<32x8xbf16> -> tensor<32x8xf32>
        kda2.store %59, %U[] : tensor<32x8xf32>, !kda2.tensor<[32, 8], f32, smem>
        %60 = kda2.load %Wn[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %61 = kda2.load %Sb[] : !kda2.tensor<[128, 8], bf16, smem> -> tensor<128x8xbf16>
        %62 = kda2.load %U[] : !kda2.tensor<[32, 8], f32, smem> -> tensor<32x8xf32>
        %63 = kda2.matmul %60, %61 acc(%62) : tensor<32x128xbf16>, tensor<128x8xbf16>, tensor<32x8xf32> -> tensor<32x8xf32>
        kda2.store %63, %U[] : tensor<32x8xf32>, !kda2.tensor<[32, 8], f32, smem>
        %c128_24 = arith.constant 128 : index
        kda2.loop thread %x to %c128_24 {
          %c32_25 = arith.constant 32 : index
          %c8 = arith.constant 8 : index
          %68 = kda2.mul %c32_25, %c8 : index, index -> index
          %c128_26 = arith.constant 128 : index
          %69 = kda2.div %68, %c128_26 : index, index -> index
          kda2.loop serial %e to %69 annotations [#kda2.pragma<unroll>] {
            %c8_27 = arith.constant 8 : index
            %c128_28 = arith.constant 128 : index
            %70 = kda2.div %c128_28, %c8_27 : index, index -> index
            %71 = kda2.mul %e, %70 : index, index -> index
            %c8_29 = arith.constant 8 : index
            %72 = kda2.div %x, %c8_29 : index, index -> index
            %73 = kda2.add %71, %72 : index, index -> index
            %c8_30 = arith.constant 8 : index
            %74 = kda2.rem %x, %c8_30 : index, index -> index
            %75 = kda2.load %U[%73, %74] : !kda2.tensor<[32, 8], f32, smem> -> f32
            %76 = kda2.cast %75 : f32 -> bf16
            %c8_31 = arith.constant 8 : index
            %77 = kda2.rem %x, %c8_31 : index, index -> index
            kda2.store %76, %Ub[%73, %77] : bf16, !kda2.tensor<[32, 8], bf16, smem>
            %c8_32 = arith.constant 8 : index
            %78 = kda2.mul %vb, %c8_32 : index, index -> index
            %c8_33 = arith.constant 8 : index
            %79 = kda2.rem %x, %c8_33 : index, index -> index
            %80 = kda2.add %78, %79 : index, index -> index
            kda2.store %76, %us[%c, %73, %80] : bf16, !kda2.tensor<[n, h, nc, 32, 128], bf16>
          }
        }
        %64 = kda2.load %Kl[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %65 = kda2.load %Ub[] : !kda2.tensor<[32, 8], bf16, smem> -> tensor<32x8xbf16>
        %66 = kda2.load %S[] : !kda2.tensor<[128, 8], f32, smem> -> tensor<128x8xf32>
        %67 = kda2.matmul %64, %65 acc(%66) {transpose_a} : tensor<32x128xbf16>, tensor<32x8xbf16>, tensor<128x8xf32> -> tensor<128x8xf32>
        kda2.store %67, %S[] : tensor<128x8xf32>, !kda2.tensor<[128, 8], f32, smem>
      }
      %c32_6 = arith.constant 32 : index
      %24 = kda2.cast %5 : i32 -> index
      %25 = kda2.add %24, %c32_6 : index, index -> index
      %c1_7 = arith.constant 1 : index
      %26 = kda2.sub %25, %c1_7 : index, index -> index
      %c32_8 = arith.constant 32 : index
      %27 = kda2.div %26, %c32_8 : index, index -> index
      %c1_9 = arith.constant 1 : index
      %28 = kda2.sub %27, %c1_9 : index, index -> index
      %c0 = arith.constant 0 : index
      %29 = kda2.max %28, %c0 : index, index -> index
      %30 = kda2.load %checkpoint_blocks[%29] : !kda2.tensor<[n, nc], i32> -> i32
      %c0_10 = arith.constant 0 : index
      %31 = kda2.cmp gt %27, %c0_10 : index, index -> i1
      %false_11 = arith.constant false
      %32 = kda2.select %11, %31, %false_11 : i1, i1, i1 -> i1
      %c0_i32_12 = arith.constant 0 : i32
      %33 = kda2.cmp ge %30, %c0_i32_12 : i32, i32 -> i1
      %false_13 = arith.constant false
      %34 = kda2.select %32, %33, %false_13 : i1, i1, i1 -> i1
      %35 = kda2.dim "blocks" : index
      %36 = kda2.cast %30 : i32 -> index
      %37 = kda2.cmp lt %36, %35 : index, index -> i1
      %false_14 = arith.constant false
      %38 = kda2.select %34, %37, %false_14 : i1, i1, i1 -> i1
      kda2.if %11 {
        %c128_15 = arith.constant 128 : index
        kda2.loop thread %x to %c128_15 {
          %c128_16 = arith.constant 128 : index
          %c8 = arith.constant 8 : index
          %39 = kda2.mul %c128_16, %c8 : index, index -> index
          %c128_17 = arith.constant 128 : index
          %40 = kda2.div %39, %c128_17 : index, index -> index
          kda2.loop serial %e to %40 annotations [#kda2.pragma<unroll>] {
            %c8_18 = arith.constant 8 : index
            %c128_19 = arith.constant 128 : index
            %41 = kda2.div %c128_19, %c8_18 : index, index -> index
            %42 = kda2.mul %e, %41 : index, index -> index
            %c8_20 = arith.constant 8 : index
            %43 = kda2.div %x, %c8_20 : index, index -> index
            %44 = kda2.add %42, %43 : index, index -> index
            %c8_21 = arith.constant 8 : index
            %45 = kda2.rem %x, %c8_21 : index, index -> index
            %46 = kda2.load %S[%44, %45] : !kda2.tensor<[128, 8], f32, smem> -> f32
            %47 = kda2.cast %6 : i32 -> index
            %c8_22 = arith.constant 8 : index
            %48 = kda2.mul %vb, %c8_22 : index, index -> index
            %c8_23 = arith.constant 8 : index
            %49 = kda2.rem %x, %c8_23 : index, index -> index
            %50 = kda2.add %48, %49 : index, index -> index
            kda2.store %46, %pool[%47, %1, %44, %50] : f32, !kda2.tensor<[slots, h, 128, 128], f32>
            kda2.if %38 {
              %51 = kda2.cast %30 : i32 -> index
              %c8_24 = arith.constant 8 : index
              %52 = kda2.mul %vb, %c8_24 : index, index -> index
              %c8_25 = arith.constant 8 : index
              %53 = kda2.rem %x, %c8_25 : index, index -> index
              %54 = kda2.add %52, %53 : index, index -> index
              kda2.store %46, %ckpt[%51, %1, %44, %54] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
            }
          }
        }
      }
    }
    kda2.return
  }
  kda2.kernel @kda_chunk_out(%qd: !kda2.tensor<[n, h, nc, 32, 128], bf16>, %pb: !kda2.tensor<[n, h, nc, 32, 32], bf16>, %hs: !kda2.tensor<[n, h, nc, 128, 128], bf16>, %us: !kda2.tensor<[n, h, nc, 32, 128], bf16>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %nslots: i32, %o: !kda2.tensor<[tt, h, 128], bf16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["qd", "pb", "hs", "us", "cu_seqlens", "state_indices", "nslots", "o"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, V = 128 : i64}} {
    kda2.gmem %qd, %pb, %hs, %us, %o, %cu_seqlens, %state_indices layout(row_major) packing(none) : !kda2.tensor<[n, h, nc, 32, 128], bf16>, !kda2.tensor<[n, h, nc, 32, 32], bf16>, !kda2.tensor<[n, h, nc, 128, 128], bf16>, !kda2.tensor<[n, h, nc, 32, 128], bf16>, !kda2.tensor<[tt, h, 128], bf16>, !kda2.tensor<[np1], i32>, !kda2.tensor<[n], i32>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Hs = kda2.smem_alloc size(32768) : !kda2.tensor<[128, 128], bf16, smem>
    %Us = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %O = kda2.smem_alloc size(32768) : !kda2.tensor<[32, 128], f32, smem>
    %0 = kda2.dim "nc" : index
    kda2.loop block %c to %0 annotations [#kda2.pragma<tma_coalesce>] {
      %1 = kda2.grid_index "n" : index
      %2 = kda2.grid_index "h" : index
      %3 = kda2.load %cu_seqlens[%1] : !kda2.tensor<[np1], i32> -> i32
      %c1 = arith.constant 1 : index
      %4 = kda2.add %1, %c1 : index, index -> index
      %5 = kda2.load %cu_seqlens[%4] : !kda2.tensor<[np1], i32> -> i32
      %6 = kda2.sub %5, %3 : i32, i32 -> i32
      %7 = kda2.load %state_indices[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32 = arith.constant 0 : i32
      %8 = kda2.cmp ge %7, %c0_i32 : i32, i32 -> i1
      %9 = kda2.cmp lt %7, %nslots : i32, i32 -> i1
      %false = arith.constant false
      %10 = kda2.select %8, %9, %false : i1, i1, i1 -> i1
      %c32 = arith.constant 32 : index
      %11 = kda2.mul %c, %c32 : index, index -> index
      %12 = kda2.cast %6 : i32 -> index
      %13 = kda2.sub %12, %11 : index, index -> index
      %c1_0 = arith.constant 1 : index
      %14 = kda2.min %13, %c1_0 : index, index -> index
      kda2.loop serial %live to %14 {
        %15 = kda2.load %qd[%c] : !kda2.tensor<[n, h, nc, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %15, %Qd[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %16 = kda2.load %pb[%c] : !kda2.tensor<[n, h, nc, 32, 32], bf16> -> tensor<32x32xbf16>
        kda2.store %16, %Pb[] : tensor<32x32xbf16>, !kda2.tensor<[32, 32], bf16, smem>
        %17 = kda2.load %hs[%c] : !kda2.tensor<[n, h, nc, 128, 128], bf16> -> tensor<128x128xbf16>
        kda2.store %17, %Hs[] : tensor<128x128xbf16>, !kda2.tensor<[128, 128], bf16, smem>
        %18 = kda2.load %us[%c] : !kda2.tensor<[n, h, nc, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %18, %Us[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %19 = kda2.load %Qd[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %20 = kda2.load %Hs[] : !kda2.tensor<[128, 128], bf16, smem> -> tensor<128x128xbf16>
        %21 = kda2.matmul %19, %20 : tensor<32x128xbf16>, tensor<128x128xbf16> -> tensor<32x128xf32>
        kda2.store %21, %O[] : tensor<32x128xf32>, !kda2.tensor<[32, 128], f32, smem>
        %22 = kda2.load %Pb[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %23 = kda2.load %Us[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %24 = kda2.load %O[] : !kda2.tensor<[32, 128], f32, smem> -> tensor<32x128xf32>
        %25 = kda2.matmul %22, %23 acc(%24) : tensor<32x32xbf16>, tensor<32x128xbf16>, tensor<32x128xf32> -> tensor<32x128xf32>
        kda2.store %25, %O[] : tensor<32x128xf32>, !kda2.tensor<[32, 128], f32, smem>
        %c128 = arith.constant 128 : index
        kda2.loop thread %x to %c128 {
          %c32_1 = arith.constant 32 : index
          %c128_2 = arith.constant 128 : index
          %26 = kda2.mul %c32_1, %c128_2 : index, index -> index
          %c128_3 = arith.constant 128 : index
          %27 = kda2.div %26, %c128_3 : index, index -> index
          kda2.loop serial %e to %27 {
            %c128_4 = arith.constant 128 : index
            %c128_5 = arith.constant 128 : index
            %28 = kda2.div %c128_5, %c128_4 : index, index -> index
            %29 = kda2.mul %e, %28 : index, index -> index
            %c128_6 = arith.constant 128 : index
            %30 = kda2.div %x, %c128_6 : index, index -> index
            %31 = kda2.add %29, %30 : index, index -> index
            %c32_7 = arith.constant 32 : index
            %32 = kda2.mul %c, %c32_7 : index, index -> index
            %33 = kda2.cast %6 : i32 -> index
            %34 = kda2.sub %33, %32 : index, index -> index
            %35 = kda2.sub %34, %31 : index, index -> index
            %c1_8 = arith.constant 1 : index
            %36 = kda2.min %35, %c1_8 : index, index -> index
            kda2.loop serial %ok to %36 {
              %c32_9 = arith.constant 32 : index
              %37 = kda2.mul %c, %c32_9 : index, index -> index
              %38 = kda2.cast %3 : i32 -> index
              %39 = kda2.add %38, %37 : index, index -> index
              %40 = kda2.add %39, %31 : index, index -> index
              %c128_10 = arith.constant 128 : index
              %41 = kda2.rem %x, %c128_10 : index, index -> index
              %c128_11 = arith.constant 128 : index
              %42 = kda2.rem %x, %c128_11 : index, index -> index
              %43 = kda2.load %O[%31, %42] : !kda2.tensor<[32, 128], f32, smem> -> f32
              %44 = kda2.cast %43 : f32 -> bf16
              %cst = arith.constant 0.000000e+00 : f32
              %45 = kda2.cast %44 : bf16 -> f32
              %46 = kda2.select %10, %45, %cst : i1, f32, f32 -> f32
              %47 = kda2.cast %46 : f32 -> bf16
              kda2.store %47, %o[%40, %2, %41] : bf16, !kda2.tensor<[tt, h, 128], bf16>
            }
          }
        }
      }
    }
    kda2.return
  }
}
