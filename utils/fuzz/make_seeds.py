#!/usr/bin/env python3
"""Builds the seed corpora of the libFuzzer targets (utils/fuzz/fuzz-*.cpp)
from the lit suite, so that the seeds follow the tests:

  OUT/frontend    every .cu/.cuh under test/lit and examples/ (cut to 4 KB at
                  a line end: the target's size cap)
  OUT/config      each configuration a lit RUN line writes (printf ... > *.yaml)
                  or passes inline (--config=...)
  OUT/compile-db  each database a RUN line writes, and databases generated
                  from the nvcc flags of shared/notes/platform.md's table

plus the hand-written seeds in utils/fuzz/seeds/<target>. Generated files are
never committed.   utils/fuzz/make_seeds.py OUT [TARGET...]  (default: all three)
"""
import glob
import hashlib
import json
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_FRONTEND = 4096

# One nvcc command line each (the file is appended), from CMake's Ninja and
# Makefile generators and hand-written builds.
NVCC_FLAGS = [
    "-arch=sm_80 -O3 -std=c++17",
    "--generate-code=arch=compute_80,code=[compute_80,sm_80] -forward-unknown-to-host-compiler",
    "-gencode arch=compute_70,code=sm_70 -gencode arch=compute_90,code=sm_90a -x cu -rdc=true",
    "-Xcompiler=-fPIC,-Wall -Xcompiler -fopenmp --expt-relaxed-constexpr --extended-lambda",
    "--options-file includes.rsp -DN=64 -UX --include-path inc --system-include /opt/x",
    "-optf=flags.rsp @more.rsp -ccbin g++ -Xptxas -v -lineinfo -G -maxrregcount=32",
    "-arch=native --use_fast_math --ftz=true --prec-div=false --fmad=false --diag-suppress=177",
    "--pre-include pre.h --define-macro A=1 --std c++20 -dc -o k.o",
]


def printf_unescape(s):
    return (s.replace("\\\\", "\0").replace("\\n", "\n").replace("\\t", "\t")
            .replace("\\'", "'").replace('\\"', '"').replace("\0", "\\"))


def write(out, data):
    data = data.encode() if isinstance(data, str) else data
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def run_lines():
    for path in glob.glob(os.path.join(ROOT, "test", "lit", "**", "*"), recursive=True):
        if os.path.isfile(path) and path.endswith((".test", ".cu", ".cuh")):
            with open(path, errors="replace") as f:
                for line in f:
                    if "RUN:" in line:
                        yield line.split("RUN:", 1)[1]


QUOTED = r"(\"(?:[^\"\\]|\\.)*\"|'[^']*')"


def frontend(out):
    files = glob.glob(os.path.join(ROOT, "test", "lit", "**", "*.cu*"), recursive=True)
    files += glob.glob(os.path.join(ROOT, "examples", "*.cu"))
    for path in sorted(files):
        with open(path, "rb") as f:
            data = f.read()
        if len(data) > MAX_FRONTEND:
            data = data[:data.rfind(b"\n", 0, MAX_FRONTEND) + 1]
        write(out, data)


def config(out):
    for line in run_lines():
        for m in re.finditer(r"printf " + QUOTED + r" > \S*\.ya?ml", line):
            write(out, printf_unescape(m.group(1)[1:-1]))
        for m in re.finditer(r"--config=" + QUOTED, line):
            write(out, m.group(1)[1:-1])


def compile_db(out):
    for line in run_lines():
        for m in re.finditer(r"printf " + QUOTED + r" > \S*compile_commands\.json", line):
            write(out, printf_unescape(m.group(1)[1:-1]).replace("%t", "/tmp/cbl-fuzz"))
    inputs = os.path.join(ROOT, "test", "lit", "integration", "Inputs")
    for i, flags in enumerate(NVCC_FLAGS):
        entry = {"directory": inputs, "file": "conflict.cu"}
        if i % 2:
            entry["arguments"] = ["/usr/local/cuda/bin/nvcc"] + flags.split() + ["-c", "conflict.cu"]
        else:
            entry["command"] = "nvcc " + flags + " -c conflict.cu"
        clang = {"directory": inputs, "file": "other.cu",
                 "command": "clang++ -x cuda --cuda-gpu-arch=sm_80 -I. -c other.cu"}
        write(out, json.dumps([entry, clang] if i % 3 == 0 else [entry], indent=1))


def main():
    makers = {"frontend": frontend, "config": config, "compile-db": compile_db}
    if len(sys.argv) < 2 or any(t not in makers for t in sys.argv[2:]):
        sys.exit(__doc__)
    for name in sys.argv[2:] or makers:
        make = makers[name]
        out = os.path.join(sys.argv[1], name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        make(out)
        for seed in glob.glob(os.path.join(ROOT, "utils", "fuzz", "seeds", name, "*")):
            with open(seed, "rb") as f:
                write(out, f.read())
        print("%s: %d seeds in %s" % (name, len(os.listdir(out)), out))


if __name__ == "__main__":
    main()
