module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_chunk_scan_h(%vc: !kda2.tensor<[h, nsv, 32, 8], bf16>, %kl: !kda2.tensor<[h, ns, 32, 128], bf16>, %wn: !kda2.tensor<[h, ns, 32, 128], bf16>, %tp: !kda2.tensor<[h, ns, 32, 32], bf16>, %gl: !kda2.tensor<[h, ns, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %checkpoint_blocks: !kda2.tensor<[n, nc], i32>, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %hs: !kda2.tensor<[h, ns, 128, 128], bf16> {kda2.io = #kda2.io<out>}, %us: !kda2.tensor<[h, ns, 32, 128], bf16> {kda2.io = #kda2.io<out>}, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["vc", "kl", "wn", "tp", "gl", "cu_seqlens", "state_indices", "has_initial_state", "checkpoint_blocks", "pool", "hs", "us", "ckpt"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, NVB = 16 : i64, V = 128 : i64, VB = 8 : i64}} {
    kda2.gmem %vc, %kl, %wn, %tp, %gl, %hs, %us, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[h, nsv, 32, 8], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[h, ns, 128, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[np1], i32>
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
      %c128 = arith.constant 128 : index
      kda2.loop thread %x to %c128 {
        %c128_17 = arith.constant 128 : index
        %c8 = arith.constant 8 : index
        %45 = kda2.mul %c128_17, %c8 : index, index -> index
        %c128_18 = arith.constant 128 : index
        %46 = kda2.div %45, %c128_18 : index, index -> index
        kda2.loop serial %e to %46 annotations [#kda2.pragma<unroll>] {
          %c8_19 = arith.constant 8 : index
          %c128_20 = arith.constant 128 : index
          %47 = kda2.div %c128_20, %c8_19 : index, index -> index
          %48 = kda2.mul %e, %47 : index, index -> index
          %c8_21 = arith.constant 8 : index
          %49 = kda2.div %x, %c8_21 : index, index -> index
          %50 = kda2.add %48, %49 : index, index -> index
          %c8_22 = arith.constant 8 : index
          %51 = kda2.rem %x, %c8_22 : index, index -> index
          %c8_23 = arith.constant 8 : index
          %52 = kda2.mul %vb, %c8_23 : index, index -> index
          %c8_24 = arith.constant 8 : index
          %53 = kda2.rem %x, %c8_24 : index, index -> index
          %54 = kda2.add %52, %53 : index, index -> index
          %55 = kda2.load %pool[%22, %1, %50, %54] : !kda2.tensor<[slots, h, 128, 128], f32> -> f32
          %cst = arith.constant 0.000000e+00 : f32
          %56 = kda2.select %17, %55, %cst : i1, f32, f32 -> f32
          kda2.store %56, %S[%50, %51] : f32, !kda2.tensor<[128, 8], f32, smem>
        }
      }
      %c32_4 = arith.constant 32 : index
      %23 = kda2.cast %5 : i32 -> index
      %24 = kda2.add %23, %c32_4 : index, index -> index
      %c1_5 = arith.constant 1 : index
      %25 = kda2.sub %24, %c1_5 : index, index -> index
      %c32_6 = arith.constant 32 : index
      %26 = kda2.div %25, %c32_6 : index, index -> index
      kda2.loop serial %c to %26 annotations [#kda2.pragma<tma_pipeline>] {
        %45 = kda2.add %8, %c : index, index -> index
        %46 = kda2.load %kl[%45] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %46, %Kl[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %47 = kda2.add %8, %c : index, index -> index
        %48 = kda2.load %wn[%47] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %48, %Wn[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %49 = kda2.add %8, %c : index, index -> index
        %50 = kda2.load %tp[%49] : !kda2.tensor<[h, ns, 32, 32], bf16> -> tensor<32x32xbf16>
        kda2.store %50, %Tp[] : tensor<32x32xbf16>, !kda2.tensor<[32, 32], bf16, smem>
        %51 = kda2.add %8, %c : index, index -> index
        %52 = kda2.load %gl[%51] : !kda2.tensor<[h, ns, 128], f32> -> tensor<128xf32>
        kda2.store %52, %Gl[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %53 = kda2.add %8, %c : index, index -> index
        %c16_17 = arith.constant 16 : index
        %54 = kda2.mul %53, %c16_17 : index, index -> index
        %55 = kda2.add %54, %vb : index, index -> index
        %56 = kda2.load %vc[%55] : !kda2.tensor<[h, nsv, 32, 8], bf16> -> tensor<32x8xbf16>
        kda2.store %56, %Vs[] : tensor<32x8xbf16>, !kda2.tensor<[32, 8], bf16, smem>
        %c1_18 = arith.constant 1 : index
        %57 = kda2.sub %c, %c1_18 : index, index -> index
        %c0_19 = arith.constant 0 : index
        %58 = kda2.max %57, %c0_19 : index, index -> index
        %59 = kda2.dim "nc" : index
        %c1_20 = arith.constant 1 : index
        %60 = kda2.sub %59, %c1_20 : index, index -> index
        %61 = kda2.min %58, %60 : index, index -> index
        %62 = kda2.load %checkpoint_blocks[%61] : !kda2.tensor<[n, nc], i32> -> i32
        %c0_21 = arith.constant 0 : index
        %63 = kda2.cmp gt %c, %c0_21 : index, index -> i1
        %false_22 = arith.constant false
        %64 = kda2.select %14, %63, %false_22 : i1, i1, i1 -> i1
        %c0_i32_23 = arith.constant 0 : i32
        %65 = kda2.cmp ge %62, %c0_i32_23 : i32, i32 -> i1
        %false_24 = arith.constant false
        %66 = kda2.select %64, %65, %false_24 : i1, i1, i1 -> i1
        %67 = kda2.dim "blocks" : index
        %68 = kda2.cast %62 : i32 -> index
        %69 = kda2.cmp lt %68, %67 : index, index -> i1
        %false_25 = arith.constant false
        %70 = kda2.select %66, %69, %false_25 : i1, i1, i1 -> i1
        %c128_26 = arith.constant 128 : index
        kda2.loop thread %x to %c128_26 {
          %c128_28 = arith.constant 128 : index
          %c8 = arith.constant 8 : index
          %82 = kda2.mul %c128_28, %c8 : index, index -> index
          %c128_29 = arith.constant 128 : index
          %83 = kda2.div %82, %c128_29 : index, index -> index
          kda2.loop serial %e to %83 annotations [#kda2.pragma<unroll>] {
            %c8_30 = arith.constant 8 : index
            %c128_31 = arith.constant 128 : index
            %84 = kda2.div %c128_31, %c8_30 : index, index -> index
            %85 = kda2.mul %e, %84 : index, index -> index
            %c8_32 = arith.constant 8 : index
            %86 = kda2.div %x, %c8_32 : index, index -> index
            %87 = kda2.add %85, %86 : index, index -> index
            %c8_33 = arith.constant 8 : index
            %88 = kda2.rem %x, %c8_33 : index, index -> index
            %89 = kda2.load %S[%87, %88] : !kda2.tensor<[128, 8], f32, smem> -> f32
            %c8_34 = arith.constant 8 : index
            %90 = kda2.rem %x, %c8_34 : index, index -> index
            %91 = kda2.cast %89 : f32 -> bf16
            kda2.store %91, %Sb[%87, %90] : bf16, !kda2.tensor<[128, 8], bf16, smem>
            %92 = kda2.add %8, %c : index, index -> index
            %c8_35 = arith.constant 8 : index
            %93 = kda2.mul %vb, %c8_35 : index, index -> index
            %c8_36 = arith.constant 8 : index
            %94 = kda2.rem %x, %c8_36 : index, index -> index
            %95 = kda2.add %93, %94 : index, index -> index
            %96 = kda2.cast %89 : f32 -> bf16
            kda2.store %96, %hs[%92, %87, %95] : bf16, !kda2.tensor<[h, ns, 128, 128], bf16>
            kda2.if %70 {
              %100 = kda2.cast %62 : i32 -> index
              %c8_38 = arith.constant 8 : index
              %101 = kda2.mul %vb, %c8_38 : index, index -> index
              %c8_39 = arith.constant 8 : index
              %102 = kda2.rem %x, %c8_39 : index, index -> index
              %103 = kda2.add %101, %102 : index, index -> index
              kda2.store %89, %ckpt[%100, %1, %87, %103] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
            }
            %c8_37 = arith.constant 8 : index
            %97 = kda2.rem %x, %c8_37 : index, index -> index
            %98 = kda2.load %Gl[%87] : !kda2.tensor<[128], f32, smem> -> f32
            %99 = kda2.mul %89, %98 : f32, f32 -> f32
            kda2.store %99, %S[%87, %97] : f32, !kda2.tensor<[128, 8], f32, smem>
          }
        }
        %71 = kda2.load %Tp[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %72 = kda2.load %Vs[] : !kda2.tensor<[32, 8], bf16, smem> -> tensor<32x8xbf16>
        %73 = kda2.matmul %71, %72 : tensor<32x32xbf16>, tensor<32x8xbf16> -> tensor<32x8xf32>
        kda2.store %73, %U[] : tensor<32x8xf32>, !kda2.tensor<[32, 8], f32, smem>
        %74 = kda2.load %Wn[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %75 = kda2.load %Sb[] : !kda2.tensor<[128, 8], bf16, smem> -> tensor<128x8xbf16>
        %76 = kda2.load %U[] : !kda2.tensor<[32, 8], f32, smem> -> tensor<32x8xf32>
        %77 = kda2.matmul %74, %75 acc(%76) : tensor<32x128xbf16>, tensor<128x8xbf16>, tensor<32x8xf32> -> tensor<32x8xf32>
        kda2.store %77, %U[] : tensor<32x8xf32>, !kda2.tensor<[32, 8], f32, smem>
        %c128_27 = arith.constant 128 : index
        kda2.loop thread %x to %c128_27 {
          %c32_28 = arith.constant 32 : index
          %c8 = arith.constant 8 : index
          %82 = kda2.mul %c32_28, %c8 : index, index -> index
          %c128_29 = arith.constant 128 : index
          %83 = kda2.div %82, %c128_29 : index, index -> index
          kda2.loop serial %e to %83 annotations [#kda2.pragma<unroll>] {
            %c8_30 = arith.constant 8 : index
            %c128_31 = arith.constant 128 : index
            %84 = kda2.div %c128_31, %c8_30 : index, index -> index
            %85 = kda2.mul %e, %84 : index, index -> index
            %c8_32 = arith.constant 8 : index
            %86 = kda2.div %x, %c8_32 : index, index -> index
            %87 = kda2.add %85, %86 : index, index -> index
            %c8_33 = arith.constant 8 : index
            %88 = kda2.rem %x, %c8_33 : index, index -> index
            %89 = kda2.load %U[%87, %88] : !kda2.tensor<[32, 8], f32, smem> -> f32
            %90 = kda2.cast %89 : f32 -> bf16
            %c8_34 = arith.constant 8 : index
            %91 = kda2.rem %x, %c8_34 : index, index -> index
            kda2.store %90, %Ub[%87, %91] : bf16, !kda2.tensor<[32, 8], bf16, smem>
            %92 = kda2.add %8, %c : index, index -> index
            %c8_35 = arith.constant 8 : index
            %93 = kda2.mul %vb, %c8_35 : index, index -> index
            %c8_36 = arith.constant 8 : index
            %94 = kda2.rem %x, %c8_36 : index, index -> index
            %95 = kda2.add %93, %94 : index, index -> index
            kda2.store %90, %us[%92, %87, %95] : bf16, !kda2.tensor<[h, ns, 32, 128], bf16>
          }
        }
        %78 = kda2.load %Kl[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %79 = kda2.load %Ub[] : !kda2.tensor<[32, 8], bf16, smem> -> tensor<32x8xbf16>
        %80 = kda2.load %S[] : !kda2.tensor<[128, 8], f32, smem> -> tensor<128x8xf32>
        %81 = kda2.matmul %78, %79 acc(%80) {transpose_a} : tensor<32x128xbf16>, tensor<32x8xbf16>, tensor<128x8xf32> -> tensor<128x8xf32>
        kda2.store %81, %S[] : tensor<128x8xf32>, !kda2.tensor<[128, 8], f32, smem>
      }
      %c32_7 = arith.constant 32 : index
      %27 = kda2.cast %5 : i32 -> index
      %28 = kda2.add %27, %c32_7 : index, index -> index
      %c1_8 = arith.constant 1 : index
      %29 = kda2.sub %28, %c1_8 : index, index -> index
      %c32_9 = arith.constant 32 : index
      %30 = kda2.div %29, %c32_9 : index, index -> index
      %c1_10 = arith.constant 1 : index
      %31 = kda2.sub %30, %c1_10 : index, index -> index
      %c0 = arith.constant 0 : index
      %32 = kda2.max %31, %c0 : index, index -> index
      %33 = kda2.dim "nc" : index
      %c1_11 = arith.constant 1 : index
      %34 = kda2.sub %33, %c1_11 : index, index -> index
      %35 = kda2.min %32, %34 : index, index -> index
      %36 = kda2.load %checkpoint_blocks[%35] : !kda2.tensor<[n, nc], i32> -> i32
      %c0_12 = arith.constant 0 : index
      %37 = kda2.cmp gt %30, %c0_12 : index, index -> i1
      %false_13 = arith.constant false
      %38 = kda2.select %14, %37, %false_13 : i1, i1, i1 -> i1
      %c0_i32_14 = arith.constant 0 : i32
      %39 = kda2.cmp ge %36, %c0_i32_14 : i32, i32 -> i1
      %false_15 = arith.constant false
      %40 = kda2.select %38, %39, %false_15 : i1, i1, i1 -> i1
      %41 = kda2.dim "blocks" : index
      %42 = kda2.cast %36 : i32 -> index
      %43 = kda2.cmp lt %42, %41 : index, index -> i1
      %false_16 = arith.constant false
      %44 = kda2.select %40, %43, %false_16 : i1, i1, i1 -> i1
      kda2.if %14 {
        %c128_17 = arith.constant 128 : index
        kda2.loop thread %x to %c128_17 {
          %c128_18 = arith.constant 128 : index
          %c8 = arith.constant 8 : index
          %45 = kda2.mul %c128_18, %c8 : index, index -> index
          %c128_19 = arith.constant 128 : index
          %46 = kda2.div %45, %c128_19 : index, index -> index
          kda2.loop serial %e to %46 annotations [#kda2.pragma<unroll>] {
            %c8_20 = arith.constant 8 : index
            %c128_21 = arith.constant 128 : index
            %47 = kda2.div %c128_21, %c8_20 : index, index -> index
            %48 = kda2.mul %e, %47 : index, index -> index
            %c8_22 = arith.constant 8 : index
            %49 = kda2.div %x, %c8_22 : index, index -> index
            %50 = kda2.add %48, %49 : index, index -> index
            %c8_23 = arith.constant 8 : index
            %51 = kda2.rem %x, %c8_23 : index, index -> index
            %52 = kda2.load %S[%50, %51] : !kda2.tensor<[128, 8], f32, smem> -> f32
            %53 = kda2.cast %9 : i32 -> index
            %c8_24 = arith.constant 8 : index
            %54 = kda2.mul %vb, %c8_24 : index, index -> index
            %c8_25 = arith.constant 8 : index
            %55 = kda2.rem %x, %c8_25 : index, index -> index
            %56 = kda2.add %54, %55 : index, index -> index
            kda2.store %52, %pool[%53, %1, %50, %56] : f32, !kda2.tensor<[slots, h, 128, 128], f32>
            kda2.if %44 {
              %57 = kda2.cast %36 : i32 -> index
              %c8_26 = arith.constant 8 : index
              %58 = kda2.mul %vb, %c8_26 : index, index -> index
              %c8_27 = arith.constant 8 : index
              %59 = kda2.rem %x, %c8_27 : index, index -> index
              %60 = kda2.add %58, %59 : index, index -> index
              kda2.store %52, %ckpt[%57, %1, %50, %60] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
            }
          }
        }
      }
    }
    kda2.return
  }
  kda2.kernel @kda_chunk_out(%qd: !kda2.tensor<[h, ns, 32, 128], bf16>, %pb: !kda2.tensor<[h, ns, 32, 32], bf16>, %hs: !kda2.tensor<[h, ns, 128, 128], bf16>, %us: !kda2.tensor<[h, ns, 32, 128], bf16>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %nslots: i32, %o: !kda2.tensor<[tt, h, 128], bf16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["qd", "pb", "hs", "us", "cu_seqlens", "state_indices", "nslots", "o"], grid = ["h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, V = 128 : i64}} {
    kda2.gmem %qd, %pb, %hs, %us, %o, %cu_seqlens, %state_indices layout(row_major) packing(none) : !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[tt, h, 128], bf16>, !kda2.tensor<[np1], i32>, !kda2.tensor<[n], i32>
    %Qd = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Pb = kda2.smem_alloc size(8192) : !kda2.tensor<[32, 32], bf16, smem>
    %Hs = kda2.smem_alloc size(32768) : !kda2.tensor<[128, 128], bf16, smem>
    %Us = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
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
        %29 = kda2.load %us[%sl] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %29, %Us[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %30 = kda2.load %Qd[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %31 = kda2.load %Hs[] : !kda2.tensor<[128, 128], bf16, smem> -> tensor<128x128xbf16>
        %32 = kda2.matmul %30, %31 : tensor<32x128xbf16>, tensor<128x128xbf16> -> tensor<32x128xf32>
        kda2.store %32, %O[] : tensor<32x128xf32>, !kda2.tensor<[32, 128], f32, smem>
        %33 = kda2.load %Pb[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %34 = kda2.load %Us[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %35 = kda2.load %O[] : !kda2.tensor<[32, 128], f32, smem> -> tensor<32x128xf32>
        %36 = kda2.matmul %33, %34 acc(%35) : tensor<32x32xbf16>, tensor<32x128xbf16>, tensor<32x128xf32> -> tensor<32x128xf32>
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
}
