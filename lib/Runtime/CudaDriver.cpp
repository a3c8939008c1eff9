//===- CudaDriver.cpp - CUDA driver API loaded with dlopen ----------------===//
//
// Part of libkda2rt (no LLVM/MLIR, no CUDA toolkit at build time, built
// without exceptions or RTTI).
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/CudaDriver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <utility>

using namespace kda2::runtime;

//===----------------------------------------------------------------------===//
// Status
//===----------------------------------------------------------------------===//

Status Status::error(ErrorCode code, std::string message) {
  Status s;
  s.code_ = code == ErrorCode::Ok ? ErrorCode::InvalidArgument : code;
  s.message_ = std::move(message);
  return s;
}

Status &Status::prepend(std::string_view context) {
  if (!ok()) {
    std::string m(context);
    m += ": ";
    m += message_;
    message_ = std::move(m);
  }
  return *this;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

const char *Driver::defaultLibrary() {
  const char *env = std::getenv("KDA2RT_LIBCUDA");
  return (env && *env) ? env : "libcuda.so.1";
}

namespace {
template <typename Fn>
bool resolve(void *handle, const char *symbol, Fn &fn) {
  void *p = dlsym(handle, symbol);
  fn = reinterpret_cast<Fn>(p);
  return p != nullptr;
}
} // namespace

Status Driver::load(Driver &out, const char *library) {
  out = Driver();
  std::string lib = library ? library : defaultLibrary();
  dlerror();
  void *handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return Status::error(
        ErrorCode::NoDriver,
        "cannot load the CUDA driver library '" + lib + "': " +
            (why ? why : "unknown dlopen error") +
            " (is the NVIDIA driver installed? KDA2RT_LIBCUDA names another "
            "library)");
  }

  Api api{};
  struct Entry {
    const char *symbol;
    bool ok;
  };
#define KDA2RT_RESOLVE(field, symbol) {symbol, resolve(handle, symbol, api.field)}
  const Entry entries[] = {
      KDA2RT_RESOLVE(cuInit, "cuInit"),
      KDA2RT_RESOLVE(cuDeviceGetCount, "cuDeviceGetCount"),
      KDA2RT_RESOLVE(cuDeviceGet, "cuDeviceGet"),
      KDA2RT_RESOLVE(cuDeviceGetName, "cuDeviceGetName"),
      KDA2RT_RESOLVE(cuDeviceGetAttribute, "cuDeviceGetAttribute"),
      KDA2RT_RESOLVE(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
      KDA2RT_RESOLVE(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
      KDA2RT_RESOLVE(cuCtxSetCurrent, "cuCtxSetCurrent"),
      KDA2RT_RESOLVE(cuCtxGetCurrent, "cuCtxGetCurrent"),
      KDA2RT_RESOLVE(cuModuleLoadData, "cuModuleLoadData"),
      KDA2RT_RESOLVE(cuModuleUnload, "cuModuleUnload"),
      KDA2RT_RESOLVE(cuModuleGetFunction, "cuModuleGetFunction"),
      KDA2RT_RESOLVE(cuModuleGetGlobal, "cuModuleGetGlobal_v2"),
      KDA2RT_RESOLVE(cuMemAlloc, "cuMemAlloc_v2"),
      KDA2RT_RESOLVE(cuMemFree, "cuMemFree_v2"),
      KDA2RT_RESOLVE(cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
      KDA2RT_RESOLVE(cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
      KDA2RT_RESOLVE(cuLaunchKernel, "cuLaunchKernel"),
      KDA2RT_RESOLVE(cuFuncSetAttribute, "cuFuncSetAttribute"),
      KDA2RT_RESOLVE(cuStreamSynchronize, "cuStreamSynchronize"),
      KDA2RT_RESOLVE(cuMemsetD8, "cuMemsetD8_v2"),
      KDA2RT_RESOLVE(cuEventCreate, "cuEventCreate"),
      KDA2RT_RESOLVE(cuEventRecord, "cuEventRecord"),
      KDA2RT_RESOLVE(cuEventSynchronize, "cuEventSynchronize"),
      KDA2RT_RESOLVE(cuEventElapsedTime, "cuEventElapsedTime"),
      KDA2RT_RESOLVE(cuEventDestroy, "cuEventDestroy_v2"),
      KDA2RT_RESOLVE(cuGetErrorName, "cuGetErrorName"),
      KDA2RT_RESOLVE(cuGetErrorString, "cuGetErrorString"),
  };
#undef KDA2RT_RESOLVE
  for (const Entry &e : entries) {
    if (!e.ok) {
      dlclose(handle);
      return Status::error(ErrorCode::NoDriver,
                           "the CUDA driver library '" + lib +
                               "' lacks the symbol '" + e.symbol +
                               "' (driver too old, or not libcuda?)");
    }
  }
  resolve(handle, "cuModuleLoadDataEx", api.cuModuleLoadDataEx); // optional
  resolve(handle, "cuTensorMapEncodeTiled", api.cuTensorMapEncodeTiled);
  resolve(handle, "cuEventQuery", api.cuEventQuery);
  resolve(handle, "cuStreamCreate", api.cuStreamCreate);
  resolve(handle, "cuStreamDestroy_v2", api.cuStreamDestroy);
  resolve(handle, "cuMemcpyDtoD_v2", api.cuMemcpyDtoD);
  resolve(handle, "cuStreamBeginCapture_v2", api.cuStreamBeginCapture);
  resolve(handle, "cuStreamEndCapture", api.cuStreamEndCapture);
  resolve(handle, "cuGraphInstantiateWithFlags",
          api.cuGraphInstantiateWithFlags);
  resolve(handle, "cuGraphLaunch", api.cuGraphLaunch);
  resolve(handle, "cuGraphExecDestroy", api.cuGraphExecDestroy);
  resolve(handle, "cuGraphDestroy", api.cuGraphDestroy);
  resolve(handle, "cuLaunchKernelEx", api.cuLaunchKernelEx);
  resolve(handle, "cuMemsetD32Async", api.cuMemsetD32Async);

  out.handle_ = handle;
  out.library_ = std::move(lib);
  out.api_ = api;
  return Status::success();
}

namespace {
/// cuda.h's CUlaunchAttribute and CUlaunchConfig (the layout of CUDA 12+).
struct LaunchAttribute {
  int id;
  char pad[8 - sizeof(int)];
  union {
    char bytes[64];
    int programmaticStreamSerializationAllowed;
  } value;
};
static_assert(sizeof(LaunchAttribute) == 72, "CUlaunchAttribute layout");
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};
constexpr int LaunchAttributeProgrammaticStreamSerialization = 6;
} // namespace

CUresult Driver::launchKernel(CUfunction f, const unsigned grid[3],
                              const unsigned block[3], unsigned sharedBytes,
                              CUstream stream, void **params,
                              bool programmatic) const {
  if (!programmatic || !api_.cuLaunchKernelEx)
    return api_.cuLaunchKernel(f, grid[0], grid[1], grid[2], block[0],
                               block[1], block[2], sharedBytes, stream, params,
                               nullptr);
  LaunchAttribute attr{};
  attr.id = LaunchAttributeProgrammaticStreamSerialization;
  attr.value.programmaticStreamSerializationAllowed = 1;
  LaunchConfig config{grid[0],  grid[1],  grid[2],     block[0], block[1],
                      block[2], sharedBytes, stream, &attr,    1};
  return api_.cuLaunchKernelEx(&config, f, params, nullptr);
}

Status Driver::get(const Driver *&out) {
  struct Loaded {
    Driver driver;
    Status status;
    Loaded() {
      status = Driver::load(driver);
      if (status.ok())
        status = driver.check(driver.api().cuInit(0), "cuInit");
    }
  };
  // Never destroyed: the driver must outlive every static that may use it.
  static Loaded *loaded = new Loaded();
  out = loaded->status.ok() ? &loaded->driver : nullptr;
  return loaded->status;
}

std::string Driver::errorName(CUresult result) const {
  const char *name = nullptr;
  if (api_.cuGetErrorName && api_.cuGetErrorName(result, &name) == cu::Success &&
      name)
    return name;
  return "CUresult " + std::to_string(result);
}

Status Driver::check(CUresult result, const char *what) const {
  if (result == cu::Success)
    return Status::success();
  std::string msg = std::string(what) + " failed: " + errorName(result);
  const char *text = nullptr;
  if (api_.cuGetErrorString &&
      api_.cuGetErrorString(result, &text) == cu::Success && text)
    msg += std::string(" (") + text + ")";
  return Status::error(ErrorCode::Cuda, std::move(msg));
}

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

Context::~Context() { (void)release(); }

Context::Context(Context &&other) noexcept
    : driver_(other.driver_), ctx_(other.ctx_), device_(other.device_),
      ordinal_(other.ordinal_) {
  other.ctx_ = nullptr;
  other.ordinal_ = -1;
}

Context &Context::operator=(Context &&other) noexcept {
  if (this != &other) {
    (void)release();
    driver_ = other.driver_;
    ctx_ = other.ctx_;
    device_ = other.device_;
    ordinal_ = other.ordinal_;
    other.ctx_ = nullptr;
    other.ordinal_ = -1;
  }
  return *this;
}

Status Context::release() {
  if (!ctx_)
    return Status::success();
  ctx_ = nullptr;
  return driver_->check(driver_->api().cuDevicePrimaryCtxRelease(device_),
                        "cuDevicePrimaryCtxRelease");
}

Status Context::deviceCount(int &count) {
  count = 0;
  const Driver *driver = nullptr;
  KDA2RT_TRY(Driver::get(driver));
  return driver->check(driver->api().cuDeviceGetCount(&count),
                       "cuDeviceGetCount");
}

Status Context::create(int ordinal, Context &out) {
  (void)out.release();
  const Driver *driver = nullptr;
  KDA2RT_TRY(Driver::get(driver));
  const Driver::Api &api = driver->api();
  int count = 0;
  KDA2RT_TRY(driver->check(api.cuDeviceGetCount(&count), "cuDeviceGetCount"));
  if (ordinal < 0 || ordinal >= count)
    return Status::error(ErrorCode::InvalidArgument,
                         "CUDA device " + std::to_string(ordinal) +
                             " does not exist (" + std::to_string(count) +
                             " device(s) present)");
  CUdevice device = 0;
  KDA2RT_TRY(driver->check(api.cuDeviceGet(&device, ordinal), "cuDeviceGet"));
  CUcontext ctx = nullptr;
  KDA2RT_TRY(driver->check(api.cuDevicePrimaryCtxRetain(&ctx, device),
                           "cuDevicePrimaryCtxRetain"));
  out.driver_ = driver;
  out.ctx_ = ctx;
  out.device_ = device;
  out.ordinal_ = ordinal;
  return out.makeCurrent();
}

Status Context::makeCurrent() const {
  if (!ctx_)
    return Status::error(ErrorCode::InvalidArgument, "no CUDA context");
  CUcontext current = nullptr;
  KDA2RT_TRY(driver_->check(driver_->api().cuCtxGetCurrent(&current),
                            "cuCtxGetCurrent"));
  if (current == ctx_)
    return Status::success();
  return driver_->check(driver_->api().cuCtxSetCurrent(ctx_),
                        "cuCtxSetCurrent");
}

Status Context::attribute(int attr, int &value) const {
  if (!ctx_)
    return Status::error(ErrorCode::InvalidArgument, "no CUDA context");
  return driver_->check(driver_->api().cuDeviceGetAttribute(&value, attr,
                                                            device_),
                        "cuDeviceGetAttribute");
}

Status Context::computeCapability(int &major, int &minor) const {
  KDA2RT_TRY(attribute(cu::AttrComputeCapabilityMajor, major));
  return attribute(cu::AttrComputeCapabilityMinor, minor);
}

Status Context::name(std::string &out) const {
  if (!ctx_)
    return Status::error(ErrorCode::InvalidArgument, "no CUDA context");
  char buf[256] = {0};
  KDA2RT_TRY(driver_->check(
      driver_->api().cuDeviceGetName(buf, sizeof(buf) - 1, device_),
      "cuDeviceGetName"));
  out = buf;
  return Status::success();
}

Status Context::allocate(size_t bytes, CUdeviceptr &out) const {
  out = 0;
  KDA2RT_TRY(makeCurrent());
  return driver_->check(driver_->api().cuMemAlloc(&out, bytes), "cuMemAlloc");
}

Status Context::free(CUdeviceptr ptr) const {
  if (!ptr)
    return Status::success();
  KDA2RT_TRY(makeCurrent());
  return driver_->check(driver_->api().cuMemFree(ptr), "cuMemFree");
}

Status Context::copyToDevice(CUdeviceptr dst, const void *src,
                             size_t bytes) const {
  if (bytes == 0)
    return Status::success();
  KDA2RT_TRY(makeCurrent());
  return driver_->check(driver_->api().cuMemcpyHtoD(dst, src, bytes),
                        "cuMemcpyHtoD");
}

Status Context::copyToHost(void *dst, CUdeviceptr src, size_t bytes) const {
  if (bytes == 0)
    return Status::success();
  KDA2RT_TRY(makeCurrent());
  return driver_->check(driver_->api().cuMemcpyDtoH(dst, src, bytes),
                        "cuMemcpyDtoH");
}

Status Context::zero(CUdeviceptr dst, size_t bytes) const {
  if (bytes == 0)
    return Status::success();
  KDA2RT_TRY(makeCurrent());
  return driver_->check(driver_->api().cuMemsetD8(dst, 0, bytes),
                        "cuMemsetD8");
}

Status Context::synchronize(CUstream stream) const {
  KDA2RT_TRY(makeCurrent());
  return driver_->check(driver_->api().cuStreamSynchronize(stream),
                        "cuStreamSynchronize");
}
