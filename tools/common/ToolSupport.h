//===- ToolSupport.h - shared code of kda2-perf and kda2-calibrate -*- C++ -*-===//
//
// What the GPU tools share, with no LLVM/MLIR dependency (they link only
// libkda2rt): the hardware profiles of profiles/ (embedded at build time by
// cmake/EmbedProfiles.cmake) read as flat `key: value` YAML, command-line
// value parsing whose errors name the option, JSON string escaping, a
// progress bar for long runs, device buffers and statistics of samples.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_TOOLS_COMMON_TOOLSUPPORT_H
#define KDA2_TOOLS_COMMON_TOOLSUPPORT_H

#include "kda2/Runtime/CudaDriver.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kda2::tools {

//===----------------------------------------------------------------------===//
// Hardware profiles
//===----------------------------------------------------------------------===//

/// A hardware profile's text and its top-level `key: value` pairs (the
/// numbers the tools need; the agent's ProfileRegistry does the full
/// validation, which needs LLVM).
struct Profile {
  std::string name;
  /// Where it came from: "builtin profiles/<file>" or the file's path.
  std::string source;
  std::string text;
  std::map<std::string, std::string> values;

  /// The value of `key` as a number; false if absent or not a number.
  bool number(const std::string &key, double &out) const;
};

/// The names of the profiles compiled in, sorted.
std::vector<std::string> builtinProfileNames();
/// Parses the top-level keys of profile text (comments stripped).
Profile parseProfile(const std::string &text, const std::string &source);
/// `nameOrPath` ending in .yaml/.yml is read from that file; anything else
/// is a built-in name. Errors name it and list the built-in profiles.
bool loadProfile(const std::string &nameOrPath, Profile &out,
                 std::string &error);
/// The built-in profile matching a device name ("NVIDIA H200" ->
/// H200-SXM), or "" when none does.
std::string profileForDevice(const std::string &deviceName);

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

/// Walks argv for the tools' `--name value` / `--name=value` options and
/// positional arguments.
class ArgReader {
public:
  ArgReader(int argc, char **argv) : argc_(argc), argv_(argv) {}
  /// Advances to the next argument; false at the end.
  bool next();
  /// The argument, without an inline `=value` of a `--` option.
  const std::string &arg() const { return arg_; }
  bool hasInlineValue() const { return hasValue_; }
  /// The option's value (inline, else the next argument); on failure
  /// `error` says "<option> needs a value".
  bool value(std::string &out, std::string &error);

private:
  int argc_;
  char **argv_;
  int index_ = 0;
  std::string arg_, value_;
  bool hasValue_ = false;
};

/// Parses `text` as an integer in [min, max]; on failure `error` says
/// "<option> expects an integer in [min, max], got '<text>'".
bool parseInt(const std::string &option, const std::string &text,
              int64_t min, int64_t max, int64_t &out, std::string &error);
/// The same for a finite number > `min` (or >= when `inclusive`).
bool parseNumber(const std::string &option, const std::string &text,
                 double min, bool inclusive, double &out, std::string &error);
/// Parses "a=1,b=2" into (name, integer >= 0) pairs; errors name the option
/// and the item.
bool parseDims(const std::string &option, const std::string &text,
               std::vector<std::pair<std::string, int64_t>> &out,
               std::string &error);

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

/// `s` as a JSON string literal (quoted, escaped).
std::string jsonString(const std::string &s);
/// A number for JSON (finite values; null otherwise).
std::string jsonNumber(double v);

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
class Progress {
public:
  Progress(const char *label, int64_t total);
  ~Progress();
  void update(int64_t done);

private:
  const char *label_;
  int64_t total_;
  int lastPercent_ = -1;
  bool enabled_;
};

/// Median, P99 (nearest rank), min, max and mean of samples.
struct Summary {
  double median = 0, p99 = 0, min = 0, max = 0, mean = 0;
  size_t count = 0;
};
Summary summarize(std::vector<double> samples);

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

/// A device allocation freed on destruction.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;

  runtime::Status allocate(const runtime::Context &ctx, size_t bytes);
  runtime::CUdeviceptr get() const { return ptr_; }
  void *pointer() const;
  size_t size() const { return bytes_; }

private:
  const runtime::Context *ctx_ = nullptr;
  runtime::CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

/// CUDA events for timing, created in one go and destroyed together.
class EventPool {
public:
  explicit EventPool(const runtime::Context &ctx) : ctx_(ctx) {}
  ~EventPool();
  EventPool(const EventPool &) = delete;
  EventPool &operator=(const EventPool &) = delete;
  runtime::Status create(size_t count);
  runtime::CUevent operator[](size_t i) const { return events_[i]; }
  /// Milliseconds between events `a` and `b` (after synchronizing `b`).
  runtime::Status elapsed(size_t a, size_t b, double &ms) const;

private:
  const runtime::Context &ctx_;
  std::vector<runtime::CUevent> events_;
};

/// After a failed option parse (`error` "help" for --help): the usage on
/// stdout and 0, else "<tool>: error: <error>" and the usage on stderr, 1.
int reportOptionError(const char *tool, const std::string &error,
                      const char *usage);

} // namespace kda2::tools

#endif // KDA2_TOOLS_COMMON_TOOLSUPPORT_H
