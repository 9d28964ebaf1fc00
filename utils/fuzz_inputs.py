#!/usr/bin/env python3
"""Mutation fuzzing of the tool's untrusted inputs: the config file, the
compilation database (with nvcc commands to translate) and CUDA sources.

Each run gives the tool one mutated input (from seeds written here and the
kernels under examples/ and test/lit/bank-conflict/) with a time limit, and
counts it a finding when the tool dies from a signal, times out, exits with
a code other than 0, 1 or 2, or prints a sanitizer report. Findings are saved
under --out. Use a sanitized build (utils/sanitize.sh) to catch memory errors.

  utils/fuzz_inputs.py --tool /tmp/asan-build/bin/cuda-bank-lint --runs 300 --out /tmp/fuzz
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CONFIG_SEED = """Checks: 'cuda-*,-cuda-barrier-early-exit'
WarningsAsErrors: 'cuda-shared-bank-conflict'
HeaderFilterRegex: '.*'
SystemHeaders: false
InheritParentConfig: false
Arch: sm_90
MinConflictDegree: 2
ExtraArgs: ['-DTILE=32', '-std=c++17']
ExtraArgsBefore: ['-DX=1']
BlockDim:
  'transpose*': [32, 8, 1]
  '*': [256]
CheckOptions:
  cuda-barrier-early-exit.Severity: remark
  cuda-shared-bank-conflict.PossibleSeverity: remark
"""

DB_SEED = [
    {"directory": "{dir}", "file": "{file}",
     "command": "/usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 -DN=64 -Xcompiler -fopenmp "
                "--expt-relaxed-constexpr -lineinfo -I{dir}/inc -isystem /opt/x -c {file} -o k.o"},
    {"directory": "{dir}", "file": "{file}",
     "arguments": ["nvcc", "-gencode", "arch=compute_90,code=sm_90", "-x", "cu", "--default-stream",
                   "per-thread", "-rdc=true", "-c", "{file}"]},
]

TOKENS = ["{", "}", "[", "]", ":", "'", '"', ",", "-", "*", "\\", "\x00", "\xff", "99999999999999999999",
          "-1", "0x", "&", "!!", "%", "<<<", ">>>", "__shared__", "threadIdx.x", "#include", "#define X(",
          "template <", "asm volatile(\"ld.shared.u32 %0, [%1];\"", "__syncthreads();", "\n", "\t", "...",
          "- [", "? ", "&a ", "*a", "!!binary", "Checks:", "BlockDim:", "--", "-I", "-D", "-Xcompiler"]


def mutate(text, rng):
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(6)
        pos = rng.randrange(len(text) + 1)
        if kind == 0 and text:  # flip a byte
            text = text[:pos] + chr(rng.randrange(1, 256)) + text[pos + 1:]
        elif kind == 1:  # insert a token
            text = text[:pos] + rng.choice(TOKENS) + text[pos:]
        elif kind == 2 and text:  # delete a span
            text = text[:pos] + text[pos + rng.randint(1, 40):]
        elif kind == 3:  # truncate
            text = text[:pos]
        elif kind == 4:  # duplicate a line
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        else:  # swap two lines
            lines = text.split("\n")
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


def run(tool, args, timeout):
    try:
        p = subprocess.run([tool] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout, env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
    except subprocess.TimeoutExpired:
        return "timeout", "", None
    err = p.stderr.decode("utf-8", "replace")
    if "AddressSanitizer" in err or "runtime error:" in err or "LeakSanitizer" in err:
        return "sanitizer", err, p.returncode
    if p.returncode < 0 or p.returncode not in (0, 1, 2):
        return "exit %d" % p.returncode, err, p.returncode
    return "", err, p.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", default=os.path.join(ROOT, "build/bin/cuda-bank-lint"))
    ap.add_argument("--runs", type=int, default=100, help="runs per target")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "cbl-fuzz"))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    kernels = sorted(glob.glob(os.path.join(ROOT, "examples", "*.cu")) +
                     glob.glob(os.path.join(ROOT, "test", "lit", "bank-conflict", "*.cu")))
    work = tempfile.mkdtemp(prefix="cbl-fuzz-")
    findings = []
    counts = {}
    exits = {}
    for target in ("config", "database", "source"):
        for i in range(a.runs):
            kernel = rng.choice(kernels)
            src = os.path.join(work, "k.cu")
            with open(kernel, errors="replace") as f:
                text = f.read()
            if target == "source":
                text = mutate(text, rng)
            with open(src, "w", errors="replace") as f:
                f.write(text)
            args = ["--quiet", "--cuda-mode=prelude", "--format=json"]
            if target == "config":
                cfg = os.path.join(work, "cfg.yaml")
                with open(cfg, "w", errors="replace") as f:
                    f.write(mutate(CONFIG_SEED, rng))
                args += ["--config-file=" + cfg, src]
            elif target == "database":
                db = json.dumps(DB_SEED, indent=1).replace("{dir}", work).replace("{file}", src)
                with open(os.path.join(work, "compile_commands.json"), "w", errors="replace") as f:
                    f.write(mutate(db, rng))
                args += ["-p", work, src]
            else:
                args += [src, "--", "-std=c++17"]
            what, err, rc = run(a.tool, args, a.timeout)
            counts[target] = counts.get(target, 0) + 1
            exits.setdefault(target, {}).setdefault(rc, 0)
            exits[target][rc] += 1
            if what:
                keep = os.path.join(a.out, "%s-%d" % (target, i))
                os.makedirs(keep, exist_ok=True)
                for name in ("k.cu", "cfg.yaml", "compile_commands.json"):
                    p = os.path.join(work, name)
                    if os.path.exists(p):
                        with open(p, "rb") as f, open(os.path.join(keep, name), "wb") as g:
                            g.write(f.read())
                with open(os.path.join(keep, "stderr.txt"), "w") as f:
                    f.write("args: %s\n%s" % (" ".join(args), err))
                findings.append((target, i, what))
                print("finding: %s run %d: %s (saved in %s)" % (target, i, what, keep), flush=True)
    print("runs: %s; findings: %d" % (", ".join("%s %d" % kv for kv in counts.items()), len(findings)))
    for target, by_rc in exits.items():
        print("  %s exit codes: %s" % (target, ", ".join("%s: %d" % kv for kv in sorted(by_rc.items(), key=str))))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
