// REQUIRES: ptxas, cuobjdump
// The kernel is @copy of cubin.mlir.
// RUN: kda2-translate %S/cubin.mlir --kda2-to-cubin --dump-asm -o %t.cubin 2>&1 | FileCheck %s
//
// With cuobjdump (or nvdisasm) in the toolkit or on PATH, --dump-asm shows
// the cubin's SASS after the PTX.

// CHECK: ===== kda2-translate --dump-asm: PTX (sm_90a) =====
// CHECK: ===== SASS ({{.*}}) =====
// CHECK: {{LDG|STG}}
