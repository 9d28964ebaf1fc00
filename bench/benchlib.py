"""Shared by the benchmark scripts: where the cuda-bank-lint binary is."""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_tool(given, script):
    """The binary given with --tool, else the README's build/ (or build-bench/)."""
    tool = given
    if tool is None:
        for c in ("build/bin/cuda-bank-lint", "build-bench/bin/cuda-bank-lint"):
            if os.path.exists(os.path.join(REPO, c)):
                tool = os.path.join(REPO, c)
                break
    if not tool or not os.path.exists(tool):
        sys.exit(f"{script}: no cuda-bank-lint binary (build it, or pass --tool)")
    return os.path.abspath(tool)
