//===- CudaDriver.h - CUDA driver API loaded at run time --------*- C++ -*-===//
//
// Part of libkda2rt. Loads libcuda.so.1 with dlopen and resolves the driver
// entry points the runtime uses, so the library builds and links with no CUDA
// toolkit and fails cleanly (with a Status, never an exception) on a machine
// without a driver. Also: the Status error type and a primary-context wrapper.
//
// The handle types below are declared the way cuda.h declares them (pointers
// to the same incomplete global structs), so a CUstream/cudaStream_t from
// cuda.h, the CUDA runtime or PyTorch converts implicitly. CUresult is a plain
// int here.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_RUNTIME_CUDADRIVER_H
#define KDA2_RUNTIME_CUDADRIVER_H

#include "kda2/Runtime/kda2rt.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
struct CUgraph_st;
struct CUgraphExec_st;

namespace kda2::runtime {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = ::CUctx_st *;
using CUmodule = ::CUmod_st *;
using CUfunction = ::CUfunc_st *;
using CUstream = ::CUstream_st *;
using CUevent = ::CUevent_st *;
using CUgraph = ::CUgraph_st *;
using CUgraphExec = ::CUgraphExec_st *;

/// The few driver constants the runtime needs (values from cuda.h).
namespace cu {
constexpr CUresult Success = 0;
constexpr CUresult ErrorNoDevice = 100;
constexpr CUresult ErrorNotFound = 500;
constexpr CUresult ErrorNotReady = 600;
constexpr unsigned StreamNonBlocking = 1;
constexpr int StreamCaptureModeThreadLocal = 1;
constexpr int AttrClockRate = 13;           // kHz
constexpr int AttrMemoryClockRate = 36;     // kHz
constexpr int AttrGlobalMemoryBusWidth = 37; // bits
constexpr int AttrL2CacheSize = 38;          // bytes
constexpr int AttrComputeCapabilityMajor = 75;
constexpr int AttrComputeCapabilityMinor = 76;
constexpr int AttrMultiprocessorCount = 16;
constexpr int AttrMaxSharedMemoryPerBlockOptin = 97;
constexpr int FuncAttrMaxDynamicSharedSizeBytes = 8;
constexpr int JitInfoLogBuffer = 3;
constexpr int JitInfoLogBufferSizeBytes = 4;
constexpr int JitErrorLogBuffer = 5;
constexpr int JitErrorLogBufferSizeBytes = 6;
} // namespace cu

/// Error categories; the values are the C ABI's KDA2RT_* codes.
enum class ErrorCode : int {
  Ok = KDA2RT_OK,
  InvalidArgument = KDA2RT_ERROR_INVALID_ARGUMENT,
  NoDriver = KDA2RT_ERROR_NO_DRIVER,
  Cuda = KDA2RT_ERROR_CUDA,
  Metadata = KDA2RT_ERROR_METADATA,
  NotFound = KDA2RT_ERROR_NOT_FOUND,
  Io = KDA2RT_ERROR_IO,
  LaunchConfig = KDA2RT_ERROR_LAUNCH_CONFIG,
};

/// Result of a runtime operation: ok, or an error code plus a message. The
/// runtime is built without exceptions; every fallible call returns a Status.
class [[nodiscard]] KDA2RT_API Status {
public:
  Status() = default;
  static Status success() { return Status(); }
  static Status error(ErrorCode code, std::string message);

  bool ok() const { return code_ == ErrorCode::Ok; }
  ErrorCode code() const { return code_; }
  const std::string &message() const { return message_; }
  /// Turns "msg" into "context: msg" (no-op on success).
  Status &prepend(std::string_view context);

private:
  ErrorCode code_ = ErrorCode::Ok;
  std::string message_;
};

/// Propagates a failed Status to the caller.
#define KDA2RT_TRY(expr)                                                       \
  do {                                                                         \
    ::kda2::runtime::Status kda2rtStatus_ = (expr);                            \
    if (!kda2rtStatus_.ok())                                                   \
      return kda2rtStatus_;                                                    \
  } while (0)

/// The CUDA driver entry points, resolved with dlsym.
class KDA2RT_API Driver {
public:
  /// One function pointer per driver entry point. Where the driver exports a
  /// _v2 symbol, that is the one resolved (noted in the comment).
  struct Api {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
    CUresult (*cuDeviceGetName)(char *name, int len, CUdevice device);
    CUresult (*cuDeviceGetAttribute)(int *value, int attribute,
                                     CUdevice device);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice device);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device); // _v2
    CUresult (*cuCtxSetCurrent)(CUcontext ctx);
    CUresult (*cuCtxGetCurrent)(CUcontext *ctx);
    CUresult (*cuModuleLoadData)(CUmodule *module, const void *image);
    CUresult (*cuModuleUnload)(CUmodule module);
    CUresult (*cuModuleGetFunction)(CUfunction *func, CUmodule module,
                                    const char *name);
    CUresult (*cuModuleGetGlobal)(CUdeviceptr *ptr, size_t *bytes,
                                  CUmodule module, const char *name); // _v2
    CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes);            // _v2
    CUresult (*cuMemFree)(CUdeviceptr ptr);                            // _v2
    CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src,
                             size_t bytes); // _v2
    CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src,
                             size_t bytes); // _v2
    CUresult (*cuLaunchKernel)(CUfunction f, unsigned gridX, unsigned gridY,
                               unsigned gridZ, unsigned blockX,
                               unsigned blockY, unsigned blockZ,
                               unsigned sharedBytes, CUstream stream,
                               void **kernelParams, void **extra);
    CUresult (*cuFuncSetAttribute)(CUfunction f, int attribute, int value);
    CUresult (*cuStreamSynchronize)(CUstream stream);
    CUresult (*cuMemsetD8)(CUdeviceptr dst, unsigned char value,
                           size_t count); // _v2
    CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
    CUresult (*cuEventRecord)(CUevent event, CUstream stream);
    CUresult (*cuEventSynchronize)(CUevent event);
    CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
    CUresult (*cuEventDestroy)(CUevent event); // _v2
    CUresult (*cuGetErrorName)(CUresult error, const char **name);
    CUresult (*cuGetErrorString)(CUresult error, const char **text);
    /// Optional (null if absent): TMA descriptors (CUDA 12+ drivers).
    CUresult (*cuTensorMapEncodeTiled)(
        void *tensorMap, int dataType, uint32_t rank, void *globalAddress,
        const uint64_t *globalDim, const uint64_t *globalStrides,
        const uint32_t *boxDim, const uint32_t *elementStrides,
        int interleave, int swizzle, int l2Promotion, int oobFill);
    /// Optional (null if absent): used to get the JIT error log for PTX.
    CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                   unsigned numOptions, int *options,
                                   void **optionValues);
    /// Optional (null if absent): whether an event has completed
    /// (CUDA_ERROR_NOT_READY while not), for non-blocking statistics.
    CUresult (*cuEventQuery)(CUevent event);
    /// Optional (null if absent): streams, device-to-device copies and CUDA
    /// graphs, used by the tools (kda2-perf, kda2-calibrate).
    CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
    CUresult (*cuStreamDestroy)(CUstream stream); // _v2
    CUresult (*cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src,
                             size_t bytes); // _v2
    CUresult (*cuStreamBeginCapture)(CUstream stream, int mode); // _v2
    CUresult (*cuStreamEndCapture)(CUstream stream, CUgraph *graph);
    CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *exec, CUgraph graph,
                                            unsigned long long flags);
    CUresult (*cuGraphLaunch)(CUgraphExec exec, CUstream stream);
    CUresult (*cuGraphExecDestroy)(CUgraphExec exec);
    CUresult (*cuGraphDestroy)(CUgraph graph);
    /// Optional (null if absent): launches with attributes (programmatic
    /// dependent launch, CUDA 12+ drivers) and asynchronous 32-bit fills.
    CUresult (*cuLaunchKernelEx)(const void *config, CUfunction f,
                                 void **kernelParams, void **extra);
    CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value,
                                 size_t count, CUstream stream);
  };

  /// The library loaded when none is named: $KDA2RT_LIBCUDA if set, else
  /// "libcuda.so.1".
  static const char *defaultLibrary();

  /// dlopens `library` (RTLD_NOW | RTLD_LOCAL; default: defaultLibrary()) and
  /// resolves every entry point. Fails with ErrorCode::NoDriver and a message
  /// naming the library, or the first missing symbol. Does not call cuInit.
  /// The library stays loaded for the life of the process.
  static Status load(Driver &out, const char *library = nullptr);

  /// The process-wide driver, loaded (and cuInit-ed) once on first use; a
  /// failure is remembered and returned again on later calls.
  static Status get(const Driver *&out);

  bool loaded() const { return handle_ != nullptr; }
  const std::string &library() const { return library_; }
  const Api &api() const { return api_; }

  /// Ok if result is CUDA_SUCCESS, else ErrorCode::Cuda with the message
  /// "<what> failed: CUDA_ERROR_X (description)".
  Status check(CUresult result, const char *what) const;

  /// cuLaunchKernel; with `programmatic`, the launch may start while the
  /// stream's previous kernel runs (its programmatic dependent:
  /// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION through
  /// cuLaunchKernelEx), for a kernel that waits for that kernel's ready
  /// flags itself (metadata `pdl 1`). Without cuLaunchKernelEx it is an
  /// ordinary launch, which is correct too (the flags are then set).
  CUresult launchKernel(CUfunction f, const unsigned grid[3],
                        const unsigned block[3], unsigned sharedBytes,
                        CUstream stream, void **params,
                        bool programmatic) const;
  /// "CUDA_ERROR_X" for a result code ("CUresult <n>" if unknown).
  std::string errorName(CUresult result) const;

private:
  void *handle_ = nullptr;
  std::string library_;
  Api api_{};
};

/// A retained reference to the primary context of one device. Movable, not
/// copyable; released by the destructor.
class KDA2RT_API Context {
public:
  Context() = default;
  ~Context();
  Context(Context &&other) noexcept;
  Context &operator=(Context &&other) noexcept;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  /// Loads the driver (Driver::get), retains the primary context of device
  /// `ordinal` and makes it current on the calling thread.
  static Status create(int ordinal, Context &out);
  /// Number of CUDA devices; fails if there is no driver.
  static Status deviceCount(int &count);

  bool valid() const { return ctx_ != nullptr; }
  int ordinal() const { return ordinal_; }
  CUcontext handle() const { return ctx_; }
  const Driver &driver() const { return *driver_; }

  /// Makes this context current on the calling thread (no-op if it is).
  Status makeCurrent() const;
  Status attribute(int attribute, int &value) const;
  Status computeCapability(int &major, int &minor) const;
  Status name(std::string &out) const;

  Status allocate(size_t bytes, CUdeviceptr &out) const;
  Status free(CUdeviceptr ptr) const;
  Status copyToDevice(CUdeviceptr dst, const void *src, size_t bytes) const;
  Status copyToHost(void *dst, CUdeviceptr src, size_t bytes) const;
  /// Sets `bytes` bytes at `dst` to zero (synchronous).
  Status zero(CUdeviceptr dst, size_t bytes) const;
  Status synchronize(CUstream stream) const;

  /// Releases the context reference now (also done by the destructor).
  Status release();

private:
  const Driver *driver_ = nullptr;
  CUcontext ctx_ = nullptr;
  CUdevice device_ = 0;
  int ordinal_ = -1;
};

} // namespace kda2::runtime

#endif // KDA2_RUNTIME_CUDADRIVER_H
