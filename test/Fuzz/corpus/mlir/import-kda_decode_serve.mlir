module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_decode_serve(%q: !kda2.tensor<[tt, hqk, 128], bf16> {kda2.stride = 13 : i64}, %k: !kda2.tensor<[tt, hqk, 128], bf16> {kda2.stride = 14 : i64}, %v: !kda2.tensor<[tt, hv, 128], bf16> {kda2.stride = 15 : i64}, %a: !kda2.tensor<[tt, hv, 128], f32> {kda2.stride = 16 : i64}, %b: !kda2.tensor<[tt, hv], f32> {kda2.stride = 17 : i64}, %A_log: !kda2.tensor<[hv], f32>, %dt_bias: !kda2.tensor<[hv, 128], f32>, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %pool: !kda2.tensor<[slots, hv, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %scale: f32, %lower_bound: f32, %sq: i64, %sk: i64, %sv: i64, %sa: i64, %sb: i64, %o: !kda2.tensor<[tt, hv, 128], bf16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["q", "k", "v", "a", "b", "A_log", "dt_bias", "cu_seqlens", "state_indices", "has_initial_state", "pool", "scale", "lower_bound", "sq", "sk", "sv", "sa", "sb", "o"], grid = ["n", "hv"], kda2.bindings = {AL = 1 : i64, BS = 1 : i64, DB = 1 : i64, GF = 2 : i64, K = 128 : i64, LANES = 4 : i64, NVB = 4 : i64, QKN = 1 : i64, V = 128 : i64, VB = 32 : i64}} {
    kda2.gmem %q layout(row_major) packing(none) : !kda2.tensor<[tt, hqk, 128], bf16>
    kda2.gmem %k layout(row_major) packing(none) : !kda2.tensor<[tt, hqk, 128], bf16>
    kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[tt, hv, 128], bf16>
    kda2.gmem %a layout(row_major) packing(none) : !kda2.tensor<[tt, hv, 128], f32>
    kda2.gmem %b layout(row_major) packing(none) : !kda2.tensor<[tt, hv], f32>
    kda2.gmem %o, %A_log, %dt_bias layout(row_major) packing(none) : !kda2.tensor<[tt, hv, 128], bf16>, !kda2.tensor<[hv], f32>, !kda2.tensor<[hv, 128], f32>
    kda2.gmem %cu_seqlens, %state_indices, %has_initial_state layout(row_major) packing(none) : !kda2.tensor<[np1], i32>, !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>
    kda2.gmem %pool layout(VK) packing(none) : !kda2.tensor<[slots, hv, 128, 128], f32>
    %Qs = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %Ks = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %Eg = kda2.smem_alloc size(512) : !kda2.tensor<[128], f32, smem>
    %s = kda2.reg_alloc : !kda2.tensor<[128], f32, reg>
    %c4 = arith.constant 4 : index
    kda2.loop block %vb to %c4 {
      %0 = kda2.grid_index "n" : index
      %1 = kda2.grid_index "hv" : index
      %2 = kda2.dim "hqk" : index
      %3 = kda2.mul %1, %2 : index, index -> index
      %4 = kda2.dim "hv" : index
      %5 = kda2.div %3, %4 : index, index -> index
      %6 = kda2.load %cu_seqlens[%0] : !kda2.tensor<[np1], i32> -> i32
      %c1 = arith.constant 1 : index
      %7 = kda2.add %0, %c1 : index, index -> index
      %8 = kda2.load %cu_seqlens[%7] : !kda2.tensor<[np1], i32> -> i32
      %9 = kda2.load %state_indices[] : !kda2.tensor<[n], i32> -> i32
      %c0_i32 = arith.constant 0 : i32
      %10 = kda2.cmp ge %9, %c0_i32 : i32, i32 -> i1
      %11 = kda2.dim "slots" : index
      %12 = kda2.cast %9 : i32 -> index
      %13 = kda2.cmp lt %12, %11 : index, index -> i1
      %false = arith.constant false
      %14 = kda2.select %10, %13, %false : i1, i1, i1 -> i1
      kda2.if %14 {
        %c32 = arith.constant 32 : index
        kda2.loop thread %j to %c32 lanes(4) annotations [#kda2.coalesced_access<>] {
          %17 = kda2.load %has_initial_state[] : !kda2.tensor<[n], i32> -> i32
          %c0_i32_1 = arith.constant 0 : i32
          %18 = kda2.cmp ne %17, %c0_i32_1 : i32, i32 -> i1
          %19 = kda2.cast %9 : i32 -> index
          %c32_2 = arith.constant 32 : index
          %20 = kda2.mul %vb, %c32_2 : index, index -> index
          %21 = kda2.add %20, %j : index, index -> index
          %22 = kda2.load %pool[%19, %1, %21] : !kda2.tensor<[slots, hv, 128, 128], f32> -> tensor<128xf32>
          %cst = arith.constant 0.000000e+00 : f32
          %23 = kda2.select %18, %22, %cst : i1, tensor<128xf32>, f32 -> tensor<128xf32>
          kda2.store %23, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
        }
        %15 = kda2.sub %8, %6 : i32, i32 -> i32
        %16 = kda2.cast %15 : i32 -> index
        kda2.loop serial %i to %16 {
          %17 = kda2.cast %6 : i32 -> index
          %18 = kda2.add %17, %i : index, index -> index
          %c128 = arith.constant 128 : index
          kda2.loop thread %d to %c128 {
            %19 = kda2.load %a[%18, %1, %d] : !kda2.tensor<[tt, hv, 128], f32> -> f32
            %c1_2 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %20 = kda2.cmp eq %c1_2, %c1_3 : index, index -> i1
            %21 = kda2.load %dt_bias[%d] : !kda2.tensor<[hv, 128], f32> -> f32
            %cst = arith.constant 0.000000e+00 : f32
            %22 = kda2.select %20, %21, %cst : i1, f32, f32 -> f32
            %23 = kda2.add %19, %22 : f32, f32 -> f32
            %c1_4 = arith.constant 1 : index
            %c1_5 = arith.constant 1 : index
            %24 = kda2.cmp eq %c1_4, %c1_5 : index, index -> i1
            %25 = kda2.load %A_log[] : !kda2.tensor<[hv], f32> -> f32
            %26 = kda2.exp %25 : f32
            %cst_6 = arith.constant 1.000000e+00 : f32
            %27 = kda2.select %24, %26, %cst_6 : i1, f32, f32 -> f32
            %c2 = arith.constant 2 : index
            %c0 = arith.constant 0 : index
            %28 = kda2.cmp eq %c2, %c0 : index, index -> i1
            %29 = kda2.load %a[%18, %1, %d] : !kda2.tensor<[tt, hv, 128], f32> -> f32
            %c2_7 = arith.constant 2 : index
            %c1_8 = arith.constant 1 : index
            %30 = kda2.cmp eq %c2_7, %c1_8 : index, index -> i1
            %31 = kda2.mul %27, %23 : f32, f32 -> f32
            %32 = kda2.sigmoid %31 : f32
            %33 = kda2.mul %32, %lower_bound : f32, f32 -> f32
            %34 = kda2.softplus %23 : f32
            %35 = kda2.mul %27, %34 : f32, f32 -> f32
            %cst_9 = arith.constant 0.000000e+00 : f32
            %36 = kda2.sub %cst_9, %35 : f32, f32 -> f32
            %37 = kda2.select %30, %33, %36 : i1, f32, f32 -> f32
            %38 = kda2.select %28, %29, %37 : i1, f32, f32 -> f32
            %39 = kda2.exp %38 : f32
            kda2.store %39, %Eg[%d] : f32, !kda2.tensor<[128], f32, smem>
            %40 = kda2.load %q[%18, %5, %d] : !kda2.tensor<[tt, hqk, 128], bf16> -> bf16
            %41 = kda2.cast %40 : bf16 -> f32
            kda2.store %41, %Qs[%d] : f32, !kda2.tensor<[128], f32, smem>
            %42 = kda2.load %k[%18, %5, %d] : !kda2.tensor<[tt, hqk, 128], bf16> -> bf16
            %43 = kda2.cast %42 : bf16 -> f32
            kda2.store %43, %Ks[%d] : f32, !kda2.tensor<[128], f32, smem>
          }
          %c32_1 = arith.constant 32 : index
          kda2.loop thread %j to %c32_1 lanes(4) annotations [#kda2.coalesced_access<>] {
            %c1_2 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %19 = kda2.cmp eq %c1_2, %c1_3 : index, index -> i1
            %20 = kda2.load %Qs[] : !kda2.tensor<[128], f32, smem> -> tensor<128xf32>
            %21 = kda2.l2norm %20 : tensor<128xf32>
            %22 = kda2.load %Qs[] : !kda2.tensor<[128], f32, smem> -> tensor<128xf32>
            %23 = kda2.select %19, %21, %22 : i1, tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %c1_4 = arith.constant 1 : index
            %c1_5 = arith.constant 1 : index
            %24 = kda2.cmp eq %c1_4, %c1_5 : index, index -> i1
            %25 = kda2.load %Ks[] : !kda2.tensor<[128], f32, smem> -> tensor<128xf32>
            %26 = kda2.l2norm %25 : tensor<128xf32>
            %27 = kda2.load %Ks[] : !kda2.tensor<[128], f32, smem> -> tensor<128xf32>
            %28 = kda2.select %24, %26, %27 : i1, tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %c1_6 = arith.constant 1 : index
            %c1_7 = arith.constant 1 : index
            %29 = kda2.cmp eq %c1_6, %c1_7 : index, index -> i1
            %30 = kda2.load %b[%18, %1] : !kda2.tensor<[tt, hv], f32> -> f32
            %31 = kda2.sigmoid %30 : f32
            %32 = kda2.load %b[%18, %1] : !kda2.tensor<[tt, hv], f32> -> f32
            %33 = kda2.select %29, %31, %32 : i1, f32, f32 -> f32
            %34 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
            %35 = kda2.load %Eg[] : !kda2.tensor<[128], f32, smem> -> tensor<128xf32>
            %36 = kda2.mul %34, %35 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %c32_8 = arith.constant 32 : index
            %37 = kda2.mul %vb, %c32_8 : index, index -> index
            %38 = kda2.add %37, %j : index, index -> index
            %39 = kda2.load %v[%18, %1, %38] : !kda2.tensor<[tt, hv, 128], bf16> -> bf16
            %40 = kda2.cast %39 : bf16 -> f32
            %41 = kda2.mul %28, %36 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %42 = kda2.reduce sum %41 : tensor<128xf32> -> f32
            %43 = kda2.sub %40, %42 : f32, f32 -> f32
            %44 = kda2.mul %43, %33 : f32, f32 -> f32
            %45 = kda2.mul %28, %44 : tensor<128xf32>, f32 -> tensor<128xf32>
            %46 = kda2.add %36, %45 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            kda2.store %46, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
            %c32_9 = arith.constant 32 : index
            %47 = kda2.mul %vb, %c32_9 : index, index -> index
            %48 = kda2.add %47, %j : index, index -> index
            %49 = kda2.mul %23, %46 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %50 = kda2.reduce sum %49 : tensor<128xf32> -> f32
            %51 = kda2.mul %50, %scale : f32, f32 -> f32
            %52 = kda2.cast %51 : f32 -> bf16
            kda2.store %52, %o[%18, %1, %48] : bf16, !kda2.tensor<[tt, hv, 128], bf16>
          }
        }
        %c32_0 = arith.constant 32 : index
        kda2.loop thread %j to %c32_0 lanes(4) annotations [#kda2.coalesced_access<>] {
          %17 = kda2.cast %9 : i32 -> index
          %c32_1 = arith.constant 32 : index
          %18 = kda2.mul %vb, %c32_1 : index, index -> index
          %19 = kda2.add %18, %j : index, index -> index
          %20 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
          kda2.store %20, %pool[%17, %1, %19] : tensor<128xf32>, !kda2.tensor<[slots, hv, 128, 128], f32>
        }
      } else {
        %c32 = arith.constant 32 : index
        kda2.loop thread %j to %c32 {
          %15 = kda2.sub %8, %6 : i32, i32 -> i32
          %16 = kda2.cast %15 : i32 -> index
          kda2.loop serial %i to %16 {
            %17 = kda2.cast %6 : i32 -> index
            %18 = kda2.add %17, %i : index, index -> index
            %c32_0 = arith.constant 32 : index
            %19 = kda2.mul %vb, %c32_0 : index, index -> index
            %20 = kda2.add %19, %j : index, index -> index
            %cst = arith.constant 0.000000e+00 : bf16
            kda2.store %cst, %o[%18, %1, %20] : bf16, !kda2.tensor<[tt, hv, 128], bf16>
          }
        }
      }
    }
    kda2.return
  }
}
