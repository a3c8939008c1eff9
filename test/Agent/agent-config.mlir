// RUN: kda2-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// kda2-agent's record of a candidate's choices is a module dictionary.
// CHECK: module attributes {kda2.config = {C = 32 : i64, tma_pipeline = true}}
module attributes {kda2.config = {C = 32 : i64, tma_pipeline = true}} {
}

// -----

// expected-error @below {{'kda2.config' must be a dictionary on a builtin.module}}
module attributes {kda2.config = "C=32"} {
}
