#!/usr/bin/env python3
"""Compare cuda-bank-lint with shared-memory wavefronts measured on an H100.

Usage:
  bench/accuracy.py ../shared/ground-truth/h100-open.csv \
      --source NVIDIA/cuda-samples=/tmp/gt/cuda-samples \
      --source xlite-dev/LeetCUDA=/tmp/gt/LeetCUDA ...

The CSV format is described in ../shared/ground-truth/README.md (set 2:
README-open2.md): one row per (repo, path, line, kernel, op, access size) with
the wavefronts and ideal wavefronts summed over every execution.  For each
source file of the CSV the script finds the translation unit(s) that compiled
it (CMakeLists.txt or Makefile source lists), runs the tool in JSON mode once
per distinct profiled block shape (--block-dim applies to every kernel of a
file), and matches tool records to CSV rows by (file, line, op, access width in
bits), choosing the records of the profiled kernel (template arguments
normalised, see normalise_function).

User mode (default; --no-user-mode, --user-mode-only): the tool once per
translation unit without --block-dim, scored per source line from its
diagnostics (warning precision, recall of warnings and of warnings + remarks),
beside the same figures from the pinned runs.

Python 3 standard library only.  See bench/README.md and docs/accuracy.md.
"""

import argparse
import collections
import concurrent.futures
import csv
import fractions
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import find_tool  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# Compiler flags per repository, as the ground-truth README gives them
# (nvcc -O3 -lineinfo -arch=sm_90 -std=c++17; -I Common for cuda-samples).
# {root} is the source tree, {dir} the directory of the translation unit.
REPO_FLAGS = {
    "NVIDIA/cuda-samples": ["-std=c++17", "-I", "{root}/Common"],
    # bank_conflict.cu declares 'register' variables: nvcc accepts them in C++17
    # (a warning), Clang makes it an error unless -Wno-register.
    "djmaster458/gpu-bank-conflict-timing": ["-std=c++17", "-Wno-register"],
}
DEFAULT_FLAGS = ["-std=c++17"]
# Extra flags for translation units under a path prefix.  Second set
# (README-open2.md): the -D/-I flags of each HeCBench benchmark's Makefile
# (-I relative to the benchmark directory, i.e. {dir}); llm.c's matmul_forward
# got -Xcompiler -fopenmp (nvcc's --use_fast_math has no Clang counterpart
# that matters here and is left out).  llm.c and GKLEE: -std=c++17 only.
PATH_FLAGS = {
    ("NVIDIA/cuda-samples", "Samples/5_Domain_Specific/FDTD3d/"):
        ["-I", "{root}/Samples/5_Domain_Specific/FDTD3d/inc"],
    ("zjin-lcf/HeCBench", "src/tridiagonal-cuda/"): ["-DUNIX", "-DBENCH_ITERATIONS=100"],
    ("zjin-lcf/HeCBench", "src/streamcluster-cuda/"): ["-DPROFILE_TMP"],
    ("zjin-lcf/HeCBench", "src/lud-cuda/"): ["-I", "{dir}/common"],
    ("zjin-lcf/HeCBench", "src/blockexchange-cuda/"):
        ["-I", "{dir}/../blockAccess-cuda", "-I", "{dir}/../warpexchange-cuda/"],
    ("karpathy/llm.c", "dev/cuda/matmul_forward.cu"): ["-fopenmp"],
}


# --------------------------------------------------------------------------
# Function names
# --------------------------------------------------------------------------

def _split_top(s, sep=","):
    """Split on sep at bracket depth 0."""
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


def _normalise_targ(a):
    a = a.strip()
    # ncu prints non-type arguments with a C cast: (unsigned int)256, (bool)1
    m = re.fullmatch(r"\(([A-Za-z_ ]+)\)\s*(-?\w+)", a)
    if m:
        a = m.group(2)
    if a in ("true", "false"):
        return "1" if a == "true" else "0"
    m = re.fullmatch(r"(-?\d+)[uUlL]*", a)
    if m:
        return str(int(m.group(1)))
    if "<" in a:
        return normalise_function(a)
    return re.sub(r"\s+", " ", a)


def normalise_function(name):
    """'void reduce6<int, (unsigned int)256, (bool)1>(T1 *, T1 *, unsigned int)'
    and 'reduce6<int, 256U, true>' both become 'reduce6<int,256,1>'."""
    s = name.strip()
    # Drop the parameter list: the last top-level '(...)' at the end.
    if s.endswith(")"):
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            if s[i] == ")":
                depth += 1
            elif s[i] == "(":
                depth -= 1
                if depth == 0:
                    s = s[:i].rstrip()
                    break
    # Drop a leading return type ('void ', 'static void ', ...) outside <>.
    depth = 0
    last_space = -1
    for i, ch in enumerate(s):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == " " and depth == 0:
            last_space = i
    if last_space >= 0:
        s = s[last_space + 1:]
    # Normalise template arguments.
    if "<" in s and s.endswith(">"):
        base, args = s.split("<", 1)
        args = args[:-1]
        s = base + "<" + ",".join(_normalise_targ(a) for a in _split_top(args)) + ">"
    return s


def base_name(name):
    return normalise_function(name).split("<", 1)[0].split("::")[-1]


# --------------------------------------------------------------------------
# Translation units
# --------------------------------------------------------------------------

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def _includes(path, cache={}):
    if path not in cache:
        try:
            with open(path, errors="replace") as f:
                cache[path] = [os.path.basename(x) for x in INCLUDE_RE.findall(f.read())]
        except OSError:
            cache[path] = []
    return cache[path]


def _includes_transitively(tu, target_base, search_dirs):
    seen, todo = set(), [tu]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        for inc in _includes(p):
            if inc == target_base:
                return True
            for d in search_dirs:
                c = os.path.join(d, inc)
                if os.path.isfile(c):
                    todo.append(c)
    return False


def _cmake_sources(d):
    """The .cu files named in add_executable/add_library of d/CMakeLists.txt."""
    p = os.path.join(d, "CMakeLists.txt")
    if not os.path.isfile(p):
        return None
    with open(p, errors="replace") as f:
        text = f.read()
    srcs = []
    for m in re.finditer(r"add_(?:executable|library)\s*\(([^)]*)\)", text):
        for tok in m.group(1).split():
            if tok.endswith(".cu"):
                srcs.append(os.path.normpath(os.path.join(d, tok)))
    return srcs or None


_MAKE_SOURCES_RE = re.compile(r"^(?:source|SRC)\s*[:+?]?=((?:.*\\\n)*.*)$", re.M)


def _make_sources(d):
    """The .cu files of the 'source = ...' (or 'SRC = ...') line of d/Makefile,
    the form of HeCBench's benchmark Makefiles ('$(...)' words are ignored)."""
    for name in ("Makefile", "makefile"):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            break
    else:
        return None
    with open(p, errors="replace") as f:
        text = f.read()
    srcs = []
    for m in _MAKE_SOURCES_RE.finditer(text):
        for tok in m.group(1).replace("\\\n", " ").split("#", 1)[0].split():
            if tok.endswith(".cu") and "$" not in tok:
                srcs.append(os.path.normpath(os.path.join(d, tok)))
    return srcs or None


def translation_units(root, relpath):
    """The .cu files that compiled root/relpath (itself, or its includers as
    listed in the nearest CMakeLists.txt's add_executable/add_library or
    Makefile's 'source =' line; else any includer in its directory tree)."""
    path = os.path.normpath(os.path.join(root, relpath))
    d = os.path.dirname(path)
    while True:
        srcs = _cmake_sources(d)
        if srcs is None:
            srcs = _make_sources(d)
        if srcs is not None or os.path.normpath(d) == os.path.normpath(root):
            break
        d = os.path.dirname(d)
    base = os.path.basename(path)
    if srcs:
        dirs = sorted({os.path.dirname(s) for s in srcs} | {os.path.dirname(path)})
        tus = [s for s in srcs if s == path or _includes_transitively(s, base, dirs)]
        if tus:
            return tus
    if path.endswith(".cu"):
        return [path]
    # No build file: any .cu below the header's directory's parent that includes it.
    top = os.path.dirname(os.path.dirname(path))
    cands = []
    for dp, _, fs in os.walk(top):
        for f in fs:
            if f.endswith(".cu"):
                c = os.path.join(dp, f)
                if _includes_transitively(c, base, [dp, os.path.dirname(path)]):
                    cands.append(c)
    return sorted(cands) or [path]


def flags_for(repo, root, tu):
    rel = os.path.relpath(tu, root)
    fl = list(REPO_FLAGS.get(repo, DEFAULT_FLAGS))
    for (r, prefix), extra in PATH_FLAGS.items():
        if r == repo and rel.startswith(prefix):
            fl += extra
    return [x.format(root=root, dir=os.path.dirname(tu)) for x in fl]


# --------------------------------------------------------------------------
# Running the tool
# --------------------------------------------------------------------------

def run_tool(tool, tu, block_dim, flags, cwd, timeout):
    """One JSON run; block_dim None: no --block-dim (user mode: the tool takes
    the shape from the launches, __launch_bounds__, or assumes one)."""
    cmd = [tool, "--format=json", "--quiet"] + (
        ["--block-dim=" + block_dim] if block_dim else []) + [tu, "--"] + flags
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return cmd, None, "timed out after %ds" % timeout, -1
    doc = None
    try:
        doc = json.loads(p.stdout) if p.stdout.strip() else None
    except json.JSONDecodeError as e:
        return cmd, None, "bad JSON (%s); stderr: %s" % (e, p.stderr[-500:]), p.returncode
    return cmd, doc, p.stderr, p.returncode


# --------------------------------------------------------------------------
# Classification
# --------------------------------------------------------------------------

def reason_class(reason):
    """Group a tool reason into a short cause (for the summaries)."""
    r = reason.lower()
    if not r:
        return "(none)"
    if "blockidx" in r and ("<" in r or ">" in r or "guard" in r or "condition" in r):
        return "guard on blockIdx/parameter (unknown)"
    if "loop" in r:
        return "loop counter / loop not enumerated"
    if "load" in r or "memory" in r or "data" in r:
        return "data-dependent (value loaded from memory)"
    if "parameter" in r or "argument" in r:
        return "kernel parameter"
    if "call" in r or "helper" in r or "device function" in r:
        return "helper function / call"
    if "non-linear" in r:
        return "non-linear operation"
    return re.sub(r"'[^']*'", "'_'", reason)[:70]


def generic_reason(reason):
    return re.sub(r"'[^']*'", "'_'", reason)


def eval_threads(block_dim):
    n = 0
    for bd in block_dim.split("|"):
        x, y, z = (int(v) for v in bd.split(","))
        n = max(n, x * y * z)
    return n


def fmt_ratio(w, i):
    if i == 0:
        return "-" if w == 0 else "inf"
    return "%.3f" % (w / i)


def fmt_frac(x):
    """A Fraction as an integer, else as a decimal (not '51/8')."""
    return str(x) if x.denominator == 1 else "%.3f" % float(x)


def pct(a, b):
    return "n/a" if b == 0 else "%.1f%%" % (100.0 * a / b)


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="ground-truth CSV (h100-open.csv, h100-open2.csv or their "
                                "-callsite twins)")
    ap.add_argument("--source", action="append", default=[], metavar="OWNER/NAME=PATH",
                    help="source tree of a repository at the CSV's commit (repeatable)")
    ap.add_argument("--tool", default=None,
                    help="cuda-bank-lint binary (default: build-bench/bin or build/bin)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="tool runs in parallel (each run is one process with -j 1)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per tool run")
    ap.add_argument("--dump", metavar="DIR", help="write each run's JSON and command here")
    ap.add_argument("--attribution", choices=("auto", "innermost", "callsite"), default="auto",
                    help="line a helper's access is counted at: its own (innermost) or the "
                         "outermost call in the kernel (callsite); auto: callsite when the CSV's "
                         "name says so")
    ap.add_argument("--all-rows", action="store_true",
                    help="print every row, not only the disagreements")
    ap.add_argument("--no-user-mode", action="store_true",
                    help="skip the user-mode pass (the tool run without --block-dim, scored "
                         "per source line from its diagnostics)")
    ap.add_argument("--user-mode-only", action="store_true",
                    help="only the user-mode pass (no --block-dim runs, no pinned figures)")
    args = ap.parse_args()

    tool = find_tool(args.tool, "accuracy.py")

    sources = {}
    for s in args.source:
        if "=" not in s:
            sys.exit("accuracy.py: --source expects OWNER/NAME=PATH, got %r" % s)
        k, v = s.split("=", 1)
        sources[k] = os.path.abspath(v)

    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("line", "access_size", "inst_executed", "wavefronts", "ideal", "launches"):
            r[k] = int(r[k])

    callsite = args.attribution == "callsite" or (
        args.attribution == "auto" and "callsite" in os.path.basename(args.csv))

    version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    print("cuda-bank-lint accuracy against %s" % args.csv)
    print("helper accesses counted at: %s" % ("the outermost call in the kernel (JSON call_site)"
                                              if callsite else "their own line"))
    print("tool: %s (%s)" % (tool, version.splitlines()[0] if version else "?"))
    print("rows in CSV: %d" % len(rows))

    # Skip rows whose tree is missing.
    missing = collections.Counter()
    usable = []
    for r in rows:
        root = sources.get(r["repo"])
        if root is None or not os.path.isdir(root):
            missing[r["repo"]] += 1
            continue
        if not os.path.isfile(os.path.join(root, r["path"])):
            missing["%s:%s" % (r["repo"], r["path"])] += 1
            continue
        usable.append(r)
    for k, n in sorted(missing.items()):
        print("  skipped %d rows: source tree or file missing for %s" % (n, k))
    rows = usable

    # Plan the runs: (repo, tu, block_dim) -> flags.
    tus_of = {}
    runs = {}
    for r in rows:
        key = (r["repo"], r["path"])
        if key not in tus_of:
            tus_of[key] = translation_units(sources[r["repo"]], r["path"])
        for bd in r["block_dim"].split("|"):
            for tu in tus_of[key]:
                runs[(r["repo"], tu, bd)] = flags_for(r["repo"], sources[r["repo"]], tu)
    multi_shape = [r for r in rows if "|" in r["block_dim"]]
    user_mode = not args.no_user_mode or args.user_mode_only
    if args.user_mode_only:
        runs = {}
    # User mode: one run per translation unit, no --block-dim: (repo, tu) -> flags.
    user_runs = {}
    if user_mode:
        for (repo, _path), tus in tus_of.items():
            for tu in tus:
                user_runs[(repo, tu)] = flags_for(repo, sources[repo], tu)

    results, user_results = {}, {}
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        futs = {ex.submit(run_tool, tool, tu, bd, fl, sources[repo], args.timeout): (repo, tu, bd)
                for (repo, tu, bd), fl in runs.items()}
        ufuts = {ex.submit(run_tool, tool, tu, None, fl, sources[repo], args.timeout): (repo, tu)
                 for (repo, tu), fl in user_runs.items()}
        for fu in concurrent.futures.as_completed(list(futs) + list(ufuts)):
            if fu in futs:
                results[futs[fu]] = fu.result()
            else:
                user_results[ufuts[fu]] = fu.result()

    if not args.user_mode_only:
        pinned_report(args, rows, sources, tus_of, runs, results, callsite, multi_shape)
    if user_mode:
        user_report(args, rows, sources, tus_of, user_results,
                    None if args.user_mode_only else results, callsite)


def pinned_report(args, rows, sources, tus_of, runs, results, callsite, multi_shape):
    """The figures of docs/accuracy.md: one run per translation unit and
    profiled block shape (--block-dim), records matched to CSV rows."""
    print("tool runs: %d (translation units x distinct block shapes)" % len(runs))
    failures = []
    for key in sorted(results):
        cmd, doc, err, rc = results[key]
        if doc is None or rc not in (0, 1) or (doc and doc.get("errors")):
            failures.append((key, rc, err))
        if args.dump:
            os.makedirs(args.dump, exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]", "_", "%s__%s__%s" % (
                key[0], os.path.relpath(key[1], sources[key[0]]), key[2]))
            with open(os.path.join(args.dump, name + ".json"), "w") as f:
                json.dump({"command": cmd, "rc": rc, "stderr": err, "doc": doc}, f, indent=1)
    print_failures([(k[:2], k[2], rc, err) for k, rc, err in failures], sources)
    failed = {key for key, _rc, _err in failures}

    def all_runs_failed(r):
        return all((r["repo"], tu, bd) in failed for tu in tus_of[(r["repo"], r["path"])]
                   for bd in r["block_dim"].split("|"))
    if failures:
        lost = collections.Counter(r["path"] for r in rows if all_runs_failed(r))
        print("  rows whose every run failed (counted below as 'no tool record'): %d%s" % (
            sum(lost.values()), "".join("\n    %4d  %s" % (k, p) for p, k in sorted(lost.items()))))
    if multi_shape:
        print("  note: %d rows aggregate several block shapes; each shape was run and the "
              "records of all of them were summed" % len(multi_shape))

    # Index tool records by (repo, realpath, line, op) per run.
    kernels_in_csv = {base_name(r["function"]) for r in rows}
    index = collections.defaultdict(list)   # (repo, bd, file, line, op) -> [record]
    all_records = {}
    for (repo, tu, bd), (cmd, doc, err, rc) in results.items():
        if not doc:
            continue
        for a in doc.get("accesses", []):
            f = os.path.realpath(os.path.join(sources[repo], a["file"]))
            a["_real"] = f
            a["_tu"] = tu
            line = a["line"]
            site = a.get("call_site")
            if callsite and site:
                # The CSV counts a helper's instructions at the call in the kernel.
                f = os.path.realpath(os.path.join(sources[repo], site["file"]))
                line = site["line"]
            index[(repo, bd, f, line, a["op"])].append(a)
            all_records[(repo, bd, f, a["line"], a["column"], a["function"], a["op"],
                         a["width"], a.get("array"))] = a

    # Match.
    Res = collections.namedtuple("Res", "row recs via width_note")
    matched = []
    for r in rows:
        f = os.path.realpath(os.path.join(sources[r["repo"]], r["path"]))
        want = normalise_function(r["function"])
        cands = []
        for bd in r["block_dim"].split("|"):
            cands += index.get((r["repo"], bd, f, r["line"], r["op"]), [])
        # One record per access (a header reached from two TUs is reported twice).
        seen, uniq = set(), []
        for a in cands:
            k = (a["line"], a["column"], a["function"], a["op"], a["width"], a.get("array"),
                 tuple(a.get("block_dim") or ()))
            if k not in seen:
                seen.add(k)
                uniq.append(a)
        same_fn = [a for a in uniq if normalise_function(a["function"]) == want]
        via = "kernel"
        if not same_fn:
            # Accesses in a device helper are reported under the helper's name.
            same_fn = [a for a in uniq if base_name(a["function"]) not in kernels_in_csv]
            via = "helper" if same_fn else "none"
        recs = [a for a in same_fn if a["width"] * 8 == r["access_size"]]
        width_note = ""
        if not recs and same_fn:
            widths = sorted({a["width"] * 8 for a in same_fn})
            width_note = "tool width %s bits, measured %d" % (
                "/".join(map(str, widths)), r["access_size"])
        elif not same_fn:
            in_file = [a for (rp, bd, ff, _l, _o), v in index.items()
                       if rp == r["repo"] and ff == f and bd in r["block_dim"].split("|") for a in v]
            if not in_file and all_runs_failed(r):
                width_note = "the tool failed on this file (TOOL FAILURE above)"
            elif not in_file:
                width_note = "the tool reports no access at all in this file"
            elif any(normalise_function(a["function"]) == want for a in in_file):
                width_note = "no record on this line (the kernel has records on other lines)"
            else:
                width_note = "no record on this line, none for this kernel in this file"
        matched.append(Res(r, recs, via if recs else ("width" if same_fn else "none"),
                           width_note))

    # A statement spread over several lines: the tool reports the line where the
    # access expression starts, nvcc's line table may name a later one.  Rows
    # with no record take an otherwise unmatched record of the same kernel, op
    # and width from up to 3 lines above.
    used = {id(a) for m in matched for a in m.recs}
    for i, m in enumerate(matched):
        if m.recs or m.row["op"] == "atom":
            continue
        r = m.row
        f = os.path.realpath(os.path.join(sources[r["repo"]], r["path"]))
        want = normalise_function(r["function"])
        for back in (1, 2, 3):
            c = [a for bd in r["block_dim"].split("|")
                 for a in index.get((r["repo"], bd, f, r["line"] - back, r["op"]), [])
                 if id(a) not in used and normalise_function(a["function"]) == want
                 and a["width"] * 8 == r["access_size"]]
            if c:
                matched[i] = Res(r, c, "above", "record reported %d line(s) above" % back)
                used.update(id(a) for a in c)
                break

    # ------------------------------------------------------------------
    # Per-row verdicts.
    def verdict(m):
        r = m.row
        meas_conf = r["wavefronts"] > r["ideal"]
        if r["op"] == "atom":
            return meas_conf, "not-analysed", "atomic (the tool models ld/st only)"
        if not m.recs:
            if m.via == "width":
                return meas_conf, "not-analysed", "width mismatch: " + m.width_note
            return meas_conf, "not-analysed", "no tool record: " + m.width_note
        st = {a["status"] for a in m.recs}
        if st != {"exact"}:
            bad = [a for a in m.recs if a["status"] != "exact"]
            return meas_conf, "inexact", "%s: %s" % (bad[0]["status"], bad[0]["reason"])
        return meas_conf, "exact", ""

    rows_v = []
    for m in matched:
        meas_conf, state, why = verdict(m)
        warns = state == "exact" and any(a["wavefronts"] > a["ideal"] for a in m.recs)
        bw = sum(a["block_wavefronts"] for a in m.recs)
        bi = sum(a["block_ideal"] for a in m.recs)
        rows_v.append((m, meas_conf, state, why, warns, bw, bi))

    n = len(rows_v)
    exact_rows = [x for x in rows_v if x[2] == "exact"]
    tp = sum(1 for x in rows_v if x[4] and x[1])
    fp = sum(1 for x in rows_v if x[4] and not x[1])
    fn = sum(1 for x in rows_v if not x[4] and x[1])
    fn_exact = sum(1 for x in exact_rows if not x[4] and x[1])
    tn_exact = sum(1 for x in exact_rows if not x[4] and not x[1])

    print()
    print("== Matching")
    vias = collections.Counter(x[0].via for x in rows_v)
    print("rows matched to the kernel's own records: %d (of which %d to a record of a multi-line "
          "statement reported 1-3 lines above); via a device helper's records: %d; "
          "line/op/kernel found but other access width: %d; no record: %d" % (
              vias["kernel"] + vias["above"], vias["above"], vias["helper"], vias["width"],
              vias["none"]))

    print()
    print("== Warnings, per CSV row (row = line x kernel x op x access size)")
    print("measured conflicted (wavefronts > ideal): %d of %d rows" % (
        sum(1 for x in rows_v if x[1]), n))
    print("tool warns (exact and worst-warp wavefronts > ideal): %d" % (tp + fp))
    print("precision: %d/%d = %s   recall: %d/%d = %s   recall among exactly analysed rows: %d/%d = %s" % (
        tp, tp + fp, pct(tp, tp + fp), tp, tp + fn, pct(tp, tp + fn),
        tp, tp + fn_exact, pct(tp, tp + fn_exact)))
    print("confusion among exactly analysed rows: TP %d  FP %d  FN %d  TN %d" % (
        tp, fp, fn_exact, tn_exact))
    # Bounds (status "bound": which lanes run it, or a parameter's value, is
    # not known) are reported as warnings or possible-conflict remarks when
    # their worst case conflicts: a weaker claim, counted separately.
    def flags(m):
        return any(a["status"] in ("exact", "bound") and a["wavefronts"] > a["ideal"] for a in m.recs)
    ftp = sum(1 for x in rows_v if x[1] and flags(x[0]))
    ffp = sum(1 for x in rows_v if not x[1] and flags(x[0]))
    print("tool flags (exact or bound, worst case wavefronts > ideal: a warning or a possible-conflict "
          "remark): %d rows; measured conflicted among them: %d; recall of flags: %d/%d = %s" % (
              ftp + ffp, ftp, ftp, tp + fn, pct(ftp, tp + fn)))

    # Per source line (file, line): conflicted if any row is; warns if any row warns.
    by_line = collections.defaultdict(list)
    for x in rows_v:
        by_line[(x[0].row["repo"], x[0].row["path"], x[0].row["line"])].append(x)
    ltp = lfp = lfn = 0
    lexact = 0
    for xs in by_line.values():
        c = any(x[1] for x in xs)
        w = any(x[4] for x in xs)
        lexact += all(x[2] == "exact" for x in xs)
        ltp += c and w
        lfp += w and not c
        lfn += c and not w
    print("per source line (%d lines): precision %d/%d = %s   recall %d/%d = %s" % (
        len(by_line), ltp, ltp + lfp, pct(ltp, ltp + lfp), ltp, ltp + lfn, pct(ltp, ltp + lfn)))
    # What a user reading the diagnostics sees: a line is flagged when any of
    # its accesses is warned or reported as a possible conflict.
    lftp = lffp = 0
    unflagged = []
    for key, xs in sorted(by_line.items()):
        c = any(x[1] for x in xs)
        f = any(flags(x[0]) for x in xs)
        lftp += c and f
        lffp += f and not c
        if c and not f:
            unflagged.append(key)
    lc = sum(1 for xs in by_line.values() if any(x[1] for x in xs))
    print("per source line, flags: %d lines flagged; measured conflicted among them: %d; "
          "recall of flags: %d/%d = %s" % (lftp + lffp, lftp, lftp, lc, pct(lftp, lc)))
    for repo, path, line in unflagged:
        print("  conflicted, not flagged: %s %s:%s" % (repo, path, line))

    print()
    print("== wavefronts/ideal ratio: tool block_wavefronts/block_ideal vs measured wavefronts/ideal")
    print("   (rows whose every matching access is exact, i.e. the same pattern on every execution)")
    eq = close = 0
    comparable = [x for x in exact_rows if x[6] > 0 and x[0].row["ideal"] > 0]
    for x in comparable:
        t = fractions.Fraction(x[5], x[6])
        mm = fractions.Fraction(x[0].row["wavefronts"], x[0].row["ideal"])
        eq += t == mm
        close += abs(float(t) / float(mm) - 1) <= 0.02
    print("exact agreement: %d/%d = %s   within 2%%: %d/%d = %s" % (
        eq, len(comparable), pct(eq, len(comparable)), close, len(comparable),
        pct(close, len(comparable))))
    zero_exec = [x for x in exact_rows if x[6] == 0]
    if zero_exec:
        print("exact rows whose tool block_ideal is 0 (tool says never executed, yet measured): %d"
              % len(zero_exec))

    # Absolute check where the measurement gives it directly: one-warp blocks,
    # where inst_executed counts executions of the line's instructions.
    single = [x for x in comparable
              if eval_threads(x[0].row["block_dim"]) <= 32 and x[0].row["inst_executed"] > 0]
    if single:
        print("absolute wavefronts per execution, one-warp blocks (measured wavefronts and ideal "
              "x accesses on the line / inst_executed, vs the tool's per-execution sums; assumes "
              "one SASS instruction per source access):")
        agree = 0
        for x in single:
            r = x[0].row
            k = fractions.Fraction(len(x[0].recs), r["inst_executed"])
            mw, mi = r["wavefronts"] * k, r["ideal"] * k
            same = (mw == x[5] and mi == x[6])
            agree += same
            if not same:
                print("  differs: %s:%d %s %s %d-bit: measured %s/%s per execution, tool %d/%d" % (
                    r["path"], r["line"], normalise_function(r["function"]), r["op"],
                    r["access_size"], fmt_frac(mw), fmt_frac(mi), x[5], x[6]))
        print("  agree: %d/%d" % (agree, len(single)))

    print()
    print("== Coverage: measured rows/lines with shared accesses that the tool analysed exactly")
    print("rows: %d/%d = %s   source lines: %d/%d = %s   (weighted by measured wavefronts: %s)" % (
        len(exact_rows), n, pct(len(exact_rows), n), lexact, len(by_line), pct(lexact, len(by_line)),
        pct(sum(x[0].row["wavefronts"] for x in exact_rows), sum(x[0].row["wavefronts"] for x in rows_v))))
    causes = collections.Counter()
    for x in rows_v:
        if x[2] == "not-analysed":
            if x[3].startswith("width"):
                tool_bits = [int(w) for w in re.findall(r"\d+", x[3].split("bits")[0])]
                wider = x[0].row["access_size"] > max(tool_bits)
                causes["width mismatch: measured access %s than the source's (%s)" % (
                    "wider" if wider else "narrower",
                    "compiler merged adjacent accesses" if wider else "compiler split it")] += 1
            else:
                causes[x[3]] += 1
        elif x[2] == "inexact":
            causes["%s (%s)" % (x[3].split(":")[0], reason_class(x[3].split(":", 1)[1].strip()))] += 1
    print("rows not analysed exactly, by cause:")
    for c, k in causes.most_common():
        print("  %4d  %s" % (k, c))

    print()
    print("== Status of tool records")
    for title, recs in (("records matched to CSV rows", [a for x in rows_v for a in x[0].recs]),
                        ("all records in the analysed files", list(all_records.values()))):
        st = collections.Counter(a["status"] for a in recs)
        print("%s: %d  (%s)" % (title, len(recs), ", ".join("%s %d" % kv for kv in sorted(st.items()))))
        reasons = collections.Counter(generic_reason(a["reason"]) for a in recs
                                      if a["status"] != "exact")
        for reason, k in reasons.most_common(8):
            print("  %4d  %s" % (k, reason))

    # Disagreements.
    print()
    print("== %s" % ("All rows" if args.all_rows else "Disagreements"))
    print("kind: FP tool warns, measured clean; FN measured conflicted, tool silent/inexact; "
          "FLAG measured conflicted, tool reports a bound or possible conflict (not exact); "
          "RATIO exact but wavefronts/ideal differ; MISS not analysed exactly")
    hdr = "%-5s %-58s %5s %-34s %-3s %4s %9s %9s %8s | %7s %7s %8s  %s" % (
        "kind", "file", "line", "kernel", "op", "bits", "meas.wf", "meas.id", "m.ratio",
        "tool.wf", "tool.id", "t.ratio", "tool status / reason")
    print(hdr)
    out = []
    for x in rows_v:
        m, meas_conf, state, why, warns, bw, bi = x
        r = m.row
        kind = None
        if warns and not meas_conf:
            kind = "FP"
        elif meas_conf and not warns:
            kind = "FLAG" if flags(m) else "FN"
        elif state == "exact" and bi and r["ideal"] and \
                fractions.Fraction(bw, bi) != fractions.Fraction(r["wavefronts"], r["ideal"]):
            kind = "RATIO"
        elif state != "exact":
            kind = "MISS"
        if kind is None and not args.all_rows:
            continue
        fn_name = normalise_function(r["function"])
        line = "%-5s %-58s %5d %-34s %-3s %4d %9d %9d %8s | %7s %7s %8s  %s" % (
            kind or "ok", r["path"][-58:], r["line"], fn_name[:34], r["op"], r["access_size"],
            r["wavefronts"], r["ideal"], fmt_ratio(r["wavefronts"], r["ideal"]),
            bw if state == "exact" else "-", bi if state == "exact" else "-",
            fmt_ratio(bw, bi) if state == "exact" else "-",
            (why or "exact") + (" [via helper]" if m.via == "helper" else "") +
            (" [%s]" % m.width_note if m.via == "above" else ""))
        out.append(((kind or "ok"), r["path"], r["line"], line))
    order = {"FN": 0, "FP": 1, "RATIO": 2, "FLAG": 3, "MISS": 4, "ok": 5}
    print("counts: " + ", ".join("%s %d" % (k, sum(1 for o in out if o[0] == k))
                                 for k in sorted(order, key=order.get)))
    for o in sorted(out, key=lambda t: (order[t[0]], t[1], t[2])):
        print(o[3])

    print()
    print("Matching notes: rows are matched by (file, line, op, access width in bits) within the "
          "run for the row's block shape; among records of that line the profiled kernel's "
          "(template arguments normalised) are used, else those of device helpers (reported "
          "under the helper's name, not per call site); several accesses of one line are summed.")


# --------------------------------------------------------------------------
# Per source line, from the diagnostics (user mode and the pinned runs)
# --------------------------------------------------------------------------

BANK_CHECK = "cuda-shared-bank-conflict"
# The note BankConflictCheck adds to a finding in a device helper, located at
# the outermost call in the kernel (the same position as the records'
# call_site).
CALLED_FROM_RE = re.compile(r"^in '(.*)' as called from '(.*)' here")
# A diagnostic names its function only for a template ("... writing 'As' in
# 'MatrixMulCUDA<16>': ...").
DIAG_FN_RE = re.compile(r"\b(reading|writing) '[^']*'(?: in '([^']*)')?:")


def error_summary(err, n=3):
    """The first compiler errors of a failed run's stderr (else its last lines)."""
    lines = (err or "").strip().splitlines()
    errs = [l for l in lines if re.search(r"\b(fatal )?error:", l)]
    if not errs:
        return lines[-6:]
    return errs[:n] + (["... %d more error lines" % (len(errs) - n - 1)] if len(errs) > n + 1 else []) \
        + ([errs[-1]] if len(errs) > n else [])


def print_failures(failures, sources):
    """failures: [((repo, tu), block_dim or None, rc, stderr)]; one entry per
    translation unit (and error), its block shapes listed."""
    groups = collections.OrderedDict()
    for (repo, tu), bd, rc, err in sorted(failures, key=lambda t: (t[0], t[1] or "")):
        summary = tuple(error_summary(err))
        groups.setdefault((repo, tu, rc, summary), []).append(bd)
    for (repo, tu, rc, summary), bds in groups.items():
        print("  TOOL FAILURE rc=%s on %s (%s):\n    %s" % (
            rc, os.path.relpath(tu, sources[repo]),
            "no --block-dim" if bds == [None] else "--block-dim=" + " ".join(bds),
            "\n    ".join(summary)))


def run_failed(doc, rc):
    return doc is None or rc not in (0, 1) or bool(doc and doc.get("errors"))


def diagnostic_functions(d, fns_at):
    """The kernel(s) a diagnostic is about: the caller named by its call note
    (a helper analysed at a call), else the template named in its message,
    else the non-template functions with a record at its position and op."""
    for n in d.get("notes", []):
        m = CALLED_FROM_RE.match(n.get("message", ""))
        if m:
            return {m.group(2)}
    m = DIAG_FN_RE.search(d["message"])
    if m and m.group(2):
        return {m.group(2)}
    op = {"reading": "ld", "writing": "st"}.get(m.group(1)) if m else None
    return {f for (fl, ln, col, o), fs in fns_at.items()
            if (fl, ln, col) == (d["file"], d["line"], d["column"]) and o == (op or o)
            for f in fs if "<" not in f}


def diagnostic_lines(doc, root, callsite, stats):
    """(realpath, line) -> [diagnostic] of the bank-conflict check in one run.

    With callsite attribution a helper's diagnostic counts at the outermost
    call in the kernel.  That is read from the diagnostic's own note "in 'H' as
    called from 'K' here" (located at that call): the note belongs to the one
    access the diagnostic is about, whereas access records are keyed only by
    the helper's file/line/column, which every call of the helper shares (scan's
    helpers are called from two kernels at two call sites), so a record lookup
    is ambiguous exactly where it matters.  Records are the fallback, used only
    when the note is missing and all records at the position agree on one
    call_site (stats counts both cases)."""
    out = collections.defaultdict(list)
    if not doc:
        return out
    sites_at = collections.defaultdict(set)
    if callsite:
        for a in doc.get("accesses", []):
            if a.get("call_site"):
                cs = a["call_site"]
                sites_at[(a["file"], a["line"], a["column"])].add(
                    (cs["file"], cs["line"]))
    fns_at = collections.defaultdict(set)
    for a in doc.get("accesses", []):
        fns_at[(a["file"], a["line"], a["column"], a["op"])].add(a["function"])
    for d in doc.get("diagnostics", []):
        if d.get("check") != BANK_CHECK:
            continue
        fname, line = d["file"], d["line"]
        d["_fns"] = diagnostic_functions(d, fns_at)
        if callsite:
            notes = [n["location"] for n in d.get("notes", [])
                     if n.get("location") and CALLED_FROM_RE.match(n.get("message", ""))]
            if notes:
                fname, line = notes[0]["file"], notes[0]["line"]
                stats["mapped through the call note"] += 1
            else:
                sites = sites_at.get((d["file"], d["line"], d["column"]), set())
                if len(sites) == 1:
                    fname, line = next(iter(sites))
                    stats["mapped through the records' call_site (no call note)"] += 1
                elif sites:
                    stats["left at its own line: no call note, records disagree"] += 1
        out[(os.path.realpath(os.path.join(root, fname)), line)].append(d)
    return out


def record_lines(doc, root, callsite):
    """(realpath, line) -> [access record], helpers at their call site with callsite."""
    out = collections.defaultdict(list)
    if not doc:
        return out
    for a in doc.get("accesses", []):
        fname, line = a["file"], a["line"]
        if callsite and a.get("call_site"):
            fname, line = a["call_site"]["file"], a["call_site"]["line"]
        out[(os.path.realpath(os.path.join(root, fname)), line)].append(a)
    return out


def short(msg, n=150):
    msg = " ".join(msg.split())
    return msg if len(msg) <= n else msg[:n - 3] + "..."


def score_mode(lines, runs_of_line, diag_index, failed, accept=None):
    """lines: key -> (realpath, line, conflicted).  runs_of_line(key) -> run keys;
    accept(line key, run key, diagnostic): whether it counts (default: all).
    Returns per-line (warned, remarked, diags, all_failed) and the counts."""
    per = {}
    for key, (real, ln, _c) in lines.items():
        rk = runs_of_line(key)
        ds, seen = [], set()
        for k in rk:
            for d in diag_index.get(k, {}).get((real, ln), []):
                if accept and not accept(key, k, d):
                    continue
                ident = (d["file"], d["line"], d["column"], d["severity"], d["message"])
                if ident not in seen:
                    seen.add(ident)
                    ds.append(d)
        warned = any(d["severity"] == "warning" for d in ds)
        remarked = any(d["severity"] == "remark" for d in ds)
        per[key] = (warned, remarked, ds, bool(rk) and all(k in failed for k in rk))
    conf = [k for k, v in lines.items() if v[2]]
    fig = {
        "lines": len(lines),
        "conflicted": len(conf),
        "warned": sum(1 for k in lines if per[k][0]),
        "false alarms": sum(1 for k, v in lines.items() if per[k][0] and not v[2]),
        "clean, remark only": sum(1 for k, v in lines.items()
                                  if per[k][1] and not per[k][0] and not v[2]),
        "conflicted warned": sum(1 for k in conf if per[k][0]),
        "conflicted warned or remarked": sum(1 for k in conf if per[k][0] or per[k][1]),
        "failed": sum(1 for k in lines if per[k][3]),
        "conflicted failed": sum(1 for k in conf if per[k][3]),
    }
    return per, fig


def unscored(diag_index, csv_real_lines, csv_files):
    """Distinct diagnostic lines of these runs that are not CSV lines."""
    locs = {}
    for idx in diag_index.values():
        for (real, ln), ds in idx.items():
            if (real, ln) in csv_real_lines:
                continue
            w = any(d["severity"] == "warning" for d in ds)
            locs[(real, ln)] = locs.get((real, ln), False) or w
    in_files = sum(1 for (real, _l) in locs if real in csv_files)
    warned = sum(1 for v in locs.values() if v)
    return len(locs), warned, in_files


def user_report(args, rows, sources, tus_of, user_results, pinned_results, callsite):
    print()
    print("== User mode: the tool without --block-dim, scored per source line from its diagnostics")
    print("one run per translation unit, the set's flags, no --block-dim (the block shape comes "
          "from the launches, __launch_bounds__, or is assumed, as for a user); a line is "
          "measured conflicted when any of its rows has wavefronts > ideal, warned when a "
          "%s warning is reported at it, remarked when a remark is%s%s" % (
              BANK_CHECK, "; a helper's diagnostic counts at the outermost call in the kernel"
              if callsite else "",
              "" if pinned_results is None else
              ".  The pinned column scores the --block-dim runs above the same way, counting a "
              "diagnostic only in the run of the shape its kernel was profiled with on that line"))
    print("tool runs: %d (translation units)" % len(user_results))
    ufailed = set()
    for key in sorted(user_results):
        cmd, doc, err, rc = user_results[key]
        if run_failed(doc, rc):
            ufailed.add(key)
        if args.dump:
            os.makedirs(args.dump, exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]", "_", "%s__%s__user" % (
                key[0], os.path.relpath(key[1], sources[key[0]])))
            with open(os.path.join(args.dump, name + ".json"), "w") as f:
                json.dump({"command": cmd, "rc": rc, "stderr": err, "doc": doc}, f, indent=1)

    print_failures([(k, None, user_results[k][3], user_results[k][2]) for k in sorted(ufailed)],
                   sources)

    # CSV lines.
    by_line = collections.OrderedDict()
    for r in rows:
        by_line.setdefault((r["repo"], r["path"], r["line"]), []).append(r)
    lines = {}
    for key, rs in by_line.items():
        real = os.path.realpath(os.path.join(sources[key[0]], key[1]))
        lines[key] = (real, key[2], any(r["wavefronts"] > r["ideal"] for r in rs))
    csv_real_lines = {(v[0], v[1]) for v in lines.values()}
    csv_files = {v[0] for v in lines.values()}

    map_stats = collections.Counter()
    u_index = {k: diagnostic_lines(v[1], sources[k[0]], callsite, map_stats)
               for k, v in user_results.items()}
    u_per, u_fig = score_mode(
        lines, lambda key: [(key[0], tu) for tu in tus_of[(key[0], key[1])]], u_index, ufailed)
    figs = [("user", u_fig)]
    p_index = p_per = None
    if pinned_results is not None:
        pfailed = {k for k, v in pinned_results.items() if run_failed(v[1], v[3])}
        p_stats = collections.Counter()
        p_index = {k: diagnostic_lines(v[1], sources[k[0]], callsite, p_stats)
                   for k, v in pinned_results.items()}
        shapes = {key: sorted({bd for r in rs for bd in r["block_dim"].split("|")})
                  for key, rs in by_line.items()}
        # --block-dim applies to every kernel of the file: in the run of one
        # kernel's shape, the other kernels (and unprofiled instantiations) are
        # analysed at a shape they never ran with.  A diagnostic counts for a
        # line only in the run of the shape its kernel was profiled with there
        # (kernel from diagnostic_functions; helpers analysed on their own and
        # diagnostics that cannot be attributed always count).
        kernels_in_csv = {base_name(r["function"]) for r in rows}
        profiled = {key: {(normalise_function(r["function"]), bd)
                          for r in rs for bd in r["block_dim"].split("|")}
                    for key, rs in by_line.items()}

        def accept(key, run_key, d):
            fns = d.get("_fns") or set()
            return not fns or any((normalise_function(f), run_key[2]) in profiled[key]
                                  or base_name(f) not in kernels_in_csv for f in fns)
        p_per, p_fig = score_mode(
            lines, lambda key: [(key[0], tu, bd) for tu in tus_of[(key[0], key[1])]
                                for bd in shapes[key]], p_index, pfailed, accept)
        figs.insert(0, ("pinned", p_fig))

    # How the user-mode runs chose the block shape (records on CSV lines).
    u_recs = {k: record_lines(v[1], sources[k[0]], callsite) for k, v in user_results.items()}
    src_count = collections.Counter()
    for key in lines:
        real, ln, _c = lines[key]
        for tu in tus_of[(key[0], key[1])]:
            for a in u_recs.get((key[0], tu), {}).get((real, ln), []):
                src_count[a.get("block_dim_source") or "?"] += 1
    print("block shape of the user-mode records on CSV lines: %s" % (
        ", ".join("%s %d" % kv for kv in src_count.most_common()) or "none"))
    if map_stats:
        print("helper diagnostics moved to their call site: %s" % (
            ", ".join("%s %d" % kv for kv in sorted(map_stats.items()))))

    print()
    print("per source line (%d lines, %d measured conflicted):" % (
        u_fig["lines"], u_fig["conflicted"]))
    names = [n for n, _f in figs]
    print("  %-46s %s" % ("", " | ".join("%-28s" % n for n in names)))

    def row(title, cell):
        print(("  %-46s %s" % (title, " | ".join("%-28s" % cell(n, f) for n, f in figs))).rstrip())
    row("lines warned", lambda n, f: "%d" % f["warned"])
    row("  of which measured clean (false alarms)", lambda n, f: "%d" % f["false alarms"])
    row("warning precision", lambda n, f: "%d/%d = %s" % (
        f["warned"] - f["false alarms"], f["warned"], pct(f["warned"] - f["false alarms"],
                                                          f["warned"])))
    row("recall of warnings", lambda n, f: "%d/%d = %s" % (
        f["conflicted warned"], f["conflicted"], pct(f["conflicted warned"], f["conflicted"])))
    row("recall of warnings + remarks", lambda n, f: "%d/%d = %s" % (
        f["conflicted warned or remarked"], f["conflicted"],
        pct(f["conflicted warned or remarked"], f["conflicted"])))
    row("clean lines with a remark only", lambda n, f: "%d" % f["clean, remark only"])
    row("lines whose every run failed (conflicted)", lambda n, f: "%d (%d)" % (
        f["failed"], f["conflicted failed"]))
    unsc = {"user": unscored(u_index, csv_real_lines, csv_files)}
    if p_index is not None:
        unsc["pinned"] = unscored(p_index, csv_real_lines, csv_files)
    row("diagnosed lines not in the CSV (not scored)", lambda n, f: "%d, %d warned, %d in CSV files"
        % unsc[n])

    def measured(key):
        rs = by_line[key]
        return "measured %d/%d = %s" % (sum(r["wavefronts"] for r in rs), sum(r["ideal"] for r in rs),
                                        fmt_ratio(sum(r["wavefronts"] for r in rs),
                                                  sum(r["ideal"] for r in rs)))

    def records_at(results, key, d):
        """The records (of every run) at a diagnostic's own position, of its
        kernel when that is known."""
        real = os.path.realpath(os.path.join(sources[key[0]], d["file"]))
        fns = {normalise_function(f) for f in d.get("_fns") or ()}
        return [a for k, v in results.items() if k[0] == key[0] and v[1]
                for a in v[1].get("accesses", [])
                if a["line"] == d["line"] and a["column"] == d["column"]
                and (not fns or normalise_function(a["function"]) in fns)
                and os.path.realpath(os.path.join(sources[key[0]], a["file"])) == real]

    print()
    for name, per, res in (("pinned", p_per, pinned_results), ("user", u_per, user_results)):
        if per is None:
            continue
        fa = [k for k in lines if per[k][0] and not lines[k][2]]
        print("%s mode, false alarms (warned, measured clean): %d" % (name, len(fa)))
        for key in sorted(fa):
            d = next(d for d in per[key][2] if d["severity"] == "warning")
            fns = sorted(d.get("_fns") or [])
            nfns = {normalise_function(f) for f in fns}
            own = [r for r in by_line[key] if not nfns or normalise_function(r["function"]) in nfns]
            tags = []
            if not own:
                tags.append("diagnostic for %s, not profiled on this line" % ", ".join(fns))
            recs = records_at(res, key, d)
            if name == "user":
                tags.append("block %s" % "/".join(sorted(
                    {a.get("block_dim_source") or "?" for a in recs}) or ["?"]))
            tw = {a["width"] * 8 for a in recs}
            mw = {r["access_size"] for r in own}
            if tw and mw and not tw & mw:
                tags.append("measured %s-bit, tool %s-bit: the compiler %s the access" % (
                    "/".join(map(str, sorted(mw))), "/".join(map(str, sorted(tw))),
                    "merged" if max(mw) > max(tw) else "split"))
            print("  %s %s:%d  %s%s\n      %s" % (
                key[0], key[1], key[2], measured(key), "".join("  [%s]" % t for t in tags),
                short(d["message"])))

    miss = [k for k in lines if lines[k][2] and not u_per[k][0] and not u_per[k][1]]
    print("user mode, conflicted lines neither warned nor remarked: %d" % len(miss))
    for key in sorted(miss):
        real, ln, _c = lines[key]
        if u_per[key][3]:
            why = "the tool failed on this file (TOOL FAILURE above)"
        else:
            recs = [a for tu in tus_of[(key[0], key[1])]
                    for a in u_recs.get((key[0], tu), {}).get((real, ln), [])]
            ops = {r["op"] for r in by_line[key]}
            if not recs:
                why = "no access record on this line" + (" (shared atomics: not modelled)"
                                                          if ops == {"atom"} else "")
            else:
                st = collections.Counter(a["status"] for a in recs)
                bad = [a for a in recs if a["status"] != "exact"]
                worst = max(recs, key=lambda a: (a["wavefronts"] - a["ideal"], a["wavefronts"]))
                why = "records: %s" % ", ".join("%s %d" % kv for kv in sorted(st.items()))
                if bad:
                    why += "; %s" % bad[0]["reason"]
                else:
                    why += "; worst warp %d/%d wavefronts (%s), block %s from %s" % (
                        worst["wavefronts"], worst["ideal"],
                        "conflict-free" if worst["wavefronts"] <= worst["ideal"] else "conflict",
                        "x".join(map(str, worst.get("block_dim") or ["?"])),
                        worst.get("block_dim_source", "?"))
                if ops - {"ld", "st"}:
                    why += " [the line also has shared atomics]"
        print("  %s %s:%d  %s\n      %s" % (key[0], key[1], key[2], measured(key), short(why, 200)))


if __name__ == "__main__":
    main()
