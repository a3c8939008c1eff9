//===- Replaced.h - test helper: one edit of a metadata text ----*- C++ -*-===//
//
// The runtime tests build their wrong kernels by editing one line of a
// real or fake metadata text.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_UNITTESTS_RUNTIME_REPLACED_H
#define KDA2_UNITTESTS_RUNTIME_REPLACED_H

#include "gtest/gtest.h"

#include <string>

namespace kda2::test {
/// `text` with its first `from` replaced by `to` (a test failure when
/// `from` does not occur).
inline std::string replaced(std::string text, const std::string &from,
                            const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}
} // namespace kda2::test

#endif // KDA2_UNITTESTS_RUNTIME_REPLACED_H
