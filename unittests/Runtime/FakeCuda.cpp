//===- FakeCuda.cpp - a fake CUDA driver for GPU-less tests ---------------===//
//
// The entry points libkda2rt resolves from libcuda.so.1, implemented on the
// host (see FakeCuda.h): one device of compute capability 9.0, host memory
// as device memory, fake cubins, counting launches, host-clock events and a
// minimal stream capture / graph launch.
//
//===----------------------------------------------------------------------===//

#include "FakeCuda.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace {
using CUresult = int;
constexpr CUresult kOk = 0, kInvalidValue = 1, kInvalidImage = 200,
                   kNotFound = 500;

/// A function handle: its name and the number of its parameters (the
/// `arg` lines of its metadata; -1 when it has no metadata of its own, as
/// a `variant` copy).
///
/// The fake treats every kernel as if its static shared memory filled the
/// 48 KB a launch gets without opting in: a launch with more dynamic shared
/// memory than `maxDynamicShared` (MAX_DYNAMIC_SHARED_SIZE_BYTES, 0 until
/// set) fails, as the real driver's does past the limit.
struct FakeFunction {
  std::string name;
  int numParams = -1;
  unsigned maxDynamicShared = 0;
};

struct FakeModule {
  const char *image = nullptr;
  size_t size = 0;
  std::vector<FakeFunction *> functions;
};

struct FakeEvent {
  double ms = 0;
};

struct FakeGraph {
  int64_t kernels = 0;
};

struct FakeStream {
  bool capturing = false;
  int64_t captured = 0;
};

std::atomic<int64_t> gLaunches{0};
std::atomic<int64_t> gProgrammaticLaunches{0};
std::mutex gMutex;
std::string gLastKernel;
unsigned gLastGrid[3] = {0, 0, 0};
std::vector<uint64_t> gLastParams; // 8 bytes of each parameter slot
int gLastNumParams = -1;
/// The last kHistory direct launches, in a ring of fixed
/// records (no allocation: the tests count operator new in this process).
struct FakeEventRecord {
  char name[128] = {};
  unsigned grid[3] = {0, 0, 0};
  uint64_t params[64] = {};
  int numParams = 0;
};
constexpr size_t kHistory = 16;
FakeEventRecord gHistory[kHistory];
size_t gRecorded = 0;  // events ever recorded (gHistory[i % kHistory])
size_t gForgotten = 0; // events before the last clear
/// The arguments of the last kHistory cuTensorMapEncodeTiled calls
/// (kda2_fake_cuda_tensor_map), in a ring like the events.
uint64_t gMaps[kHistory][26] = {};
size_t gMapsEncoded = 0, gMapsForgotten = 0;
FakeEventRecord &nextRecord() {
  FakeEventRecord &r = gHistory[gRecorded++ % kHistory];
  r = FakeEventRecord();
  return r;
}
// Not thread_local: LeakSanitizer's tracer crashes at exit scanning the
// dynamic TLS of a dlopen'd library (this one, loaded through
// KDA2RT_LIBCUDA). The tests drive the fake from one thread at a time.
std::atomic<void *> tCurrent{nullptr};
int gContext = 0; // its address is the context handle

double nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The size a fake cubin records (0 if `image` is not one).
size_t fakeSize(const char *image) {
  if (std::memcmp(image, kda2::fake::kMagic, 16) != 0)
    return 0;
  char digits[17] = {0};
  std::memcpy(digits, image + 16, 16);
  return std::strtoull(digits, nullptr, 10);
}
} // namespace

extern "C" {

CUresult cuInit(unsigned) { return kOk; }
CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return kOk;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  if (ordinal != 0)
    return kInvalidValue;
  *device = 0;
  return kOk;
}
CUresult cuDeviceGetName(char *name, int len, int) {
  std::snprintf(name, static_cast<size_t>(len), "kda2 fake GPU");
  return kOk;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int) {
  switch (attribute) {
  case 75: // compute capability major
    *value = 9;
    break;
  case 76:
    *value = 0;
    break;
  case 16: // multiprocessors
    *value = 132;
    break;
  case 13: // clock rate, kHz
    *value = 1980000;
    break;
  case 36: // memory clock, kHz
    *value = 2619000;
    break;
  case 37: // bus width, bits
    *value = 6144;
    break;
  case 38: // L2 bytes
    *value = 50 << 20;
    break;
  default:
    *value = 0;
  }
  return kOk;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int) {
  *ctx = &gContext;
  return kOk;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) { return kOk; }
CUresult cuCtxSetCurrent(void *ctx) {
  tCurrent = ctx;
  return kOk;
}
CUresult cuCtxGetCurrent(void **ctx) {
  *ctx = tCurrent;
  return kOk;
}

CUresult cuModuleLoadData(void **module, const void *image) {
  size_t size = fakeSize(static_cast<const char *>(image));
  if (!size)
    return kInvalidImage;
  auto *m = new FakeModule;
  m->image = static_cast<const char *>(image);
  m->size = size;
  *module = m;
  return kOk;
}
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned,
                            int *, void **) {
  return cuModuleLoadData(module, image);
}
CUresult cuModuleUnload(void *module) {
  auto *m = static_cast<FakeModule *>(module);
  for (FakeFunction *f : m->functions)
    delete f;
  delete m;
  return kOk;
}
CUresult cuModuleGetGlobal_v2(uint64_t *ptr, size_t *bytes, void *module,
                              const char *name) {
  auto *m = static_cast<FakeModule *>(module);
  std::string key(name);
  key += '\0';
  std::string_view image(m->image, m->size);
  size_t at = image.find(key);
  if (at == std::string_view::npos)
    return kNotFound;
  const char *text = m->image + at + key.size();
  *ptr = reinterpret_cast<uintptr_t>(text);
  *bytes = std::strlen(text) + 1;
  return kOk;
}
CUresult cuModuleGetFunction(void **func, void *module, const char *name) {
  auto *m = static_cast<FakeModule *>(module);
  std::string meta = std::string("\nname ") + name + "\n";
  if (std::string_view(m->image, m->size).find(meta) ==
          std::string_view::npos &&
      std::string_view(m->image, m->size).find(std::string(" ") + name +
                                               "\n") == std::string_view::npos)
    return kNotFound;
  auto *f = new FakeFunction;
  f->name = name;
  std::string key = std::string("__kda2_meta_") + name;
  key += '\0';
  std::string_view image(m->image, m->size);
  size_t at = image.find(key);
  if (at != std::string_view::npos) {
    // Count the `arg` lines of its metadata text (up to its NUL).
    std::string_view text(m->image + at + key.size());
    f->numParams = 0;
    for (size_t line = 0; line < text.size();) {
      size_t eol = text.find('\n', line);
      if (text.compare(line, 4, "arg ") == 0)
        ++f->numParams;
      line = eol == std::string_view::npos ? text.size() : eol + 1;
    }
  }
  m->functions.push_back(f);
  *func = f;
  return kOk;
}
CUresult cuFuncSetAttribute(void *func, int attribute, int value) {
  if (!func || value < 0)
    return kInvalidValue;
  if (attribute == 8) // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    static_cast<FakeFunction *>(func)->maxDynamicShared =
        static_cast<unsigned>(value);
  return kOk;
}

CUresult cuMemAlloc_v2(uint64_t *ptr, size_t bytes) {
  void *p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!p)
    return 2; // CUDA_ERROR_OUT_OF_MEMORY
  *ptr = reinterpret_cast<uintptr_t>(p);
  return kOk;
}
CUresult cuMemFree_v2(uint64_t ptr) {
  std::free(reinterpret_cast<void *>(static_cast<uintptr_t>(ptr)));
  return kOk;
}
CUresult cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(dst)), src,
              bytes);
  return kOk;
}
CUresult cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t bytes) {
  std::memcpy(dst, reinterpret_cast<const void *>(static_cast<uintptr_t>(src)),
              bytes);
  return kOk;
}
CUresult cuMemcpyDtoD_v2(uint64_t dst, uint64_t src, size_t bytes) {
  std::memmove(reinterpret_cast<void *>(static_cast<uintptr_t>(dst)),
               reinterpret_cast<const void *>(static_cast<uintptr_t>(src)),
               bytes);
  return kOk;
}
static std::atomic<int64_t> gMemsets32{0};
static uint64_t gLastMemset32[3]; // dst, value, count (under gMutex)
CUresult cuMemsetD32Async(uint64_t dst, unsigned value, size_t count,
                          void *stream) {
  if (!dst && count)
    return kInvalidValue;
  if (stream && static_cast<FakeStream *>(stream)->capturing)
    return kOk; // a graph node: runs at the graph's launch
  auto *words = reinterpret_cast<uint32_t *>(static_cast<uintptr_t>(dst));
  for (size_t i = 0; i < count; ++i)
    words[i] = value;
  std::lock_guard<std::mutex> lock(gMutex);
  ++gMemsets32;
  gLastMemset32[0] = dst;
  gLastMemset32[1] = value;
  gLastMemset32[2] = count;
  return kOk;
}
CUresult cuMemsetD8_v2(uint64_t dst, unsigned char value, size_t count) {
  std::memset(reinterpret_cast<void *>(static_cast<uintptr_t>(dst)), value,
              count);
  return kOk;
}

/// A fake CUtensorMap: word 0 the global address, word 1 the rank, words
/// 2.. the dimensions (so the first 8 bytes of a tensor-map parameter are
/// the address of the tensor it reads).
CUresult cuTensorMapEncodeTiled(void *map, int dataType, uint32_t rank,
                                void *address, const uint64_t *dims,
                                const uint64_t *strides, const uint32_t *box,
                                const uint32_t *elementStrides, int interleave,
                                int swizzle, int l2Promotion, int oobFill) {
  if (reinterpret_cast<uintptr_t>(address) % 16 != 0 || rank < 1 || rank > 5)
    return kInvalidValue;
  {
    // Every argument, for kda2_fake_cuda_tensor_map.
    std::lock_guard<std::mutex> lock(gMutex);
    uint64_t *w = gMaps[gMapsEncoded++ % kHistory];
    std::memset(w, 0, sizeof(gMaps[0]));
    w[0] = reinterpret_cast<uintptr_t>(address);
    w[1] = static_cast<uint64_t>(dataType);
    w[2] = rank;
    w[3] = static_cast<uint64_t>(interleave);
    w[4] = static_cast<uint64_t>(swizzle);
    w[5] = static_cast<uint64_t>(l2Promotion);
    w[6] = static_cast<uint64_t>(oobFill);
    for (uint32_t i = 0; i < rank; ++i) {
      w[7 + i] = dims[i];
      w[12 + i] = box[i];
      w[17 + i] = elementStrides[i];
      if (i > 0)
        w[22 + i - 1] = strides[i - 1];
    }
  }
  auto *words = static_cast<uint64_t *>(map);
  std::memset(words, 0, 128);
  words[0] = reinterpret_cast<uintptr_t>(address);
  words[1] = rank;
  for (uint32_t i = 0; i < rank; ++i)
    words[2 + i] = dims[i];
  return kOk;
}

CUresult cuLaunchKernel(void *func, unsigned gx, unsigned gy, unsigned gz,
                        unsigned, unsigned, unsigned, unsigned sharedBytes,
                        void *stream, void **params, void **);

// cuda.h's CUlaunchConfig and CUlaunchAttribute (CUDA 12+).
struct FakeLaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    int value;
  } value;
};
struct FakeLaunchConfig {
  unsigned grid[3], block[3], sharedMemBytes;
  void *stream;
  FakeLaunchAttribute *attrs;
  unsigned numAttrs;
};

CUresult cuLaunchKernelEx(const void *config, void *func, void **params,
                          void **extra) {
  if (!config)
    return kInvalidValue;
  const auto *c = static_cast<const FakeLaunchConfig *>(config);
  if (c->numAttrs && !c->attrs)
    return kInvalidValue;
  bool programmatic = false;
  for (unsigned i = 0; i < c->numAttrs; ++i) {
    if (c->attrs[i].id != 6) // CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
      return kInvalidValue;  // the only attribute libkda2rt sets
    programmatic = c->attrs[i].value.value != 0;
  }
  CUresult rc = cuLaunchKernel(func, c->grid[0], c->grid[1], c->grid[2],
                               c->block[0], c->block[1], c->block[2],
                               c->sharedMemBytes, c->stream, params, extra);
  if (rc == kOk && programmatic)
    ++gProgrammaticLaunches;
  return rc;
}

CUresult cuLaunchKernel(void *func, unsigned gx, unsigned gy, unsigned gz,
                        unsigned, unsigned, unsigned, unsigned sharedBytes,
                        void *stream, void **params, void **) {
  if (!func || !gx || !gy || !gz ||
      sharedBytes > static_cast<FakeFunction *>(func)->maxDynamicShared)
    return kInvalidValue;
  if (stream && static_cast<FakeStream *>(stream)->capturing) {
    ++static_cast<FakeStream *>(stream)->captured;
    return kOk;
  }
  ++gLaunches;
  std::lock_guard<std::mutex> lock(gMutex);
  const auto *f = static_cast<FakeFunction *>(func);
  gLastKernel = f->name;
  gLastGrid[0] = gx;
  gLastGrid[1] = gy;
  gLastGrid[2] = gz;
  // libkda2rt passes every parameter from an 8-byte slot (tensor maps: 128
  // bytes), so 8 bytes can be read from each.
  gLastNumParams = f->numParams;
  gLastParams.assign(f->numParams > 0 ? f->numParams : 0, 0);
  for (int i = 0; i < f->numParams && params; ++i)
    std::memcpy(&gLastParams[i], params[i], sizeof(uint64_t));
  FakeEventRecord &r = nextRecord();
  std::snprintf(r.name, sizeof(r.name), "%s", f->name.c_str());
  std::memcpy(r.grid, gLastGrid, sizeof(r.grid));
  r.numParams = 0;
  for (int i = 0; i < f->numParams && i < 64; ++i)
    r.params[r.numParams++] = gLastParams[i];
  return kOk;
}

CUresult cuStreamCreate(void **stream, unsigned) {
  *stream = new FakeStream;
  return kOk;
}
CUresult cuStreamDestroy_v2(void *stream) {
  delete static_cast<FakeStream *>(stream);
  return kOk;
}
CUresult cuStreamSynchronize(void *) { return kOk; }
CUresult cuStreamBeginCapture_v2(void *stream, int) {
  if (!stream)
    return kInvalidValue; // the legacy stream cannot be captured
  auto *s = static_cast<FakeStream *>(stream);
  s->capturing = true;
  s->captured = 0;
  return kOk;
}
CUresult cuStreamEndCapture(void *stream, void **graph) {
  auto *s = static_cast<FakeStream *>(stream);
  s->capturing = false;
  auto *g = new FakeGraph;
  g->kernels = s->captured;
  *graph = g;
  return kOk;
}
CUresult cuGraphInstantiateWithFlags(void **exec, void *graph,
                                     unsigned long long) {
  auto *g = new FakeGraph(*static_cast<FakeGraph *>(graph));
  *exec = g;
  return kOk;
}
CUresult cuGraphLaunch(void *exec, void *) {
  gLaunches += static_cast<FakeGraph *>(exec)->kernels;
  return kOk;
}
CUresult cuGraphExecDestroy(void *exec) {
  delete static_cast<FakeGraph *>(exec);
  return kOk;
}
CUresult cuGraphDestroy(void *graph) {
  delete static_cast<FakeGraph *>(graph);
  return kOk;
}

CUresult cuEventCreate(void **event, unsigned) {
  *event = new FakeEvent;
  return kOk;
}
CUresult cuEventRecord(void *event, void *) {
  static_cast<FakeEvent *>(event)->ms = nowMs();
  return kOk;
}
CUresult cuEventSynchronize(void *) { return kOk; }
CUresult cuEventQuery(void *) { return kOk; }
CUresult cuEventElapsedTime(float *ms, void *start, void *stop) {
  *ms = static_cast<float>(static_cast<FakeEvent *>(stop)->ms -
                           static_cast<FakeEvent *>(start)->ms);
  return kOk;
}
CUresult cuEventDestroy_v2(void *event) {
  delete static_cast<FakeEvent *>(event);
  return kOk;
}

CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case kInvalidValue:
    *name = "CUDA_ERROR_INVALID_VALUE";
    break;
  case kInvalidImage:
    *name = "CUDA_ERROR_INVALID_IMAGE";
    break;
  case kNotFound:
    *name = "CUDA_ERROR_NOT_FOUND";
    break;
  default:
    *name = "CUDA_ERROR_UNKNOWN";
  }
  return kOk;
}
CUresult cuGetErrorString(CUresult, const char **text) {
  *text = "fake CUDA driver error";
  return kOk;
}

int64_t kda2_fake_cuda_launches(void) { return gLaunches.load(); }
int64_t kda2_fake_cuda_memsets32(uint64_t *dst, unsigned *value,
                                 uint64_t *count) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (dst)
    *dst = gLastMemset32[0];
  if (value)
    *value = static_cast<unsigned>(gLastMemset32[1]);
  if (count)
    *count = gLastMemset32[2];
  return gMemsets32.load();
}
int64_t kda2_fake_cuda_programmatic_launches(void) {
  return gProgrammaticLaunches.load();
}
int kda2_fake_cuda_last_launch(unsigned *grid, uint64_t *params,
                               int capacity) {
  std::lock_guard<std::mutex> lock(gMutex);
  for (int i = 0; i < 3 && grid; ++i)
    grid[i] = gLastGrid[i];
  for (int i = 0; i < gLastNumParams && i < capacity && params; ++i)
    params[i] = gLastParams[i];
  return gLastNumParams;
}
int kda2_fake_cuda_event(int back, const char **name, unsigned *grid,
                         uint64_t *params, int capacity) {
  std::lock_guard<std::mutex> lock(gMutex);
  size_t kept = gRecorded - gForgotten;
  if (kept > kHistory)
    kept = kHistory;
  if (back < 0 || static_cast<size_t>(back) >= kept)
    return -2;
  const FakeEventRecord &r = gHistory[(gRecorded - 1 - back) % kHistory];
  if (name)
    *name = r.name;
  for (int i = 0; i < 3 && grid; ++i)
    grid[i] = r.grid[i];
  int n = r.numParams;
  for (int i = 0; i < n && i < capacity && params; ++i)
    params[i] = r.params[i];
  return n;
}
int kda2_fake_cuda_tensor_map(int back, uint64_t *words, int capacity) {
  std::lock_guard<std::mutex> lock(gMutex);
  size_t kept = gMapsEncoded - gMapsForgotten;
  if (kept > kHistory)
    kept = kHistory;
  if (back < 0 || static_cast<size_t>(back) >= kept)
    return -2;
  const uint64_t *w = gMaps[(gMapsEncoded - 1 - back) % kHistory];
  const int n = static_cast<int>(std::size(gMaps[0]));
  for (int i = 0; i < n && i < capacity && words; ++i)
    words[i] = w[i];
  return n;
}
void kda2_fake_cuda_clear_events(void) {
  std::lock_guard<std::mutex> lock(gMutex);
  gForgotten = gRecorded;
  gMapsForgotten = gMapsEncoded;
}
const char *kda2_fake_cuda_last_kernel(void) {
  static std::string copy; // not thread_local: see tCurrent
  std::lock_guard<std::mutex> lock(gMutex);
  copy = gLastKernel;
  return copy.c_str();
}

} // extern "C"
