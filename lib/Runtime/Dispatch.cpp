//===- Dispatch.cpp - dynamic-seqlen dispatch table -----------------------===//
//
// Part of libkda2rt (no LLVM/MLIR, no GPU needed).
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Dispatch.h"

#include <algorithm>

using namespace kda2::runtime;

namespace {
Status invalid(std::string message) {
  return Status::error(ErrorCode::InvalidArgument, std::move(message));
}

std::string joined(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &item : items)
    out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "none" : out;
}
} // namespace

//===----------------------------------------------------------------------===//
// Chip
//===----------------------------------------------------------------------===//

bool Chip::parse(std::string_view text, Chip &out) {
  out = Chip();
  if (text.substr(0, 3) != "sm_")
    return false;
  text.remove_prefix(3);
  if (!text.empty() && text.back() == 'a') {
    out.archSpecific = true;
    text.remove_suffix(1);
  }
  if (text.size() < 2 || text.size() > 3)
    return false;
  for (char c : text)
    if (c < '0' || c > '9')
      return false;
  out.minor = text.back() - '0';
  for (char c : text.substr(0, text.size() - 1))
    out.major = out.major * 10 + (c - '0');
  return out.major > 0;
}

std::string Chip::str() const {
  return "sm_" + std::to_string(major) + std::to_string(minor) +
         (archSpecific ? "a" : "");
}

bool Chip::runsOn(int deviceMajor, int deviceMinor) const {
  if (major != deviceMajor)
    return false;
  return archSpecific ? minor == deviceMinor : minor <= deviceMinor;
}

//===----------------------------------------------------------------------===//
// DispatchTable
//===----------------------------------------------------------------------===//

std::string DispatchEntry::rangeText() const {
  if (generic)
    return "generic";
  return std::to_string(minLength) + ".." +
         (maxLength == kMaxLength ? std::string("inf")
                                  : std::to_string(maxLength));
}

Status DispatchTable::add(DispatchEntry e) {
  if (e.op.empty())
    return invalid("dispatch entry: the op name is empty");
  std::string what = "dispatch entry of op '" + e.op + "'";
  if (e.kernel.empty())
    return invalid(what + ": the kernel name is empty");
  if (e.dim.empty())
    return invalid(what + ": the dispatch dimension is empty");
  Chip chip;
  if (!Chip::parse(e.chip, chip))
    return invalid(what + ": bad chip '" + e.chip +
                   "' (expected sm_<major><minor>[a], e.g. sm_90a)");
  if (e.generic) {
    e.minLength = 0;
    e.maxLength = kMaxLength;
  } else if (e.minLength < 0 || e.maxLength < e.minLength) {
    return invalid(what + ": bad length range " + e.rangeText() +
                   " (need 0 <= min <= max)");
  }
  for (const DispatchEntry &o : entries_) {
    if (o.op != e.op)
      continue;
    if (o.dim != e.dim)
      return invalid(what + ": dispatch dimension '" + e.dim +
                     "' differs from '" + o.dim + "' of kernel '" + o.kernel +
                     "'");
    if (o.chip != e.chip || o.generic != e.generic)
      continue;
    if (e.generic)
      return invalid("duplicate generic kernel for op '" + e.op + "' on " +
                     e.chip + ": '" + o.kernel + "' and '" + e.kernel + "'");
    if (e.minLength <= o.maxLength && o.minLength <= e.maxLength)
      return invalid("duplicate specialisation of op '" + e.op + "' on " +
                     e.chip + ": lengths " + e.rangeText() + " ('" + e.kernel +
                     "') overlap " + o.rangeText() + " ('" + o.kernel + "')");
  }
  entries_.push_back(std::move(e));
  return Status::success();
}

std::vector<std::string> DispatchTable::ops() const {
  std::vector<std::string> ops;
  for (const DispatchEntry &e : entries_)
    ops.push_back(e.op);
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  return ops;
}

std::string DispatchTable::dimOf(std::string_view op) const {
  for (const DispatchEntry &e : entries_)
    if (e.op == op)
      return e.dim;
  return "";
}

std::string DispatchTable::describe() const {
  std::string out;
  for (const DispatchEntry &e : entries_)
    out += e.op + " " + e.chip + " " + e.dim + "=" + e.rangeText() + " " +
           e.kernel + " image " + std::to_string(e.image) + "\n";
  return out;
}

Status DispatchTable::select(std::string_view op, int deviceMajor,
                             int deviceMinor, int64_t length,
                             const DispatchEntry *&out) const {
  out = nullptr;
  std::string device = "compute capability " + std::to_string(deviceMajor) +
                       "." + std::to_string(deviceMinor);
  if (length < 0)
    return invalid("op '" + std::string(op) + "': length " +
                   std::to_string(length) + " is negative");
  // The best chip for this device: runs on it, highest minor, `a` first.
  const Chip *best = nullptr;
  Chip bestChip;
  std::vector<std::string> chips;
  bool known = false;
  for (const DispatchEntry &e : entries_) {
    if (e.op != op)
      continue;
    known = true;
    chips.push_back(e.chip);
    Chip c;
    if (!Chip::parse(e.chip, c) || !c.runsOn(deviceMajor, deviceMinor))
      continue;
    if (!best || c.minor > bestChip.minor ||
        (c.minor == bestChip.minor && c.archSpecific &&
         !bestChip.archSpecific)) {
      bestChip = c;
      best = &bestChip;
    }
  }
  if (!known)
    return Status::error(ErrorCode::NotFound,
                         "unknown op '" + std::string(op) +
                             "'; the bundle has: " + joined(ops()));
  std::sort(chips.begin(), chips.end());
  chips.erase(std::unique(chips.begin(), chips.end()), chips.end());
  if (!best)
    return Status::error(ErrorCode::NotFound,
                         "op '" + std::string(op) + "' has no kernel for " +
                             device + " (wrong-arch bundle?); chips: " +
                             joined(chips));
  std::string chip = bestChip.str();
  const DispatchEntry *generic = nullptr;
  std::vector<std::string> ranges;
  for (const DispatchEntry &e : entries_) {
    if (e.op != op || e.chip != chip)
      continue;
    if (e.generic) {
      generic = &e;
      continue;
    }
    ranges.push_back(e.rangeText() + " ('" + e.kernel + "')");
    if (length >= e.minLength && length <= e.maxLength) {
      out = &e;
      return Status::success();
    }
  }
  if (generic) {
    out = generic;
    return Status::success();
  }
  return Status::error(ErrorCode::NotFound,
                       "op '" + std::string(op) + "': no kernel for " +
                           dimOf(op) + "=" + std::to_string(length) +
                           " on " + chip + " and no generic kernel; " +
                           "specialisations: " + joined(ranges));
}
