// Counters are atomic adds into 8-byte slots of the counter buffer (floats
// as f64, integers as i64), in order of appearance. In a thread loop every
// iteration counts; in uniform code only thread 0 does.
// CHECK-LABEL: gpu.func @counters(
// CHECK-SAME: %[[CNT:[^:]*]]: !llvm.ptr<1>)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %[[CNT]][0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f64
// CHECK-NEXT: %[[V64:.*]] = arith.extf %[[V]] : f32 to f64
// CHECK-NEXT: llvm.atomicrmw fadd %[[P0]], %[[V64]] monotonic : !llvm.ptr<1>, f64
// (The guarded block keeps only the atomic: its address and operand are
// computed in front of the guard.)
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : index
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[CNT]][1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT: %[[ONE64:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: llvm.atomicrmw add %[[P1]], %[[ONE64]] monotonic : !llvm.ptr<1>, i64
// CHECK: counter sum f64\0Acounter blocks i64\0Aend
kda2.kernel @counters(%x: !kda2.tensor<[32], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[32], f32>
  %c32 = arith.constant 32 : index
  %c4 = arith.constant 4 : index
  kda2.loop thread %j to %c32 {
    %v = kda2.load %x[%j] : !kda2.tensor<[32], f32> -> f32
    kda2.counter "sum", %v : f32
  }
  kda2.loop block %i to %c4 {
    %c1 = arith.constant 1 : i32
    kda2.counter "blocks", %c1 : i32
  }
  kda2.return
}
