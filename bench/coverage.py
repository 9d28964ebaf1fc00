#!/usr/bin/env python3
"""How many shared accesses of a source tree get an exact verdict.

Runs cuda-bank-lint (JSON) on every .cu/.cuh file under a tree that mentions
__shared__, one process per file, and prints the status of every access record
(exact, bound, data-dependent, unknown), the most common reasons, and the files
that did not compile, crashed or timed out. This is the figure issue #3 asks
for ("share of accesses with status unknown across NVIDIA's cuda-samples").

    python3 bench/coverage.py /tmp/cs -- -std=c++17 -I /tmp/cs/Common

Flags after `--` go to the compiler; the file's own directory is added with -I.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys

from benchlib import find_tool


def sources(root):
    for d, _, names in os.walk(root):
        for n in sorted(names):
            if not n.endswith((".cu", ".cuh")):
                continue
            p = os.path.join(d, n)
            try:
                with open(p, errors="replace") as f:
                    if "__shared__" in f.read():
                        yield p
            except OSError:
                pass


def run(tool, path, flags, timeout):
    cmd = [tool, "--format=json", "--quiet", path, "--"] + flags + ["-I", os.path.dirname(path)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return path, None, "timeout"
    if p.returncode < 0 or p.returncode > 2:
        return path, None, "crash (exit %d)" % p.returncode
    try:
        doc = json.loads(p.stdout)
    except json.JSONDecodeError:
        return path, None, "no JSON (exit %d)" % p.returncode
    if doc.get("errors"):
        return path, doc, "does not compile"
    return path, doc, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("--tool")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--top", type=int, default=15, help="reasons to list")
    ap.add_argument("--list", metavar="STATUS", help="print every record with this status")
    argv = sys.argv[1:]
    flags = argv[argv.index("--") + 1:] if "--" in argv else []
    a = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    a.flags = flags
    tool = find_tool(a.tool, "coverage.py")

    files = list(sources(a.root))
    status = collections.Counter()
    diagnostics = collections.Counter()
    reasons = collections.Counter()
    problems = []
    listed = []
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for path, doc, problem in ex.map(lambda p: run(tool, p, a.flags, a.timeout), files):
            if problem:
                problems.append((os.path.relpath(path, a.root), problem))
            for d in (doc or {}).get("diagnostics", []):
                diagnostics[(d["check"], d["severity"])] += 1
            for r in (doc or {}).get("accesses", []):
                status[r["status"]] += 1
                if r["status"] != "exact":
                    reasons[(r["status"], re.sub(r"'[^']*'", "'_'", r.get("reason", "")))] += 1
                if a.list and r["status"] == a.list:
                    listed.append("%s:%d %s: %s" % (os.path.relpath(r["file"], a.root), r["line"],
                                                     r["function"], r.get("reason", "")))
    total = sum(status.values())
    print("files with __shared__: %d   not analysed: %d" % (len(files), len(problems)))
    print("accesses: %d" % total)
    for s in ("exact", "bound", "data-dependent", "unknown"):
        print("  %-15s %6d  %5.1f%%" % (s, status[s], 100.0 * status[s] / max(total, 1)))
    print("diagnostics:")
    for (check, sev), n in sorted(diagnostics.items()):
        print("  %5d  %-8s %s" % (n, sev, check))
    print("most common reasons:")
    for (s, r), n in reasons.most_common(a.top):
        print("  %5d  %-14s %s" % (n, s, r[:110]))
    for p, why in sorted(problems):
        print("not analysed: %s (%s)" % (p, why))
    for line in sorted(listed):
        print(line)
    crashed = [p for p in problems if p[1].startswith(("crash", "timeout", "no JSON"))]
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
