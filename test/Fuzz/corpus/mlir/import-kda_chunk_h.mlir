module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_chunk_scan_h(%vc: !kda2.tensor<[h, nsv, 32, 8], bf16>, %kl: !kda2.tensor<[h, ns, 32, 128], bf16>, %wn: !kda2.tensor<[h, ns, 32, 128], bf16>, %tp: !kda2.tensor<[h, ns, 32, 32], bf16>, %gl: !kda2.tensor<[h, ns, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %checkpoint_blocks: !kda2.tensor<[n, nc], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %boundaries: i32, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %hs: !kda2.tensor<[h, ns, 128, 128], bf16> {kda2.io = #kda2.io<out>}, %us: !kda2.tensor<[h, ns, 32, 128], bf16> {kda2.io = #kda2.io<out>}, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["vc", "kl", "wn", "tp", "gl", "cu_seqlens", "state_indices", "has_initial_state", "checkpoint_blocks", "ckpt_offsets", "offset_blocks", "boundaries", "pool", "hs", "us", "ckpt"], grid = ["n", "h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, NVB = 16 : i64, V = 128 : i64, VB = 8 : i64}} {
    kda2.gmem %vc, %kl, %wn, %tp, %gl, %hs, %us, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[h, nsv, 32, 8], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[h, ns, 32, 32], bf16>, !kda2.tensor<[h, ns, 128], f32>, !kda2.tensor<[h, ns, 128, 128], bf16>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %state_indices, %has_initial_state, %checkpoint_blocks layout(row_major) packing(none) : !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n, nc], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
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
    %nx = kda2.reg_alloc : !kda2.tensor<[1], i32, reg>
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
        %c128_23 = arith.constant 128 : index
        %c8 = arith.constant 8 : index
        %53 = kda2.mul %c128_23, %c8 : index, index -> index
        %c128_24 = arith.constant 128 : index
        %54 = kda2.div %53, %c128_24 : index, index -> index
        kda2.loop serial %e to %54 annotations [#kda2.pragma<unroll>] {
          %c8_25 = arith.constant 8 : index
          %c128_26 = arith.constant 128 : index
          %55 = kda2.div %c128_26, %c8_25 : index, index -> index
          %56 = kda2.mul %e, %55 : index, index -> index
          %c8_27 = arith.constant 8 : index
          %57 = kda2.div %x, %c8_27 : index, index -> index
          %58 = kda2.add %56, %57 : index, index -> index
          %c8_28 = arith.constant 8 : index
          %59 = kda2.rem %x, %c8_28 : index, index -> index
          %c8_29 = arith.constant 8 : index
          %60 = kda2.mul %vb, %c8_29 : index, index -> index
          %c8_30 = arith.constant 8 : index
          %61 = kda2.rem %x, %c8_30 : index, index -> index
          %62 = kda2.add %60, %61 : index, index -> index
          %63 = kda2.load %pool[%22, %1, %58, %62] : !kda2.tensor<[slots, h, 128, 128], f32> -> f32
          %cst = arith.constant 0.000000e+00 : f32
          %64 = kda2.select %17, %63, %cst : i1, f32, f32 -> f32
          kda2.store %64, %S[%58, %59] : f32, !kda2.tensor<[128, 8], f32, smem>
        }
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
        %53 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
        %c1_i32 = arith.constant 1 : i32
        %54 = kda2.cmp ge %53, %c1_i32 : i32, i32 -> i1
        %55 = kda2.cmp le %53, %5 : i32, i32 -> i1
        %false_23 = arith.constant false
        %56 = kda2.select %54, %55, %false_23 : i1, i1, i1 -> i1
        kda2.if %56 {
          %c0_24 = arith.constant 0 : index
          %c0_25 = arith.constant 0 : index
          %57 = kda2.load %nx[%c0_25] : !kda2.tensor<[1], i32, reg> -> i32
          %c1_i32_26 = arith.constant 1 : i32
          %58 = kda2.sub %53, %c1_i32_26 : i32, i32 -> i32
          %c32_27 = arith.constant 32 : index
          %59 = kda2.cast %58 : i32 -> index
          %60 = kda2.div %59, %c32_27 : index, index -> index
          %61 = kda2.cast %57 : i32 -> index
          %62 = kda2.min %61, %60 : index, index -> index
          %63 = kda2.cast %62 : index -> i32
          kda2.store %63, %nx[%c0_24] : i32, !kda2.tensor<[1], i32, reg>
        }
      }
      %c32_7 = arith.constant 32 : index
      %29 = kda2.cast %5 : i32 -> index
      %30 = kda2.add %29, %c32_7 : index, index -> index
      %c1_8 = arith.constant 1 : index
      %31 = kda2.sub %30, %c1_8 : index, index -> index
      %c32_9 = arith.constant 32 : index
      %32 = kda2.div %31, %c32_9 : index, index -> index
      kda2.loop serial %c to %32 annotations [#kda2.pragma<tma_pipeline>] {
        %53 = kda2.add %8, %c : index, index -> index
        %54 = kda2.load %kl[%53] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %54, %Kl[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %55 = kda2.add %8, %c : index, index -> index
        %56 = kda2.load %wn[%55] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %56, %Wn[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
        %57 = kda2.add %8, %c : index, index -> index
        %58 = kda2.load %tp[%57] : !kda2.tensor<[h, ns, 32, 32], bf16> -> tensor<32x32xbf16>
        kda2.store %58, %Tp[] : tensor<32x32xbf16>, !kda2.tensor<[32, 32], bf16, smem>
        %59 = kda2.add %8, %c : index, index -> index
        %60 = kda2.load %gl[%59] : !kda2.tensor<[h, ns, 128], f32> -> tensor<128xf32>
        kda2.store %60, %Gl[] : tensor<128xf32>, !kda2.tensor<[128], f32, smem>
        %61 = kda2.add %8, %c : index, index -> index
        %c16_23 = arith.constant 16 : index
        %62 = kda2.mul %61, %c16_23 : index, index -> index
        %63 = kda2.add %62, %vb : index, index -> index
        %64 = kda2.load %vc[%63] : !kda2.tensor<[h, nsv, 32, 8], bf16> -> tensor<32x8xbf16>
        kda2.store %64, %Vs[] : tensor<32x8xbf16>, !kda2.tensor<[32, 8], bf16, smem>
        %c1_24 = arith.constant 1 : index
        %65 = kda2.sub %c, %c1_24 : index, index -> index
        %c0_25 = arith.constant 0 : index
        %66 = kda2.max %65, %c0_25 : index, index -> index
        %67 = kda2.dim "nc" : index
        %c1_26 = arith.constant 1 : index
        %68 = kda2.sub %67, %c1_26 : index, index -> index
        %69 = kda2.min %66, %68 : index, index -> index
        %70 = kda2.load %checkpoint_blocks[%69] : !kda2.tensor<[n, nc], i32> -> i32
        %c0_i32_27 = arith.constant 0 : i32
        %71 = kda2.cmp ne %boundaries, %c0_i32_27 : i32, i32 -> i1
        %false_28 = arith.constant false
        %72 = kda2.select %14, %71, %false_28 : i1, i1, i1 -> i1
        %c0_29 = arith.constant 0 : index
        %73 = kda2.cmp gt %c, %c0_29 : index, index -> i1
        %false_30 = arith.constant false
        %74 = kda2.select %72, %73, %false_30 : i1, i1, i1 -> i1
        %c0_i32_31 = arith.constant 0 : i32
        %75 = kda2.cmp ge %70, %c0_i32_31 : i32, i32 -> i1
        %false_32 = arith.constant false
        %76 = kda2.select %74, %75, %false_32 : i1, i1, i1 -> i1
        %77 = kda2.dim "blocks" : index
        %78 = kda2.cast %70 : i32 -> index
        %79 = kda2.cmp lt %78, %77 : index, index -> i1
        %false_33 = arith.constant false
        %80 = kda2.select %76, %79, %false_33 : i1, i1, i1 -> i1
        %c0_34 = arith.constant 0 : index
        %81 = kda2.load %nx[%c0_34] : !kda2.tensor<[1], i32, reg> -> i32
        %82 = kda2.cast %81 : i32 -> index
        %83 = kda2.cmp eq %c, %82 : index, index -> i1
        kda2.if %83 {
          %96 = kda2.dim "m" : index
          kda2.loop serial %j to %96 {
            %97 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %98 = kda2.load %offset_blocks[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %99 = kda2.cmp ge %97, %c1_i32 : i32, i32 -> i1
            %false_37 = arith.constant false
            %100 = kda2.select %14, %99, %false_37 : i1, i1, i1 -> i1
            %101 = kda2.cmp le %97, %5 : i32, i32 -> i1
            %false_38 = arith.constant false
            %102 = kda2.select %100, %101, %false_38 : i1, i1, i1 -> i1
            %c1_i32_39 = arith.constant 1 : i32
            %103 = kda2.sub %97, %c1_i32_39 : i32, i32 -> i32
            %c32_40 = arith.constant 32 : index
            %104 = kda2.cast %103 : i32 -> index
            %105 = kda2.div %104, %c32_40 : index, index -> index
            %106 = kda2.cmp eq %105, %c : index, index -> i1
            %false_41 = arith.constant false
            %107 = kda2.select %102, %106, %false_41 : i1, i1, i1 -> i1
            %c0_i32_42 = arith.constant 0 : i32
            %108 = kda2.cmp ge %98, %c0_i32_42 : i32, i32 -> i1
            %false_43 = arith.constant false
            %109 = kda2.select %107, %108, %false_43 : i1, i1, i1 -> i1
            %110 = kda2.dim "blocks" : index
            %111 = kda2.cast %98 : i32 -> index
            %112 = kda2.cmp lt %111, %110 : index, index -> i1
            %false_44 = arith.constant false
            %113 = kda2.select %109, %112, %false_44 : i1, i1, i1 -> i1
            kda2.if %113 {
              %c128_45 = arith.constant 128 : index
              kda2.loop thread %x to %c128_45 {
                %c128_46 = arith.constant 128 : index
                %c8 = arith.constant 8 : index
                %114 = kda2.mul %c128_46, %c8 : index, index -> index
                %c128_47 = arith.constant 128 : index
                %115 = kda2.div %114, %c128_47 : index, index -> index
                kda2.loop serial %e to %115 annotations [#kda2.pragma<unroll>] {
                  %c8_48 = arith.constant 8 : index
                  %c128_49 = arith.constant 128 : index
                  %116 = kda2.div %c128_49, %c8_48 : index, index -> index
                  %117 = kda2.mul %e, %116 : index, index -> index
                  %c8_50 = arith.constant 8 : index
                  %118 = kda2.div %x, %c8_50 : index, index -> index
                  %119 = kda2.add %117, %118 : index, index -> index
                  %120 = kda2.cast %98 : i32 -> index
                  %c8_51 = arith.constant 8 : index
                  %121 = kda2.mul %vb, %c8_51 : index, index -> index
                  %c8_52 = arith.constant 8 : index
                  %122 = kda2.rem %x, %c8_52 : index, index -> index
                  %123 = kda2.add %121, %122 : index, index -> index
                  %c8_53 = arith.constant 8 : index
                  %124 = kda2.rem %x, %c8_53 : index, index -> index
                  %125 = kda2.load %S[%119, %124] : !kda2.tensor<[128, 8], f32, smem> -> f32
                  kda2.store %125, %ckpt[%120, %1, %119, %123] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
                }
              }
            }
          }
        }
        %84 = kda2.load %Tp[] : !kda2.tensor<[32, 32], bf16, smem> -> tensor<32x32xbf16>
        %85 = kda2.load %Vs[] : !kda2.tensor<[32, 8], bf16, smem> -> tensor<32x8xbf16>
        %86 = kda2.matmul %84, %85 : tensor<32x32xbf16>, tensor<32x8xbf16> -> tensor<32x8xf32>
        kda2.store %86, %U[] : tensor<32x8xf32>, !kda2.tensor<[32, 8], f32, smem>
        %c128_35 = arith.constant 128 : index
        kda2.loop thread %x to %c128_35 {
          %c128_37 = arith.constant 128 : index
          %c8 = arith.constant 8 : index
          %96 = kda2.mul %c128_37, %c8 : index, index -> index
          %c128_38 = arith.constant 128 : index
          %97 = kda2.div %96, %c128_38 : index, index -> index
          kda2.loop serial %e to %97 annotations [#kda2.pragma<unroll>] {
            %c8_39 = arith.constant 8 : index
            %c128_40 = arith.constant 128 : index
            %98 = kda2.div %c128_40, %c8_39 : index, index -> index
            %99 = kda2.mul %e, %98 : index, index -> index
            %c8_41 = arith.constant 8 : index
            %100 = kda2.div %x, %c8_41 : index, index -> index
            %101 = kda2.add %99, %100 : index, index -> index
            %c8_42 = arith.constant 8 : index
            %102 = kda2.rem %x, %c8_42 : index, index -> index
            %103 = kda2.load %S[%101, %102] : !kda2.tensor<[128, 8], f32, smem> -> f32
            %c8_43 = arith.constant 8 : index
            %104 = kda2.rem %x, %c8_43 : index, index -> index
            %105 = kda2.cast %103 : f32 -> bf16
            kda2.store %105, %Sb[%101, %104] : bf16, !kda2.tensor<[128, 8], bf16, smem>
            %106 = kda2.add %8, %c : index, index -> index
            %c8_44 = arith.constant 8 : index
            %107 = kda2.mul %vb, %c8_44 : index, index -> index
            %c8_45 = arith.constant 8 : index
            %108 = kda2.rem %x, %c8_45 : index, index -> index
            %109 = kda2.add %107, %108 : index, index -> index
            %110 = kda2.cast %103 : f32 -> bf16
            kda2.store %110, %hs[%106, %101, %109] : bf16, !kda2.tensor<[h, ns, 128, 128], bf16>
            kda2.if %80 {
              %114 = kda2.cast %70 : i32 -> index
              %c8_47 = arith.constant 8 : index
              %115 = kda2.mul %vb, %c8_47 : index, index -> index
              %c8_48 = arith.constant 8 : index
              %116 = kda2.rem %x, %c8_48 : index, index -> index
              %117 = kda2.add %115, %116 : index, index -> index
              kda2.store %103, %ckpt[%114, %1, %101, %117] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
            }
            %c8_46 = arith.constant 8 : index
            %111 = kda2.rem %x, %c8_46 : index, index -> index
            %112 = kda2.load %Gl[%101] : !kda2.tensor<[128], f32, smem> -> f32
            %113 = kda2.mul %103, %112 : f32, f32 -> f32
            kda2.store %113, %S[%101, %111] : f32, !kda2.tensor<[128, 8], f32, smem>
          }
        }
        %87 = kda2.load %Wn[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %88 = kda2.load %Sb[] : !kda2.tensor<[128, 8], bf16, smem> -> tensor<128x8xbf16>
        %89 = kda2.load %U[] : !kda2.tensor<[32, 8], f32, smem> -> tensor<32x8xf32>
        %90 = kda2.matmul %87, %88 acc(%89) : tensor<32x128xbf16>, tensor<128x8xbf16>, tensor<32x8xf32> -> tensor<32x8xf32>
        %91 = kda2.cast %90 : tensor<32x8xf32> -> tensor<32x8xbf16>
        kda2.store %91, %Ub[] : tensor<32x8xbf16>, !kda2.tensor<[32, 8], bf16, smem>
        %92 = kda2.load %Kl[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %93 = kda2.load %Ub[] : !kda2.tensor<[32, 8], bf16, smem> -> tensor<32x8xbf16>
        %94 = kda2.load %S[] : !kda2.tensor<[128, 8], f32, smem> -> tensor<128x8xf32>
        %95 = kda2.matmul %92, %93 acc(%94) {transpose_a} : tensor<32x128xbf16>, tensor<32x8xbf16>, tensor<128x8xf32> -> tensor<128x8xf32>
        kda2.store %95, %S[] : tensor<128x8xf32>, !kda2.tensor<[128, 8], f32, smem>
        %c128_36 = arith.constant 128 : index
        kda2.loop thread %x to %c128_36 {
          %c32_37 = arith.constant 32 : index
          %c8 = arith.constant 8 : index
          %96 = kda2.mul %c32_37, %c8 : index, index -> index
          %c128_38 = arith.constant 128 : index
          %97 = kda2.div %96, %c128_38 : index, index -> index
          kda2.loop serial %e to %97 annotations [#kda2.pragma<unroll>] {
            %c8_39 = arith.constant 8 : index
            %c128_40 = arith.constant 128 : index
            %98 = kda2.div %c128_40, %c8_39 : index, index -> index
            %99 = kda2.mul %e, %98 : index, index -> index
            %c8_41 = arith.constant 8 : index
            %100 = kda2.div %x, %c8_41 : index, index -> index
            %101 = kda2.add %99, %100 : index, index -> index
            %102 = kda2.add %8, %c : index, index -> index
            %c8_42 = arith.constant 8 : index
            %103 = kda2.mul %vb, %c8_42 : index, index -> index
            %c8_43 = arith.constant 8 : index
            %104 = kda2.rem %x, %c8_43 : index, index -> index
            %105 = kda2.add %103, %104 : index, index -> index
            %c8_44 = arith.constant 8 : index
            %106 = kda2.rem %x, %c8_44 : index, index -> index
            %107 = kda2.load %Ub[%101, %106] : !kda2.tensor<[32, 8], bf16, smem> -> bf16
            kda2.store %107, %us[%102, %101, %105] : bf16, !kda2.tensor<[h, ns, 32, 128], bf16>
          }
        }
        kda2.if %83 {
          %c0_37 = arith.constant 0 : index
          %c32_38 = arith.constant 32 : index
          %96 = kda2.cast %5 : i32 -> index
          %97 = kda2.add %96, %c32_38 : index, index -> index
          %c1_39 = arith.constant 1 : index
          %98 = kda2.sub %97, %c1_39 : index, index -> index
          %c32_40 = arith.constant 32 : index
          %99 = kda2.div %98, %c32_40 : index, index -> index
          %100 = kda2.cast %99 : index -> i32
          kda2.store %100, %nx[%c0_37] : i32, !kda2.tensor<[1], i32, reg>
          %101 = kda2.dim "m" : index
          kda2.loop serial %j to %101 {
            %102 = kda2.load %ckpt_offsets[%j] : !kda2.tensor<[n, m], i32> -> i32
            %c1_i32 = arith.constant 1 : i32
            %103 = kda2.cmp ge %102, %c1_i32 : i32, i32 -> i1
            %104 = kda2.cmp le %102, %5 : i32, i32 -> i1
            %false_41 = arith.constant false
            %105 = kda2.select %103, %104, %false_41 : i1, i1, i1 -> i1
            %c1_i32_42 = arith.constant 1 : i32
            %106 = kda2.sub %102, %c1_i32_42 : i32, i32 -> i32
            %c32_43 = arith.constant 32 : index
            %107 = kda2.cast %106 : i32 -> index
            %108 = kda2.div %107, %c32_43 : index, index -> index
            %109 = kda2.cmp gt %108, %c : index, index -> i1
            %false_44 = arith.constant false
            %110 = kda2.select %105, %109, %false_44 : i1, i1, i1 -> i1
            kda2.if %110 {
              %c0_45 = arith.constant 0 : index
              %c0_46 = arith.constant 0 : index
              %111 = kda2.load %nx[%c0_46] : !kda2.tensor<[1], i32, reg> -> i32
              %c1_i32_47 = arith.constant 1 : i32
              %112 = kda2.sub %102, %c1_i32_47 : i32, i32 -> i32
              %c32_48 = arith.constant 32 : index
              %113 = kda2.cast %112 : i32 -> index
              %114 = kda2.div %113, %c32_48 : index, index -> index
              %115 = kda2.cast %111 : i32 -> index
              %116 = kda2.min %115, %114 : index, index -> index
              %117 = kda2.cast %116 : index -> i32
              kda2.store %117, %nx[%c0_45] : i32, !kda2.tensor<[1], i32, reg>
            }
          }
        }
      }
      %c32_10 = arith.constant 32 : index
      %33 = kda2.cast %5 : i32 -> index
      %34 = kda2.add %33, %c32_10 : index, index -> index
      %c1_11 = arith.constant 1 : index
      %35 = kda2.sub %34, %c1_11 : index, index -> index
      %c32_12 = arith.constant 32 : index
      %36 = kda2.div %35, %c32_12 : index, index -> index
      %c1_13 = arith.constant 1 : index
      %37 = kda2.sub %36, %c1_13 : index, index -> index
      %c0_14 = arith.constant 0 : index
      %38 = kda2.max %37, %c0_14 : index, index -> index
      %39 = kda2.dim "nc" : index
      %c1_15 = arith.constant 1 : index
      %40 = kda2.sub %39, %c1_15 : index, index -> index
      %41 = kda2.min %38, %40 : index, index -> index
      %42 = kda2.load %checkpoint_blocks[%41] : !kda2.tensor<[n, nc], i32> -> i32
      %c0_i32_16 = arith.constant 0 : i32
      %43 = kda2.cmp ne %boundaries, %c0_i32_16 : i32, i32 -> i1
      %false_17 = arith.constant false
      %44 = kda2.select %14, %43, %false_17 : i1, i1, i1 -> i1
      %c0_18 = arith.constant 0 : index
      %45 = kda2.cmp gt %36, %c0_18 : index, index -> i1
      %false_19 = arith.constant false
      %46 = kda2.select %44, %45, %false_19 : i1, i1, i1 -> i1
      %c0_i32_20 = arith.constant 0 : i32
      %47 = kda2.cmp ge %42, %c0_i32_20 : i32, i32 -> i1
      %false_21 = arith.constant false
      %48 = kda2.select %46, %47, %false_21 : i1, i1, i1 -> i1
      %49 = kda2.dim "blocks" : index
      %50 = kda2.cast %42 : i32 -> index
      %51 = kda2.cmp lt %50, %49 : index, index -> i1
      %false_22 = arith.constant false
      %52 = kda2.select %48, %51, %false_22 : i1, i1, i1 -> i1
      kda2.if %14 {
        %c128_23 = arith.constant 128 : index
        kda2.loop thread %x to %c128_23 {
          %c128_24 = arith.constant 128 : index
          %c8 = arith.constant 8 : index
          %53 = kda2.mul %c128_24, %c8 : index, index -> index
          %c128_25 = arith.constant 128 : index
          %54 = kda2.div %53, %c128_25 : index, index -> index
          kda2.loop serial %e to %54 annotations [#kda2.pragma<unroll>] {
            %c8_26 = arith.constant 8 : index
            %c128_27 = arith.constant 128 : index
            %55 = kda2.div %c128_27, %c8_26 : index, index -> index
            %56 = kda2.mul %e, %55 : index, index -> index
            %c8_28 = arith.constant 8 : index
            %57 = kda2.div %x, %c8_28 : index, index -> index
            %58 = kda2.add %56, %57 : index, index -> index
            %c8_29 = arith.constant 8 : index
            %59 = kda2.rem %x, %c8_29 : index, index -> index
            %60 = kda2.load %S[%58, %59] : !kda2.tensor<[128, 8], f32, smem> -> f32
            %61 = kda2.cast %9 : i32 -> index
            %c8_30 = arith.constant 8 : index
            %62 = kda2.mul %vb, %c8_30 : index, index -> index
            %c8_31 = arith.constant 8 : index
            %63 = kda2.rem %x, %c8_31 : index, index -> index
            %64 = kda2.add %62, %63 : index, index -> index
            kda2.store %60, %pool[%61, %1, %58, %64] : f32, !kda2.tensor<[slots, h, 128, 128], f32>
            kda2.if %52 {
              %65 = kda2.cast %42 : i32 -> index
              %c8_32 = arith.constant 8 : index
              %66 = kda2.mul %vb, %c8_32 : index, index -> index
              %c8_33 = arith.constant 8 : index
              %67 = kda2.rem %x, %c8_33 : index, index -> index
              %68 = kda2.add %66, %67 : index, index -> index
              kda2.store %60, %ckpt[%65, %1, %58, %68] : f32, !kda2.tensor<[blocks, h, 128, 128], f32>
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
  kda2.kernel @kda_chunk_ckpt(%kc: !kda2.tensor<[h, nm, 32, 128], bf16>, %ec: !kda2.tensor<[h, nm, 128], f32>, %us: !kda2.tensor<[h, ns, 32, 128], bf16>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %ckpt_offsets: !kda2.tensor<[n, m], i32>, %offset_blocks: !kda2.tensor<[n, m], i32>, %nslots: i32, %ckpt: !kda2.tensor<[blocks, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["kc", "ec", "us", "cu_seqlens", "state_indices", "ckpt_offsets", "offset_blocks", "nslots", "ckpt"], grid = ["h"], kda2.bindings = {C = 32 : i64, K = 128 : i64, V = 128 : i64}} {
    kda2.gmem %kc, %ec, %us, %cu_seqlens, %state_indices layout(row_major) packing(none) : !kda2.tensor<[h, nm, 32, 128], bf16>, !kda2.tensor<[h, nm, 128], f32>, !kda2.tensor<[h, ns, 32, 128], bf16>, !kda2.tensor<[np1], i32>, !kda2.tensor<[n], i32>
    kda2.gmem %ckpt_offsets, %offset_blocks layout(row_major) packing(none) : !kda2.tensor<[n, m], i32>, !kda2.tensor<[n, m], i32>
    kda2.gmem %ckpt layout(KV) packing(none) : !kda2.tensor<[blocks, h, 128, 128], f32>
    %Kc = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
    %Us = kda2.smem_alloc size(16384) : !kda2.tensor<[32, 128], bf16, smem>
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
        %34 = kda2.load %us[%33] : !kda2.tensor<[h, ns, 32, 128], bf16> -> tensor<32x128xbf16>
        kda2.store %34, %Us[] : tensor<32x128xbf16>, !kda2.tensor<[32, 128], bf16, smem>
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
        %37 = kda2.load %Us[] : !kda2.tensor<[32, 128], bf16, smem> -> tensor<32x128xbf16>
        %38 = kda2.load %A[] : !kda2.tensor<[128, 128], f32, smem> -> tensor<128x128xf32>
        %39 = kda2.matmul %36, %37 acc(%38) {transpose_a} : tensor<32x128xbf16>, tensor<32x128xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
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
