// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="grid=1" | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's/^name: H200-SXM/name: inorder/' %kda2_src/profiles/H200-SXM.yaml > %t/inorder.yaml
// RUN: printf 'simulator:\n  list_schedule: false\n' >> %t/inorder.yaml
// RUN: kda2-opt %s -o /dev/null --kda2-test-simulator="grid=1 profile=inorder profile-file=%t/inorder.yaml" \
// RUN:   | FileCheck %s --check-prefix=OFF
// List scheduling (docs/Simulator.md): one warp runs sixteen independent
// chains, each a shared-memory load and two operations on its value, written
// load, use, use, load, ... in one basic block. ptxas issues the sixteen loads
// first and then their uses, so the warp waits for shared memory about once
// (190 warp-cycles of memory stalls, under 300); issued in the IR's order it
// waits once per chain (with `list_schedule: false`: 464, over 400).

// CHECK-LABEL: simulator: @chains
// CHECK: stalls (warp-cycles, simulated SM): dependency {{[0-9]+}}, memory {{([0-9]|[0-9][0-9]|[12][0-9][0-9])}},
// OFF-LABEL: simulator: @chains
// OFF: stalls (warp-cycles, simulated SM): dependency {{[0-9]+}}, memory {{([4-9][0-9][0-9]|[0-9][0-9][0-9][0-9]+)}},

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @chains(%out: !llvm.ptr<1>, %x: f32) workgroup(%buf : memref<16x32xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %c10 = arith.constant 10 : index
      %c11 = arith.constant 11 : index
      %c12 = arith.constant 12 : index
      %c13 = arith.constant 13 : index
      %c14 = arith.constant 14 : index
      %c15 = arith.constant 15 : index
      %c32 = arith.constant 32 : index
      %lane = arith.remui %tid, %c32 : index
      %v0 = memref.load %buf[%c0, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m0 = arith.mulf %v0, %x : f32
      %t0 = arith.addf %m0, %x : f32
      %v1 = memref.load %buf[%c1, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m1 = arith.mulf %v1, %x : f32
      %t1 = arith.addf %m1, %x : f32
      %v2 = memref.load %buf[%c2, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m2 = arith.mulf %v2, %x : f32
      %t2 = arith.addf %m2, %x : f32
      %v3 = memref.load %buf[%c3, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m3 = arith.mulf %v3, %x : f32
      %t3 = arith.addf %m3, %x : f32
      %v4 = memref.load %buf[%c4, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m4 = arith.mulf %v4, %x : f32
      %t4 = arith.addf %m4, %x : f32
      %v5 = memref.load %buf[%c5, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m5 = arith.mulf %v5, %x : f32
      %t5 = arith.addf %m5, %x : f32
      %v6 = memref.load %buf[%c6, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m6 = arith.mulf %v6, %x : f32
      %t6 = arith.addf %m6, %x : f32
      %v7 = memref.load %buf[%c7, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m7 = arith.mulf %v7, %x : f32
      %t7 = arith.addf %m7, %x : f32
      %v8 = memref.load %buf[%c8, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m8 = arith.mulf %v8, %x : f32
      %t8 = arith.addf %m8, %x : f32
      %v9 = memref.load %buf[%c9, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m9 = arith.mulf %v9, %x : f32
      %t9 = arith.addf %m9, %x : f32
      %v10 = memref.load %buf[%c10, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m10 = arith.mulf %v10, %x : f32
      %t10 = arith.addf %m10, %x : f32
      %v11 = memref.load %buf[%c11, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m11 = arith.mulf %v11, %x : f32
      %t11 = arith.addf %m11, %x : f32
      %v12 = memref.load %buf[%c12, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m12 = arith.mulf %v12, %x : f32
      %t12 = arith.addf %m12, %x : f32
      %v13 = memref.load %buf[%c13, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m13 = arith.mulf %v13, %x : f32
      %t13 = arith.addf %m13, %x : f32
      %v14 = memref.load %buf[%c14, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m14 = arith.mulf %v14, %x : f32
      %t14 = arith.addf %m14, %x : f32
      %v15 = memref.load %buf[%c15, %lane] : memref<16x32xf32, #gpu.address_space<workgroup>>
      %m15 = arith.mulf %v15, %x : f32
      %t15 = arith.addf %m15, %x : f32
      %r0 = arith.addf %t0, %t1 : f32
      %r1 = arith.addf %t2, %t3 : f32
      %r2 = arith.addf %t4, %t5 : f32
      %r3 = arith.addf %t6, %t7 : f32
      %r4 = arith.addf %t8, %t9 : f32
      %r5 = arith.addf %t10, %t11 : f32
      %r6 = arith.addf %t12, %t13 : f32
      %r7 = arith.addf %t14, %t15 : f32
      %r8 = arith.addf %r0, %r1 : f32
      %r9 = arith.addf %r2, %r3 : f32
      %r10 = arith.addf %r4, %r5 : f32
      %r11 = arith.addf %r6, %r7 : f32
      %r12 = arith.addf %r8, %r9 : f32
      %r13 = arith.addf %r10, %r11 : f32
      %r14 = arith.addf %r12, %r13 : f32
      %ti = arith.index_cast %tid : index to i64
      %a = llvm.getelementptr %out[%ti] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      llvm.store %r14, %a : f32, !llvm.ptr<1>
      gpu.return
    }
  }
}
