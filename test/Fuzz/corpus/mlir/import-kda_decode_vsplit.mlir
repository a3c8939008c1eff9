module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_decode_vsplit(%q: !kda2.tensor<[n, h, t, 128], bf16>, %k: !kda2.tensor<[n, h, t, 128], bf16>, %v: !kda2.tensor<[n, h, t, 128], bf16>, %g: !kda2.tensor<[n, h, t, 128], f32>, %beta: !kda2.tensor<[n, h, t], f32>, %h0: !kda2.tensor<[n, h, 128, 128], f32> {kda2.state = #kda2.state<kv>}, %scale: f32, %o: !kda2.tensor<[n, h, t, 128], bf16> {kda2.io = #kda2.io<out>}, %ht: !kda2.tensor<[n, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["q", "k", "v", "g", "beta", "h0", "scale", "o", "ht"], grid = ["n", "h"], kda2.bindings = {K = 128 : i64, LANES = 4 : i64, NVB = 4 : i64, V = 128 : i64, VB = 32 : i64}} {
    kda2.gmem %q, %k, %v, %g, %o layout(BSHD) packing(none) : !kda2.tensor<[n, h, t, 128], bf16>, !kda2.tensor<[n, h, t, 128], bf16>, !kda2.tensor<[n, h, t, 128], bf16>, !kda2.tensor<[n, h, t, 128], f32>, !kda2.tensor<[n, h, t, 128], bf16>
    kda2.gmem %beta layout(BSH) packing(none) : !kda2.tensor<[n, h, t], f32>
    kda2.gmem %h0, %ht layout(VK) packing(none) : !kda2.tensor<[n, h, 128, 128], f32>, !kda2.tensor<[n, h, 128, 128], f32>
    %s = kda2.reg_alloc : !kda2.tensor<[128], f32, reg>
    %c4 = arith.constant 4 : index
    kda2.loop block %vb to %c4 {
      %c32 = arith.constant 32 : index
      kda2.loop thread %j to %c32 lanes(4) annotations [#kda2.coalesced_access<>] {
        %c32_0 = arith.constant 32 : index
        %0 = kda2.mul %vb, %c32_0 : index, index -> index
        %1 = kda2.add %0, %j : index, index -> index
        %2 = kda2.load %h0[%1] : !kda2.tensor<[n, h, 128, 128], f32> -> tensor<128xf32>
        kda2.store %2, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
        %3 = kda2.dim "t" : index
        kda2.loop serial %i to %3 annotations [#kda2.pragma<l2_prefetch>, #kda2.shape_hint<"t", [1]>] {
          %5 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
          %6 = kda2.load %g[%i] : !kda2.tensor<[n, h, t, 128], f32> -> tensor<128xf32>
          %7 = kda2.exp %6 : tensor<128xf32>
          %8 = kda2.mul %5, %7 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
          %9 = kda2.load %k[%i] : !kda2.tensor<[n, h, t, 128], bf16> -> tensor<128xbf16>
          %10 = kda2.load %v[%i, %1] : !kda2.tensor<[n, h, t, 128], bf16> -> bf16
          %11 = kda2.cast %9 : tensor<128xbf16> -> tensor<128xf32>
          %12 = kda2.mul %11, %8 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
          %13 = kda2.reduce sum %12 : tensor<128xf32> -> f32
          %14 = kda2.cast %10 : bf16 -> f32
          %15 = kda2.sub %14, %13 : f32, f32 -> f32
          %16 = kda2.load %beta[%i] : !kda2.tensor<[n, h, t], f32> -> f32
          %17 = kda2.mul %15, %16 : f32, f32 -> f32
          %18 = kda2.cast %9 : tensor<128xbf16> -> tensor<128xf32>
          %19 = kda2.mul %18, %17 : tensor<128xf32>, f32 -> tensor<128xf32>
          %20 = kda2.add %8, %19 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
          kda2.store %20, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
          %21 = kda2.load %q[%i] : !kda2.tensor<[n, h, t, 128], bf16> -> tensor<128xbf16>
          %22 = kda2.cast %21 : tensor<128xbf16> -> tensor<128xf32>
          %23 = kda2.mul %22, %20 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
          %24 = kda2.reduce sum %23 : tensor<128xf32> -> f32
          %25 = kda2.mul %24, %scale : f32, f32 -> f32
          %26 = kda2.cast %25 : f32 -> bf16
          kda2.store %26, %o[%i, %1] : bf16, !kda2.tensor<[n, h, t, 128], bf16>
        }
        %4 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
        kda2.store %4, %ht[%1] : tensor<128xf32>, !kda2.tensor<[n, h, 128, 128], f32>
      }
    }
    kda2.return
  }
}
