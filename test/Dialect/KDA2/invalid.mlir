// RUN: kda2-opt %s --split-input-file --verify-diagnostics
//
// One case per diagnostic of the kda2 dialect (lib/Dialect/KDA2/IR): type,
// attribute and op verifiers, the custom parsers, the kernel rules, the loop
// annotations (the profile-dependent ones under a `kda2.target` module) and
// the dialect attribute checks. Messages that ODS generates (operand type
// constraints, traits) are upstream's and not repeated here.
//
// Not reachable from textual IR, so not tested here:
//  * KDA2TensorType::verify "expected N dimension names, got M" and
//    "named dimension 'x' must be dynamic": the type parser records one name
//    per dimension and makes every named dimension dynamic; only C++ callers
//    of KDA2TensorType::get can produce them.
//  * KDA2Dialect::verifyRegionArgAttribute "'kda2.io' is only valid on
//    kda2.kernel arguments": MLIR verifies argument attributes only for
//    FunctionOpInterface ops, and kda2-opt registers no function-like op
//    other than kda2.kernel (no func dialect).
//  * ShapeHintAttr::verify "shape hint for 'x' lists no values": the
//    generated parser of `#kda2.shape_hint<"x", [...]>` needs at least one
//    value; test/Frontend/TIRx/errors.tirx reaches it from
//    `@shape_hint(x, [])`.

//===----------------------------------------------------------------------===//
// !kda2.tensor
//===----------------------------------------------------------------------===//

// Element type must be an integer or a float.
// expected-error @below {{expected an integer or float element type, got 'index'}}
kda2.kernel @k(%x: !kda2.tensor<[4], index>) {
}

// -----

// A dimension name must be a .tirx identifier (MLIR keywords may hold '.').
// expected-error @below {{dimension name 'a.b' is not an identifier}}
kda2.kernel @k(%x: !kda2.tensor<[a.b], f32>) {
}

// -----

// Static sizes are positive.
// expected-error @below {{dimension #1 has non-positive size 0}}
kda2.kernel @k(%x: !kda2.tensor<[4, 0], f32>) {
}

// -----

// On-chip tensors are static.
// expected-error @below {{a tensor in smem must have a static shape}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32, smem>) {
}

// -----

// Memory space keyword (custom type parser).
// expected-error @below {{expected memory space gmem, smem or reg, got 'shared'}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32, shared>) {
}

// -----

//===----------------------------------------------------------------------===//
// Annotation attribute parameters
//===----------------------------------------------------------------------===//

// A coalescing condition needs a positive modulus.
// expected-error @below {{coalescing condition on 'n' needs a positive modulus, got 0}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.coalesced_access<dim = "n">} {
}

// -----

// A modulus without a dimension.
// expected-error @below {{coalescing modulus 32 given without a dimension}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.coalesced_access<modulus = 32>} {
}

// -----

// A fallback without a condition.
// expected-error @below {{coalescing fallback given without a condition}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.coalesced_access<fallback = scalar>} {
}

// -----

// TMA tile sides in [1, 256].
// expected-error @below {{TMA tile 0x64 must have each side in [1, 256]}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.tma_bound<0 x 64>} {
}

// -----

// A shape hint names a dimension.
// expected-error @below {{shape hint needs a dimension name}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.shape_hint<"", [128]>} {
}

// -----

// Shape hint values are positive.
// expected-error @below {{shape hint for 'n' has non-positive value 0}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.shape_hint<"n", [0, 128]>} {
}

// -----

// Shape hint values strictly increase.
// expected-error @below {{shape hint values for 'n' must be strictly increasing, got 128 after 256}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.shape_hint<"n", [256, 128]>} {
}

// -----

//===----------------------------------------------------------------------===//
// Dialect attributes
//===----------------------------------------------------------------------===//

// kda2.target belongs on a module.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.target' is only valid on a builtin.module}}
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] attributes {kda2.target = "H200-SXM"} {
  }
}

// -----

// kda2.target is a string.
// expected-error @below {{'kda2.target' must be a string naming a hardware profile}}
module attributes {kda2.target = 90 : i64} {
}

// -----

// kda2.target names a known profile.
// expected-error @below {{unknown hardware profile 'B200'; known profiles: A100-40GB-PCIe, A100-40GB-SXM4, A100-80GB-SXM4, H100-SXM, H200-SXM, RTX-4090}}
module attributes {kda2.target = "B200"} {
}

// -----

// kda2.bindings (the integer --tirx-bind values a kernel was built with)
// belongs on a kda2.kernel.
// expected-error @below {{'kda2.bindings' is only valid on a kda2.kernel}}
module attributes {kda2.bindings = {GF = 2 : i64}} {
}

// -----

// kda2.bindings is a dictionary.
// expected-error @below {{'kda2.bindings' must be a dictionary of integers (name -> i64)}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {kda2.bindings = [2]} {
}

// -----

// Every value of kda2.bindings is an integer.
// expected-error @below {{'kda2.bindings' entry 'GF' must be an integer, got "sigmoid"}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {kda2.bindings = {BS = 1 : i64, GF = "sigmoid"}} {
}

// -----

// A float is not an integer binding.
// expected-error @below {{'kda2.bindings' entry 'LB' must be an integer, got 5.000000e+00 : f32}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {kda2.bindings = {LB = 5.0 : f32}} {
}

// -----

// The values fit the metadata's int64.
// expected-error @below {{'kda2.bindings' entry 'N' does not fit in 64 bits}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {kda2.bindings = {N = 18446744073709551616 : i128}} {
}

// -----

// The names follow the metadata's name syntax.
// expected-error @below {{'kda2.bindings' has the bad name '2x' (expected [A-Za-z_$.][A-Za-z0-9_$.]*)}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {kda2.bindings = {"2x" = 1 : i64}} {
}

// -----

// Other kda2.* discardable attributes are rejected.
// expected-error @below {{unknown kda2 attribute 'kda2.arch'}}
module attributes {kda2.arch = "sm_90a"} {
}

// -----

// Other kda2.* argument attributes are rejected.
// expected-error @below {{unknown kda2 argument attribute 'kda2.direction'}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32> {kda2.direction = "out"}) {
}

// -----

// kda2.io holds a #kda2.io attribute.
// expected-error @below {{'kda2.io' of argument #1 must be #kda2.io<in|out|inout>}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>, %y: !kda2.tensor<[4], f32> {kda2.io = "out"}) {
}

// -----

// kda2.stride names an i32 or i64 scalar argument of the kernel.
// expected-error @below {{'kda2.stride' of argument #0 names argument #1, which is not an i32 or i64 scalar}}
kda2.kernel @k(%x: !kda2.tensor<[n, 4], f32> {kda2.stride = 1 : i64}, %s: f32) {
}

// -----

// expected-error @below {{'kda2.stride' of argument #0 names argument #7, which is not an i32 or i64 scalar}}
kda2.kernel @k(%x: !kda2.tensor<[n, 4], f32> {kda2.stride = 7 : i64}) {
}

// -----

// expected-error @below {{'kda2.stride' on argument #1: only a tensor has a stride}}
kda2.kernel @k(%x: !kda2.tensor<[n, 4], f32>, %s: i64 {kda2.stride = 1 : i64}) {
}

// -----

// expected-error @below {{'kda2.stride' of argument #0 must be an integer (the index of the parameter holding the stride) on a kda2.kernel argument}}
kda2.kernel @k(%x: !kda2.tensor<[n, 4], f32> {kda2.stride = "s"}, %s: i64) {
}

// -----

//===----------------------------------------------------------------------===//
// kda2.kernel
//===----------------------------------------------------------------------===//

// A kernel has a body (custom parser; reported where the body should start).
kda2.kernel @k(%x: !kda2.tensor<[4], f32>)
// expected-error @below {{expected a kernel body}}
%c = arith.constant 0 : index

// -----

// Kernels return nothing.
// expected-error @below {{'kda2.kernel' op kernels return no values; outputs are arguments marked {kda2.io = #kda2.io<out>}}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) -> !kda2.tensor<[4], f32> {
}

// -----

// Arguments are kda2 tensors or integer/float scalars.
// expected-error @below {{'kda2.kernel' op argument #1 must be a !kda2.tensor or a scalar, got 'index'}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>, %n: index) {
}

// -----

// Scalar arguments are inputs.
// expected-error @below {{'kda2.kernel' op scalar argument #1 can only be an input}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>, %s: f32 {kda2.io = #kda2.io<out>}) {
}

// -----

// Arguments live in global memory.
// expected-error @below {{'kda2.kernel' op argument #0 must live in gmem, got smem}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32, smem>) {
}

// -----

// Each grid dimension is a dimension of some argument.
// expected-error @below {{'kda2.kernel' op grid dimension 'batch' is not a dimension of any argument (the launch could not know its size)}}
kda2.kernel @k(%x: !kda2.tensor<[n, m], f32>, %y: !kda2.tensor<[n], f32>) attributes {grid = ["batch"]} {
}

// -----

// Computation lives inside schedule loops.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c = arith.constant 1.0 : f32
  // expected-error @below {{'kda2.exp' op is outside a schedule loop; a kernel body holds only layout declarations, schedule loops, named sizes and constants}}
  %e = kda2.exp %c : f32
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] {
  }
}

// -----

// One kda2.gmem per argument.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  // expected-error @below {{'kda2.gmem' op argument #0 is declared by more than one kda2.gmem}}
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] {
  }
}

// -----

// Counter names are unique within a kernel.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    kda2.counter "hits", %i : index
    // expected-error @below {{'kda2.counter' op custom counter 'hits' is defined more than once in the kernel}}
    kda2.counter "hits", %i : index
  }
}

// -----

// A kernel declares a layout.
// expected-error @below {{'kda2.kernel' op has no layout declaration (kda2.gmem, kda2.smem_alloc or kda2.reg_alloc)}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] {
  }
}

// -----

// A kernel has a schedule.
// expected-error @below {{'kda2.kernel' op has no schedule loop (kda2.loop)}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {pragmas = [#kda2.pragma<sm_shuffle>]} {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
}

// -----

// A kernel has a constraint annotation.
// expected-error @below {{'kda2.kernel' op has no constraint annotation}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
  }
}

// -----

// All shared buffers together fit the profile (A100: 163 KB = 166912 bytes).
module attributes {kda2.target = "A100-40GB-SXM4"} {
// expected-error @below {{'kda2.kernel' op shared buffers total 196608 bytes, more than the shared memory per block of profile 'A100-40GB-SXM4' (166912 bytes)}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %a = kda2.smem_alloc size(98304) : !kda2.tensor<[32, 32], f32, smem>
  %b = kda2.smem_alloc size(98304) : !kda2.tensor<[32, 32], f32, smem>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 annotations [#kda2.pragma<l2_prefetch>] {
  }
}
}

// -----

//===----------------------------------------------------------------------===//
// Layout declarations
//===----------------------------------------------------------------------===//

// kda2.gmem names at least one tensor.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  // expected-error @below {{'kda2.gmem' op declares no tensor}}
  "kda2.gmem"() <{layout = 0 : i32, packing = 0 : i32}> : () -> ()
}

// -----

// kda2.gmem declares kernel arguments only.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %s = kda2.smem_alloc size(16) : !kda2.tensor<[4], f32, smem>
  // expected-error @below {{'kda2.gmem' op operands must be kernel arguments}}
  kda2.gmem %s layout(row_major) packing(none) : !kda2.tensor<[4], f32, smem>
}

// -----

// A layout fits the argument's rank.
kda2.kernel @k(%x: !kda2.tensor<[b, h, s], f16>) {
  // expected-error @below {{'kda2.gmem' op layout BSHD does not apply to rank-3 argument #0}}
  kda2.gmem %x layout(BSHD) packing(none) : !kda2.tensor<[b, h, s], f16>
}

// -----

// vnni4 packs 8- or 16-bit elements.
kda2.kernel @k(%x: !kda2.tensor<[n, 64], f32>) {
  // expected-error @below {{'kda2.gmem' op vnni4 packing needs 8- or 16-bit elements, argument #0 has 'f32'}}
  kda2.gmem %x layout(row_major) packing(vnni4) : !kda2.tensor<[n, 64], f32>
}

// -----

// vnni4 packs groups of 4 along the physical innermost dimension (VK swaps
// the last two: here the 6).
kda2.kernel @k(%x: !kda2.tensor<[6, 8], bf16>) {
  // expected-error @below {{'kda2.gmem' op vnni4 packing needs the innermost dimension of argument #0 to be a multiple of 4, got 6}}
  kda2.gmem %x layout(VK) packing(vnni4) : !kda2.tensor<[6, 8], bf16>
}

// -----

// kda2.smem_alloc yields an smem tensor.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  // expected-error @below {{'kda2.smem_alloc' op result must be a tensor in smem}}
  %s = kda2.smem_alloc size(16) : !kda2.tensor<[4], f32, reg>
}

// -----

// The byte budget holds the buffer.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  // expected-error @below {{'kda2.smem_alloc' op buffer of 4096 bytes does not fit its declared size of 1024 bytes}}
  %s = kda2.smem_alloc size(1024) : !kda2.tensor<[32, 32], f32, smem>
}

// -----

// The byte budget fits the profile's shared memory per block.
module attributes {kda2.target = "A100-40GB-SXM4"} {
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  // expected-error @below {{'kda2.smem_alloc' op size of 196608 bytes exceeds the shared memory per block of profile 'A100-40GB-SXM4' (166912 bytes)}}
  %s = kda2.smem_alloc size(196608) : !kda2.tensor<[32, 32], f32, smem>
}
}

// -----

// kda2.reg_alloc yields a reg tensor.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  // expected-error @below {{'kda2.reg_alloc' op result must be a tensor in reg}}
  %r = kda2.reg_alloc : !kda2.tensor<[4], f32, smem>
}

// -----

// kda2.dim names a dimension of a kernel argument.
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) {
  // expected-error @below {{'kda2.dim' op 'm' is not a dimension of the enclosing kernel}}
  %m = kda2.dim "m" : index
}

// -----

//===----------------------------------------------------------------------===//
// kda2.loop
//===----------------------------------------------------------------------===//

// Loop mapping keyword (custom parser).
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{expected loop mapping block, warp, thread, serial, fragment or ahead, got 'grid'}}
  kda2.loop grid %i to %c1 {
  }
}

// -----

// The body takes exactly one index (generic form).
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op body must take one index induction variable}}
  "kda2.loop"(%c1) <{mapping = 0 : i32}> ({
  ^bb0(%i: index, %j: index):
  }) : (index) -> ()
}

// -----

// No coarser loop inside a finer one.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop thread %i to %c1 {
    // expected-error @below {{'kda2.loop' op a block loop cannot be nested inside a thread loop}}
    kda2.loop block %j to %c1 {
    }
  }
}

// -----

// Annotations implement the loop-annotation interface.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op expected a loop annotation, got "warp_reduce"}}
  kda2.loop block %i to %c1 annotations ["warp_reduce"] {
  }
}

// -----

// An annotation appears once per loop.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op annotation '$bank_conflict_free' appears more than once on the loop}}
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free, #kda2.bank_conflict_free] {
  }
}

// -----

//===----------------------------------------------------------------------===//
// Loop annotations on their loop
//===----------------------------------------------------------------------===//

// @warp_reduce needs a reduction.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '@warp_reduce' annotates a loop that contains no reduction}}
  kda2.loop block %i to %c1 annotations [#kda2.warp_reduce] {
  }
}

// -----

// $bank_conflict_free needs a shared-memory access.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '$bank_conflict_free' annotates a loop that accesses no shared memory}}
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %v = kda2.load %x[%i] : !kda2.tensor<[4], f32> -> f32
  }
}

// -----

// The padded buffer fits the profile: 41728 f32 = 166912 bytes fit A100
// exactly; one bank word of padding does not.
module attributes {kda2.target = "A100-40GB-SXM4"} {
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %s = kda2.smem_alloc size(166912) : !kda2.tensor<[41728], f32, smem>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '$bank_conflict_free' buffer of 166912 bytes (166916 with conflict-free padding) exceeds the shared memory per block of profile 'A100-40GB-SXM4' (166912 bytes)}}
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %v = kda2.load %s[%i] : !kda2.tensor<[41728], f32, smem> -> f32
  }
}
}

// -----

// A coalescing condition names a kernel dimension.
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[n], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '@coalesced_access' condition names 'seqlen', which is not a dimension of the kernel}}
  kda2.loop block %i to %c1 annotations [#kda2.coalesced_access<dim = "seqlen", modulus = 32>] {
  }
}

// -----

// @coalesced_access over a dynamic extent needs a condition.
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[n], f32>
  %n = kda2.dim "n" : index
  // expected-error @below {{'kda2.loop' op '@coalesced_access' on dynamic dimension 'n' needs a condition, e.g. 'if n % 32 == 0 else padding_align32'}}
  kda2.loop thread %i to %n annotations [#kda2.coalesced_access<>] {
  }
}

// -----

// The TMA tile fits the profile's bound (A100: 64x64).
module attributes {kda2.target = "A100-40GB-SXM4"} {
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '@tma_bound' tile 128x128 exceeds the maximum TMA tile 64x64 of profile 'A100-40GB-SXM4'}}
  kda2.loop block %i to %c1 annotations [#kda2.tma_bound<128 x 128>] {
  }
}
}

// -----

// A shape hint names a dynamic dimension of the kernel.
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[n], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '@shape_hint' names 'seqlen', which is not a dynamic dimension of the kernel}}
  kda2.loop block %i to %c1 annotations [#kda2.shape_hint<"seqlen", [128, 256]>] {
  }
}

// -----

// #pragma tma_coalesce needs TMA hardware (Hopper).
module attributes {kda2.target = "A100-40GB-SXM4"} {
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '#pragma tma_coalesce' needs the tensor memory accelerator, which profile 'A100-40GB-SXM4' (sm_80) lacks}}
  kda2.loop block %i to %c1 annotations [#kda2.pragma<tma_coalesce>] {
  }
}
}

// -----

// #pragma wgmma needs the warpgroup instructions of sm_90a.
module attributes {kda2.target = "A100-40GB-SXM4"} {
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  // expected-error @below {{'kda2.loop' op '#pragma wgmma' needs the warpgroup tensor-core instructions of sm_90a, which profile 'A100-40GB-SXM4' (sm_80) lacks}}
  kda2.loop block %i to %c1 annotations [#kda2.pragma<wgmma>] {
  }
}
}

// -----

// So does a kernel-wide pragma.
module attributes {kda2.target = "A100-40GB-SXM4"} {
// expected-error @below {{'kda2.kernel' op '#pragma tma_coalesce' needs the tensor memory accelerator, which profile 'A100-40GB-SXM4' (sm_80) lacks}}
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) attributes {pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %x layout(row_major) packing(none) : !kda2.tensor<[4], f32>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
  }
}
}

// -----

//===----------------------------------------------------------------------===//
// kda2.load / kda2.store
//===----------------------------------------------------------------------===//

// Indices address the dimensions after the grid.
kda2.kernel @k(%x: !kda2.tensor<[b, n], f32>) attributes {grid = ["b"]} {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op has 2 indices but '!kda2.tensor<[b, n], f32>' has only 1 addressable dimensions}}
    %v = kda2.load %x[%i, %i] : !kda2.tensor<[b, n], f32> -> f32
  }
}

// -----

// A load yields what its indices select.
kda2.kernel @k(%x: !kda2.tensor<[4, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op expected result type 'tensor<8xf32>' for 1 indices into '!kda2.tensor<[4, 8], f32>', got 'f32'}}
    %v = kda2.load %x[%i] : !kda2.tensor<[4, 8], f32> -> f32
  }
}

// -----

// A windowed load: one size per index.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op has 1 window sizes for 2 indices}}
    %v = kda2.load %x[%i, %i] {windows = array<i64: 4>} : !kda2.tensor<[n, 8], f32> -> tensor<4xf32>
  }
}

// -----

// Windows read global tensors.
kda2.kernel @k(%x: !kda2.tensor<[16, 8], f32>) {
  %s = kda2.smem_alloc size(512) : !kda2.tensor<[16, 8], f32, smem>
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op reads windows of a smem tensor; windows are for global tensors}}
    %v = kda2.load %s[%i] {windows = array<i64: 4>} : !kda2.tensor<[16, 8], f32, smem> -> tensor<4x8xf32>
  }
}

// -----

// At least one window, none negative.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op window sizes must be >= 0 with at least one window (0: an index)}}
    %v = kda2.load %x[%i] {windows = array<i64: 0>} : !kda2.tensor<[n, 8], f32> -> tensor<8xf32>
  }
}

// -----

// A window fits a static dimension.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op window of 16 along dimension 1 of '!kda2.tensor<[n, 8], f32>', which has 8}}
    %v = kda2.load %x[%i, %i] {windows = array<i64: 0, 16>} : !kda2.tensor<[n, 8], f32> -> tensor<16xf32>
  }
}

// -----

// Limits bound windows: one per window, or none.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op has 2 limits for 1 windows (one per window, or none)}}
    %v = kda2.load %x[%i, %i] limits(%c1, %c1) {windows = array<i64: 4, 0>} : !kda2.tensor<[n, 8], f32> -> tensor<4xf32>
  }
}

// -----

// Limits without windows.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op has 1 limits but no windows; limits bound windows}}
    %v = kda2.load %x[%i] limits(%c1) : !kda2.tensor<[n, 8], f32> -> tensor<8xf32>
  }
}

// -----

// The tile is the windows, then the dimensions after the indices.
kda2.kernel @k(%x: !kda2.tensor<[n, 8], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    // expected-error @below {{'kda2.load' op expected result type 'tensor<4x8xf32>' for windows [4] into '!kda2.tensor<[n, 8], f32>', got 'tensor<8x4xf32>'}}
    %v = kda2.load %x[%i] {windows = array<i64: 4>} : !kda2.tensor<[n, 8], f32> -> tensor<8x4xf32>
  }
}

// -----

// A store writes what its indices select.
kda2.kernel @k(%y: !kda2.tensor<[4], f32> {kda2.io = #kda2.io<out>}) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    %v = arith.constant 1.0 : f16
    // expected-error @below {{'kda2.store' op expected value type 'f32' for 1 indices into '!kda2.tensor<[4], f32>', got 'f16'}}
    kda2.store %v, %y[%i] : f16, !kda2.tensor<[4], f32>
  }
}

// -----

// Kernel inputs are read-only.
kda2.kernel @k(%x: !kda2.tensor<[4], f32>) {
  %c1 = arith.constant 1 : index
  kda2.loop block %i to %c1 {
    %v = arith.constant 1.0 : f32
    // expected-error @below {{'kda2.store' op writes kernel input argument #0; mark it {kda2.io = #kda2.io<out>} or #kda2.io<inout>}}
    kda2.store %v, %x[%i] : f32, !kda2.tensor<[4], f32>
  }
}

// -----

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

// Element-wise and tile ops are free of kernel context, so their cases use
// module-level constants as operands.

// Operands share an element type.
%a = arith.constant 1.0 : f32
%b = arith.constant 1.0 : f16
// expected-error @below {{'kda2.add' op operand element types differ: 'f32' vs 'f16'}}
%r = kda2.add %a, %b : f32, f16 -> f32

// -----

// Two tiles have compatible shapes.
%a = arith.constant dense<1.0> : tensor<4xf32>
%b = arith.constant dense<1.0> : tensor<8xf32>
// expected-error @below {{'kda2.mul' op operand tiles have incompatible shapes}}
%r = kda2.mul %a, %b : tensor<4xf32>, tensor<8xf32> -> tensor<4xf32>

// -----

// The result is the broadcast type (for kda2.cmp, with i1 elements).
%a = arith.constant dense<1.0> : tensor<4xf32>
%b = arith.constant 1.0 : f32
// expected-error @below {{'kda2.cmp' op expected result type 'tensor<4xi1>', got 'i1'}}
%r = kda2.cmp lt %a, %b : tensor<4xf32>, f32 -> i1

// -----

// A select's condition is i1.
%c = arith.constant 1.0 : f32
// expected-error @below {{'kda2.select' op condition must be i1 or a tile of i1, got 'f32'}}
%r = kda2.select %c, %c, %c : f32, f32, f32 -> f32

// -----

// A tile condition and tile values agree in shape.
%c = arith.constant dense<true> : tensor<4xi1>
%v = arith.constant dense<1.0> : tensor<8xf32>
// expected-error @below {{'kda2.select' op condition and value tiles have incompatible shapes}}
%r = kda2.select %c, %v, %v : tensor<4xi1>, tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>

// -----

// Under a tile condition, both values have one element type.
%c = arith.constant dense<true> : tensor<4xi1>
%a = arith.constant 1.0 : f32
%b = arith.constant 1.0 : f16
// expected-error @below {{'kda2.select' op operand element types differ: 'f32' vs 'f16'}}
%r = kda2.select %c, %a, %b : tensor<4xi1>, f32, f16 -> tensor<4xf32>

// -----

// Under a tile condition, the result is a tile of the condition's shape.
%c = arith.constant dense<true> : tensor<4xi1>
%a = arith.constant 1.0 : f32
// expected-error @below {{'kda2.select' op expected result type 'tensor<4xf32>', got 'f32'}}
%r = kda2.select %c, %a, %a : tensor<4xi1>, f32, f32 -> f32

// -----

// A cast keeps the shape.
%a = arith.constant dense<1.0> : tensor<4xf32>
// expected-error @below {{'kda2.cast' op cannot change the shape: 'tensor<4xf32>' -> 'tensor<8xf16>'}}
%r = kda2.cast %a : tensor<4xf32> -> tensor<8xf16>

// -----

// index converts only to and from integers.
%a = arith.constant 1 : index
// expected-error @below {{'kda2.cast' op index converts only to and from integers}}
%r = kda2.cast %a : index -> f32

// -----

//===----------------------------------------------------------------------===//
// Reductions and tile ops
//===----------------------------------------------------------------------===//

// The reduced axis exists.
%a = arith.constant dense<1.0> : tensor<4xf32>
// expected-error @below {{'kda2.reduce' op axis 1 is out of range for rank 1}}
%r = kda2.reduce sum %a {axis = 1 : i64} : tensor<4xf32> -> f32

// -----

// The result drops the reduced axis.
%a = arith.constant dense<1.0> : tensor<4x8xf32>
// expected-error @below {{'kda2.reduce' op expected result type 'tensor<4xf32>', got 'tensor<8xf32>'}}
%r = kda2.reduce max %a : tensor<4x8xf32> -> tensor<8xf32>

// -----

// matmul takes 2-D tiles.
%a = arith.constant dense<1.0> : tensor<16xf16>
// expected-error @below {{'kda2.matmul' op operands must be 2-D tiles}}
%r = kda2.matmul %a, %a : tensor<16xf16>, tensor<16xf16> -> tensor<16x16xf32>

// -----

// The contraction sizes agree.
%a = arith.constant dense<1.0> : tensor<16x32xf16>
%b = arith.constant dense<1.0> : tensor<16x8xf16>
// expected-error @below {{'kda2.matmul' op contraction sizes differ: 32 vs 16}}
%r = kda2.matmul %a, %b : tensor<16x32xf16>, tensor<16x8xf16> -> tensor<16x8xf32>

// -----

// Both operands have one element type.
%a = arith.constant dense<1.0> : tensor<16x16xf16>
%b = arith.constant dense<1.0> : tensor<16x16xbf16>
// expected-error @below {{'kda2.matmul' op operand element types differ: 'f16' vs 'bf16'}}
%r = kda2.matmul %a, %b : tensor<16x16xf16>, tensor<16x16xbf16> -> tensor<16x16xf32>

// -----

// The accumulator is shaped like the product.
%a = arith.constant dense<1.0> : tensor<16x16xf16>
%c = arith.constant dense<1.0> : tensor<16x8xf32>
// expected-error @below {{'kda2.matmul' op accumulator must be shaped like 'tensor<16x16xf32>', got 'tensor<16x8xf32>'}}
%r = kda2.matmul %a, %a acc(%c) : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x8xf32> -> tensor<16x8xf32>

// -----

// f16 operands accumulate in f32.
%a = arith.constant dense<1.0> : tensor<16x16xf16>
// expected-error @below {{'kda2.matmul' op expected result type 'tensor<16x16xf32>', got 'tensor<16x16xf16>'}}
%r = kda2.matmul %a, %a : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>

// -----

// The cumsum axis exists (a negative axis too).
%a = arith.constant dense<1.0> : tensor<4x8xf32>
// expected-error @below {{'kda2.cumsum' op axis -1 is out of range for rank 2}}
%r = kda2.cumsum %a {axis = -1 : i64} : tensor<4x8xf32>

// -----

// tri_solve's matrix is square.
%a = arith.constant dense<1.0> : tensor<16x8xf32>
// expected-error @below {{'kda2.tri_solve' op matrix must be a square 2-D tile, got 'tensor<16x8xf32>'}}
%r = kda2.tri_solve %a, %a : tensor<16x8xf32>, tensor<16x8xf32> -> tensor<16x8xf32>

// -----

// tri_solve's right-hand side has as many rows as the matrix.
%a = arith.constant dense<1.0> : tensor<16x16xf32>
%b = arith.constant dense<1.0> : tensor<8x16xf32>
// expected-error @below {{'kda2.tri_solve' op right-hand side must be a 2-D tile with 16 rows, got 'tensor<8x16xf32>'}}
%r = kda2.tri_solve %a, %b : tensor<16x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>

// -----

// tri_solve's result has the right-hand side's type.
%a = arith.constant dense<1.0> : tensor<16x16xf32>
// expected-error @below {{'kda2.tri_solve' op expected result type 'tensor<16x16xf32>', got 'tensor<16x16xf16>'}}
%r = kda2.tri_solve %a, %a : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf16>

// -----

// l2norm needs a dimension to normalise along.
%a = arith.constant dense<1.0> : tensor<f32>
// expected-error @below {{'kda2.l2norm' op input must have at least one dimension}}
%r = kda2.l2norm %a : tensor<f32>

// -----

// l2norm's eps is positive.
%a = arith.constant dense<1.0> : tensor<4xf32>
// expected-error @below {{'kda2.l2norm' op eps must be positive, got 0}}
%r = kda2.l2norm %a {eps = 0.0 : f64} : tensor<4xf32>

// -----

//===----------------------------------------------------------------------===//
// Annotation ops
//===----------------------------------------------------------------------===//

// A uint8 mask holds 8-bit integers.
%v = arith.constant 1.0 : f16
%m = arith.constant true
// expected-error @below {{'kda2.delta_masked' op mask_type uint8 needs a mask of 8-bit integers, got 'i1'}}
%r = kda2.delta_masked %v, %m mask_type(uint8) : f16, i1

// -----

// The mask is shaped like the value.
%v = arith.constant dense<1.0> : tensor<4xf16>
%m = arith.constant 1 : i8
// expected-error @below {{'kda2.delta_masked' op mask shape does not match the value: 'i8' vs 'tensor<4xf16>'}}
%r = kda2.delta_masked %v, %m mask_type(uint8) : tensor<4xf16>, i8

// -----

// Counter names are identifiers.
%v = arith.constant 1 : i64
// expected-error @below {{'kda2.counter' op counter name 'l2 bytes' is not an identifier}}
kda2.counter "l2 bytes", %v : i64

// -----

kda2.kernel @fragment_without_columns(%x: !kda2.tensor<[16, 8], f32>) {
  %c = arith.constant 128 : index
  // expected-error @below {{a fragment loop needs its tile's column count (columns)}}
  kda2.loop fragment %i to %c {
  }
  kda2.return
}

// -----

kda2.kernel @columns_on_thread_loop(%x: !kda2.tensor<[16, 8], f32>) {
  %c = arith.constant 128 : index
  // expected-error @below {{columns are only valid on a fragment loop}}
  kda2.loop thread %i to %c columns(8) {
  }
  kda2.return
}

// -----

kda2.kernel @mma_tile_rank(%x: !kda2.tensor<[16, 8], f32>) {
  // expected-error @below {{an mma register tile is a static 2-D f32 tile (a tensor-core accumulator), got}}
  %s = kda2.reg_alloc {mma} : !kda2.tensor<[16], f32, reg>
  kda2.return
}

// -----

kda2.kernel @split_on_thread_loop(%x: !kda2.tensor<[16, 8], f32>) {
  %c = arith.constant 128 : index
  // expected-error @below {{split is only valid on a fragment loop}}
  kda2.loop thread %i to %c split(cols) {
  }
  kda2.return
}

// -----

kda2.kernel @fragment_split_name(%x: !kda2.tensor<[16, 8], f32>) {
  %c = arith.constant 128 : index
  // expected-error @below {{split must be rows, cols, none or gather, got 'diagonal'}}
  kda2.loop fragment %i to %c columns(8) split(diagonal) {
  }
  kda2.return
}

// -----

kda2.kernel @split_without_mma(%x: !kda2.tensor<[16, 8], f32>) {
  // expected-error @below {{split is only valid on an mma register tile}}
  %s = kda2.reg_alloc {split = "cols"} : !kda2.tensor<[16, 8], f32, reg>
  kda2.return
}

// -----

kda2.kernel @mma_split_name(%x: !kda2.tensor<[16, 8], f32>) {
  // expected-error @below {{split must be rows, cols, none or gather, got 'diagonal'}}
  %s = kda2.reg_alloc {mma, split = "diagonal"} : !kda2.tensor<[16, 8], f32, reg>
  kda2.return
}

// -----

// (The prefill scan's Sᵀ [VB, K] at VB = 8: fewer rows than one warp's strip.)
kda2.kernel @mma_tile_rows(%x: !kda2.tensor<[16, 8], f32>) {
  // expected-error @below {{an mma register tile is made of 16 x 8 accumulator blocks (one warp per 16-row strip): its rows must be a multiple of 16 and its columns of 8, got 8 x 128}}
  %s = kda2.reg_alloc {mma} : !kda2.tensor<[8, 128], f32, reg>
  kda2.return
}
