/*===- kda2rt.h - C ABI of the kda2 runtime -----------------------*- C -*-===*
 *
 * The stable C interface of libkda2rt: load kda2-generated CUDA modules
 * (cubin or PTX) through the CUDA driver API and launch their kernels. Usable
 * from C, C++ and Python ctypes. The CUDA driver (libcuda.so.1) is loaded with
 * dlopen on first use, so linking this library needs no CUDA installation.
 *
 * Conventions:
 *  - Every function that can fail returns an int: 0 (KDA2RT_OK) on success, a
 *    KDA2RT_ERROR_* code otherwise. Functions taking (char *err, size_t errlen)
 *    write a NUL-terminated message there on failure (truncated to errlen; err
 *    may be NULL) and an empty string on success. The message of the last
 *    failure on the calling thread is also available from kda2rt_last_error().
 *  - Device pointers and streams are passed as void * (a CUdeviceptr, or a
 *    torch tensor's data_ptr(); a CUstream / cudaStream_t, NULL for the legacy
 *    default stream).
 *  - Handles are opaque. A kernel handle belongs to its module and is freed by
 *    kda2rt_module_unload. Strings returned as const char * live as long as the
 *    handle they come from.
 *  - No C++ exception crosses this interface.
 *
 *===----------------------------------------------------------------------===*/
#ifndef KDA2_RUNTIME_KDA2RT_H
#define KDA2_RUNTIME_KDA2RT_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define KDA2RT_API
#elif defined(__cplusplus)
#define KDA2RT_API [[gnu::visibility("default")]]
#else
#define KDA2RT_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
#define KDA2RT_NOEXCEPT noexcept
extern "C" {
#else
#define KDA2RT_NOEXCEPT
#endif

/* Error codes returned by the functions below. */
#define KDA2RT_OK 0
#define KDA2RT_ERROR_INVALID_ARGUMENT 1 /* bad handle/NULL, unknown or missing
                                           kernel argument, bad size */
#define KDA2RT_ERROR_NO_DRIVER 2        /* libcuda.so.1 missing or incomplete */
#define KDA2RT_ERROR_CUDA 3             /* a driver call failed; the message
                                           names the CUDA error */
#define KDA2RT_ERROR_METADATA 4         /* malformed __kda2_meta_<kernel> text */
#define KDA2RT_ERROR_NOT_FOUND 5        /* kernel or metadata not in module */
#define KDA2RT_ERROR_IO 6               /* a module file cannot be read */
#define KDA2RT_ERROR_LAUNCH_CONFIG 7    /* grid exceeds a CUDA limit */

typedef struct kda2rt_module_s *kda2rt_module;
typedef struct kda2rt_kernel_s *kda2rt_kernel;

/* Library version string, e.g. "kda2rt 0.1 (kda2-kernel-v1)". */
KDA2RT_API const char *kda2rt_version(void) KDA2RT_NOEXCEPT;
/* Symbolic name of an error code, e.g. "KDA2RT_ERROR_CUDA". */
KDA2RT_API const char *kda2rt_error_name(int code) KDA2RT_NOEXCEPT;
/* Message of the last failed call on this thread ("" if none). */
KDA2RT_API const char *kda2rt_last_error(void) KDA2RT_NOEXCEPT;

/* Validates kernel metadata text without a GPU. On success writes the kernel
 * name to name_out (if not NULL, truncated to name_len). */
KDA2RT_API int kda2rt_metadata_check(const char *text, char *name_out,
                                     size_t name_len, char *err,
                                     size_t errlen) KDA2RT_NOEXCEPT;

/* Loads the driver, retains the primary context of `device` and makes it
 * current on the calling thread. Idempotent; the other functions call it
 * implicitly for the device they use. */
KDA2RT_API int kda2rt_init(int device, char *err, size_t errlen) KDA2RT_NOEXCEPT;
/* Number of CUDA devices (loads the driver). */
KDA2RT_API int kda2rt_device_count(int *count, char *err,
                                   size_t errlen) KDA2RT_NOEXCEPT;

/* Loads a cubin, fatbin or PTX module (PTX is JIT-compiled by the driver). */
KDA2RT_API int kda2rt_module_load_file(int device, const char *path,
                                       kda2rt_module *out, char *err,
                                       size_t errlen) KDA2RT_NOEXCEPT;
KDA2RT_API int kda2rt_module_load_data(int device, const void *image,
                                       size_t size, kda2rt_module *out,
                                       char *err, size_t errlen) KDA2RT_NOEXCEPT;
/* Unloads the module and frees its kernel handles. NULL is a no-op. */
KDA2RT_API int kda2rt_module_unload(kda2rt_module module, char *err,
                                    size_t errlen) KDA2RT_NOEXCEPT;
/* kda2 kernels found in the module image (by their __kda2_meta_ globals). */
KDA2RT_API int kda2rt_module_num_kernels(kda2rt_module module) KDA2RT_NOEXCEPT;
KDA2RT_API const char *kda2rt_module_kernel_name(kda2rt_module module,
                                                 int index) KDA2RT_NOEXCEPT;

/* Looks a kernel up and reads its metadata. Repeated calls return the same
 * handle. */
KDA2RT_API int kda2rt_kernel_get(kda2rt_module module, const char *name,
                                 kda2rt_kernel *out, char *err,
                                 size_t errlen) KDA2RT_NOEXCEPT;
/* The kernel's metadata text as embedded in the module. */
KDA2RT_API const char *kda2rt_kernel_metadata(kda2rt_kernel kernel) KDA2RT_NOEXCEPT;
/* Counter slots declared by the kernel (0 if none). */
KDA2RT_API int kda2rt_kernel_num_counters(kda2rt_kernel kernel) KDA2RT_NOEXCEPT;
KDA2RT_API const char *kda2rt_kernel_counter_name(kda2rt_kernel kernel,
                                                  int index) KDA2RT_NOEXCEPT;
/* 1 if counter `index` is f64, 0 if i64, -1 if out of range. */
KDA2RT_API int kda2rt_kernel_counter_is_float(kda2rt_kernel kernel,
                                              int index) KDA2RT_NOEXCEPT;
/* The compile-time integer binding `name` the kernel was built with (a
 * `bind` line of its metadata, from kda2-translate --tirx-bind=GF=2,...: the
 * switches its source refers to, e.g. GF, BS, QKN of kda_decode_serve).
 * Returns 1 and sets *value if the kernel has that binding, 0 if not (*value
 * unchanged), -KDA2RT_ERROR_INVALID_ARGUMENT (-1) if kernel, name or value is
 * NULL (the message in kda2rt_last_error()). */
KDA2RT_API int kda2rt_kernel_binding(kda2rt_kernel kernel, const char *name,
                                     int64_t *value) KDA2RT_NOEXCEPT;

/* Launches `kernel` on `stream` (asynchronous). Pointer arguments (and the
 * counters buffer, named "counters") are given by name; dims give the size of
 * each named dimension; scalars are converted to the declared type (integer
 * scalars must hold integral values). Grid and block come from the metadata.
 * Every pointer argument must be given and non-null; unknown names are
 * errors. */
KDA2RT_API int kda2rt_launch(kda2rt_kernel kernel, const char **ptr_names,
                             void *const *ptrs, int nptr,
                             const char **dim_names, const int64_t *dims,
                             int ndim, const char **scalar_names,
                             const double *scalars, int nscalar, void *stream,
                             char *err, size_t errlen) KDA2RT_NOEXCEPT;

/* Copies the kernel's counter slots from the device buffer `counters`
 * (synchronous; synchronize the launch stream first). capacity must be at least
 * kda2rt_kernel_num_counters(kernel). values[i] (if not NULL) receives each
 * slot converted to double per its declared type; raw[i] (if not NULL) the
 * slot's 8 bytes. */
KDA2RT_API int kda2rt_read_counters(kda2rt_kernel kernel, const void *counters,
                                    double *values, int64_t *raw, int capacity,
                                    char *err, size_t errlen) KDA2RT_NOEXCEPT;

/* Kimi Delta Attention decode (flash-linear-attention's fused_recurrent_kda
 * contract) through a kernel built from templates/kda_decode*.tirx:
 * q, k, g [n, t, h, k_dim] (g: fp32 log decay), v, o [n, t, h, v_dim] (q, k,
 * v, o in `dtype`: "bf16" or "f16", the type the kernel was built for;
 * NULL means "bf16"),
 * beta [n, t, h] fp32, h0/ht fp32 states in `state_layout`: "kv" ([n, h, K,
 * V], K-major: element (k, v) of a head's state at k * V + v) or "vk" ([n,
 * h, V, K], V-major: at v * K + k). state_layout is required and must be
 * the layout the kernel's metadata declares (its `state` lines), also when
 * K == V. Contiguous, 16-byte aligned device buffers; h0 is read, ht
 * written (they must not alias). scale 0 selects k_dim^-1/2. The head
 * dimensions must be the ones the kernel was compiled for (64, 128 or
 * 256). */
typedef struct kda2rt_kda_decode_args {
  const void *q, *k, *v, *g, *beta, *h0; /* in */
  void *o, *ht;                          /* out */
  int64_t n, t, h, k_dim, v_dim;
  double scale;
  const char *dtype;
  const char *state_layout; /* "kv" or "vk" (required) */
} kda2rt_kda_decode_args;

KDA2RT_API int kda2rt_kda_decode(kda2rt_kernel kernel,
                                 const kda2rt_kda_decode_args *args,
                                 void *stream, char *err,
                                 size_t errlen) KDA2RT_NOEXCEPT;

/* Whether kda2rt_kda_decode(kernel, args, ...) would accept the call, without
 * touching the GPU: 1 if it is supported (`reason` becomes ""), 0 if not
 * (`reason` says why: not a decode kernel, head dimensions other than the
 * kernel's, dtype, state_layout, non-positive sizes, scale, a NULL or
 * misaligned operand, h0 aliasing ht, the grid over the CUDA limits), -1
 * when kernel or args is NULL. An engine asks once per shape class at
 * start-up instead of finding out at the first call. */
KDA2RT_API int kda2rt_kda_decode_query(kda2rt_kernel kernel,
                                       const kda2rt_kda_decode_args *args,
                                       char *reason,
                                       size_t reasonlen) KDA2RT_NOEXCEPT;

/* KDA decode of a packed batch through an indexed, in-place state pool
 * (vLLM's / SGLang's SSM state cache), with a kernel built from
 * templates/kda_decode_pool.tirx. docs/Runtime.md ("The serving contract")
 * is the full contract. n sequences, total_tokens tokens; sequence i owns
 * tokens cu_seqlens[i] .. cu_seqlens[i+1]-1 and pool slot state_indices[i]:
 * - 0 <= slot < slots: its state starts from pool[slot] when
 *   has_initial_state[i] != 0, else from zeros; its tokens run the KDA
 *   recurrence (fp32 accumulation), o receives their outputs and the final
 *   state is written back to pool[slot] in place (an empty sequence writes
 *   its initial state back unchanged);
 * - slot < 0 or slot >= slots (padding, e.g. PAD_SLOT_ID = -1): its o rows
 *   are zeroed and the pool is not touched.
 * Two live sequences with the same slot are undefined behaviour. Inputs are
 * never written. No host synchronisation, no device allocation; cu_seqlens
 * and state_indices are never read on the host: the call can be captured
 * in a CUDA graph. */
typedef struct kda2rt_kda_decode_pool_args {
  const void *q;                 /* in  [total_tokens, h, k_dim] dtype */
  const void *k;                 /* in  [total_tokens, h, k_dim] dtype */
  const void *v;                 /* in  [total_tokens, h, v_dim] dtype */
  const void *g;                 /* in  [total_tokens, h, k_dim] fp32 log
                                    decay */
  const void *beta;              /* in  [total_tokens, h] fp32 */
  const void *cu_seqlens;        /* in  [n + 1] index_dtype, device only */
  const void *state_indices;     /* in  [n] index_dtype pool slot per
                                    sequence */
  const void *has_initial_state; /* in  [n] int32, 0: start from zeros */
  void *pool;                    /* inout [slots, h, k_dim, v_dim] ("kv") or
                                    [slots, h, v_dim, k_dim] ("vk") of
                                    state_dtype */
  void *o;                       /* out [total_tokens, h, v_dim] dtype */
  int64_t n, total_tokens, h, k_dim, v_dim, slots;
  double scale;                  /* 0: k_dim^-1/2 */
  const char *dtype;             /* q, k, v, o: "bf16" (NULL) or "f16" */
  const char *state_dtype;       /* pool: "f32" (NULL) or "bf16" */
  const char *state_layout;      /* "kv" or "vk" (required) */
  const char *index_dtype;       /* cu_seqlens, state_indices: "i32" (NULL)
                                    or "i64"; the kernel's IX binding */
  int64_t q_stride, k_stride, v_stride, g_stride, beta_stride;
  /* elements between consecutive rows (tokens) of each input; 0: dense
     (h*k_dim for q, k, g; h*v_dim for v; h for beta). Otherwise at least
     the dense row size and a multiple of 16 bytes; rows may be slices of
     one fused projection. */
} kda2rt_kda_decode_pool_args;

/* Checks the call (kda2rt_kda_decode_pool_query's questions) and launches
 * it on `stream` (asynchronous; a prepared launch that allocates nothing). */
KDA2RT_API int kda2rt_kda_decode_pool(kda2rt_kernel kernel,
                                      const kda2rt_kda_decode_pool_args *args,
                                      void *stream, char *err,
                                      size_t errlen) KDA2RT_NOEXCEPT;

/* Whether kda2rt_kda_decode_pool would accept the call, without touching the
 * GPU: 1 if supported (`reason` becomes ""), 0 if not (`reason` says why:
 * not a pool decode kernel, head dimensions, dtype, state_dtype,
 * state_layout, index_dtype, sizes, scale, a NULL or misaligned operand, pool or o
 * overlapping another operand, the grid over the CUDA limits), -1 when
 * kernel or args is NULL. */
KDA2RT_API int
kda2rt_kda_decode_pool_query(kda2rt_kernel kernel,
                             const kda2rt_kda_decode_pool_args *args,
                             char *reason, size_t reasonlen) KDA2RT_NOEXCEPT;

/* The whole decode of a KDA layer in one launch, with a kernel built from
 * templates/kda_decode_conv.tirx (kda_decode_conv_k128_gf{1,2}):
 * the causal conv1d update + SiLU of the packed projection qkv, q/k L2
 * norm, the gate of family GF from the raw `a` (GF 1: lower_bound *
 * sigmoid(exp(A_log) * (a + dt_bias)); GF 2, Kimi-Linear's: -exp(A_log) *
 * softplus(a + dt_bias)), beta = sigmoid(b), the KDA update through the
 * indexed, in-place pool and the sigmoid-gated RMSNorm of the output
 * (o * rsqrt(mean(o^2) + eps) * norm_w * sigmoid(gout)). docs/Runtime.md
 * ("Fused layer decode") is the full contract. Sequences, slots and padding
 * as in kda2rt_kda_decode_pool; conv_state[slot] is read (zeros when
 * has_initial_state[i] == 0) and written back like pool[slot]. D =
 * 2*h*k_dim + h*v_dim: q channels [0, h*k_dim), k [h*k_dim, 2*h*k_dim), v
 * after them; head j owns q/k channels j*k_dim .. and v channels j*v_dim ..
 * The gate family is bound when the kernel is built and is not in its
 * metadata: a GF 2 kernel ignores lower_bound. Inputs are never written; no
 * host synchronisation, no device allocation: the call can be captured in a
 * CUDA graph. */
typedef struct kda2rt_kda_decode_conv_args {
  const void *qkv;               /* in  [total_tokens, D] dtype, rows
                                    qkv_stride elements apart */
  const void *conv_w;            /* in  [D, conv_width] fp32 (no bias) */
  const void *a;                 /* in  [total_tokens, h, k_dim] fp32 raw
                                    gate */
  const void *b;                 /* in  [total_tokens, h] fp32 beta logits */
  const void *gout;              /* in  [total_tokens, h, v_dim] dtype output
                                    gate (before the sigmoid) */
  const void *A_log;             /* in  [h] fp32; NULL allowed for a
                                    kernel built without it (`bind AL 0`:
                                    exp(A_log) is 1) */
  const void *dt_bias;           /* in  [h, k_dim] fp32; NULL allowed with
                                    `bind DB 0` (no dt_bias, 0) */
  const void *norm_w;            /* in  [v_dim] fp32 RMSNorm weight */
  const void *cu_seqlens;        /* in  [n + 1] index_dtype, device only */
  const void *state_indices;     /* in  [n] index_dtype slot per sequence */
  const void *has_initial_state; /* in  [n] int32, 0: start from zeros */
  void *conv_state;              /* inout [slots, D, conv_width - 1] dtype,
                                    the previous inputs, oldest first */
  void *pool;                    /* inout [slots, h, k_dim, v_dim] ("kv") or
                                    [slots, h, v_dim, k_dim] ("vk") of
                                    state_dtype */
  void *o;                       /* out [total_tokens, h, v_dim] dtype */
  int64_t n, total_tokens, h, k_dim, v_dim;
  int64_t conv_width;            /* W, the kernel's (conv_w [D, W]) */
  int64_t slots;
  int64_t qkv_stride;            /* elements between rows of qkv; 0: dense
                                    (D). Otherwise >= D and a multiple of 16
                                    bytes (a slice of a wider projection) */
  double scale;                  /* 0: k_dim^-1/2 */
  double lower_bound;            /* gate family 1's bound (finite); GF 2
                                    kernels ignore it */
  double eps;                    /* RMSNorm epsilon, finite, >= 0 */
  const char *dtype;             /* qkv, gout, conv_state, o: "bf16" (NULL)
                                    or "f16" */
  const char *state_dtype;       /* pool: "f32" (NULL) or "bf16" */
  const char *state_layout;      /* "kv" or "vk" (required) */
  const char *index_dtype;       /* cu_seqlens, state_indices: "i32" (NULL)
                                    or "i64"; the kernel's IX binding */
} kda2rt_kda_decode_conv_args;

/* Checks the call (kda2rt_kda_decode_conv_query's questions) and launches
 * it on `stream` (asynchronous; a prepared launch that allocates nothing). */
KDA2RT_API int kda2rt_kda_decode_conv(kda2rt_kernel kernel,
                                      const kda2rt_kda_decode_conv_args *args,
                                      void *stream, char *err,
                                      size_t errlen) KDA2RT_NOEXCEPT;

/* Whether kda2rt_kda_decode_conv would accept the call, without touching the
 * GPU: 1 if supported (`reason` becomes ""), 0 if not (`reason` says why:
 * not a conv decode kernel, head dimensions, conv_width, dtype,
 * state_dtype, state_layout, index_dtype, sizes, qkv_stride, scale,
 * lower_bound, eps, a NULL or misaligned operand, conv_state, pool or o
 * overlapping another operand, the grid over the CUDA limits), -1 when
 * kernel or args is NULL. */
KDA2RT_API int
kda2rt_kda_decode_conv_query(kda2rt_kernel kernel,
                             const kda2rt_kda_decode_conv_args *args,
                             char *reason, size_t reasonlen) KDA2RT_NOEXCEPT;

/* Speculative (multi-token) KDA decode through an indexed, in-place state
 * pool, with a kernel built from templates/kda_decode_spec.tirx: the verify
 * step of speculative decoding. docs/Runtime.md ("The serving contract") is
 * the full contract. n sequences of t tokens each (1 <= t <= 16: the last
 * accepted token and the drafts); row state_indices[seq, 0..t-1] names the
 * pool slot of the state after each token:
 * - the recurrence starts from pool[state_indices[seq, num_accepted[seq]-1]]
 *   when num_accepted[seq] > 0 and that slot is in [0, slots), else from
 *   zeros;
 * - the state after token i is written to pool[state_indices[seq, i]] when
 *   that slot is in [0, slots), and nowhere otherwise (t distinct slots:
 *   a state after every token; all -1 but the source slot: output only);
 * - state_indices[seq, 0] < 0 marks padding: o rows zeroed, pool untouched.
 * Two live sequences writing the same slot are undefined behaviour. Inputs
 * are never written. No host synchronisation, no device allocation, the
 * index arrays are never read on the host: the call can be captured in a
 * CUDA graph. */
typedef struct kda2rt_kda_decode_spec_args {
  const void *q;             /* in  [n, t, h, k_dim] dtype */
  const void *k;             /* in  [n, t, h, k_dim] dtype */
  const void *v;             /* in  [n, t, h, v_dim] dtype */
  const void *g;             /* in  [n, t, h, k_dim] fp32 log decay */
  const void *beta;          /* in  [n, t, h] fp32 */
  const void *state_indices; /* in  [n, t] index_dtype pool slot per token */
  const void *num_accepted;  /* in  [n] index_dtype tokens accepted last
                                step */
  void *pool;                /* inout [slots, h, k_dim, v_dim] ("kv") or
                                [slots, h, v_dim, k_dim] ("vk") of
                                state_dtype */
  void *o;                   /* out [n, t, h, v_dim] dtype */
  int64_t n, t, h, k_dim, v_dim, slots;
  double scale;              /* 0: k_dim^-1/2 */
  const char *dtype;         /* q, k, v, o: "bf16" (NULL) or "f16" */
  const char *state_dtype;   /* pool: "f32" (NULL) or "bf16" */
  const char *state_layout;  /* "kv" or "vk" (required) */
  int64_t write_states;      /* 1: the state after each token to its slot;
                                0: output only, the pool is only read */
  const char *index_dtype;   /* state_indices, num_accepted: "i32" (NULL)
                                or "i64"; the kernel's IX binding */
  int64_t q_stride, k_stride, v_stride, g_stride, beta_stride;
  /* elements between consecutive rows of each input, a row being one
     SEQUENCE's t tokens (its t tokens stay dense); 0: dense (t*h*k_dim for
     q, k, g; t*h*v_dim for v; t*h for beta). Otherwise at least the dense
     row size and a multiple of 16 bytes. */
} kda2rt_kda_decode_spec_args;

/* Checks the call (kda2rt_kda_decode_spec_query's questions) and launches
 * it on `stream` (asynchronous; a prepared launch that allocates nothing). */
KDA2RT_API int kda2rt_kda_decode_spec(kda2rt_kernel kernel,
                                      const kda2rt_kda_decode_spec_args *args,
                                      void *stream, char *err,
                                      size_t errlen) KDA2RT_NOEXCEPT;

/* Whether kda2rt_kda_decode_spec would accept the call, without touching
 * the GPU: 1 if supported (`reason` becomes ""), 0 if not (`reason` says
 * why: not a speculative decode kernel, head dimensions, dtype,
 * state_dtype, state_layout, index_dtype, sizes (t outside [1, 16] included), scale, a
 * NULL or misaligned operand, pool or o overlapping another operand, the
 * grid over the CUDA limits), -1 when kernel or args is NULL. */
KDA2RT_API int
kda2rt_kda_decode_spec_query(kda2rt_kernel kernel,
                             const kda2rt_kda_decode_spec_args *args,
                             char *reason, size_t reasonlen) KDA2RT_NOEXCEPT;

/* Chunked prefill through the indexed state pool (docs/Runtime.md,
 * "Prefill"): three kernels on one stream, kda_chunk_prep (module of
 * templates/kda_chunk_split.tirx, or the activation prep of
 * templates/kda_chunk_prep_act.tirx), kda_chunk_scan_h and kda_chunk_out
 * (templates/kda_chunk_h.tirx), their intermediates in a caller-owned
 * workspace of kda2rt_kda_prefill_workspace_size bytes (1024-byte aligned).
 * Sequence i owns tokens cu_seqlens[i] .. cu_seqlens[i+1] - 1 and slot
 * state_indices[i] as in kda2rt_kda_decode_pool. The intermediates are per
 * (head, chunk slot): chunk c of sequence i in slot floor(cu_seqlens[i] /
 * C) + i + c, ns = floor(total_tokens / C) + n slots for any lengths, so
 * the workspace depends on n and total_tokens only. checkpoint_blocks[i,
 * j] names the block of ckpt that receives the state at the end of chunk
 * j (outside [0, blocks): none), nc = ceil(max_seqlen / C) columns (a
 * longer sequence's chunks past column nc - 1 read column nc - 1); NULL
 * for no chunk-boundary checkpoints. No host synchronisation, no device
 * allocation, no memset, cu_seqlens and the checkpoint tables never read
 * on the host: the call can be captured in a CUDA graph.
 *
 * Checkpoints at token offsets (prefix caching on blocks that need not end
 * on a chunk edge; appended fields after lower_bound): ckpt_offsets[i, j]
 * = t asks for the state after the first t tokens of sequence i, t in
 * [1, len_i] (any other t: none), in block offset_blocks[i, j] of ckpt
 * (outside [0, blocks): none); m columns per table. An offset t that is a
 * multiple of C gives the state of the chunk-boundary checkpoint of chunk
 * t / C - 1 (equal within rounding, computed another way); t = len_i gives
 * the final state; a padding sequence (slot outside [0, slots)) gets none;
 * duplicate offsets are allowed (each writes its block); one block named
 * twice in a call, by offsets or by checkpoint_blocks, is undefined (either
 * write may win). Offsets and checkpoint_blocks are independent (either,
 * both or neither); ckpt (and blocks > 0) is required iff either table is
 * given. The call then runs four kernels: prep, scan, ckpt_kernel
 * (kda_chunk_ckpt, the scan's module: it completes the offsets' blocks
 * after the scan; grid (n*m, h)), out. The workspace grows by the offsets'
 * kc and ec (kda2rt_kda_prefill_workspace_size_offsets).
 *
 * Fused-output scan: scan_kernel may instead be kda_chunk_scan_o (same
 * module), the state scan with the output computed in it: it takes
 * kda_chunk_scan_h's arguments plus qd and pb and writes o itself, so
 * out_kernel must be NULL (a kernel with the pointers o, qd and pb and no
 * hs is taken as one; with it a non-NULL out_kernel is refused, naming
 * 'out_kernel'; with kda_chunk_scan_h a NULL one is refused as before).
 * The call then runs prep, the scan (grid (V/VB, n*h)) and, with offset
 * checkpoints, ckpt_kernel after it: no out launch, and the workspace
 * holds no hs ([h, ns, V, K] of dtype, the largest intermediate): pass
 * out_kernel NULL to the size functions too. Which to pick: the fused scan
 * when the launch is throughput-bound, n*h*V/VB scan programs more than
 * the GPU's SMs (H200, 132: 13 % faster, e.g. 8 x 4096 tokens x 16
 * heads 1.29 vs 1.48 ms, bench/RESULTS.md stop 20); kda_chunk_scan_h +
 * kda_chunk_out for a few long sequences, which leave most SMs idle
 * during the scan while out runs on all of them (1 x 4096 x 8 heads:
 * 0.248 vs 0.190 ms).
 *
 * Activation prep: a prep kernel that declares A_log
 * (templates/kda_chunk_prep_act.tirx) computes in the kernel what its
 * `bind` lines (kda2rt_kernel_binding) say: the gate of family GF (`bind
 * GF`: 0 = g is the per-step log decay, any value <= 0; 1 = g is the raw
 * activation x, gate = lower_bound * sigmoid(exp(A_log) * (x + dt_bias));
 * 2 = raw activation, gate = -exp(A_log) * softplus(x + dt_bias)), the β
 * sigmoid (BS = 1: beta holds logits) and the q/k L2 norm (QKN = 1). With
 * GF 1 or 2 gate_lower_bound is ignored (the kernel needs no bound). A
 * kernel with A_log but no `bind GF` line, or GF outside 0..2, is refused.
 * Other prep kernels never read A_log, dt_bias and lower_bound (leave them
 * zero). */
typedef struct kda2rt_kda_prefill_args {
  const void *q;             /* in  [total_tokens, hqk, k_dim] dtype */
  const void *k;             /* in  [total_tokens, hqk, k_dim] dtype */
  const void *v;             /* in  [total_tokens, h, v_dim] dtype */
  const void *g;             /* in  [total_tokens, h, k_dim] fp32 log decay */
  const void *beta;          /* in  [total_tokens, h] fp32 */
  const void *cu_seqlens;    /* in  [n + 1] index_dtype (device only) */
  const void *state_indices; /* in  [n] index_dtype pool slot per sequence */
  const void *has_initial_state; /* in  [n] int32, 0: start from zeros */
  const void *checkpoint_blocks; /* in  [n, nc] index_dtype ckpt block per
                                    chunk, or NULL: no checkpoints */
  void *pool;                    /* inout [slots, h, k_dim, v_dim] ("kv") or
                                    [slots, h, v_dim, k_dim] ("vk") of
                                    state_dtype */
  void *ckpt;                    /* out [blocks, h, ..] like the pool; NULL
                                    iff checkpoint_blocks and ckpt_offsets
                                    are NULL */
  void *o;                       /* out [total_tokens, h, v_dim] dtype */
  void *workspace;               /* scratch, 1024-byte aligned */
  size_t workspace_bytes;        /* >= kda2rt_kda_prefill_workspace_size
                                    (_offsets with offset checkpoints) */
  int64_t n, total_tokens, max_seqlen, h, k_dim, v_dim, slots, blocks;
  double scale;             /* 0: k_dim^-1/2 */
  const char *dtype;        /* q, k, v, o: "bf16" (NULL) or "f16" */
  const char *state_dtype;  /* pool, ckpt: "f32" (NULL) or "bf16" */
  const char *state_layout; /* "kv" or "vk" (required) */
  double gate_lower_bound;  /* lowest per-step log decay of the gate
                               (-inf: unbounded); must be within the
                               prep kernel's `range g`; ignored by an
                               activation prep of GF 1 or 2 */
  const char *index_dtype;  /* cu_seqlens, state_indices, checkpoint_blocks:
                               "i32" (NULL) or "i64"; the kernels' IX
                               binding */
  int64_t q_stride, k_stride, v_stride, g_stride, beta_stride;
  /* elements between consecutive rows (tokens) of each input, read by the
     prep kernel; 0: dense (hqk*k_dim for q, k; h*k_dim for g; h*v_dim
     for v; h for beta). Otherwise at least the dense row size and a
     multiple of 16 bytes. */
  int64_t hqk; /* q/k heads (GVA): 0 = h; h must be a multiple */
  /* Grouped value heads: value head j (v, g, beta, o, the states) reads
     q/k head j * hqk / h. hqk < h needs a prep kernel with the hqk
     dimension (templates/kda_chunk_split.tirx); the workspace does not
     depend on it. */
  /* Activation prep only (see above; appended fields: zero them for
     other prep kernels). */
  const void *A_log;   /* in  [h] fp32, per value head; read with GF 1, 2:
                          non-NULL, 4-byte aligned, not overlapping pool,
                          o, workspace or ckpt; GF 0 or a kernel built
                          without it (`bind AL 0`: exp(A_log) is 1, the
                          gate lower_bound * sigmoid(x + dt_bias)): may be
                          NULL (unread) */
  const void *dt_bias; /* in  [h, k_dim] fp32; as A_log (`bind DB 0`: no
                          dt_bias, 0) */
  double lower_bound;  /* GF 1: the gate's bound, <= 0 and finite as fp32
                          (passed as fp32); GF 0, 2: unread */
  /* Checkpoints at token offsets (see above; appended fields: zero them for
     none). */
  const void *ckpt_offsets;  /* in  [n, m] index_dtype: entry (i, j) = t asks
                                for the state after the first t tokens of
                                sequence i, t in [1, len_i]; other t: none.
                                NULL: no offset checkpoints */
  const void *offset_blocks; /* in  [n, m] index_dtype: the ckpt block of
                                entry (i, j); outside [0, blocks): none */
  int64_t m;                 /* columns of both tables; 0 iff ckpt_offsets
                                is NULL */
  kda2rt_kernel ckpt_kernel; /* kda_chunk_ckpt (same module as scan),
                                required iff ckpt_offsets is non-NULL */
} kda2rt_kda_prefill_args;

/* Bytes of the workspace of a prefill call with up to n_max sequences and
 * up to max_total_tokens tokens (the call's total_tokens, padding
 * included), and h heads, whatever the sequences' lengths (every
 * intermediate per chunk slot, 1024-byte aligned inside it; docs/Runtime.md
 * gives the layout). max_total_tokens in [0, 2^31 - 1] with int32
 * kernels (IX=i32). Checks the three kernels as the call does (kernels
 * built before chunk slots are refused); with a fused-output scan
 * out_kernel is NULL and the size has no hs. */
KDA2RT_API int kda2rt_kda_prefill_workspace_size(
    kda2rt_kernel prep_kernel, kda2rt_kernel scan_kernel,
    kda2rt_kernel out_kernel, int64_t n_max, int64_t max_total_tokens,
    int64_t h, size_t *bytes, char *err, size_t errlen) KDA2RT_NOEXCEPT;

/* kda2rt_kda_prefill_workspace_size for calls with up to m_max offset
 * checkpoints per sequence (m_max >= 0, n_max * m_max <= 2^31 - 1): the
 * intermediates, then kc [h, n*m, C, k_dim] (dtype) and ec [h, n*m,
 * k_dim] fp32, each 1024-byte aligned (m_max = 0: the size of
 * kda2rt_kda_prefill_workspace_size). A call with m offset columns needs
 * the size for its own n, total_tokens, h and m. */
KDA2RT_API int kda2rt_kda_prefill_workspace_size_offsets(
    kda2rt_kernel prep_kernel, kda2rt_kernel scan_kernel,
    kda2rt_kernel out_kernel, int64_t n_max, int64_t max_total_tokens,
    int64_t h, int64_t m_max, size_t *bytes, char *err,
    size_t errlen) KDA2RT_NOEXCEPT;

/* Checks the call (kda2rt_kda_prefill_query's questions) and runs it on
 * `stream`: prep, scan, ckpt_kernel (offset checkpoints only), out (not
 * with a fused-output scan, out_kernel NULL; asynchronous; a refused call
 * launches nothing). */
KDA2RT_API int kda2rt_kda_prefill(kda2rt_kernel prep_kernel,
                                  kda2rt_kernel scan_kernel,
                                  kda2rt_kernel out_kernel,
                                  const kda2rt_kda_prefill_args *args,
                                  void *stream, char *err,
                                  size_t errlen) KDA2RT_NOEXCEPT;

/* Whether kda2rt_kda_prefill would accept the call, without touching the
 * GPU: 1 (`reason` ""), 0 with the reason (the kernels' kinds and
 * agreement, ckpt_kernel's included, kernels built before checkpoints at
 * token offsets, an activation prep's bindings, the gate bound or GF 1's
 * lower_bound, head dimensions, dtypes, state layout, index_dtype, sizes,
 * m and the offset tables, scale, NULL or misaligned operands, the
 * workspace's size, overlaps, the grids over the CUDA limits; out_kernel
 * given with a fused-output scan), -1 when prep_kernel, scan_kernel or
 * args is NULL, or out_kernel with a scan other than a fused-output
 * one. */
KDA2RT_API int kda2rt_kda_prefill_query(kda2rt_kernel prep_kernel,
                                        kda2rt_kernel scan_kernel,
                                        kda2rt_kernel out_kernel,
                                        const kda2rt_kda_prefill_args *args,
                                        char *reason,
                                        size_t reasonlen) KDA2RT_NOEXCEPT;

/* Minimal memory helpers for programs without another CUDA library. */
KDA2RT_API int kda2rt_mem_alloc(int device, size_t bytes, void **out,
                                char *err, size_t errlen) KDA2RT_NOEXCEPT;
KDA2RT_API int kda2rt_mem_free(int device, void *ptr, char *err,
                               size_t errlen) KDA2RT_NOEXCEPT;
KDA2RT_API int kda2rt_memcpy_htod(int device, void *dst, const void *src,
                                  size_t bytes, char *err,
                                  size_t errlen) KDA2RT_NOEXCEPT;
KDA2RT_API int kda2rt_memcpy_dtoh(int device, void *dst, const void *src,
                                  size_t bytes, char *err,
                                  size_t errlen) KDA2RT_NOEXCEPT;
KDA2RT_API int kda2rt_stream_synchronize(int device, void *stream, char *err,
                                         size_t errlen) KDA2RT_NOEXCEPT;

/*===--------------------------------------------------------------------===*
 * Bundles (docs/Bundle.md): shared libraries made by kda2-link that embed
 * cubins and a dispatch table, and register themselves with this library
 * when loaded. Lookups are by op name and runtime length.
 *===--------------------------------------------------------------------===*/

/* Version of the descriptor layout below; kda2rt_bundle_register rejects
 * another one. */
#define KDA2RT_BUNDLE_ABI_VERSION 1

typedef struct kda2rt_bundle_s *kda2rt_bundle;

/* One embedded module image (cubin, fatbin or PTX). */
typedef struct kda2rt_bundle_image {
  const char *label; /* e.g. the source file name */
  const char *chip;  /* sm_XY[a] */
  const void *data;
  size_t size;
} kda2rt_bundle_image;

/* One dispatch-table entry: kernel `kernel` of image `image` runs op `op`
 * on `chip` for dim values min_length..max_length (inclusive), or for every
 * length no specialisation covers when `generic` is non-zero. */
typedef struct kda2rt_bundle_entry {
  const char *op;
  const char *dim; /* the dispatch dimension, e.g. "t" */
  const char *chip;
  const char *kernel;
  int64_t min_length, max_length;
  int generic;
  int image;
} kda2rt_bundle_entry;

typedef struct kda2rt_bundle_desc {
  int abi_version; /* KDA2RT_BUNDLE_ABI_VERSION */
  const char *name;
  int num_images;
  const kda2rt_bundle_image *images;
  int num_entries;
  const kda2rt_bundle_entry *entries;
} kda2rt_bundle_desc;

/* Registers a bundle under desc->name (the descriptor and the images must
 * stay valid until kda2rt_bundle_unregister; a bundle's constructor does
 * this). Checks the ABI version and the table (duplicate specialisations,
 * bad chips, images out of range). No GPU needed: modules are loaded on
 * first use. */
KDA2RT_API int kda2rt_bundle_register(const kda2rt_bundle_desc *desc,
                                      kda2rt_bundle *out, char *err,
                                      size_t errlen) KDA2RT_NOEXCEPT;
/* Unloads the bundle's modules and removes it from the registry. NULL is a
 * no-op. */
KDA2RT_API int kda2rt_bundle_unregister(kda2rt_bundle bundle, char *err,
                                        size_t errlen) KDA2RT_NOEXCEPT;
/* Registered bundles, in registration order. */
KDA2RT_API int kda2rt_bundle_count(void) KDA2RT_NOEXCEPT;
KDA2RT_API const char *kda2rt_bundle_name_at(int index) KDA2RT_NOEXCEPT;
KDA2RT_API int kda2rt_bundle_find(const char *name, kda2rt_bundle *out,
                                  char *err, size_t errlen) KDA2RT_NOEXCEPT;
KDA2RT_API const char *kda2rt_bundle_name(kda2rt_bundle bundle) KDA2RT_NOEXCEPT;
/* A description: name, images (chip, bytes), one line per table entry. */
KDA2RT_API const char *kda2rt_bundle_describe(kda2rt_bundle bundle) KDA2RT_NOEXCEPT;

/* The table entry for `op` at `length` on a device of compute capability
 * major.minor, without a GPU: its kernel name and whether it is the generic
 * one. Errors: unknown op, no chip for the device, length outside the
 * table with no generic kernel (KDA2RT_ERROR_NOT_FOUND). */
KDA2RT_API int kda2rt_bundle_query(kda2rt_bundle bundle, const char *op,
                                   int major, int minor, int64_t length,
                                   const char **kernel, int *generic,
                                   char *err, size_t errlen) KDA2RT_NOEXCEPT;
/* The kernel for `op` at `length` on `device` (its module is loaded on first
 * use), usable with kda2rt_launch / kda2rt_kda_decode. */
KDA2RT_API int kda2rt_bundle_select(kda2rt_bundle bundle, int device,
                                    const char *op, int64_t length,
                                    kda2rt_kernel *out, char *err,
                                    size_t errlen) KDA2RT_NOEXCEPT;
/* kda2rt_launch of the kernel selected by the value of the op's dispatch
 * dimension in `dims`. */
KDA2RT_API int kda2rt_bundle_launch(
    kda2rt_bundle bundle, int device, const char *op, const char **ptr_names,
    void *const *ptrs, int nptr, const char **dim_names, const int64_t *dims,
    int ndim, const char **scalar_names, const double *scalars, int nscalar,
    void *stream, char *err, size_t errlen) KDA2RT_NOEXCEPT;
/* kda2rt_kda_decode of the kernel selected for length args->t. */
KDA2RT_API int kda2rt_bundle_kda_decode(kda2rt_bundle bundle, int device,
                                        const char *op,
                                        const kda2rt_kda_decode_args *args,
                                        void *stream, char *err,
                                        size_t errlen) KDA2RT_NOEXCEPT;

/* Per-call statistics of one op of a bundle. */
typedef struct kda2rt_call_stats {
  int64_t calls;          /* successful launches */
  int64_t timed_calls;    /* of which timed with CUDA events */
  double host_us_total;   /* host time inside the launch call */
  double host_us_max;
  double gpu_ms_total;    /* kernel time between the events */
  double gpu_ms_min, gpu_ms_max, gpu_ms_last;
} kda2rt_call_stats;

/* Timing: CUDA events around every launch (timing != 0). Counters: kernels
 * that declare `counter` slots get a device buffer owned by the bundle
 * (zeroed when enabled) unless the call passes "counters" itself; the
 * kernels add to it. Both off by default. */
KDA2RT_API int kda2rt_bundle_set_profiling(kda2rt_bundle bundle, int timing,
                                           int counters, char *err,
                                           size_t errlen) KDA2RT_NOEXCEPT;
/* Statistics of `op` (waits for the pending timing events). */
KDA2RT_API int kda2rt_bundle_stats(kda2rt_bundle bundle, const char *op,
                                   kda2rt_call_stats *out, char *err,
                                   size_t errlen) KDA2RT_NOEXCEPT;
/* The op's counter values summed by name over its kernels' buffers
 * (synchronous). Writes up to `capacity` names/values and the number of
 * counters to *count (0: the op's kernels declare none). The names stay
 * valid until the next call for this bundle. */
KDA2RT_API int kda2rt_bundle_read_counters(kda2rt_bundle bundle,
                                           const char *op, const char **names,
                                           double *values, int capacity,
                                           int *count, char *err,
                                           size_t errlen) KDA2RT_NOEXCEPT;
/* Zeroes the statistics and the counter buffers of every op. */
KDA2RT_API int kda2rt_bundle_reset_stats(kda2rt_bundle bundle, char *err,
                                         size_t errlen) KDA2RT_NOEXCEPT;

/*===--------------------------------------------------------------------===*
 * Recurrent-state pool (kda2::runtime::StateManager): device-resident,
 * double-buffered states per sequence id, within a byte budget.
 *===--------------------------------------------------------------------===*/

typedef struct kda2rt_state_pool_s *kda2rt_state_pool;

#define KDA2RT_STATE_SINGLE_BUFFER 1 /* read == write (in-place kernels) */
#define KDA2RT_STATE_EVICT_LRU 2     /* evict LRU batches instead of failing */
#define KDA2RT_STATE_NO_ZERO 4       /* do not zero new states */
#define KDA2RT_STATE_V_FIRST 8       /* [H, V, K] instead of [H, K, V] */

/* A pool of states of `dtype` (NULL: "f32") and shape [heads, k_dim, v_dim]
 * on `device`; all states together use at most budget_bytes. */
KDA2RT_API int kda2rt_state_pool_create(int device, int64_t heads,
                                        int64_t k_dim, int64_t v_dim,
                                        const char *dtype, size_t budget_bytes,
                                        int flags, kda2rt_state_pool *out,
                                        char *err, size_t errlen) KDA2RT_NOEXCEPT;
/* Frees every state and the pool. NULL is a no-op. */
KDA2RT_API int kda2rt_state_pool_destroy(kda2rt_state_pool pool, char *err,
                                         size_t errlen) KDA2RT_NOEXCEPT;
/* Creates the states of n sequences in one allocation; h0/ht (if not NULL)
 * receive the batch's read / write pointers ([n, ...] each). */
KDA2RT_API int kda2rt_state_create(kda2rt_state_pool pool, const int64_t *ids,
                                   int n, void **h0, void **ht, char *err,
                                   size_t errlen) KDA2RT_NOEXCEPT;
/* The read / write pointers of n sequences created together, in order. */
KDA2RT_API int kda2rt_state_lookup(kda2rt_state_pool pool, const int64_t *ids,
                                   int n, void **h0, void **ht, char *err,
                                   size_t errlen) KDA2RT_NOEXCEPT;
/* Swaps read and write of the sequences (after a decode step). */
KDA2RT_API int kda2rt_state_advance(kda2rt_state_pool pool,
                                    const int64_t *ids, int n, char *err,
                                    size_t errlen) KDA2RT_NOEXCEPT;
KDA2RT_API int kda2rt_state_evict(kda2rt_state_pool pool, int64_t id,
                                  char *err, size_t errlen) KDA2RT_NOEXCEPT;
/* Evicts the least recently used batch; its ids go to evicted[0..capacity)
 * and their number to *count. */
KDA2RT_API int kda2rt_state_evict_lru(kda2rt_state_pool pool, int64_t *evicted,
                                      int capacity, int *count, char *err,
                                      size_t errlen) KDA2RT_NOEXCEPT;
KDA2RT_API int kda2rt_state_pool_usage(kda2rt_state_pool pool,
                                       size_t *bytes_in_use,
                                       size_t *budget_bytes,
                                       int64_t *sequences) KDA2RT_NOEXCEPT;

/* One decode step of n sequences of `pool` (created together, in this
 * order): args->h0 / args->ht are taken from the pool (ignored if set),
 * args->n must be n, args->state_layout must be the pool's layout ("vk"
 * for a pool created with KDA2RT_STATE_V_FIRST, else "kv") and the
 * kernel's; after a successful launch the states advance. */
KDA2RT_API int kda2rt_bundle_decode_step(kda2rt_bundle bundle, int device,
                                         const char *op, kda2rt_state_pool pool,
                                         const int64_t *ids, int n,
                                         const kda2rt_kda_decode_args *args,
                                         void *stream, char *err,
                                         size_t errlen) KDA2RT_NOEXCEPT;

/*===--------------------------------------------------------------------===*
 * Monitor (kda2::runtime::Monitor): a background thread that reads the
 * statistics of every registered bundle each interval, reports samples and
 * raises alerts through a callback. One monitor per process.
 *===--------------------------------------------------------------------===*/

#define KDA2RT_MONITOR_SAMPLE 0 /* periodic statistics of one op */
#define KDA2RT_MONITOR_ALERT 1  /* a threshold was crossed */

#define KDA2RT_MONITOR_LOG_STDERR 1    /* print samples and alerts */
#define KDA2RT_MONITOR_READ_COUNTERS 2 /* read kernel counter slots each tick
                                          (synchronous device copies) */

/* A threshold on a kernel counter slot (a `counter` of the metadata). */
typedef struct kda2rt_monitor_counter_threshold {
  const char *name;
  double max;
} kda2rt_monitor_counter_threshold;

/* Alert thresholds; 0 turns one off. gpu_p99_ms needs timing on
 * (kda2rt_bundle_set_profiling); counter thresholds read the counters. */
typedef struct kda2rt_monitor_thresholds {
  double gpu_p99_ms;   /* P99 kernel time over the last 1024 timed calls */
  double host_us_mean; /* mean host time per call since the last tick */
  const kda2rt_monitor_counter_threshold *counters;
  int num_counters;
} kda2rt_monitor_thresholds;

/* What the callback receives; the strings live until it returns. */
typedef struct kda2rt_monitor_event {
  int kind; /* KDA2RT_MONITOR_SAMPLE or KDA2RT_MONITOR_ALERT */
  const char *bundle, *op;
  const char *metric; /* "stats", "gpu_p99_ms", "host_us_mean",
                         "counter:<name>" */
  double value, threshold;
  int64_t new_calls, calls;
  double host_us_mean, gpu_ms_p50, gpu_ms_p99, gpu_ms_max;
  const char *message; /* one line of text */
} kda2rt_monitor_event;

typedef void (*kda2rt_monitor_callback)(const kda2rt_monitor_event *event,
                                        void *user);

/* Starts the monitor thread: every interval_ms (1..3600000) it reads every
 * registered bundle's statistics (without waiting for the GPU) and calls
 * `callback` (may be NULL with KDA2RT_MONITOR_LOG_STDERR) from the monitor
 * thread. thresholds may be NULL. Errors: bad interval, negative threshold,
 * a counter threshold without a name or on a hardware counter (see
 * kda2rt_monitor_unavailable_counters), already running. */
KDA2RT_API int kda2rt_monitor_start(int interval_ms,
                                    const kda2rt_monitor_thresholds *thresholds,
                                    kda2rt_monitor_callback callback,
                                    void *user, int flags, char *err,
                                    size_t errlen) KDA2RT_NOEXCEPT;
/* Stops and joins the thread (no-op when not running). */
KDA2RT_API int kda2rt_monitor_stop(char *err, size_t errlen) KDA2RT_NOEXCEPT;
/* 1 while the monitor runs. */
KDA2RT_API int kda2rt_monitor_running(void) KDA2RT_NOEXCEPT;
/* The counters the monitor cannot provide (hardware counters: libkda2rt has
 * no CUPTI dependency), with the reason. Writes up to `capacity` entries
 * and returns how many there are. */
KDA2RT_API int kda2rt_monitor_unavailable_counters(const char **names,
                                                   const char **reasons,
                                                   int capacity) KDA2RT_NOEXCEPT;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KDA2_RUNTIME_KDA2RT_H */
