//===- kda2-agent.cpp - The design agent's command line ---------*- C++ -*-===//
//
// Part of the kda2 project.
//
//===----------------------------------------------------------------------===//
//
// kda2-agent searches schedule choices of a .tirx template (or kda2 IR),
// lowers, simulates and ranks the candidates, and learns rules from the
// rejected ones (docs/Agent.md). The work is in lib/Agent/Agent.cpp.
//
//   kda2-agent templates/kda_chunk_split.tirx --profile=H200-SXM \
//       --tirx-bind=IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=32,VB=32,NVB=4 \
//       --shapes=n=1,h=8,t=4096 --output-dir=out --rules=rules.yaml
//
//===----------------------------------------------------------------------===//

#include "kda2/Agent/Agent.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::OptionCategory category("kda2-agent options");
static cl::opt<std::string> input(cl::Positional, cl::desc("<input .tirx|.mlir>"),
                                  cl::cat(category));
static cl::opt<std::string>
    profile("profile",
            cl::desc("Hardware profile: a built-in name or a YAML file"),
            cl::init("H200-SXM"), cl::cat(category));
static cl::opt<double> latencyTarget(
    "latency-target-ms",
    cl::desc("Reject candidates predicted slower than this (0: none)"),
    cl::init(0), cl::cat(category));
static cl::opt<double> memoryBudget(
    "memory-budget-mb",
    cl::desc("Reject candidates whose global tensors need more MiB (0: the "
             "profile's device memory)"),
    cl::init(0), cl::cat(category));
static cl::opt<unsigned> searchDepth("search-depth",
                                     cl::desc("Rewrite rounds (0-8)"),
                                     cl::init(3), cl::cat(category));
static cl::opt<unsigned>
    candidateCount("candidate-count",
                   cl::desc("Candidates to evaluate, baseline included (1-16)"),
                   cl::init(7), cl::cat(category));
static cl::opt<std::string>
    outputDir("output-dir", cl::desc("Directory for candidates and report"),
              cl::init("kda2-agent-out"), cl::cat(category));
static cl::opt<std::string>
    rules("rules",
          cl::desc("Rule base (YAML); created when a rule is learned"),
          cl::init(""), cl::cat(category));
static cl::opt<bool> learn("learn",
                           cl::desc("Learn rules into --rules (default on)"),
                           cl::init(true), cl::cat(category));
static cl::opt<std::string>
    shapes("shapes", cl::desc("Sizes to plan for: n=1,h=8,t=4096"),
           cl::init(""), cl::cat(category));
static cl::list<std::string>
    bind("tirx-bind",
         cl::desc("Baseline template bindings: K=128,VB=32,IN=bf16"),
         cl::CommaSeparated, cl::cat(category));
static cl::opt<std::string>
    feedback("feedback",
             cl::desc("Measured results (JSON) to learn regressions from"),
             cl::init(""), cl::cat(category));
static cl::opt<int64_t> simMaxTripCount(
    "sim-max-trip-count",
    cl::desc("Simulate loops longer than this for N and 2N trips and "
             "extrapolate (0: only over the simulator's budget)"),
    cl::init(16), cl::cat(category));
static cl::opt<unsigned> jobs("j", cl::desc("Worker threads (0: all cores)"),
                              cl::init(0), cl::cat(category));
static cl::opt<std::string>
    ptxas("ptxas",
          cl::desc("ptxas executable (default: $CUDA_HOME/bin, "
                   "/usr/local/cuda/bin, then PATH)"),
          cl::init(""), cl::cat(category));
static cl::opt<std::string>
    nvlink("nvlink",
           cl::desc("nvlink executable (default: $CUDA_HOME/bin, "
                    "/usr/local/cuda/bin, then PATH)"),
           cl::init(""), cl::cat(category));

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "kda2 design agent: search, simulate, rank\n");
  mlir::kda2::AgentOptions options;
  options.input = input;
  options.profile = profile;
  options.latencyTargetMs = latencyTarget;
  options.memoryBudgetMB = memoryBudget;
  options.searchDepth = searchDepth;
  options.candidateCount = candidateCount;
  options.outputDir = outputDir;
  options.rulesPath = rules;
  options.learn = learn;
  options.shapes = shapes;
  options.bindings.assign(bind.begin(), bind.end());
  options.feedbackPath = feedback;
  options.jobs = jobs;
  options.ptxas = ptxas;
  options.nvlink = nvlink;
  options.simMaxTripCount = simMaxTripCount;
  if (Error err = mlir::kda2::runAgent(options, outs(), errs())) {
    outs().flush();
    errs() << "kda2-agent: " << toString(std::move(err)) << "\n";
    return 1;
  }
  return 0;
}
