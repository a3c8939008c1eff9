// RUN: kda2-opt %s --split-input-file --verify-diagnostics -o /dev/null --kda2-test-simulator="shapes=n=4"
// RUN: not kda2-opt %s --split-input-file -o /dev/null --kda2-test-simulator="profile=H900" 2>&1 | FileCheck %s --check-prefix=PROFILE
// RUN: not kda2-opt %s --split-input-file -o /dev/null --kda2-test-simulator="shapes=n4" 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not kda2-opt %s --split-input-file -o /dev/null --kda2-test-simulator="shapes=n=-3" 2>&1 | FileCheck %s --check-prefix=SHAPE-NEG
// RUN: not kda2-opt %s --split-input-file -o /dev/null --kda2-test-simulator="shapes=n=4 data=cu_seqlens=0/x" 2>&1 | FileCheck %s --check-prefix=DATA
// RUN: not kda2-opt %s --split-input-file -o /dev/null --kda2-test-simulator="shapes=n=4,h=2 data=lens=0/4" 2>&1 | FileCheck %s --check-prefix=DATA-NAME
// Launch errors are located at the kernel; option errors at the module.

// PROFILE: error: unknown hardware profile 'H900'; known profiles: A100-40GB-PCIe,
// SHAPE: error: malformed shape binding 'n4'; expected name=size with a non-negative integer size
// SHAPE-NEG: error: malformed shape binding 'n=-3'
// DATA: error: malformed data binding 'cu_seqlens=0/x'; expected name=v0/v1/... with integers
// DATA-NAME: error: data given for 'lens', which is not a tensor or scalar parameter of kernel

// The metadata's grid.y names `h`, which no shape binds.
module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @below {{missing size of dimension 'h' (used by grid.y of kernel 'missing_size'); bind it with shapes=h=<size>}}
    gpu.func @missing_size(%n: i64) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
    llvm.mlir.global external constant @__kda2_meta_missing_size("kda2-kernel-v1\0Aname missing_size\0Ablock 32 1 1\0Agrid.x n\0Agrid.y n h\0Aarg dim n\0Aend\0A\00") {addr_space = 1 : i32}
  }
}

// -----

// 300 KB of shared memory: more than an H200 CTA may use.
module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @below {{kernel 'too_much_smem' needs 307200 bytes of shared memory per CTA; H200-SXM allows 232448 (occupancy 0)}}
    gpu.func @too_much_smem() workgroup(%buf : memref<76800xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      gpu.return
    }
    llvm.mlir.global external constant @__kda2_meta_too_much_smem("kda2-kernel-v1\0Aname too_much_smem\0Ablock 128 1 1\0Agrid.x 1\0Aend\0A\00") {addr_space = 1 : i32}
  }
}

// -----

// No launch metadata and no grid= option.
module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @below {{kernel 'no_grid' has no launch metadata; pass its grid with grid=x,y,z}}
    gpu.func @no_grid() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// Ops the model does not know are counted as ALU instructions, with a remark.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @unknown_op(%x: i32) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      // expected-remark @below {{simulator: 'nvvm.redux.sync' is not modelled; counted as one ALU instruction}}
      %r = nvvm.redux.sync add %x, %x : i32 -> i32
      gpu.return
    }
    llvm.mlir.global external constant @__kda2_meta_unknown_op("kda2-kernel-v1\0Aname unknown_op\0Ablock 32 1 1\0Agrid.x 1\0Aarg scalar x i32\0Aend\0A\00") {addr_space = 1 : i32}
  }
}
