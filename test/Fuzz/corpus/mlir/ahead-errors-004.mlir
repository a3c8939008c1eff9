// The groups' registers must fit the register file.
kda2.kernel @ah(%v: !kda2.tensor<[g, n, 16, 128], bf16>, %x: !kda2.tensor<[g, n, 16, 128], f32>, %o: !kda2.tensor<[g, n, 16, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["v", "x", "o"], grid = ["g"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v, %x, %o layout(row_major) packing(none) : !kda2.tensor<[g, n, 16, 128], bf16>, !kda2.tensor<[g, n, 16, 128], f32>, !kda2.tensor<[g, n, 16, 128], f32>
  %Vs = kda2.smem_alloc size(4096) : !kda2.tensor<[16, 128], bf16, smem>
  %Xs = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 128], f32, smem>
  %R = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %n = kda2.dim "n" : index
    // expected-error @below {{'kda2.loop' op '@warpgroup_registers' asks for 98304 registers in all (computing 128 x 256, ahead 128 x 256, producer 128 x 256), more than the block's 64512 (168 per thread at launch)}}
    kda2.loop serial %c to %n annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp, #kda2.warpgroup_registers<256, 256, 256>] {
      %t1 = kda2.load %v[%c] : !kda2.tensor<[g, n, 16, 128], bf16> -> tensor<16x128xbf16>
      kda2.store %t1, %Vs[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
      kda2.loop ahead %a to %c1 {
        kda2.loop thread %t to %c128 {
          kda2.loop serial %e to %c16 {
            %2 = kda2.load %x[%c, %e, %t] : !kda2.tensor<[g, n, 16, 128], f32> -> f32
            kda2.store %2, %Xs[%e, %t] : f32, !kda2.tensor<[16, 128], f32, smem>
          }
        }
      }
      kda2.loop thread %t to %c128 {
        kda2.loop serial %e to %c16 {
          %2 = kda2.load %Vs[%e, %t] : !kda2.tensor<[16, 128], bf16, smem> -> bf16
          %3 = kda2.cast %2 : bf16 -> f32
          %4 = kda2.load %Xs[%e, %t] : !kda2.tensor<[16, 128], f32, smem> -> f32
          %5 = kda2.mul %3, %4 : f32, f32 -> f32
          kda2.store %5, %o[%c, %e, %t] : f32, !kda2.tensor<[g, n, 16, 128], f32>
        }
      }
    }
  }
  kda2.return
}
