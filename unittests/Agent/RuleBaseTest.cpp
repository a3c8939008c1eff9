//===- RuleBaseTest.cpp - The feedback rule base ------------------------===//
//
// Round trip, learning (merge and confirmation), matching, located errors
// for corrupt databases (which stay untouched) and atomic writes that an
// interrupted writer cannot corrupt.
//
//===----------------------------------------------------------------------===//

#include "kda2/Agent/RuleBase.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

#include <sys/wait.h>
#include <unistd.h>

using namespace mlir::kda2;
using namespace llvm;

namespace {

Rule l2Rule() {
  Rule r;
  r.hw = "A100-40GB-SXM4";
  r.trigger = "l2_bandwidth_utilisation > 0.92";
  r.condition = "loop:serial and pragma:sm_shuffle";
  r.action = "drop_pragma(sm_shuffle)";
  r.evidence = "simulator report candidate_3: L2 at 0.95";
  return r;
}

std::string readFile(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string("<missing>");
}

/// A fresh temporary directory, removed with its files at the end.
struct TempDir {
  SmallString<128> path;
  TempDir() { EXPECT_FALSE(sys::fs::createUniqueDirectory("kda2-rules", path)); }
  ~TempDir() { sys::fs::remove_directories(path); }
  std::string file(StringRef name) const {
    SmallString<128> p(path);
    sys::path::append(p, name);
    return p.str().str();
  }
  unsigned entries() const {
    unsigned n = 0;
    std::error_code ec;
    for (sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
         it.increment(ec))
      ++n;
    return n;
  }
};

} // namespace

TEST(RuleBase, LearnMergesAndConfirms) {
  RuleBase base;
  Expected<const Rule *> first = base.learn(l2Rule());
  ASSERT_TRUE(bool(first)) << toString(first.takeError());
  EXPECT_EQ((*first)->id, "rule-1");
  EXPECT_EQ((*first)->confidence, RuleConfidence::Experimental);
  EXPECT_EQ((*first)->hits, 1u);
  Rule again = l2Rule();
  again.evidence = "candidate_5: L2 at 0.97";
  Expected<const Rule *> second = base.learn(again);
  ASSERT_TRUE(bool(second)) << toString(second.takeError());
  ASSERT_EQ(base.rules().size(), 1u);
  EXPECT_EQ((*second)->hits, 2u);
  EXPECT_EQ((*second)->confidence, RuleConfidence::Confirmed);
  EXPECT_EQ((*second)->evidence, "candidate_5: L2 at 0.97");
  EXPECT_EQ((*second)->actionName(), "drop_pragma");
  EXPECT_EQ((*second)->actionArgs(), std::vector<std::string>{"sm_shuffle"});
}

TEST(RuleBase, MatchesHardwareAndEveryConditionFact) {
  RuleBase base;
  ASSERT_TRUE(bool(base.learn(l2Rule())));
  Rule any = l2Rule();
  any.id = "any-hw";
  any.hw = "*";
  any.condition = "loop:serial";
  any.action = "set(l2_prefetch)";
  ASSERT_TRUE(bool(base.learn(any)));
  std::vector<std::string> facts = {"loop:serial", "pragma:sm_shuffle"};
  auto onA100 = base.matching("A100-40GB-SXM4", facts);
  ASSERT_EQ(onA100.size(), 2u);
  EXPECT_EQ(onA100[0]->id, "any-hw");
  EXPECT_EQ(base.matching("H200-SXM", facts).size(), 1u); // only "*"
  EXPECT_EQ(base.matching("A100-40GB-SXM4", {"loop:serial"}).size(), 1u);
}

TEST(RuleBase, RejectsInvalidRules) {
  RuleBase base;
  Rule bad = l2Rule();
  bad.action = "drop_pragma(sm_shuffle";
  Expected<const Rule *> r = base.learn(bad);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(toString(r.takeError()),
            "rule 'rule-1': 'action' must be 'name' or 'name(arg, ...)', got "
            "'drop_pragma(sm_shuffle'");
  bad = l2Rule();
  bad.condition = " and ";
  r = base.learn(bad);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(toString(r.takeError()),
            "rule 'rule-1': 'condition' must list at least one IR fact");
  EXPECT_TRUE(base.rules().empty());
}

TEST(RuleBase, RoundTripsThroughAFile) {
  TempDir dir;
  std::string path = dir.file("rules.yaml");
  Expected<RuleBase> empty = RuleBase::load(path); // no file yet
  ASSERT_TRUE(bool(empty)) << toString(empty.takeError());
  EXPECT_TRUE(empty->rules().empty());
  RuleBase base;
  ASSERT_TRUE(bool(base.learn(l2Rule())));
  Rule seed = l2Rule();
  seed.id = "seed.h100-nanosleep";
  seed.hw = "H100-SXM";
  seed.trigger = "128-cycle stall after __syncthreads";
  seed.condition = "sync_point:post_softmax";
  seed.action = "insert_nanosleep(64)";
  seed.source = RuleSource::Seed;
  ASSERT_TRUE(bool(base.learn(seed)));
  ASSERT_FALSE(bool(base.save(path)));
  Expected<RuleBase> loaded = RuleBase::load(path);
  ASSERT_TRUE(bool(loaded)) << toString(loaded.takeError());
  ASSERT_EQ(loaded->rules().size(), 2u);
  EXPECT_EQ(loaded->rules()[1].id, "seed.h100-nanosleep");
  EXPECT_EQ(loaded->rules()[1].source, RuleSource::Seed);
  EXPECT_EQ(loaded->rules()[1].actionArgs(), std::vector<std::string>{"64"});
  std::string a, b;
  raw_string_ostream oa(a), ob(b);
  base.print(oa);
  loaded->print(ob);
  EXPECT_EQ(a, b);
  EXPECT_EQ(dir.entries(), 1u); // no temporary file left
}

TEST(RuleBase, TheDocumentedExampleLoads) {
  Expected<RuleBase> base = RuleBase::load(KDA2_EXAMPLE_RULES);
  ASSERT_TRUE(bool(base)) << toString(base.takeError());
  ASSERT_EQ(base->rules().size(), 3u);
  EXPECT_EQ(base->rules()[0].actionName(), "insert_nanosleep");
  auto onH100 = base->matching("H100-SXM", {"sync_point:post_softmax"});
  ASSERT_EQ(onH100.size(), 1u);
  EXPECT_EQ(onH100[0]->id, "seed.h100-post-softmax-nanosleep");
}

TEST(RuleBase, CorruptDatabaseIsLocatedAndLeftUntouched) {
  TempDir dir;
  std::string path = dir.file("rules.yaml");
  const std::string corrupt = "rules:\n"
                              "  - id: a\n"
                              "    hw: '*'\n"
                              "    trigger: t\n"
                              "    condition: loop:serial\n"
                              "    action: set(x)\n"
                              "    confidence: sure\n"
                              "    source: seed\n";
  {
    std::error_code ec;
    raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << corrupt;
  }
  Expected<RuleBase> loaded = RuleBase::load(path);
  ASSERT_FALSE(bool(loaded));
  std::string message = toString(loaded.takeError());
  EXPECT_NE(message.find(path + ":7:17: error: unknown enumerated scalar"),
            std::string::npos)
      << message;
  EXPECT_EQ(readFile(path), corrupt);
}

TEST(RuleBase, SemanticErrorsPointAtTheRule) {
  const char *dup = "rules:\n"
                    "  - id: a\n"
                    "    hw: '*'\n"
                    "    trigger: t\n"
                    "    condition: loop:serial\n"
                    "    action: set(x)\n"
                    "    confidence: confirmed\n"
                    "    source: seed\n"
                    "  - id: a\n"
                    "    hw: H200-SXM\n"
                    "    trigger: t\n"
                    "    condition: loop:thread\n"
                    "    action: set(y)\n"
                    "    confidence: experimental\n"
                    "    source: measured\n";
  Expected<RuleBase> r = RuleBase::parse(dup, "db.yaml");
  ASSERT_FALSE(bool(r));
  std::string message = toString(r.takeError());
  EXPECT_EQ(message.rfind("db.yaml:9:5: error: duplicate rule id 'a'", 0), 0u)
      << message;
  std::string noAction = dup;
  noAction.replace(noAction.find("set(y)"), 6, "set(y");
  r = RuleBase::parse(noAction, "db.yaml");
  ASSERT_FALSE(bool(r));
  message = toString(r.takeError());
  EXPECT_EQ(message.rfind("db.yaml:9:5: error: rule #2: 'action' must be", 0), 0u)
      << message;
  // Found by fuzzing (Inputs/rules-alias-unlocated.yaml, a mutated example
  // with `source: *seed`): llvm::yaml::Input reported "<unknown>:0: error:
  // unknown node kind"; every error now names the file, line and column.
  Expected<RuleBase> fuzzed = RuleBase::load(KDA2_ALIAS_RULES);
  ASSERT_FALSE(bool(fuzzed));
  message = toString(fuzzed.takeError());
  EXPECT_EQ(message.find("<unknown>"), std::string::npos) << message;
  EXPECT_EQ(message.rfind(std::string(KDA2_ALIAS_RULES) + ":", 0), 0u)
      << message;
  r = RuleBase::parse("rules: 3\n", "db.yaml");
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(toString(r.takeError()).rfind("db.yaml:1:8: error: not a sequence", 0),
            0u);
}

TEST(AtomicWrite, InterruptedWriterLeavesTheOldFile) {
  TempDir dir;
  std::string path = dir.file("report.json");
  ASSERT_FALSE(bool(writeFileAtomically(path, [](raw_ostream &os) {
    os << "{\"version\": 1}\n";
    return Error::success();
  })));
  // A writer that fails half-way (e.g. interrupted by an error): the old
  // contents stay, and the temporary file is gone.
  Error err = writeFileAtomically(path, [](raw_ostream &os) {
    os << "{\"version\": 2, \"candidates\": [";
    return make_error<StringError>("simulator crashed",
                                   inconvertibleErrorCode());
  });
  ASSERT_TRUE(bool(err));
  std::string message = toString(std::move(err));
  EXPECT_NE(message.find("simulator crashed"), std::string::npos) << message;
  EXPECT_EQ(readFile(path), "{\"version\": 1}\n");
  EXPECT_EQ(dir.entries(), 1u);
  // Writing into a directory that does not exist fails with the path.
  err = writeFileAtomically(dir.file("missing/x.json"), [](raw_ostream &os) {
    os << "x";
    return Error::success();
  });
  ASSERT_TRUE(bool(err));
  EXPECT_NE(toString(std::move(err)).find("missing/x.json: error: cannot write"),
            std::string::npos);
}

TEST(AtomicWrite, WriterKilledMidWayLeavesTheOldFile) {
  TempDir dir;
  std::string path = dir.file("rules.yaml");
  RuleBase base;
  ASSERT_TRUE(bool(base.learn(l2Rule())));
  ASSERT_FALSE(bool(base.save(path)));
  std::string before = readFile(path);
  // A child process dies in the middle of writing a new database.
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    (void)writeFileAtomically(path, [](raw_ostream &os) {
      os << "rules:\n  - id: half";
      os.flush();
      _exit(3);
      return Error::success();
    });
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  EXPECT_EQ(readFile(path), before);
  EXPECT_EQ(dir.entries(), 1u);
  Expected<RuleBase> loaded = RuleBase::load(path);
  ASSERT_TRUE(bool(loaded)) << toString(loaded.takeError());
  EXPECT_EQ(loaded->rules().size(), 1u);
}
