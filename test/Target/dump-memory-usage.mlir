// REQUIRES: ptxas
// The kernel is @copy of cubin.mlir.
// RUN: kda2-translate %S/cubin.mlir --kda2-to-cubin --dump-memory-usage -o %t.cubin 2>&1 | FileCheck %s
// RUN: kda2-translate %kda2_src/test/Conversion/KDA2ToGPU/dynamic-shared.mlir --kda2-to-cubin --dump-memory-usage -o %t.dyn.cubin 2>&1 | FileCheck %s --check-prefix=DYN
//
// --dump-memory-usage prints, per kernel of the cubin, ptxas's registers,
// static shared memory, stack and spills, and the dynamic shared memory of
// the kernel's launch metadata (the `smem` line).

// CHECK: ===== kda2-translate --dump-memory-usage (sm_90a, from ptxas -v and the kernel metadata) =====
// CHECK-NEXT: kernel copy: registers {{[1-9][0-9]*}}, shared memory 0 bytes static + 0 bytes dynamic, stack 0 bytes, spill stores 0 bytes, spill loads 0 bytes

// DYN: kernel {{.*}}: registers {{[0-9]+}}, shared memory {{[0-9]+}} bytes static + {{[1-9][0-9]*}} bytes dynamic, stack
