//===- FuzzMetadata.cpp - libFuzzer target: the runtime's metadata parser -===//
//
// Plain C++ against libkda2rt (no LLVM/MLIR). Feeds the input bytes to
// kda2::runtime::parseKernelMetadata; errors must start with "line N: ";
// accepted metadata must round-trip
// through formatKernelMetadata, and computeLaunchConfig is run on it with
// every argument supplied (dimension sizes taken from the input bytes, so
// zero, huge and overflowing grids are reached). The bytes are also scanned
// as a module image (scanKernelNames).
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "kda2/Runtime/Module.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace kda2::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)scanKernelNames(data, size);

  std::string_view text(reinterpret_cast<const char *>(data), size);
  KernelInfo info;
  Status parsed = parseKernelMetadata(text, info);
  if (!parsed.ok()) {
    // Documented: ErrorCode::Metadata, "line N: ...".
    const std::string &m = parsed.message();
    size_t digits = m.find_first_not_of("0123456789", 5);
    if (parsed.code() != ErrorCode::Metadata || m.compare(0, 5, "line ") != 0 ||
        digits == 5 || digits == std::string::npos ||
        m.compare(digits, 2, ": ") != 0)
      kda2fuzz::fuzzCheckFailed("metadata error without its line number", m);
    return 0;
  }

  std::string formatted = formatKernelMetadata(info);
  KernelInfo again;
  Status reparsed = parseKernelMetadata(formatted, again);
  if (!reparsed.ok())
    kda2fuzz::fuzzCheckFailed("formatted metadata does not parse: " +
                                    reparsed.message(),
                                formatted);
  if (formatKernelMetadata(again) != formatted)
    kda2fuzz::fuzzCheckFailed("metadata does not round-trip", formatted);

  // Dimension sizes from the input bytes: 0, small, 2^31 and 2^62 sizes.
  static const int64_t kSizes[] = {0, 1, 3, 64, 65536, int64_t(1) << 31,
                                   int64_t(1) << 62, 7};
  LaunchArgs args;
  size_t pick = 0;
  for (const std::string &dim : info.dimNames())
    args.dim(dim, kSizes[size ? data[pick++ % size] % 8 : 0]);
  for (const ArgInfo &arg : info.args) {
    switch (arg.kind) {
    case ArgInfo::Ptr:
    case ArgInfo::Counters:
      args.ptr(arg.name, CUdeviceptr(0x10000));
      break;
    case ArgInfo::Scalar:
      if (arg.scalarType == ScalarType::I32 || arg.scalarType == ScalarType::I64)
        args.intScalar(arg.name, int64_t(1) << 40);
      else
        args.floatScalar(arg.name, 0.5);
      break;
    case ArgInfo::Dim:
      break;
    }
  }
  LaunchConfig config;
  (void)computeLaunchConfig(info, args, config);
  return 0;
}
