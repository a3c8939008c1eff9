//===- Agent.h - The design agent: search, simulate, learn ------*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The design agent behind `kda2-agent` (docs/Agent.md). From a baseline (a
/// `.tirx` template with its bindings, or kda2 IR) it searches schedule
/// choices that kda2 really implements: template bindings (chunk size `C`,
/// value block `VB` with `NVB = V / VB`, `LANES`) and annotation switches on
/// the IR (`#pragma tma_pipeline`, `#pragma l2_prefetch`,
/// `$bank_conflict_free`, `@warp_reduce`). Each depth level applies one
/// rewrite to every survivor of the previous level (a beam of
/// --candidate-count modules); the hardware profile's built-in rules and the
/// matching rules of the rule base (RuleBase.h) order the rewrites (`prefer`)
/// and skip some (`avoid`). Every candidate is a separate module whose
/// choices are recorded in its `kda2.config` attribute; it is lowered through
/// kda2-lower-to-nvvm-pipeline to PTX (and a cubin when ptxas is found;
/// a kernel that several candidates share is compiled once for all of them),
/// simulated (Simulator.h) at the requested shapes, checked against the hard
/// constraints and ranked by predicted time. Rejections and measured
/// regressions become rules in the rule base.
///
//===----------------------------------------------------------------------===//

#ifndef KDA2_AGENT_AGENT_H
#define KDA2_AGENT_AGENT_H

#include "kda2/Agent/RuleBase.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::kda2 {

//===----------------------------------------------------------------------===//
// Configurations and rules (no IR)
//===----------------------------------------------------------------------===//

/// The schedule choices of one candidate. Integer bindings and switches are
/// what the search varies; `otherBindings` (element types, layouts) are
/// kept from the baseline.
struct AgentConfig {
  /// `--tirx-bind` sizes (`C=32`, `VB=16`, `K=128`, ...).
  std::map<std::string, int64_t> bindings;
  /// `--tirx-bind` element types and layouts (`IN=bf16`, `SL=row_major`).
  std::map<std::string, std::string> otherBindings;
  /// Annotation switches (`tma_pipeline`, `l2_prefetch`, ...).
  std::map<std::string, bool> switches;

  /// The facts the rules match: `C=32`, `tma_pipeline=on`, ... sorted.
  std::vector<std::string> facts() const;
  /// The bindings as a `--tirx-bind` value, sorted by name.
  std::string bindString() const;
  /// One line: `C=32 VB=16 tma_pipeline=on ...` (bindings, then switches).
  std::string summary() const;
  bool operator==(const AgentConfig &other) const {
    return bindings == other.bindings &&
           otherBindings == other.otherBindings && switches == other.switches;
  }
};

/// The fact `key=value` of a binding or a switch.
std::string configFact(llvm::StringRef key, int64_t value);
std::string switchFact(llvm::StringRef key, bool on);

/// One hard constraint checked on a candidate.
struct ConstraintResult {
  /// `l2_bandwidth`, `shared_memory`, `registers`, `memory_budget`,
  /// `latency_target` or `valid` (imports, verifies and lowers).
  std::string name;
  bool ok = true;
  /// Measured value and limit (units in `unit`); unused for `valid`.
  double value = 0, limit = 0;
  std::string unit;
  /// Why it failed (the diagnostic for `valid`).
  std::string detail;
  /// How far over the limit: value / limit - 1 (infinite for `valid`).
  double excess() const;
};

/// The rule the agent learns from a candidate rejected by a constraint that
/// belongs to the configuration on this hardware (shared memory, registers,
/// L2 bandwidth, an invalid candidate): `if hw == <profile> and <the
/// candidate's size bindings, the rewrite that produced it, template> then
/// avoid(<that rewrite>)`, experimental, with the candidate's numbers as
/// evidence. None for the baseline (nothing to avoid) and for constraints
/// that depend on the request rather than the configuration (latency target,
/// memory budget). \p shapeFacts (`shape:t=4096`) join the condition of L2
/// rules, whose cause depends on the launch size.
std::optional<Rule> ruleFromRejection(const AgentConfig &config,
                                      llvm::StringRef lastRewrite,
                                      const ConstraintResult &constraint,
                                      llvm::StringRef profile,
                                      llvm::StringRef templateName,
                                      llvm::ArrayRef<std::string> shapeFacts,
                                      llvm::StringRef candidateName);

/// A candidate with its predicted and measured time (feedback).
struct MeasuredCandidate {
  std::string name;
  AgentConfig config;
  double predictedMicros = 0;
  double measuredMs = 0;
};

/// Rules learned from measured times: for every pair where the simulator
/// predicted `a` faster than `b` but `a` measured slower by more than
/// \p margin (relative), `if hw == <profile> and <template, the pair's
/// shared size bindings> then prefer(<b's value of the first choice where
/// they differ>)`, source measured. Pairs that differ in nothing give none.
std::vector<Rule> rulesFromRegressions(llvm::ArrayRef<MeasuredCandidate> runs,
                                       llvm::StringRef profile,
                                       llvm::StringRef templateName,
                                       double margin = 0.05);

/// What the matching rules say about a candidate with \p facts.
struct RuleVerdict {
  /// The `avoid` rule that prunes it, if any.
  const Rule *avoidedBy = nullptr;
  /// Sum of the `prefer` weights (confirmed 2, experimental 1).
  int preference = 0;
  /// Ids of the rules that matched with an action the agent implements.
  std::vector<std::string> fired;
};

/// Applies the rules (already filtered to the profile) to \p facts:
/// `avoid(f)` / `drop_pragma(p)` (= avoid(p=on)) prune a candidate that has
/// fact `f`, `prefer(f)` raises the priority of one that has it. A rule
/// matches when all its condition facts are among \p facts.
RuleVerdict judge(llvm::ArrayRef<const Rule *> rules,
                  llvm::ArrayRef<std::string> facts);

/// True for the rule actions the agent implements (avoid, prefer,
/// drop_pragma).
bool isAgentAction(const Rule &rule);

//===----------------------------------------------------------------------===//
// The tool
//===----------------------------------------------------------------------===//

/// Options of kda2-agent.
struct AgentOptions {
  /// A `.tirx` template or kda2 IR (`.mlir`).
  std::string input;
  /// A built-in profile name or a YAML profile file.
  std::string profile = "H200-SXM";
  /// Reject candidates predicted slower (0: no target).
  double latencyTargetMs = 0;
  /// Reject candidates whose global tensors need more (MiB; 0: the
  /// profile's device memory).
  double memoryBudgetMB = 0;
  unsigned searchDepth = 3;
  unsigned candidateCount = 7;
  /// Where candidate_N.{mlir,ptx,cubin} and report.json go.
  std::string outputDir = "kda2-agent-out";
  /// Rule base; empty for none. Created when a rule is learned.
  std::string rulesPath;
  /// Learn rules into `rulesPath`.
  bool learn = true;
  /// Sizes of named dimensions: `n=1,h=8,t=4096`.
  std::string shapes;
  /// `--tirx-bind` entries of the baseline.
  std::vector<std::string> bindings;
  /// Measured results (JSON, docs/Agent.md) to learn regressions from.
  std::string feedbackPath;
  /// Worker threads (0: the machine's cores).
  unsigned jobs = 0;
  /// ptxas and nvlink to run; empty: found under $CUDA_HOME,
  /// /usr/local/cuda or on PATH.
  std::string ptxas, nvlink;
  /// The simulator samples loops longer than this many trips and
  /// extrapolates (LaunchOptions::maxTripCount; 0: only over its budget).
  int64_t simMaxTripCount = 16;
};

/// Runs the agent: writes the candidates and report.json to the output
/// directory, the table to \p out and progress to \p progress. Fails with a
/// located or named error for bad options or inputs, and with "No candidate
/// passes simulator" (plus each candidate's broken constraint and the nearest
/// miss) when every candidate is rejected.
llvm::Error runAgent(const AgentOptions &options, llvm::raw_ostream &out,
                     llvm::raw_ostream &progress);

} // namespace mlir::kda2

#endif // KDA2_AGENT_AGENT_H
