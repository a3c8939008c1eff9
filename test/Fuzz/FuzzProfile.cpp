//===- FuzzProfile.cpp - libFuzzer target: the hardware-profile loader ----===//
//
// Feeds the input bytes as a YAML hardware profile to
// mlir::kda2::ProfileRegistry::addFromBuffer. A rejected profile must leave
// the registry unchanged and report "<buffer>:<line>:<col>: error: ..." (the
// documented contract); an accepted one is looked up and its derived values
// computed, as the kda2 verifier does.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "kda2/Agent/HardwareProfile.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

using namespace mlir::kda2;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef yaml(reinterpret_cast<const char *>(data), size);
  ProfileRegistry registry;
  if (llvm::Error err = registry.addFromBuffer(yaml, "fuzz.yaml")) {
    std::string message = llvm::toString(std::move(err));
    if (!kda2fuzz::isLocatedError(message, "fuzz.yaml"))
      kda2fuzz::fuzzCheckFailed("profile error without a location", message);
    if (!registry.names().empty())
      kda2fuzz::fuzzCheckFailed("a rejected profile was registered",
                                  message);
    return 0;
  }
  std::vector<std::string> names = registry.names();
  if (names.size() != 1)
    kda2fuzz::fuzzCheckFailed("an accepted profile was not registered once");
  const HardwareProfile *profile = registry.lookup(names.front());
  if (!profile)
    kda2fuzz::fuzzCheckFailed("lookup of an accepted profile failed",
                                names.front());
  volatile uint64_t sink = profile->sharedMemoryPerBlockBytes() +
                           profile->sharedMemoryPerSMBytes() +
                           profile->isHopper();
  (void)sink;
  // Adding it again must fail (duplicate name) and keep the first.
  if (llvm::Error err = registry.addFromBuffer(yaml, "fuzz.yaml"))
    llvm::consumeError(std::move(err));
  else
    kda2fuzz::fuzzCheckFailed("a duplicate profile was accepted");
  return 0;
}
