# -*- Python -*-
# lit configuration of the kda2 test suite.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "KDA2"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tirx", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kda2_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.txt", "lit.cfg.py",
                   "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%kda2_src", config.kda2_src_root))
config.substitutions.append(("%profiles", os.path.join(config.kda2_src_root, "profiles")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.kda2_tools_dir, config.llvm_tools_dir]
tools = ["kda2-opt", "kda2-translate"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
