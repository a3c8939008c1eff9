//===- HardwareProfile.cpp - GPU hardware profiles --------------*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
//
// Loading and validation of hardware profiles. Mapping YAML onto the struct is
// done by llvm::yaml::Input, which reports syntax errors, unknown keys,
// missing keys and ill-typed scalars with their source location. Range and
// consistency checks run afterwards; their errors are located at the value of
// the offending key, found by walking the document with llvm::yaml::Stream.
//
//===----------------------------------------------------------------------===//

#include "kda2/Agent/HardwareProfile.h"

#include "YAMLDiagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>

using namespace llvm;
using namespace mlir::kda2;
using mlir::kda2::yamldiag::makeError;

//===----------------------------------------------------------------------===//
// YAML mapping
//===----------------------------------------------------------------------===//

namespace {
/// A profile as written in YAML. `max_tma_tile` is a list there; its length
/// is checked before it is split into rows and columns.
struct ProfileDocument {
  HardwareProfile profile;
  std::vector<unsigned> maxTmaTile;
};
} // namespace

namespace llvm {
namespace yaml {
template <>
struct MappingTraits<SimulatorParameters> {
  static void mapping(IO &io, SimulatorParameters &p) {
    // Defaults come from the struct's initializers.
    const SimulatorParameters defaults;
    io.mapOptional("alu_latency", p.aluLatency, defaults.aluLatency);
    io.mapOptional("sfu_latency", p.sfuLatency, defaults.sfuLatency);
    io.mapOptional("sfu_lanes_per_scheduler", p.sfuLanesPerScheduler,
                   defaults.sfuLanesPerScheduler);
    io.mapOptional("mma_latency", p.mmaLatency, defaults.mmaLatency);
    io.mapOptional("mma_sync_efficiency", p.mmaSyncEfficiency,
                   defaults.mmaSyncEfficiency);
    io.mapOptional("wgmma_efficiency", p.wgmmaEfficiency,
                   defaults.wgmmaEfficiency);
    io.mapOptional("shared_latency", p.sharedLatency, defaults.sharedLatency);
    io.mapOptional("shared_banks", p.sharedBanks, defaults.sharedBanks);
    io.mapOptional("shared_bank_bytes", p.sharedBankBytes,
                   defaults.sharedBankBytes);
    io.mapOptional("l2_latency", p.l2Latency, defaults.l2Latency);
    io.mapOptional("hbm_latency", p.hbmLatency, defaults.hbmLatency);
    io.mapOptional("tma_latency", p.tmaLatency, defaults.tmaLatency);
    io.mapOptional("l2_bytes_per_cycle_per_sm", p.l2BytesPerCyclePerSM,
                   defaults.l2BytesPerCyclePerSM);
    io.mapOptional("barrier_latency", p.barrierLatency,
                   defaults.barrierLatency);
    io.mapOptional("unroll_threshold", p.unrollThreshold,
                   defaults.unrollThreshold);
    io.mapOptional("unroll_partial_threshold", p.unrollPartialThreshold,
                   defaults.unrollPartialThreshold);
    io.mapOptional("list_schedule", p.listSchedule, defaults.listSchedule);
  }
};

template <>
struct MappingTraits<ProfileDocument> {
  static void mapping(IO &io, ProfileDocument &doc) {
    HardwareProfile &p = doc.profile;
    io.mapRequired("name", p.name);
    io.mapRequired("arch", p.arch);
    io.mapRequired("sm_count", p.smCount);
    io.mapRequired("warp_schedulers_per_sm", p.warpSchedulersPerSM);
    io.mapRequired("registers_per_sm", p.registersPerSM);
    io.mapRequired("max_registers_per_thread", p.maxRegistersPerThread);
    io.mapRequired("max_threads_per_sm", p.maxThreadsPerSM);
    io.mapRequired("max_warps_per_sm", p.maxWarpsPerSM);
    io.mapRequired("max_threads_per_block", p.maxThreadsPerBlock);
    io.mapRequired("shared_memory_per_sm_kb", p.sharedMemoryPerSMKB);
    io.mapRequired("shared_memory_per_block_kb", p.sharedMemoryPerBlockKB);
    io.mapRequired("l2_size_mb", p.l2SizeMB);
    io.mapRequired("l2_bandwidth_gbps", p.l2BandwidthGBps);
    io.mapRequired("hbm_size_gb", p.hbmSizeGB);
    io.mapRequired("hbm_bandwidth_gbps", p.hbmBandwidthGBps);
    io.mapRequired("base_clock_mhz", p.baseClockMHz);
    io.mapRequired("boost_clock_mhz", p.boostClockMHz);
    io.mapRequired("tensor_tflops_fp16", p.tensorTFlopsFP16);
    io.mapRequired("tensor_tflops_bf16", p.tensorTFlopsBF16);
    io.mapRequired("fp32_tflops", p.fp32TFlops);
    io.mapRequired("tma", p.tma);
    io.mapRequired("max_tma_tile", doc.maxTmaTile);
    io.mapRequired("sources", p.sources);
    io.mapOptional("simulator", p.simulator);
  }
};
} // namespace yaml
} // namespace llvm

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//



/// Formats a double the way it would usually be written in YAML.
static std::string formatNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", value);
  return buffer;
}

//===----------------------------------------------------------------------===//
// ProfileParser
//===----------------------------------------------------------------------===//

namespace {
/// Parses and validates one profile document held in memory.
class ProfileParser {
public:
  ProfileParser(StringRef yaml, StringRef bufferName);

  /// Maps the document onto a profile and checks values and consistency.
  Expected<HardwareProfile> parse();

  /// An error located at the value of top-level key \p key, or at the start
  /// of the document when the key is absent.
  Error errorAtKey(StringRef key, const Twine &message) const;

private:
  /// Records where each top-level value of the first document starts and
  /// where a second document, if any, starts.
  void indexLocations();
  /// Range and consistency checks on a successfully mapped document.
  Error validate(const ProfileDocument &doc) const;
  /// An error located at \p loc (1:1 of the buffer when invalid).
  Error errorAt(SMLoc loc, const Twine &message) const;

  MemoryBufferRef buffer;
  /// Owns the location index's view of the buffer, for rendering.
  SourceMgr sourceMgr;
  StringMap<SMLoc> valueLocs;
  SMLoc documentLoc;
  SMLoc extraDocumentLoc;
  bool hasExtraDocument = false;
};
} // namespace

ProfileParser::ProfileParser(StringRef yaml, StringRef bufferName)
    : buffer(yaml, bufferName) {}

void ProfileParser::indexLocations() {
  // Only reached once llvm::yaml::Input accepted the first document; anything
  // the scanner complains about later is covered by the extra-document error.
  sourceMgr.setDiagHandler([](const SMDiagnostic &, void *) {});
  yaml::Stream stream(buffer, sourceMgr, /*ShowColors=*/false);
  unsigned index = 0;
  for (yaml::Document &document : stream) {
    yaml::Node *root = document.getRoot();
    if (index++ > 0) {
      hasExtraDocument = true;
      if (root)
        extraDocumentLoc = root->getSourceRange().Start;
      break;
    }
    if (!root)
      continue;
    documentLoc = root->getSourceRange().Start;
    auto *mapping = dyn_cast<yaml::MappingNode>(root);
    if (!mapping)
      continue;
    for (yaml::KeyValueNode &entry : *mapping) {
      auto *key = dyn_cast_or_null<yaml::ScalarNode>(entry.getKey());
      if (!key)
        continue;
      SmallString<32> storage;
      StringRef keyName = key->getValue(storage);
      SMLoc loc = key->getSourceRange().Start;
      if (yaml::Node *value = entry.getValue())
        if (SMLoc valueLoc = value->getSourceRange().Start; valueLoc.isValid())
          loc = valueLoc;
      valueLocs.try_emplace(keyName, loc);
    }
  }
}

Error ProfileParser::errorAt(SMLoc loc, const Twine &message) const {
  if (!loc.isValid() || !sourceMgr.FindBufferContainingLoc(loc))
    return makeError(buffer.getBufferIdentifier() + ":1:1: error: " + message);
  return makeError(
      yamldiag::render(sourceMgr.GetMessage(loc, SourceMgr::DK_Error,
                                            message)));
}

Error ProfileParser::errorAtKey(StringRef key, const Twine &message) const {
  auto it = valueLocs.find(key);
  return errorAt(it != valueLocs.end() ? it->second : documentLoc, message);
}

Expected<HardwareProfile> ProfileParser::parse() {
  ProfileDocument doc;
  std::string diagnostics;
  {
    yaml::Input input(buffer, /*Ctxt=*/nullptr, yamldiag::collect,
                      &diagnostics);
    input >> doc;
    if (input.error()) {
      if (!diagnostics.empty())
        return makeError(yamldiag::locateAll(
            diagnostics, buffer.getBufferIdentifier()));
      // An empty document fails without a diagnostic.
      return errorAt(SMLoc::getFromPointer(buffer.getBufferStart()),
                     "expected a hardware profile mapping");
    }
  }

  indexLocations();
  if (hasExtraDocument)
    return errorAt(extraDocumentLoc,
                   "a hardware profile file holds exactly one YAML document");
  if (Error err = validate(doc))
    return err;

  HardwareProfile profile = std::move(doc.profile);
  profile.maxTmaTileRows = doc.maxTmaTile[0];
  profile.maxTmaTileCols = doc.maxTmaTile[1];
  return profile;
}

/// The `arch` values kda2 knows how to target.
static constexpr StringLiteral knownArchs[] = {"sm_80", "sm_86", "sm_89",
                                               "sm_90", "sm_90a"};

Error ProfileParser::validate(const ProfileDocument &doc) const {
  const HardwareProfile &p = doc.profile;

  if (p.name.empty())
    return errorAtKey("name", "'name' must not be empty");
  if (!is_contained(knownArchs, p.arch))
    return errorAtKey("arch", "unknown arch '" + p.arch +
                                  "'; expected one of " +
                                  join(std::begin(knownArchs), std::end(knownArchs), ", "));

  struct CountField {
    StringLiteral key;
    unsigned HardwareProfile::*field;
  };
  static const CountField counts[] = {
      {"sm_count", &HardwareProfile::smCount},
      {"warp_schedulers_per_sm", &HardwareProfile::warpSchedulersPerSM},
      {"registers_per_sm", &HardwareProfile::registersPerSM},
      {"max_registers_per_thread", &HardwareProfile::maxRegistersPerThread},
      {"max_threads_per_sm", &HardwareProfile::maxThreadsPerSM},
      {"max_warps_per_sm", &HardwareProfile::maxWarpsPerSM},
      {"max_threads_per_block", &HardwareProfile::maxThreadsPerBlock},
  };
  for (const CountField &count : counts)
    if (p.*count.field == 0)
      return errorAtKey(count.key, "'" + count.key + "' must be positive");

  struct QuantityField {
    StringLiteral key;
    double HardwareProfile::*field;
  };
  static const QuantityField quantities[] = {
      {"shared_memory_per_sm_kb", &HardwareProfile::sharedMemoryPerSMKB},
      {"shared_memory_per_block_kb", &HardwareProfile::sharedMemoryPerBlockKB},
      {"l2_size_mb", &HardwareProfile::l2SizeMB},
      {"l2_bandwidth_gbps", &HardwareProfile::l2BandwidthGBps},
      {"hbm_size_gb", &HardwareProfile::hbmSizeGB},
      {"hbm_bandwidth_gbps", &HardwareProfile::hbmBandwidthGBps},
      {"base_clock_mhz", &HardwareProfile::baseClockMHz},
      {"boost_clock_mhz", &HardwareProfile::boostClockMHz},
      {"tensor_tflops_fp16", &HardwareProfile::tensorTFlopsFP16},
      {"tensor_tflops_bf16", &HardwareProfile::tensorTFlopsBF16},
      {"fp32_tflops", &HardwareProfile::fp32TFlops},
  };
  for (const QuantityField &quantity : quantities) {
    double value = p.*quantity.field;
    if (!std::isfinite(value) || value <= 0)
      return errorAtKey(quantity.key, "'" + quantity.key +
                                          "' must be a positive number, got " +
                                          formatNumber(value));
  }

  if (uint64_t(p.maxWarpsPerSM) * 32 != p.maxThreadsPerSM)
    return errorAtKey("max_threads_per_sm",
                      "'max_threads_per_sm' (" + Twine(p.maxThreadsPerSM) +
                          ") must be 32 * 'max_warps_per_sm' (" +
                          Twine(p.maxWarpsPerSM) + ")");
  if (p.maxThreadsPerBlock > p.maxThreadsPerSM)
    return errorAtKey("max_threads_per_block",
                      "'max_threads_per_block' (" +
                          Twine(p.maxThreadsPerBlock) +
                          ") exceeds 'max_threads_per_sm' (" +
                          Twine(p.maxThreadsPerSM) + ")");
  if (p.sharedMemoryPerBlockKB > p.sharedMemoryPerSMKB)
    return errorAtKey("shared_memory_per_block_kb",
                      "'shared_memory_per_block_kb' (" +
                          formatNumber(p.sharedMemoryPerBlockKB) +
                          ") exceeds 'shared_memory_per_sm_kb' (" +
                          formatNumber(p.sharedMemoryPerSMKB) + ")");
  if (p.baseClockMHz > p.boostClockMHz)
    return errorAtKey("base_clock_mhz",
                      "'base_clock_mhz' (" + formatNumber(p.baseClockMHz) +
                          ") exceeds 'boost_clock_mhz' (" +
                          formatNumber(p.boostClockMHz) + ")");

  if (doc.maxTmaTile.size() != 2)
    return errorAtKey("max_tma_tile",
                      "'max_tma_tile' must have exactly 2 entries "
                      "[rows, cols], got " +
                          Twine(doc.maxTmaTile.size()));
  unsigned rows = doc.maxTmaTile[0], cols = doc.maxTmaTile[1];
  if (p.tma && (rows == 0 || cols == 0))
    return errorAtKey("max_tma_tile",
                      "'max_tma_tile' entries must be positive when 'tma' is "
                      "true");
  if ((rows == 0) != (cols == 0))
    return errorAtKey("max_tma_tile",
                      "'max_tma_tile' entries must be both zero (no tile "
                      "policy) or both positive");
  if (p.tma && !p.isHopper())
    return errorAtKey("tma", "'tma: true' requires an sm_90 or sm_90a arch, "
                             "got '" +
                                 p.arch + "'");

  const SimulatorParameters &sim = p.simulator;
  if (sim.sfuLanesPerScheduler == 0 || sim.sfuLanesPerScheduler > 32)
    return errorAtKey("simulator", "'simulator.sfu_lanes_per_scheduler' "
                                   "must be in [1, 32]");
  if (sim.sharedBanks == 0 || sim.sharedBankBytes == 0)
    return errorAtKey("simulator", "'simulator.shared_banks' and "
                                   "'simulator.shared_bank_bytes' must be "
                                   "positive");
  if (!(sim.mmaSyncEfficiency > 0 && sim.mmaSyncEfficiency <= 1))
    return errorAtKey("simulator",
                      "'simulator.mma_sync_efficiency' must be in (0, 1]");
  if (!(sim.wgmmaEfficiency > 0 && sim.wgmmaEfficiency <= 1))
    return errorAtKey("simulator",
                      "'simulator.wgmma_efficiency' must be in (0, 1]");
  if (!(sim.l2BytesPerCyclePerSM > 0) ||
      !std::isfinite(sim.l2BytesPerCyclePerSM))
    return errorAtKey("simulator", "'simulator.l2_bytes_per_cycle_per_sm' "
                                   "must be a positive number");

  if (p.sources.empty())
    return errorAtKey("sources", "'sources' must list at least one source");
  if (is_contained(p.sources, std::string()))
    return errorAtKey("sources", "'sources' entries must not be empty");
  return Error::success();
}

//===----------------------------------------------------------------------===//
// HardwareProfile
//===----------------------------------------------------------------------===//

uint64_t HardwareProfile::sharedMemoryPerBlockBytes() const {
  return static_cast<uint64_t>(std::llround(sharedMemoryPerBlockKB * 1024));
}

uint64_t HardwareProfile::sharedMemoryPerSMBytes() const {
  return static_cast<uint64_t>(std::llround(sharedMemoryPerSMKB * 1024));
}

bool HardwareProfile::isHopper() const {
  return StringRef(arch).starts_with("sm_90");
}

//===----------------------------------------------------------------------===//
// ProfileRegistry
//===----------------------------------------------------------------------===//

namespace {
/// One profiles/*.yaml file embedded at build time.
struct BuiltinProfileSource {
  const char *fileName;
  const char *yaml;
};
} // namespace

/// Generated by cmake/EmbedProfiles.cmake from profiles/*.yaml.
static const BuiltinProfileSource builtinProfileSources[] = {
#include "BuiltinProfiles.inc"
};

ProfileRegistry ProfileRegistry::withBuiltins() {
  ProfileRegistry registry;
  for (const BuiltinProfileSource &source : builtinProfileSources) {
    std::string bufferName = ("profiles/" + Twine(source.fileName)).str();
    if (Error err = registry.add(source.yaml, bufferName,
                                 sys::path::stem(source.fileName)))
      report_fatal_error("invalid built-in hardware profile: " +
                         Twine(toString(std::move(err))));
  }
  return registry;
}

Error ProfileRegistry::add(StringRef yaml, StringRef bufferName,
                           StringRef expectedName) {
  ProfileParser parser(yaml, bufferName);
  Expected<HardwareProfile> profile = parser.parse();
  if (!profile)
    return profile.takeError();
  if (!expectedName.empty() && profile->name != expectedName)
    return parser.errorAtKey("name", "profile name '" + profile->name +
                                         "' must match the file name '" +
                                         expectedName + "'");
  if (profiles.count(profile->name))
    return parser.errorAtKey("name", "duplicate hardware profile '" +
                                         profile->name + "'");
  std::string name = profile->name;
  profiles.emplace(std::move(name), std::move(*profile));
  return Error::success();
}

Error ProfileRegistry::addFromBuffer(StringRef yaml, StringRef bufferName) {
  return add(yaml, bufferName, /*expectedName=*/"");
}

Error ProfileRegistry::addFromFile(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return makeError(path + ": error: cannot read hardware profile: " +
                     file.getError().message());
  return add((*file)->getBuffer(), path, sys::path::stem(path));
}

const HardwareProfile *ProfileRegistry::lookup(StringRef name) const {
  auto it = profiles.find(name.str());
  return it == profiles.end() ? nullptr : &it->second;
}

Expected<const HardwareProfile *>
ProfileRegistry::get(StringRef name) const {
  if (const HardwareProfile *profile = lookup(name))
    return profile;
  return makeError("unknown hardware profile '" + name +
                   "'; known profiles: " + join(names(), ", "));
}

std::vector<std::string> ProfileRegistry::names() const {
  std::vector<std::string> result;
  result.reserve(profiles.size());
  for (const auto &entry : profiles)
    result.push_back(entry.first);
  return result;
}
