// The hardware profile of a module is chosen by --kda2-attach-target; after
// the pass the verifier holds the kernel to that profile. The kernel below
// declares 192 KB of shared memory: within H200-SXM's 227 KB per block,
// beyond A100-40GB-SXM4's 163 KB.

// RUN: kda2-opt %s --kda2-attach-target="profile=H200-SXM" | FileCheck %s --check-prefix=H200
// RUN: not kda2-opt %s --kda2-attach-target="profile=A100-40GB-SXM4" 2>&1 | FileCheck %s --check-prefix=A100

// The default profile is H200-SXM.
// RUN: kda2-opt %s --kda2-attach-target | FileCheck %s --check-prefix=H200

// An unknown profile is an error that lists the known ones.
// RUN: kda2-opt %s --kda2-attach-target="profile=B200" --verify-diagnostics

// profile-file registers a custom profile (name = file stem) before the
// lookup; Inputs/KDA2-Test-GPU.yaml gives 200 KB per block. Loading the same
// file again (a second pass) is not an error.
// RUN: kda2-opt %s --kda2-attach-target="profile=KDA2-Test-GPU profile-file=%S/Inputs/KDA2-Test-GPU.yaml" | FileCheck %s --check-prefix=CUSTOM
// RUN: kda2-opt %s --kda2-attach-target="profile=KDA2-Test-GPU profile-file=%S/Inputs/KDA2-Test-GPU.yaml" --kda2-attach-target="profile=KDA2-Test-GPU profile-file=%S/Inputs/KDA2-Test-GPU.yaml" | FileCheck %s --check-prefix=CUSTOM

// A malformed profile file gives the YAML parser's located error.
// RUN: not kda2-opt %s --kda2-attach-target="profile=H200-SXM profile-file=%S/Inputs/malformed-profile.yaml" 2>&1 | FileCheck %s --check-prefix=MALFORMED

// A missing profile file.
// RUN: not kda2-opt %s --kda2-attach-target="profile=H200-SXM profile-file=%S/Inputs/no-such-profile.yaml" 2>&1 | FileCheck %s --check-prefix=MISSING

// H200: module attributes {kda2.target = "H200-SXM"}
// H200: kda2.smem_alloc size(196608)

// CUSTOM: module attributes {kda2.target = "KDA2-Test-GPU"}
// CUSTOM: kda2.smem_alloc size(196608)

// MALFORMED: error: {{.*}}Inputs/malformed-profile.yaml:26:77: error: Could not find closing ]!
// MALFORMED-NEXT: - "kda2 test suite: A100-40GB-SXM4 with 200 KB of shared memory per block"
// MALFORMED-NEXT: {{^ +\^$}}

// MISSING: error: {{.*}}Inputs/no-such-profile.yaml: error: cannot read hardware profile: No such file or directory

// expected-error @below {{unknown hardware profile 'B200'; known profiles: A100-40GB-PCIe, A100-40GB-SXM4, A100-80GB-SXM4, H100-SXM, H200-SXM, RTX-4090}}
module {
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  // A100: attach-target.mlir:[[@LINE+1]]:8: error: 'kda2.smem_alloc' op size of 196608 bytes exceeds the shared memory per block of profile 'A100-40GB-SXM4' (166912 bytes)
  %s = kda2.smem_alloc size(196608) : !kda2.tensor<[128, 384], f32, smem>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] {
  }
}
}
