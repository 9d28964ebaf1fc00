#!/usr/bin/env python3
"""Robustness over real trees: no crash, no hang, valid JSON on every file.

Runs cuda-bank-lint --format=json on every .cu/.cuh file of whole source
trees, one process per file, each with a wall-clock limit (default 120 s),
and reports per tree and in total: files, exit codes, crashes (a signal or an
exit code above 2), timeouts, invalid JSON, and percentiles of the time and of
the peak memory (the child's maximum resident set, from wait4).

    python3 bench/robustness.py --gt-root /tmp/gt -j 2 --jsonl /tmp/rob.jsonl
    python3 bench/robustness.py --report-from /tmp/rob.jsonl --markdown

Trees (under --gt-root; whole trees, every sub-directory): cuda-samples,
llm.c, flash-attention, HeCBench, cccl, cutlass; or any NAME=ROOT with
--flags NAME='...'. The compiler flags are coverage.py's (TREES in
coverage_trees.py: include directories, per HeCBench benchmark its Makefile's);
flash-attention gets its own source directories and cutlass's include
directory. The file's own directory is always added with -I. --jsonl appends
one line per file as it finishes, and --resume skips the files already there,
so a long run can be stopped and continued.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

from benchlib import find_tool
from coverage_trees import Tree, TREES

ORDER = ["cuda-samples", "llm.c", "flash-attention", "hecbench", "cccl", "cutlass"]


def whole_tree(name, gt_root):
    """The coverage tree of that name, every sub-directory of it."""
    if name == "flash-attention":
        root = os.path.join(gt_root, "flash-attention")
        cutlass = os.path.join(gt_root, "cutlass")
        flags = ["-std=c++17", "-I", "{root}/csrc/flash_attn/src", "-I", "{root}/csrc/flash_attn",
                 "-I", "{root}/hopper", "-I", cutlass + "/include",
                 "-I", cutlass + "/tools/util/include"]
        return Tree(name, root, ["."], flags)
    known = TREES[name]
    t = Tree(name, os.path.join(gt_root, known["dir"]), ["."],
             known["flags"] + known.get("extra", []), makefile=bool(known.get("makefile")))
    return t


def run_one(tool, tree, path, base, timeout):
    """One file: exit code, seconds, peak MiB, outcome."""
    flags = tree.file_flags(path, base)
    cmd = [tool, "--format=json", "--quiet", path, "--"] + flags
    rel = os.path.relpath(path, tree.root)
    res = {"tree": tree.name, "file": rel, "exit": None, "seconds": None, "peak_mib": None,
           "outcome": None, "detail": None}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, start_new_session=True)
        status, usage, timed_out = None, None, False
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > timeout:
                os.killpg(p.pid, signal.SIGKILL)
                _, status, usage = os.wait4(p.pid, 0)
                timed_out = True
                break
            time.sleep(0.02)
        p.returncode = os.waitstatus_to_exitcode(status)
        res["seconds"] = round(time.monotonic() - t0, 3)
        res["peak_mib"] = round(usage.ru_maxrss / 1024.0, 1)  # KiB on Linux
        res["exit"] = p.returncode
        if timed_out:
            res.update(outcome="timeout", detail="no result in %d s" % timeout)
            return res
        if p.returncode < 0 or p.returncode > 2:
            err.seek(0)
            tail = err.read().decode(errors="replace").strip().splitlines()[-6:]
            res.update(outcome="crash", detail="exit %d: %s" % (p.returncode, " | ".join(tail)))
            return res
        out.seek(0)
        try:
            doc = json.loads(out.read().decode(errors="replace"))
            units = doc.get("translation_units") or []
            res["outcome"] = "ok" if units and "accesses" in doc else "invalid-json"
            if res["outcome"] == "ok":
                res["status"] = units[0].get("status")
        except json.JSONDecodeError as e:
            res.update(outcome="invalid-json", detail=str(e))
    return res


def percentiles(values, qs=(50, 90, 99, 100)):
    v = sorted(values)
    if not v:
        return ["-"] * len(qs)
    return [v[min(len(v) - 1, int(round(q / 100.0 * (len(v) - 1))))] for q in qs]


def report(rows, markdown):
    trees = [t for t in ORDER if any(r["tree"] == t for r in rows)]
    trees += sorted({r["tree"] for r in rows} - set(trees))
    head = ["tree", "files", "exit 0/1/2", "crashes", "timeouts", "invalid JSON",
            "s p50/p90/p99/max", "MiB p50/p90/p99/max"]
    lines = []
    for name in trees + ["total"]:
        rs = [r for r in rows if name == "total" or r["tree"] == name]
        exits = collections.Counter(r["exit"] for r in rs if r["outcome"] != "timeout")
        out = collections.Counter(r["outcome"] for r in rs)
        secs = percentiles([r["seconds"] for r in rs])
        mib = percentiles([r["peak_mib"] for r in rs])
        lines.append([name, str(len(rs)), "%d/%d/%d" % (exits[0], exits[1], exits[2]),
                      str(out["crash"]), str(out["timeout"]), str(out["invalid-json"]),
                      "/".join("%.2f" % s for s in secs), "/".join("%.0f" % m for m in mib)])
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + " --- |" * len(head))
        for ln in lines:
            print("| " + " | ".join(ln) + " |")
    else:
        w = [max(len(x) for x in col) for col in zip(head, *lines)]
        for ln in [head] + lines:
            print("  ".join(c.ljust(n) for c, n in zip(ln, w)))
    bad = [r for r in rows if r["outcome"] in ("crash", "timeout", "invalid-json")]
    for r in bad:
        print("%s %s/%s: %s" % (r["outcome"], r["tree"], r["file"], r.get("detail")))
    statuses = collections.Counter(r.get("status") for r in rows if r["outcome"] == "ok")
    print("translation units: " + ", ".join("%s %d" % (k, n) for k, n in statuses.most_common()))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gt-root", help="directory holding the checked-out trees")
    ap.add_argument("--tree", action="append", default=[],
                    help="a tree of ORDER, or NAME=ROOT (default: all of ORDER)")
    ap.add_argument("--flags", action="append", default=[], help="NAME='flags' for a NAME=ROOT tree")
    ap.add_argument("--tool")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--limit", type=int, default=0, help="at most this many files per tree")
    ap.add_argument("--jsonl", help="append one JSON line per file")
    ap.add_argument("--resume", action="store_true", help="skip the files already in --jsonl")
    ap.add_argument("--report-from", help="only print the report of a --jsonl file")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    if a.report_from:
        with open(a.report_from) as f:
            report([json.loads(ln) for ln in f if ln.strip()], a.markdown)
        return
    tool = find_tool(a.tool, "robustness.py")
    flag_map = dict(x.split("=", 1) for x in a.flags)
    trees = []
    for spec in a.tree or ORDER:
        name, _, root = spec.partition("=")
        if root:
            trees.append(Tree(name, root, ["."], shlex.split(flag_map.get(name, "-std=c++17"))))
        elif not a.gt_root:
            sys.exit("robustness.py: --tree %s needs --gt-root" % name)
        elif os.path.isdir(os.path.join(a.gt_root, name if name not in TREES else TREES[name]["dir"])):
            trees.append(whole_tree(name, a.gt_root))
        else:
            print("robustness.py: tree %s is not under %s; skipped" % (name, a.gt_root), file=sys.stderr)
    done = set()
    rows = []
    if a.resume and a.jsonl and os.path.exists(a.jsonl):
        with open(a.jsonl) as f:
            for ln in f:
                if ln.strip():
                    r = json.loads(ln)
                    done.add((r["tree"], r["file"]))
                    rows.append(r)
    work = []
    for t in trees:
        units = [(t, p, b) for p, b in t.units() if (t.name, os.path.relpath(p, t.root)) not in done]
        work += units[: a.limit] if a.limit else units
    lock = threading.Lock()
    sink = open(a.jsonl, "a") if a.jsonl else None
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as pool:
        futures = [pool.submit(run_one, tool, t, p, b, a.timeout) for t, p, b in work]
        for i, f in enumerate(concurrent.futures.as_completed(futures), 1):
            r = f.result()
            with lock:
                rows.append(r)
                if sink:
                    sink.write(json.dumps(r) + "\n")
                    sink.flush()
            if i % 100 == 0:
                print("[%d/%d] %.0f s" % (i, len(work), time.monotonic() - start), file=sys.stderr)
    if sink:
        sink.close()
    report(rows, a.markdown)


if __name__ == "__main__":
    main()
