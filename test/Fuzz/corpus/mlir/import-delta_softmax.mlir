module attributes {kda2.target = "H200-SXM"} {
  kda2.kernel @delta_softmax(%q: !kda2.tensor<[batch, head, seq_q, 64], f16>, %k: !kda2.tensor<[batch, head, seq_k, 64], f16>, %mask: !kda2.tensor<[batch, head, seq_q, seq_k], f16>, %out: !kda2.tensor<[batch, head, seq_q, seq_k], f16> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["q", "k", "mask", "out"], grid = ["batch", "head"], kda2.bindings = {dim = 64 : i64}} {
    kda2.gmem %q, %k, %mask layout(BSHD) packing(none) : !kda2.tensor<[batch, head, seq_q, 64], f16>, !kda2.tensor<[batch, head, seq_k, 64], f16>, !kda2.tensor<[batch, head, seq_q, seq_k], f16>
    %s_mem = kda2.smem_alloc size(131072) : !kda2.tensor<[32, 32], f32, smem>
    %c32 = arith.constant 32 : index
    kda2.loop block %i to %c32 annotations [#kda2.warp_reduce] {
      %c32_1 = arith.constant 32 : index
      kda2.loop thread %j to %c32_1 {
        %0 = kda2.load %q[%i] : !kda2.tensor<[batch, head, seq_q, 64], f16> -> tensor<64xf16>
        %1 = kda2.load %k[%j] : !kda2.tensor<[batch, head, seq_k, 64], f16> -> tensor<64xf16>
        %2 = kda2.mul %0, %1 : tensor<64xf16>, tensor<64xf16> -> tensor<64xf16>
        %3 = kda2.load %mask[%i, %j] : !kda2.tensor<[batch, head, seq_q, seq_k], f16> -> f16
        %4 = kda2.mul %2, %3 : tensor<64xf16>, f16 -> tensor<64xf16>
        %5 = kda2.reduce sum %4 : tensor<64xf16> -> f16
        %6 = kda2.cast %5 : f16 -> f32
        kda2.store %6, %s_mem[%i, %j] : f32, !kda2.tensor<[32, 32], f32, smem>
      }
    }
    %c32_0 = arith.constant 32 : index
    kda2.loop block %i to %c32_0 annotations [#kda2.bank_conflict_free] {
      %0 = kda2.load %s_mem[%i] : !kda2.tensor<[32, 32], f32, smem> -> tensor<32xf32>
      %1 = kda2.reduce max %0 : tensor<32xf32> -> f32
      %2 = kda2.load %s_mem[%i] : !kda2.tensor<[32, 32], f32, smem> -> tensor<32xf32>
      %3 = kda2.sub %2, %1 : tensor<32xf32>, f32 -> tensor<32xf32>
      %4 = kda2.exp %3 : tensor<32xf32>
      %5 = kda2.reduce sum %4 : tensor<32xf32> -> f32
      %c32_1 = arith.constant 32 : index
      kda2.loop thread %j to %c32_1 {
        %6 = kda2.load %s_mem[%i, %j] : !kda2.tensor<[32, 32], f32, smem> -> f32
        %7 = kda2.sub %6, %1 : f32, f32 -> f32
        %8 = kda2.exp %7 : f32
        %9 = kda2.div %8, %5 : f32, f32 -> f32
        %10 = kda2.cast %9 : f32 -> f16
        kda2.store %10, %out[%i, %j] : f16, !kda2.tensor<[batch, head, seq_q, seq_k], f16>
      }
    }
    kda2.return
  }
}
