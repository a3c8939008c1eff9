//===- RuleBase.cpp - The feedback rule base --------------------*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//

#include "kda2/Agent/RuleBase.h"

#include "YAMLDiagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::kda2;
using mlir::kda2::yamldiag::makeError;

//===----------------------------------------------------------------------===//
// YAML mapping
//===----------------------------------------------------------------------===//

namespace {
struct RuleDocument {
  std::vector<Rule> rules;
};
} // namespace

LLVM_YAML_IS_SEQUENCE_VECTOR(Rule)

namespace llvm::yaml {
template <>
struct ScalarEnumerationTraits<RuleConfidence> {
  static void enumeration(IO &io, RuleConfidence &value) {
    io.enumCase(value, "experimental", RuleConfidence::Experimental);
    io.enumCase(value, "confirmed", RuleConfidence::Confirmed);
  }
};
template <>
struct ScalarEnumerationTraits<RuleSource> {
  static void enumeration(IO &io, RuleSource &value) {
    io.enumCase(value, "seed", RuleSource::Seed);
    io.enumCase(value, "simulator", RuleSource::Simulator);
    io.enumCase(value, "measured", RuleSource::Measured);
  }
};
template <>
struct MappingTraits<Rule> {
  static void mapping(IO &io, Rule &rule) {
    io.mapRequired("id", rule.id);
    io.mapRequired("hw", rule.hw);
    io.mapRequired("trigger", rule.trigger);
    io.mapRequired("condition", rule.condition);
    io.mapRequired("action", rule.action);
    io.mapOptional("evidence", rule.evidence, std::string());
    io.mapRequired("confidence", rule.confidence);
    io.mapRequired("source", rule.source);
    io.mapOptional("hits", rule.hits, 1u);
  }
};
template <>
struct MappingTraits<RuleDocument> {
  static void mapping(IO &io, RuleDocument &doc) {
    io.mapRequired("rules", doc.rules);
  }
};
} // namespace llvm::yaml

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//


std::vector<std::string> Rule::conditionFacts() const {
  std::vector<std::string> facts;
  SmallVector<StringRef> parts;
  StringRef(condition).split(parts, " and ", -1, /*KeepEmpty=*/false);
  for (StringRef part : parts)
    if (!part.trim().empty())
      facts.push_back(part.trim().str());
  return facts;
}

std::string Rule::actionName() const {
  return StringRef(action).split('(').first.trim().str();
}

std::vector<std::string> Rule::actionArgs() const {
  std::vector<std::string> args;
  StringRef rest = StringRef(action).split('(').second;
  if (rest.empty())
    return args;
  SmallVector<StringRef> parts;
  rest.rsplit(')').first.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef part : parts)
    args.push_back(part.trim().str());
  return args;
}

static bool isIdentifierChar(char c) {
  return isAlnum(c) || c == '_' || c == '.' || c == '-';
}

/// Checks one rule; `what` names it in the message.
static Error validateRule(const Rule &rule, const Twine &what) {
  if (rule.id.empty() || !all_of(rule.id, isIdentifierChar))
    return makeError(what + ": 'id' must be non-empty letters, digits, '_', "
                            "'.' or '-', got '" +
                     rule.id + "'");
  if (rule.hw.empty())
    return makeError(what + ": 'hw' must name a hardware profile or be '*'");
  if (rule.trigger.empty())
    return makeError(what + ": 'trigger' must say what was observed");
  if (rule.conditionFacts().empty())
    return makeError(what + ": 'condition' must list at least one IR fact");
  StringRef action = rule.action;
  StringRef name = action.split('(').first.trim();
  bool callForm = action.contains('(');
  if (name.empty() || !all_of(name, isIdentifierChar) ||
      (callForm && !action.rtrim().ends_with(")")))
    return makeError(what + ": 'action' must be 'name' or 'name(arg, ...)', "
                            "got '" +
                     rule.action + "'");
  if (rule.hits == 0)
    return makeError(what + ": 'hits' must be at least 1");
  return Error::success();
}

std::vector<const Rule *>
RuleBase::matching(StringRef profile, ArrayRef<std::string> facts) const {
  std::vector<const Rule *> out;
  for (const Rule &rule : rules_) {
    if (rule.hw != "*" && rule.hw != profile)
      continue;
    if (all_of(rule.conditionFacts(),
               [&](const std::string &f) { return is_contained(facts, f); }))
      out.push_back(&rule);
  }
  std::stable_sort(out.begin(), out.end(), [](const Rule *a, const Rule *b) {
    if (a->confidence != b->confidence)
      return a->confidence == RuleConfidence::Confirmed;
    return a->id < b->id;
  });
  return out;
}

Expected<const Rule *> RuleBase::learn(Rule rule) {
  for (Rule &existing : rules_)
    if (existing.hw == rule.hw && existing.condition == rule.condition &&
        existing.action == rule.action) {
      ++existing.hits;
      existing.confidence = RuleConfidence::Confirmed;
      if (!rule.evidence.empty())
        existing.evidence = rule.evidence;
      return &existing;
    }
  if (rule.id.empty()) {
    StringSet<> taken;
    for (const Rule &r : rules_)
      taken.insert(r.id);
    for (unsigned n = rules_.size() + 1;; ++n)
      if (!taken.contains("rule-" + std::to_string(n))) {
        rule.id = "rule-" + std::to_string(n);
        break;
      }
  }
  if (Error err = validateRule(rule, "rule '" + rule.id + "'"))
    return std::move(err);
  for (const Rule &r : rules_)
    if (r.id == rule.id)
      return makeError("rule '" + rule.id + "': the id is already taken");
  rules_.push_back(std::move(rule));
  return &rules_.back();
}

//===----------------------------------------------------------------------===//
// Reading and writing
//===----------------------------------------------------------------------===//


Expected<RuleBase> RuleBase::parse(StringRef yamlText, StringRef name) {
  RuleDocument doc;
  std::string diagnostics;
  {
    yaml::Input input(MemoryBufferRef(yamlText, name), /*Ctxt=*/nullptr,
                      yamldiag::collect, &diagnostics);
    input >> doc;
    if (input.error())
      return makeError(diagnostics.empty()
                           ? name + ":1:1: error: expected a mapping with "
                                    "a 'rules' list"
                           : yamldiag::locateAll(diagnostics, name));
  }
  // Semantic checks, located at the rule's `id` (found by walking the
  // document; llvm::yaml::Input already accepted its structure).
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      MemoryBuffer::getMemBuffer(yamlText, name, /*RequiresNull=*/false),
      SMLoc());
  sourceMgr.setDiagHandler([](const SMDiagnostic &, void *) {});
  std::vector<SMLoc> ruleLocs;
  {
    yaml::Stream stream(
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer(),
        sourceMgr);
    for (yaml::Document &document : stream) {
      auto *root = dyn_cast_or_null<yaml::MappingNode>(document.getRoot());
      if (!root)
        break;
      for (yaml::KeyValueNode &entry : *root) {
        auto *list = dyn_cast_or_null<yaml::SequenceNode>(entry.getValue());
        if (!list)
          continue;
        for (yaml::Node &item : *list)
          ruleLocs.push_back(item.getSourceRange().Start);
      }
      break;
    }
  }
  auto locatedError = [&](size_t index, const Twine &message) -> Error {
    SMLoc loc = index < ruleLocs.size() ? ruleLocs[index] : SMLoc();
    if (!loc.isValid())
      return makeError(name + ":1:1: error: " + message);
    return makeError(yamldiag::render(
        sourceMgr.GetMessage(loc, SourceMgr::DK_Error, message)));
  };
  RuleBase base;
  StringSet<> ids;
  for (auto [i, rule] : enumerate(doc.rules)) {
    if (Error err = validateRule(rule, "rule #" + Twine(i + 1))) {
      std::string message = toString(std::move(err));
      return locatedError(i, message);
    }
    if (!ids.insert(rule.id).second)
      return locatedError(i, "duplicate rule id '" + rule.id + "'");
    base.rules_.push_back(rule);
  }
  return base;
}

Expected<RuleBase> RuleBase::load(StringRef path) {
  if (!sys::fs::exists(path))
    return RuleBase();
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return makeError(path + ": error: cannot read the rule base: " +
                     buffer.getError().message());
  return parse((*buffer)->getBuffer(), path);
}

void RuleBase::print(raw_ostream &os) const {
  RuleDocument doc{rules_};
  yaml::Output out(os);
  out << doc;
}

Error RuleBase::save(StringRef path) const {
  return writeFileAtomically(path, [&](raw_ostream &os) {
    print(os);
    return Error::success();
  });
}

Error mlir::kda2::writeFileAtomically(
    StringRef path, std::function<Error(raw_ostream &)> write) {
  // The contents are produced in memory first: a writer that fails leaves
  // nothing on disk. llvm::writeToOutput then writes them to a temporary
  // file in the same directory and renames it over `path`, so a process that
  // dies while writing leaves the old file (and at worst a stray temporary).
  std::string contents;
  raw_string_ostream os(contents);
  if (Error err = write(os))
    return makeError(path + ": error: not written: " +
                     toString(std::move(err)));
  if (Error err = writeToOutput(path, [&](raw_ostream &out) {
        out << contents;
        return Error::success();
      }))
    return makeError(path + ": error: cannot write: " +
                     toString(std::move(err)));
  return Error::success();
}
