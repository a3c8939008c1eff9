//===- AgentTest.cpp - Rule extraction of the design agent ------*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
//
// The agent's feedback logic without IR: the facts of a configuration, the
// rule learned from a rejected candidate, the rules learned from measured
// regressions, and how rules prune and rank candidates.
//
//===----------------------------------------------------------------------===//

#include "kda2/Agent/Agent.h"

#include "gtest/gtest.h"

using namespace mlir::kda2;

namespace {

AgentConfig chunkConfig(int64_t c, int64_t vb, bool pipeline) {
  AgentConfig config;
  config.bindings = {{"C", c}, {"K", 128}, {"V", 128}, {"VB", vb},
                     {"NVB", 128 / vb}};
  config.otherBindings = {{"IN", "bf16"}};
  config.switches = {{"tma_pipeline", pipeline}, {"l2_prefetch", false}};
  return config;
}

ConstraintResult failed(const char *name, double value, double limit) {
  ConstraintResult c;
  c.name = name;
  c.ok = false;
  c.value = value;
  c.limit = limit;
  c.unit = "B";
  return c;
}

TEST(AgentConfigTest, FactsAreSortedChoices) {
  AgentConfig config = chunkConfig(32, 16, true);
  std::vector<std::string> facts = config.facts();
  EXPECT_TRUE(std::is_sorted(facts.begin(), facts.end()));
  for (const char *fact : {"C=32", "VB=16", "NVB=8", "IN=bf16",
                           "tma_pipeline=on", "l2_prefetch=off",
                           "pragma:tma_pipeline"})
    EXPECT_NE(std::find(facts.begin(), facts.end(), fact), facts.end())
        << fact;
  EXPECT_EQ(config.bindString(), "C=32,IN=bf16,K=128,NVB=8,V=128,VB=16");
  EXPECT_EQ(config.summary(),
            "C=32 K=128 NVB=8 V=128 VB=16 l2_prefetch=off tma_pipeline=on");
}

TEST(AgentRuleTest, SharedMemoryRejectionGivesAvoidRule) {
  std::optional<Rule> rule = ruleFromRejection(
      chunkConfig(32, 64, true), "VB=64",
      failed("shared_memory", 240000, 232448), "H200-SXM", "kda_chunk_split",
      {"shape:t=4096"}, "candidate_3");
  ASSERT_TRUE(rule);
  EXPECT_EQ(rule->hw, "H200-SXM");
  // Sizes (not the derived NVB), the rewrite and the template; no shapes.
  EXPECT_EQ(rule->condition,
            "C=32 and K=128 and V=128 and VB=64 and template:kda_chunk_split");
  EXPECT_EQ(rule->action, "avoid(VB=64)");
  EXPECT_EQ(rule->trigger, "shared_memory 240000 B > 232448 B");
  EXPECT_NE(rule->evidence.find("candidate_3"), std::string::npos);
  EXPECT_EQ(rule->source, RuleSource::Simulator);
  EXPECT_EQ(rule->confidence, RuleConfidence::Experimental);
}

TEST(AgentRuleTest, L2RuleDependsOnTheShapes) {
  std::optional<Rule> rule = ruleFromRejection(
      chunkConfig(16, 16, true), "C=16", failed("l2_bandwidth", 0.95, 0.92),
      "H200-SXM", "kda_chunk_split", {"shape:n=64", "shape:t=4096"}, "c");
  ASSERT_TRUE(rule);
  EXPECT_NE(rule->condition.find("shape:n=64 and shape:t=4096"),
            std::string::npos);
  EXPECT_EQ(rule->action, "avoid(C=16)");
}

TEST(AgentRuleTest, NoRuleForTheRequestOrTheBaseline) {
  AgentConfig config = chunkConfig(32, 32, true);
  EXPECT_FALSE(ruleFromRejection(config, "VB=32",
                                 failed("latency_target", 900, 100), "H200-SXM",
                                 "t", {}, "c"));
  EXPECT_FALSE(ruleFromRejection(config, "VB=32",
                                 failed("memory_budget", 9e9, 1e9), "H200-SXM",
                                 "t", {}, "c"));
  // The baseline: no rewrite to avoid.
  EXPECT_FALSE(ruleFromRejection(config, "",
                                 failed("shared_memory", 3e5, 2e5), "H200-SXM",
                                 "t", {}, "c"));
  ConstraintResult ok;
  ok.name = "shared_memory";
  EXPECT_FALSE(
      ruleFromRejection(config, "VB=32", ok, "H200-SXM", "t", {}, "c"));
}

TEST(AgentRuleTest, LearningTheSameRejectionTwiceConfirmsIt) {
  RuleBase base;
  for (int i = 0; i < 2; ++i) {
    std::optional<Rule> rule = ruleFromRejection(
        chunkConfig(32, 64, true), "VB=64",
        failed("shared_memory", 240000, 232448), "H200-SXM", "t", {}, "c");
    ASSERT_TRUE(rule);
    llvm::Expected<const Rule *> learned = base.learn(std::move(*rule));
    ASSERT_TRUE(bool(learned)) << llvm::toString(learned.takeError());
  }
  ASSERT_EQ(base.rules().size(), 1u);
  EXPECT_EQ(base.rules()[0].hits, 2u);
  EXPECT_EQ(base.rules()[0].confidence, RuleConfidence::Confirmed);
}

TEST(AgentRuleTest, RegressionGivesPreferRule) {
  MeasuredCandidate fast{"candidate_1", chunkConfig(32, 32, false), 700, 1.2};
  MeasuredCandidate slow{"candidate_2", chunkConfig(32, 32, true), 800, 0.9};
  std::vector<Rule> rules =
      rulesFromRegressions({fast, slow}, "H200-SXM", "kda_chunk_split");
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].action, "prefer(tma_pipeline=on)");
  EXPECT_EQ(rules[0].condition,
            "C=32 and K=128 and V=128 and VB=32 and template:kda_chunk_split");
  EXPECT_EQ(rules[0].source, RuleSource::Measured);
  EXPECT_NE(rules[0].evidence.find("measured 1.2 ms"), std::string::npos);
}

TEST(AgentRuleTest, AgreementOrSmallDifferencesGiveNoRule) {
  MeasuredCandidate a{"a", chunkConfig(32, 32, false), 700, 0.9};
  MeasuredCandidate b{"b", chunkConfig(32, 32, true), 800, 1.2};
  EXPECT_TRUE(rulesFromRegressions({a, b}, "H200-SXM", "t").empty());
  // Slower by less than the 5 % margin.
  MeasuredCandidate c{"c", chunkConfig(32, 32, false), 700, 1.03};
  MeasuredCandidate d{"d", chunkConfig(32, 32, true), 800, 1.0};
  EXPECT_TRUE(rulesFromRegressions({c, d}, "H200-SXM", "t").empty());
}

TEST(AgentRuleTest, JudgeAppliesAvoidPreferAndDropPragma) {
  Rule avoid;
  avoid.id = "avoid-vb64";
  avoid.hw = "H200-SXM";
  avoid.condition = "C=32 and VB=64";
  avoid.action = "avoid(VB=64)";
  Rule prefer = avoid;
  prefer.id = "prefer-pipe";
  prefer.condition = "C=32";
  prefer.action = "prefer(tma_pipeline=on)";
  prefer.confidence = RuleConfidence::Confirmed;
  Rule drop = avoid;
  drop.id = "drop-l2";
  drop.condition = "C=16";
  drop.action = "drop_pragma(l2_prefetch)";
  Rule other = avoid;
  other.id = "nanosleep";
  other.action = "insert_nanosleep(64)";
  std::vector<const Rule *> rules = {&avoid, &prefer, &drop, &other};

  RuleVerdict v = judge(rules, chunkConfig(32, 64, true).facts());
  ASSERT_NE(v.avoidedBy, nullptr);
  EXPECT_EQ(v.avoidedBy->id, "avoid-vb64");
  EXPECT_EQ(v.preference, 2);
  EXPECT_EQ(v.fired, (std::vector<std::string>{"avoid-vb64", "prefer-pipe"}));

  v = judge(rules, chunkConfig(32, 32, false).facts());
  EXPECT_EQ(v.avoidedBy, nullptr);
  EXPECT_EQ(v.preference, 0);
  EXPECT_TRUE(v.fired.empty());

  AgentConfig withPrefetch = chunkConfig(16, 32, false);
  withPrefetch.switches["l2_prefetch"] = true;
  v = judge(rules, withPrefetch.facts());
  ASSERT_NE(v.avoidedBy, nullptr);
  EXPECT_EQ(v.avoidedBy->id, "drop-l2");
  EXPECT_FALSE(isAgentAction(other));
}

} // namespace
