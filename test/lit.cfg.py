# -*- Python -*-
# lit configuration of the kda2 test suite.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "KDA2"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tirx", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kda2_obj_root, "test")
# Fuzz/: libFuzzer targets and their seed corpus (.tirx/.mlir seeds, not tests).
config.excludes = ["CMakeLists.txt", "README.txt", "lit.cfg.py",
                   "lit.site.cfg.py", "Inputs", "Fuzz"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%kda2_src", config.kda2_src_root))
config.substitutions.append(("%profiles", os.path.join(config.kda2_src_root, "profiles")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.kda2_tools_dir, config.llvm_tools_dir]
tools = ["kda2-opt", "kda2-translate", "kda2-agent"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Optional CUDA toolkit pieces, looked up where kda2-translate looks for
# them (lib/Target/PTX.cpp, lib/Pipelines/Pipelines.cpp): `ptxas` for
# --kda2-to-cubin, libdevice for kernels that call math functions.
cuda_roots = [r for r in [os.environ.get("CUDA_HOME"), "/usr/local/cuda"] if r]
if any(os.access(os.path.join(r, "bin", "ptxas"), os.X_OK) for r in cuda_roots) \
        or shutil.which("ptxas"):
    config.available_features.add("ptxas")
libdevice_roots = [
    r for r in cuda_roots
    if os.path.isfile(os.path.join(r, "nvvm", "libdevice", "libdevice.10.bc"))]
if libdevice_roots:
    config.available_features.add("libdevice")
    # A toolkit root holding libdevice, for --kda2-cuda-path.
    config.substitutions.append(("%cuda_root", libdevice_roots[0]))
if os.environ.get("CUDA_HOME"):
    config.environment["CUDA_HOME"] = os.environ["CUDA_HOME"]
