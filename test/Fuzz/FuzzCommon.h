//===- FuzzCommon.h - Helpers shared by the kda2 fuzz targets ----*- C++ -*-===//
//
// A fuzz target reports a bug by aborting: sanitizer reports (ASan, UBSan)
// abort on their own; a broken invariant that is not memory or UB (a module
// the frontend produced that does not round-trip, an error message without
// its location) calls fuzzCheckFailed, which prints why and aborts.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_TEST_FUZZ_FUZZCOMMON_H
#define KDA2_TEST_FUZZ_FUZZCOMMON_H

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

// LLVM's BumpPtrAllocator (inline, in llvm/Support/Allocator.h) poisons its
// slabs when compiled with ASan and unpoisons what it hands out; the prebuilt
// LLVM/MLIR libraries contain uninstrumented copies that do neither, and the
// linker mixes both, so allocator memory reads as "use-after-poison" (a false
// positive). Manual poisoning is therefore off; real heap errors are still
// found. Here rather than in ASAN_OPTIONS so that reproducing an artifact by
// hand behaves the same. (Each fuzz target includes this header once.)
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

namespace kda2fuzz {

[[noreturn]] inline void fuzzCheckFailed(const std::string &what,
                                         const std::string &detail = "") {
  std::fprintf(stderr, "kda2 fuzz check failed: %s\n%s\n", what.c_str(),
               detail.c_str());
  std::abort();
}

/// True if `message` starts with "<buffer>:<line>:<col>: error: " and says
/// something after it (the documented form of located errors).
inline bool isLocatedError(std::string_view message, std::string_view buffer) {
  if (message.substr(0, buffer.size()) != buffer ||
      message.substr(buffer.size(), 1) != ":")
    return false;
  message.remove_prefix(buffer.size() + 1);
  for (int field = 0; field < 2; ++field) {
    size_t digits = message.find_first_not_of("0123456789");
    if (digits == 0 || digits == std::string_view::npos ||
        message[digits] != ':')
      return false;
    message.remove_prefix(digits + 1);
  }
  return message.substr(0, 8) == " error: " && message.size() > 8;
}

} // namespace kda2fuzz

#endif // KDA2_TEST_FUZZ_FUZZCOMMON_H
