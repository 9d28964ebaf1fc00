# lit configuration for cuda-bank-lint: every .cu/.cuh/.test under test/lit is
# a test; RUN lines use %cbl (the tool in prelude mode, so results do not depend
# on whether a CUDA toolkit is installed) and FileCheck from LLVM 19.
import os
import shutil
import lit.formats
import lit.util

config.name = "cuda-bank-lint"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".cuh", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.join(config.cbl_src_root, "test", "lit")
config.test_exec_root = os.path.join(config.cbl_obj_root, "test", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.cbl_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
tool = os.path.join(config.cbl_tools_dir, "cuda-bank-lint")
config.substitutions.append(("%cbl-any", tool))
config.substitutions.append(("%cbl", tool + " --cuda-mode=prelude"))
config.substitutions.append(("%FileCheck", os.path.join(config.llvm_tools_dir, "FileCheck")))
config.substitutions.append(("%not", os.path.join(config.llvm_tools_dir, "not")))
config.substitutions.append(
    ("%expect-exit", "python3 " + os.path.join(config.test_source_root, "Inputs", "expect-exit.py")))

if os.path.exists("/usr/local/cuda/include/cuda_runtime.h"):
    config.available_features.add("cuda-toolkit")
if shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc"):
    config.available_features.add("nvcc")

# A checkout of NVIDIA/cccl (fetched, never committed) for the tests that run
# over CUB's own examples: CBL_CCCL_DIR=/path/to/cccl; skipped otherwise.
cccl = os.environ.get("CBL_CCCL_DIR", "")
if cccl and os.path.isdir(os.path.join(cccl, "cub", "examples", "block")):
    config.available_features.add("cccl-checkout")
    config.substitutions.append(("%cccl", cccl))

# A checkout of NVIDIA/cutlass (fetched, never committed) for the CuTe suite
# measured on the device (bench/cute, integration/cute-suite.test):
# CBL_CUTLASS_DIR=/path/to/cutlass; skipped otherwise.
cutlass = os.environ.get("CBL_CUTLASS_DIR", "")
if cutlass and os.path.isdir(os.path.join(cutlass, "include", "cute")):
    config.available_features.add("cutlass-checkout")
    config.substitutions.append(("%cutlass", cutlass))

# A checkout of Dao-AILab/flash-attention (fetched, never committed; its
# csrc/cutlass submodule may be empty: CUTLASS comes from CBL_CUTLASS_DIR) for
# the FlashAttention kernels (integration/flash-attention.test):
# CBL_FLASH_ATTENTION_DIR=/path/to/flash-attention; skipped otherwise.
flash = os.environ.get("CBL_FLASH_ATTENTION_DIR", "")
if flash and os.path.isdir(os.path.join(flash, "csrc", "flash_attn", "src")):
    config.available_features.add("flash-attention-checkout")
    config.substitutions.append(("%flashattn", flash))
