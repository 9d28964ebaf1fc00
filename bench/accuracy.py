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
import fractions
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import find_tool  # noqa: E402
from accuracy_sources import (TranslationUnits, base_name, eval_threads,  # noqa: E402
                              fmt_frac, fmt_ratio, generic_reason, load_flags_module,
                              normalise_function, pct, reason_class, run_tool)
from accuracy_user import print_failures, user_report  # noqa: E402

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


def data_remark(a):
    """A data-dependent access whose random values can conflict: the tool's
    remark with the expected cost on random data (never a warning)."""
    r = a.get("random_data")
    return a["status"] == "data-dependent" and r is not None and r["worst_wavefronts"] > r["worst_ideal"]


def flags(m):
    """Bounds (status "bound": which lanes run it, or a parameter's value, is
    not known) are reported as warnings or possible-conflict remarks when
    their worst case conflicts, data-dependent accesses as remarks with
    their expected cost on random data, and accesses whose partial tiles show
    excess wavefronts on the source page as remarks: weaker claims, counted
    separately."""
    return any((a["status"] in ("exact", "bound") and a["wavefronts"] > a["ideal"]) or data_remark(a)
               or a.get("boundary_warp") for a in m.recs)


def report_warnings(rows_v):
    """Matching, warnings and flags per row and per source line; returns the
    rows by source line and the number of lines analysed exactly."""
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
    ftp = sum(1 for x in rows_v if x[1] and flags(x[0]))
    ffp = sum(1 for x in rows_v if not x[1] and flags(x[0]))
    print("tool flags (exact or bound, worst case wavefronts > ideal: a warning or a possible-conflict "
          "remark; data-dependent with a random-data remark): %d rows; measured conflicted among them: %d; recall of flags: %d/%d = %s" % (
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
    return by_line, lexact


def report_ratio(rows_v):
    """wavefronts/ideal of the exact rows against the measurement."""
    exact_rows = [x for x in rows_v if x.state == "exact"]
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
    # Exact per execution: every iteration that may run costs the same, only
    # how many run is unknown (a loop bound that is a kernel argument): the
    # ratio of the block sums is the ratio of each execution.
    per_exec = [x for x in rows_v if x.state == "per-execution" and x[6] > 0 and x[0].row["ideal"] > 0]
    pe_eq = sum(1 for x in per_exec if fractions.Fraction(x[5], x[6]) ==
                fractions.Fraction(x[0].row["wavefronts"], x[0].row["ideal"]))
    print("exact per execution (execution count unknown): agreement %d/%d = %s" % (
        pe_eq, len(per_exec), pct(pe_eq, len(per_exec))))
    for x in per_exec:
        if fractions.Fraction(x[5], x[6]) != fractions.Fraction(x[0].row["wavefronts"], x[0].row["ideal"]):
            r = x[0].row
            print("  differs: %s:%d %s %s: measured %d/%d, tool %d/%d" % (
                r["path"], r["line"], normalise_function(r["function"]), r["op"], r["wavefronts"],
                r["ideal"], x[5], x[6]))
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


def report_coverage(rows_v, by_line, lexact, all_records):
    """Rows and lines analysed exactly, why the others were not, record statuses."""
    n = len(rows_v)
    exact_rows = [x for x in rows_v if x.state == "exact"]
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
        elif x[2] in ("inexact", "per-execution"):
            causes["%s%s (%s)" % (x[3].split(":")[0], ", exact per execution" if x[2] == "per-execution" else "",
                                  reason_class(x[3].split(":", 1)[1].strip()))] += 1
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


def report_disagreements(args, rows_v):
    """Every row where the tool and the measurement disagree (all with --all-rows)."""
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
