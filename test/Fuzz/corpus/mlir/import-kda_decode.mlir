module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @kda_decode(%q: !kda2.tensor<[n, h, t, 128], bf16>, %k: !kda2.tensor<[n, h, t, 128], bf16>, %v: !kda2.tensor<[n, h, t, 128], bf16>, %g: !kda2.tensor<[n, h, t, 128], f32>, %beta: !kda2.tensor<[n, h, t], f32>, %h0: !kda2.tensor<[n, h, 128, 128], f32> {kda2.state = #kda2.state<kv>}, %scale: f32, %o: !kda2.tensor<[n, h, t, 128], bf16> {kda2.io = #kda2.io<out>}, %ht: !kda2.tensor<[n, h, 128, 128], f32> {kda2.io = #kda2.io<out>, kda2.state = #kda2.state<kv>}) attributes {arg_names = ["q", "k", "v", "g", "beta", "h0", "scale", "o", "ht"], grid = ["n", "h"], kda2.bindings = {K = 128 : i64, V = 128 : i64}} {
    kda2.gmem %q, %k, %v, %g, %o layout(BSHD) packing(none) : !kda2.tensor<[n, h, t, 128], bf16>, !kda2.tensor<[n, h, t, 128], bf16>, !kda2.tensor<[n, h, t, 128], bf16>, !kda2.tensor<[n, h, t, 128], f32>, !kda2.tensor<[n, h, t, 128], bf16>
    kda2.gmem %beta layout(BSH) packing(none) : !kda2.tensor<[n, h, t], f32>
    kda2.gmem %h0, %ht layout(VK) packing(none) : !kda2.tensor<[n, h, 128, 128], f32>, !kda2.tensor<[n, h, 128, 128], f32>
    %s = kda2.reg_alloc : !kda2.tensor<[128], f32, reg>
    %c128 = arith.constant 128 : index
    kda2.loop thread %j to %c128 lanes(4) annotations [#kda2.coalesced_access<>] {
      %0 = kda2.load %h0[%j] : !kda2.tensor<[n, h, 128, 128], f32> -> tensor<128xf32>
      kda2.store %0, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
      %1 = kda2.dim "t" : index
      kda2.loop serial %i to %1 annotations [#kda2.shape_hint<"t", [1]>] {
        %3 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
        %4 = kda2.load %g[%i] : !kda2.tensor<[n, h, t, 128], f32> -> tensor<128xf32>
        %5 = kda2.exp %4 : tensor<128xf32>
        %6 = kda2.mul %3, %5 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
        %7 = kda2.load %k[%i] : !kda2.tensor<[n, h, t, 128], bf16> -> tensor<128xbf16>
        %8 = kda2.load %v[%i, %j] : !kda2.tensor<[n, h, t, 128], bf16> -> bf16
        %9 = kda2.cast %7 : tensor<128xbf16> -> tensor<128xf32>
        %10 = kda2.mul %9, %6 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
        %11 = kda2.reduce sum %10 : tensor<128xf32> -> f32
        %12 = kda2.cast %8 : bf16 -> f32
        %13 = kda2.sub %12, %11 : f32, f32 -> f32
        %14 = kda2.load %beta[%i] : !kda2.tensor<[n, h, t], f32> -> f32
        %15 = kda2.mul %13, %14 : f32, f32 -> f32
        %16 = kda2.cast %7 : tensor<128xbf16> -> tensor<128xf32>
        %17 = kda2.mul %16, %15 : tensor<128xf32>, f32 -> tensor<128xf32>
        %18 = kda2.add %6, %17 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
        kda2.store %18, %s[] : tensor<128xf32>, !kda2.tensor<[128], f32, reg>
        %19 = kda2.load %q[%i] : !kda2.tensor<[n, h, t, 128], bf16> -> tensor<128xbf16>
        %20 = kda2.cast %19 : tensor<128xbf16> -> tensor<128xf32>
        %21 = kda2.mul %20, %18 : tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>
        %22 = kda2.reduce sum %21 : tensor<128xf32> -> f32
        %23 = kda2.mul %22, %scale : f32, f32 -> f32
        %24 = kda2.cast %23 : f32 -> bf16
        kda2.store %24, %o[%i, %j] : bf16, !kda2.tensor<[n, h, t, 128], bf16>
      }
      %2 = kda2.load %s[] : !kda2.tensor<[128], f32, reg> -> tensor<128xf32>
      kda2.store %2, %ht[%j] : tensor<128xf32>, !kda2.tensor<[n, h, 128, 128], f32>
    }
    kda2.return
  }
}
