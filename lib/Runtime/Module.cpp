//===- Module.cpp - kda2 kernel metadata, modules and launches ------------===//
//
// Part of libkda2rt (no LLVM/MLIR, built without exceptions or RTTI).
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Module.h"

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

using namespace kda2::runtime;

//===----------------------------------------------------------------------===//
// Type names
//===----------------------------------------------------------------------===//

namespace {
struct DTypeEntry {
  DType type;
  const char *name;
  size_t size;
};
constexpr DTypeEntry kDTypes[] = {
    {DType::F16, "f16", 2}, {DType::BF16, "bf16", 2}, {DType::F32, "f32", 4},
    {DType::F64, "f64", 8}, {DType::I1, "i1", 1},     {DType::I8, "i8", 1},
    {DType::UI8, "ui8", 1}, {DType::I16, "i16", 2},   {DType::I32, "i32", 4},
    {DType::I64, "i64", 8},
};
} // namespace

size_t kda2::runtime::dtypeSize(DType type) {
  for (const DTypeEntry &e : kDTypes)
    if (e.type == type)
      return e.size;
  return 0;
}

const char *kda2::runtime::dtypeName(DType type) {
  for (const DTypeEntry &e : kDTypes)
    if (e.type == type)
      return e.name;
  return "?";
}

bool kda2::runtime::parseDType(std::string_view text, DType &out) {
  for (const DTypeEntry &e : kDTypes)
    if (text == e.name) {
      out = e.type;
      return true;
    }
  return false;
}

const char *kda2::runtime::accessName(Access access) {
  switch (access) {
  case Access::In:
    return "in";
  case Access::Out:
    return "out";
  case Access::InOut:
    return "inout";
  }
  return "?";
}

const char *kda2::runtime::scalarTypeName(ScalarType type) {
  switch (type) {
  case ScalarType::F32:
    return "f32";
  case ScalarType::F64:
    return "f64";
  case ScalarType::I32:
    return "i32";
  case ScalarType::I64:
    return "i64";
  }
  return "?";
}

const char *kda2::runtime::stateOrderName(StateOrder order) {
  switch (order) {
  case StateOrder::KV:
    return "kv";
  case StateOrder::VK:
    return "vk";
  case StateOrder::None:
    break;
  }
  return "none";
}

const char *kda2::runtime::stateOrderDescription(StateOrder order) {
  switch (order) {
  case StateOrder::KV:
    return "K-major (kv)";
  case StateOrder::VK:
    return "V-major (vk)";
  case StateOrder::None:
    break;
  }
  return "undeclared";
}

bool kda2::runtime::parseStateOrder(std::string_view text, StateOrder &out) {
  if (text == "kv")
    out = StateOrder::KV;
  else if (text == "vk")
    out = StateOrder::VK;
  else
    return false;
  return true;
}

//===----------------------------------------------------------------------===//
// KernelInfo
//===----------------------------------------------------------------------===//

const ArgInfo *KernelInfo::findArg(std::string_view argName) const {
  for (const ArgInfo &a : args)
    if (a.name == argName)
      return &a;
  return nullptr;
}

std::optional<int64_t> KernelInfo::binding(std::string_view bindName) const {
  for (const BindingInfo &b : bindings)
    if (b.name == bindName)
      return b.value;
  return std::nullopt;
}

std::vector<std::string> KernelInfo::dimNames() const {
  std::vector<std::string> names;
  for (const GridTerm &t : gridX)
    if (!t.dim.empty())
      names.push_back(t.dim);
  for (const std::string &d : gridY)
    names.push_back(d);
  for (const ArgInfo &a : args) {
    if (a.kind == ArgInfo::Dim)
      names.push_back(a.name);
    if (a.kind == ArgInfo::Ptr)
      for (const ShapeDim &d : a.shape)
        if (d.kind == ShapeDim::Named)
          names.push_back(d.name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

//===----------------------------------------------------------------------===//
// Metadata parser
//===----------------------------------------------------------------------===//

namespace {

std::vector<std::string_view> splitFields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
      ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t')
      ++j;
    if (j > i)
      out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

bool parseInt64(std::string_view s, int64_t &v) {
  if (s.empty())
    return false;
  const char *b = s.data(), *e = s.data() + s.size();
  std::from_chars_result r = std::from_chars(b, e, v);
  return r.ec == std::errc() && r.ptr == e;
}

bool looksNumeric(std::string_view s) {
  return !s.empty() && ((s[0] >= '0' && s[0] <= '9') || s[0] == '-' ||
                        s[0] == '+');
}

bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$';
}

bool isValidName(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9'))
    return false;
  for (char c : s)
    if (!isIdentChar(c) && c != '.')
      return false;
  return true;
}

std::string quoted(std::string_view s) {
  std::string q = "'";
  q += s;
  q += "'";
  return q;
}

std::string joinNames(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &n : names) {
    if (!out.empty())
      out += ", ";
    out += n;
  }
  return out;
}

class MetadataParser {
public:
  MetadataParser(std::string_view text, KernelInfo &out)
      : text_(text), info_(out) {}

  Status run();

private:
  Status error(size_t line, const std::string &msg) const {
    return Status::error(ErrorCode::Metadata,
                         "line " + std::to_string(line) + ": " + msg);
  }
  Status fieldCount(size_t line, std::string_view what, size_t expected,
                    size_t got) const {
    return error(line, quoted(what) + " takes " + std::to_string(expected) +
                           " field(s), got " + std::to_string(got));
  }
  Status name(size_t line, std::string_view field, std::string_view what,
              std::string &out) const {
    if (!isValidName(field))
      return error(line, "bad " + std::string(what) + " " + quoted(field) +
                             " (expected [A-Za-z_$.][A-Za-z0-9_$.]*)");
    out = std::string(field);
    return Status::success();
  }
  Status integer(size_t line, std::string_view field, std::string_view what,
                 int64_t min, int64_t max, int64_t &out) const {
    if (!parseInt64(field, out) || out < min || out > max) {
      std::string range = min > 0    ? "a positive integer"
                          : min == 0 ? "a non-negative integer"
                                     : "an integer";
      if (max < std::numeric_limits<int64_t>::max())
        range += " <= " + std::to_string(max);
      return error(line, "bad integer " + quoted(field) + " in " +
                             std::string(what) + " (expected " + range + ")");
    }
    return Status::success();
  }
  /// A bound of a `range` line: a decimal number (as %g prints it), -inf or
  /// inf; not NaN.
  Status bound(size_t line, std::string_view field, const char *which,
               double &out) const {
    const char *first = field.data(), *last = field.data() + field.size();
    auto [end, ec] = std::from_chars(first, last, out);
    if (ec != std::errc() || end != last || std::isnan(out))
      return error(line, "bad " + std::string(which) + " bound " +
                             quoted(field) +
                             " in 'range' (expected a number, -inf or inf)");
    return Status::success();
  }
  Status once(size_t line, const char *directive, size_t &firstLine) const {
    if (firstLine)
      return error(line, "duplicate " + quoted(directive) +
                             " directive (first on line " +
                             std::to_string(firstLine) + ")");
    firstLine = line;
    return Status::success();
  }
  Status addArg(size_t line, ArgInfo arg) {
    for (const ArgInfo &a : info_.args)
      if (a.name == arg.name)
        return error(line, "duplicate argument name " + quoted(arg.name) +
                               " (first on line " + std::to_string(a.line) +
                               ")");
    arg.line = line;
    info_.args.push_back(std::move(arg));
    return Status::success();
  }

  Status directive(size_t line, const std::vector<std::string_view> &f);
  Status argDirective(size_t line, const std::vector<std::string_view> &f);

  /// Resolves the `state` lines against the arguments (they may come
  /// before or after the `arg ptr` line they name).
  Status resolveStates();
  /// Resolves the `range` lines likewise.
  Status resolveRanges();

  /// A `state <arg> <kv|vk>` line, resolved after the whole text is read.
  struct StateLine {
    size_t line = 0;
    std::string arg;
    StateOrder order = StateOrder::None;
  };

  /// A `range <arg> <lo> <hi>` line, resolved after the whole text is read.
  struct RangeLine {
    size_t line = 0;
    std::string arg;
    double lo = 0, hi = 0;
  };

  /// A `stride <arg> <scalar>` line, resolved after the whole text is read.
  struct StrideLine {
    size_t line = 0;
    std::string arg, scalar;
  };

  std::string_view text_;
  KernelInfo &info_;
  size_t nameLine_ = 0, blockLine_ = 0, gridXLine_ = 0, gridYLine_ = 0,
         smemLine_ = 0, endLine_ = 0, countersLine_ = 0;
  std::vector<size_t> counterLines_;
  std::vector<size_t> bindLines_;
  std::vector<StateLine> states_;
  std::vector<RangeLine> ranges_;
  std::vector<StrideLine> strides_;
};

Status MetadataParser::directive(size_t line,
                                 const std::vector<std::string_view> &f) {
  std::string_view d = f[0];
  size_t n = f.size() - 1;
  if (d == "name") {
    KDA2RT_TRY(once(line, "name", nameLine_));
    if (n != 1)
      return fieldCount(line, d, 1, n);
    return name(line, f[1], "kernel name", info_.name);
  }
  if (d == "block") {
    KDA2RT_TRY(once(line, "block", blockLine_));
    if (n != 3)
      return fieldCount(line, d, 3, n);
    for (int i = 0; i < 3; ++i) {
      int64_t v = 0;
      KDA2RT_TRY(integer(line, f[1 + i], "block", 1, 1024, v));
      info_.block[i] = static_cast<unsigned>(v);
    }
    return Status::success();
  }
  if (d == "grid.x") {
    KDA2RT_TRY(once(line, "grid.x", gridXLine_));
    for (size_t i = 1; i < f.size(); ++i) {
      GridTerm t;
      if (looksNumeric(f[i]))
        KDA2RT_TRY(integer(line, f[i], "grid.x", 1,
                           std::numeric_limits<int32_t>::max(), t.constant));
      else
        KDA2RT_TRY(name(line, f[i], "dimension name", t.dim));
      info_.gridX.push_back(std::move(t));
    }
    return Status::success();
  }
  if (d == "grid.y") {
    KDA2RT_TRY(once(line, "grid.y", gridYLine_));
    for (size_t i = 1; i < f.size(); ++i) {
      if (looksNumeric(f[i]))
        return error(line, "grid.y takes dimension names, got " +
                               quoted(f[i]));
      std::string dim;
      KDA2RT_TRY(name(line, f[i], "dimension name", dim));
      info_.gridY.push_back(std::move(dim));
    }
    return Status::success();
  }
  if (d == "smem") {
    KDA2RT_TRY(once(line, "smem", smemLine_));
    if (n != 1)
      return fieldCount(line, d, 1, n);
    int64_t v = 0;
    KDA2RT_TRY(integer(line, f[1], "smem", 0,
                       std::numeric_limits<int32_t>::max(), v));
    info_.sharedBytes = static_cast<unsigned>(v);
    return Status::success();
  }
  if (d == "arg")
    return argDirective(line, f);
  if (d == "counter") {
    if (n != 2)
      return fieldCount(line, d, 2, n);
    CounterInfo c;
    KDA2RT_TRY(name(line, f[1], "counter name", c.name));
    for (size_t i = 0; i < info_.counters.size(); ++i)
      if (info_.counters[i].name == c.name)
        return error(line, "duplicate counter name " + quoted(c.name) +
                               " (first on line " +
                               std::to_string(counterLines_[i]) + ")");
    if (f[2] == "i64")
      c.isFloat = false;
    else if (f[2] == "f64")
      c.isFloat = true;
    else
      return error(line, "bad counter type " + quoted(f[2]) +
                             " (expected i64 or f64)");
    info_.counters.push_back(std::move(c));
    counterLines_.push_back(line);
    return Status::success();
  }
  if (d == "pad") {
    // pad <arg> <dim> <multiple>: a named dimension of a pointer argument
    // is stored with its extent rounded up to a multiple.
    if (n != 3)
      return fieldCount(line, d, 3, n);
    ArgInfo *arg = nullptr;
    for (ArgInfo &a : info_.args)
      if (a.kind == ArgInfo::Ptr && a.name == f[1])
        arg = &a;
    if (!arg)
      return error(line, "'pad' names " + quoted(f[1]) +
                             ", which is not an earlier pointer argument");
    int64_t multiple = 0;
    KDA2RT_TRY(integer(line, f[3], "pad multiple", 1, 1024, multiple));
    bool found = false;
    for (ShapeDim &dim : arg->shape)
      if (dim.kind == ShapeDim::Named && dim.name == f[2]) {
        if (dim.padTo != 1)
          return error(line, "duplicate padding for " + quoted(f[1]) + " " +
                                 quoted(f[2]));
        dim.padTo = multiple;
        found = true;
      }
    if (!found)
      return error(line, "argument " + quoted(f[1]) +
                             " has no dimension named " + quoted(f[2]));
    return Status::success();
  }
  if (d == "variant") {
    if (n != 3)
      return fieldCount(line, d, 3, n);
    VariantInfo v;
    KDA2RT_TRY(name(line, f[1], "dimension name", v.dim));
    KDA2RT_TRY(integer(line, f[2], "variant size", 1,
                       std::numeric_limits<int64_t>::max(), v.value));
    KDA2RT_TRY(name(line, f[3], "kernel name", v.kernel));
    for (const VariantInfo &other : info_.variants)
      if (other.dim == v.dim && other.value == v.value)
        return error(line, "duplicate variant for " + v.dim + " = " +
                               std::to_string(v.value));
    info_.variants.push_back(std::move(v));
    return Status::success();
  }
  if (d == "persistent") {
    // persistent <n>: launched with at most n blocks per SM (@persistent).
    if (n != 1)
      return fieldCount(line, d, 1, n);
    int64_t blocks = 0;
    KDA2RT_TRY(integer(line, f[1], "persistent", 1, 32, blocks));
    if (info_.persistentBlocks)
      return error(line, "duplicate 'persistent' line");
    info_.persistentBlocks = static_cast<int>(blocks);
    return Status::success();
  }
  if (d == "pdl") {
    // pdl 1: launched as the programmatic dependent of the kernel before it
    // (it waits for that kernel's ready flags itself).
    if (n != 1)
      return fieldCount(line, d, 1, n);
    if (f[1] != "1")
      return error(line, "'pdl' takes the value 1, got " + quoted(f[1]));
    if (info_.programmatic)
      return error(line, "duplicate 'pdl' line");
    info_.programmatic = true;
    return Status::success();
  }
  if (d == "bind") {
    // bind <name> <value>: a compile-time integer the kernel was built with.
    if (n != 2)
      return fieldCount(line, d, 2, n);
    BindingInfo b;
    KDA2RT_TRY(name(line, f[1], "binding name", b.name));
    KDA2RT_TRY(integer(line, f[2], "bind", std::numeric_limits<int64_t>::min(),
                       std::numeric_limits<int64_t>::max(), b.value));
    for (size_t i = 0; i < info_.bindings.size(); ++i)
      if (info_.bindings[i].name == b.name)
        return error(line, "duplicate 'bind' line for " + quoted(b.name) +
                               " (first on line " +
                               std::to_string(bindLines_[i]) + ")");
    info_.bindings.push_back(std::move(b));
    bindLines_.push_back(line);
    return Status::success();
  }
  if (d == "state") {
    // state <arg> <kv|vk>: the layout of the recurrent state in pointer
    // argument <arg> (checked against the arguments after the last line).
    if (n != 2)
      return fieldCount(line, d, 2, n);
    StateLine st;
    st.line = line;
    KDA2RT_TRY(name(line, f[1], "argument name", st.arg));
    if (!parseStateOrder(f[2], st.order))
      return error(line, "bad state layout " + quoted(f[2]) +
                             " (expected kv: K-major [.., K, V], or vk: "
                             "V-major [.., V, K])");
    for (const StateLine &other : states_)
      if (other.arg == st.arg)
        return error(line, "duplicate 'state' line for " + quoted(st.arg) +
                               " (first on line " +
                               std::to_string(other.line) + ")");
    states_.push_back(std::move(st));
    return Status::success();
  }
  if (d == "range") {
    // range <arg> <lo> <hi>: the values of argument <arg> the kernel was
    // compiled to be safe for (bounds printed with %g; -inf / inf).
    if (n != 3)
      return fieldCount(line, d, 3, n);
    RangeLine r;
    r.line = line;
    KDA2RT_TRY(name(line, f[1], "argument name", r.arg));
    KDA2RT_TRY(bound(line, f[2], "lower", r.lo));
    KDA2RT_TRY(bound(line, f[3], "upper", r.hi));
    if (r.lo > r.hi)
      return error(line, "empty range of " + quoted(r.arg) + ": lower bound " +
                             std::string(f[2]) + " > upper bound " +
                             std::string(f[3]));
    for (const RangeLine &other : ranges_)
      if (other.arg == r.arg)
        return error(line, "duplicate 'range' line for " + quoted(r.arg) +
                               " (first on line " + std::to_string(other.line) +
                               ")");
    ranges_.push_back(std::move(r));
    return Status::success();
  }
  if (d == "stride") {
    // stride <arg> <scalar>: the element stride of pointer argument <arg>'s
    // outermost dimension is the value of integer scalar <scalar>.
    if (n != 2)
      return fieldCount(line, d, 2, n);
    StrideLine st;
    st.line = line;
    KDA2RT_TRY(name(line, f[1], "argument name", st.arg));
    KDA2RT_TRY(name(line, f[2], "scalar name", st.scalar));
    for (const StrideLine &other : strides_)
      if (other.arg == st.arg)
        return error(line, "duplicate 'stride' line for " + quoted(st.arg) +
                               " (first on line " +
                               std::to_string(other.line) + ")");
    strides_.push_back(std::move(st));
    return Status::success();
  }
  if (d == "end") {
    if (n != 0)
      return fieldCount(line, d, 0, n);
    endLine_ = line;
    return Status::success();
  }
  return error(line, "unknown directive " + quoted(d));
}

Status MetadataParser::argDirective(size_t line,
                                    const std::vector<std::string_view> &f) {
  if (f.size() < 2)
    return error(line, "'arg' needs a kind (ptr, scalar, dim, counters or tensormap)");
  std::string_view kind = f[1];
  size_t n = f.size() - 2;
  ArgInfo arg;
  if (kind == "ptr") {
    // arg ptr <name> <dtype> <in|out|inout> <rank> <d0> ...
    if (n < 4)
      return error(line, "'arg ptr' takes at least 4 fields (name dtype "
                         "access rank), got " +
                             std::to_string(n));
    arg.kind = ArgInfo::Ptr;
    KDA2RT_TRY(name(line, f[2], "argument name", arg.name));
    if (!parseDType(f[3], arg.dtype))
      return error(line, "unknown dtype " + quoted(f[3]) +
                             " (expected one of f16 bf16 f32 f64 i1 i8 ui8 "
                             "i16 i32 i64)");
    if (f[4] == "in")
      arg.access = Access::In;
    else if (f[4] == "out")
      arg.access = Access::Out;
    else if (f[4] == "inout")
      arg.access = Access::InOut;
    else
      return error(line, "unknown access " + quoted(f[4]) +
                             " (expected in, out or inout)");
    int64_t rank = 0;
    KDA2RT_TRY(integer(line, f[5], "rank", 0, 64, rank));
    if (n - 4 != static_cast<size_t>(rank))
      return error(line, "'arg ptr " + arg.name + "' has rank " +
                             std::to_string(rank) + " but lists " +
                             std::to_string(n - 4) + " dimension(s)");
    for (size_t i = 6; i < f.size(); ++i) {
      ShapeDim sd;
      if (f[i] == "?") {
        sd.kind = ShapeDim::Dynamic;
      } else if (looksNumeric(f[i])) {
        sd.kind = ShapeDim::Static;
        KDA2RT_TRY(integer(line, f[i], "shape of '" + arg.name + "'", 0,
                           std::numeric_limits<int64_t>::max(), sd.size));
      } else {
        sd.kind = ShapeDim::Named;
        KDA2RT_TRY(name(line, f[i], "dimension name", sd.name));
      }
      arg.shape.push_back(std::move(sd));
    }
    return addArg(line, std::move(arg));
  }
  if (kind == "scalar") {
    if (n != 2)
      return fieldCount(line, "arg scalar", 2, n);
    arg.kind = ArgInfo::Scalar;
    KDA2RT_TRY(name(line, f[2], "argument name", arg.name));
    if (f[3] == "f32")
      arg.scalarType = ScalarType::F32;
    else if (f[3] == "f64")
      arg.scalarType = ScalarType::F64;
    else if (f[3] == "i32")
      arg.scalarType = ScalarType::I32;
    else if (f[3] == "i64")
      arg.scalarType = ScalarType::I64;
    else
      return error(line, "bad scalar type " + quoted(f[3]) +
                             " (expected f32, f64, i32 or i64)");
    return addArg(line, std::move(arg));
  }
  if (kind == "dim") {
    if (n != 1)
      return fieldCount(line, "arg dim", 1, n);
    arg.kind = ArgInfo::Dim;
    KDA2RT_TRY(name(line, f[2], "dimension name", arg.name));
    return addArg(line, std::move(arg));
  }
  if (kind == "counters") {
    if (n != 1)
      return fieldCount(line, "arg counters", 1, n);
    arg.kind = ArgInfo::Counters;
    arg.name = "counters";
    KDA2RT_TRY(integer(line, f[2], "arg counters", 1, 1 << 20,
                       arg.numCounters));
    countersLine_ = line;
    return addArg(line, std::move(arg));
  }
  if (kind == "tensormap") {
    // arg tensormap <name> <source> <rank> <d0> ... box <b0> ... [swizzle S]
    // (S = 32, 64 or 128 bytes)
    if (n < 3)
      return error(line, "'arg tensormap' takes at least 3 fields (name "
                         "source rank), got " +
                             std::to_string(n));
    arg.kind = ArgInfo::TensorMap;
    KDA2RT_TRY(name(line, f[2], "argument name", arg.name));
    KDA2RT_TRY(name(line, f[3], "argument name", arg.source));
    const ArgInfo *src = nullptr;
    for (const ArgInfo &a : info_.args)
      if (a.kind == ArgInfo::Ptr && a.name == arg.source)
        src = &a;
    if (!src)
      return error(line, "tensor map " + quoted(arg.name) + " names " +
                             quoted(arg.source) +
                             ", which is not an earlier pointer argument");
    int64_t rank = 0;
    KDA2RT_TRY(integer(line, f[4], "tensor map rank", 1, 5, rank));
    size_t plain = static_cast<size_t>(6 + 2 * rank);
    if ((f.size() != plain && f.size() != plain + 2) || f[5 + rank] != "box")
      return error(line, "'arg tensormap " + arg.name + "' of rank " +
                             std::to_string(rank) +
                             " takes <rank> dimensions, 'box', <rank> "
                             "extents and an optional 'swizzle 32|64|128'");
    if (f.size() == plain + 2) {
      std::string_view span = f[plain + 1];
      if (f[plain] != "swizzle" ||
          (span != "32" && span != "64" && span != "128"))
        return error(line, "tensor map " + quoted(arg.name) +
                               ": expected 'swizzle 32', 'swizzle 64' or "
                               "'swizzle 128' after the box, got " +
                               quoted(std::string(f[plain])) + " " +
                               quoted(std::string(span)));
      arg.swizzle = span == "32" ? 32 : span == "64" ? 64 : 128;
    }
    for (int64_t i = 0; i < rank; ++i) {
      int64_t d = 0, b = 0;
      KDA2RT_TRY(integer(line, f[5 + i], "tensor map dimension", 0,
                         static_cast<int64_t>(src->shape.size()) - 1, d));
      KDA2RT_TRY(integer(line, f[6 + rank + i], "tensor map box", 1, 256, b));
      for (int prev : arg.mapDims)
        if (prev == d)
          return error(line, "tensor map " + quoted(arg.name) +
                                 " lists dimension " + std::to_string(d) +
                                 " twice");
      arg.mapDims.push_back(static_cast<int>(d));
      arg.box.push_back(static_cast<uint32_t>(b));
    }
    if (arg.mapDims.size() != src->shape.size())
      return error(line, "tensor map " + quoted(arg.name) + " has rank " +
                             std::to_string(rank) + " but " +
                             quoted(arg.source) + " has rank " +
                             std::to_string(src->shape.size()));
    // The swizzle span bounds the box's innermost side (the driver
    // refuses a wider one).
    if (arg.swizzle &&
        arg.box.front() * dtypeSize(src->dtype) > size_t(arg.swizzle))
      return error(line, "tensor map " + quoted(arg.name) + ": a box row of " +
                             std::to_string(arg.box.front() *
                                            dtypeSize(src->dtype)) +
                             " bytes is wider than its " +
                             std::to_string(arg.swizzle) + "-byte swizzle");
    return addArg(line, std::move(arg));
  }
  return error(line, "unknown arg kind " + quoted(kind) +
                         " (expected ptr, scalar, dim, counters or "
                         "tensormap)");
}

Status MetadataParser::resolveStates() {
  for (const StateLine &st : states_) {
    ArgInfo *arg = nullptr;
    for (ArgInfo &a : info_.args)
      if (a.name == st.arg)
        arg = &a;
    if (!arg)
      return error(st.line, "'state' names " + quoted(st.arg) +
                                ", which is not an argument");
    if (arg->kind != ArgInfo::Ptr)
      return error(st.line, "'state' names " + quoted(st.arg) +
                                ", which is not a pointer argument (line " +
                                std::to_string(arg->line) + ")");
    arg->stateLayout = st.order;
    arg->stateLine = st.line;
  }
  return Status::success();
}

Status MetadataParser::resolveRanges() {
  for (const RangeLine &r : ranges_) {
    ArgInfo *arg = nullptr;
    for (ArgInfo &a : info_.args)
      if (a.name == r.arg)
        arg = &a;
    if (!arg)
      return error(r.line, "'range' names " + quoted(r.arg) +
                               ", which is not an argument");
    if (arg->kind != ArgInfo::Ptr && arg->kind != ArgInfo::Scalar)
      return error(r.line, "'range' names " + quoted(r.arg) +
                               ", which is not a pointer or scalar argument "
                               "(line " +
                               std::to_string(arg->line) + ")");
    arg->hasRange = true;
    arg->rangeLo = r.lo;
    arg->rangeHi = r.hi;
    arg->rangeLine = r.line;
  }
  for (const StrideLine &st : strides_) {
    ArgInfo *arg = nullptr;
    const ArgInfo *scalar = nullptr;
    for (ArgInfo &a : info_.args) {
      if (a.name == st.arg)
        arg = &a;
      if (a.name == st.scalar)
        scalar = &a;
    }
    if (!arg || arg->kind != ArgInfo::Ptr)
      return error(st.line, "'stride' names " + quoted(st.arg) +
                                ", which is not a pointer argument");
    if (!scalar || scalar->kind != ArgInfo::Scalar ||
        (scalar->scalarType != ScalarType::I32 &&
         scalar->scalarType != ScalarType::I64))
      return error(st.line, "'stride' of " + quoted(st.arg) + " names " +
                                quoted(st.scalar) +
                                ", which is not an i32 or i64 scalar argument");
    if (arg->shape.empty())
      return error(st.line, "'stride' of " + quoted(st.arg) +
                                ": a rank-0 argument has no stride");
    arg->strideScalar = st.scalar;
    arg->strideLine = st.line;
  }
  return Status::success();
}

Status MetadataParser::run() {
  size_t nul = text_.find('\0');
  if (nul != std::string_view::npos)
    text_ = text_.substr(0, nul);

  size_t lineNo = 0, lastContentLine = 0, pos = 0;
  while (pos <= text_.size()) {
    size_t eol = text_.find('\n', pos);
    std::string_view raw = text_.substr(
        pos, eol == std::string_view::npos ? std::string_view::npos
                                           : eol - pos);
    pos = eol == std::string_view::npos ? text_.size() + 1 : eol + 1;
    ++lineNo;
    if (!raw.empty() && raw.back() == '\r')
      raw.remove_suffix(1);
    std::vector<std::string_view> f = splitFields(raw);

    if (lineNo == 1) {
      if (f.size() == 1 && f[0] == kMetadataVersion)
        continue;
      if (f.size() == 1 && f[0].substr(0, 13) == "kda2-kernel-v")
        return error(1, "unsupported metadata version " + quoted(f[0]) +
                            " (this runtime reads " + kMetadataVersion + ")");
      return error(1, std::string("expected the header '") +
                          kMetadataVersion + "', got " + quoted(raw));
    }
    if (f.empty() || f[0][0] == '#')
      continue;
    if (endLine_)
      return error(lineNo, "unexpected text after 'end' (line " +
                               std::to_string(endLine_) + ")");
    lastContentLine = lineNo;
    KDA2RT_TRY(directive(lineNo, f));
  }

  if (!endLine_)
    return error(std::max<size_t>(lastContentLine, 1),
                 "missing 'end' (the metadata ends here)");
  if (!nameLine_)
    return error(endLine_, "missing 'name' directive");
  if (!blockLine_)
    return error(endLine_, "missing 'block' directive");
  KDA2RT_TRY(resolveStates());
  KDA2RT_TRY(resolveRanges());
  int64_t slots = 0;
  for (const ArgInfo &a : info_.args)
    if (a.kind == ArgInfo::Counters)
      slots = a.numCounters;
  if (static_cast<size_t>(slots) != info_.counters.size()) {
    size_t where = countersLine_ ? countersLine_ : counterLines_.front();
    return error(where, "'arg counters' declares " + std::to_string(slots) +
                            " slot(s) but " +
                            std::to_string(info_.counters.size()) +
                            " 'counter' line(s) follow");
  }
  return Status::success();
}

} // namespace

Status kda2::runtime::parseKernelMetadata(std::string_view text,
                                          KernelInfo &out) {
  out = KernelInfo();
  KernelInfo info;
  MetadataParser parser(text, info);
  KDA2RT_TRY(parser.run());
  out = std::move(info);
  return Status::success();
}

std::string kda2::runtime::formatRangeBound(double value) {
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", value);
  return buf;
}

std::string kda2::runtime::formatKernelMetadata(const KernelInfo &info) {
  std::string s = std::string(kMetadataVersion) + "\n";
  s += "name " + info.name + "\n";
  s += "block " + std::to_string(info.block[0]) + " " +
       std::to_string(info.block[1]) + " " + std::to_string(info.block[2]) +
       "\n";
  s += "grid.x";
  for (const GridTerm &t : info.gridX)
    s += " " + (t.dim.empty() ? std::to_string(t.constant) : t.dim);
  s += "\ngrid.y";
  for (const std::string &d : info.gridY)
    s += " " + d;
  s += "\nsmem " + std::to_string(info.sharedBytes) + "\n";
  for (const ArgInfo &a : info.args) {
    switch (a.kind) {
    case ArgInfo::Ptr:
      s += "arg ptr " + a.name + " " + dtypeName(a.dtype) + " " +
           accessName(a.access) + " " + std::to_string(a.shape.size());
      for (const ShapeDim &d : a.shape)
        s += " " + (d.kind == ShapeDim::Static  ? std::to_string(d.size)
                    : d.kind == ShapeDim::Named ? d.name
                                                : std::string("?"));
      for (size_t i = 0; i < a.shape.size(); ++i) {
        const ShapeDim &d = a.shape[i];
        bool first = true; // one line per name
        for (size_t j = 0; j < i; ++j)
          first &= !(a.shape[j].kind == ShapeDim::Named &&
                     a.shape[j].name == d.name);
        if (d.kind == ShapeDim::Named && d.padTo != 1 && first)
          s += "\npad " + a.name + " " + d.name + " " +
               std::to_string(d.padTo);
      }
      break;
    case ArgInfo::Scalar:
      s += "arg scalar " + a.name + " " + scalarTypeName(a.scalarType);
      break;
    case ArgInfo::Dim:
      s += "arg dim " + a.name;
      break;
    case ArgInfo::Counters:
      s += "arg counters " + std::to_string(a.numCounters);
      break;
    case ArgInfo::TensorMap:
      s += "arg tensormap " + a.name + " " + a.source + " " +
           std::to_string(a.mapDims.size());
      for (int d : a.mapDims)
        s += " " + std::to_string(d);
      s += " box";
      for (uint32_t b : a.box)
        s += " " + std::to_string(b);
      if (a.swizzle)
        s += " swizzle " + std::to_string(a.swizzle);
      break;
    }
    s += "\n";
  }
  for (const ArgInfo &a : info.args)
    if (a.kind == ArgInfo::Ptr && a.stateLayout != StateOrder::None)
      s += "state " + a.name + " " + stateOrderName(a.stateLayout) + "\n";
  for (const ArgInfo &a : info.args)
    if (a.hasRange)
      s += "range " + a.name + " " + formatRangeBound(a.rangeLo) + " " +
           formatRangeBound(a.rangeHi) + "\n";
  for (const ArgInfo &a : info.args)
    if (!a.strideScalar.empty())
      s += "stride " + a.name + " " + a.strideScalar + "\n";
  for (const CounterInfo &c : info.counters)
    s += "counter " + c.name + (c.isFloat ? " f64\n" : " i64\n");
  for (const VariantInfo &v : info.variants)
    s += "variant " + v.dim + " " + std::to_string(v.value) + " " + v.kernel +
         "\n";
  if (info.persistentBlocks)
    s += "persistent " + std::to_string(info.persistentBlocks) + "\n";
  if (info.programmatic)
    s += "pdl 1\n";
  for (const BindingInfo &b : info.bindings)
    s += "bind " + b.name + " " + std::to_string(b.value) + "\n";
  s += "end\n";
  return s;
}

//===----------------------------------------------------------------------===//
// LaunchArgs and launch configuration
//===----------------------------------------------------------------------===//

LaunchArgs &LaunchArgs::ptr(std::string name, CUdeviceptr value) {
  pointers_.push_back({std::move(name), value, false, {}});
  return *this;
}

LaunchArgs &LaunchArgs::ptr(std::string name, const void *value) {
  return ptr(std::move(name),
             static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(value)));
}

LaunchArgs &LaunchArgs::ptr(std::string name, const void *value,
                            std::vector<int64_t> shape) {
  pointers_.push_back(
      {std::move(name),
       static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(value)), true,
       std::move(shape)});
  return *this;
}

LaunchArgs &LaunchArgs::dim(std::string name, int64_t size) {
  dims_.push_back({std::move(name), size});
  return *this;
}

LaunchArgs &LaunchArgs::intScalar(std::string name, int64_t value) {
  scalars_.push_back({std::move(name), true, value, 0.0});
  return *this;
}

LaunchArgs &LaunchArgs::floatScalar(std::string name, double value) {
  scalars_.push_back({std::move(name), false, 0, value});
  return *this;
}

int64_t LaunchConfig::dim(std::string_view name) const {
  for (const LaunchArgs::Size &d : dims)
    if (d.name == name)
      return d.value;
  return -1;
}

namespace {

std::string formatDouble(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

/// The scalar as an integer in [lo, hi], or false.
bool scalarToInt(const LaunchArgs::ScalarValue &s, int64_t lo, int64_t hi,
                 int64_t &out) {
  if (s.isInt) {
    out = s.intValue;
  } else {
    double v = s.floatValue;
    // 2^63 is exactly representable; valid doubles are in [-2^63, 2^63).
    if (!std::isfinite(v) || std::trunc(v) != v || v < -9223372036854775808.0 ||
        v >= 9223372036854775808.0)
      return false;
    out = static_cast<int64_t>(v);
  }
  return out >= lo && out <= hi;
}

} // namespace

Status kda2::runtime::computeLaunchConfig(const KernelInfo &info,
                                          const LaunchArgs &args,
                                          LaunchConfig &out) {
  out = LaunchConfig();
  auto fail = [&](ErrorCode code, const std::string &msg) {
    return Status::error(code, "kernel '" + info.name + "': " + msg);
  };
  auto listOf = [&](ArgInfo::Kind k1, ArgInfo::Kind k2) {
    std::vector<std::string> names;
    for (const ArgInfo &a : info.args)
      if (a.kind == k1 || a.kind == k2)
        names.push_back(a.name);
    return names.empty() ? std::string("none") : joinNames(names);
  };

  // Dimension sizes: given explicitly, then inferred from pointer shapes.
  const std::vector<std::string> known = info.dimNames();
  std::vector<LaunchArgs::Size> dims;
  auto findDim = [&](std::string_view name) -> const int64_t * {
    for (const LaunchArgs::Size &d : dims)
      if (d.name == name)
        return &d.value;
    return nullptr;
  };
  for (const LaunchArgs::Size &d : args.dims()) {
    if (!std::binary_search(known.begin(), known.end(), d.name))
      return fail(ErrorCode::InvalidArgument,
                  "unknown dimension " + quoted(d.name) + " (dimensions: " +
                      (known.empty() ? std::string("none") : joinNames(known)) +
                      ")");
    if (findDim(d.name))
      return fail(ErrorCode::InvalidArgument,
                  "dimension " + quoted(d.name) + " given twice");
    if (d.value < 0)
      return fail(ErrorCode::InvalidArgument,
                  "dimension " + quoted(d.name) + " has negative size " +
                      std::to_string(d.value));
    dims.push_back(d);
  }

  const std::vector<LaunchArgs::Pointer> &ptrs = args.pointers();
  for (size_t i = 0; i < ptrs.size(); ++i) {
    const LaunchArgs::Pointer &p = ptrs[i];
    const ArgInfo *a = info.findArg(p.name);
    if (!a || (a->kind != ArgInfo::Ptr && a->kind != ArgInfo::Counters))
      return fail(ErrorCode::InvalidArgument,
                  "unknown pointer argument " + quoted(p.name) +
                      " (pointer arguments: " +
                      listOf(ArgInfo::Ptr, ArgInfo::Counters) + ")");
    for (size_t j = 0; j < i; ++j)
      if (ptrs[j].name == p.name)
        return fail(ErrorCode::InvalidArgument,
                    "pointer argument " + quoted(p.name) + " given twice");
    if (!p.hasShape || a->kind != ArgInfo::Ptr)
      continue;
    if (p.shape.size() != a->shape.size())
      return fail(ErrorCode::InvalidArgument,
                  "argument " + quoted(p.name) + " has rank " +
                      std::to_string(p.shape.size()) +
                      " but the kernel expects rank " +
                      std::to_string(a->shape.size()));
    for (size_t k = 0; k < p.shape.size(); ++k) {
      int64_t extent = p.shape[k];
      const ShapeDim &sd = a->shape[k];
      std::string where = "argument " + quoted(p.name) + " dimension " +
                          std::to_string(k);
      if (extent < 0)
        return fail(ErrorCode::InvalidArgument,
                    where + " has negative size " + std::to_string(extent));
      if (sd.kind == ShapeDim::Static && sd.size != extent)
        return fail(ErrorCode::InvalidArgument,
                    where + " is " + std::to_string(extent) +
                        " but the kernel was compiled for " +
                        std::to_string(sd.size));
      if (sd.kind == ShapeDim::Named) {
        if (const int64_t *v = findDim(sd.name)) {
          if (*v != extent)
            return fail(ErrorCode::InvalidArgument,
                        where + " (" + sd.name + ") is " +
                            std::to_string(extent) + " but " + sd.name +
                            " = " + std::to_string(*v));
        } else {
          dims.push_back({sd.name, extent});
        }
      }
    }
  }

  const std::vector<LaunchArgs::ScalarValue> &scalars = args.scalars();
  for (size_t i = 0; i < scalars.size(); ++i) {
    const ArgInfo *a = info.findArg(scalars[i].name);
    if (!a || a->kind != ArgInfo::Scalar)
      return fail(ErrorCode::InvalidArgument,
                  "unknown scalar argument " + quoted(scalars[i].name) +
                      " (scalar arguments: " +
                      listOf(ArgInfo::Scalar, ArgInfo::Scalar) + ")");
    for (size_t j = 0; j < i; ++j)
      if (scalars[j].name == scalars[i].name)
        return fail(ErrorCode::InvalidArgument,
                    "scalar argument " + quoted(scalars[i].name) +
                        " given twice");
  }

  // A scalar named by a `stride` line is the element stride of a pointer
  // argument's outermost dimension. The kernel assumes 16-byte aligned rows
  // (its vector accesses rely on it), so the stride must be the dense row
  // size (what a contiguous tensor has) or a multiple of 16 bytes, the rule
  // of the typed entry points.
  auto checkStride = [&](const std::string &scalar, int64_t value) -> Status {
    for (const ArgInfo &p : info.args) {
      if (p.kind != ArgInfo::Ptr || p.strideScalar != scalar)
        continue;
      // The dense row size; -1 (matches no stride) when it overflows.
      int64_t dense = 1;
      for (size_t k = 1; k < p.shape.size() && dense >= 0; ++k) {
        const ShapeDim &d = p.shape[k];
        const int64_t *v = d.kind == ShapeDim::Named ? findDim(d.name) : nullptr;
        int64_t extent = d.kind == ShapeDim::Static ? d.size : v ? *v : 1;
        if (extent < 0 || __builtin_mul_overflow(dense, extent, &dense))
          dense = -1;
      }
      int64_t multiple = 16 / std::min<int64_t>(dtypeSize(p.dtype), 16);
      if (value != dense && (value < 0 || value % multiple != 0))
        return fail(ErrorCode::InvalidArgument,
                    "scalar argument " + quoted(scalar) +
                        " is the row stride of " + quoted(p.name) +
                        ": it must be the dense row size (" +
                        std::to_string(dense) + ") or a non-negative "
                        "multiple of 16 bytes (" + std::to_string(multiple) +
                        " elements of " + dtypeName(p.dtype) + "), got " +
                        std::to_string(value));
    }
    return Status::success();
  };

  // Parameter buffer, in `arg` order.
  for (const ArgInfo &a : info.args) {
    uint64_t slot = 0;
    unsigned size = 8;
    switch (a.kind) {
    case ArgInfo::Ptr:
    case ArgInfo::Counters: {
      const LaunchArgs::Pointer *given = nullptr;
      for (const LaunchArgs::Pointer &p : ptrs)
        if (p.name == a.name)
          given = &p;
      if (!given)
        return fail(ErrorCode::InvalidArgument,
                    a.kind == ArgInfo::Counters
                        ? "missing the counters buffer (pointer argument "
                          "'counters', " +
                              std::to_string(a.numCounters) +
                              " 8-byte slots)"
                        : "missing pointer argument " + quoted(a.name));
      if (given->value == 0)
        return fail(ErrorCode::InvalidArgument,
                    "pointer argument " + quoted(a.name) + " is null");
      slot = given->value;
      break;
    }
    case ArgInfo::Scalar: {
      const LaunchArgs::ScalarValue *s = nullptr;
      for (const LaunchArgs::ScalarValue &v : scalars)
        if (v.name == a.name)
          s = &v;
      if (!s)
        return fail(ErrorCode::InvalidArgument,
                    "missing scalar argument " + quoted(a.name) + " (" +
                        scalarTypeName(a.scalarType) + ")");
      auto notIntegral = [&](int64_t lo, int64_t hi) {
        return fail(ErrorCode::InvalidArgument,
                    "scalar argument " + quoted(a.name) + " (" +
                        scalarTypeName(a.scalarType) +
                        ") needs an integer in [" + std::to_string(lo) + ", " +
                        std::to_string(hi) + "], got " +
                        (s->isInt ? std::to_string(s->intValue)
                                  : formatDouble(s->floatValue)));
      };
      switch (a.scalarType) {
      case ScalarType::F32: {
        float f = s->isInt ? static_cast<float>(s->intValue)
                           : static_cast<float>(s->floatValue);
        std::memcpy(&slot, &f, sizeof(f));
        size = 4;
        break;
      }
      case ScalarType::F64: {
        double d = s->isInt ? static_cast<double>(s->intValue) : s->floatValue;
        std::memcpy(&slot, &d, sizeof(d));
        break;
      }
      case ScalarType::I32: {
        int64_t lo = std::numeric_limits<int32_t>::min(),
                hi = std::numeric_limits<int32_t>::max(), v = 0;
        if (!scalarToInt(*s, lo, hi, v))
          return notIntegral(lo, hi);
        KDA2RT_TRY(checkStride(a.name, v));
        int32_t w = static_cast<int32_t>(v);
        std::memcpy(&slot, &w, sizeof(w));
        size = 4;
        break;
      }
      case ScalarType::I64: {
        int64_t lo = std::numeric_limits<int64_t>::min(),
                hi = std::numeric_limits<int64_t>::max(), v = 0;
        if (!scalarToInt(*s, lo, hi, v))
          return notIntegral(lo, hi);
        KDA2RT_TRY(checkStride(a.name, v));
        std::memcpy(&slot, &v, sizeof(v));
        break;
      }
      }
      break;
    }
    case ArgInfo::Dim: {
      const int64_t *v = findDim(a.name);
      if (!v)
        return fail(ErrorCode::InvalidArgument,
                    "missing size of dimension " + quoted(a.name) +
                        " (argument " + quoted(a.name) + ")");
      std::memcpy(&slot, v, sizeof(*v));
      break;
    }
    case ArgInfo::TensorMap: {
      // The source tensor, stored densely in the order the map lists its
      // dimensions (innermost first), padded dimensions rounded up.
      const ArgInfo *src = info.findArg(a.source);
      const LaunchArgs::Pointer *given = nullptr;
      for (const LaunchArgs::Pointer &p : ptrs)
        if (p.name == a.source)
          given = &p;
      if (!src || !given)
        return fail(ErrorCode::InvalidArgument,
                    "missing pointer argument " + quoted(a.source) +
                        " (read through tensor map " + quoted(a.name) + ")");
      TensorMapRequest req;
      req.param = out.params.size();
      req.dtype = src->dtype;
      req.address = given->value;
      req.box = a.box;
      req.swizzle = a.swizzle;
      uint64_t eb = dtypeSize(src->dtype), stride = eb;
      // A source with a runtime row stride (`stride` line): its outermost
      // dimension, the map's last, steps by that scalar's elements.
      std::optional<int64_t> rowStride;
      if (!src->strideScalar.empty()) {
        int64_t value = 0;
        for (const LaunchArgs::ScalarValue &v : scalars)
          if (v.name == src->strideScalar &&
              scalarToInt(v, std::numeric_limits<int64_t>::min(),
                          std::numeric_limits<int64_t>::max(), value))
            rowStride = value;
        if (!rowStride || *rowStride <= 0)
          return fail(ErrorCode::InvalidArgument,
                      "tensor map " + quoted(a.name) + " reads " +
                          quoted(a.source) + " with TMA, which needs its row "
                          "stride (scalar argument " +
                          quoted(src->strideScalar) + ") positive" +
                          (rowStride ? ", got " + std::to_string(*rowStride)
                                     : std::string()));
      }
      for (size_t i = 0; i < a.mapDims.size(); ++i) {
        const ShapeDim &d = src->shape[a.mapDims[i]];
        int64_t extent = d.size;
        if (d.kind != ShapeDim::Static) {
          const int64_t *v = d.kind == ShapeDim::Named ? findDim(d.name) : nullptr;
          if (!v)
            return fail(ErrorCode::InvalidArgument,
                        "tensor map " + quoted(a.name) +
                            " needs the size of every dimension of " +
                            quoted(a.source));
          extent = *v;
        }
        if (i > 0) {
          if (rowStride && i + 1 == a.mapDims.size())
            stride = static_cast<uint64_t>(*rowStride) * eb;
          if (stride % 16 != 0)
            return fail(ErrorCode::InvalidArgument,
                        "tensor map " + quoted(a.name) + ": a row of " +
                            quoted(a.source) + " is " +
                            std::to_string(stride) +
                            " bytes, not a multiple of 16 (TMA needs "
                            "16-byte strides)");
          req.strides.push_back(stride);
        }
        req.dims.push_back(static_cast<uint64_t>(extent));
        int64_t stored = (extent + d.padTo - 1) / d.padTo * d.padTo;
        stride *= static_cast<uint64_t>(stored);
      }
      if (req.address % 16 != 0)
        return fail(ErrorCode::InvalidArgument,
                    "pointer argument " + quoted(a.source) +
                        " is not 16-byte aligned (it is read with TMA)");
      out.tensorMaps.push_back(std::move(req));
      size = 128;
      break;
    }
    }
    out.params.push_back(slot);
    out.paramSizes.push_back(size);
  }

  // gridDim.x = max of the terms (1 if none).
  int64_t gx = info.gridX.empty() ? 1 : 0;
  std::string gxExpr;
  for (const GridTerm &t : info.gridX) {
    int64_t v = t.constant;
    if (!t.dim.empty()) {
      const int64_t *d = findDim(t.dim);
      if (!d)
        return fail(ErrorCode::InvalidArgument,
                    "missing size of dimension " + quoted(t.dim) +
                        " (used by grid.x)");
      v = *d;
    }
    gxExpr += (gxExpr.empty() ? "" : ", ") +
              (t.dim.empty() ? std::to_string(v)
                             : t.dim + "(" + std::to_string(v) + ")");
    gx = std::max(gx, v);
  }
  const int64_t gridXLimit = std::numeric_limits<int32_t>::max();
  if (gx > gridXLimit)
    return fail(ErrorCode::LaunchConfig,
                "grid.x = max(" + gxExpr + ") = " + std::to_string(gx) +
                    " exceeds the CUDA limit of " + std::to_string(gridXLimit));

  // gridDim.y = product of the named dimensions (1 if none).
  int64_t gy = 1;
  bool overflow = false;
  std::string gyExpr;
  for (const std::string &name : info.gridY) {
    const int64_t *d = findDim(name);
    if (!d)
      return fail(ErrorCode::InvalidArgument,
                  "missing size of dimension " + quoted(name) +
                      " (used by grid.y)");
    gyExpr += (gyExpr.empty() ? "" : " * ") + name + "(" +
              std::to_string(*d) + ")";
    if (*d != 0 && gy > std::numeric_limits<int64_t>::max() / *d)
      overflow = true;
    else
      gy *= *d;
  }
  const int64_t gridYLimit = 65535;
  if (overflow || gy > gridYLimit)
    return fail(ErrorCode::LaunchConfig,
                "grid.y = " + gyExpr + " = " +
                    (overflow ? std::string("(overflow)") : std::to_string(gy)) +
                    " exceeds the CUDA limit of " +
                    std::to_string(gridYLimit));

  out.grid[0] = static_cast<unsigned>(gx);
  out.grid[1] = static_cast<unsigned>(gy);
  out.grid[2] = 1;
  for (int i = 0; i < 3; ++i)
    out.block[i] = info.block[i];
  out.sharedBytes = info.sharedBytes;
  out.dims = std::move(dims);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Module image scanning
//===----------------------------------------------------------------------===//

std::vector<std::string> kda2::runtime::scanKernelNames(const void *image,
                                                        size_t size) {
  std::vector<std::string> names;
  if (!image || !size)
    return names;
  std::string_view s(static_cast<const char *>(image), size);
  const std::string_view prefix = kMetadataSymbolPrefix;
  size_t pos = 0;
  while ((pos = s.find(prefix, pos)) != std::string_view::npos) {
    size_t start = pos + prefix.size(), end = start;
    while (end < s.size() && isIdentChar(s[end]))
      ++end;
    bool tokenStart = pos == 0 || !isIdentChar(s[pos - 1]);
    char next = end < s.size() ? s[end] : '\0';
    // ELF string table: "...\0__kda2_meta_K\0"; PTX: "__kda2_meta_K[N]".
    if (tokenStart && end > start && (next == '\0' || next == '['))
      names.emplace_back(s.substr(start, end - start));
    pos = start;
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

int64_t CounterValue::asInt() const {
  int64_t v = 0;
  std::memcpy(&v, &raw, sizeof(v));
  return v;
}

double CounterValue::asDouble() const {
  if (isFloat) {
    double d = 0;
    std::memcpy(&d, &raw, sizeof(d));
    return d;
  }
  return static_cast<double>(asInt());
}

namespace {
Status makeCurrent(const Driver &driver, CUcontext ctx) {
  CUcontext current = nullptr;
  KDA2RT_TRY(driver.check(driver.api().cuCtxGetCurrent(&current),
                          "cuCtxGetCurrent"));
  if (current == ctx)
    return Status::success();
  return driver.check(driver.api().cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
}
} // namespace

namespace {
/// CUtensorMapSwizzle of a swizzle span in bytes (cuda.h: NONE = 0, 32B,
/// 64B, 128B).
int tensorMapSwizzle(int bytes) {
  return bytes == 32 ? 1 : bytes == 64 ? 2 : bytes == 128 ? 3 : 0;
}

/// CUtensorMapDataType of a dtype (cuda.h's enumerator order).
int tensorMapDataType(DType type) {
  switch (type) {
  case DType::I1:
  case DType::I8:
  case DType::UI8:
    return 0; // UINT8
  case DType::I16:
    return 1; // UINT16
  case DType::I32:
    return 3; // INT32
  case DType::I64:
    return 5; // INT64
  case DType::F16:
    return 6; // FLOAT16
  case DType::F32:
    return 7; // FLOAT32
  case DType::F64:
    return 8; // FLOAT64
  case DType::BF16:
    return 9; // BFLOAT16
  }
  return 7;
}
} // namespace

Status Kernel::launch(const LaunchArgs &args, CUstream stream,
                      LaunchConfig *config) const {
  if (!valid())
    return Status::error(ErrorCode::InvalidArgument,
                         "launch of an invalid (not loaded) kernel");
  LaunchConfig cfg;
  KDA2RT_TRY(computeLaunchConfig(info_, args, cfg));
  residentGrid(cfg.grid, cfg.grid);
  if (config)
    *config = cfg;
  if (cfg.empty())
    return Status::success();
  KDA2RT_TRY(makeCurrent(*driver_, ctx_));
  std::vector<void *> params(cfg.params.size());
  for (size_t i = 0; i < params.size(); ++i)
    params[i] = &cfg.params[i];
  // Tensor maps are passed by value (128 bytes, 64-byte aligned).
  struct alignas(64) EncodedMap {
    uint64_t words[16];
  };
  std::vector<EncodedMap> maps(cfg.tensorMaps.size());
  for (size_t i = 0; i < maps.size(); ++i) {
    const TensorMapRequest &r = cfg.tensorMaps[i];
    if (!driver_->api().cuTensorMapEncodeTiled)
      return Status::error(ErrorCode::Cuda,
                           "kernel '" + info_.name +
                               "' uses TMA but the CUDA driver has no "
                               "cuTensorMapEncodeTiled (driver too old)");
    std::vector<uint32_t> ones(r.dims.size(), 1);
    Status encoded = driver_->check(
        driver_->api().cuTensorMapEncodeTiled(
            &maps[i], tensorMapDataType(r.dtype),
            static_cast<uint32_t>(r.dims.size()),
            reinterpret_cast<void *>(static_cast<uintptr_t>(r.address)),
            r.dims.data(), r.strides.data(), r.box.data(), ones.data(),
            /*interleave=*/0,
            tensorMapSwizzle(r.swizzle),
            /*l2Promotion 128B=*/2,
            /*oobFill=*/0),
        "cuTensorMapEncodeTiled");
    if (!encoded.ok()) {
      encoded.prepend("kernel '" + info_.name + "', tensor map of '" +
                      info_.args[r.param].source + "'");
      return encoded;
    }
    params[r.param] = &maps[i];
  }
  // Dispatch to a shape-specialised copy when a dimension has its size (the
  // copies share the generic kernel's parameters and launch geometry).
  CUfunction func = func_;
  for (size_t v = 0; v < info_.variants.size() && func == func_; ++v)
    for (const LaunchArgs::Size &size : cfg.dims)
      if (size.name == info_.variants[v].dim &&
          size.value == info_.variants[v].value)
        func = variantFuncs_[v];
  Status s = driver_->check(
      driver_->launchKernel(func, cfg.grid, cfg.block, cfg.sharedBytes, stream,
                            params.empty() ? nullptr : params.data(),
                            info_.programmatic),
      "cuLaunchKernel");
  if (!s.ok())
    s.prepend("kernel '" + info_.name + "' (grid " +
              std::to_string(cfg.grid[0]) + "x" + std::to_string(cfg.grid[1]) +
              "x" + std::to_string(cfg.grid[2]) + ", block " +
              std::to_string(cfg.block[0]) + "x" +
              std::to_string(cfg.block[1]) + "x" +
              std::to_string(cfg.block[2]) + ", smem " +
              std::to_string(cfg.sharedBytes) + ")");
  return s;
}

void Kernel::residentGrid(const unsigned grid[3], unsigned out[3]) const {
  for (int i = 0; i < 3; ++i)
    out[i] = grid[i];
  if (!info_.persistentBlocks || smCount_ <= 0)
    return;
  const uint64_t items = uint64_t(grid[0]) * grid[1] * grid[2];
  const uint64_t resident = uint64_t(info_.persistentBlocks) * smCount_;
  out[0] = static_cast<unsigned>(std::min(items, resident));
  out[1] = out[2] = 1;
}

Status Kernel::clearWords(CUdeviceptr ptr, size_t count,
                          CUstream stream) const {
  if (!valid())
    return Status::error(ErrorCode::InvalidArgument,
                         "clearWords on an invalid (not loaded) kernel");
  if (count == 0)
    return Status::success();
  if (!driver_->api().cuMemsetD32Async)
    return Status::error(ErrorCode::Cuda,
                         "kernel '" + info_.name +
                             "' needs its ready flags cleared, but the CUDA "
                             "driver has no cuMemsetD32Async");
  KDA2RT_TRY(makeCurrent(*driver_, ctx_));
  return driver_->check(
      driver_->api().cuMemsetD32Async(ptr, 0, count, stream),
      "cuMemsetD32Async");
}

Status Kernel::launchPrepared(CUfunction func, const unsigned grid[3],
                              void **params, CUstream stream) const {
  if (!valid())
    return Status::error(ErrorCode::InvalidArgument,
                         "launch of an invalid (not loaded) kernel");
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return Status::success();
  KDA2RT_TRY(makeCurrent(*driver_, ctx_));
  unsigned launched[3];
  residentGrid(grid, launched);
  CUresult rc =
      driver_->launchKernel(func, launched, info_.block, info_.sharedBytes,
                            stream, params, info_.programmatic);
  if (rc == cu::Success)
    return Status::success();
  return driver_->check(rc, "cuLaunchKernel")
      .prepend("kernel '" + info_.name + "' (grid " + std::to_string(grid[0]) +
               "x" + std::to_string(grid[1]) + "x" + std::to_string(grid[2]) +
               ")");
}

Status Kernel::launchPreparedMaps(CUfunction func, const unsigned grid[3],
                                  void **params, const PreparedTensorMap *maps,
                                  size_t numMaps, void *storage,
                                  CUstream stream) const {
  if (!valid())
    return Status::error(ErrorCode::InvalidArgument,
                         "launch of an invalid (not loaded) kernel");
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return Status::success();
  KDA2RT_TRY(makeCurrent(*driver_, ctx_));
  static const uint32_t ones[PreparedTensorMap::kMaxRank] = {1, 1, 1, 1, 1};
  auto *encodedMaps = static_cast<char *>(storage);
  for (size_t i = 0; i < numMaps; ++i) {
    const PreparedTensorMap &r = maps[i];
    if (!driver_->api().cuTensorMapEncodeTiled)
      return Status::error(ErrorCode::Cuda,
                           "kernel '" + info_.name +
                               "' uses TMA but the CUDA driver has no "
                               "cuTensorMapEncodeTiled (driver too old)");
    void *map = encodedMaps + 128 * i;
    CUresult rc = driver_->api().cuTensorMapEncodeTiled(
        map, tensorMapDataType(r.dtype), r.rank,
        reinterpret_cast<void *>(static_cast<uintptr_t>(r.address)), r.dims,
        r.strides, r.box, ones,
        /*interleave=*/0,
        tensorMapSwizzle(r.swizzle),
        /*l2Promotion 128B=*/2,
        /*oobFill=*/0);
    if (rc != cu::Success)
      return driver_->check(rc, "cuTensorMapEncodeTiled")
          .prepend("kernel '" + info_.name + "', tensor map of '" +
                   info_.args[r.param].source + "'");
    params[r.param] = map;
  }
  unsigned launched[3];
  residentGrid(grid, launched);
  CUresult rc =
      driver_->launchKernel(func, launched, info_.block, info_.sharedBytes,
                            stream, params, info_.programmatic);
  if (rc == cu::Success)
    return Status::success();
  return driver_->check(rc, "cuLaunchKernel")
      .prepend("kernel '" + info_.name + "' (grid " + std::to_string(grid[0]) +
               "x" + std::to_string(grid[1]) + "x" + std::to_string(grid[2]) +
               ", block " + std::to_string(info_.block[0]) + "x" +
               std::to_string(info_.block[1]) + "x" +
               std::to_string(info_.block[2]) + ", smem " +
               std::to_string(info_.sharedBytes) + ")");
}

Status Kernel::readCounters(CUdeviceptr counters,
                            std::vector<CounterValue> &out) const {
  out.clear();
  if (!valid())
    return Status::error(ErrorCode::InvalidArgument,
                         "readCounters on an invalid (not loaded) kernel");
  size_t n = info_.counters.size();
  if (n == 0)
    return Status::success();
  if (!counters)
    return Status::error(ErrorCode::InvalidArgument,
                         "kernel '" + info_.name +
                             "': the counters buffer pointer is null");
  std::vector<uint64_t> raw(n);
  KDA2RT_TRY(makeCurrent(*driver_, ctx_));
  KDA2RT_TRY(driver_->check(
      driver_->api().cuMemcpyDtoH(raw.data(), counters, n * sizeof(uint64_t)),
      "cuMemcpyDtoH (counters)"));
  for (size_t i = 0; i < n; ++i) {
    CounterValue v;
    v.name = info_.counters[i].name;
    v.isFloat = info_.counters[i].isFloat;
    v.raw = raw[i];
    out.push_back(std::move(v));
  }
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::~Module() { (void)unload(); }

Module::Module(Module &&other) noexcept
    : ctx_(std::move(other.ctx_)), module_(other.module_),
      image_(std::move(other.image_)), names_(std::move(other.names_)),
      source_(std::move(other.source_)) {
  other.module_ = nullptr;
}

Module &Module::operator=(Module &&other) noexcept {
  if (this != &other) {
    (void)unload();
    ctx_ = std::move(other.ctx_);
    module_ = other.module_;
    image_ = std::move(other.image_);
    names_ = std::move(other.names_);
    source_ = std::move(other.source_);
    other.module_ = nullptr;
  }
  return *this;
}

Status Module::unload() {
  Status s;
  if (module_) {
    s = ctx_.makeCurrent();
    if (s.ok())
      s = ctx_.driver().check(ctx_.driver().api().cuModuleUnload(module_),
                              "cuModuleUnload");
    module_ = nullptr;
  }
  Status r = ctx_.release();
  image_.clear();
  names_.clear();
  return s.ok() ? r : s;
}

Status Module::loadData(const Context &ctx, const void *image, size_t size,
                        Module &out) {
  (void)out.unload();
  if (!ctx.valid())
    return Status::error(ErrorCode::InvalidArgument,
                         "Module::loadData: invalid context");
  if (!image || size == 0)
    return Status::error(ErrorCode::InvalidArgument, "empty module image");

  Module m;
  m.source_ = "<memory>";
  // Our own reference to the primary context, so the module does not depend
  // on the lifetime of `ctx`.
  KDA2RT_TRY(Context::create(ctx.ordinal(), m.ctx_));
  const char *bytes = static_cast<const char *>(image);
  m.image_.assign(bytes, bytes + size);
  m.image_.push_back('\0'); // PTX must be NUL-terminated
  m.names_ = scanKernelNames(bytes, size);

  const Driver &driver = m.ctx_.driver();
  const Driver::Api &api = driver.api();
  if (api.cuModuleLoadDataEx) {
    // Ask for the JIT error log: it says what is wrong with bad PTX.
    char log[8192] = {0};
    int options[] = {cu::JitErrorLogBuffer, cu::JitErrorLogBufferSizeBytes};
    void *values[] = {log, reinterpret_cast<void *>(
                               static_cast<uintptr_t>(sizeof(log) - 1))};
    Status s = driver.check(
        api.cuModuleLoadDataEx(&m.module_, m.image_.data(), 2, options, values),
        "cuModuleLoadDataEx");
    if (!s.ok()) {
      m.module_ = nullptr;
      log[sizeof(log) - 1] = '\0';
      if (log[0])
        return Status::error(s.code(), s.message() + "; JIT log: " + log);
      return s;
    }
  } else {
    Status s = driver.check(api.cuModuleLoadData(&m.module_, m.image_.data()),
                            "cuModuleLoadData");
    if (!s.ok()) {
      m.module_ = nullptr;
      return s;
    }
  }
  out = std::move(m);
  return Status::success();
}

Status Module::loadFile(const Context &ctx, const std::string &path,
                        Module &out) {
  (void)out.unload();
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return Status::error(ErrorCode::Io, "cannot open module file '" + path +
                                            "': " + std::strerror(errno));
  std::vector<char> data;
  char buf[65536];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
    data.insert(data.end(), buf, buf + n);
  bool bad = std::ferror(f) != 0;
  std::fclose(f);
  if (bad)
    return Status::error(ErrorCode::Io,
                         "cannot read module file '" + path + "'");
  if (data.empty())
    return Status::error(ErrorCode::Io, "module file '" + path + "' is empty");
  Status s = loadData(ctx, data.data(), data.size(), out);
  if (!s.ok())
    return s.prepend("loading module '" + path + "'");
  out.source_ = path;
  return Status::success();
}

Status Module::readMetadata(const char *name, std::string &text) const {
  text.clear();
  if (!module_)
    return Status::error(ErrorCode::InvalidArgument, "module not loaded");
  const Driver &driver = ctx_.driver();
  KDA2RT_TRY(ctx_.makeCurrent());
  std::string symbol = std::string(kMetadataSymbolPrefix) + name;
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
  CUresult r =
      driver.api().cuModuleGetGlobal(&ptr, &bytes, module_, symbol.c_str());
  if (r == cu::ErrorNotFound)
    return Status::error(ErrorCode::NotFound,
                         "no metadata global '" + symbol + "' in module");
  KDA2RT_TRY(driver.check(r, "cuModuleGetGlobal"));
  if (bytes == 0)
    return Status::error(ErrorCode::Metadata,
                         "metadata global '" + symbol + "' is empty");
  std::string buf(bytes, '\0');
  KDA2RT_TRY(driver.check(driver.api().cuMemcpyDtoH(&buf[0], ptr, bytes),
                          "cuMemcpyDtoH (metadata)"));
  size_t nul = buf.find('\0');
  if (nul != std::string::npos)
    buf.resize(nul);
  text = std::move(buf);
  return Status::success();
}

Status Module::getKernel(const char *name, Kernel &out) const {
  out = Kernel();
  if (!module_)
    return Status::error(ErrorCode::InvalidArgument, "module not loaded");
  if (!name || !*name)
    return Status::error(ErrorCode::InvalidArgument, "empty kernel name");
  const Driver &driver = ctx_.driver();
  KDA2RT_TRY(ctx_.makeCurrent());

  CUfunction func = nullptr;
  CUresult r = driver.api().cuModuleGetFunction(&func, module_, name);
  if (r == cu::ErrorNotFound)
    return Status::error(ErrorCode::NotFound,
                         "kernel '" + std::string(name) +
                             "' not found in module; available: " +
                             (names_.empty() ? std::string("none found")
                                             : joinNames(names_)));
  KDA2RT_TRY(driver.check(r, "cuModuleGetFunction"));

  std::string text;
  Status s = readMetadata(name, text);
  if (!s.ok()) {
    if (s.code() == ErrorCode::NotFound)
      return Status::error(ErrorCode::NotFound,
                           "kernel '" + std::string(name) +
                               "' has no metadata global '" +
                               kMetadataSymbolPrefix + name +
                               "' (not compiled by kda2?)");
    return s;
  }
  KernelInfo info;
  s = parseKernelMetadata(text, info);
  if (!s.ok())
    return s.prepend("metadata of kernel '" + std::string(name) + "'");
  if (info.name != name)
    return Status::error(ErrorCode::Metadata,
                         "metadata global '" +
                             std::string(kMetadataSymbolPrefix) + name +
                             "' describes kernel '" + info.name + "'");
  // Static plus dynamic shared memory past 48 KB needs the opt-in, which a
  // kernel with static scratch reaches with less than 48 KB of dynamic: ask
  // for the dynamic size whenever there is one (legal at any size the device
  // holds).
  auto allowShared = [&](CUfunction f, const std::string &kernel) {
    if (info.sharedBytes == 0)
      return Status::success();
    return driver.check(
        driver.api().cuFuncSetAttribute(f,
                                        cu::FuncAttrMaxDynamicSharedSizeBytes,
                                        static_cast<int>(info.sharedBytes)),
        ("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES=" +
         std::to_string(info.sharedBytes) + ") for kernel '" + kernel + "'")
            .c_str());
  };
  KDA2RT_TRY(allowShared(func, std::string(name)));

  for (const VariantInfo &variant : info.variants) {
    CUfunction vf = nullptr;
    CUresult vr =
        driver.api().cuModuleGetFunction(&vf, module_, variant.kernel.c_str());
    if (vr == cu::ErrorNotFound)
      return Status::error(ErrorCode::NotFound,
                           "kernel '" + std::string(name) + "' lists variant '" +
                               variant.kernel + "' (" + variant.dim + " = " +
                               std::to_string(variant.value) +
                               "), which is not in the module");
    KDA2RT_TRY(driver.check(vr, "cuModuleGetFunction"));
    KDA2RT_TRY(allowShared(vf, variant.kernel));
    out.variantFuncs_.push_back(vf);
  }
  // A persistent kernel's launch is capped by the SM count.
  if (info.persistentBlocks)
    KDA2RT_TRY(ctx_.attribute(cu::AttrMultiprocessorCount, out.smCount_));
  out.driver_ = &driver;
  out.ctx_ = ctx_.handle();
  out.func_ = func;
  out.info_ = std::move(info);
  out.text_ = std::move(text);
  return Status::success();
}
