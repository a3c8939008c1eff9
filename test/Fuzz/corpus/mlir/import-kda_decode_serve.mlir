module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_decode_serve(%q: !kda2.tensor<[tt, hqk, 128], bf16> {kda2.stride = 13 : i64}, %k: !kda2.tensor<[tt, hqk, 128], bf16> {kda2.stride = 14 : i64}, %v: !kda2.tensor<[tt, hv, 128], bf16> {kda2.stride = 15 : i64}, %a: !kda2.tensor<[tt, hv, 128], f32> {kda2.stride = 16 : i64}, %b: !kda2.tensor<[tt, hv], f32> {kda2.stride = 17 : i64}, %A_log: !kda2.tensor<[hv], f32>, %dt_bias: !kda2.tensor<[hv, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %pool: !kda2.tensor<[slots, hv, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %scale: f32, %lower_bound: f32, %sq: i64, %sk: i64, %sv: i64, %sa: i64, %sb: i64, %o: !kda2.tensor<[tt, hv, 128], bf16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["q", "k", "v", "a", "b", "A_log", "dt_bias", "cu_seqlens", "state_indices", "has_initial_state", "pool", "scale", "lower_bound", "sq", "sk", "sv", "sa", "sb", "o"], grid = ["n", "hv"], kda2.bindings = {BS = 1 : i64, GF = 2 : i64, K = 128 : i64, LANES = 4 : i64, NVB = 4 : i64, QKN = 1 : i64, V = 128 : i64, VB = 32 : i64}} {
    kda2.gmem %q layout(row_major) packing(none) : !kda2.tensor<[tt, hqk, 128], bf16>
    kda2.gmem %k layout(row_major) packing(none) : !kda2.tensor<[tt, hqk, 128], bf16>
    kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[tt, hv, 128], bf16>
    kda2.gmem %a layout(row_major) packing(none) : !kda2.tensor<[tt, hv, 128], f32>
    kda2.gmem %b layout(row_major) packing(none) : !kda2.tensor<[tt, hv], f32>
    kda2.gmem %o, %A_log, %dt_bias layout(row_major) packing(none) : !kda2.tensor<[tt, hv, 128], bf16>, !kda2.tensor<[hv], f32>, !kda2.tensor<[hv, 128], f32>
    kda2.gmem %cu_seqlens, %state_indices, %has_initial_state layout(row_major) packing(none) : !kda2.tensor<[np1], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>
    kda2.gmem %pool layout(VK) packing(none) : !kda2.tensor<[slots, hv, 128, 128], f32>
    %s = kda2.reg_alloc : !kda2.tensor<[128], f32, reg>
    %c4 = arith.constant 4 : index
    kda2.loop block %vb to %c4 {
      %c32 = arith.constant 32 : index
      kda2.loop thread %j to %c32 lanes(4) annotations [#kda2.coalesced_access<>] {
        %c32_0 = arith.constant 32 : index
        %0 = kda2.mul %vb, %c32_0 : index, index -> index
        %1 = kda2.add %0, %j : index, index -> index
        %2 = kda2.grid_index "n" : index
        %3 = kda2.grid_index "hv" : index
        %4 = kda2.dim "hqk" : index
        %5 = kda2.mul %3, %4 : index, index -> index
        %6 = kda2.dim "hv" : index
        %7 = kda2.div %5, %6 : index, index -> index
        %8 = kda2.load %cu_seqlens[%2] : !kda2.tensor<[np1], i32> -> i32
        %c1 = arith.constant 1 : index
        %9 = kda2.add %2, %c1 : index, index -> index
        %10 = kda2.load %cu_seqlens[%9] : !kda2.tensor<[np1], i32> -> i32
        %11 = kda2.load %state_indices[] : !kda2.tensor<[n], i32> -> i32
        %c0_i32 = arith.constant 0 : i32
        %12 = kda2.cmp ge %11, %c0_i32 : i32, i32 -> i1
        %13 = kda2.dim "slots" : index
        %14 = kda2.cast %11 : i32 -> index
        %15 = kda2.cmp lt %14, %13 : index, index -> i1
        %false = arith.constant false
        %16 = kda2.select %12, %15, %false : i1, i1, i1 -> i1
        kda2.if %16 {
          %17 = kda2.load %has_initial_state[] : !kda2.tensor<[n], i32> -> i32
          %c0_i32_1 = arith.constant 0 : i32
          %18 = kda2.cmp ne %17, %c0_i32_1 : i32, i32 -> i1
          %19 = kda2.cast %11 : i32 -> index
          %20 = kda2.load %pool[%19, %3, %1] : !kda2.tensor<[slots, hv, 128, 128], f32> -> tensor<128xf32>
          %cst = arith.constant 0.000000e+00 : f32
          %21 = kda2.select %18, %20, %cst : i1, tensor<128xf32>, f32 -> tensor<128xf32>
          kda2.store %21, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
          %22 = kda2.sub %10, %8 : i32, i32 -> i32
          %23 = kda2.cast %22 : i32 -> index
          kda2.loop serial %i to %23 {
            %26 = kda2.cast %8 : i32 -> index
            %27 = kda2.add %26, %i : index, index -> index
            %28 = kda2.load %a[%27, %3] : !kda2.tensor<[tt, hv, 128], f32> -> tensor<128xf32>
            %29 = kda2.load %dt_bias[] : !kda2.tensor<[hv, 128], f32> -> tensor<128xf32>
            %30 = kda2.add %28, %29 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %c2 = arith.constant 2 : index
            %c0 = arith.constant 0 : index
            %31 = kda2.cmp eq %c2, %c0 : index, index -> i1
            %32 = kda2.load %a[%27, %3] : !kda2.tensor<[tt, hv, 128], f32> -> tensor<128xf32>
            %c2_2 = arith.constant 2 : index
            %c1_3 = arith.constant 1 : index
            %33 = kda2.cmp eq %c2_2, %c1_3 : index, index -> i1
            %34 = kda2.load %A_log[] : !kda2.tensor<[hv], f32> -> f32
            %35 = kda2.exp %34 : f32
            %36 = kda2.mul %35, %30 : f32, tensor<128xf32> -> tensor<128xf32>
            %37 = kda2.sigmoid %36 : tensor<128xf32>
            %38 = kda2.mul %37, %lower_bound : tensor<128xf32>, f32 -> tensor<128xf32>
            %39 = kda2.load %A_log[] : !kda2.tensor<[hv], f32> -> f32
            %40 = kda2.exp %39 : f32
            %41 = kda2.softplus %30 : tensor<128xf32>
            %42 = kda2.mul %40, %41 : f32, tensor<128xf32> -> tensor<128xf32>
            %cst_4 = arith.constant 0.000000e+00 : f32
            %43 = kda2.sub %cst_4, %42 : f32, tensor<128xf32> -> tensor<128xf32>
            %44 = kda2.select %33, %38, %43 : i1, tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %45 = kda2.select %31, %32, %44 : i1, tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %46 = kda2.load %q[%27, %7] : !kda2.tensor<[tt, hqk, 128], bf16> -> tensor<128xbf16>
            %47 = kda2.cast %46 : tensor<128xbf16> -> tensor<128xf32>
            %48 = kda2.load %k[%27, %7] : !kda2.tensor<[tt, hqk, 128], bf16> -> tensor<128xbf16>
            %49 = kda2.cast %48 : tensor<128xbf16> -> tensor<128xf32>
            %c1_5 = arith.constant 1 : index
            %c1_6 = arith.constant 1 : index
            %50 = kda2.cmp eq %c1_5, %c1_6 : index, index -> i1
            %51 = kda2.l2norm %47 : tensor<128xf32>
            %52 = kda2.select %50, %51, %47 : i1, tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %c1_7 = arith.constant 1 : index
            %c1_8 = arith.constant 1 : index
            %53 = kda2.cmp eq %c1_7, %c1_8 : index, index -> i1
            %54 = kda2.l2norm %49 : tensor<128xf32>
            %55 = kda2.select %53, %54, %49 : i1, tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %c1_9 = arith.constant 1 : index
            %c1_10 = arith.constant 1 : index
            %56 = kda2.cmp eq %c1_9, %c1_10 : index, index -> i1
            %57 = kda2.load %b[%27, %3] : !kda2.tensor<[tt, hv], f32> -> f32
            %58 = kda2.sigmoid %57 : f32
            %59 = kda2.load %b[%27, %3] : !kda2.tensor<[tt, hv], f32> -> f32
            %60 = kda2.select %56, %58, %59 : i1, f32, f32 -> f32
            %61 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
            %62 = kda2.exp %45 : tensor<128xf32>
            %63 = kda2.mul %61, %62 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %64 = kda2.load %v[%27, %3, %1] : !kda2.tensor<[tt, hv, 128], bf16> -> bf16
            %65 = kda2.cast %64 : bf16 -> f32
            %66 = kda2.mul %55, %63 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %67 = kda2.reduce sum %66 : tensor<128xf32> -> f32
            %68 = kda2.sub %65, %67 : f32, f32 -> f32
            %69 = kda2.mul %68, %60 : f32, f32 -> f32
            %70 = kda2.mul %55, %69 : tensor<128xf32>, f32 -> tensor<128xf32>
            %71 = kda2.add %63, %70 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            kda2.store %71, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
            %72 = kda2.mul %52, %71 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %73 = kda2.reduce sum %72 : tensor<128xf32> -> f32
            %74 = kda2.mul %73, %scale : f32, f32 -> f32
            %75 = kda2.cast %74 : f32 -> bf16
            kda2.store %75, %o[%27, %3, %1] : bf16, !kda2.tensor<[tt, hv, 128], bf16>
          }
          %24 = kda2.cast %11 : i32 -> index
          %25 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
          kda2.store %25, %pool[%24, %3, %1] : tensor<128xf32>, !kda2.tensor<[slots, hv, 128, 128], f32>
        } else {
          %17 = kda2.sub %10, %8 : i32, i32 -> i32
          %18 = kda2.cast %17 : i32 -> index
          kda2.loop serial %i to %18 {
            %19 = kda2.cast %8 : i32 -> index
            %20 = kda2.add %19, %i : index, index -> index
            %cst = arith.constant 0.000000e+00 : bf16
            kda2.store %cst, %o[%20, %3, %1] : bf16, !kda2.tensor<[tt, hv, 128], bf16>
          }
        }
      }
    }
    kda2.return
  }
}
