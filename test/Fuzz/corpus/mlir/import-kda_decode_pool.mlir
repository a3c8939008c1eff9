module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_decode_pool(%q: !kda2.tensor<[tt, h, 128], bf16> {kda2.stride = 10 : i64}, %k: !kda2.tensor<[tt, h, 128], bf16> {kda2.stride = 11 : i64}, %v: !kda2.tensor<[tt, h, 64], bf16> {kda2.stride = 12 : i64}, %g: !kda2.tensor<[tt, h, 128], f32> {kda2.stride = 13 : i64}, %beta: !kda2.tensor<[tt, h], f32> {kda2.stride = 14 : i64}, %cu_seqlens: !kda2.tensor<[np1], i32>, %state_indices: !kda2.tensor<[n], i32>, %has_initial_state: !kda2.tensor<[n], i32>, %pool: !kda2.tensor<[slots, h, 64, 128], bf16> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<vk>}, %scale: f32, %sq: i64, %sk: i64, %sv: i64, %sg: i64, %sb: i64, %o: !kda2.tensor<[tt, h, 64], bf16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["q", "k", "v", "g", "beta", "cu_seqlens", "state_indices", "has_initial_state", "pool", "scale", "sq", "sk", "sv", "sg", "sb", "o"], grid = ["n", "h"], kda2.bindings = {K = 128 : i64, LANES = 4 : i64, NVB = 2 : i64, V = 64 : i64, VB = 32 : i64}} {
    kda2.gmem %q layout(row_major) packing(none) : !kda2.tensor<[tt, h, 128], bf16>
    kda2.gmem %k layout(row_major) packing(none) : !kda2.tensor<[tt, h, 128], bf16>
    kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[tt, h, 64], bf16>
    kda2.gmem %g layout(row_major) packing(none) : !kda2.tensor<[tt, h, 128], f32>
    kda2.gmem %beta layout(row_major) packing(none) : !kda2.tensor<[tt, h], f32>
    kda2.gmem %o, %cu_seqlens layout(row_major) packing(none) : !kda2.tensor<[tt, h, 64], bf16>, !kda2.tensor<[np1], i32>
    kda2.gmem %state_indices, %has_initial_state layout(row_major) packing(none) : !kda2.tensor<[n], i32>, !kda2.tensor<[n], i32>
    kda2.gmem %pool layout(KV) packing(none) : !kda2.tensor<[slots, h, 64, 128], bf16>
    %s = kda2.reg_alloc : !kda2.tensor<[128], f32, reg>
    %c2 = arith.constant 2 : index
    kda2.loop block %vb to %c2 {
      %c32 = arith.constant 32 : index
      kda2.loop thread %j to %c32 lanes(4) annotations [#kda2.coalesced_access<>] {
        %c32_0 = arith.constant 32 : index
        %0 = kda2.mul %vb, %c32_0 : index, index -> index
        %1 = kda2.add %0, %j : index, index -> index
        %2 = kda2.grid_index "n" : index
        %3 = kda2.grid_index "h" : index
        %4 = kda2.load %cu_seqlens[%2] : !kda2.tensor<[np1], i32> -> i32
        %c1 = arith.constant 1 : index
        %5 = kda2.add %2, %c1 : index, index -> index
        %6 = kda2.load %cu_seqlens[%5] : !kda2.tensor<[np1], i32> -> i32
        %7 = kda2.load %state_indices[] : !kda2.tensor<[n], i32> -> i32
        %c0_i32 = arith.constant 0 : i32
        %8 = kda2.cmp ge %7, %c0_i32 : i32, i32 -> i1
        %9 = kda2.dim "slots" : index
        %10 = kda2.cast %7 : i32 -> index
        %11 = kda2.cmp lt %10, %9 : index, index -> i1
        %false = arith.constant false
        %12 = kda2.select %8, %11, %false : i1, i1, i1 -> i1
        kda2.if %12 {
          %13 = kda2.load %has_initial_state[] : !kda2.tensor<[n], i32> -> i32
          %c0_i32_1 = arith.constant 0 : i32
          %14 = kda2.cmp ne %13, %c0_i32_1 : i32, i32 -> i1
          %15 = kda2.cast %7 : i32 -> index
          %16 = kda2.load %pool[%15, %3, %1] : !kda2.tensor<[slots, h, 64, 128], bf16> -> tensor<128xbf16>
          %cst = arith.constant 0.000000e+00 : f32
          %17 = kda2.cast %16 : tensor<128xbf16> -> tensor<128xf32>
          %18 = kda2.select %14, %17, %cst : i1, tensor<128xf32>, f32 -> tensor<128xf32>
          kda2.store %18, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
          %19 = kda2.sub %6, %4 : i32, i32 -> i32
          %20 = kda2.cast %19 : i32 -> index
          kda2.loop serial %i to %20 {
            %24 = kda2.cast %4 : i32 -> index
            %25 = kda2.add %24, %i : index, index -> index
            %26 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
            %27 = kda2.load %g[%25, %3] : !kda2.tensor<[tt, h, 128], f32> -> tensor<128xf32>
            %28 = kda2.exp %27 : tensor<128xf32>
            %29 = kda2.mul %26, %28 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %30 = kda2.load %k[%25, %3] : !kda2.tensor<[tt, h, 128], bf16> -> tensor<128xbf16>
            %31 = kda2.load %v[%25, %3, %1] : !kda2.tensor<[tt, h, 64], bf16> -> bf16
            %32 = kda2.cast %30 : tensor<128xbf16> -> tensor<128xf32>
            %33 = kda2.mul %32, %29 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %34 = kda2.reduce sum %33 : tensor<128xf32> -> f32
            %35 = kda2.cast %31 : bf16 -> f32
            %36 = kda2.sub %35, %34 : f32, f32 -> f32
            %37 = kda2.load %beta[%25, %3] : !kda2.tensor<[tt, h], f32> -> f32
            %38 = kda2.mul %36, %37 : f32, f32 -> f32
            %39 = kda2.cast %30 : tensor<128xbf16> -> tensor<128xf32>
            %40 = kda2.mul %39, %38 : tensor<128xf32>, f32 -> tensor<128xf32>
            %41 = kda2.add %29, %40 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            kda2.store %41, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
            %42 = kda2.load %q[%25, %3] : !kda2.tensor<[tt, h, 128], bf16> -> tensor<128xbf16>
            %43 = kda2.cast %42 : tensor<128xbf16> -> tensor<128xf32>
            %44 = kda2.mul %43, %41 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %45 = kda2.reduce sum %44 : tensor<128xf32> -> f32
            %46 = kda2.mul %45, %scale : f32, f32 -> f32
            %47 = kda2.cast %46 : f32 -> bf16
            kda2.store %47, %o[%25, %3, %1] : bf16, !kda2.tensor<[tt, h, 64], bf16>
          }
          %21 = kda2.cast %7 : i32 -> index
          %22 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
          %23 = kda2.cast %22 : tensor<128xf32> -> tensor<128xbf16>
          kda2.store %23, %pool[%21, %3, %1] : tensor<128xbf16>, !kda2.tensor<[slots, h, 64, 128], bf16>
        } else {
          %13 = kda2.sub %6, %4 : i32, i32 -> i32
          %14 = kda2.cast %13 : i32 -> index
          kda2.loop serial %i to %14 {
            %15 = kda2.cast %4 : i32 -> index
            %16 = kda2.add %15, %i : index, index -> index
            %cst = arith.constant 0.000000e+00 : bf16
            kda2.store %cst, %o[%16, %3, %1] : bf16, !kda2.tensor<[tt, h, 64], bf16>
          }
        }
      }
    }
    kda2.return
  }
}
