// REQUIRES: ptxas
// RUN: kda2-translate %s --kda2-to-cubin --kda2-chip=sm_90a -o %t.sm90a.cubin
// RUN: od -c -N 4 %t.sm90a.cubin | FileCheck %s
// RUN: kda2-translate %s --kda2-to-cubin --kda2-chip=sm_80 -o %t.sm80.cubin
// RUN: od -c -N 4 %t.sm80.cubin | FileCheck %s
// RUN: kda2-translate %s --kda2-to-cubin --kda2-chip=sm_80 --kda2-opt-level=0 -o %t.sm80-O0.cubin
// RUN: od -c -N 4 %t.sm80-O0.cubin | FileCheck %s
//
// kda2-translate --kda2-to-cubin runs ptxas (found in $CUDA_HOME/bin,
// /usr/local/cuda/bin or on PATH) on the PTX of kda2-lower-to-nvvm-pipeline
// and writes the cubin, an ELF file. The kernel uses no math function, so
// it does not need libdevice.

// CHECK: 0000000 177   E   L   F{{$}}
kda2.kernel @copy(%x: !kda2.tensor<[n, 32], f32>,
                  %y: !kda2.tensor<[n, 32], f32> {kda2.io = #kda2.io<out>})
    attributes {grid = ["n"]} {
  kda2.gmem %x, %y layout(row_major) packing(none)
      : !kda2.tensor<[n, 32], f32>, !kda2.tensor<[n, 32], f32>
  %c32 = arith.constant 32 : index
  kda2.loop thread %j to %c32 annotations [#kda2.coalesced_access<>] {
    %v = kda2.load %x[%j] : !kda2.tensor<[n, 32], f32> -> f32
    kda2.store %v, %y[%j] : f32, !kda2.tensor<[n, 32], f32>
  }
  kda2.return
}
