//===- Dispatch.h - dynamic-seqlen dispatch table ---------------*- C++ -*-===//
//
// Part of libkda2rt. A bundle (docs/Bundle.md) holds several compiled copies
// of one operation ("op"): one per chip and per range of the runtime
// sequence length. DispatchTable picks the copy for a device and a length:
// a specialisation whose range holds the length, else the op's generic
// kernel for that chip. Pure bookkeeping (no GPU), unit-tested on the host.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_RUNTIME_DISPATCH_H
#define KDA2_RUNTIME_DISPATCH_H

#include "kda2/Runtime/CudaDriver.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace kda2::runtime {

/// A CUDA target such as sm_80, sm_86 or sm_90a.
struct KDA2RT_API Chip {
  int major = 0;
  int minor = 0;
  /// The `a` suffix (sm_90a): the cubin runs only on exactly major.minor.
  bool archSpecific = false;

  /// Parses "sm_<major><minor>[a]" (e.g. sm_90a, sm_120a). False otherwise.
  static bool parse(std::string_view text, Chip &out);
  std::string str() const;
  /// Whether a cubin built for this chip runs on a device of compute
  /// capability major.minor: same major and minor <= the device's (exactly
  /// equal for an `a` target). Cubins are not portable across majors.
  bool runsOn(int deviceMajor, int deviceMinor) const;
};

/// Largest length a range can name ("inf" in the manifest).
inline constexpr int64_t kMaxLength = std::numeric_limits<int64_t>::max();

/// One compiled copy of an op: a kernel in one of the bundle's images.
struct KDA2RT_API DispatchEntry {
  std::string op;     // operation name callers use
  std::string dim;    // dispatch dimension (the runtime length), e.g. "t"
  std::string chip;   // sm_XY[a]
  std::string kernel; // kernel symbol in the image
  /// Lengths minLength..maxLength (inclusive) select this entry; a generic
  /// entry takes every length no specialisation of its chip covers.
  int64_t minLength = 0;
  int64_t maxLength = kMaxLength;
  bool generic = false;
  size_t image = 0; // index of the image holding `kernel`

  /// "1..64" or "generic".
  std::string rangeText() const;
};

/// Specialisations keyed by (op, chip, length range), plus a generic kernel
/// per (op, chip).
class KDA2RT_API DispatchTable {
public:
  /// Adds an entry. Errors (ErrorCode::InvalidArgument) name the field:
  /// empty op/kernel/dim, bad chip, negative or inverted range, a second
  /// generic kernel for the same (op, chip), a range overlapping another
  /// specialisation of the same (op, chip) ("duplicate specialisation"), a
  /// dispatch dimension differing from the op's earlier entries.
  Status add(DispatchEntry entry);

  /// Picks the entry of `op` for a device of compute capability
  /// major.minor and runtime `length`. Among the chips that run on the
  /// device, the closest one (highest minor, `a` preferred) is used: its
  /// specialisation covering `length`, else its generic entry. Errors:
  /// unknown op (lists the ops), no chip for the device (lists the chips),
  /// length not covered and no generic (lists the ranges), negative length.
  Status select(std::string_view op, int deviceMajor, int deviceMinor,
                int64_t length, const DispatchEntry *&out) const;

  const std::vector<DispatchEntry> &entries() const { return entries_; }
  /// The ops in the table, sorted, without duplicates.
  std::vector<std::string> ops() const;
  /// The dispatch dimension of `op` ("" if the op is unknown).
  std::string dimOf(std::string_view op) const;
  /// One line per entry: "op chip range kernel image".
  std::string describe() const;

private:
  std::vector<DispatchEntry> entries_;
};

} // namespace kda2::runtime

#endif // KDA2_RUNTIME_DISPATCH_H
