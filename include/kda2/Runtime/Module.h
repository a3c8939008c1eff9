//===- Module.h - kda2 kernel metadata, modules and launches ----*- C++ -*-===//
//
// Part of libkda2rt. KernelInfo is the parsed form of the `__kda2_meta_<K>`
// text the compiler embeds next to every kernel K (format: docs/Runtime.md).
// parseKernelMetadata and computeLaunchConfig are pure functions (no GPU).
// Module loads a cubin/fatbin/PTX image; Kernel launches one kernel with
// arguments given by name.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_RUNTIME_MODULE_H
#define KDA2_RUNTIME_MODULE_H

#include "kda2/Runtime/CudaDriver.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace kda2::runtime {

/// The metadata header line this runtime reads.
constexpr const char *kMetadataVersion = "kda2-kernel-v1";
/// Prefix of the global holding a kernel's metadata: __kda2_meta_<kernel>.
constexpr const char *kMetadataSymbolPrefix = "__kda2_meta_";

enum class DType { F16, BF16, F32, F64, I1, I8, UI8, I16, I32, I64 };
/// Bytes per element (i1 is stored as one byte).
KDA2RT_API size_t dtypeSize(DType type);
KDA2RT_API const char *dtypeName(DType type);
KDA2RT_API bool parseDType(std::string_view text, DType &out);

enum class Access { In, Out, InOut };
KDA2RT_API const char *accessName(Access access);

enum class ScalarType { F32, F64, I32, I64 };
KDA2RT_API const char *scalarTypeName(ScalarType type);

/// How a recurrent-state argument stores each (sequence-or-slot, head)
/// matrix, from the metadata's `state <arg> <kv|vk>` line: KV is K-major
/// (K x V row-major: element (k, v) at k * V + v, flash-linear-attention's
/// layout), VK is V-major (the transpose, V x K row-major: (k, v) at
/// v * K + k, vLLM's). None: the metadata has no `state` line for it.
enum class StateOrder { None, KV, VK };
/// "kv", "vk" or "none".
KDA2RT_API const char *stateOrderName(StateOrder order);
/// "K-major (kv)", "V-major (vk)" or "undeclared", for messages.
KDA2RT_API const char *stateOrderDescription(StateOrder order);
/// Parses "kv" or "vk" (not "none").
KDA2RT_API bool parseStateOrder(std::string_view text, StateOrder &out);

/// One dimension of a pointer argument's shape: a static size, a named
/// dimension, or dynamic ("?").
struct KDA2RT_API ShapeDim {
  enum Kind { Static, Named, Dynamic } kind = Dynamic;
  int64_t size = 0;  // Static
  std::string name;  // Named
  /// Named: the extent is stored rounded up to a multiple of this (a `pad`
  /// line: the kernel addresses rows with the padded pitch).
  int64_t padTo = 1;
};

/// One `arg` line: a kernel parameter, in parameter order.
struct KDA2RT_API ArgInfo {
  enum Kind { Ptr, Scalar, Dim, Counters, TensorMap } kind = Ptr;
  /// Argument name; "counters" for the counters buffer.
  std::string name;
  // Ptr:
  DType dtype = DType::F32;
  Access access = Access::In;
  std::vector<ShapeDim> shape;
  // Scalar:
  ScalarType scalarType = ScalarType::F32;
  // Counters:
  int64_t numCounters = 0;
  // TensorMap (a 128-byte CUtensorMap passed by value, built at launch for
  // the TMA copies of pointer argument `source`): the source's logical
  // dimension of each tensor-map dimension, innermost first, and the box
  // (tile) extent along each.
  std::string source;
  std::vector<int> mapDims;
  std::vector<uint32_t> box;
  /// Shared-memory swizzle span in bytes (0: none; 32, 64, 128:
  /// CU_TENSOR_MAP_SWIZZLE_32B/64B/128B), from a trailing `swizzle <S>`.
  int swizzle = 0;
  /// Ptr: the layout of the recurrent state it holds (a `state` line), or
  /// None when it is not declared as a state.
  StateOrder stateLayout = StateOrder::None;
  /// Ptr or Scalar: the value range the kernel was compiled to be safe for
  /// (a `range <arg> <lo> <hi>` line; bounds may be -inf / inf). Without
  /// one, hasRange is false and nothing is declared.
  bool hasRange = false;
  double rangeLo = 0, rangeHi = 0;
  /// Ptr: the integer scalar argument holding the element stride of its
  /// outermost dimension (a `stride <arg> <scalar>` line: rows sliced from a
  /// wider tensor); empty when the argument is dense.
  std::string strideScalar;
  size_t strideLine = 0;
  /// 1-based metadata line of this argument, of its `state` line and of its
  /// `range` line (0: none).
  size_t line = 0, stateLine = 0, rangeLine = 0;
};

/// One `counter` line (one 8-byte slot of the counters buffer).
struct KDA2RT_API CounterInfo {
  std::string name;
  bool isFloat = false; // f64 if true, else i64
};

/// A grid.x term: a positive constant or a dimension name.
struct KDA2RT_API GridTerm {
  int64_t constant = 0; // > 0 for a constant term
  std::string dim;      // non-empty for a dimension term
};

/// A `variant` line: a copy of the kernel specialised (`@shape_hint`) for
/// one size of a dimension; launches with that size run the copy.
struct KDA2RT_API VariantInfo {
  std::string dim;
  int64_t value = 0;
  std::string kernel;
};

/// A `bind <name> <value>` line: a compile-time integer the kernel was built
/// with (`--tirx-bind=GF=2`), one its source refers to.
struct KDA2RT_API BindingInfo {
  std::string name;
  int64_t value = 0;
};

/// Parsed kernel metadata.
struct KDA2RT_API KernelInfo {
  std::string name;
  unsigned block[3] = {1, 1, 1};
  std::vector<GridTerm> gridX;     // gridDim.x = max of terms (1 if none)
  std::vector<std::string> gridY;  // gridDim.y = product of dims (1 if none)
  unsigned sharedBytes = 0;        // dynamic shared memory
  std::vector<ArgInfo> args;       // kernel parameters, in order
  std::vector<CounterInfo> counters;
  std::vector<VariantInfo> variants; // shape-specialised copies
  std::vector<BindingInfo> bindings; // compile-time bindings, in line order
  /// `pdl 1`: launched as the programmatic dependent of the stream's
  /// previous kernel (it waits for that kernel's ready flags itself).
  bool programmatic = false;
  /// `persistent n` (n > 0): launched with at most n blocks per SM, in one
  /// dimension; its blocks walk the grid of grid.x × grid.y work items
  /// (@persistent). 0: the grid as computed.
  int persistentBlocks = 0;

  const ArgInfo *findArg(std::string_view name) const;
  /// The value of the compile-time binding `name` the kernel was built with
  /// (its `bind` line), or nullopt when it has none of that name.
  std::optional<int64_t> binding(std::string_view name) const;
  /// Every dimension name the kernel refers to (grid, shapes, dim args),
  /// sorted, without duplicates.
  std::vector<std::string> dimNames() const;
};

/// Parses metadata text (stops at the first NUL). Errors (ErrorCode::Metadata)
/// start with "line N: " and say what is wrong.
KDA2RT_API Status parseKernelMetadata(std::string_view text, KernelInfo &out);
/// Prints `info` in the metadata format (parseKernelMetadata round-trips it).
KDA2RT_API std::string formatKernelMetadata(const KernelInfo &info);
/// A bound of a `range` line as the metadata prints it: %g, and -inf / inf.
KDA2RT_API std::string formatRangeBound(double value);

/// Kernel arguments given by name.
class KDA2RT_API LaunchArgs {
public:
  struct Pointer {
    std::string name;
    CUdeviceptr value = 0;
    bool hasShape = false;
    std::vector<int64_t> shape; // checked against the metadata if hasShape
  };
  struct Size {
    std::string name;
    int64_t value = 0;
  };
  struct ScalarValue {
    std::string name;
    bool isInt = false;
    int64_t intValue = 0;
    double floatValue = 0;
  };

  /// A device pointer argument (or "counters", the counters buffer).
  LaunchArgs &ptr(std::string name, CUdeviceptr value);
  LaunchArgs &ptr(std::string name, const void *value);
  /// A device pointer with its tensor shape: the rank and static dimensions
  /// are checked, and named dimensions not given with dim() are inferred.
  LaunchArgs &ptr(std::string name, const void *value,
                  std::vector<int64_t> shape);
  /// The size of a named dimension.
  LaunchArgs &dim(std::string name, int64_t size);
  /// A scalar argument; converted to the declared type at launch (an integer
  /// type needs an integral value in range).
  template <typename T,
            std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  LaunchArgs &scalar(std::string name, T value) {
    if constexpr (std::is_integral_v<T>)
      return intScalar(std::move(name), static_cast<int64_t>(value));
    else
      return floatScalar(std::move(name), static_cast<double>(value));
  }
  LaunchArgs &intScalar(std::string name, int64_t value);
  LaunchArgs &floatScalar(std::string name, double value);

  const std::vector<Pointer> &pointers() const { return pointers_; }
  const std::vector<Size> &dims() const { return dims_; }
  const std::vector<ScalarValue> &scalars() const { return scalars_; }

private:
  std::vector<Pointer> pointers_;
  std::vector<Size> dims_;
  std::vector<ScalarValue> scalars_;
};

/// Everything cuLaunchKernel needs, computed from metadata + arguments.
/// What cuTensorMapEncodeTiled needs for one `arg tensormap` parameter
/// (computed without a GPU; Kernel::launch encodes it).
struct KDA2RT_API TensorMapRequest {
  size_t param = 0; // index into LaunchConfig::params
  DType dtype = DType::F32;
  CUdeviceptr address = 0;
  std::vector<uint64_t> dims;    // elements, innermost first
  std::vector<uint64_t> strides; // bytes, of dims 1..rank-1
  std::vector<uint32_t> box;     // elements, innermost first
  int swizzle = 0;               // bytes: 0, 32, 64 or 128
};

struct KDA2RT_API LaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned sharedBytes = 0;
  /// One 8-byte slot per kernel parameter, in `arg` order; a 4-byte value
  /// sits in the low bytes of its slot.
  std::vector<uint64_t> params;
  std::vector<unsigned> paramSizes;
  /// Resolved dimension sizes (given or inferred from shapes), by name.
  std::vector<LaunchArgs::Size> dims;
  /// Tensor-map parameters (their params slot is a placeholder; the launch
  /// passes the 128-byte encoded map instead).
  std::vector<TensorMapRequest> tensorMaps;

  /// True when the grid has no blocks (a zero-sized problem): nothing to run.
  bool empty() const { return grid[0] == 0 || grid[1] == 0 || grid[2] == 0; }
  /// Size of a resolved dimension, or -1.
  int64_t dim(std::string_view name) const;
};

/// Checks `args` against `info` and computes grid, block and the parameter
/// buffer. Errors name the offending argument or dimension: unknown or
/// duplicate names, missing or null pointers, missing dims or scalars, shape
/// mismatches, non-integral integer scalars (ErrorCode::InvalidArgument);
/// grid.x > 2^31-1 or grid.y > 65535 (ErrorCode::LaunchConfig).
KDA2RT_API Status computeLaunchConfig(const KernelInfo &info,
                                      const LaunchArgs &args,
                                      LaunchConfig &out);

/// Names K of all `__kda2_meta_K` symbols in a module image: in a cubin they
/// are NUL-terminated ELF string-table entries, in PTX the declarations
/// `.global ... __kda2_meta_K[`. Sorted, without duplicates. (The driver has no
/// API to list a module's globals, so the image bytes are scanned.)
KDA2RT_API std::vector<std::string> scanKernelNames(const void *image,
                                                    size_t size);

/// The value of one counter slot.
struct KDA2RT_API CounterValue {
  std::string name;
  bool isFloat = false;
  uint64_t raw = 0;
  int64_t asInt() const;
  double asDouble() const; // the slot per its type, as a double
};

class Module;

/// One tensor map of a prepared launch (Kernel::launchPreparedMaps): what
/// Kernel::launch passes cuTensorMapEncodeTiled for a TensorMapRequest,
/// in fixed arrays (TMA has at most 5 dimensions).
struct KDA2RT_API PreparedTensorMap {
  static constexpr uint32_t kMaxRank = 5;
  size_t param = 0; // the `arg tensormap` parameter it is passed as
  DType dtype = DType::F32;
  uint32_t rank = 0;
  CUdeviceptr address = 0;
  uint64_t dims[kMaxRank] = {};        // elements, innermost first
  uint64_t strides[kMaxRank - 1] = {}; // bytes, of dims 1..rank-1
  uint32_t box[kMaxRank] = {};
  int swizzle = 0;
};

/// One kernel of a loaded module; valid while the module stays loaded.
class KDA2RT_API Kernel {
public:
  Kernel() = default;

  bool valid() const { return func_ != nullptr; }
  const KernelInfo &info() const { return info_; }
  const std::string &name() const { return info_.name; }
  /// The metadata text as embedded in the module.
  const std::string &metadataText() const { return text_; }
  CUfunction handle() const { return func_; }

  /// Computes the launch configuration (computeLaunchConfig), makes the
  /// module's context current and calls cuLaunchKernel on `stream`
  /// (asynchronous). A zero-sized grid launches nothing and succeeds. If
  /// `config` is not null, the computed configuration is stored there.
  Status launch(const LaunchArgs &args, CUstream stream = nullptr,
                LaunchConfig *config = nullptr) const;

  /// Sets `count` 32-bit words at `ptr` to zero on `stream` (asynchronous,
  /// cuMemsetD32Async), in the module's context: the ready flags the
  /// kernels built with RDY=1 set are cleared this way before each call.
  Status clearWords(CUdeviceptr ptr, size_t count, CUstream stream) const;

  /// Reads the counter slots from the device buffer `counters` (synchronous).
  Status readCounters(CUdeviceptr counters,
                      std::vector<CounterValue> &out) const;

  /// The grid a launch of `grid` (the metadata's) uses: the same, or for a
  /// persistent kernel (`persistent n`) min(its blocks, n × the device's
  /// SMs) × 1 × 1.
  void residentGrid(const unsigned grid[3], unsigned out[3]) const;

  /// The function of info().variants[i] (null if out of range).
  CUfunction variantHandle(size_t i) const {
    return i < variantFuncs_.size() ? variantFuncs_[i] : nullptr;
  }
  /// Launches `func` (this kernel or one of its variants) on `stream` with
  /// a parameter array the caller prepared in `arg` order, after making the
  /// module's context current. No argument checks and no allocation: the
  /// hot path of prepared launches (KdaDecodePlan).
  Status launchPrepared(CUfunction func, const unsigned grid[3],
                        void **params, CUstream stream) const;

  /// launchPrepared with tensor maps, for the prepared launches of
  /// kernels with `arg tensormap` parameters (KdaPrefillPlan): after making
  /// the context current, encodes maps[0..numMaps) into `storage` (128
  /// bytes each, 64-byte aligned, caller-owned) and points
  /// params[maps[i].param] at them, then calls cuLaunchKernel. The driver
  /// calls, their order and the error messages are Kernel::launch's; a
  /// zero grid launches and encodes nothing. No allocation unless it fails.
  Status launchPreparedMaps(CUfunction func, const unsigned grid[3],
                            void **params, const PreparedTensorMap *maps,
                            size_t numMaps, void *storage,
                            CUstream stream) const;

private:
  friend class Module;
  const Driver *driver_ = nullptr;
  CUcontext ctx_ = nullptr;
  CUfunction func_ = nullptr;
  /// The device's SM count (for persistent launches; 0: unknown).
  int smCount_ = 0;
  KernelInfo info_;
  std::string text_;
  /// The functions of info_.variants, in the same order.
  std::vector<CUfunction> variantFuncs_;
};

/// A loaded CUDA module (cubin, fatbin or PTX). Movable, not copyable;
/// unloaded by the destructor. Holds its own reference to the device's
/// primary context.
class KDA2RT_API Module {
public:
  Module() = default;
  ~Module();
  Module(Module &&other) noexcept;
  Module &operator=(Module &&other) noexcept;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  /// Loads a module file into the device of `ctx`.
  static Status loadFile(const Context &ctx, const std::string &path,
                         Module &out);
  /// Loads a module image from memory (cubin/fatbin bytes or PTX text; PTX
  /// need not be NUL-terminated). The bytes are copied.
  static Status loadData(const Context &ctx, const void *image, size_t size,
                         Module &out);

  bool loaded() const { return module_ != nullptr; }
  CUmodule handle() const { return module_; }
  const Context &context() const { return ctx_; }
  /// kda2 kernels in the image (scanKernelNames).
  const std::vector<std::string> &kernelNames() const { return names_; }

  /// Looks up kernel `name`, reads and parses its `__kda2_meta_<name>` global.
  /// Error if absent: "kernel 'x' not found in module; available: a, b".
  Status getKernel(const char *name, Kernel &out) const;
  /// Reads the metadata text of kernel `name` without parsing it.
  Status readMetadata(const char *name, std::string &text) const;

  /// Unloads now (also done by the destructor, which ignores errors).
  Status unload();

private:
  Context ctx_;
  CUmodule module_ = nullptr;
  std::vector<char> image_;
  std::vector<std::string> names_;
  std::string source_; // path or "<memory>", for messages
};

} // namespace kda2::runtime

#endif // KDA2_RUNTIME_MODULE_H
