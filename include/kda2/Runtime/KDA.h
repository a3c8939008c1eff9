//===- KDA.h - Kimi Delta Attention entry points of libkda2rt ---*- C++ -*-===//
//
// Typed entry points for the KDA kernels kda2 generates (templates/): the
// argument checks an engine needs before a launch (head dimensions the
// kernel was compiled for, null and misaligned pointers, sizes) and the
// launch itself. Plain C++17; the C ABI is in kda2rt.h.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_RUNTIME_KDA_H
#define KDA2_RUNTIME_KDA_H

#include "kda2/Runtime/Module.h"

namespace kda2::runtime {

/// Arguments of one KDA decode call (fused_recurrent_kda contract):
/// q, k, g [n, t, h, K]; v, o [n, t, h, V]; beta [n, t, h]; h0, ht
/// [n, h, K, V] fp32 (state_layout "kv") or [n, h, V, K] ("vk"). All tensors
/// are contiguous device buffers; inputs are never written.
struct KdaDecodeArgs {
  const void *q = nullptr, *k = nullptr, *v = nullptr, *g = nullptr;
  const void *beta = nullptr, *h0 = nullptr;
  void *o = nullptr, *ht = nullptr;
  int64_t n = 0, t = 0, h = 0, kDim = 0, vDim = 0;
  /// Softmax-free attention scale; <= 0 selects K^-1/2.
  double scale = 0;
  /// Element type of q, k, v and o ("bf16" or "f16"); it must be the one
  /// the kernel was compiled for (null: "bf16").
  const char *dtype = nullptr;
  /// Required: the layout of h0/ht, "kv" (K-major [.., K, V]) or "vk"
  /// (V-major [.., V, K]); it must be the one the kernel's metadata declares
  /// (its `state` lines), also when K == V.
  const char *stateLayout = nullptr;
};

/// Arguments of one decode call through an indexed, in-place state pool
/// (templates/kda_decode_pool.tirx; vLLM's and SGLang's SSM state cache).
/// A packed batch of n sequences with total_tokens tokens: q, k, g
/// [total_tokens, h, K]; v, o [total_tokens, h, V]; beta [total_tokens, h];
/// cu_seqlens [n + 1] token boundaries (read on the device only);
/// state_indices [n], the pool slot of each sequence (outside
/// [0, slots): padding, o rows zeroed, pool untouched); has_initial_state
/// [n] int32 (0: start from a zero state); pool [slots, h, K, V]
/// (stateLayout "kv") or [slots, h, V, K] ("vk") of stateDtype, read and
/// written in place. cu_seqlens and state_indices are int32 or int64
/// (indexDtype, the kernel's IX binding). docs/Runtime.md has the full
/// contract.
struct KdaDecodePoolArgs {
  const void *q = nullptr, *k = nullptr, *v = nullptr, *g = nullptr;
  const void *beta = nullptr;
  const void *cuSeqlens = nullptr, *stateIndices = nullptr;
  const void *hasInitialState = nullptr;
  void *pool = nullptr;
  void *o = nullptr;
  int64_t n = 0, totalTokens = 0, h = 0, kDim = 0, vDim = 0, slots = 0;
  /// Attention scale; 0 selects K^-1/2.
  double scale = 0;
  /// Element type of q, k, v and o ("bf16" or "f16"; null: "bf16").
  const char *dtype = nullptr;
  /// Element type of the pool ("f32" or "bf16"; null: "f32"). The
  /// recurrence always accumulates in fp32.
  const char *stateDtype = nullptr;
  /// Required: "kv" or "vk", the layout the kernel's `state pool` line
  /// declares.
  const char *stateLayout = nullptr;
  /// Element type of cu_seqlens and state_indices ("i32" or "i64"; null:
  /// "i32"); it must be the one the kernel's metadata declares.
  const char *indexDtype = nullptr;  /// Elements between consecutive rows of q, k, v, g and beta (tokens); 0:
  /// dense (h·K for q, k, g; h·V for v; h for beta). Otherwise at least the dense row size and a multiple
  /// of 16 bytes: the rows may be slices of one fused projection. The
  /// kernel must read that operand with a runtime stride (a `stride` line
  /// in its metadata) unless the stride is the dense one.
  int64_t qStride = 0, kStride = 0, vStride = 0, gStride = 0, betaStride = 0;
};

/// Head dimensions the decode templates are built for.
inline constexpr int64_t kKdaHeadDims[] = {64, 128, 256};

/// Checks that `layout` (a call's state_layout: "kv" or "vk") names the
/// layout kernel `info` declares for its state argument `arg` (its `state`
/// line). Errors name state_layout, or the kernel and the argument.
KDA2RT_API Status checkStateLayout(const KernelInfo &info, const char *arg,
                                   const char *layout);

/// Checks `args` against a decode kernel's metadata without touching the
/// GPU: supported and matching head dimensions, the input element type,
/// the state layout (against the kernel's `state` lines), positive sizes,
/// non-null and
/// 16-byte aligned pointers (the kernel uses 128-bit accesses). Errors name
/// the argument.
KDA2RT_API Status checkKdaDecode(const KernelInfo &info,
                                 const KdaDecodeArgs &args);

/// Checks `args` (checkKdaDecode) and builds the kernel arguments.
KDA2RT_API Status kdaDecodeLaunchArgs(const KernelInfo &info,
                                      const KdaDecodeArgs &args,
                                      LaunchArgs &out);

/// Checks and launches a decode kernel on `stream`.
KDA2RT_API Status launchKdaDecode(const Kernel &kernel,
                                  const KdaDecodeArgs &args,
                                  CUstream stream);

/// Checks `args` against a pool decode kernel's metadata (the arguments of
/// templates/kda_decode_pool.tirx) without touching the GPU: head
/// dimensions, dtype and state_dtype, state layout, sizes, scale, NULL and
/// misaligned pointers (16 bytes for the tensors, the element size for the
/// index arrays: 4 or 8 bytes by indexDtype, 4 for has_initial_state)
/// and overlaps of the written operands (pool, o) with any other. Errors
/// name the argument.
KDA2RT_API Status checkKdaDecodePool(const KernelInfo &info,
                                     const KdaDecodePoolArgs &args);

/// Checks `args` (checkKdaDecodePool) and builds the kernel arguments: the
/// pointers, scale (0 resolved to K^-1/2) and the sizes of the dimensions
/// the kernel names among tt (total_tokens), h, n, np1 (n + 1) and slots.
KDA2RT_API Status kdaDecodePoolLaunchArgs(const KernelInfo &info,
                                          const KdaDecodePoolArgs &args,
                                          LaunchArgs &out);

/// Checks and launches a pool decode kernel on `stream` (asynchronous: no
/// host synchronisation, no device allocation).
KDA2RT_API Status launchKdaDecodePool(const Kernel &kernel,
                                      const KdaDecodePoolArgs &args,
                                      CUstream stream);

/// Arguments of one fused layer decode call (templates/kda_decode_conv.tirx:
/// conv1d update + SiLU, q/k L2 norm, the gate of family GF, β sigmoid, the
/// KDA update through the indexed, in-place pool and the sigmoid-gated
/// RMSNorm, in one launch). A packed batch of n sequences with total_tokens
/// tokens: qkv [total_tokens, D] (D = 2·h·K + h·V: the q, k and v channels
/// in that order; rows qkvStride elements apart), conv_w [D, W] f32, a
/// [total_tokens, h, K] f32 raw gate, b [total_tokens, h] f32 β logits,
/// gout [total_tokens, h, V] output gate, A_log [h] f32, dt_bias [h, K] f32,
/// norm_w [V] f32; cu_seqlens [n + 1], state_indices [n] (indexDtype),
/// has_initial_state [n] int32; conv_state [slots, D, W − 1] (dtype; the
/// previous W − 1 inputs of every channel, oldest first) and pool [slots,
/// h, K, V] ("kv") or [slots, h, V, K] ("vk") of stateDtype, both read and
/// written in place; o [total_tokens, h, V]. qkv, gout, conv_state and o
/// are of `dtype`. docs/Runtime.md has the full contract.
struct KdaDecodeConvArgs {
  const void *qkv = nullptr, *convW = nullptr, *a = nullptr, *b = nullptr;
  const void *gout = nullptr, *aLog = nullptr, *dtBias = nullptr;
  const void *normW = nullptr;
  const void *cuSeqlens = nullptr, *stateIndices = nullptr;
  const void *hasInitialState = nullptr;
  void *convState = nullptr, *pool = nullptr;
  void *o = nullptr;
  int64_t n = 0, totalTokens = 0, h = 0, kDim = 0, vDim = 0;
  /// The conv width W the kernel was built for (conv_w [D, W]).
  int64_t convWidth = 0;
  int64_t slots = 0;
  /// Elements between consecutive rows (tokens) of qkv; 0: dense (D).
  /// Otherwise at least D and a multiple of 16 bytes (a slice of a wider
  /// projection output).
  int64_t qkvStride = 0;
  /// Attention scale; 0 selects K^-1/2.
  double scale = 0;
  /// The bound of gate family 1 (lower_bound·sigmoid(..)); kernels built
  /// with GF = 2 (Kimi-Linear's gate) ignore it. Must be finite.
  double lowerBound = 0;
  /// The RMSNorm epsilon (finite, >= 0).
  double eps = 0;
  /// Element type of qkv, gout, conv_state and o ("bf16" or "f16"; null:
  /// "bf16").
  const char *dtype = nullptr;
  /// Element type of the pool ("f32" or "bf16"; null: "f32").
  const char *stateDtype = nullptr;
  /// Required: "kv" or "vk", the layout of the kernel's `state pool` line.
  const char *stateLayout = nullptr;
  /// Element type of cu_seqlens and state_indices ("i32" or "i64"; null:
  /// "i32"); it must be the kernel's IX binding.
  const char *indexDtype = nullptr;
};

/// Checks `args` against a fused layer decode kernel's metadata (the
/// arguments of templates/kda_decode_conv.tirx) without touching the GPU:
/// kernel kind, head dimensions (against a's and o's static K and V), the
/// conv width (against conv_w's static W and conv_state's W − 1), dtype
/// (qkv, gout, conv_state, o), state_dtype and state layout (pool),
/// index_dtype (the kernel's IX), sizes (h >= 1, n >= 1, total_tokens
/// within int32 for i32 kernels), qkv_stride (0, or >= D = 2·h·K + h·V and
/// a multiple of 16 bytes; a non-dense stride needs the kernel's `stride
/// qkv` line), scale, lower_bound and eps, NULL and misaligned pointers and
/// overlaps of the written operands (conv_state, pool, o) with any other
/// (qkv by its strided extent). Errors name the argument.
KDA2RT_API Status checkKdaDecodeConv(const KernelInfo &info,
                                     const KdaDecodeConvArgs &args);

/// Checks `args` (checkKdaDecodeConv) and builds the kernel arguments: the
/// pointers, qkv's row stride (0 resolved to D), scale (0 resolved to
/// K^-1/2), lower_bound, eps and the sizes of the dimensions the kernel
/// names among tt, D, h, n, np1 and slots.
KDA2RT_API Status kdaDecodeConvLaunchArgs(const KernelInfo &info,
                                          const KdaDecodeConvArgs &args,
                                          LaunchArgs &out);

/// Checks and launches a fused layer decode kernel on `stream`
/// (asynchronous: no host synchronisation, no device allocation).
KDA2RT_API Status launchKdaDecodeConv(const Kernel &kernel,
                                      const KdaDecodeConvArgs &args,
                                      CUstream stream);

/// Arguments of one speculative (multi-token) decode call through an
/// indexed, in-place state pool (templates/kda_decode_spec.tirx): n
/// sequences of t tokens each (1 <= t <= 16: the last accepted token and
/// the drafts). q, k, g [n, t, h, K]; v, o [n, t, h, V]; beta [n, t, h];
/// state_indices [n, t] (indexDtype), the pool slot of the state after each token
/// (outside [0, slots): not stored; state_indices[seq, 0] < 0 marks padding,
/// o rows zeroed and pool untouched); num_accepted [n] (indexDtype), the recurrence
/// starts from pool[state_indices[seq, num_accepted[seq] - 1]] when
/// num_accepted[seq] > 0 and that slot is in [0, slots), else from zeros;
/// pool [slots, h, K, V] ("kv") or [slots, h, V, K] ("vk") of stateDtype.
/// docs/Runtime.md has the full contract.
struct KdaDecodeSpecArgs {
  const void *q = nullptr, *k = nullptr, *v = nullptr, *g = nullptr;
  const void *beta = nullptr;
  const void *stateIndices = nullptr, *numAccepted = nullptr;
  void *pool = nullptr;
  void *o = nullptr;
  int64_t n = 0, t = 0, h = 0, kDim = 0, vDim = 0, slots = 0;
  /// Attention scale; 0 selects K^-1/2.
  double scale = 0;
  /// Element type of q, k, v and o ("bf16" or "f16"; null: "bf16").
  const char *dtype = nullptr;
  /// Element type of the pool ("f32" or "bf16"; null: "f32").
  const char *stateDtype = nullptr;
  /// Required: "kv" or "vk", the layout of the kernel's `state pool` line.
  const char *stateLayout = nullptr;
  /// 1: the state after each token goes to its slot; 0: output only (the
  /// pool is only read).
  int64_t writeStates = 1;
  /// Element type of state_indices and num_accepted ("i32" or "i64"; null:
  /// "i32"); it must be the one the kernel's metadata declares.
  const char *indexDtype = nullptr;  /// Elements between consecutive rows of q, k, v, g and beta (sequences: a row is one sequence's t tokens, which stay dense); 0:
  /// dense (t·h·K for q, k, g; t·h·V for v; t·h for beta). Otherwise at least the dense row size and a multiple
  /// of 16 bytes: the rows may be slices of one fused projection. The
  /// kernel must read that operand with a runtime stride (a `stride` line
  /// in its metadata) unless the stride is the dense one.
  int64_t qStride = 0, kStride = 0, vStride = 0, gStride = 0, betaStride = 0;
};

/// The most tokens per sequence a speculative decode call verifies.
inline constexpr int64_t kKdaSpecMaxTokens = 16;

/// Checks `args` against a speculative decode kernel's metadata (the
/// arguments of templates/kda_decode_spec.tirx) without touching the GPU:
/// the checks of checkKdaDecodePool (kernel kind, index arrays of one type
/// (indexDtype), pool
/// inout, head dimensions, dtype, state_dtype, state layout, sizes, scale,
/// NULL and misaligned pointers, overlaps of pool and o with any other
/// operand) plus 1 <= t <= kKdaSpecMaxTokens.
KDA2RT_API Status checkKdaDecodeSpec(const KernelInfo &info,
                                     const KdaDecodeSpecArgs &args);

/// Checks `args` (checkKdaDecodeSpec) and builds the kernel arguments: the
/// pointers, scale (0 resolved to K^-1/2) and the sizes of the dimensions
/// the kernel names among n, t, h and slots.
KDA2RT_API Status kdaDecodeSpecLaunchArgs(const KernelInfo &info,
                                          const KdaDecodeSpecArgs &args,
                                          LaunchArgs &out);

/// Checks and launches a speculative decode kernel on `stream`
/// (asynchronous: no host synchronisation, no device allocation).
KDA2RT_API Status launchKdaDecodeSpec(const Kernel &kernel,
                                      const KdaDecodeSpecArgs &args,
                                      CUstream stream);

/// Arguments of one chunked prefill call through the indexed state pool:
/// kda_chunk_prep (templates/kda_chunk_split.tirx, or the activation prep of
/// templates/kda_chunk_prep_act.tirx), kda_chunk_scan_h and
/// kda_chunk_out (templates/kda_chunk_h.tirx) on one stream, or prep and
/// the fused-output scan kda_chunk_scan_o (same module; it writes o itself,
/// no kda_chunk_out: the entry points' `out` is null), their
/// intermediates in a caller-owned workspace (kdaPrefillWorkspace). Packed
/// batch: q, k [total_tokens, hqk, K]; g [total_tokens, h, K]; v, o
/// [total_tokens, h, V]; beta [total_tokens, h]; cu_seqlens [n + 1],
/// state_indices [n] (indexDtype), has_initial_state [n] int32 (device only);
/// checkpoint_blocks [n, nc] (indexDtype) or null (no checkpoints; then ckpt
/// must be null too), nc = ceil(max_seqlen / C) (a longer sequence's
/// checkpoints past column nc − 1 repeat that column's block); pool [slots, h,
/// K, V] ("kv") or [slots, h, V, K] ("vk") of stateDtype, in place; ckpt
/// [blocks, h, ..] likewise. The workspace depends on n and total_tokens only
/// (chunk slots), and on m with offset checkpoints (ckptOffsets below).
/// docs/Runtime.md ("Prefill") has the full contract.
struct KdaPrefillArgs {
  const void *q = nullptr, *k = nullptr, *v = nullptr, *g = nullptr;
  const void *beta = nullptr;
  const void *cuSeqlens = nullptr, *stateIndices = nullptr;
  const void *hasInitialState = nullptr, *checkpointBlocks = nullptr;
  void *pool = nullptr;
  void *ckpt = nullptr;
  void *o = nullptr;
  /// At least kdaPrefillWorkspace(prep, scan, out, n, totalTokens, h,
  /// ..).bytes (out null with a fused-output scan), kKdaPrefillAlignment-
  /// aligned.
  void *workspace = nullptr;
  uint64_t workspaceBytes = 0;
  int64_t n = 0, totalTokens = 0, maxSeqlen = 0, h = 0, kDim = 0, vDim = 0,
          slots = 0, blocks = 0;
  /// Attention scale; 0 selects K^-1/2.
  double scale = 0;
  /// Element type of q, k, v and o ("bf16" or "f16"; null: "bf16").
  const char *dtype = nullptr;
  /// Element type of pool and ckpt ("f32" or "bf16"; null: "f32").
  const char *stateDtype = nullptr;
  /// Required: "kv" or "vk", the layout of the scan kernel's `state` lines.
  const char *stateLayout = nullptr;
  /// The lowest per-step log decay the caller's gate can produce (e.g. -5
  /// for a gate bounded at -5, -inf for the softplus family); it must be
  /// within the `range g` the prep kernel declares. Ignored (not checked)
  /// with an activation prep of gate family 1 or 2 (aLog below): the
  /// kernel computes the gate and needs no bound.
  double gateLowerBound = 0;
  /// Element type of cu_seqlens, state_indices and checkpoint_blocks ("i32"
  /// or "i64"; null: "i32"), the kernels' index type.
  const char *indexDtype = nullptr;
  /// Elements between consecutive rows of q, k, v, g and beta (tokens); 0:
  /// dense (hqk·K for q, k; h·K for g; h·V for v; h for beta). Otherwise at
  /// least the dense row size and a multiple of 16 bytes: the rows may be
  /// slices of one fused projection. The prep kernel must read that operand
  /// with a runtime stride (a `stride` line in its metadata) unless the
  /// stride is the dense one.
  int64_t qStride = 0, kStride = 0, vStride = 0, gStride = 0, betaStride = 0;
  /// Heads of q and k (grouped value heads, GVA): 0 means h; otherwise h
  /// must be a multiple of it, and value head j reads q/k head j·hqk/h.
  /// hqk < h needs a prep kernel whose q and k have the `hqk` dimension.
  int64_t hqk = 0;
  /// The activation prep (templates/kda_chunk_prep_act.tirx: a prep kernel
  /// that declares A_log) computes the gate, β and the q/k norm itself; its
  /// `bind` lines say what (GF: gate family, BS = 1: beta holds logits,
  /// QKN = 1: q and k are L2-normalised in the kernel). Other prep kernels
  /// never read these three fields.
  ///
  /// A_log [h] f32 (in) and dt_bias [h, K] f32 (in), per value head: read
  /// by gate families 1 and 2, where g holds the raw activation x and the
  /// per-step log decay is lower_bound·sigmoid(exp(A_log)·(x + dt_bias))
  /// (GF 1) or −exp(A_log)·softplus(x + dt_bias) (GF 2). Non-NULL, 4-byte
  /// aligned and not overlapping what the call writes for GF 1 and 2; may
  /// be NULL with GF 0 (g is the log decay; the kernel gets g in their
  /// place and never reads them).
  const void *aLog = nullptr, *dtBias = nullptr;
  /// The bound of gate family 1 (<= 0 and finite as f32; passed to the
  /// kernel as f32); not read by GF 0 and 2 kernels.
  double lowerBound = 0;
  /// Checkpoints at token offsets (prefix caching on blocks that need not
  /// end on a chunk edge): ckpt_offsets [n, m] (indexDtype, in): entry
  /// (i, j) = t asks for the state after the first t tokens of sequence i,
  /// t in [1, len_i] (any other t: none), in block offset_blocks[i, j]
  /// (indexDtype, in; outside [0, blocks): none) of ckpt. Both NULL and
  /// m = 0: no offset checkpoints; both non-NULL and m >= 1 otherwise.
  /// Independent of checkpointBlocks (either, both or neither); ckpt and
  /// blocks > 0 are required when either is given. t a multiple of C gives
  /// the boundary checkpoint's state (within rounding), t = len_i the
  /// final state; a padding sequence gets none; duplicate offsets are
  /// allowed; one block named twice in a call (by offsets or boundaries)
  /// is undefined (either write may win).
  const void *ckptOffsets = nullptr, *offsetBlocks = nullptr;
  int64_t m = 0;
  /// kda_chunk_ckpt (templates/kda_chunk_h.tirx, the scan's module), which
  /// completes the offset checkpoints after the scan: required iff
  /// ckptOffsets is non-NULL (refused without it).
  const Kernel *ckptKernel = nullptr;
};

/// Alignment of the workspace and of each intermediate inside it.
inline constexpr uint64_t kKdaPrefillAlignment = 1024;

/// Where the intermediates of one prefill call lie in its workspace (byte
/// offsets, each a multiple of kKdaPrefillAlignment, in this order) and the
/// sizes they follow from. Every intermediate is per (head, chunk slot),
/// [h, ns, ..]: chunk c of sequence i lives in slot floor(cu_seqlens[i] /
/// C) + i + c, and ns = floor(total_tokens / C) + n slots hold any packing
/// of total_tokens tokens into n sequences, however uneven. The offset
/// checkpoints' kc [h, nm, C, K] (input type) and ec [h, nm, K] f32 come
/// last, per (head, entry seq·m + j), nm = n·m: zero bytes when m = 0.
/// With a fused-output scan (kda_chunk_scan_o) hs has zero bytes (offset
/// that of us): the scan keeps the chunks' states in registers. The ready
/// flags [h, ns] i32 of kernels built with RDY=1 come last (zero bytes
/// without them); each call clears them on its stream before the prep.
struct KdaPrefillWorkspace {
  enum Buffer { QD, KL, WN, TP, PB, GL, HS, US, KC, EC, READY, Count };
  /// The chunk size C (from the prep kernel's metadata), the chunk slots
  /// ns = floor(total_tokens / C) + n and the offset entries nm = n * m
  /// (kc, ec).
  int64_t chunk = 0, ns = 0, nm = 0;
  uint64_t offset[Count] = {}, size[Count] = {};
  /// Total bytes (the end of the last buffer, rounded up to the alignment).
  uint64_t bytes = 0;
};

/// Names of the workspace buffers, in KdaPrefillWorkspace::Buffer order.
KDA2RT_API const char *kdaPrefillBufferName(KdaPrefillWorkspace::Buffer b);

/// Whether `scan` is a fused-output state scan (kda_chunk_scan_o of
/// templates/kda_chunk_h.tirx), recognised by its arguments: the pointers
/// o, qd and pb and no argument hs. It replaces kda_chunk_scan_h and
/// kda_chunk_out (the prefill entry points then take no output kernel:
/// `out` null); any other scan kernel is checked as a kda_chunk_scan_h.
KDA2RT_API bool isKdaPrefillFusedScan(const KernelInfo &scan);

/// Checks that prep, scan and out are the three prefill kernels, built
/// with per-chunk-slot intermediates, and agree with each other (C, K,
/// V, element types, state type and layout), then lays out the workspace
/// of a call with n sequences of totalTokens tokens in all (the call's
/// total_tokens, padding included; an engine passes its most) and h heads,
/// without offset checkpoints (m = 0). The lengths of the sequences do
/// not matter.
KDA2RT_API Status kdaPrefillWorkspace(const KernelInfo &prep,
                                      const KernelInfo &scan,
                                      const KernelInfo &out, int64_t n,
                                      int64_t totalTokens, int64_t h,
                                      KdaPrefillWorkspace &ws);

/// kdaPrefillWorkspace for calls with up to m offset checkpoints per
/// sequence (m >= 0, n·m <= 2^31 - 1): kc and ec grow with n·m.
KDA2RT_API Status kdaPrefillWorkspace(const KernelInfo &prep,
                                      const KernelInfo &scan,
                                      const KernelInfo &out, int64_t n,
                                      int64_t totalTokens, int64_t h, int64_t m,
                                      KdaPrefillWorkspace &ws);

/// kdaPrefillWorkspace with the output kernel optional: null with a
/// fused-output scan (isKdaPrefillFusedScan; then no hs), required with
/// kda_chunk_scan_h; a scan and `out` that do not go together are refused
/// by the argument 'out_kernel'. The overloads below take `out` the same
/// way.
KDA2RT_API Status kdaPrefillWorkspace(const KernelInfo &prep,
                                      const KernelInfo &scan,
                                      const KernelInfo *out, int64_t n,
                                      int64_t totalTokens, int64_t h, int64_t m,
                                      KdaPrefillWorkspace &ws);

/// Checks a prefill call against the three kernels without touching the
/// GPU: the kernels (kinds, agreement), the gate bound against the prep
/// kernel's `range g`, head dimensions, dtypes, state layout, sizes, scale,
/// NULL and misaligned operands, the workspace's size and alignment, and
/// overlaps of the written operands (pool, ckpt, o, workspace) with any
/// other operand; with offset checkpoints also the checkpoint kernel
/// (args.ckptKernel's metadata: its kind and agreement with the others),
/// m and the two tables.
KDA2RT_API Status checkKdaPrefill(const KernelInfo &prep,
                                  const KernelInfo &scan, const KernelInfo &out,
                                  const KdaPrefillArgs &args);

/// checkKdaPrefill with the checkpoint kernel's metadata given here (null:
/// none) instead of through args.ckptKernel (then not read).
KDA2RT_API Status checkKdaPrefill(const KernelInfo &prep,
                                  const KernelInfo &scan, const KernelInfo &out,
                                  const KernelInfo *ckpt,
                                  const KdaPrefillArgs &args);

/// checkKdaPrefill with the output kernel optional (null with a
/// fused-output scan).
KDA2RT_API Status checkKdaPrefill(const KernelInfo &prep,
                                  const KernelInfo &scan, const KernelInfo *out,
                                  const KernelInfo *ckpt,
                                  const KdaPrefillArgs &args);

/// The kernel arguments of the launches of a checked call: prep, scan, out
/// (`withOut`: not with a fused-output scan, which writes o itself) and,
/// with offset checkpoints, ckpt (kda_chunk_ckpt; `withCkpt`). Without
/// chunk-boundary checkpoints (checkpoint_blocks null) the scan gets
/// state_indices as its checkpoint table with nc = 1 and boundaries = 0;
/// without any checkpoints also blocks = 0 and the pool as ckpt: it writes
/// a checkpoint only for a block in [0, blocks), so it writes none. Without
/// offset checkpoints prep and scan get state_indices as ckpt_offsets and
/// offset_blocks with m = 0 (never read).
/// With kernels built with RDY=1, `readyWords` 32-bit ready flags at
/// `ready` (in the workspace) to clear on the stream before the prep.
struct KdaPrefillLaunch {
  LaunchArgs prep, scan, out;
  LaunchArgs ckpt;
  bool withOut = true, withCkpt = false;
  CUdeviceptr ready = 0;
  size_t readyWords = 0;
};

/// Checks `args` (checkKdaPrefill) and builds the launches.
KDA2RT_API Status kdaPrefillLaunchArgs(const KernelInfo &prep,
                                       const KernelInfo &scan,
                                       const KernelInfo &out,
                                       const KdaPrefillArgs &args,
                                       KdaPrefillLaunch &launch);

/// kdaPrefillLaunchArgs with the checkpoint kernel's metadata given here
/// (checkKdaPrefill's overload).
KDA2RT_API Status kdaPrefillLaunchArgs(const KernelInfo &prep,
                                       const KernelInfo &scan,
                                       const KernelInfo &out,
                                       const KernelInfo *ckpt,
                                       const KdaPrefillArgs &args,
                                       KdaPrefillLaunch &launch);

/// kdaPrefillLaunchArgs with the output kernel optional (null with a
/// fused-output scan: launch.withOut false).
KDA2RT_API Status kdaPrefillLaunchArgs(const KernelInfo &prep,
                                       const KernelInfo &scan,
                                       const KernelInfo *out,
                                       const KernelInfo *ckpt,
                                       const KdaPrefillArgs &args,
                                       KdaPrefillLaunch &launch);

/// Everything a prefill call checks before the driver (what
/// kda2rt_kda_prefill_query answers): the kernels loaded (args.ckptKernel
/// too), the arguments (kdaPrefillLaunchArgs) and every launch
/// configuration (grids over the CUDA limits: prep and out (ns, h), the
/// scan (NVB, n·h), the checkpoint kernel (n·m, h)). `launch` receives
/// the launches.
KDA2RT_API Status prepareKdaPrefill(const Kernel &prep, const Kernel &scan,
                                    const Kernel &out,
                                    const KdaPrefillArgs &args,
                                    KdaPrefillLaunch &launch);

/// prepareKdaPrefill with the output kernel optional (null with a
/// fused-output scan).
KDA2RT_API Status prepareKdaPrefill(const Kernel &prep, const Kernel &scan,
                                    const Kernel *out,
                                    const KdaPrefillArgs &args,
                                    KdaPrefillLaunch &launch);

/// Checks and runs a prefill call on `stream`: prep, scan, the checkpoint
/// kernel (offset checkpoints only), out (Kernel::launch: the general path;
/// kda2rt_kda_prefill runs the same driver calls through KdaPrefillPlan).
/// Every launch is configured before the first: a refused call runs
/// nothing. Asynchronous: no host synchronisation, no device allocation,
/// no memset, cu_seqlens and the checkpoint tables never read on the host.
KDA2RT_API Status launchKdaPrefill(const Kernel &prep, const Kernel &scan,
                                   const Kernel &out,
                                   const KdaPrefillArgs &args, CUstream stream);

/// launchKdaPrefill with the output kernel optional: null with a
/// fused-output scan, which writes o itself (launches: prep, scan, the
/// checkpoint kernel with offset checkpoints; no out).
KDA2RT_API Status launchKdaPrefill(const Kernel &prep, const Kernel &scan,
                                   const Kernel *out,
                                   const KdaPrefillArgs &args, CUstream stream);

/// The parameter packing of a prepared launch, shared by the typed plans
/// below. create() maps every kernel parameter, grid term and `variant`
/// dimension of the metadata to one of the entry point's named values (its
/// pointers, then its dimensions), the scale or the counters buffer;
/// launch() then fills the 8-byte parameter slots on the stack from an
/// array of those values and calls cuLaunchKernel: no allocation, no
/// lookup by name. Metadata it cannot express (other parameters or
/// dimensions, tensor maps, more than kMaxParams entries, counters where
/// the entry point passes none) is refused by create() with a message.
class KDA2RT_API PreparedLaunch {
public:
  static constexpr size_t kMaxParams = 32;

  /// `entry` names the entry point in errors ("no prepared <entry>
  /// launch: ..."). Value i < numPointers is pointers[i]; value
  /// numPointers + j is the size of dimension dims[j]; value numPointers +
  /// numDims + m holds the bits of a double, the float scalar floats[m]
  /// (stored as the kernel's f32 or f64; `scale` is separate).
  static Status create(const Kernel &kernel, const char *entry,
                       const char *const *pointers, size_t numPointers,
                       const char *const *dims, size_t numDims,
                       bool counters, PreparedLaunch &out,
                       const char *const *floats = nullptr,
                       size_t numFloats = 0);
  bool valid() const { return kernel_ != nullptr; }
  const Kernel *kernel() const { return kernel_; }
  /// The grid for `values` (gridDim.x the largest term, gridDim.y their
  /// product, as computeLaunchConfig); false when it exceeds the CUDA
  /// limits.
  bool grid(const uint64_t *values, unsigned out[3]) const;
  /// Packs the parameters from `values`, `scale` (stored as the kernel's
  /// f32 or f64) and `counters` and launches the kernel or the `variant`
  /// copy the values select. Errors: a missing counters buffer, CUDA.
  Status launch(const unsigned grid[3], const uint64_t *values, double scale,
                CUdeviceptr counters, CUstream stream) const;

private:
  /// Parameter sources beyond the value indices.
  static constexpr uint8_t kScaleF32 = 0xFB, kScaleF64 = 0xFC,
                           kCounters = 0xFD, kConstant = 0xFE;
  const Kernel *kernel_ = nullptr;
  uint8_t params_[kMaxParams] = {};
  /// Per parameter: 0, or a float scalar from a value (1: f32, 2: f64).
  uint8_t floatParams_[kMaxParams] = {};
  size_t numParams_ = 0;
  /// grid.x terms: a value index or kConstant with its constant.
  uint8_t gridX_[kMaxParams] = {};
  int64_t gridXConstant_[kMaxParams] = {};
  size_t numGridX_ = 0;
  uint8_t gridY_[kMaxParams] = {};
  size_t numGridY_ = 0;
  /// The `variant <dim> <size>` copies: the value index, size and function.
  uint8_t variantDim_[kMaxParams] = {};
  int64_t variantSize_[kMaxParams] = {};
  CUfunction variantFunc_[kMaxParams] = {};
  size_t numVariants_ = 0;
};

/// What the per-call checks of the typed entry points need from a kernel's
/// metadata, resolved once (by the check functions on every call, by the
/// plans at create()). Internal to libkda2rt's entry points; exposed only
/// because the plans hold one.
struct KdaKernelFacts {
  const KernelInfo *info = nullptr;
  /// The head dimensions the kernel was built for (the last static
  /// dimension of q and of v; 0 if none).
  int64_t kDim = 0, vDim = 0;
  /// Element types of q, k, v and o.
  DType io[4] = {};
  /// Element type of the index arrays (pool and spec kernels: cu_seqlens,
  /// state_indices, num_accepted), I32 or I64, and the first of them.
  DType index = DType::I32;
  const char *indexArg = nullptr;
  /// The state's element type (pool, or ht) and declared layouts (h0 or
  /// pool; ht for decode).
  DType state = DType::F32;
  StateOrder layout = StateOrder::None, layout2 = StateOrder::None;
  /// The pool's last two declared dimensions (pool and spec kernels; null
  /// when it has fewer), pointing into *info.
  const ShapeDim *poolRows = nullptr, *poolCols = nullptr;
  /// Whether the kernel reads q, k, v, g and beta with a runtime row
  /// stride (a `stride` line; in that order). Fused decode kernels:
  /// strided[0] says whether qkv has one.
  bool strided[5] = {};
  /// Fused decode kernels: the conv width W (conv_w [D, W]) and the element
  /// types of qkv, gout, conv_state and o.
  int64_t convWidth = 0;
  DType convIo[4] = {};
  /// Fused decode kernels: whether they read A_log and dt_bias (not when
  /// built with `bind AL 0` / `bind DB 0`).
  bool readsALog = true, readsDtBias = true;
};

/// A decode launch prepared once per kernel, for the per-token hot path.
/// create() does the checks that depend only on the metadata (the decode
/// arguments exist, their layouts agree) and prepares the parameter packing
/// (PreparedLaunch); launch() runs the value checks of checkKdaDecode (same
/// messages) and launches without allocating. Kernels whose metadata the
/// plan cannot express are rejected by create() with a message; use
/// launchKdaDecode for them.
class KDA2RT_API KdaDecodePlan {
public:
  static constexpr size_t kMaxParams = PreparedLaunch::kMaxParams;

  static Status create(const Kernel &kernel, KdaDecodePlan &out);
  bool valid() const { return launch_.valid(); }
  const Kernel *kernel() const { return launch_.kernel(); }
  /// Checks `args` and launches on `stream`; `counters` is passed as the
  /// kernel's counters buffer when it declares one (an error if it does and
  /// `counters` is 0).
  Status launch(const KdaDecodeArgs &args, CUstream stream,
                CUdeviceptr counters = 0) const;

private:
  PreparedLaunch launch_;
  KdaKernelFacts facts_;
};

/// The prepared launch of kda2rt_kda_decode_pool (KdaDecodePlan's
/// counterpart for checkKdaDecodePool / launchKdaDecodePool): every check,
/// no allocation. Kernels that declare counters are refused (the entry
/// point passes none).
class KDA2RT_API KdaDecodePoolPlan {
public:
  static Status create(const Kernel &kernel, KdaDecodePoolPlan &out);
  bool valid() const { return launch_.valid(); }
  const Kernel *kernel() const { return launch_.kernel(); }
  Status launch(const KdaDecodePoolArgs &args, CUstream stream) const;

private:
  PreparedLaunch launch_;
  KdaKernelFacts facts_;
};

/// The prepared launch of kda2rt_kda_decode_spec (checkKdaDecodeSpec /
/// launchKdaDecodeSpec): every check, no allocation.
class KDA2RT_API KdaDecodeSpecPlan {
public:
  static Status create(const Kernel &kernel, KdaDecodeSpecPlan &out);
  bool valid() const { return launch_.valid(); }
  const Kernel *kernel() const { return launch_.kernel(); }
  Status launch(const KdaDecodeSpecArgs &args, CUstream stream) const;

private:
  PreparedLaunch launch_;
  KdaKernelFacts facts_;
};

/// The prepared launch of kda2rt_kda_decode_conv (checkKdaDecodeConv /
/// launchKdaDecodeConv): every check, no allocation; scale, lower_bound and
/// eps are packed per call. Kernels that declare counters are refused.
class KDA2RT_API KdaDecodeConvPlan {
public:
  static Status create(const Kernel &kernel, KdaDecodeConvPlan &out);
  bool valid() const { return launch_.valid(); }
  const Kernel *kernel() const { return launch_.kernel(); }
  Status launch(const KdaDecodeConvArgs &args, CUstream stream) const;

private:
  PreparedLaunch launch_;
  KdaKernelFacts facts_;
};

/// What the prefill checks need from the three prefill kernels' metadata,
/// resolved once (KdaKernelFacts' counterpart; internal, exposed only
/// because KdaPrefillPlan holds one).
struct KdaPrefillFacts {
  /// out is null with a fused-output scan (fusedScan).
  const KernelInfo *prep = nullptr, *scan = nullptr, *out = nullptr;
  /// The scan is kda_chunk_scan_o (isKdaPrefillFusedScan): it writes o,
  /// not hs, and no output kernel runs.
  bool fusedScan = false;
  /// The checkpoint kernel (kda_chunk_ckpt) when one was resolved with the
  /// others (plans made with one; the checks of calls that pass one).
  const KernelInfo *ckpt = nullptr;
  /// Chunk size, head dimensions (from prep; V from the scan's v).
  int64_t chunk = 0, kDim = 0, vDim = 0;
  /// Element type of q, k, v, o and the intermediates; of pool and ckpt;
  /// of the index arrays (cu_seqlens, state_indices, checkpoint_blocks:
  /// the template's IX, i32 or i64, from prep's cu_seqlens).
  DType in = DType::BF16, state = DType::F32, index = DType::I32;
  /// Element type of tp and us (the templates' TP): the input type, the
  /// other 16-bit type (f16 with bf16 inputs: 10-bit mantissas), or f32
  /// (their products in TF32), from prep's tp.
  DType mid = DType::BF16;
  /// Element type of pb (the templates' PB, TP by default): the same
  /// choices, from prep's pb.
  DType pb = DType::BF16;
  /// Element type of kl (the templates' KL): the input type or the other
  /// 16-bit type, from prep's kl.
  DType kl = DType::BF16;
  /// The facts of the scan kernel's pool, for the state checks.
  KdaKernelFacts pool;
  /// The facts of prep for the head-dimension and dtype checks.
  KdaKernelFacts io;
  /// Whether prep's q and k have the `hqk` dimension (grouped value heads);
  /// without it they have h heads and the call must leave hqk at 0 or h.
  bool groupedHeads = false;
  /// An activation prep (it declares the pointer A_log; then also dt_bias
  /// and the f32 scalar lower_bound): its gate family (`bind GF`: 0 given
  /// log decay, 1 bounded sigmoid, 2 softplus) and whether beta holds
  /// logits (`bind BS 1`) and q/k are normalised in it (`bind QKN 1`).
  bool activation = false;
  int gateFamily = 0;
  bool betaLogits = false, qkNorm = false;
  /// Whether the prep reads A_log and dt_bias (gate family 1 or 2, unless
  /// built without them: `bind AL 0`, `bind DB 0`).
  bool readsALog = false, readsDtBias = false;
  /// Kernels built with RDY=1: the prep sets a ready flag per chunk slot
  /// (`ready` [h, ns] i32, out) and the scan waits for them (`ready` in;
  /// launched as the prep's programmatic dependent, metadata `pdl 1`).
  bool readyFlags = false;
};

/// The prepared launch of kda2rt_kda_prefill (launchKdaPrefill's
/// counterpart, as KdaDecodePoolPlan is launchKdaDecodePool's). create()
/// resolves the kernels' facts (the metadata checks of checkKdaPrefill)
/// and, for each kernel, maps every parameter, grid term, `variant`
/// dimension and tensor map (data type, rank, box, swizzle, which
/// dimensions are static and which come from the call's sizes) to the
/// call's values; launch() runs the value checks of checkKdaPrefill (same
/// messages), computes the parameter buffers, grids and tensor-map
/// requests (nine; seven with a fused-output scan) on the stack, then
/// launches prep, scan, the checkpoint kernel (offset checkpoints) and out
/// (not with a fused-output scan) with the maps encoded into stack storage:
/// the driver calls of launchKdaPrefill, in its order, with the same
/// values, and no allocation. A plan made with a checkpoint kernel serves
/// calls with it (args.ckptKernel the same Kernel) and calls without
/// offset checkpoints; a call with another checkpoint kernel, and one the
/// prepared checks cannot word (a grid over the CUDA limits, an i32
/// scalar out of range, a tensor map over an unaligned tensor), is handed
/// to launchKdaPrefill, which words it. Metadata the plan cannot express
/// (parameters the entry point does not pass, dynamic tensor-map
/// dimensions, more than kMaxParams parameters or kMaxTensorMaps maps)
/// is refused by create(); use launchKdaPrefill for it.
class KDA2RT_API KdaPrefillPlan {
public:
  /// The activation prep takes 34 parameters.
  static constexpr size_t kMaxParams = 48;
  static constexpr size_t kMaxTensorMaps = 8;

  static Status create(const Kernel &prep, const Kernel &scan,
                       const Kernel &out, KdaPrefillPlan &plan);
  /// A plan that also launches the checkpoint kernel `ckpt` (null: none,
  /// as above) for calls with offset checkpoints.
  static Status create(const Kernel &prep, const Kernel &scan,
                       const Kernel &out, const Kernel *ckpt,
                       KdaPrefillPlan &plan);
  /// A plan with the output kernel optional: null with a fused-output
  /// scan (no out launch).
  static Status create(const Kernel &prep, const Kernel &scan,
                       const Kernel *out, const Kernel *ckpt,
                       KdaPrefillPlan &plan);
  bool valid() const { return kernels_[0].kernel != nullptr; }
  const Kernel *prep() const { return kernels_[0].kernel; }
  const Kernel *scan() const { return kernels_[1].kernel; }
  /// The output kernel (null: a fused-output scan).
  const Kernel *out() const { return kernels_[2].kernel; }
  /// The checkpoint kernel of the plan (null: made without one).
  const Kernel *ckpt() const { return kernels_[3].kernel; }
  Status launch(const KdaPrefillArgs &args, CUstream stream) const;

  /// One kernel's parameter packing (internal). Value indices: the
  /// kernel's pointers (kPrepPointers, ... order in KDA.cpp;
  /// kPrepActPointers for an activation prep), then the prefill sizes.
  struct Packing {
    /// ScaleF32/ScaleF64: the resolved scale; LowerBoundF32/F64: the
    /// call's lower_bound (activation preps).
    enum Source : uint8_t { Value, ValueI32, ValueF32, ValueF64, ScaleF32,
                            ScaleF64, LowerBoundF32, LowerBoundF64,
                            TensorMap };
    static constexpr uint8_t kNone = 0xFF;
    const Kernel *kernel = nullptr;
    uint8_t source[kMaxParams] = {}, index[kMaxParams] = {};
    size_t numParams = 0;
    /// grid.x terms (a value index, or kNone with its constant), grid.y
    /// factors (value indices).
    uint8_t gridX[kMaxParams] = {};
    int64_t gridXConstant[kMaxParams] = {};
    size_t numGridX = 0;
    uint8_t gridY[kMaxParams] = {};
    size_t numGridY = 0;
    /// `variant` copies: the value index of the dimension (kNone when the
    /// call does not give it), the size and the function.
    uint8_t variantDim[kMaxParams] = {};
    int64_t variantSize[kMaxParams] = {};
    CUfunction variantFunc[kMaxParams] = {};
    size_t numVariants = 0;
    /// Tensor maps: the parameter, element type, source pointer's value
    /// index, each map dimension's value index (kNone: static `extent`)
    /// and padding, the box and swizzle; rowStride: the value index of the
    /// source's runtime row stride (its `stride` line; kNone: dense), the
    /// outermost dimension's step in elements.
    struct Map {
      uint8_t param = 0, pointer = 0, rowStride = 0xFF;
      DType dtype = DType::F32;
      uint32_t rank = 0;
      uint8_t dim[PreparedTensorMap::kMaxRank] = {};
      int64_t extent[PreparedTensorMap::kMaxRank] = {};
      int64_t padTo[PreparedTensorMap::kMaxRank] = {};
      uint32_t box[PreparedTensorMap::kMaxRank] = {};
      int swizzle = 0;
    } maps[kMaxTensorMaps];
    size_t numMaps = 0;
  };

private:
  /// prep, scan, out, the checkpoint kernel (kernel null without one; out
  /// null with a fused-output scan).
  Packing kernels_[4];
  KdaPrefillFacts facts_;
};

} // namespace kda2::runtime

#endif // KDA2_RUNTIME_KDA_H
