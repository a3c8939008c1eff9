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
 * beta [n, t, h] fp32, h0/ht fp32 states ([n, h, K, V] for a K-first kernel,
 * [n, h, V, K] for a V-first one). Contiguous, 16-byte aligned device
 * buffers; h0 is read, ht written (they must not alias). scale <= 0 selects
 * k_dim^-1/2. The head dimensions must be the ones the kernel was compiled
 * for (64, 128 or 256). */
typedef struct kda2rt_kda_decode_args {
  const void *q, *k, *v, *g, *beta, *h0; /* in */
  void *o, *ht;                          /* out */
  int64_t n, t, h, k_dim, v_dim;
  double scale;
  const char *dtype;
} kda2rt_kda_decode_args;

KDA2RT_API int kda2rt_kda_decode(kda2rt_kernel kernel,
                                 const kda2rt_kda_decode_args *args,
                                 void *stream, char *err,
                                 size_t errlen) KDA2RT_NOEXCEPT;

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

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KDA2_RUNTIME_KDA2RT_H */
