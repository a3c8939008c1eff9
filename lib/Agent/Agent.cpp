//===- Agent.cpp - The design agent: search, simulate, learn ----*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
//
// kda2-agent's library (docs/Agent.md). The run has four phases:
//
//  1. Baseline: the .tirx template imported with the baseline bindings
//     (through the frontend library) or the kda2 IR input, on the profile.
//  2. Search: knobs are discovered on the baseline (searchable bindings it
//     binds, annotation switches whose sites exist in its IR). Each depth
//     level applies one rewrite to every survivor of the previous level: a
//     binding rewrite re-imports the template, a switch rewrite clones the
//     parent module and edits loop annotations in place. Rules (the
//     profile's built-in ones and the rule base's) prune (`avoid`) or rank
//     (`prefer`) the children; the beam keeps --candidate-count of them.
//     Candidates are the baseline plus the best-ranked children of all
//     levels, each a module with its choices in `kda2.config`.
//  3. Evaluation on a thread pool, in three phases. (a) Per candidate, in
//     its own MLIRContext (parsed from the candidate's printed IR, so what
//     is evaluated is exactly candidate_N.mlir): convert-kda2-to-gpu (kept
//     for the simulator), kernel fingerprints; the kernels of candidates
//     that may share one printed alone in a module each. (b) The compile
//     cache: per kernel that several candidates hold, once for all of them,
//     and per candidate that shares none, the rest of
//     kda2-lower-to-nvvm-pipeline to PTX and ptxas (a linkable cubin for
//     candidates of several kernels). (c) Per candidate: its PTX and cubin
//     from its kernels' (nvlink links several), the Simulator for every kernel the launch runs (shape variants
//     resolved) with ptxas's register counts, then the hard constraints.
//  4. Report and feedback: ranking, report.json, the table, rules learned
//     from rejections and measured regressions, saved atomically.
//
// Everything the agent decides is derived from its inputs in a fixed order,
// so two runs with the same inputs write the same report (except timings).
//
//===----------------------------------------------------------------------===//

#include "kda2/Agent/Agent.h"

#include "kda2/Agent/HardwareProfile.h"
#include "kda2/Agent/Simulator.h"
#include "kda2/Conversion/Passes.h"
#include "kda2/Dialect/KDA2/IR/KDA2.h"
#include "kda2/Frontend/TIRx/ImportTIRx.h"
#include "kda2/InitAll.h"
#include "kda2/Runtime/Module.h"
#include "kda2/Target/PTX.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <set>

#define DEBUG_TYPE "kda2-agent"

using namespace mlir;
using namespace mlir::kda2;
namespace json = llvm::json;
namespace rt = ::kda2::runtime;

/// L2 bandwidth utilisation above which a candidate is rejected: past it the
/// L2 queues, and the simulator's bandwidth bound stops being trustworthy.
static constexpr double kMaxL2Utilisation = 0.92;

static llvm::Error makeError(const Twine &message) {
  return llvm::createStringError(message.str());
}

//===----------------------------------------------------------------------===//
// Configurations
//===----------------------------------------------------------------------===//

std::string mlir::kda2::configFact(StringRef key, int64_t value) {
  return (key + "=" + Twine(value)).str();
}

std::string mlir::kda2::switchFact(StringRef key, bool on) {
  return (key + "=" + (on ? "on" : "off")).str();
}

std::vector<std::string> AgentConfig::facts() const {
  std::vector<std::string> out;
  for (const auto &[key, value] : bindings)
    out.push_back(configFact(key, value));
  for (const auto &[key, value] : otherBindings)
    out.push_back(key + "=" + value);
  for (const auto &[key, on] : switches) {
    out.push_back(switchFact(key, on));
    // rules.yaml's vocabulary for a pragma that is present.
    if (on && (key == "tma_pipeline" || key == "l2_prefetch"))
      out.push_back("pragma:" + key);
  }
  llvm::sort(out);
  return out;
}

std::string AgentConfig::bindString() const {
  std::vector<std::string> entries;
  for (const auto &[key, value] : bindings)
    entries.push_back(configFact(key, value));
  for (const auto &[key, value] : otherBindings)
    entries.push_back(key + "=" + value);
  llvm::sort(entries);
  return llvm::join(entries, ",");
}

std::string AgentConfig::summary() const {
  std::vector<std::string> parts;
  for (const auto &[key, value] : bindings)
    parts.push_back(configFact(key, value));
  for (const auto &[key, on] : switches)
    parts.push_back(switchFact(key, on));
  return llvm::join(parts, " ");
}

double ConstraintResult::excess() const {
  if (name == "valid")
    return std::numeric_limits<double>::infinity();
  return limit > 0 ? value / limit - 1 : value;
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

/// A number as rules print it: 240000, 0.95, 148.4.
static std::string num(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.6g", value);
  return text;
}

/// Bindings that follow from others and so say nothing on their own.
static bool isDerivedBinding(StringRef name) { return name == "NVB"; }

std::optional<Rule> mlir::kda2::ruleFromRejection(
    const AgentConfig &config, StringRef lastRewrite,
    const ConstraintResult &constraint, StringRef profile,
    StringRef templateName, ArrayRef<std::string> shapeFacts,
    StringRef candidateName) {
  // The baseline has no rewrite to avoid; the latency target and the memory
  // budget are properties of the request, not of the configuration on this
  // hardware, so a rule would misfire on the next request.
  if (constraint.ok || lastRewrite.empty() ||
      constraint.name == "latency_target" || constraint.name == "memory_budget")
    return std::nullopt;
  std::set<std::string> condition;
  if (!templateName.empty())
    condition.insert("template:" + templateName.str());
  // The sizes decide the resources; the annotation switches only through the
  // rewrite itself.
  for (const auto &[key, value] : config.bindings)
    if (!isDerivedBinding(key))
      condition.insert(configFact(key, value));
  condition.insert(lastRewrite.str());
  if (constraint.name == "l2_bandwidth")
    condition.insert(shapeFacts.begin(), shapeFacts.end());

  Rule rule;
  rule.hw = profile.str();
  if (constraint.name == "valid")
    rule.trigger = "candidate invalid: " +
                   StringRef(constraint.detail).split('\n').first.str();
  else
    rule.trigger = llvm::formatv("{0} {1} {2} > {3} {2}", constraint.name,
                                 num(constraint.value), constraint.unit,
                                 num(constraint.limit))
                       .str();
  rule.condition = llvm::join(condition, " and ");
  rule.action = ("avoid(" + lastRewrite + ")").str();
  rule.evidence = llvm::formatv("{0} ({1}): {2}", candidateName,
                                config.summary(), rule.trigger)
                      .str();
  rule.source = RuleSource::Simulator;
  rule.confidence = RuleConfidence::Experimental;
  return rule;
}

std::vector<Rule>
mlir::kda2::rulesFromRegressions(ArrayRef<MeasuredCandidate> runs,
                                 StringRef profile, StringRef templateName,
                                 double margin) {
  std::vector<Rule> rules;
  for (const MeasuredCandidate &a : runs)
    for (const MeasuredCandidate &b : runs) {
      // The simulator ranked a above b, the measurement says the opposite.
      if (!(a.predictedMicros < b.predictedMicros) ||
          !(a.measuredMs > b.measuredMs * (1 + margin)))
        continue;
      std::vector<std::string> factsA = a.config.facts();
      std::vector<std::string> factsB = b.config.facts();
      // The first choice where b differs from a: what made b faster.
      auto differs = llvm::find_if(factsB, [&](const std::string &fact) {
        return !llvm::is_contained(factsA, fact) &&
               !StringRef(fact).starts_with("pragma:");
      });
      if (differs == factsB.end())
        continue;
      std::set<std::string> condition;
      if (!templateName.empty())
        condition.insert("template:" + templateName.str());
      // Where the comparison holds: the sizes both share.
      for (const auto &[key, value] : a.config.bindings)
        if (!isDerivedBinding(key) && b.config.bindings.count(key) &&
            b.config.bindings.at(key) == value)
          condition.insert(configFact(key, value));
      if (condition.empty())
        continue;
      Rule rule;
      rule.hw = profile.str();
      rule.trigger = llvm::formatv("measured regression: predicted {0} "
                                   "faster than {1}, measured {2} ms > {3} ms",
                                   a.name, b.name, num(a.measuredMs),
                                   num(b.measuredMs))
                         .str();
      rule.condition = llvm::join(condition, " and ");
      rule.action = "prefer(" + *differs + ")";
      rule.evidence =
          llvm::formatv("{0} ({1}): predicted {2} us, measured {3} ms; {4} "
                        "({5}): predicted {6} us, measured {7} ms",
                        a.name, a.config.summary(), num(a.predictedMicros),
                        num(a.measuredMs), b.name, b.config.summary(),
                        num(b.predictedMicros), num(b.measuredMs))
              .str();
      rule.source = RuleSource::Measured;
      rule.confidence = RuleConfidence::Experimental;
      rules.push_back(std::move(rule));
    }
  return rules;
}

bool mlir::kda2::isAgentAction(const Rule &rule) {
  std::string name = rule.actionName();
  return (name == "avoid" || name == "prefer" || name == "drop_pragma") &&
         rule.actionArgs().size() == 1;
}

RuleVerdict mlir::kda2::judge(ArrayRef<const Rule *> rules,
                              ArrayRef<std::string> facts) {
  RuleVerdict verdict;
  for (const Rule *rule : rules) {
    if (!isAgentAction(*rule))
      continue;
    if (!llvm::all_of(rule->conditionFacts(), [&](const std::string &fact) {
          return llvm::is_contained(facts, fact);
        }))
      continue;
    std::string name = rule->actionName();
    std::string arg = rule->actionArgs().front();
    if (name == "drop_pragma")
      arg = switchFact(arg, true);
    if (!llvm::is_contained(facts, arg))
      continue;
    verdict.fired.push_back(rule->id);
    if (name == "prefer")
      verdict.preference +=
          rule->confidence == RuleConfidence::Confirmed ? 2 : 1;
    else if (!verdict.avoidedBy)
      verdict.avoidedBy = rule;
  }
  return verdict;
}

/// The profile's built-in rules: what the datasheet alone says about the
/// search. Facts `profile:tma` / `profile:no_tma` and `grid:underfilled`
/// (fewer programs than SMs at the requested shapes) are added to every
/// candidate's facts by the agent.
static std::vector<Rule> profileRules(const HardwareProfile &profile) {
  auto make = [&](StringRef id, StringRef trigger, StringRef condition,
                  StringRef action) {
    Rule rule;
    rule.id = id.str();
    rule.hw = profile.name;
    rule.trigger = trigger.str();
    rule.condition = condition.str();
    rule.action = action.str();
    rule.evidence = "hardware profile " + profile.name;
    rule.confidence = RuleConfidence::Confirmed;
    rule.source = RuleSource::Seed;
    return rule;
  };
  std::vector<Rule> rules;
  if (profile.tma)
    rules.push_back(make("profile.tma-pipeline",
                         "TMA copies overlap the next iteration's loads",
                         "profile:tma", "prefer(tma_pipeline=on)"));
  else
    rules.push_back(make("profile.no-tma", "the profile has no TMA",
                         "profile:no_tma", "avoid(tma_pipeline=on)"));
  rules.push_back(make("profile.underfilled-vsplit",
                       "fewer programs than SMs: split the value columns",
                       "grid:underfilled", "prefer(VB=16)"));
  return rules;
}

//===----------------------------------------------------------------------===//
// Option parsing
//===----------------------------------------------------------------------===//

/// Parses `n=1,h=8,t=4096`.
static llvm::Expected<std::map<std::string, int64_t>>
parseShapes(StringRef text) {
  std::map<std::string, int64_t> shapes;
  SmallVector<StringRef> entries;
  text.split(entries, ',', -1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    auto [name, value] = entry.split('=');
    int64_t size;
    name = name.trim();
    if (name.empty() || value.trim().getAsInteger(10, size) || size <= 0 ||
        !llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
      return makeError("error: bad --shapes entry '" + entry +
                       "': expected name=size with a positive integer size "
                       "(e.g. --shapes=n=1,h=8,t=4096)");
    shapes[name.str()] = size;
  }
  return shapes;
}

/// The sizes a candidate is simulated at: the requested ones plus the
/// dimensions the KDA templates derive from them (docs/Agent.md). Requested
/// sizes always win.
static std::map<std::string, int64_t>
deriveSizes(const std::map<std::string, int64_t> &shapes,
            const AgentConfig &config) {
  std::map<std::string, int64_t> sizes = shapes;
  auto known = [&](StringRef name) -> std::optional<int64_t> {
    if (auto it = sizes.find(name.str()); it != sizes.end())
      return it->second;
    return std::nullopt;
  };
  auto binding = [&](StringRef name) -> std::optional<int64_t> {
    if (auto it = config.bindings.find(name.str());
        it != config.bindings.end())
      return it->second;
    return std::nullopt;
  };
  auto t = known("t"), n = known("n");
  // Chunks of C tokens per sequence (the checkpoint table's columns).
  if (auto c = binding("C"); c && t && !known("nc"))
    sizes["nc"] = (*t + *c - 1) / *c;
  // The packed (varlen) batch: all tokens, and cu_seqlens' n + 1 entries.
  if (n && t && !known("tt"))
    sizes["tt"] = *n * *t;
  if (n && !known("np1"))
    sizes["np1"] = *n + 1;
  // The prefill's chunk slots (kda_chunk_split.tirx): floor(tt / C) + n.
  if (auto c = binding("C"), tt = known("tt"); c && tt && n && !known("ns"))
    sizes["ns"] = *tt / *c + *n;
  // Checkpoints at token offsets (the prefill's ckpt_offsets [n, m]): none
  // unless given (m = 0), and their per-(sequence, offset) buffers nm = n·m.
  if (!known("m"))
    sizes["m"] = 0;
  if (auto m = known("m"); m && n && !known("nm"))
    sizes["nm"] = *n * *m;
  // The q/k heads of grouped value heads (kda_chunk_split's prep): h, no
  // grouping, unless given.
  if (auto h = known("h"); h && !known("hqk"))
    sizes["hqk"] = *h;
  return sizes;
}

//===----------------------------------------------------------------------===//
// Knobs and IR rewrites
//===----------------------------------------------------------------------===//

namespace {
/// An annotation the search switches on and off.
enum class SwitchKind {
  TmaPipeline,
  L2Prefetch,
  BankConflictFree,
  WarpReduce,
  Wgmma
};

/// A loop by position: the kernel's name and the loop's preorder index among
/// the kernel's loops. Binding changes re-import the template, which keeps
/// the loop structure, so positions found on the baseline name the same
/// loops in every candidate.
struct LoopSite {
  std::string kernel;
  unsigned index;
};

/// One dimension of the search.
struct Knob {
  std::string name;
  /// Binding values, or {0, 1} for a switch.
  std::vector<int64_t> values;
  std::optional<SwitchKind> kind;
  /// Switch: where "on" puts the annotation.
  std::vector<LoopSite> sites;
};
} // namespace

static StringRef switchName(SwitchKind kind) {
  switch (kind) {
  case SwitchKind::TmaPipeline:
    return "tma_pipeline";
  case SwitchKind::L2Prefetch:
    return "l2_prefetch";
  case SwitchKind::BankConflictFree:
    return "bank_conflict_free";
  case SwitchKind::WarpReduce:
    return "warp_reduce";
  case SwitchKind::Wgmma:
    return "wgmma";
  }
  return "";
}

static bool isAnnotation(Attribute attr, SwitchKind kind) {
  switch (kind) {
  case SwitchKind::TmaPipeline:
  case SwitchKind::L2Prefetch: {
    auto pragma = dyn_cast<PragmaAttr>(attr);
    return pragma && pragma.getKind() == (kind == SwitchKind::TmaPipeline
                                              ? PragmaKind::tma_pipeline
                                              : PragmaKind::l2_prefetch);
  }
  case SwitchKind::BankConflictFree:
    return isa<BankConflictFreeAttr>(attr);
  case SwitchKind::WarpReduce:
    return isa<WarpReduceAttr>(attr);
  case SwitchKind::Wgmma: {
    auto pragma = dyn_cast<PragmaAttr>(attr);
    return pragma && pragma.getKind() == PragmaKind::wgmma;
  }
  }
  return false;
}

static Attribute makeAnnotation(MLIRContext *context, SwitchKind kind) {
  switch (kind) {
  case SwitchKind::TmaPipeline:
    return PragmaAttr::get(context, PragmaKind::tma_pipeline);
  case SwitchKind::L2Prefetch:
    return PragmaAttr::get(context, PragmaKind::l2_prefetch);
  case SwitchKind::BankConflictFree:
    return BankConflictFreeAttr::get(context);
  case SwitchKind::WarpReduce:
    return WarpReduceAttr::get(context);
  case SwitchKind::Wgmma:
    return PragmaAttr::get(context, PragmaKind::wgmma);
  }
  return {};
}

static bool hasAnnotation(LoopOp loop, SwitchKind kind) {
  ArrayAttr annotations = loop.getAnnotationsAttr();
  return annotations && llvm::any_of(annotations, [&](Attribute attr) {
           return isAnnotation(attr, kind);
         });
}

static bool isGlobal(Value tensor) {
  auto type = dyn_cast<KDA2TensorType>(tensor.getType());
  return type && type.getMemorySpace() == MemorySpace::gmem;
}

/// A whole-tile copy from global memory (what tma_coalesce turns into TMA):
/// a kda2.store of a tile kda2.load-ed from a global tensor.
static bool isTileCopyFromGlobal(Operation &op) {
  auto store = dyn_cast<StoreOp>(op);
  if (!store)
    return false;
  auto load = store.getValue().getDefiningOp<LoadOp>();
  return load && isa<RankedTensorType>(load.getType()) &&
         isGlobal(load.getSource());
}

/// Loops of \p kernel in preorder.
static SmallVector<LoopOp> loopsOf(KernelOp kernel) {
  SmallVector<LoopOp> loops;
  kernel.walk<WalkOrder::PreOrder>([&](LoopOp loop) { loops.push_back(loop); });
  return loops;
}

/// Where switching \p kind on puts its annotation: the loops that carry it
/// in the baseline, else the loops the lowering applies it to.
static std::vector<LoopSite> findSites(ModuleOp module, SwitchKind kind) {
  std::vector<LoopSite> carrying, candidates;
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    bool hasSmem = !kernel.getOps<SmemAllocOp>().empty();
    for (auto [index, loop] : llvm::enumerate(loopsOf(kernel))) {
      LoopSite site{kernel.getSymName().str(), static_cast<unsigned>(index)};
      if (hasAnnotation(loop, kind))
        carrying.push_back(site);
      bool serial = loop.getMapping() == LoopMapping::serial;
      auto parentLoop = loop->getParentOfType<LoopOp>();
      bool directTileCopy = llvm::any_of(
          loop.getBodyBlock()->getOperations(), isTileCopyFromGlobal);
      bool site_ = false;
      switch (kind) {
      case SwitchKind::TmaPipeline: {
        // A serial loop whose whole-tile loads sit under tma_coalesce.
        bool underCoalesce = false;
        for (auto p = parentLoop; p; p = p->getParentOfType<LoopOp>())
          if (llvm::any_of(p.getAnnotationsAttr()
                               ? p.getAnnotationsAttr().getValue()
                               : ArrayRef<Attribute>(),
                           [](Attribute a) {
                             auto pragma = dyn_cast<PragmaAttr>(a);
                             return pragma && pragma.getKind() ==
                                                  PragmaKind::tma_coalesce;
                           }))
            underCoalesce = true;
        site_ = serial && underCoalesce && directTileCopy;
        break;
      }
      case SwitchKind::L2Prefetch:
        // A serial loop reading global memory in its own body.
        site_ = serial && llvm::any_of(loop.getBodyBlock()->getOperations(),
                                       [](Operation &op) {
                                         auto load = dyn_cast<LoadOp>(op);
                                         return load &&
                                                isGlobal(load.getSource());
                                       });
        break;
      case SwitchKind::BankConflictFree:
        // The outermost loop of a kernel with shared buffers.
        site_ = hasSmem && !parentLoop;
        break;
      case SwitchKind::WarpReduce: {
        // The outermost loop holding a reduction.
        bool reduces = false;
        loop.walk([&](ReduceOp) { reduces = true; });
        site_ = reduces && !parentLoop;
        break;
      }
      case SwitchKind::Wgmma:
        // A loop whose own body holds a product into an mma register tile
        // of whole warpgroups' rows (64 per warpgroup).
        site_ = llvm::any_of(
            loop.getBodyBlock()->getOperations(), [](Operation &op) {
              auto matmul = dyn_cast<MatmulOp>(op);
              if (!matmul)
                return false;
              for (Operation *user : matmul->getUsers())
                if (auto store = dyn_cast<StoreOp>(user))
                  if (auto alloc = store.getDest().getDefiningOp<RegAllocOp>();
                      alloc && alloc.getMma()) {
                    auto type = cast<KDA2TensorType>(alloc.getType());
                    return type.getRank() == 2 && type.getShape()[0] % 64 == 0;
                  }
              return false;
            });
        break;
      }
      if (site_)
        candidates.push_back(site);
    }
  }
  return carrying.empty() ? candidates : carrying;
}

/// Sets switch \p kind on \p module: on adds the annotation at \p sites, off
/// removes it from every loop. Edits go through a rewriter, in place.
static void applySwitch(ModuleOp module, SwitchKind kind, bool on,
                        ArrayRef<LoopSite> sites) {
  IRRewriter rewriter(module.getContext());
  Attribute annotation = makeAnnotation(module.getContext(), kind);
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    for (auto [index, loop] : llvm::enumerate(loopsOf(kernel))) {
      SmallVector<Attribute> annotations;
      if (ArrayAttr existing = loop.getAnnotationsAttr())
        llvm::append_range(annotations, existing.getValue());
      bool isSite = llvm::any_of(sites, [&](const LoopSite &site) {
        return site.kernel == kernel.getSymName() && site.index == index;
      });
      bool has = hasAnnotation(loop, kind);
      if (on && isSite && !has)
        annotations.push_back(annotation);
      else if (!on && has)
        // (A TMA pipeline's own annotations go with it.)
        llvm::erase_if(annotations, [&](Attribute a) {
          return isAnnotation(a, kind) ||
                 (kind == SwitchKind::TmaPipeline &&
                  isa<PipelineStagesAttr, ProducerWarpAttr>(a));
        });
      else
        continue;
      rewriter.modifyOpInPlace(loop, [&] {
        loop.setAnnotationsAttr(
            annotations.empty() ? ArrayAttr()
                                : ArrayAttr::get(module.getContext(),
                                                 annotations));
      });
    }
  }
}

/// Values a searchable binding may take (docs/Agent.md): the chunk size of
/// the prefill templates, the value block of the V-split templates (NVB =
/// V / VB follows), the lanes per value column of the decode split.
static std::vector<int64_t> bindingDomain(StringRef name) {
  if (name == "C")
    return {16, 32};
  if (name == "VB")
    return {8, 16, 32, 64};
  if (name == "LANES")
    return {2, 4, 8};
  return {};
}

static std::vector<Knob> discoverKnobs(ModuleOp baseline,
                                       const AgentConfig &config,
                                       StringRef arch) {
  std::vector<Knob> knobs;
  for (StringRef name : {"C", "VB", "LANES"}) {
    auto it = config.bindings.find(name.str());
    if (it == config.bindings.end())
      continue;
    std::vector<int64_t> values = bindingDomain(name);
    auto v = config.bindings.find("V");
    if (name == "VB" && v != config.bindings.end())
      llvm::erase_if(values, [&](int64_t vb) {
        return vb > v->second || v->second % vb != 0;
      });
    if (!llvm::is_contained(values, it->second))
      values.push_back(it->second);
    llvm::sort(values);
    if (values.size() > 1)
      knobs.push_back({name.str(), values, std::nullopt, {}});
  }
  for (SwitchKind kind :
       {SwitchKind::TmaPipeline, SwitchKind::L2Prefetch,
        SwitchKind::BankConflictFree, SwitchKind::WarpReduce,
        SwitchKind::Wgmma}) {
    if (kind == SwitchKind::Wgmma && arch != "sm_90a")
      continue; // the chip has no wgmma
    std::vector<LoopSite> sites = findSites(baseline, kind);
    if (!sites.empty())
      knobs.push_back({switchName(kind).str(), {0, 1}, kind, sites});
  }
  return knobs;
}

/// The switch values of \p module (on when any loop carries it).
static void readSwitches(ModuleOp module, ArrayRef<Knob> knobs,
                         AgentConfig &config) {
  for (const Knob &knob : knobs) {
    if (!knob.kind)
      continue;
    bool on = false;
    module.walk([&](LoopOp loop) { on |= hasAnnotation(loop, *knob.kind); });
    config.switches[knob.name] = on;
  }
}

/// Records \p config on \p module as `kda2.config`.
static void setConfigAttr(ModuleOp module, const AgentConfig &config) {
  MLIRContext *context = module.getContext();
  Builder b(context);
  SmallVector<NamedAttribute> entries;
  for (const auto &[key, value] : config.bindings)
    entries.push_back(b.getNamedAttr(key, b.getI64IntegerAttr(value)));
  for (const auto &[key, value] : config.otherBindings)
    entries.push_back(b.getNamedAttr(key, b.getStringAttr(value)));
  for (const auto &[key, on] : config.switches)
    entries.push_back(b.getNamedAttr(key, b.getBoolAttr(on)));
  module->setAttr("kda2.config", b.getDictionaryAttr(entries));
}

//===----------------------------------------------------------------------===//
// Contexts and diagnostics
//===----------------------------------------------------------------------===//

namespace {
/// Collects a context's diagnostics as text instead of printing them.
struct DiagnosticCollector {
  explicit DiagnosticCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          std::string text;
          llvm::raw_string_ostream os(text);
          if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
            os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
               << loc.getColumn() << ": ";
          os << diag;
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            errors.push_back(text);
          else if (diag.getSeverity() == DiagnosticSeverity::Warning)
            warnings.push_back(text);
          return success();
        }) {}
  std::string firstError() const {
    return errors.empty() ? std::string("failed without a diagnostic")
                          : errors.front();
  }
  void clear() {
    errors.clear();
    warnings.clear();
  }
  std::vector<std::string> errors, warnings;
  ScopedDiagnosticHandler handler;
};
} // namespace

/// A context with everything the agent parses, creates and lowers.
static std::unique_ptr<MLIRContext> makeContext(StringRef profileFile) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerGPUBackendDialects(registry);
  auto context = std::make_unique<MLIRContext>(
      registry, MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
  if (!profileFile.empty())
    // Errors were reported when the agent loaded the file itself.
    llvm::consumeError(context->getOrLoadDialect<KDA2Dialect>()
                           ->getProfiles()
                           .addFromFile(profileFile));
  return context;
}

//===----------------------------------------------------------------------===//
// Candidates
//===----------------------------------------------------------------------===//

namespace {
/// One kernel's simulated figures.
struct KernelResult {
  std::string name;
  SimulationReport report;
  bool registersFromPtxas = false;
};

/// A configuration the search produced, before and after evaluation.
struct Candidate {
  AgentConfig config;
  unsigned depth = 0;
  /// The rewrites from the baseline, in order (`VB=16`, `tma_pipeline=off`).
  std::vector<std::string> rewrites;
  RuleVerdict verdict;
  /// Order of generation (ties).
  unsigned order = 0;
  /// The module (null when it failed to import or verify).
  OwningOpRef<ModuleOp> module;
  std::string invalid;

  // Evaluation.
  std::string name;
  std::string irText;
  /// Between the evaluation phases: the candidate's own context, its
  /// diagnostics, the module after convert-kda2-to-gpu (the simulator's
  /// input), its kernels (for the compile cache) and their entries in the
  /// cache, in module order. Released when the candidate is evaluated.
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<DiagnosticCollector> diagnostics;
  OwningOpRef<ModuleOp> lowered;
  struct Kernel {
    std::string name;
    /// kernelFingerprint, and the number of operations (the cost).
    uint64_t fingerprint = 0;
    size_t operations = 0;
    /// Its module alone, printed (the cache's key); only for candidates
    /// that may share a kernel.
    std::string text;
  };
  std::vector<Kernel> kernelKeys;
  std::vector<unsigned> kernelIds;
  std::vector<ConstraintResult> constraints;
  std::vector<KernelResult> kernels;
  std::vector<std::string> notes;
  double predictedMicros = 0;
  double globalBytes = 0;
  bool hasPtx = false, hasCubin = false;
  int rank = 0;
  bool missingShape = false;

  bool passed() const {
    return llvm::all_of(constraints,
                        [](const ConstraintResult &c) { return c.ok; }) &&
           !constraints.empty();
  }
  const ConstraintResult *firstFailure() const {
    for (const ConstraintResult &c : constraints)
      if (!c.ok)
        return &c;
    return nullptr;
  }
};

/// Everything an evaluation task needs, shared read-only.
struct EvalContext {
  const HardwareProfile *profile;
  std::string profileFile;
  std::map<std::string, int64_t> shapes;
  double latencyTargetMicros = 0;
  double memoryBudgetBytes = 0;
  int64_t maxTripCount = 0;
  std::string outputDir;
  bool ptxas = false, nvlink = false;
  PTXOptions ptxOptions;
  std::mutex *progressMutex;
  llvm::raw_ostream *progress;
};

/// One task of the compile cache: the rest of kda2-lower-to-nvvm-pipeline
/// and ptxas, run once for every candidate holding its code. Either a kernel
/// that several candidates hold (the key is its module after
/// convert-kda2-to-gpu alone with its symbols, splitKernels, printed; the
/// chip and the options are the run's), or a candidate none of whose
/// kernels another candidate holds, compiled whole as kda2-translate would
/// (no link step).
struct CompiledKernel {
  /// The kernel's name, or the candidate's for a whole candidate.
  std::string name;
  /// A kernel: its printed module (the key).
  std::string text;
  /// A whole candidate: the candidate (its lowered module, its context and
  /// diagnostics, unused by other tasks in this phase).
  Candidate *whole = nullptr;
  /// What the candidates need: a loadable cubin (a candidate of this code
  /// alone) and/or a linkable one (a candidate of several kernels).
  bool needExecutable = false, needLinkable = false;

  /// The first failure: the stage (`PTX`, `ptxas`) and the diagnostic.
  std::string failedStage, error;
  std::string ptx, executable, linkable;
  SmallVector<KernelResources> resources;
  /// Warnings of the lowering and of ptxas (spills).
  std::vector<std::string> warnings;
};
} // namespace

/// Writes \p contents to \p dir / \p name.
static llvm::Error writeOutput(StringRef dir, StringRef name,
                               StringRef contents) {
  SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError("error: cannot write '" + path + "': " + ec.message());
  os << contents;
  return llvm::Error::success();
}

static double roundTo(double value, double unit) {
  return std::round(value / unit) * unit;
}

/// Prints a progress line about \p candidate.
static void progressLine(const Candidate &candidate, const EvalContext &ec,
                         const Twine &line) {
  std::lock_guard<std::mutex> lock(*ec.progressMutex);
  *ec.progress << "kda2-agent: " << candidate.name << ": " << line << "\n";
  ec.progress->flush();
}

/// Rejects \p candidate as invalid at \p stage and frees its evaluation
/// state.
static void rejectInvalid(Candidate &candidate, const EvalContext &ec,
                          StringRef stage, StringRef message) {
  ConstraintResult c;
  c.name = "valid";
  c.ok = false;
  c.detail = (stage + ": " + message).str();
  candidate.constraints = {c};
  progressLine(candidate, ec,
               "rejected (" + c.detail.substr(0, c.detail.find('\n')) + ")");
  candidate.lowered = nullptr;
  candidate.diagnostics.reset();
  candidate.context.reset();
}

/// A fingerprint of \p kernel's structure: its name and, in walk order, the
/// name of each operation with its numbers of operands, results, regions and
/// successors and its integer attributes (the constants). Kernels that print
/// the same have the same fingerprint, so a kernel whose fingerprint no other
/// candidate has is known to be unique without printing it (attributes are
/// uniqued per context, so only their values can be compared across
/// candidates). \p operations counts the operations.
static uint64_t kernelFingerprint(gpu::GPUFuncOp kernel, size_t &operations) {
  llvm::hash_code hash = llvm::hash_value(kernel.getName());
  operations = 0;
  kernel->walk<WalkOrder::PreOrder>([&](Operation *op) {
    ++operations;
    hash = llvm::hash_combine(hash, op->getName().getStringRef(),
                              op->getNumOperands(), op->getNumResults(),
                              op->getNumRegions(), op->getNumSuccessors());
    for (NamedAttribute attr : op->getAttrs())
      if (auto value = dyn_cast<IntegerAttr>(attr.getValue()))
        hash = llvm::hash_combine(hash, attr.getName().getValue(),
                                  llvm::hash_value(value.getValue()));
  });
  return static_cast<uint64_t>(static_cast<size_t>(hash));
}

/// Evaluation, phase 1 (one task per candidate): parses the candidate in its
/// own context, runs convert-kda2-to-gpu (the simulator's input, kept) and
/// takes its kernels' fingerprints.
static void lowerCandidate(Candidate &candidate, const EvalContext &ec) {
  if (!candidate.invalid.empty())
    return rejectInvalid(candidate, ec, "invalid IR", candidate.invalid);
  candidate.context = makeContext(ec.profileFile);
  candidate.diagnostics =
      std::make_unique<DiagnosticCollector>(candidate.context.get());
  DiagnosticCollector &diagnostics = *candidate.diagnostics;
  // Located in candidate_N.mlir, the file written with the same text.
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      candidate.irText, candidate.context.get(), candidate.name + ".mlir");
  if (!module)
    return rejectInvalid(candidate, ec, "parse", diagnostics.firstError());

  // The simulator's input: the first stage of kda2-lower-to-nvvm-pipeline;
  // the rest of the pipeline runs on its kernels (compileKernel).
  PassManager pm(candidate.context.get());
  ConvertKDA2ToGPUPassOptions lowering;
  lowering.chip = ec.profile->arch;
  pm.addPass(createConvertKDA2ToGPUPass(lowering));
  if (failed(pm.run(*module))) {
    // The module lives in the candidate's context, which rejectInvalid
    // destroys: release it first.
    std::string error = diagnostics.firstError();
    module = nullptr;
    return rejectInvalid(candidate, ec, "convert-kda2-to-gpu", error);
  }
  module->walk([&](gpu::GPUFuncOp func) {
    if (!func.isKernel())
      return;
    Candidate::Kernel &kernel = candidate.kernelKeys.emplace_back();
    kernel.name = func.getName().str();
    kernel.fingerprint = kernelFingerprint(func, kernel.operations);
  });
  candidate.lowered = std::move(module);
}

/// Evaluation, phase 1b (one task per candidate with a kernel whose
/// fingerprint another candidate has): prints each kernel alone in a module
/// (splitKernels), the compile cache's keys.
static void printKernels(Candidate &candidate, const EvalContext &ec) {
  FailureOr<SmallVector<KernelModule>> pieces =
      splitKernels(*candidate.lowered);
  if (failed(pieces))
    return rejectInvalid(candidate, ec, "PTX",
                         candidate.diagnostics->firstError());
  for (auto [piece, kernel] : llvm::zip(*pieces, candidate.kernelKeys)) {
    // The candidate's choices are no input of the back end: without them a
    // kernel that two candidates share prints the same.
    (*piece.module)->removeAttr("kda2.config");
    llvm::raw_string_ostream os(kernel.text);
    piece.module->print(os);
  }
}

/// Evaluation, phase 2 (one task per compile cache entry): the rest of
/// kda2-lower-to-nvvm-pipeline on the entry's module to PTX, then ptxas for
/// the cubins the candidates need.
static void compileKernel(CompiledKernel &kernel, const EvalContext &ec) {
  // A kernel is parsed into a context of its own; a whole candidate is
  // compiled in its context, with its diagnostics (which keep the
  // warnings: evaluate adds them to the notes).
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<DiagnosticCollector> ownDiagnostics;
  OwningOpRef<ModuleOp> parsed;
  ModuleOp module;
  if (kernel.whole) {
    module = *kernel.whole->lowered;
  } else {
    context = makeContext(ec.profileFile);
    ownDiagnostics = std::make_unique<DiagnosticCollector>(context.get());
    parsed = parseSourceString<ModuleOp>(kernel.text, context.get());
    module = parsed.get();
  }
  DiagnosticCollector &diagnostics =
      kernel.whole ? *kernel.whole->diagnostics : *ownDiagnostics;
  auto fail = [&](StringRef stage) {
    kernel.failedStage = stage.str();
    kernel.error = (kernel.whole ? "" : "kernel '" + kernel.name + "': ") +
                   diagnostics.firstError();
  };
  if (!module)
    return fail("parse");
  FailureOr<std::string> ptx = compileGPUToPTX(module, ec.ptxOptions);
  if (failed(ptx))
    return fail("PTX");
  kernel.ptx = std::move(*ptx);
  // ptxas's errors on a kernel name it (`fail`), not a place in its
  // module's text, which is not written out; a candidate's are located in
  // candidate_N.mlir.
  Location loc =
      kernel.whole
          ? Location(module.getLoc())
          : Location(NameLoc::get(StringAttr::get(context.get(), kernel.name)));
  if (ec.ptxas && kernel.needExecutable) {
    FailureOr<std::string> cubin =
        assembleCubin(loc, kernel.ptx, ec.ptxOptions, &kernel.resources);
    if (failed(cubin))
      return fail("ptxas");
    kernel.executable = std::move(*cubin);
  }
  if (kernel.whole)
    return;
  // The diagnostics so far (the lowering's, one ptxas report); a second
  // assembly reports the same again.
  kernel.warnings = diagnostics.warnings;
  if (ec.ptxas && kernel.needLinkable) {
    SmallVector<KernelResources> resources;
    FailureOr<std::string> cubin = assembleCubin(
        loc, kernel.ptx, ec.ptxOptions, &resources, CubinKind::Linkable);
    if (failed(cubin))
      return fail("ptxas");
    kernel.linkable = std::move(*cubin);
    if (!kernel.needExecutable) {
      kernel.resources = std::move(resources);
      kernel.warnings = diagnostics.warnings;
    }
  }
}

/// Evaluation, phase 3 (one task per candidate): the candidate's PTX and
/// cubin from its entries' (one entry, a kernel or the whole candidate: its
/// cubin; several kernels: their linkable cubins linked by nvlink, or
/// without nvlink the joined PTX assembled whole), then simulation and the
/// hard constraints.
static void evaluate(Candidate &candidate, ArrayRef<CompiledKernel> compiled,
                     const EvalContext &ec) {
  if (!candidate.lowered)
    return;
  auto progress = [&](const Twine &line) { progressLine(candidate, ec, line); };
  auto invalid = [&](StringRef stage, StringRef message) {
    rejectInvalid(candidate, ec, stage, message);
  };
  // Frees the evaluation state however the candidate ends.
  llvm::scope_exit release([&] {
    candidate.lowered = nullptr;
    candidate.diagnostics.reset();
    candidate.context.reset();
  });
  DiagnosticCollector &diagnostics = *candidate.diagnostics;
  ModuleOp lowered = *candidate.lowered;
  std::vector<const CompiledKernel *> kernels;
  for (unsigned id : candidate.kernelIds) {
    const CompiledKernel &kernel = compiled[id];
    if (!kernel.failedStage.empty())
      return invalid(kernel.failedStage, kernel.error);
    kernels.push_back(&kernel);
  }

  // PTX and, with ptxas, the cubin and the register counts.
  std::string ptx;
  if (kernels.size() == 1) {
    ptx = kernels.front()->ptx;
  } else {
    std::vector<std::string> pieces;
    for (const CompiledKernel *kernel : kernels)
      pieces.push_back(kernel->ptx);
    ptx = combinePTX(pieces);
  }
  std::map<std::string, unsigned> registers;
  auto write = [&](StringRef ext, StringRef contents) {
    if (llvm::Error err =
            writeOutput(ec.outputDir, candidate.name + "." + ext.str(),
                        contents))
      candidate.notes.push_back(llvm::toString(std::move(err)));
  };
  write("ptx", ptx);
  candidate.hasPtx = true;
  if (ec.ptxas) {
    SmallVector<KernelResources> resources;
    FailureOr<std::string> cubin = failure();
    if (kernels.size() == 1) {
      cubin = kernels.front()->executable;
    } else if (ec.nvlink) {
      std::vector<std::string> linkable;
      for (const CompiledKernel *kernel : kernels)
        linkable.push_back(kernel->linkable);
      cubin = linkCubins(lowered.getLoc(), linkable, ec.ptxOptions);
      if (failed(cubin))
        return invalid("nvlink", diagnostics.firstError());
    } else {
      cubin = assembleCubin(lowered.getLoc(), ptx, ec.ptxOptions, &resources);
      if (failed(cubin))
        return invalid("ptxas", diagnostics.firstError());
    }
    write("cubin", *cubin);
    candidate.hasCubin = true;
    if (kernels.size() == 1 || ec.nvlink) {
      // ptxas reports a module's kernels last first: the same order here.
      for (const CompiledKernel *kernel : llvm::reverse(kernels))
        llvm::append_range(resources, kernel->resources);
    }
    for (const KernelResources &r : resources) {
      registers[r.kernel] = r.registers;
      if (r.spillStoreBytes)
        candidate.notes.push_back(llvm::formatv(
            "{0} spills {1} bytes", r.kernel, r.spillStoreBytes));
    }
  }
  for (const CompiledKernel *kernel : kernels)
    llvm::append_range(candidate.notes, kernel->warnings);
  for (const std::string &warning : diagnostics.warnings)
    candidate.notes.push_back(warning);
  diagnostics.clear();

  // The kernels a launch at these sizes runs: a kernel with a `variant`
  // matching the sizes runs the variant instead; variants run only so.
  std::map<std::string, int64_t> sizes =
      deriveSizes(ec.shapes, candidate.config);
  llvm::StringMap<rt::KernelInfo> infos;
  std::vector<gpu::GPUFuncOp> funcs;
  lowered->walk([&](gpu::GPUFuncOp func) {
    if (!func.isKernel())
      return;
    funcs.push_back(func);
    auto global = dyn_cast_or_null<LLVM::GlobalOp>(SymbolTable::lookupSymbolIn(
        func->getParentOp(),
        (rt::kMetadataSymbolPrefix + func.getName()).str()));
    auto text = global ? dyn_cast_or_null<StringAttr>(global.getValueOrNull())
                       : StringAttr();
    rt::KernelInfo info;
    if (text && rt::parseKernelMetadata(text.getValue().str(), info).ok())
      infos[func.getName()] = std::move(info);
  });
  std::set<std::string> variants, replaced;
  std::map<std::string, std::string> runs; // kernel -> what runs
  for (gpu::GPUFuncOp func : funcs) {
    auto it = infos.find(func.getName());
    if (it == infos.end())
      continue;
    for (const rt::VariantInfo &variant : it->second.variants) {
      variants.insert(variant.kernel);
      auto size = sizes.find(variant.dim);
      if (size != sizes.end() && size->second == variant.value)
        runs[func.getName().str()] = variant.kernel;
    }
  }

  // Memory: every distinct global tensor of the launched kernels.
  std::map<std::string, double> tensorBytes;
  for (auto &entry : infos) {
    for (const std::string &dim : entry.second.dimNames())
      if (!sizes.count(dim) && !variants.count(entry.first().str())) {
        candidate.missingShape = true;
        return invalid("shapes",
                       ("missing size of dimension '" + dim +
                        "' (used by kernel '" + entry.first() +
                        "'); pass it with --shapes=" + dim + "=<size>")
                           .str());
      }
    for (const rt::ArgInfo &arg : entry.second.args) {
      if (arg.kind != rt::ArgInfo::Ptr)
        continue;
      double bytes = rt::dtypeSize(arg.dtype);
      for (const rt::ShapeDim &dim : arg.shape) {
        int64_t extent = dim.kind == rt::ShapeDim::Static ? dim.size
                         : sizes.count(dim.name)          ? sizes[dim.name]
                                                          : 1;
        bytes *= (extent + dim.padTo - 1) / dim.padTo * dim.padTo;
      }
      tensorBytes[arg.name] = std::max(tensorBytes[arg.name], bytes);
    }
  }
  for (const auto &entry : tensorBytes)
    candidate.globalBytes += entry.second;

  // Simulate what runs.
  LaunchOptions launch;
  launch.maxTripCount = ec.maxTripCount;
  for (const auto &[name, size] : sizes)
    launch.sizes[name] = size;
  // A packed batch of n sequences of t tokens each: cu_seqlens = [0, t, 2t,
  // ..., nt], so the loops bounded by it run their real trip counts.
  std::vector<int64_t> cuSeqlens;
  if (sizes.count("n") && sizes.count("t"))
    for (int64_t i = 0; i <= sizes["n"]; ++i)
      cuSeqlens.push_back(i * sizes["t"]);
  uint64_t maxShared = 0;
  unsigned maxRegisterFootprint = 0, maxRegisters = 0;
  for (gpu::GPUFuncOp func : funcs) {
    std::string name = func.getName().str();
    if (variants.count(name))
      continue;
    gpu::GPUFuncOp target = func;
    if (auto it = runs.find(name); it != runs.end())
      for (gpu::GPUFuncOp other : funcs)
        if (other.getName() == it->second)
          target = other;
    KernelResult result;
    result.name = target.getName().str();
    launch.registersPerThread = 0;
    if (auto it = registers.find(result.name);
        it != registers.end() && it->second) {
      launch.registersPerThread = it->second;
      result.registersFromPtxas = true;
    }
    launch.data.clear();
    // Resources first: the simulator refuses launches that cannot run.
    if (auto info = infos.find(result.name); info != infos.end()) {
      if (!cuSeqlens.empty() && info->second.findArg("cu_seqlens"))
        launch.data["cu_seqlens"] = cuSeqlens;
      uint64_t smem = info->second.sharedBytes;
      maxShared = std::max(maxShared, smem);
      unsigned threads = info->second.block[0] * info->second.block[1] *
                         info->second.block[2];
      if (launch.registersPerThread) {
        maxRegisters = std::max(maxRegisters, launch.registersPerThread);
        maxRegisterFootprint = std::max(maxRegisterFootprint,
                                        launch.registersPerThread * threads);
      }
      if (smem > ec.profile->sharedMemoryPerBlockBytes() ||
          maxRegisterFootprint > ec.profile->registersPerSM)
        break;
    }
    Simulator simulator(target, *ec.profile);
    FailureOr<SimulationReport> report = simulator.run(launch);
    if (failed(report))
      return invalid("simulator", diagnostics.firstError());
    result.report = std::move(*report);
    candidate.predictedMicros += result.report.predictedMicros;
    for (const std::string &note : result.report.notes)
      candidate.notes.push_back(result.name + ": " + note);
    maxShared = std::max(maxShared, result.report.sharedBytesPerCTA);
    const SimulationReport &r = result.report;
    maxRegisters = std::max(maxRegisters, r.registersPerThread);
    maxRegisterFootprint = std::max<unsigned>(
        maxRegisterFootprint,
        r.registersPerThread * r.block[0] * r.block[1] * r.block[2]);
    candidate.kernels.push_back(std::move(result));
  }

  // The hard constraints, in a fixed order.
  auto check = [&](StringRef name, double value, double limit,
                   StringRef unit) {
    ConstraintResult c;
    c.name = name.str();
    c.value = value;
    c.limit = limit;
    c.unit = unit.str();
    c.ok = value <= limit;
    candidate.constraints.push_back(c);
  };
  candidate.constraints.push_back({"valid", true, 0, 0, "", ""});
  check("shared_memory", maxShared,
        ec.profile->sharedMemoryPerBlockBytes(), "B");
  check("registers", maxRegisterFootprint, ec.profile->registersPerSM,
        "registers/CTA");
  if (maxRegisters > ec.profile->maxRegistersPerThread)
    check("registers", maxRegisters, ec.profile->maxRegistersPerThread,
          "registers/thread");
  bool simulated = !candidate.kernels.empty() &&
                   llvm::all_of(candidate.constraints,
                                [](const ConstraintResult &c) { return c.ok; });
  double l2 = 0;
  for (const KernelResult &k : candidate.kernels)
    l2 = std::max(l2, k.report.l2Utilisation);
  if (simulated) {
    check("l2_bandwidth", roundTo(l2, 1e-4), kMaxL2Utilisation, "");
    check("memory_budget", candidate.globalBytes, ec.memoryBudgetBytes, "B");
    if (ec.latencyTargetMicros > 0)
      check("latency_target", roundTo(candidate.predictedMicros, 1e-3),
            ec.latencyTargetMicros, "us");
  }
  if (const ConstraintResult *failure = candidate.firstFailure())
    progress(llvm::formatv("rejected ({0} {1} > {2} {3})", failure->name,
                           failure->value, failure->limit, failure->unit));
  else
    progress(llvm::formatv("{0:F2} us predicted ({1} kernel(s){2})",
                           candidate.predictedMicros, candidate.kernels.size(),
                           candidate.hasCubin ? ", ptxas registers" : ""));
}

//===----------------------------------------------------------------------===//
// Search
//===----------------------------------------------------------------------===//

namespace {
/// The state of one agent run.
class Agent {
public:
  Agent(const AgentOptions &options, llvm::raw_ostream &out,
        llvm::raw_ostream &progress)
      : options(options), out(out), progress(progress) {}

  llvm::Error run();

private:
  llvm::Error setUp();
  llvm::Error loadBaseline();
  /// Imports the template with \p config's bindings (cached), applies its
  /// switches and verifies; sets `module` or `invalid`.
  void materializeFromTemplate(Candidate &candidate);
  /// Records the config on \p module, verifies it and stores it in
  /// \p candidate (or the verifier's message in `invalid`).
  void finish(Candidate &candidate, OwningOpRef<ModuleOp> module);
  /// The candidate's facts: its choices plus the run's context facts.
  std::vector<std::string> factsOf(const AgentConfig &config) const;
  void search();
  void evaluateAll();
  void rank();
  llvm::Error learn();
  llvm::Error learnFromFeedback(RuleBase &base);
  /// Adds \p rule to \p base and records its id.
  llvm::Error learnOne(RuleBase &base, Rule rule);
  json::Value report() const;
  void printTable() const;
  std::string knobSummary(const AgentConfig &config) const;
  llvm::Error noCandidatePasses() const;
  void say(const Twine &line) {
    std::lock_guard<std::mutex> lock(progressMutex);
    progress << "kda2-agent: " << line << "\n";
    progress.flush();
  }

  const AgentOptions &options;
  llvm::raw_ostream &out;
  llvm::raw_ostream &progress;
  std::mutex progressMutex;
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();

  ProfileRegistry profiles = ProfileRegistry::withBuiltins();
  std::string profileFile;
  const HardwareProfile *profile = nullptr;
  std::map<std::string, int64_t> shapes;
  RuleBase ruleBase;
  std::vector<Rule> builtinRules;
  /// Rules for this profile: built-in first, then the rule base's.
  std::vector<const Rule *> rules;
  std::vector<std::string> contextFacts;

  std::unique_ptr<MLIRContext> context;
  std::optional<DiagnosticCollector> diagnostics;
  bool isTemplate = false;
  std::string templateName;
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  /// Imported templates by binding string, and the errors of those that
  /// failed.
  std::map<std::string, OwningOpRef<ModuleOp>> imported;
  std::map<std::string, std::string> importErrors;
  std::vector<Knob> knobs;

  std::vector<Candidate> generated;
  /// Indices into `generated` of the candidates evaluated, in order.
  std::vector<unsigned> chosen;
  struct Pruned {
    AgentConfig config;
    std::string rule;
  };
  std::vector<Pruned> pruned;
  std::vector<std::string> learnedIds;
  std::vector<std::string> feedbackNotes;
  double evaluationSeconds = 0;
};
} // namespace

llvm::Error Agent::setUp() {
  if (options.candidateCount < 1 || options.candidateCount > 16)
    return makeError("error: --candidate-count must be between 1 and 16, "
                     "got " +
                     Twine(options.candidateCount));
  if (options.searchDepth > 8)
    return makeError("error: --search-depth must be between 0 and 8, got " +
                     Twine(options.searchDepth));
  if (options.latencyTargetMs < 0 || options.memoryBudgetMB < 0)
    return makeError("error: --latency-target-ms and --memory-budget-mb "
                     "must not be negative");
  if (options.input.empty())
    return makeError("error: no input: pass a .tirx template or a kda2 IR "
                     "file");
  if (!llvm::sys::fs::exists(options.input))
    return makeError("error: cannot read input '" + options.input +
                     "': no such file");

  // The profile: a built-in name or a YAML file.
  StringRef profileArg = options.profile;
  if (profileArg.ends_with(".yaml") || profileArg.ends_with(".yml")) {
    if (llvm::Error err = profiles.addFromFile(profileArg))
      return err;
    profileFile = profileArg.str();
    profileArg = llvm::sys::path::stem(profileArg);
  }
  llvm::Expected<const HardwareProfile *> found = profiles.get(profileArg);
  if (!found)
    return makeError("error: " + llvm::toString(found.takeError()));
  profile = *found;

  auto parsed = parseShapes(options.shapes);
  if (!parsed)
    return parsed.takeError();
  shapes = std::move(*parsed);

  if (!options.rulesPath.empty()) {
    auto loaded = RuleBase::load(options.rulesPath);
    if (!loaded)
      return loaded.takeError();
    ruleBase = std::move(*loaded);
  }
  builtinRules = profileRules(*profile);
  for (const Rule &rule : builtinRules)
    rules.push_back(&rule);
  for (const Rule &rule : ruleBase.rules())
    if (rule.hw == "*" || rule.hw == profile->name)
      rules.push_back(&rule);

  contextFacts.push_back(profile->tma ? "profile:tma" : "profile:no_tma");
  for (const auto &[name, size] : shapes)
    contextFacts.push_back(("shape:" + name + "=" + Twine(size)).str());
  return llvm::Error::success();
}

llvm::Error Agent::loadBaseline() {
  context = makeContext(profileFile);
  diagnostics.emplace(context.get());
  isTemplate = StringRef(options.input).ends_with(".tirx");
  templateName = llvm::sys::path::stem(options.input).str();
  auto buffer = llvm::MemoryBuffer::getFile(options.input, /*IsText=*/true);
  if (!buffer)
    return makeError("error: cannot read input '" + options.input +
                     "': " + buffer.getError().message());
  sourceMgr = std::make_unique<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());

  Candidate baseline;
  if (isTemplate) {
    ImportTIRxOptions importOptions;
    for (const std::string &entry : options.bindings)
      if (llvm::Error err =
              addTIRxBinding(importOptions, entry, context.get()))
        return makeError("error: " + llvm::toString(std::move(err)));
    baseline.config.bindings.insert(importOptions.bindings.begin(),
                                    importOptions.bindings.end());
    baseline.config.otherBindings.insert(importOptions.typeBindings.begin(),
                                         importOptions.typeBindings.end());
    baseline.config.otherBindings.insert(importOptions.layoutBindings.begin(),
                                         importOptions.layoutBindings.end());
    baseline.config.otherBindings.insert(importOptions.stateBindings.begin(),
                                         importOptions.stateBindings.end());
    materializeFromTemplate(baseline);
  } else {
    if (!options.bindings.empty())
      return makeError("error: --tirx-bind applies to .tirx templates only");
    baseline.module = parseSourceFile<ModuleOp>(*sourceMgr, context.get());
    if (baseline.module) {
      (*baseline.module)
          ->setAttr("kda2.target",
                    StringAttr::get(context.get(), profile->name));
      if (failed(verify(*baseline.module)))
        baseline.module = nullptr;
    }
  }
  if (!baseline.module)
    return makeError(diagnostics->errors.empty()
                         ? "error: cannot load the baseline"
                         : llvm::join(diagnostics->errors, "\n"));
  diagnostics->clear();

  knobs = discoverKnobs(*baseline.module, baseline.config, profile->arch);
  readSwitches(*baseline.module, knobs, baseline.config);
  setConfigAttr(*baseline.module, baseline.config);

  // grid:underfilled: fewer programs than SMs at the requested shapes.
  int64_t programs = 1;
  bool known = true;
  for (KernelOp kernel : baseline.module->getOps<KernelOp>()) {
    int64_t kernelPrograms = 1;
    if (ArrayAttr grid = kernel.getGridAttr())
      for (Attribute dim : grid) {
        auto it = shapes.find(cast<StringAttr>(dim).str());
        if (it == shapes.end())
          known = false;
        else
          kernelPrograms *= it->second;
      }
    programs = std::max(programs, kernelPrograms);
  }
  if (known && programs < static_cast<int64_t>(profile->smCount))
    contextFacts.push_back("grid:underfilled");
  llvm::sort(contextFacts);
  if (isTemplate)
    contextFacts.insert(contextFacts.begin(), "template:" + templateName);

  baseline.verdict = judge(rules, factsOf(baseline.config));
  generated.push_back(std::move(baseline));
  return llvm::Error::success();
}

void Agent::materializeFromTemplate(Candidate &candidate) {
  const AgentConfig &config = candidate.config;
  std::string key = config.bindString();
  auto it = imported.find(key);
  if (it == imported.end()) {
    ImportTIRxOptions importOptions;
    importOptions.profile = profile->name;
    importOptions.bindings.insert(config.bindings.begin(),
                                  config.bindings.end());
    // Every non-integer binding goes back the way --tirx-bind took it
    // (an element type, a state layout kv / vk, or a tensor layout).
    for (const auto &[name, value] : config.otherBindings)
      if (llvm::Error err = addTIRxBinding(importOptions, name + "=" + value,
                                           context.get()))
        llvm::consumeError(std::move(err)); // accepted once already
    diagnostics->clear();
    it = imported.emplace(key, importTIRx(*sourceMgr, context.get(),
                                          importOptions))
             .first;
    if (!it->second)
      importErrors[key] = diagnostics->firstError();
  }
  if (!it->second) {
    candidate.invalid = importErrors[key];
    return;
  }
  OwningOpRef<ModuleOp> module = it->second->clone();
  for (const Knob &knob : knobs)
    if (knob.kind && config.switches.count(knob.name))
      applySwitch(*module, *knob.kind, config.switches.at(knob.name),
                  knob.sites);
  finish(candidate, std::move(module));
}

void Agent::finish(Candidate &candidate, OwningOpRef<ModuleOp> module) {
  setConfigAttr(*module, candidate.config);
  diagnostics->clear();
  if (failed(verify(*module))) {
    candidate.invalid = diagnostics->firstError();
    return;
  }
  candidate.module = std::move(module);
}

std::vector<std::string> Agent::factsOf(const AgentConfig &config) const {
  std::vector<std::string> facts = config.facts();
  llvm::append_range(facts, contextFacts);
  return facts;
}

std::string Agent::knobSummary(const AgentConfig &config) const {
  std::vector<std::string> parts;
  for (const Knob &knob : knobs) {
    if (knob.kind)
      parts.push_back(switchFact(knob.name, config.switches.at(knob.name)));
    else
      parts.push_back(configFact(knob.name, config.bindings.at(knob.name)));
  }
  return parts.empty() ? "(no choices)" : llvm::join(parts, " ");
}

void Agent::search() {
  // A configuration is reached first at its smallest depth (breadth first).
  std::set<std::string> seen = {generated[0].config.bindString() + "|" +
                                generated[0].config.summary()};
  std::vector<unsigned> beam = {0};
  for (unsigned depth = 1; depth <= options.searchDepth && !beam.empty();
       ++depth) {
    std::vector<unsigned> children;
    for (unsigned parentIndex : beam) {
      for (const Knob &knob : knobs) {
        for (int64_t value : knob.values) {
          AgentConfig config = generated[parentIndex].config;
          std::string rewrite;
          if (knob.kind) {
            if (config.switches[knob.name] == (value != 0))
              continue;
            config.switches[knob.name] = value != 0;
            rewrite = switchFact(knob.name, value != 0);
          } else {
            if (config.bindings[knob.name] == value)
              continue;
            config.bindings[knob.name] = value;
            // NVB = V / VB: the template's block count follows.
            if (knob.name == "VB" && config.bindings.count("NVB") &&
                config.bindings.count("V"))
              config.bindings["NVB"] = config.bindings["V"] / value;
            rewrite = configFact(knob.name, value);
          }
          if (!seen.insert(config.bindString() + "|" + config.summary())
                   .second)
            continue;
          Candidate child;
          child.config = std::move(config);
          child.depth = depth;
          child.rewrites = generated[parentIndex].rewrites;
          child.rewrites.push_back(rewrite);
          child.order = generated.size();
          child.verdict = judge(rules, factsOf(child.config));
          if (child.verdict.avoidedBy) {
            say("skip " + child.config.summary() + " (rule " +
                child.verdict.avoidedBy->id + ")");
            pruned.push_back({child.config, child.verdict.avoidedBy->id});
            continue;
          }
          if (knob.kind) {
            // An annotation rewrite on a clone of the parent.
            OwningOpRef<ModuleOp> module =
                generated[parentIndex].module->clone();
            applySwitch(*module, *knob.kind, value != 0, knob.sites);
            finish(child, std::move(module));
          } else {
            // A binding rewrite: the template imported again.
            materializeFromTemplate(child);
          }
          LDBG() << "depth " << depth << ": " << child.config.summary()
                 << (child.invalid.empty() ? "" : " (invalid)");
          generated.push_back(std::move(child));
          children.push_back(generated.size() - 1);
        }
      }
    }
    // The beam: the valid children, preferred ones first.
    llvm::stable_sort(children, [&](unsigned a, unsigned b) {
      return generated[a].verdict.preference >
             generated[b].verdict.preference;
    });
    beam.clear();
    for (unsigned index : children)
      if (generated[index].module && beam.size() < options.candidateCount)
        beam.push_back(index);
  }

  // The candidates: the baseline, then by preference, depth and order.
  std::vector<unsigned> order;
  for (unsigned i = 1; i < generated.size(); ++i)
    order.push_back(i);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    const Candidate &x = generated[a], &y = generated[b];
    if (x.verdict.preference != y.verdict.preference)
      return x.verdict.preference > y.verdict.preference;
    return x.depth < y.depth;
  });
  chosen = {0};
  for (unsigned index : order)
    if (chosen.size() < options.candidateCount)
      chosen.push_back(index);
  say(llvm::formatv("search: {0} configuration(s) generated to depth {1}, "
                    "{2} skipped by rules, {3} candidate(s) chosen",
                    generated.size(), options.searchDepth, pruned.size(),
                    chosen.size()));
}

void Agent::evaluateAll() {
  EvalContext ec;
  ec.profile = profile;
  ec.profileFile = profileFile;
  ec.shapes = shapes;
  ec.latencyTargetMicros = options.latencyTargetMs * 1000;
  ec.memoryBudgetBytes = (options.memoryBudgetMB > 0
                              ? options.memoryBudgetMB
                              : profile->hbmSizeGB * 1e9 / (1 << 20)) *
                         (1 << 20);
  ec.outputDir = options.outputDir;
  ec.maxTripCount = options.simMaxTripCount;
  ec.ptxOptions.chip = profile->arch;
  ec.ptxOptions.ptxas = options.ptxas;
  ec.ptxOptions.nvlink = options.nvlink;
  ec.ptxas = isPtxasAvailable(ec.ptxOptions);
  ec.nvlink = ec.ptxas && isNvlinkAvailable(ec.ptxOptions);
  ec.progressMutex = &progressMutex;
  ec.progress = &progress;
  if (!ec.ptxas)
    say("ptxas not found: no cubins; registers estimated from the IR");
  else if (!ec.nvlink)
    say("nvlink not found: a candidate of several kernels is assembled "
        "whole by ptxas, its kernels again for each candidate");

  for (auto [n, index] : llvm::enumerate(chosen)) {
    Candidate &candidate = generated[index];
    candidate.name = "candidate_" + std::to_string(n);
    if (!candidate.module)
      continue;
    llvm::raw_string_ostream os(candidate.irText);
    candidate.module->print(os);
    if (llvm::Error err = writeOutput(options.outputDir,
                                      candidate.name + ".mlir",
                                      candidate.irText))
      candidate.notes.push_back(llvm::toString(std::move(err)));
  }
  auto begin = std::chrono::steady_clock::now();
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(options.jobs));
  // 1. Per candidate: convert-kda2-to-gpu, one module per kernel.
  for (unsigned index : chosen)
    pool.async([&, index] { lowerCandidate(generated[index], ec); });
  pool.wait();

  // Candidates with a kernel whose fingerprint another candidate's kernel
  // has: their kernels are printed, the cache's keys.
  {
    std::map<uint64_t, unsigned> holders;
    for (unsigned index : chosen) {
      std::set<uint64_t> own;
      for (const Candidate::Kernel &kernel : generated[index].kernelKeys)
        own.insert(kernel.fingerprint);
      for (uint64_t fingerprint : own)
        ++holders[fingerprint];
    }
    for (unsigned index : chosen)
      if (llvm::any_of(generated[index].kernelKeys,
                       [&](const Candidate::Kernel &kernel) {
                         return holders[kernel.fingerprint] > 1;
                       }))
        pool.async([&, index] { printKernels(generated[index], ec); });
    pool.wait();
  }

  // The compile cache: each distinct kernel module that several candidates
  // hold once; a candidate holding none of those, whole. Numbered in the
  // order of the candidates, so what each candidate gets does not depend on
  // the threads.
  std::vector<CompiledKernel> compiled;
  std::vector<size_t> costs; // operations: the longest tasks start first
  unsigned kernelCount = 0, distinctCount = 0;
  {
    // Keys refer to the candidates' texts until the entries take them.
    std::map<StringRef, unsigned> holders, ids;
    for (unsigned index : chosen) {
      std::set<StringRef> own;
      for (const Candidate::Kernel &kernel : generated[index].kernelKeys)
        if (!kernel.text.empty())
          own.insert(kernel.text);
      for (StringRef text : own)
        ++holders[text];
    }
    std::vector<std::string *> texts;
    for (unsigned index : chosen) {
      Candidate &candidate = generated[index];
      if (!candidate.lowered)
        continue;
      kernelCount += candidate.kernelKeys.size();
      if (llvm::none_of(
              candidate.kernelKeys, [&](const Candidate::Kernel &kernel) {
                return !kernel.text.empty() && holders[kernel.text] > 1;
              })) {
        CompiledKernel &whole = compiled.emplace_back();
        whole.name = candidate.name;
        whole.whole = &candidate;
        whole.needExecutable = true;
        size_t cost = 0;
        for (const Candidate::Kernel &kernel : candidate.kernelKeys)
          cost += kernel.operations;
        costs.push_back(cost);
        texts.push_back(nullptr);
        candidate.kernelIds = {static_cast<unsigned>(compiled.size() - 1)};
        distinctCount += candidate.kernelKeys.size();
        continue;
      }
      for (Candidate::Kernel &kernel : candidate.kernelKeys) {
        auto [it, inserted] = ids.try_emplace(kernel.text, compiled.size());
        if (inserted) {
          compiled.emplace_back().name = kernel.name;
          costs.push_back(kernel.operations);
          texts.push_back(&kernel.text);
          ++distinctCount;
        }
        candidate.kernelIds.push_back(it->second);
        CompiledKernel &entry = compiled[it->second];
        if (candidate.kernelKeys.size() == 1)
          entry.needExecutable = true;
        else if (ec.nvlink)
          entry.needLinkable = true;
      }
    }
    holders.clear();
    ids.clear();
    for (auto [entry, text] : llvm::zip(compiled, texts))
      if (text)
        entry.text = std::move(*text);
    for (unsigned index : chosen)
      generated[index].kernelKeys.clear();
  }
  if (!compiled.empty())
    say(llvm::formatv("compiling {0} distinct kernel(s) for {1} kernel(s) of "
                      "the candidates",
                      distinctCount, kernelCount));

  // 2. Per entry, largest first: PTX, cubins.
  std::vector<unsigned> order(compiled.size());
  for (unsigned i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::stable_sort(
      order, [&](unsigned a, unsigned b) { return costs[a] > costs[b]; });
  for (unsigned id : order)
    pool.async([&, id] { compileKernel(compiled[id], ec); });
  pool.wait();

  // 3. Per candidate: its PTX and cubin, simulation, constraints. (A
  //    barrier, not each candidate as soon as its entries are done: these
  //    short tasks after the compilations balance the cores better.)
  for (unsigned index : chosen)
    pool.async([&, index] { evaluate(generated[index], compiled, ec); });
  pool.wait();
  evaluationSeconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - begin)
                          .count();
}

void Agent::rank() {
  std::vector<unsigned> passed;
  for (unsigned index : chosen)
    if (generated[index].passed())
      passed.push_back(index);
  llvm::stable_sort(passed, [&](unsigned a, unsigned b) {
    return generated[a].predictedMicros < generated[b].predictedMicros;
  });
  for (auto [r, index] : llvm::enumerate(passed))
    generated[index].rank = r + 1;
}

//===----------------------------------------------------------------------===//
// Learning
//===----------------------------------------------------------------------===//

/// Whether \p config has every choice \p wanted names (integers, booleans
/// or strings such as "on").
static bool configMatches(const AgentConfig &config,
                          const json::Object &wanted) {
  for (const auto &[key, value] : wanted) {
    std::string name = key.str();
    if (auto it = config.bindings.find(name); it != config.bindings.end()) {
      if (value.getAsInteger() != it->second)
        return false;
    } else if (auto sw = config.switches.find(name);
               sw != config.switches.end()) {
      std::optional<bool> on = value.getAsBoolean();
      if (auto text = value.getAsString())
        on = *text == "on" || *text == "true";
      if (on != sw->second)
        return false;
    } else if (auto other = config.otherBindings.find(name);
               other != config.otherBindings.end()) {
      if (value.getAsString() != StringRef(other->second))
        return false;
    } else {
      return false;
    }
  }
  return true;
}

llvm::Error Agent::learnFromFeedback(RuleBase &base) {
  StringRef path = options.feedbackPath;
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return makeError(path + ": error: cannot read the measured results: " +
                     buffer.getError().message());
  llvm::Expected<json::Value> parsed = json::parse((*buffer)->getBuffer());
  if (!parsed)
    return makeError(path + ": error: invalid JSON: " +
                     llvm::toString(parsed.takeError()));
  const json::Object *root = parsed->getAsObject();
  const json::Array *results = root ? root->getArray("results") : nullptr;
  if (!results)
    return makeError(path + ": error: expected an object with a 'results' "
                            "array (docs/Agent.md)");
  std::vector<MeasuredCandidate> runs;
  for (auto [i, entry] : llvm::enumerate(*results)) {
    const json::Object *result = entry.getAsObject();
    std::optional<double> ms =
        result ? result->getNumber("measured_ms") : std::nullopt;
    const json::Object *config = result ? result->getObject("config") : nullptr;
    std::optional<StringRef> name =
        result ? result->getString("candidate") : std::nullopt;
    if (!ms || *ms <= 0 || (!config && !name))
      return makeError(path + ": error: results[" + Twine(i) +
                       "]: expected 'measured_ms' (a positive number) and "
                       "'config' (an object) or 'candidate' (a name)");
    const Candidate *match = nullptr;
    for (unsigned index : chosen) {
      const Candidate &c = generated[index];
      if ((name && c.name == *name) ||
          (!name && config && configMatches(c.config, *config)))
        match = &c;
    }
    if (!match || match->kernels.empty()) {
      feedbackNotes.push_back(
          ("results[" + Twine(i) + "]: no simulated candidate of this run "
                                   "matches; ignored")
              .str());
      continue;
    }
    runs.push_back({match->name, match->config, match->predictedMicros, *ms});
  }
  for (Rule &rule : rulesFromRegressions(
           runs, profile->name, isTemplate ? templateName : StringRef()))
    if (llvm::Error err = learnOne(base, std::move(rule)))
      return err;
  return llvm::Error::success();
}

llvm::Error Agent::learnOne(RuleBase &base, Rule rule) {
  llvm::Expected<const Rule *> added = base.learn(std::move(rule));
  if (!added)
    return added.takeError();
  // The pointer dies with the next learn(): report it now.
  const Rule &learned = **added;
  learnedIds.push_back(learned.id);
  say("learned rule " + learned.id + ": if hw == " + learned.hw + " and " +
      learned.condition + " then " + learned.action + " (" +
      (learned.confidence == RuleConfidence::Confirmed ? "confirmed"
                                                       : "experimental") +
      ")");
  return llvm::Error::success();
}

llvm::Error Agent::learn() {
  if (options.rulesPath.empty() || !options.learn) {
    if (!options.feedbackPath.empty())
      return makeError("error: --feedback needs --rules (where to learn)");
    return llvm::Error::success();
  }
  RuleBase base = ruleBase;
  std::vector<std::string> shapeFacts;
  for (const std::string &fact : contextFacts)
    if (StringRef(fact).starts_with("shape:"))
      shapeFacts.push_back(fact);
  for (unsigned index : chosen) {
    const Candidate &c = generated[index];
    const ConstraintResult *failure = c.firstFailure();
    if (!failure || c.rewrites.empty() || c.missingShape)
      continue;
    std::optional<Rule> rule = ruleFromRejection(
        c.config, c.rewrites.back(), *failure, profile->name,
        isTemplate ? templateName : StringRef(), shapeFacts, c.name);
    if (!rule)
      continue;
    if (llvm::Error err = learnOne(base, std::move(*rule)))
      return err;
  }
  if (!options.feedbackPath.empty())
    if (llvm::Error err = learnFromFeedback(base))
      return err;
  if (learnedIds.empty())
    return llvm::Error::success();
  if (llvm::Error err = base.save(options.rulesPath))
    return err;
  say("rule base " + options.rulesPath + ": " + Twine(base.rules().size()) +
      " rule(s)");
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

static json::Value configJSON(const AgentConfig &config) {
  json::Object object;
  for (const auto &[key, value] : config.bindings)
    object[key] = value;
  for (const auto &[key, value] : config.otherBindings)
    object[key] = value;
  for (const auto &[key, on] : config.switches)
    object[key] = on;
  return object;
}

static json::Value stallsJSON(const StallBreakdown &s) {
  return json::Object{{"dependency", static_cast<int64_t>(s.dependency)},
                      {"memory", static_cast<int64_t>(s.memory)},
                      {"barrier", static_cast<int64_t>(s.barrier)},
                      {"pipe_busy", static_cast<int64_t>(s.pipeBusy)},
                      {"not_selected", static_cast<int64_t>(s.notSelected)}};
}

/// Mean achieved occupancy of the candidate's kernels, weighted by time.
static double candidateOccupancy(const Candidate &c) {
  double weighted = 0, total = 0;
  for (const KernelResult &k : c.kernels) {
    weighted += k.report.achievedOccupancy * k.report.predictedMicros;
    total += k.report.predictedMicros;
  }
  return total > 0 ? weighted / total : 0;
}

json::Value Agent::report() const {
  json::Object inputs{
      {"input", options.input},
      {"profile", profile->name},
      {"chip", profile->arch},
      {"shapes", [&] {
         json::Object o;
         for (const auto &[k, v] : shapes)
           o[k] = v;
         return o;
       }()},
      {"bindings", generated[0].config.bindString()},
      {"latency_target_ms", options.latencyTargetMs},
      {"memory_budget_mb", options.memoryBudgetMB},
      {"search_depth", static_cast<int64_t>(options.searchDepth)},
      {"candidate_count", static_cast<int64_t>(options.candidateCount)},
      {"rules", options.rulesPath},
      {"feedback", options.feedbackPath},
      {"sim_max_trip_count", options.simMaxTripCount}};

  json::Array knobList;
  for (const Knob &knob : knobs) {
    json::Array values;
    for (int64_t v : knob.values)
      values.push_back(knob.kind ? json::Value(v != 0) : json::Value(v));
    knobList.push_back(json::Object{
        {"name", knob.name},
        {"kind", knob.kind ? "annotation" : "binding"},
        {"values", std::move(values)}});
  }
  json::Array prunedList;
  for (const Pruned &p : pruned)
    prunedList.push_back(
        json::Object{{"config", configJSON(p.config)}, {"rule", p.rule}});
  json::Array ruleList;
  for (const Rule *rule : rules)
    ruleList.push_back(json::Object{{"id", rule->id},
                                    {"condition", rule->condition},
                                    {"action", rule->action},
                                    {"applied", isAgentAction(*rule)}});

  json::Array candidates;
  int best = -1;
  for (unsigned index : chosen) {
    const Candidate &c = generated[index];
    json::Array constraints;
    for (const ConstraintResult &r : c.constraints) {
      json::Object o{{"name", r.name}, {"ok", r.ok}};
      if (r.name != "valid") {
        o["value"] = roundTo(r.value, 1e-4);
        o["limit"] = roundTo(r.limit, 1e-4);
        o["unit"] = r.unit;
      } else if (!r.ok) {
        o["detail"] = r.detail;
      }
      constraints.push_back(std::move(o));
    }
    json::Array kernels;
    StallBreakdown stalls;
    double l2 = 0;
    for (const KernelResult &k : c.kernels) {
      const SimulationReport &r = k.report;
      stalls.dependency += r.smStalls.dependency;
      stalls.memory += r.smStalls.memory;
      stalls.barrier += r.smStalls.barrier;
      stalls.pipeBusy += r.smStalls.pipeBusy;
      stalls.notSelected += r.smStalls.notSelected;
      l2 = std::max(l2, r.l2Utilisation);
      kernels.push_back(json::Object{
          {"name", k.name},
          {"predicted_time_us", roundTo(r.predictedMicros, 1e-3)},
          {"bound", r.bound},
          {"grid", json::Array{r.grid[0], r.grid[1], r.grid[2]}},
          {"block", json::Array{r.block[0], r.block[1], r.block[2]}},
          {"registers", static_cast<int64_t>(r.registersPerThread)},
          {"registers_from", k.registersFromPtxas ? "ptxas" : "estimate"},
          {"shared_bytes", static_cast<int64_t>(r.sharedBytesPerCTA)},
          {"ctas_per_sm", static_cast<int64_t>(r.ctasPerSM)},
          {"occupancy",
           json::Object{
               {"theoretical", roundTo(r.theoreticalOccupancy, 1e-4)},
               {"achieved", roundTo(r.achievedOccupancy, 1e-4)},
               {"limiter", r.occupancyLimiter}}},
          {"l2_utilisation", roundTo(r.l2Utilisation, 1e-4)},
          {"bank_conflicts", static_cast<int64_t>(r.bankConflicts)},
          {"stalls", stallsJSON(r.smStalls)}});
    }
    json::Array rewrites, fired, notes;
    for (const std::string &r : c.rewrites)
      rewrites.push_back(r);
    for (const std::string &r : c.verdict.fired)
      fired.push_back(r);
    for (const std::string &n : c.notes)
      notes.push_back(n);
    json::Object o{{"name", c.name},
                   {"config", configJSON(c.config)},
                   {"depth", static_cast<int64_t>(c.depth)},
                   {"rewrites", std::move(rewrites)},
                   {"rules_fired", std::move(fired)},
                   {"status", c.passed() ? "passed" : "rejected"},
                   {"constraints", std::move(constraints)},
                   {"files", json::Object{{"mlir", !c.irText.empty()},
                                          {"ptx", c.hasPtx},
                                          {"cubin", c.hasCubin}}},
                   {"notes", std::move(notes)}};
    if (c.rank) {
      o["rank"] = c.rank;
      if (c.rank == 1)
        best = &c - generated.data();
    } else {
      o["rank"] = nullptr;
    }
    if (!c.kernels.empty()) {
      o["predicted_time_us"] = roundTo(c.predictedMicros, 1e-3);
      o["occupancy"] = roundTo(candidateOccupancy(c), 1e-4);
      o["l2_utilisation"] = roundTo(l2, 1e-4);
      o["global_bytes"] = c.globalBytes;
      o["stalls"] = stallsJSON(stalls);
      o["kernels"] = std::move(kernels);
    }
    candidates.push_back(std::move(o));
  }
  json::Array learned;
  for (const std::string &id : learnedIds)
    learned.push_back(id);
  json::Array feedback;
  for (const std::string &n : feedbackNotes)
    feedback.push_back(n);
  double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return json::Object{
      {"tool", "kda2-agent"},
      {"inputs", std::move(inputs)},
      {"search",
       json::Object{{"knobs", std::move(knobList)},
                    {"generated", static_cast<int64_t>(generated.size())},
                    {"skipped_by_rules", std::move(prunedList)},
                    {"rules", std::move(ruleList)}}},
      {"candidates", std::move(candidates)},
      {"best", best >= 0 ? json::Value(generated[best].name)
                         : json::Value(nullptr)},
      {"learned_rules", std::move(learned)},
      {"feedback_notes", std::move(feedback)},
      {"timing", json::Object{{"wall_seconds", roundTo(wall, 1e-3)},
                              {"evaluation_seconds",
                               roundTo(evaluationSeconds, 1e-3)}}}};
}

void Agent::printTable() const {
  out << llvm::formatv("kda2-agent: {0} on {1} ({2})", options.input,
                       profile->name, profile->arch);
  if (!options.shapes.empty())
    out << ", shapes " << options.shapes;
  out << "\n";
  out << llvm::formatv("{0,4} {1,-12} {2,11} {3,6} {4,6} {5,8} {6,5}  "
                       "{7,-8} {8}\n",
                       "rank", "candidate", "time (us)", "occ", "L2",
                       "smem (B)", "regs", "status", "config");
  std::vector<unsigned> rows(chosen.begin(), chosen.end());
  llvm::stable_sort(rows, [&](unsigned a, unsigned b) {
    int ra = generated[a].rank, rb = generated[b].rank;
    return ra && rb ? ra < rb : ra != 0 && rb == 0;
  });
  for (unsigned index : rows) {
    const Candidate &c = generated[index];
    uint64_t smem = 0;
    unsigned regs = 0;
    double l2 = 0;
    for (const KernelResult &k : c.kernels) {
      smem = std::max(smem, k.report.sharedBytesPerCTA);
      regs = std::max(regs, k.report.registersPerThread);
      l2 = std::max(l2, k.report.l2Utilisation);
    }
    std::string rank = c.rank ? std::to_string(c.rank) : "-";
    std::string status = c.passed() ? "pass" : "reject";
    if (c.kernels.empty())
      out << llvm::formatv("{0,4} {1,-12} {2,11} {3,6} {4,6} {5,8} {6,5}  "
                           "{7,-8} {8}\n",
                           rank, c.name, "-", "-", "-", "-", "-", status,
                           knobSummary(c.config));
    else
      out << llvm::formatv("{0,4} {1,-12} {2,11:F2} {3,6:F3} {4,6:F3} {5,8} "
                           "{6,5}  {7,-8} {8}\n",
                           rank, c.name, c.predictedMicros,
                           candidateOccupancy(c), l2, smem, regs, status,
                           knobSummary(c.config));
    if (const ConstraintResult *f = c.firstFailure()) {
      if (f->name == "valid")
        out << "       ^ invalid: "
            << StringRef(f->detail).split('\n').first << "\n";
      else
        out << llvm::formatv("       ^ {0}: {1} {3} > {2} {3}\n", f->name,
                             roundTo(f->value, 1e-3), roundTo(f->limit, 1e-3),
                             f->unit);
    }
  }
  out << llvm::formatv("{0} configuration(s) generated, {1} skipped by "
                       "rules, {2} evaluated; {3} rule(s) learned\n",
                       generated.size(), pruned.size(), chosen.size(),
                       learnedIds.size());
}

llvm::Error Agent::noCandidatePasses() const {
  std::string message = "error: No candidate passes simulator";
  const Candidate *nearest = nullptr;
  double nearestExcess = std::numeric_limits<double>::infinity();
  for (unsigned index : chosen) {
    const Candidate &c = generated[index];
    const ConstraintResult *f = c.firstFailure();
    if (!f)
      continue;
    double excess = 0;
    for (const ConstraintResult &r : c.constraints)
      if (!r.ok)
        excess = std::max(excess, r.excess());
    message += "\n  " + c.name + " (" + knobSummary(c.config) + "): ";
    if (f->name == "valid")
      message += "invalid: " + StringRef(f->detail).split('\n').first.str();
    else
      message += llvm::formatv("{0} {1} {3} > {2} {3}", f->name,
                               roundTo(f->value, 1e-3),
                               roundTo(f->limit, 1e-3), f->unit)
                     .str();
    if (!nearest || excess < nearestExcess) {
      nearest = &c;
      nearestExcess = excess;
    }
  }
  if (nearest && std::isfinite(nearestExcess))
    message += llvm::formatv("\n  nearest miss: {0} ({1}), {2:P} over its "
                             "limit",
                             nearest->name, knobSummary(nearest->config),
                             nearestExcess)
                   .str();
  return makeError(message);
}

llvm::Error Agent::run() {
  if (llvm::Error err = setUp())
    return err;
  if (llvm::Error err = loadBaseline())
    return err;
  say(llvm::formatv("baseline {0} on {1}: {2} knob(s), {3} rule(s) for "
                    "this profile",
                    templateName, profile->name, knobs.size(), rules.size()));
  search();
  if (std::error_code ec =
          llvm::sys::fs::create_directories(options.outputDir))
    return makeError("error: cannot create output directory '" +
                     options.outputDir + "': " + ec.message());
  evaluateAll();
  const Candidate &baseline = generated[0];
  if (baseline.missingShape)
    return makeError("error: " +
                     StringRef(baseline.constraints.front().detail)
                         .split(": ")
                         .second);
  rank();
  if (llvm::Error err = learn())
    return err;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", report()) << "\n";
  if (llvm::Error err = writeOutput(options.outputDir, "report.json", text))
    return err;
  printTable();
  double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  out << llvm::formatv("wall time: {0:F2} s (evaluation {1:F2} s); report: "
                       "{2}/report.json\n",
                       wall, evaluationSeconds, options.outputDir);
  out.flush();
  if (llvm::none_of(chosen,
                    [&](unsigned index) { return generated[index].rank; }))
    return noCandidatePasses();
  return llvm::Error::success();
}

llvm::Error mlir::kda2::runAgent(const AgentOptions &options,
                                 llvm::raw_ostream &out,
                                 llvm::raw_ostream &progress) {
  Agent agent(options, out, progress);
  return agent.run();
}
