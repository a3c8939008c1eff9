module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_decode_spec(%q: !kda2.tensor<[n, t, h, 128], bf16> {kda2.stride = 10 : i64}, %k: !kda2.tensor<[n, t, h, 128], bf16> {kda2.stride = 11 : i64}, %v: !kda2.tensor<[n, t, h, 128], bf16> {kda2.stride = 12 : i64}, %g: !kda2.tensor<[n, t, h, 128], f32> {kda2.stride = 13 : i64}, %beta: !kda2.tensor<[n, t, h], f32> {kda2.stride = 14 : i64}, %state_indices: !kda2.tensor<[n, t], i32>, %num_accepted: !kda2.tensor<[n], i32>, %pool: !kda2.tensor<[slots, h, 128, 128], f32> {kda2.io = #kda2.io<inout>, kda2.state = #kda2.state<kv>}, %scale: f32, %write_states: i32, %sq: i64, %sk: i64, %sv: i64, %sg: i64, %sb: i64, %o: !kda2.tensor<[n, t, h, 128], bf16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["q", "k", "v", "g", "beta", "state_indices", "num_accepted", "pool", "scale", "write_states", "sq", "sk", "sv", "sg", "sb", "o"], grid = ["n", "h"], kda2.bindings = {K = 128 : i64, LANES = 4 : i64, NVB = 4 : i64, V = 128 : i64, VB = 32 : i64}} {
    kda2.gmem %q layout(row_major) packing(none) : !kda2.tensor<[n, t, h, 128], bf16>
    kda2.gmem %k layout(row_major) packing(none) : !kda2.tensor<[n, t, h, 128], bf16>
    kda2.gmem %v layout(row_major) packing(none) : !kda2.tensor<[n, t, h, 128], bf16>
    kda2.gmem %g layout(row_major) packing(none) : !kda2.tensor<[n, t, h, 128], f32>
    kda2.gmem %beta layout(row_major) packing(none) : !kda2.tensor<[n, t, h], f32>
    kda2.gmem %o, %state_indices, %num_accepted layout(row_major) packing(none) : !kda2.tensor<[n, t, h, 128], bf16>, !kda2.tensor<[n, t], i32>, !kda2.tensor<[n], i32>
    kda2.gmem %pool layout(VK) packing(none) : !kda2.tensor<[slots, h, 128, 128], f32>
    %s = kda2.reg_alloc : !kda2.tensor<[128], f32, reg>
    %c4 = arith.constant 4 : index
    kda2.loop block %vb to %c4 {
      %c32 = arith.constant 32 : index
      kda2.loop thread %j to %c32 lanes(4) annotations [#kda2.coalesced_access<>] {
        %c32_0 = arith.constant 32 : index
        %0 = kda2.mul %vb, %c32_0 : index, index -> index
        %1 = kda2.add %0, %j : index, index -> index
        %2 = kda2.grid_index "h" : index
        %c0 = arith.constant 0 : index
        %3 = kda2.load %state_indices[%c0] : !kda2.tensor<[n, t], i32> -> i32
        %c0_i32 = arith.constant 0 : i32
        %4 = kda2.cmp ge %3, %c0_i32 : i32, i32 -> i1
        kda2.if %4 {
          %5 = kda2.load %num_accepted[] : !kda2.tensor<[n], i32> -> i32
          %c1_i32 = arith.constant 1 : i32
          %6 = kda2.sub %5, %c1_i32 : i32, i32 -> i32
          %c0_i32_1 = arith.constant 0 : i32
          %7 = kda2.max %6, %c0_i32_1 : i32, i32 -> i32
          %8 = kda2.cast %7 : i32 -> index
          %9 = kda2.load %state_indices[%8] : !kda2.tensor<[n, t], i32> -> i32
          %c0_i32_2 = arith.constant 0 : i32
          %10 = kda2.cmp gt %5, %c0_i32_2 : i32, i32 -> i1
          %c0_i32_3 = arith.constant 0 : i32
          %11 = kda2.cmp ge %9, %c0_i32_3 : i32, i32 -> i1
          %false = arith.constant false
          %12 = kda2.select %10, %11, %false : i1, i1, i1 -> i1
          %13 = kda2.dim "slots" : index
          %14 = kda2.cast %9 : i32 -> index
          %15 = kda2.cmp lt %14, %13 : index, index -> i1
          %false_4 = arith.constant false
          %16 = kda2.select %12, %15, %false_4 : i1, i1, i1 -> i1
          %c0_i32_5 = arith.constant 0 : i32
          %17 = kda2.max %9, %c0_i32_5 : i32, i32 -> i32
          %18 = kda2.dim "slots" : index
          %c1 = arith.constant 1 : index
          %19 = kda2.sub %18, %c1 : index, index -> index
          %20 = kda2.cast %17 : i32 -> index
          %21 = kda2.min %20, %19 : index, index -> index
          %22 = kda2.load %pool[%21, %2, %1] : !kda2.tensor<[slots, h, 128, 128], f32> -> tensor<128xf32>
          %cst = arith.constant 0.000000e+00 : f32
          %23 = kda2.select %16, %22, %cst : i1, tensor<128xf32>, f32 -> tensor<128xf32>
          kda2.store %23, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
          %24 = kda2.dim "t" : index
          kda2.loop serial %i to %24 {
            %25 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
            %26 = kda2.load %g[%i, %2] : !kda2.tensor<[n, t, h, 128], f32> -> tensor<128xf32>
            %27 = kda2.exp %26 : tensor<128xf32>
            %28 = kda2.mul %25, %27 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %29 = kda2.load %k[%i, %2] : !kda2.tensor<[n, t, h, 128], bf16> -> tensor<128xbf16>
            %30 = kda2.load %v[%i, %2, %1] : !kda2.tensor<[n, t, h, 128], bf16> -> bf16
            %31 = kda2.cast %29 : tensor<128xbf16> -> tensor<128xf32>
            %32 = kda2.mul %31, %28 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %33 = kda2.reduce sum %32 : tensor<128xf32> -> f32
            %34 = kda2.cast %30 : bf16 -> f32
            %35 = kda2.sub %34, %33 : f32, f32 -> f32
            %36 = kda2.load %beta[%i, %2] : !kda2.tensor<[n, t, h], f32> -> f32
            %37 = kda2.mul %35, %36 : f32, f32 -> f32
            %38 = kda2.cast %29 : tensor<128xbf16> -> tensor<128xf32>
            %39 = kda2.mul %38, %37 : tensor<128xf32>, f32 -> tensor<128xf32>
            %40 = kda2.add %28, %39 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            kda2.store %40, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
            %41 = kda2.load %q[%i, %2] : !kda2.tensor<[n, t, h, 128], bf16> -> tensor<128xbf16>
            %42 = kda2.cast %41 : tensor<128xbf16> -> tensor<128xf32>
            %43 = kda2.mul %42, %40 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
            %44 = kda2.reduce sum %43 : tensor<128xf32> -> f32
            %45 = kda2.mul %44, %scale : f32, f32 -> f32
            %46 = kda2.cast %45 : f32 -> bf16
            kda2.store %46, %o[%i, %2, %1] : bf16, !kda2.tensor<[n, t, h, 128], bf16>
            %47 = kda2.load %state_indices[%i] : !kda2.tensor<[n, t], i32> -> i32
            %c0_i32_6 = arith.constant 0 : i32
            %48 = kda2.cmp ne %write_states, %c0_i32_6 : i32, i32 -> i1
            %c0_i32_7 = arith.constant 0 : i32
            %49 = kda2.cmp ge %47, %c0_i32_7 : i32, i32 -> i1
            %false_8 = arith.constant false
            %50 = kda2.select %48, %49, %false_8 : i1, i1, i1 -> i1
            %51 = kda2.dim "slots" : index
            %52 = kda2.cast %47 : i32 -> index
            %53 = kda2.cmp lt %52, %51 : index, index -> i1
            %false_9 = arith.constant false
            %54 = kda2.select %50, %53, %false_9 : i1, i1, i1 -> i1
            kda2.if %54 {
              %55 = kda2.cast %47 : i32 -> index
              kda2.store %40, %pool[%55, %2, %1] : tensor<128xf32>, !kda2.tensor<[slots, h, 128, 128], f32>
            }
          }
        } else {
          %5 = kda2.dim "t" : index
          kda2.loop serial %i to %5 {
            %cst = arith.constant 0.000000e+00 : bf16
            kda2.store %cst, %o[%i, %2, %1] : bf16, !kda2.tensor<[n, t, h, 128], bf16>
          }
        }
      }
    }
    kda2.return
  }
}
