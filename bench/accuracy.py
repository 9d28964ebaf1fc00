#!/usr/bin/env python3
"""Compare cuda-bank-lint with shared-memory wavefronts measured on an H100.

Usage:
  bench/accuracy.py ../shared/ground-truth/h100-open.csv \
      --source NVIDIA/cuda-samples=/tmp/gt/cuda-samples \
      --source xlite-dev/LeetCUDA=/tmp/gt/LeetCUDA ...

  bench/accuracy.py ../shared/ground-truth/h100-open3.csv \
      --flags-module ../shared/ground-truth/flags-open3.py \
      --source NVIDIA/cccl=/tmp/gt/cccl ...

The CSV format is described in ../shared/ground-truth/README.md (set 2:
README-open2.md, set 3: README-open3.md): one row per (repo, path, line,
kernel, op, access size) with the wavefronts and ideal wavefronts summed over
every execution.  For each source file of the CSV the script finds the
translation unit(s) that compiled it (CMakeLists.txt or Makefile source lists;
with --flags-module, that module's translation_unit() and FLAGS for the
repositories it names), runs the tool in JSON mode once
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
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import find_tool  # noqa: E402
from accuracy_sources import (TranslationUnits, base_name, load_flags_module,  # noqa: E402
                              normalise_function, run_tool)
from accuracy_user import print_failures, user_report  # noqa: E402
from accuracy_report import (report_coverage, report_disagreements, report_ratio,  # noqa: E402
                             report_warnings)

# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="ground-truth CSV (h100-open.csv, h100-open2.csv, h100-open3.csv "
                                "or their -callsite twins)")
    ap.add_argument("--source", action="append", default=[], metavar="OWNER/NAME=PATH",
                    help="source tree of a repository at the CSV's commit (repeatable)")
    ap.add_argument("--flags-module", metavar="PATH",
                    help="Python file giving translation_unit(repo, path, function) and FLAGS "
                         "{(repo, tu): flags} (placeholders {root}, {dir}), e.g. "
                         "flags-open3.py of the third set: used for the repositories its FLAGS "
                         "name instead of the built-in resolution and flags")
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
    flags_module = load_flags_module(args.flags_module) if args.flags_module else None

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
    print("accesses inside headers outside the repository (the toolkit's CUB) counted at: their "
          "innermost call in the repository, as the CSVs do")
    print("tool: %s (%s)" % (tool, version.splitlines()[0] if version else "?"))
    print("rows in CSV: %d" % len(rows))
    if flags_module:
        print("translation units and flags: %s for %s; built-in for other repositories" % (
            os.path.abspath(args.flags_module), ", ".join(sorted({r for r, _t in flags_module.FLAGS}))))

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

    # Plan the runs: (repo, tu, block_dim) -> flags.  A row's translation
    # units may depend on its kernel (a flags module's CUB headers, shared by
    # several examples); tus_of is the union over the rows of a file.
    units = TranslationUnits(sources, flags_module)
    tus_of = {}
    runs = {}
    for r in rows:
        tus = units.row_tus(r)
        lst = tus_of.setdefault((r["repo"], r["path"]), [])
        lst += [tu for tu in tus if tu not in lst]
        for bd in r["block_dim"].split("|"):
            for tu in tus:
                runs[(r["repo"], tu, bd)] = units.flags(r["repo"], tu)
    if units.unknown:
        print("  %d rows of files the flags module does not know (built-in resolution used): %s" % (
            sum(1 for r in rows if (r["repo"], r["path"]) in units.unknown),
            ", ".join("%s:%s" % k for k in sorted(units.unknown))))
    multi_shape = [r for r in rows if "|" in r["block_dim"]]
    user_mode = not args.no_user_mode or args.user_mode_only
    if args.user_mode_only:
        runs = {}
    # User mode: one run per translation unit, no --block-dim: (repo, tu) -> flags.
    user_runs = {}
    if user_mode:
        for (repo, _path), tus in tus_of.items():
            for tu in tus:
                user_runs[(repo, tu)] = units.flags(repo, tu)

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
        pinned_report(args, rows, sources, units.row_tus, runs, results, callsite, multi_shape)
    if user_mode:
        user_report(args, rows, sources, tus_of, user_results,
                    None if args.user_mode_only else results, callsite)


def pinned_report(args, rows, sources, row_tus, runs, results, callsite, multi_shape):
    """The figures of docs/accuracy.md: one run per translation unit and
    profiled block shape (--block-dim), records matched to CSV rows."""
    all_runs_failed = report_runs(args, rows, sources, row_tus, runs, results, multi_shape)
    index, all_records = index_records(results, sources, callsite)
    matched = match_rows(rows, sources, index, all_runs_failed)
    match_lines_above(matched, sources, index)
    rows_v = row_verdicts(matched)
    by_line, lexact = report_warnings(rows_v)
    report_ratio(rows_v)
    report_coverage(rows_v, by_line, lexact, all_records)
    report_disagreements(args, rows_v)


def report_runs(args, rows, sources, row_tus, runs, results, multi_shape):
    """Prints the runs and their failures; returns whether every run of a row failed."""
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
        return all((r["repo"], tu, bd) in failed for tu in row_tus(r)
                   for bd in r["block_dim"].split("|"))
    if failures:
        lost = collections.Counter(r["path"] for r in rows if all_runs_failed(r))
        print("  rows whose every run failed (counted below as 'no tool record'): %d%s" % (
            sum(lost.values()), "".join("\n    %4d  %s" % (k, p) for p, k in sorted(lost.items()))))
    if multi_shape:
        print("  note: %d rows aggregate several block shapes; each shape was run and the "
              "records of all of them were summed" % len(multi_shape))
    return all_runs_failed


def in_repository(path, root):
    root = os.path.realpath(root)
    return path == root or path.startswith(root + os.sep)


def innermost_repository_call(a, root, f, line):
    """The innermost frame of a record's call chain that lies in the repository."""
    for frame in reversed(a.get("call_chain") or []):
        g = os.path.realpath(os.path.join(root, frame["file"]))
        if in_repository(g, root):
            return g, frame["line"]
    return f, line


def index_records(results, sources, callsite):
    """Tool records by (repo, block shape, real file, line, op), and every record once."""
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
            elif not in_repository(f, sources[repo]):
                # Accesses inside toolkit headers (the toolkit's own CUB) are
                # counted at their innermost repository call, as the CSV does.
                f, line = innermost_repository_call(a, sources[repo], f, line)
            index[(repo, bd, f, line, a["op"])].append(a)
            all_records[(repo, bd, f, a["line"], a["column"], a["function"], a["op"],
                         a["width"], a.get("array"))] = a
            # An atomic run as a compare-and-swap loop also loads its words
            # each round (LDS, profiled as loads of the same line): the
            # record carries their cost, matched to the line's ld rows.
            if "block_loop_load_wavefronts" in a:
                ld = dict(a, op="ld", wavefronts=a["loop_load_wavefronts"],
                          ideal=a["loop_load_ideal"],
                          block_wavefronts=a["block_loop_load_wavefronts"],
                          block_ideal=a["block_loop_load_ideal"], _loop_load=True)
                index[(repo, bd, f, line, "ld")].append(ld)
    return index, all_records


Res = collections.namedtuple("Res", "row recs via width_note")
RowV = collections.namedtuple("RowV", "m meas_conf state why warns bw bi")


def match_rows(rows, sources, index, all_runs_failed):
    """Each CSV row with the profiled kernel's records of its line, op and width."""
    kernels_in_csv = {base_name(r["function"]) for r in rows}
    matched = []
    for r in rows:
        f = os.path.realpath(os.path.join(sources[r["repo"]], r["path"]))
        want = normalise_function(r["function"])
        cands = []
        for bd in r["block_dim"].split("|"):
            cands += index.get((r["repo"], bd, f, r["line"], r["op"]), [])
        # One record per access (a header reached from two TUs is reported
        # twice): each position from the first TU that reports it. Within one
        # TU, records at one position are distinct instructions (a loop's
        # unrolled copies) and all count.
        first_tu, uniq = {}, []
        for a in cands:
            k = (a["line"], a["column"], a["function"], a["op"], a["width"], a.get("array"),
                 tuple(a.get("block_dim") or ()))
            if first_tu.setdefault(k, a.get("_tu")) == a.get("_tu"):
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
    return matched


def match_lines_above(matched, sources, index):
    # A statement spread over several lines: the tool reports the line where the
    # access expression starts, nvcc's line table may name a later one.  Rows
    # with no record take an otherwise unmatched record of the same kernel, op
    # and width from up to 3 lines above.
    used = {id(a) for m in matched for a in m.recs}
    for i, m in enumerate(matched):
        if m.recs:
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


def row_verdicts(matched):
    """Per row: measured conflicted, the tool's state (exact, inexact, not
    analysed) and why, whether it warns, and its block sums."""
    def verdict(m):
        r = m.row
        meas_conf = r["wavefronts"] > r["ideal"]
        if not m.recs:
            if m.via == "width":
                return meas_conf, "not-analysed", "width mismatch: " + m.width_note
            return meas_conf, "not-analysed", "no tool record: " + m.width_note
        st = {a["status"] for a in m.recs}
        if st != {"exact"}:
            bad = [a for a in m.recs if a["status"] != "exact"]
            if all(a["status"] == "exact" or a.get("per_execution") for a in m.recs):
                return meas_conf, "per-execution", "%s: %s" % (bad[0]["status"], bad[0]["reason"])
            return meas_conf, "inexact", "%s: %s" % (bad[0]["status"], bad[0]["reason"])
        return meas_conf, "exact", ""

    rows_v = []
    for m in matched:
        meas_conf, state, why = verdict(m)
        warns = state == "exact" and any(a["wavefronts"] > a["ideal"] for a in m.recs)
        bw = sum(a["block_wavefronts"] for a in m.recs)
        bi = sum(a["block_ideal"] for a in m.recs)
        rows_v.append(RowV(m, meas_conf, state, why, warns, bw, bi))
    return rows_v


if __name__ == "__main__":
    main()
