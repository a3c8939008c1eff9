// RUN: not kda2-translate %s --kda2-to-ptx --kda2-chip=sm_100 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not kda2-translate %s --kda2-to-cubin --kda2-chip=sm_70 2>&1 | FileCheck %s --check-prefix=CHIP70
// RUN: not kda2-translate %s --kda2-to-ptx --kda2-opt-level=5 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not kda2-translate %S/Inputs/no-kernel.mlir --kda2-to-ptx 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// RUN: not kda2-translate %s --no-implicit-module --kda2-to-ptx 2>&1 | FileCheck %s --check-prefix=MODULE
// RUN: not kda2-translate %s --kda2-to-cubin --kda2-ptxas=/nonexistent 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: printf '#!/bin/sh\necho "fake-ptxas: rejected" >&2\nexit 3\n' > %t.ptxas
// RUN: chmod +x %t.ptxas
// RUN: not kda2-translate %s --kda2-to-cubin --kda2-ptxas=%t.ptxas 2>&1 | FileCheck %s --check-prefix=PTXASFAIL
//
// The errors of kda2-translate --kda2-to-ptx / --kda2-to-cubin
// (lib/Target/PTX.cpp). The kernel below compiles; each RUN line breaks
// one option. The errors are located at the (implicit) module.
//
// Not tested: "cannot create temporary files for ptxas", "cannot write
// <file>" and "cannot read the cubin ptxas wrote" need a failing file
// system.

// CHIP: error: unsupported chip 'sm_100'; expected sm_80, sm_86, sm_89, sm_90 or sm_90a
// CHIP-NOT: .entry

// CHIP70: error: unsupported chip 'sm_70'; expected sm_80, sm_86, sm_89, sm_90 or sm_90a

// OPT: error: optimisation level must be 0-3, got 5
// OPT-NOT: .entry

// NOKERNEL: no-kernel.mlir:2:1: error: the module holds no kda2 kernel to compile

// With --no-implicit-module the top-level op is the kernel itself.
// MODULE: errors.mlir:[[@LINE+6]]:1: error: expected a builtin.module

// NOPTXAS: error: ptxas not found: install the CUDA toolkit, set CUDA_HOME, or pass --kda2-ptxas=<path>

// PTXASFAIL: error: ptxas failed (exit 3)
// PTXASFAIL-NEXT: fake-ptxas: rejected
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
