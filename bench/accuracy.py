#!/usr/bin/env python3
"""Compare cuda-bank-lint with shared-memory wavefronts measured on an H100.

Usage:
  bench/accuracy.py ../shared/ground-truth/h100-open.csv \
      --source NVIDIA/cuda-samples=/tmp/gt/cuda-samples \
      --source xlite-dev/LeetCUDA=/tmp/gt/LeetCUDA ...

The CSV format is described in ../shared/ground-truth/README.md: one row per
(repo, path, line, kernel, op, access size) with the wavefronts and ideal
wavefronts summed over every execution.  For each source file of the CSV the
script finds the translation unit(s) that compiled it, runs the tool in JSON
mode once per distinct profiled block shape (--block-dim applies to every
kernel of a file), and matches tool records to CSV rows by
(file, line, op, access width in bits), choosing the records of the profiled
kernel (template arguments normalised, see normalise_function).

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
# Extra flags for translation units under a path prefix.
PATH_FLAGS = {
    ("NVIDIA/cuda-samples", "Samples/5_Domain_Specific/FDTD3d/"):
        ["-I", "{root}/Samples/5_Domain_Specific/FDTD3d/inc"],
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


def translation_units(root, relpath):
    """The .cu files that compiled root/relpath (itself, or its includers as
    listed in the nearest CMakeLists.txt; else any includer in its directory
    tree)."""
    path = os.path.normpath(os.path.join(root, relpath))
    d = os.path.dirname(path)
    while True:
        srcs = _cmake_sources(d)
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
    cmd = [tool, "--format=json", "--quiet", "--block-dim=" + block_dim, tu, "--"] + flags
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


def pct(a, b):
    return "n/a" if b == 0 else "%.1f%%" % (100.0 * a / b)


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="ground-truth CSV (h100-open.csv or h100-open-callsite.csv)")
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

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        futs = {ex.submit(run_tool, tool, tu, bd, fl, sources[repo], args.timeout): (repo, tu, bd)
                for (repo, tu, bd), fl in runs.items()}
        for fu in concurrent.futures.as_completed(futs):
            results[futs[fu]] = fu.result()
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
    for key, rc, err in failures:
        print("  TOOL FAILURE rc=%s on %s --block-dim=%s:\n    %s" % (
            rc, os.path.relpath(key[1], sources[key[0]]), key[2],
            "\n    ".join((err or "").strip().splitlines()[-6:])))
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
            if not in_file:
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
                    r["access_size"], mw, mi, x[5], x[6]))
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


if __name__ == "__main__":
    main()
