#!/usr/bin/env python3
"""Barrier divergence against the outcomes GPUVerify's CUDA kernels state.

Usage:
  bench/gpuverify.py --gpuverify /tmp/gpuverify --benchmarks /tmp/GPUVerifyBenchmarks

Every CUDA kernel file of mc-imperial/gpuverify (testsuite/CUDA/**/*.cu) and of
mc-imperial/GPUVerifyBenchmarks (**/*.cu) opens with a header for GPUVerify's
tester: line 1 is the expected outcome (//pass, or //xfail:CODE), line 2 the
GPUVerify options (--blockDim=, --gridDim=, -D...), then optional //-lines of
expected output (regular expressions).  A file is labelled

  divergent  its expected output says "barrier may be reached by non-uniform
             control flow", or it is an xfail whose failure is barrier
             divergence by a reading of the kernel (READ_LABELS, each with why);
  free       //pass, or //xfail:NOT_ALL_VERIFIED for another reason (a race,
             an assertion, a null pointer): GPUVerify checks barrier
             divergence in every run, so these have none at the block shape
             given, whatever the array contents;
  no verdict //xfail:BUGLE_ERROR or CLANG_ERROR: GPUVerify stops before
             checking anything; not scored, counted.

The tool runs once per file with that block and grid shape (--blockDim= ->
--block-dim=, --gridDim= -> --grid-dim=; a block over 1024 threads, which
GPUVerify accepts and CUDA does not, runs without them and is counted) and
once without either (user mode), with
--checks='-*,cuda-barrier-*', the -D options of the header, and
bench/gpuverify-shim.cuh force-included in place of GPUVerify's own <cuda.h>
(preconditions become __builtin_assume, so the tool is given what GPUVerify
was given; a file whose preconditions Clang cannot compile, because they use
GPUVerify's own variables such as other_tid, runs again without them, and the
report counts those files; the rest of the specification language expands
to nothing).  A file is predicted divergent when the tool
reports any cuda-barrier-* finding: GPUVerify requires both threads of every
pair to be enabled alike at each barrier, and a thread that returned is
disabled, so an early exit before a barrier (the cuda-barrier-early-exit
remark) is the same error; figures without the remark are printed beside.
Files the tool cannot analyse (Clang rejects a kernel, time-out) are counted
and listed, not scored.

Python 3 standard library only.  See bench/README.md and docs/accuracy.md.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import find_tool  # noqa: E402

SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpuverify-shim.cuh")
SUITES = (("gpuverify", "mc-imperial/gpuverify", "testsuite/CUDA"),
          ("benchmarks", "mc-imperial/GPUVerifyBenchmarks", "."))
DIVERGENCE_RE = re.compile(r"non-uniform control flow|barrier divergence", re.I)
EARLY_EXIT = "cuda-barrier-early-exit"

# xfail files that state no expected message and fail on barrier divergence
# (read: a barrier under a thread- or block-dependent condition, nothing else
# wrong).  Every other xfail:NOT_ALL_VERIFIED of the suite fails on something
# else; a file without a barrier cannot fail on divergence.
READ_LABELS = {
    ("gpuverify", "cooperative_groups/fail/divergence_thread_block/kernel.cu"):
        "thread_block barrier under 'idx % 2 == 0', idx = blockDim.x * blockIdx.x + threadIdx.x",
    ("gpuverify", "cooperative_groups/fail/divergence_grid_group/kernel.cu"):
        "grid barrier under 'idx % 2 == 0', idx = blockDim.x * blockIdx.x + threadIdx.x",
    ("gpuverify", "cooperative_groups/fail/block_divergence_grid_group/kernel.cu"):
        "grid barrier under 'blockIdx.x % 2 == 0' (blocks disagree; gridDim 2)",
}

Case = collections.namedtuple("Case", "suite path abspath label why block_dim pinned defines grid_dim")


# --------------------------------------------------------------------------
# Labels
# --------------------------------------------------------------------------

OUTCOME_RE = re.compile(r"^//(pass|xfail:([A-Z_]+))", re.I)


def parse_header(text):
    """(outcome, option tokens, expected-output lines) of a header, read as
    gvtester.py reads it: outcome 'pass' or 'xfail:CODE' (any case), the
    options of line 2, then the //-lines up to the first other or bare '//'."""
    lines = text.splitlines()
    m = OUTCOME_RE.match(lines[0]) if lines else None
    outcome = "" if not m else "pass" if m.group(1).lower() == "pass" else "xfail:" + m.group(2).upper()
    options = lines[1][2:].split() if len(lines) > 1 and lines[1].startswith("//") else []
    expected = []
    for l in lines[2:]:
        if not l.startswith("//") or len(l) <= 2:
            break
        expected.append(l[2:].strip())
    return outcome, options, expected


def block_shape(options, option="--blockDim="):
    """--blockDim=64 or --blockDim=[16,16]: ('64', 64) or ('16,16', 256); (None, 0) if absent.
    With option="--gridDim=", the grid's."""
    for o in options:
        if o.startswith(option):
            dims = [int(x) for x in o.split("=", 1)[1].strip("[]").split(",") if x.strip()]
            n = 1
            for d in dims:
                n *= d
            return ",".join(map(str, dims)), n
    return None, 0


def make_case(suite, root, path):
    with open(os.path.join(root, path), errors="replace") as f:
        text = f.read()
    outcome, options, expected = parse_header(text)
    said = [e for e in expected if DIVERGENCE_RE.search(e)]
    if outcome.startswith("xfail:") and outcome != "xfail:NOT_ALL_VERIFIED":
        label, why = "no verdict", outcome
    elif outcome.startswith("xfail") and said:
        label, why = "divergent", "expected output: " + said[0]
    elif outcome.startswith("xfail") and (suite, path) in READ_LABELS:
        label, why = "divergent", "read: " + READ_LABELS[(suite, path)]
    elif outcome == "pass" or outcome == "xfail:NOT_ALL_VERIFIED":
        label = "free"
        why = outcome if outcome == "pass" else "xfail for another reason" + (
            ": " + expected[0] if expected and expected[0] else "")
    else:
        label, why = "no verdict", "no tester header (%r)" % outcome
    bd, threads = block_shape(options)
    defines = [o for o in options if o.startswith("-D")]
    gd, _blocks = block_shape(options, "--gridDim=")
    return Case(suite, path, os.path.join(root, path), label, why, bd,
                bd is not None and threads <= 1024, tuple(defines), gd)


def collect(roots):
    cases = []
    for suite, _repo, sub in SUITES:
        if not roots.get(suite):
            continue
        base = os.path.normpath(os.path.join(roots[suite], sub))
        for d, dirs, files in os.walk(base):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            for fn in sorted(files):
                if fn.endswith(".cu"):
                    cases.append(make_case(suite, base, os.path.relpath(os.path.join(d, fn), base)))
    return cases


# --------------------------------------------------------------------------
# Tool runs
# --------------------------------------------------------------------------

def run_case(tool, case, pinned, timeout, cuda_mode):
    """One JSON run: (verdict, findings, detail).  verdict: 'analysed', or why
    the file is not scored; findings: the cuda-barrier-* diagnostics.  When
    the preconditions do not compile, the file runs again without them
    (detail 'preconditions not given')."""
    r = run_once(tool, case, pinned, timeout, cuda_mode, [])
    if r[0] in ("does not compile", "kernel rejected by Clang") and re.search(
            r"__(global_)?requires", open(case.abspath, errors="replace").read()):
        again = run_once(tool, case, pinned, timeout, cuda_mode,
                         ["-DCBL_GPUVERIFY_NO_PRECONDITIONS"])
        if again[0] == "analysed":
            return again[0], again[1], "preconditions not given"
    return r


def run_once(tool, case, pinned, timeout, cuda_mode, extra):
    flags = ["-std=c++17"] + extra + ["-include", SHIM] + list(case.defines)
    with open(case.abspath, errors="replace") as f:
        if "curand" in f.read():
            flags += ["-include", "curand_kernel.h"]   # GPUVerify's <cuda.h> declares cuRAND
    cmd = [tool, "--format=json", "--quiet", "--checks=-*,cuda-barrier-*", "-j", "1"] + (
        ["--cuda-mode=" + cuda_mode] if cuda_mode else []) + (
        ["--block-dim=" + case.block_dim] if pinned else []) + (
        ["--grid-dim=" + case.grid_dim] if pinned and case.grid_dim else []) + [case.abspath, "--"] + flags
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timed out", [], "after %ds" % timeout
    try:
        doc = json.loads(p.stdout)
    except json.JSONDecodeError:
        return "tool failure", [], "rc=%d, no JSON: %s" % (
            p.returncode, " | ".join(p.stderr.strip().splitlines()[-2:]))
    tus = doc.get("translation_units") or [{}]
    tu = tus[0]
    if tu.get("status") == "failed":
        return "does not compile", [], tu.get("error") or ""
    rejected = [s for s in tu.get("skipped", []) if s.get("kind") == "kernel"]
    if rejected:
        s = rejected[0]
        return "kernel rejected by Clang", [], "%s: %s" % (s.get("function"), s.get("error"))
    if p.returncode not in (0, 1):
        return "tool failure", [], "rc=%d: %s" % (p.returncode, p.stderr.strip()[-200:])
    finds = [d for d in doc.get("diagnostics", []) if d.get("check", "").startswith("cuda-barrier-")]
    return "analysed", finds, ""


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------

def pct(a, b):
    return "n/a" if b == 0 else "%.1f%%" % (100.0 * a / b)


def scores(rows, with_remark):
    """rows: [(case, verdict, findings)] of scored files -> (tp, fp, fn, tn)."""
    c = collections.Counter()
    for case, _v, finds in rows:
        pred = any(with_remark or d["check"] != EARLY_EXIT for d in finds)
        c[(case.label == "divergent", pred)] += 1
    return c[(True, True)], c[(False, True)], c[(True, False)], c[(False, False)]


def print_scores(title, rows):
    for with_remark, name in ((True, title), (False, "  without the early-exit remark")):
        tp, fp, fn, tn = scores(rows, with_remark)
        n = tp + fp + fn + tn
        print("%s: precision %d/%d = %s   recall %d/%d = %s   agreement %d/%d = %s   "
              "(TP %d FP %d FN %d TN %d)" % (
                  name, tp, tp + fp, pct(tp, tp + fp), tp, tp + fn, pct(tp, tp + fn),
                  tp + tn, n, pct(tp + tn, n), tp, fp, fn, tn))


def describe(finds):
    if not finds:
        return "no barrier finding"
    d = finds[0]
    more = " (+%d more)" % (len(finds) - 1) if len(finds) > 1 else ""
    return "%s:%d: %s [%s]%s" % (os.path.basename(d["file"]), d["line"], d["message"], d["check"], more)


def report(mode, cases, results):
    """results: case -> (verdict, findings, detail)."""
    print()
    print("== %s" % mode)
    scored = [(c, results[c][0], results[c][1]) for c in cases
              if c.label != "no verdict" and results[c][0] == "analysed"]
    for suite, repo, _sub in SUITES:
        rows = [r for r in scored if r[0].suite == suite]
        if rows:
            print_scores("%s (%d files scored)" % (repo, len(rows)), rows)
    print_scores("both (%d files scored)" % len(scored), scored)
    unassumed = [c.path for c in cases if results[c][0] == "analysed" and
                 results[c][2] == "preconditions not given"]
    if unassumed:
        print("scored without their preconditions (Clang cannot compile them): %d: %s" % (
            len(unassumed), ", ".join(unassumed)))

    unscored = collections.defaultdict(list)
    for c in cases:
        verdict, _f, detail = results[c]
        if c.label != "no verdict" and verdict != "analysed":
            unscored[verdict].append((c, detail))
    if unscored:
        print("not scored (the tool could not analyse every kernel): %d" % sum(map(len, unscored.values())))
        for verdict, lst in sorted(unscored.items()):
            print("  %s: %d" % (verdict, len(lst)))
            for c, detail in lst:
                print("    [%s] %-60s %s (%s)" % (c.suite, c.path, detail[:110], c.label))

    print("disagreements (FP: labelled free, the tool reports a barrier; FN: labelled divergent, "
          "the tool is silent):")
    n = 0
    for c, _v, finds in scored:
        pred = bool(finds)
        if pred == (c.label == "divergent"):
            continue
        n += 1
        print("  %s [%s] %s\n      expected: %s (%s)\n      got: %s" % (
            "FP" if pred else "FN", c.suite, c.path, c.label, c.why, describe(finds)))
    if not n:
        print("  none")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpuverify", metavar="PATH",
                    help="checkout of mc-imperial/gpuverify (its testsuite/CUDA is used)")
    ap.add_argument("--benchmarks", metavar="PATH",
                    help="checkout of mc-imperial/GPUVerifyBenchmarks (every .cu)")
    ap.add_argument("--tool", default=None,
                    help="cuda-bank-lint binary (default: build/bin or build-bench/bin)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="tool runs in parallel")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per tool run")
    ap.add_argument("--filter", metavar="REGEX", help="only files whose path matches")
    ap.add_argument("--cuda-mode", choices=("headers", "prelude"),
                    help="passed to the tool (default: its own, the toolkit's headers when "
                         "installed); prelude is many times faster and has no cuRAND")
    ap.add_argument("--no-user-mode", action="store_true", help="skip the runs without --block-dim")
    ap.add_argument("--user-mode-only", action="store_true", help="only the runs without --block-dim")
    args = ap.parse_args()

    tool = find_tool(args.tool, "gpuverify.py")
    roots = {"gpuverify": args.gpuverify, "benchmarks": args.benchmarks}
    if not any(roots.values()):
        sys.exit("gpuverify.py: give --gpuverify PATH and/or --benchmarks PATH")
    for suite, repo, sub in SUITES:
        if roots[suite] and not os.path.isdir(os.path.join(roots[suite], sub)):
            sys.exit("gpuverify.py: %s is not a checkout of %s (no %s)" % (roots[suite], repo, sub))
    cases = collect(roots)
    if args.filter:
        cases = [c for c in cases if re.search(args.filter, c.path)]

    version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    print("cuda-bank-lint barrier divergence against GPUVerify's labels")
    print("tool: %s (%s)%s" % (tool, version.splitlines()[0] if version else "?",
                               ", --cuda-mode=" + args.cuda_mode if args.cuda_mode else ""))
    for suite, repo, sub in SUITES:
        if roots[suite]:
            commit = subprocess.run(["git", "-C", roots[suite], "rev-parse", "HEAD"],
                                    capture_output=True, text=True).stdout.strip() or "? (not a git checkout)"
            cs = [c for c in cases if c.suite == suite]
            lab = collections.Counter(c.label for c in cs)
            print("%s %s (%s): %d files: %s" % (repo, commit[:12], sub, len(cs), ", ".join(
                "%s %d" % (k, lab[k]) for k in ("divergent", "free", "no verdict") if lab[k])))
    for c in cases:
        if c.label == "no verdict":
            print("  no GPUVerify verdict, not scored: [%s] %s (%s)" % (c.suite, c.path, c.why))
    over = [c for c in cases if c.block_dim and not c.pinned]
    if over and not args.user_mode_only:
        print("  block shape over 1024 threads (run without --block-dim in the pinned pass too): %d: %s"
              % (len(over), ", ".join("%s (%s)" % (c.path, c.block_dim) for c in over)))

    modes = []
    if not args.user_mode_only:
        modes.append(("pinned: --block-dim and --grid-dim from each file's --blockDim and --gridDim", True))
    if args.user_mode_only or not args.no_user_mode:
        modes.append(("user mode: no --block-dim", False))
    jobs = {}
    for c in cases:
        for _name, pinned in modes:
            jobs[(c, pinned and c.pinned)] = None
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        futs = {ex.submit(run_case, tool, c, p, args.timeout, args.cuda_mode): (c, p)
                for (c, p) in jobs}
        for i, fu in enumerate(concurrent.futures.as_completed(futs), 1):
            jobs[futs[fu]] = fu.result()
            if i % 50 == 0 or i == len(futs):
                print("gpuverify.py: %d/%d tool runs done" % (i, len(futs)), file=sys.stderr, flush=True)
    for name, pinned in modes:
        report(name, cases, {c: jobs[(c, pinned and c.pinned)] for c in cases})


if __name__ == "__main__":
    main()
