//===- HardwareProfileTest.cpp - Hardware profile registry tests -*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//

#include "kda2/Agent/HardwareProfile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace llvm;
using namespace mlir::kda2;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// A valid profile, one key per line; line N of the YAML is validLines[N-1].
const std::vector<std::string> validLines = {
    "name: Test-GPU",                  // 1
    "arch: sm_90a",                    // 2
    "sm_count: 100",                   // 3
    "warp_schedulers_per_sm: 4",       // 4
    "registers_per_sm: 65536",         // 5
    "max_registers_per_thread: 255",   // 6
    "max_threads_per_sm: 2048",        // 7
    "max_warps_per_sm: 64",            // 8
    "max_threads_per_block: 1024",     // 9
    "shared_memory_per_sm_kb: 228",    // 10
    "shared_memory_per_block_kb: 227", // 11
    "l2_size_mb: 50",                  // 12
    "l2_bandwidth_gbps: 5500.5",       // 13
    "hbm_size_gb: 80",                 // 14
    "hbm_bandwidth_gbps: 3350",        // 15
    "base_clock_mhz: 1590",            // 16
    "boost_clock_mhz: 1980",           // 17
    "tensor_tflops_fp16: 989.4",       // 18
    "tensor_tflops_bf16: 989.5",       // 19
    "fp32_tflops: 67",                 // 20
    "tma: true",                       // 21
    "max_tma_tile: [128, 64]",         // 22
    "sources:",                        // 23
    "  - \"Test datasheet\"",          // 24
    "  - \"Test whitepaper\"",         // 25
};

std::string joinLines(const std::vector<std::string> &lines) {
  std::string text;
  for (const std::string &line : lines)
    text += line + "\n";
  return text;
}

std::string validYaml() { return joinLines(validLines); }

/// 1-based line of the line starting with "<key>:".
unsigned lineOf(StringRef key) {
  for (size_t i = 0; i < validLines.size(); ++i)
    if (StringRef(validLines[i]).starts_with((key + ":").str()))
      return i + 1;
  ADD_FAILURE() << "no line for key " << key.str();
  return 0;
}

/// The valid profile with the line for \p key replaced by \p replacement.
std::string withLine(StringRef key, StringRef replacement) {
  std::vector<std::string> lines = validLines;
  lines[lineOf(key) - 1] = replacement.str();
  return joinLines(lines);
}

/// The valid profile without the line for \p key.
std::string withoutLine(StringRef key) {
  std::vector<std::string> lines = validLines;
  lines.erase(lines.begin() + (lineOf(key) - 1));
  return joinLines(lines);
}

/// Adds \p yaml (named "test.yaml") to \p registry and returns the error
/// message, or "" on success.
std::string addError(ProfileRegistry &registry, StringRef yaml) {
  if (Error err = registry.addFromBuffer(yaml, "test.yaml"))
    return toString(std::move(err));
  return "";
}

std::string addError(StringRef yaml) {
  ProfileRegistry registry;
  return addError(registry, yaml);
}

/// Checks that \p message is an error at test.yaml:\p line mentioning
/// \p needle.
void expectErrorAt(const std::string &message, unsigned line,
                   StringRef needle) {
  ASSERT_FALSE(message.empty()) << "expected an error";
  std::string prefix = "test.yaml:" + std::to_string(line) + ":";
  EXPECT_TRUE(StringRef(message).starts_with(prefix))
      << "expected prefix '" << prefix << "' in:\n"
      << message;
  StringRef firstLine = StringRef(message).split('\n').first;
  EXPECT_TRUE(firstLine.contains(": error: ")) << message;
  EXPECT_TRUE(firstLine.contains(needle))
      << "expected '" << needle.str() << "' in:\n"
      << message;
}

//===----------------------------------------------------------------------===//
// Built-in profiles
//===----------------------------------------------------------------------===//

TEST(HardwareProfileBuiltins, AllLoadWithExpectedNames) {
  ProfileRegistry registry = ProfileRegistry::withBuiltins();
  std::vector<std::string> names = registry.names();
  for (const char *expected : {"A100-40GB-PCIe", "A100-40GB-SXM4",
                               "A100-80GB-SXM4", "H100-SXM", "H200-SXM",
                               "RTX-4090"})
    EXPECT_TRUE(is_contained(names, expected)) << expected;
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));

  for (const std::string &name : names) {
    SCOPED_TRACE(name);
    const HardwareProfile *profile = registry.lookup(name);
    ASSERT_NE(profile, nullptr);
    EXPECT_EQ(profile->name, name);
    EXPECT_FALSE(profile->sources.empty());
    EXPECT_LE(profile->sharedMemoryPerBlockKB, profile->sharedMemoryPerSMKB);
    EXPECT_EQ(profile->maxWarpsPerSM * 32, profile->maxThreadsPerSM);
    EXPECT_EQ(profile->maxTmaTileRows != 0, profile->maxTmaTileCols != 0);
    EXPECT_EQ(profile->tma, profile->isHopper());
  }
}

TEST(HardwareProfileBuiltins, H200SXMDatasheetValues) {
  ProfileRegistry registry = ProfileRegistry::withBuiltins();
  const HardwareProfile *p = registry.lookup("H200-SXM");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->arch, "sm_90a");
  EXPECT_TRUE(p->isHopper());
  EXPECT_EQ(p->smCount, 132u);
  EXPECT_EQ(p->warpSchedulersPerSM, 4u);
  EXPECT_EQ(p->registersPerSM, 65536u);
  EXPECT_EQ(p->maxRegistersPerThread, 255u);
  EXPECT_EQ(p->maxThreadsPerSM, 2048u);
  EXPECT_EQ(p->maxWarpsPerSM, 64u);
  EXPECT_EQ(p->maxThreadsPerBlock, 1024u);
  EXPECT_DOUBLE_EQ(p->sharedMemoryPerSMKB, 228);
  EXPECT_DOUBLE_EQ(p->sharedMemoryPerBlockKB, 227);
  EXPECT_EQ(p->sharedMemoryPerSMBytes(), 228u * 1024);
  EXPECT_EQ(p->sharedMemoryPerBlockBytes(), 227u * 1024);
  EXPECT_DOUBLE_EQ(p->l2SizeMB, 50);
  EXPECT_NEAR(p->l2BandwidthGBps, 5500, 500);
  EXPECT_DOUBLE_EQ(p->hbmSizeGB, 141);
  EXPECT_DOUBLE_EQ(p->hbmBandwidthGBps, 4800);
  EXPECT_DOUBLE_EQ(p->boostClockMHz, 1980);
  EXPECT_LT(p->baseClockMHz, p->boostClockMHz);
  EXPECT_NEAR(p->tensorTFlopsBF16, 989, 1.0);
  EXPECT_NEAR(p->tensorTFlopsFP16, 989, 1.0);
  EXPECT_NEAR(p->fp32TFlops, 67, 0.5);
  EXPECT_TRUE(p->tma);
  EXPECT_EQ(p->maxTmaTileRows, 128u);
  EXPECT_EQ(p->maxTmaTileCols, 128u);
  EXPECT_FALSE(p->sources.empty());
}

TEST(HardwareProfileBuiltins, A100SXM4DatasheetValues) {
  ProfileRegistry registry = ProfileRegistry::withBuiltins();
  const HardwareProfile *p = registry.lookup("A100-40GB-SXM4");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->arch, "sm_80");
  EXPECT_FALSE(p->isHopper());
  EXPECT_EQ(p->smCount, 108u);
  EXPECT_EQ(p->warpSchedulersPerSM, 4u);
  EXPECT_EQ(p->registersPerSM, 65536u);
  EXPECT_EQ(p->maxRegistersPerThread, 255u);
  EXPECT_EQ(p->maxThreadsPerSM, 2048u);
  EXPECT_EQ(p->maxWarpsPerSM, 64u);
  EXPECT_EQ(p->maxThreadsPerBlock, 1024u);
  EXPECT_DOUBLE_EQ(p->sharedMemoryPerSMKB, 164);
  EXPECT_DOUBLE_EQ(p->sharedMemoryPerBlockKB, 163);
  EXPECT_EQ(p->sharedMemoryPerBlockBytes(), 163u * 1024);
  EXPECT_DOUBLE_EQ(p->l2SizeMB, 40);
  EXPECT_DOUBLE_EQ(p->l2BandwidthGBps, 2000);
  EXPECT_DOUBLE_EQ(p->hbmSizeGB, 40);
  EXPECT_DOUBLE_EQ(p->hbmBandwidthGBps, 1555);
  EXPECT_DOUBLE_EQ(p->boostClockMHz, 1410);
  EXPECT_DOUBLE_EQ(p->tensorTFlopsFP16, 312);
  EXPECT_DOUBLE_EQ(p->tensorTFlopsBF16, 312);
  EXPECT_DOUBLE_EQ(p->fp32TFlops, 19.5);
  EXPECT_FALSE(p->tma);
  EXPECT_EQ(p->maxTmaTileRows, 64u);
  EXPECT_EQ(p->maxTmaTileCols, 64u);
}

TEST(HardwareProfileBuiltins, OtherProfilesKeyValues) {
  ProfileRegistry registry = ProfileRegistry::withBuiltins();

  const HardwareProfile *a100_80 = registry.lookup("A100-80GB-SXM4");
  ASSERT_NE(a100_80, nullptr);
  EXPECT_DOUBLE_EQ(a100_80->hbmSizeGB, 80);
  EXPECT_DOUBLE_EQ(a100_80->hbmBandwidthGBps, 2039);

  const HardwareProfile *pcie = registry.lookup("A100-40GB-PCIe");
  ASSERT_NE(pcie, nullptr);
  EXPECT_DOUBLE_EQ(pcie->hbmBandwidthGBps, 1555);
  EXPECT_DOUBLE_EQ(pcie->boostClockMHz, 1410);
  EXPECT_DOUBLE_EQ(pcie->l2BandwidthGBps, 1640);
  EXPECT_LT(pcie->l2BandwidthGBps,
            registry.lookup("A100-40GB-SXM4")->l2BandwidthGBps);

  const HardwareProfile *h100 = registry.lookup("H100-SXM");
  ASSERT_NE(h100, nullptr);
  EXPECT_EQ(h100->arch, "sm_90a");
  EXPECT_EQ(h100->smCount, 132u);
  EXPECT_DOUBLE_EQ(h100->hbmSizeGB, 80);
  EXPECT_DOUBLE_EQ(h100->hbmBandwidthGBps, 3350);
  EXPECT_DOUBLE_EQ(h100->l2SizeMB, 50);

  const HardwareProfile *rtx = registry.lookup("RTX-4090");
  ASSERT_NE(rtx, nullptr);
  EXPECT_EQ(rtx->arch, "sm_89");
  EXPECT_EQ(rtx->smCount, 128u);
  EXPECT_DOUBLE_EQ(rtx->l2SizeMB, 72);
  EXPECT_DOUBLE_EQ(rtx->hbmBandwidthGBps, 1008);
  EXPECT_DOUBLE_EQ(rtx->sharedMemoryPerSMKB, 100);
  EXPECT_DOUBLE_EQ(rtx->sharedMemoryPerBlockKB, 99);
  EXPECT_EQ(rtx->maxThreadsPerSM, 1536u);
  EXPECT_FALSE(rtx->tma);
  EXPECT_EQ(rtx->maxTmaTileRows, 64u);
  EXPECT_EQ(rtx->maxTmaTileCols, 64u);
}

//===----------------------------------------------------------------------===//
// Lookup
//===----------------------------------------------------------------------===//

TEST(HardwareProfileRegistry, UnknownNameListsKnownProfiles) {
  ProfileRegistry registry = ProfileRegistry::withBuiltins();
  EXPECT_EQ(registry.lookup("B200"), nullptr);
  Expected<const HardwareProfile *> profile = registry.get("B200");
  ASSERT_FALSE(static_cast<bool>(profile));
  EXPECT_EQ(toString(profile.takeError()),
            "unknown hardware profile 'B200'; known profiles: " +
                join(registry.names(), ", "));
}

TEST(HardwareProfileRegistry, UnknownNameExactText) {
  ProfileRegistry registry;
  ASSERT_FALSE(static_cast<bool>(registry.addFromBuffer(
      withLine("name", "name: Zeta"), "z.yaml")));
  ASSERT_FALSE(static_cast<bool>(registry.addFromBuffer(
      withLine("name", "name: Alpha"), "a.yaml")));
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"Alpha", "Zeta"}));
  Expected<const HardwareProfile *> profile = registry.get("Nope");
  ASSERT_FALSE(static_cast<bool>(profile));
  EXPECT_EQ(toString(profile.takeError()),
            "unknown hardware profile 'Nope'; known profiles: Alpha, Zeta");
}

TEST(HardwareProfileRegistry, GetKnownProfile) {
  ProfileRegistry registry = ProfileRegistry::withBuiltins();
  Expected<const HardwareProfile *> profile = registry.get("H100-SXM");
  ASSERT_TRUE(static_cast<bool>(profile)) << toString(profile.takeError());
  EXPECT_EQ(*profile, registry.lookup("H100-SXM"));
  EXPECT_EQ((*profile)->name, "H100-SXM");
}

TEST(HardwareProfileRegistry, ValidBufferMapsEveryField) {
  ProfileRegistry registry;
  ASSERT_EQ(addError(registry, validYaml()), "");
  const HardwareProfile *p = registry.lookup("Test-GPU");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->arch, "sm_90a");
  EXPECT_EQ(p->smCount, 100u);
  EXPECT_EQ(p->warpSchedulersPerSM, 4u);
  EXPECT_EQ(p->registersPerSM, 65536u);
  EXPECT_EQ(p->maxRegistersPerThread, 255u);
  EXPECT_EQ(p->maxThreadsPerSM, 2048u);
  EXPECT_EQ(p->maxWarpsPerSM, 64u);
  EXPECT_EQ(p->maxThreadsPerBlock, 1024u);
  EXPECT_DOUBLE_EQ(p->sharedMemoryPerSMKB, 228);
  EXPECT_DOUBLE_EQ(p->sharedMemoryPerBlockKB, 227);
  EXPECT_DOUBLE_EQ(p->l2SizeMB, 50);
  EXPECT_DOUBLE_EQ(p->l2BandwidthGBps, 5500.5);
  EXPECT_DOUBLE_EQ(p->hbmSizeGB, 80);
  EXPECT_DOUBLE_EQ(p->hbmBandwidthGBps, 3350);
  EXPECT_DOUBLE_EQ(p->baseClockMHz, 1590);
  EXPECT_DOUBLE_EQ(p->boostClockMHz, 1980);
  EXPECT_DOUBLE_EQ(p->tensorTFlopsFP16, 989.4);
  EXPECT_DOUBLE_EQ(p->tensorTFlopsBF16, 989.5);
  EXPECT_DOUBLE_EQ(p->fp32TFlops, 67);
  EXPECT_TRUE(p->tma);
  EXPECT_EQ(p->maxTmaTileRows, 128u);
  EXPECT_EQ(p->maxTmaTileCols, 64u);
  EXPECT_EQ(p->sources,
            (std::vector<std::string>{"Test datasheet", "Test whitepaper"}));
}

//===----------------------------------------------------------------------===//
// Errors reported while mapping the YAML
//===----------------------------------------------------------------------===//

TEST(HardwareProfileErrors, SyntaxError) {
  expectErrorAt(addError(withLine("sm_count", "}")), lineOf("sm_count"),
                "Unexpected token");
  expectErrorAt(addError(withLine("sm_count", "\tsm_count: 100")),
                lineOf("sm_count"), "invalid tab character");
  expectErrorAt(addError(withLine("l2_size_mb", "l2_size_mb: 50\nsm_count: 1")),
                lineOf("l2_size_mb") + 1, "duplicated mapping key 'sm_count'");
}

TEST(HardwareProfileErrors, UnknownKey) {
  std::string yaml = withLine("fp32_tflops", "fp32_tflops: 67\nfp64_tflops: 34");
  expectErrorAt(addError(yaml), lineOf("fp32_tflops") + 1,
                "unknown key 'fp64_tflops'");
}

TEST(HardwareProfileErrors, MissingRequiredKey) {
  std::string message = addError(withoutLine("hbm_bandwidth_gbps"));
  // Reported at the mapping, which starts on line 1.
  expectErrorAt(message, 1, "missing required key 'hbm_bandwidth_gbps'");
  std::vector<std::string> lines = validLines;
  lines.resize(lineOf("sources") - 1);
  expectErrorAt(addError(joinLines(lines)), 1,
                "missing required key 'sources'");
}

TEST(HardwareProfileErrors, WrongTypes) {
  expectErrorAt(addError(withLine("sm_count", "sm_count: many")),
                lineOf("sm_count"), "invalid number");
  expectErrorAt(addError(withLine("sm_count", "sm_count: 1.5")),
                lineOf("sm_count"), "invalid number");
  expectErrorAt(addError(withLine("l2_size_mb", "l2_size_mb: big")),
                lineOf("l2_size_mb"), "invalid floating point number");
  expectErrorAt(addError(withLine("tma", "tma: maybe")), lineOf("tma"),
                "invalid boolean");
  expectErrorAt(addError(withLine("sources", "sources: datasheet")),
                lineOf("sources"), "not a sequence");
  expectErrorAt(addError(withLine("arch", "arch: [sm_90a]")), lineOf("arch"),
                "");
}

TEST(HardwareProfileErrors, NotAMapping) {
  expectErrorAt(addError("- name: Test-GPU\n"), 1, "not a mapping");
  expectErrorAt(addError(""), 1, "expected a hardware profile mapping");
}

//===----------------------------------------------------------------------===//
// Errors reported by validation
//===----------------------------------------------------------------------===//

TEST(HardwareProfileErrors, ZeroCount) {
  std::string message = addError(withLine("sm_count", "sm_count: 0"));
  expectErrorAt(message, lineOf("sm_count"), "'sm_count' must be positive");
  // The column points at the value.
  EXPECT_TRUE(StringRef(message).starts_with("test.yaml:3:11: error: "))
      << message;
  expectErrorAt(
      addError(withLine("max_threads_per_block", "max_threads_per_block: 0")),
      lineOf("max_threads_per_block"), "must be positive");
}

TEST(HardwareProfileErrors, NegativeCount) {
  // Unsigned scalars reject a sign while mapping.
  expectErrorAt(addError(withLine("registers_per_sm", "registers_per_sm: -1")),
                lineOf("registers_per_sm"), "invalid number");
}

TEST(HardwareProfileErrors, NonPositiveQuantity) {
  expectErrorAt(addError(withLine("l2_size_mb", "l2_size_mb: 0")),
                lineOf("l2_size_mb"),
                "'l2_size_mb' must be a positive number, got 0");
  expectErrorAt(
      addError(withLine("hbm_bandwidth_gbps", "hbm_bandwidth_gbps: -3350")),
      lineOf("hbm_bandwidth_gbps"),
      "'hbm_bandwidth_gbps' must be a positive number, got -3350");
  // Non-finite values never get through the scalar parser.
  expectErrorAt(addError(withLine("fp32_tflops", "fp32_tflops: .nan")),
                lineOf("fp32_tflops"), "");
}

TEST(HardwareProfileErrors, UnknownArch) {
  std::string message = addError(withLine("arch", "arch: sm_75"));
  expectErrorAt(message, lineOf("arch"),
                "unknown arch 'sm_75'; expected one of sm_80, sm_86, sm_89, "
                "sm_90, sm_90a");
  EXPECT_TRUE(StringRef(message).starts_with("test.yaml:2:7: error: "))
      << message;
}

TEST(HardwareProfileErrors, BlockSharedMemoryExceedsSM) {
  expectErrorAt(addError(withLine("shared_memory_per_block_kb",
                                  "shared_memory_per_block_kb: 229")),
                lineOf("shared_memory_per_block_kb"),
                "'shared_memory_per_block_kb' (229) exceeds "
                "'shared_memory_per_sm_kb' (228)");
}

TEST(HardwareProfileErrors, InconsistentThreadCounts) {
  expectErrorAt(addError(withLine("max_warps_per_sm", "max_warps_per_sm: 48")),
                lineOf("max_threads_per_sm"),
                "'max_threads_per_sm' (2048) must be 32 * 'max_warps_per_sm'");
  expectErrorAt(
      addError(withLine("max_threads_per_block", "max_threads_per_block: 4096")),
      lineOf("max_threads_per_block"), "exceeds 'max_threads_per_sm'");
  expectErrorAt(addError(withLine("base_clock_mhz", "base_clock_mhz: 2000")),
                lineOf("base_clock_mhz"), "exceeds 'boost_clock_mhz'");
}

TEST(HardwareProfileErrors, TmaTileNeedsTwoEntries) {
  expectErrorAt(addError(withLine("max_tma_tile", "max_tma_tile: [128]")),
                lineOf("max_tma_tile"),
                "'max_tma_tile' must have exactly 2 entries [rows, cols], "
                "got 1");
  expectErrorAt(
      addError(withLine("max_tma_tile", "max_tma_tile: [64, 64, 64]")),
      lineOf("max_tma_tile"), "got 3");
  expectErrorAt(addError(withLine("max_tma_tile", "max_tma_tile: []")),
                lineOf("max_tma_tile"), "got 0");
}

TEST(HardwareProfileErrors, TmaTileEntries) {
  expectErrorAt(addError(withLine("max_tma_tile", "max_tma_tile: [0, 0]")),
                lineOf("max_tma_tile"), "must be positive when 'tma' is true");
  std::string noTma = withLine("tma", "tma: false");
  ProfileRegistry registry;
  EXPECT_EQ(addError(registry, noTma), "");
  std::vector<std::string> lines = validLines;
  lines[lineOf("tma") - 1] = "tma: false";
  lines[lineOf("max_tma_tile") - 1] = "max_tma_tile: [0, 0]";
  EXPECT_EQ(addError(joinLines(lines)), "");
  lines[lineOf("max_tma_tile") - 1] = "max_tma_tile: [0, 64]";
  expectErrorAt(addError(joinLines(lines)), lineOf("max_tma_tile"),
                "both zero");
}

TEST(HardwareProfileErrors, TmaRequiresHopper) {
  std::vector<std::string> lines = validLines;
  lines[lineOf("arch") - 1] = "arch: sm_80";
  expectErrorAt(addError(joinLines(lines)), lineOf("tma"),
                "'tma: true' requires an sm_90 or sm_90a arch, got 'sm_80'");
}

// The simulator's tensor-core rates are fractions of the peak in (0, 1],
// reported at the entry; valid ones are kept.
TEST(HardwareProfileErrors, SimulatorTensorEfficiencies) {
  auto withSimulator = [](StringRef entries) {
    return validYaml() + "simulator:\n" + entries.str();
  };
  const unsigned at = unsigned(validLines.size()) + 2; // the entry
  expectErrorAt(addError(withSimulator("  wgmma_efficiency: 1.5\n")), at,
                "'simulator.wgmma_efficiency' must be in (0, 1]");
  expectErrorAt(addError(withSimulator("  wgmma_efficiency: 0\n")), at,
                "'simulator.wgmma_efficiency' must be in (0, 1]");
  expectErrorAt(addError(withSimulator("  mma_sync_efficiency: -0.5\n")), at,
                "'simulator.mma_sync_efficiency' must be in (0, 1]");
  ProfileRegistry registry;
  ASSERT_EQ(addError(registry,
                     withSimulator("  wgmma_efficiency: 0.8\n"
                                   "  mma_sync_efficiency: 0.6\n")),
            "");
  const HardwareProfile *p = registry.lookup("Test-GPU");
  ASSERT_NE(p, nullptr);
  EXPECT_DOUBLE_EQ(p->simulator.wgmmaEfficiency, 0.8);
  EXPECT_DOUBLE_EQ(p->simulator.mmaSyncEfficiency, 0.6);
}

TEST(HardwareProfileErrors, EmptyNameAndSources) {
  expectErrorAt(addError(withLine("name", "name: ''")), lineOf("name"),
                "'name' must not be empty");
  std::vector<std::string> lines = validLines;
  lines.resize(lineOf("sources") - 1);
  lines.push_back("sources: []");
  expectErrorAt(addError(joinLines(lines)), lineOf("sources"),
                "'sources' must list at least one source");
}

TEST(HardwareProfileErrors, MoreThanOneDocument) {
  std::string yaml = validYaml() + "---\n" + validYaml();
  expectErrorAt(addError(yaml), validLines.size() + 2, "exactly one YAML");
}

TEST(HardwareProfileErrors, DuplicateName) {
  ProfileRegistry registry;
  ASSERT_EQ(addError(registry, validYaml()), "");
  std::string message =
      addError(registry, "# A comment line.\n" + validYaml());
  expectErrorAt(message, 2, "duplicate hardware profile 'Test-GPU'");
  EXPECT_EQ(registry.names(), std::vector<std::string>{"Test-GPU"});

  ProfileRegistry builtins = ProfileRegistry::withBuiltins();
  expectErrorAt(addError(builtins, withLine("name", "name: H200-SXM")), 1,
                "duplicate hardware profile 'H200-SXM'");
}

TEST(HardwareProfileErrors, FailedAddLeavesRegistryUnchanged) {
  ProfileRegistry registry;
  EXPECT_NE(addError(registry, withLine("arch", "arch: sm_70")), "");
  EXPECT_TRUE(registry.names().empty());
  EXPECT_EQ(registry.lookup("Test-GPU"), nullptr);
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

/// A temporary directory removed at the end of the test.
class TempDir {
public:
  TempDir() {
    std::error_code ec =
        sys::fs::createUniqueDirectory("kda2-profile-test", path);
    EXPECT_FALSE(ec) << ec.message();
  }
  ~TempDir() { sys::fs::remove_directories(path); }

  std::string file(StringRef name) const {
    SmallString<128> result(path);
    sys::path::append(result, name);
    return std::string(result);
  }

  void write(StringRef name, StringRef content) const {
    std::error_code ec;
    raw_fd_ostream os(file(name), ec);
    ASSERT_FALSE(ec) << ec.message();
    os << content;
  }

private:
  SmallString<128> path;
};

TEST(HardwareProfileFiles, MissingFile) {
  TempDir dir;
  std::string path = dir.file("does-not-exist.yaml");
  ProfileRegistry registry;
  Error err = registry.addFromFile(path);
  ASSERT_TRUE(static_cast<bool>(err));
  std::string message = toString(std::move(err));
  EXPECT_TRUE(StringRef(message).starts_with(path + ": error: "))
      << message;
  EXPECT_TRUE(StringRef(message).contains("cannot read hardware profile"));
}

TEST(HardwareProfileFiles, UserFileRoundTrip) {
  TempDir dir;
  std::string yaml = withLine("name", "name: My-GPU");
  dir.write("My-GPU.yaml", yaml);

  ProfileRegistry registry = ProfileRegistry::withBuiltins();
  size_t builtinCount = registry.names().size();
  Error err = registry.addFromFile(dir.file("My-GPU.yaml"));
  ASSERT_FALSE(static_cast<bool>(err)) << toString(std::move(err));
  EXPECT_EQ(registry.names().size(), builtinCount + 1);

  Expected<const HardwareProfile *> loaded = registry.get("My-GPU");
  ASSERT_TRUE(static_cast<bool>(loaded)) << toString(loaded.takeError());
  // The same text parsed from memory gives the same values.
  ProfileRegistry fromMemory;
  ASSERT_EQ(addError(fromMemory, yaml), "");
  const HardwareProfile *expected = fromMemory.lookup("My-GPU");
  ASSERT_NE(expected, nullptr);
  const HardwareProfile &p = **loaded;
  EXPECT_EQ(p.arch, expected->arch);
  EXPECT_EQ(p.smCount, expected->smCount);
  EXPECT_EQ(p.maxThreadsPerSM, expected->maxThreadsPerSM);
  EXPECT_DOUBLE_EQ(p.l2BandwidthGBps, expected->l2BandwidthGBps);
  EXPECT_DOUBLE_EQ(p.tensorTFlopsBF16, expected->tensorTFlopsBF16);
  EXPECT_EQ(p.tma, expected->tma);
  EXPECT_EQ(p.maxTmaTileRows, expected->maxTmaTileRows);
  EXPECT_EQ(p.maxTmaTileCols, expected->maxTmaTileCols);
  EXPECT_EQ(p.sources, expected->sources);

  // Loading it again is a duplicate, reported against the file.
  err = registry.addFromFile(dir.file("My-GPU.yaml"));
  ASSERT_TRUE(static_cast<bool>(err));
  std::string message = toString(std::move(err));
  EXPECT_TRUE(StringRef(message).starts_with(dir.file("My-GPU.yaml") + ":1:"))
      << message;
  EXPECT_TRUE(StringRef(message).contains("duplicate hardware profile"));
}

TEST(HardwareProfileFiles, NameMustMatchFileStem) {
  TempDir dir;
  dir.write("Other.yaml", validYaml());
  ProfileRegistry registry;
  Error err = registry.addFromFile(dir.file("Other.yaml"));
  ASSERT_TRUE(static_cast<bool>(err));
  std::string message = toString(std::move(err));
  EXPECT_TRUE(StringRef(message).starts_with(dir.file("Other.yaml") + ":1:7: "))
      << message;
  EXPECT_TRUE(StringRef(message).contains(
      "profile name 'Test-GPU' must match the file name 'Other'"))
      << message;
}

TEST(HardwareProfileFiles, ErrorsInFilesNameThePath) {
  TempDir dir;
  dir.write("Test-GPU.yaml", withLine("arch", "arch: sm_75"));
  ProfileRegistry registry;
  Error err = registry.addFromFile(dir.file("Test-GPU.yaml"));
  ASSERT_TRUE(static_cast<bool>(err));
  std::string message = toString(std::move(err));
  EXPECT_TRUE(
      StringRef(message).starts_with(dir.file("Test-GPU.yaml") + ":2:7: error: "))
      << message;
}

} // namespace
