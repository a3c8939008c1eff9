//===- RuleBase.h - The feedback rule base ----------------------*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
//
// The persistent, human-readable rule database of the feedback layer: rules
// `if <hardware> and <IR pattern> then <rewrite>`, each with the evidence it
// was learned from. Stored as YAML (`rules:` list); loading reports a corrupt
// file with file:line:col and leaves it untouched; saving replaces the file
// atomically (temporary file + rename), so an interrupted writer never leaves
// a half-written database. Depends on LLVM Support only.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_AGENT_RULEBASE_H
#define KDA2_AGENT_RULEBASE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::kda2 {

/// How sure the base is of a rule: a rule learned from one report starts
/// experimental and is confirmed when the same observation recurs.
enum class RuleConfidence { Experimental, Confirmed };
/// Where a rule came from.
enum class RuleSource { Seed, Simulator, Measured };

struct Rule {
  /// Unique identifier ([A-Za-z0-9_.-]+).
  std::string id;
  /// Hardware profile the rule applies to, or "*" for every profile.
  std::string hw;
  /// What was observed (a constraint violation or a regression), e.g.
  /// "l2_bandwidth_utilisation > 0.92".
  std::string trigger;
  /// The IR pattern the rule applies to: facts a candidate must all have,
  /// separated by " and " (e.g. "loop:serial and pragma:l2_prefetch").
  std::string condition;
  /// The rewrite: `name(arg, ...)` or `name`.
  std::string action;
  /// The report or measurement the rule was learned from.
  std::string evidence;
  RuleConfidence confidence = RuleConfidence::Experimental;
  RuleSource source = RuleSource::Simulator;
  /// How many reports have shown the same observation.
  unsigned hits = 1;

  /// The facts of `condition`.
  std::vector<std::string> conditionFacts() const;
  /// The rewrite's name and arguments.
  std::string actionName() const;
  std::vector<std::string> actionArgs() const;
};

class RuleBase {
public:
  const std::vector<Rule> &rules() const { return rules_; }

  /// Rules whose hardware matches `profile` and whose every condition fact
  /// is among `facts`, confirmed before experimental, then by id.
  std::vector<const Rule *> matching(llvm::StringRef profile,
                                     llvm::ArrayRef<std::string> facts) const;

  /// Adds `rule`, or, when a rule with the same hardware, condition and
  /// action exists, counts one more hit on it (confirming it from the second
  /// hit on) and keeps the new evidence. An empty id gets a fresh one. Fails
  /// for an invalid rule (the message names the field).
  llvm::Expected<const Rule *> learn(Rule rule);

  /// Parses a database; errors are "<name>:<line>:<col>: error: ...".
  static llvm::Expected<RuleBase> parse(llvm::StringRef yaml,
                                        llvm::StringRef name);
  /// Loads `path`; a file that does not exist is an empty base.
  static llvm::Expected<RuleBase> load(llvm::StringRef path);
  /// Writes the database (YAML, rules in order).
  void print(llvm::raw_ostream &os) const;
  /// Replaces `path` atomically with this database.
  llvm::Error save(llvm::StringRef path) const;

private:
  std::vector<Rule> rules_;
};

/// Writes a file atomically: `write` produces the contents in memory, which
/// go to a temporary file next to `path` that then replaces `path` by a
/// rename. If `write` fails nothing is written; if the process dies before
/// the rename `path` keeps its old contents.
llvm::Error
writeFileAtomically(llvm::StringRef path,
                    std::function<llvm::Error(llvm::raw_ostream &)> write);

} // namespace mlir::kda2

#endif // KDA2_AGENT_RULEBASE_H
