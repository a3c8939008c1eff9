//===- kda2-calibrate.cpp - measure the GPU against its profile -----------===//
//
// Measures, on the current GPU, the device-memory copy bandwidth
// (cuMemcpyDtoD), the L2 read bandwidth (a buffer a quarter of the L2 read
// repeatedly), the shared-memory read bandwidth and the bf16 mma.sync rate
// (the PTX kernels of Microbenchmarks.ptx, JIT-loaded with
// cuModuleLoadData), compares each with the hardware profile (--profile,
// profiles/*.yaml), warns when one differs by more than 10 %, and with
// --write-profile writes a calibrated copy of the profile (atomically:
// temporary file + rename) that kda2-agent --profile=<file> loads.
// Links only libkda2rt (no LLVM), so it runs on a GPU machine as built.
//
// Exit codes: 0 ok (warnings included), 1 error (arguments, no driver or
// GPU, a failed measurement, an unwritable profile).
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"

#include "kda2/Runtime/Module.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using namespace kda2;
using namespace kda2::runtime;
using namespace kda2::tools;

namespace {

/// tools/kda2-calibrate/Microbenchmarks.ptx, embedded by CMake.
const char kPtx[] =
#include "Microbenchmarks.ptx.inc"
    ;

const char *kUsage =
    "usage: kda2-calibrate [options]\n"
    "  --profile NAME|FILE     profile to compare with (default: by device "
    "name)\n"
    "  --write-profile OUT.yaml  write a calibrated profile named after OUT\n"
    "  --device N              CUDA device ordinal (default 0)\n"
    "  --repeats N             timed runs per measurement, best kept "
    "(default 5)\n"
    "  --tolerance PCT         warn above this difference (default 10)\n"
    "  --measured hbm=G,l2=G,smem=G,mma=T  use these numbers (GB/s, GB/s, "
    "GB/s, TFLOP/s)\n"
    "                          instead of measuring (no GPU needed)\n"
    "  --json                  machine-readable output\n";

struct Options {
  std::string profile, writeProfile, measured;
  int64_t device = 0, repeats = 5;
  double tolerance = 10;
  bool json = false;
};

int fail(const std::string &message) {
  std::fprintf(stderr, "kda2-calibrate: error: %s\n", message.c_str());
  return 1;
}

bool parseOptions(int argc, char **argv, Options &o, std::string &error) {
  ArgReader args(argc, argv);
  while (args.next()) {
    const std::string &arg = args.arg();
    auto next = [&](std::string &out) { return args.value(out, error); };
    std::string v;
    if (arg == "--help" || arg == "-h") {
      error = "help";
      return false;
    } else if (arg == "--json") {
      o.json = true;
    } else if (arg == "--profile" || arg == "--write-profile" ||
               arg == "--measured") {
      if (!next(v))
        return false;
      if (v.empty()) {
        error = arg + " needs a non-empty value";
        return false;
      }
      (arg == "--profile"         ? o.profile
       : arg == "--write-profile" ? o.writeProfile
                                  : o.measured) = v;
    } else if (arg == "--device" || arg == "--repeats") {
      if (!next(v) || !parseInt(arg, v, arg == "--device" ? 0 : 1,
                                arg == "--device" ? 1023 : 1000,
                                arg == "--device" ? o.device : o.repeats,
                                error))
        return false;
    } else if (arg == "--tolerance") {
      if (!next(v) || !parseNumber(arg, v, 0, false, o.tolerance, error))
        return false;
    } else {
      error = "unknown argument '" + arg + "' (see --help)";
      return false;
    }
  }
  if (!o.writeProfile.empty()) {
    const std::string &w = o.writeProfile;
    if (w.size() < 6 || w.compare(w.size() - 5, 5, ".yaml") != 0) {
      error = "--write-profile: '" + w + "' must end in .yaml";
      return false;
    }
  }
  return true;
}

/// One measured quantity next to the profile's figure.
struct Metric {
  const char *key;   // JSON key
  const char *what;  // text label
  const char *unit;  // GB/s or TFLOP/s
  double measured = NAN;
  double expected = NAN;
  std::string basis; // where `expected` comes from
};

/// Times `run` `repeats` times with events; returns the best time in ms.
Status bestOf(const Context &ctx, int64_t repeats,
              const std::function<Status()> &run, double &bestMs) {
  EventPool ev(ctx);
  KDA2RT_TRY(ev.create(2));
  const Driver &d = ctx.driver();
  KDA2RT_TRY(run()); // warm-up (JIT, clocks)
  bestMs = INFINITY;
  for (int64_t i = 0; i < repeats; ++i) {
    KDA2RT_TRY(d.check(d.api().cuEventRecord(ev[0], nullptr), "cuEventRecord"));
    KDA2RT_TRY(run());
    KDA2RT_TRY(d.check(d.api().cuEventRecord(ev[1], nullptr), "cuEventRecord"));
    double ms = 0;
    KDA2RT_TRY(ev.elapsed(0, 1, ms));
    bestMs = std::min(bestMs, ms);
  }
  return Status::success();
}

/// Launches kernel `k` of the microbenchmark module with raw parameters.
Status launchRaw(const Context &ctx, CUmodule module, const char *name,
                 unsigned grid, unsigned block, std::vector<void *> params) {
  const Driver &d = ctx.driver();
  CUfunction f = nullptr;
  KDA2RT_TRY(d.check(d.api().cuModuleGetFunction(&f, module, name),
                     "cuModuleGetFunction"));
  return d.check(d.api().cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0,
                                        nullptr, params.data(), nullptr),
                 (std::string("cuLaunchKernel (") + name + ")").c_str());
}

Status measure(const Options &o, const Context &ctx, Metric &hbm, Metric &l2,
               Metric &smem, Metric &mma) {
  const Driver &d = ctx.driver();
  const Driver::Api &api = d.api();
  int sms = 0, l2Bytes = 0;
  KDA2RT_TRY(ctx.attribute(cu::AttrMultiprocessorCount, sms));
  KDA2RT_TRY(ctx.attribute(cu::AttrL2CacheSize, l2Bytes));
  KDA2RT_TRY(ctx.makeCurrent());

  // Device-memory copy: 1 GiB read + 1 GiB written per copy.
  if (!api.cuMemcpyDtoD)
    return Status::error(ErrorCode::NoDriver,
                         "the CUDA driver lacks cuMemcpyDtoD_v2");
  const size_t copyBytes = size_t(1) << 30;
  DeviceBuffer src, dst;
  KDA2RT_TRY(src.allocate(ctx, copyBytes));
  KDA2RT_TRY(dst.allocate(ctx, copyBytes));
  KDA2RT_TRY(ctx.zero(src.get(), copyBytes));
  double ms = 0;
  KDA2RT_TRY(bestOf(ctx, o.repeats, [&] {
    return d.check(api.cuMemcpyDtoD(dst.get(), src.get(), copyBytes),
                   "cuMemcpyDtoD");
  }, ms));
  hbm.measured = 2.0 * copyBytes / (ms * 1e-3) / 1e9;

  // The kernels (PTX JIT).
  Module module;
  KDA2RT_TRY(Module::loadData(ctx, kPtx, sizeof(kPtx) - 1, module)
                 .prepend("loading the microbenchmark PTX"));
  const unsigned block = 256, grid = static_cast<unsigned>(sms) * 8;
  DeviceBuffer out;
  KDA2RT_TRY(out.allocate(ctx, size_t(grid) * block * 4));

  // L2: a quarter of the L2, read `reps` times with ld.global.cg.
  uint64_t threads = uint64_t(grid) * block;
  uint64_t n16 = std::max<uint64_t>(uint64_t(l2Bytes) / 4 / 16, 4 * threads);
  n16 = n16 / (4 * threads) * (4 * threads);
  DeviceBuffer buf;
  KDA2RT_TRY(buf.allocate(ctx, n16 * 16));
  KDA2RT_TRY(ctx.zero(buf.get(), n16 * 16));
  uint32_t reps = 200;
  CUdeviceptr bufPtr = buf.get(), outPtr = out.get();
  KDA2RT_TRY(bestOf(ctx, o.repeats, [&] {
    return launchRaw(ctx, module.handle(), "kda2_cal_l2_read", grid, block,
                     {&bufPtr, &n16, &reps, &outPtr});
  }, ms));
  l2.measured = double(n16) * 16 * reps / (ms * 1e-3) / 1e9;

  // Shared memory: 4 x 16 bytes per thread per step.
  uint32_t smemReps = 4096;
  KDA2RT_TRY(bestOf(ctx, o.repeats, [&] {
    return launchRaw(ctx, module.handle(), "kda2_cal_smem_read", grid, block,
                     {&smemReps, &outPtr});
  }, ms));
  smem.measured = double(threads) * smemReps * 64 / (ms * 1e-3) / 1e9;

  // mma.sync: 8 chains x 4096 FLOPs per warp per step.
  uint32_t mmaReps = 4096;
  KDA2RT_TRY(bestOf(ctx, o.repeats, [&] {
    return launchRaw(ctx, module.handle(), "kda2_cal_mma_bf16", grid, block,
                     {&mmaReps, &outPtr});
  }, ms));
  mma.measured =
      double(threads / 32) * mmaReps * 8 * 4096 / (ms * 1e-3) / 1e12;
  return Status::success();
}

/// Fills each metric's expectation from the profile.
void expectations(const Profile &p, Metric &hbm, Metric &l2, Metric &smem,
                  Metric &mma) {
  double v = 0, sms = 0, clock = 0, eff = 0.625, banks = 32, bankBytes = 4;
  if (p.number("hbm_bandwidth_gbps", v)) {
    hbm.expected = v;
    hbm.basis = "hbm_bandwidth_gbps";
  }
  if (p.number("l2_bandwidth_gbps", v)) {
    l2.expected = v;
    l2.basis = "l2_bandwidth_gbps";
  }
  if (p.number("sm_count", sms) && p.number("boost_clock_mhz", clock)) {
    smem.expected = sms * banks * bankBytes * clock * 1e6 / 1e9;
    smem.basis = "sm_count x 32 banks x 4 B x boost_clock_mhz";
  }
  // simulator.mma_sync_efficiency is nested: look for it in the text.
  size_t at = p.text.find("\n  mma_sync_efficiency:");
  if (at != std::string::npos)
    eff = std::strtod(p.text.c_str() + at + 23, nullptr);
  if (p.number("tensor_tflops_bf16", v)) {
    mma.expected = v * eff;
    char buf[96];
    std::snprintf(buf, sizeof(buf),
                  "tensor_tflops_bf16 x simulator.mma_sync_efficiency %g",
                  eff);
    mma.basis = buf;
  }
}

/// Parses --measured hbm=..,l2=..,smem=..,mma=.. .
bool parseMeasured(const std::string &text, Metric &hbm, Metric &l2,
                   Metric &smem, Metric &mma, std::string &error) {
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    size_t eq = item.find('=');
    std::string key = eq == std::string::npos ? item : item.substr(0, eq);
    Metric *m = key == "hbm" ? &hbm : key == "l2" ? &l2
              : key == "smem"                     ? &smem
              : key == "mma"                      ? &mma
                                                  : nullptr;
    if (!m || eq == std::string::npos) {
      error = "--measured: expected hbm=, l2=, smem= or mma=<number>, got '" +
              item + "'";
      return false;
    }
    if (!parseNumber("--measured " + key, item.substr(eq + 1), 0, false,
                     m->measured, error))
      return false;
  }
  for (Metric *m : {&hbm, &l2, &smem, &mma})
    if (std::isnan(m->measured)) {
      error = std::string("--measured: missing ") +
              (m == &hbm ? "hbm" : m == &l2 ? "l2" : m == &smem ? "smem" : "mma");
      return false;
    }
  return true;
}

std::string stemOf(const std::string &path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return base.substr(0, base.size() - 5); // ".yaml"
}

/// The profile text with `key: value` replaced (top level), keeping a
/// comment with the previous value.
void replaceKey(std::string &text, const std::string &key, double value,
                const std::string &note) {
  size_t at = text.rfind("\n" + key + ":");
  at = text.compare(0, key.size() + 1, key + ":") == 0 ? 0 : at + 1;
  if (at == std::string::npos + 1)
    return;
  size_t end = text.find('\n', at);
  char buf[160];
  std::snprintf(buf, sizeof(buf), "%s: %.6g   # %s", key.c_str(), value,
                note.c_str());
  text.replace(at, end == std::string::npos ? std::string::npos : end - at,
               buf);
}

/// Writes the calibrated profile atomically (temporary file + rename).
Status writeProfile(const std::string &path, const Profile &base,
                    const std::string &device, const Metric &hbm,
                    const Metric &l2, const Metric &mma) {
  std::string name = stemOf(path);
  for (const std::string &b : builtinProfileNames())
    if (b == name)
      return Status::error(
          ErrorCode::InvalidArgument,
          "--write-profile: '" + name +
              "' is the name of a built-in profile (a profile's name is its "
              "file stem, and kda2-agent rejects duplicates); choose another "
              "file name, e.g. " + name + "-calibrated.yaml");
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' &&
        c != '.')
      return Status::error(ErrorCode::InvalidArgument,
                           "--write-profile: the file stem '" + name +
                               "' (the profile name) may hold only letters, "
                               "digits, '-', '_' and '.'");
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
  std::string text = base.text;
  auto old = [&](const char *key) {
    auto it = base.values.find(key);
    return std::string("calibrated ") + date + "; profile " + base.name +
           " had " + (it == base.values.end() ? "none" : it->second);
  };
  // name
  size_t at = text.find("\nname:");
  if (text.compare(0, 5, "name:") == 0)
    at = 0;
  else if (at != std::string::npos)
    ++at;
  if (at == std::string::npos)
    return Status::error(ErrorCode::InvalidArgument,
                         "profile " + base.name + " has no top-level 'name'");
  text.replace(at, text.find('\n', at) - at, "name: " + name);
  replaceKey(text, "hbm_bandwidth_gbps", hbm.measured,
             old("hbm_bandwidth_gbps") + " (device-to-device copy)");
  replaceKey(text, "l2_bandwidth_gbps", l2.measured,
             old("l2_bandwidth_gbps"));
  double peak = 0;
  if (base.number("tensor_tflops_bf16", peak) && peak > 0) {
    double eff = std::min(1.0, mma.measured / peak);
    char line[128];
    std::snprintf(line, sizeof(line),
                  "  mma_sync_efficiency: %.4g   # calibrated %s", eff, date);
    size_t sim = text.find("\nsimulator:");
    size_t key = text.find("\n  mma_sync_efficiency:");
    if (key != std::string::npos)
      text.replace(key + 1, text.find('\n', key + 1) - key - 1, line);
    else if (sim != std::string::npos)
      text.insert(text.find('\n', sim + 1) + 1, std::string(line) + "\n");
    else
      text += (text.empty() || text.back() == '\n' ? "" : "\n") +
              std::string("simulator:\n") + line + "\n";
  }
  // A source entry for the measurement (the last item of `sources:`).
  size_t sources = text.find("\nsources:");
  if (sources != std::string::npos) {
    size_t pos = text.find('\n', sources + 1);
    while (pos != std::string::npos &&
           text.compare(pos + 1, 4, "  - ") == 0)
      pos = text.find('\n', pos + 1);
    std::string item = "  - \"kda2-calibrate on " + device + ", " + date +
                       " (hbm, l2, mma_sync_efficiency measured)\"\n";
    if (pos == std::string::npos)
      text += (text.back() == '\n' ? "" : "\n") + item;
    else
      text.insert(pos + 1, item);
  }
  text = "# Calibrated by kda2-calibrate from " + base.name + " (" +
         base.source + ") on " + device + ", " + date + ".\n" + text;

  std::string tmp = path + ".tmp.XXXXXX";
  std::vector<char> tmpl(tmp.begin(), tmp.end());
  tmpl.push_back('\0');
  int fd = mkstemp(tmpl.data());
  if (fd < 0)
    return Status::error(ErrorCode::Io, "--write-profile: cannot create a "
                                        "temporary file next to '" + path +
                                        "': " + std::strerror(errno));
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n <= 0)
      break;
    written += static_cast<size_t>(n);
  }
  bool ok = written == text.size() && ::fsync(fd) == 0;
  ok = ::close(fd) == 0 && ok;
  ok = ok && ::chmod(tmpl.data(), 0644) == 0;
  if (!ok || std::rename(tmpl.data(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(tmpl.data());
    return Status::error(ErrorCode::Io,
                         "--write-profile: cannot write '" + path + "': " + why);
  }
  return Status::success();
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  std::string error;
  if (!parseOptions(argc, argv, o, error))
    return reportOptionError("kda2-calibrate", error, kUsage);
  Metric hbm{"hbm_gbps", "device-memory copy bandwidth", "GB/s"};
  Metric l2{"l2_gbps", "L2 read bandwidth", "GB/s"};
  Metric smem{"smem_gbps", "shared-memory read bandwidth", "GB/s"};
  Metric mma{"mma_bf16_tflops", "mma.sync bf16 rate", "TFLOP/s"};

  Profile profile;
  bool haveProfile = false;
  if (!o.profile.empty()) {
    if (!loadProfile(o.profile, profile, error))
      return fail("--profile: " + error);
    haveProfile = true;
  }
  std::string device = "the given measurements";
  if (!o.measured.empty()) {
    if (!parseMeasured(o.measured, hbm, l2, smem, mma, error))
      return fail(error);
  } else {
    Context ctx;
    Status s = Context::create(static_cast<int>(o.device), ctx);
    if (!s.ok())
      return fail("no usable CUDA device " + std::to_string(o.device) +
                  " (kda2-calibrate measures the GPU; --measured gives the "
                  "numbers without one): " + s.message());
    (void)ctx.name(device);
    if (!haveProfile) {
      std::string guess = profileForDevice(device);
      if (guess.empty() || !loadProfile(guess, profile, error))
        return fail("no built-in profile matches device '" + device +
                    "': give --profile NAME or FILE");
      haveProfile = true;
    }
    s = measure(o, ctx, hbm, l2, smem, mma);
    if (!s.ok())
      return fail("measurement failed: " + s.message());
  }
  if (!haveProfile)
    return fail("--profile is required with --measured");
  expectations(profile, hbm, l2, smem, mma);

  int warnings = 0;
  std::string json = "{\n  \"schema\": \"kda2-calibrate-v1\",\n  \"device\": " +
                     jsonString(device) + ",\n  \"profile\": " +
                     jsonString(profile.name) + ",\n  \"metrics\": {\n";
  if (!o.json)
    std::printf("kda2-calibrate: %s vs profile %s (%s)\n", device.c_str(),
                profile.name.c_str(), profile.source.c_str());
  const Metric *all[] = {&hbm, &l2, &smem, &mma};
  for (size_t i = 0; i < 4; ++i) {
    const Metric &m = *all[i];
    double diff = std::isfinite(m.expected) && m.expected > 0
                      ? 100 * (m.measured - m.expected) / m.expected
                      : NAN;
    bool warn = std::isfinite(diff) && std::fabs(diff) > o.tolerance;
    warnings += warn;
    if (!o.json) {
      std::printf("  %-30s %10.1f %-7s profile %10.1f (%s): %+.1f %%\n", m.what,
                  m.measured, m.unit, m.expected, m.basis.c_str(), diff);
      if (warn)
        std::fprintf(stderr,
                     "kda2-calibrate: warning: %s differs from profile %s by "
                     "%+.1f %% (more than %g %%)\n",
                     m.what, profile.name.c_str(), diff, o.tolerance);
    }
    json += std::string("    ") + jsonString(m.key) +
            ": {\"measured\": " + jsonNumber(m.measured) +
            ", \"profile\": " + jsonNumber(m.expected) +
            ", \"basis\": " + jsonString(m.basis) +
            ", \"difference_pct\": " + jsonNumber(diff) +
            ", \"warning\": " + (warn ? "true" : "false") + "}" +
            (i < 3 ? ",\n" : "\n");
  }
  if (!o.writeProfile.empty()) {
    Status s = writeProfile(o.writeProfile, profile, device, hbm, l2, mma);
    if (!s.ok())
      return fail(s.message());
    if (!o.json)
      std::printf("wrote %s (profile %s): kda2-agent --profile=%s\n",
                  o.writeProfile.c_str(), stemOf(o.writeProfile).c_str(),
                  o.writeProfile.c_str());
  }
  json += "  },\n  \"warnings\": " + std::to_string(warnings) +
          ",\n  \"written\": " +
          (o.writeProfile.empty() ? std::string("null")
                                  : jsonString(o.writeProfile)) +
          "\n}\n";
  if (o.json)
    std::printf("%s", json.c_str());
  return 0;
}
