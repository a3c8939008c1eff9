//===- FuzzRules.cpp - libFuzzer target: the rule-database loader ---------===//
//
// Feeds the input bytes to mlir::kda2::RuleBase::parse. A rejected database
// must report "<buffer>:<line>:<col>: error: ..."; an accepted one must print
// and parse back to the same text (the file the agent would save), and
// matching must hold its contract (every returned rule's facts present).
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "kda2/Agent/RuleBase.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace mlir::kda2;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef yaml(reinterpret_cast<const char *>(data), size);
  llvm::Expected<RuleBase> base = RuleBase::parse(yaml, "fuzz.yaml");
  if (!base) {
    std::string message = llvm::toString(base.takeError());
    if (!kda2fuzz::isLocatedError(message, "fuzz.yaml"))
      kda2fuzz::fuzzCheckFailed("rule-base error without a location", message);
    return 0;
  }
  std::string printed;
  llvm::raw_string_ostream os(printed);
  base->print(os);
  llvm::Expected<RuleBase> again = RuleBase::parse(printed, "printed.yaml");
  if (!again)
    kda2fuzz::fuzzCheckFailed("a printed rule base does not parse",
                              llvm::toString(again.takeError()) + "\n" +
                                  printed);
  std::string reprinted;
  llvm::raw_string_ostream os2(reprinted);
  again->print(os2);
  if (printed != reprinted)
    kda2fuzz::fuzzCheckFailed("the rule base does not round-trip",
                              printed + "\n---\n" + reprinted);
  std::vector<std::string> facts;
  if (!base->rules().empty())
    facts = base->rules().front().conditionFacts();
  for (const Rule *rule : base->matching("H200-SXM", facts))
    for (const std::string &fact : rule->conditionFacts())
      if (!llvm::is_contained(facts, fact))
        kda2fuzz::fuzzCheckFailed("a matched rule needs a missing fact", fact);
  return 0;
}
