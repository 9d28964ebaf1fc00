#!/usr/bin/env python3
"""Compares cuda-bank-lint's records for bench/cute/cute_suite.cu with the
shared-memory wavefronts Nsight Compute measured per source line (the
source page of a report of one run of the suite, every kernel launched
once with one block).

  ncu --section SourceCounters --import-source yes -o rep ./cute_suite
  ncu -i rep.ncu-rep --page source --csv --print-source sass,cuda > source.csv
  cuda-bank-lint --format=json cute_suite.cu -- -std=c++17 -I $CUTLASS/include > tool.json
  bench/cute/compare.py tool.json source.csv[.gz]
  bench/cute/compare.py --instances-as-sets tool.json source.csv[.gz]

Each SASS instruction of the source page is listed under every line of its
inline chain (twice under a line that is twice in the chain: counted once);
rows are matched to the tool's records by kernel (template
arguments normalised), file name, line, direction and width, so only the
line the tool reports an access at counts. Prints one row per (kernel, line,
op, width): measured wavefronts/ideal, the tool's block sums and status, and
whether the ratios agree (as bench/accuracy.py scores them); exit status 1
when a measured line has no exact agreeing record.

--instances-as-sets, for library code whose template instances Nsight
Compute names with their defaulted arguments (CUTLASS's tutorials:
UniversalCopy<T, T>, UniversalFMA<float, float, float, float>) where the tool
leaves them out: per file, line, direction and width, the measured ratios of
all instances are compared with the tool's exact ones, as sets.
Python 3 standard library only.
"""
import collections
import csv
import fractions
import gzip
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from accuracy_sources import normalise_function  # noqa: E402


def measured(path):
    """(kernel, file, line, op, bits) -> [wavefronts, ideal, SASS opcodes]."""
    f = gzip.open(path, "rt") if path.endswith(".gz") else open(path)
    rows = collections.defaultdict(lambda: [0.0, 0.0, set()])
    seen = set()  # (kernel, file, line, SASS address): each instruction once per line
    file = func = cols = line = None
    for row in csv.reader(f):
        if not row:
            continue
        if row[0] == "File Path":
            file, cols = os.path.basename(row[1]), None
        elif row[0] == "Function Name":
            func = normalise_function(row[1])
        elif row[0] == "Line No":
            cols = {n: i for i, n in reversed(list(enumerate(row)))}
        elif cols is None:
            continue
        elif row[0]:
            line = int(row[0]) if row[0].isdigit() else line
        elif row[cols["Address Space"]] == "Shared" and float(row[cols["Instructions Executed"]] or 0):
            # A line twice in an instruction's inline chain (copy_sm75.hpp:134)
            # lists the instruction twice under it.
            if (func, file, line, row[2]) in seen:
                continue
            seen.add((func, file, line, row[2]))
            op = {"Load": "ld", "Store": "st"}.get(row[cols["Access Operation"]], "atom")
            k = (func, file, line, op, int(row[cols["Access Size"]]))
            rows[k][0] += float(row[cols["L1 Wavefronts Shared"]] or 0)
            rows[k][1] += float(row[cols["L1 Wavefronts Shared Ideal"]] or 0)
            rows[k][2].add(row[3].split()[0])
    return rows


def as_sets(tool, rows):
    """Per (file, line, op, bits): the measured ratios of every instance
    against the tool's, compared as sets; lines the tool reports no access
    at (the outer lines of an inline chain) are left out."""
    ratios = collections.defaultdict(lambda: ([], []))
    for (_, *line), (wf, ideal, _) in rows.items():
        if ideal > 0:
            ratios[tuple(line)][0].append(fractions.Fraction(round(wf), round(ideal)))
    sums = collections.defaultdict(lambda: [0, 0])
    for a in tool["accesses"]:
        if a["status"] == "exact":
            s = sums[(a["function"], os.path.basename(a["file"]), a["line"], a["op"], a["width"] * 8)]
            s[0] += a["block_wavefronts"]
            s[1] += a["block_ideal"]
    for (_, *line), (tw, ti) in sums.items():
        if ti > 0:
            ratios[tuple(line)][1].append(fractions.Fraction(tw, ti))
    bad = 0
    for line, (m, t) in sorted(ratios.items()):
        if not t:
            continue
        ok = sorted(m) == sorted(t)
        bad += not ok
        print("%-16s %5d %2s %4d measured %s tool %s %s" % (*line, " ".join(map(str, sorted(m))) or "-",
                                                          " ".join(map(str, sorted(t))), "yes" if ok else "NO"))
    print("lines not agreeing: %d" % bad)
    return 1 if bad else 0


def main(argv):
    if argv[1] == "--instances-as-sets":
        return as_sets(json.load(open(argv[2])), measured(argv[3]))
    tool = json.load(open(argv[1]))
    recs = collections.defaultdict(list)
    for a in tool["accesses"]:
        k = (normalise_function(a["function"]), os.path.basename(a["file"]), a["line"], a["op"], a["width"] * 8)
        recs[k].append(a)
    bad = 0
    print("%-48s %-16s %5s %2s %4s %10s %10s %-10s %s" % ("kernel", "file", "line", "op", "bits", "measured",
                                                         "tool", "status", "agrees"))
    for k, (wf, ideal, ops) in sorted(measured(argv[2]).items()):
        rs = recs.get(k, [])
        if not rs:
            # ncu also lists the instruction under the outer lines of its
            # inline chain; only lines the tool reports an access at count.
            continue
        tw = sum(a["block_wavefronts"] for a in rs)
        ti = sum(a["block_ideal"] for a in rs)
        status = ",".join(sorted({a["status"] for a in rs}))
        # The ratio, as bench/accuracy.py scores it: the source page's
        # instrumented counts may be a multiple of the hardware counters, and
        # a loop the tool need not run is summed for one of its iterations.
        ok = status == "exact" and ti > 0 and ideal > 0 and abs(tw / ti - wf / ideal) < 1e-9
        bad += not ok
        print("%-48s %-16s %5d %2s %4d %10s %10s %-10s %s" % (k[0][:48], k[1], k[2], k[3], k[4],
                                                              "%g/%g" % (wf, ideal), "%g/%g" % (tw, ti),
                                                              status, "yes" if ok else "NO"))
    print("lines not agreeing: %d" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
