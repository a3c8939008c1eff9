// REQUIRES: ptxas
// The kernel is @copy of cubin.mlir.
// RUN: kda2-translate %S/cubin.mlir --kda2-to-cubin --dump-asm --kda2-disassembler=%t.missing -o %t.cubin 2>&1 | FileCheck %s
// RUN: kda2-translate %S/cubin.mlir --kda2-to-cubin --dump-asm --kda2-disassembler=%S/Inputs/fake-cuobjdump -o %t.cubin 2>&1 | FileCheck %s --check-prefix=STANDIN
//
// --dump-asm prints the PTX, then the SASS through cuobjdump or nvdisasm;
// when the disassembler is missing it says so plainly (dump-asm-sass.mlir
// checks the SASS where a disassembler is installed).

// CHECK: ===== kda2-translate --dump-asm: PTX (sm_90a) =====
// CHECK: .target sm_90a
// CHECK: .entry copy(
// CHECK: ===== SASS: not shown: the disassembler '{{.*}}missing' is not an executable =====

// The disassembler runs on the cubin (a stand-in script here).
// STANDIN: ===== SASS ({{.*}}fake-cuobjdump -sass) =====
// STANDIN-NEXT: fake-cuobjdump -sass
// STANDIN-NEXT: cubin of {{[1-9][0-9]*}} bytes
