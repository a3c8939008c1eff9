# -*- Python -*-
# lit configuration of the kda2 test suite.

import os
import shutil
import sys

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
tools = ["kda2-opt", "kda2-translate", "kda2-agent", "kda2-perf",
         "kda2-calibrate", "kda2-link"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Optional CUDA toolkit pieces, looked up where kda2-translate looks for
# them (lib/Target/PTX.cpp, lib/Pipelines/Pipelines.cpp): `ptxas` for
# --kda2-to-cubin, libdevice for kernels that call math functions.
cuda_roots = [r for r in [os.environ.get("CUDA_HOME"), "/usr/local/cuda"] if r]
ptxas = next((os.path.join(r, "bin", "ptxas") for r in cuda_roots
              if os.access(os.path.join(r, "bin", "ptxas"), os.X_OK)),
             shutil.which("ptxas"))
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
# nvlink: kda2-agent links the cubins of candidates of several kernels.
if any(os.access(os.path.join(r, "bin", "nvlink"), os.X_OK)
       for r in cuda_roots) or shutil.which("nvlink"):
    config.available_features.add("nvlink")
libdevice_roots = [
    r for r in cuda_roots
    if os.path.isfile(os.path.join(r, "nvvm", "libdevice", "libdevice.10.bc"))]
if libdevice_roots:
    config.available_features.add("libdevice")
    # A toolkit root holding libdevice, for --kda2-cuda-path.
    config.substitutions.append(("%cuda_root", libdevice_roots[0]))
if os.environ.get("CUDA_HOME"):
    config.environment["CUDA_HOME"] = os.environ["CUDA_HOME"]

# A disassembler for kda2-translate --dump-asm's SASS (optional, like ptxas).
if any(os.access(os.path.join(r, "bin", t), os.X_OK)
       for r in cuda_roots for t in ("cuobjdump", "nvdisasm")) \
        or shutil.which("cuobjdump") or shutil.which("nvdisasm"):
    config.available_features.add("cuobjdump")

# The fake CUDA driver (unittests/Runtime/FakeCuda.h): the GPU tools run on
# it without a GPU (KDA2RT_LIBCUDA=%fake_cuda); kernels compute nothing.
config.substitutions.append(
    ("%fake_cuda", os.path.join(config.kda2_obj_root, "lib", "libkda2fakecuda.so")))
config.substitutions.append(("%python", sys.executable))
