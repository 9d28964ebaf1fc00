#!/usr/bin/env python3
"""Issue 28's trial: cuda-bank-lint as a new user runs it, on every .cu of a project.

Default options (no --block-dim, no --remarks, text output), one process per
file, run from the project's root with the file's relative path: file by file
with the flags after `--`, or in project mode with `-p BUILD_DIR` (the
project's compile_commands.json). Each file is run a second time with
--format=json, which says what was not modelled. Printed per project: the
files run and those with findings, the lines of stdout per file (the largest,
the files over a screen of 50 lines with their findings), the kernels the tool
could not model or analyse and whether the text run's stderr (its summary and
notes) names each of them, and the paths of the output that are not plain
relative ones. Figures, not asserts: the exit status is 1 only when the tool
crashed (an exit code other than the documented 0, 1, 2) or timed out.

    S=/tmp/gt/cuda-samples
    python3 bench/new-user.py $S \
        --path-flags "Samples/5_Domain_Specific/FDTD3d/*=-I $S/Samples/5_Domain_Specific/FDTD3d/inc" \
        -- -std=c++17 -I$S/Common
    python3 bench/new-user.py /tmp/gt/llm.c --glob 'dev/cuda/*.cu' --glob '*.cu' \
        --path-flags 'dev/cuda/matmul_forward.cu=-fopenmp' -- -std=c++17
    python3 bench/new-user.py /tmp/ggml -p /tmp/ggml/build --glob 'src/ggml-cuda/*.cu'

--dump DIR keeps each file's stdout, stderr and JSON (DIR/NAME/FILE.txt, .stderr,
.json) to read them as a user would; --report-from-dump prints the report of
those again without running anything.

Python 3 standard library only.  See bench/README.md and docs/integration.md.
"""
import argparse
import collections
import fnmatch
import glob
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import find_tool  # noqa: E402

DOCUMENTED_EXIT_CODES = (0, 1, 2)  # docs/integration.md, "Output formats and exit codes"
SCREEN = 50
# A finding as the text output prints it: its first line.
FINDING = re.compile(r"^\S.*?:\d+:\d+: (warning|error): .*\[cuda-[\w-]+\]$")
# A path of a source file in the output.
PATH = re.compile(r"(?<![\w./+-])((?:\.\.?/|/)?[\w.+-]+(?:/[\w.+-]+)*\.(?:cu|cuh|h|hpp|hh|cpp|cc|inl))\b")
# A __shared__ declaration that is not extern (every extern declaration of a kernel
# is one buffer, which JSON lists once), outside a // comment.
SHARED_DECL = re.compile(r"^(?!.*\bextern\b)[^/]*\b__shared__\b")
NO_ACCESS = re.compile(r"^kernel '(.+?)' uses shared memory, but no access to it was recognised")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", help="the project's root (the runs' working directory)")
    ap.add_argument("--glob", action="append", default=[],
                    help="files to run, relative to ROOT (repeatable; default: **/*.cu)")
    ap.add_argument("-p", dest="build_dir", help="project mode: the build directory with "
                    "compile_commands.json (no flags after --)")
    ap.add_argument("--path-flags", action="append", default=[], metavar="GLOB=FLAGS",
                    help="more flags for the files matching GLOB (relative to ROOT; repeatable)")
    ap.add_argument("--name", help="the project's name in the report (default: ROOT's name)")
    ap.add_argument("--sample", type=int, default=0, metavar="N",
                    help="run only N files, evenly spread over the sorted list")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per run (default 300)")
    ap.add_argument("--dump", metavar="DIR",
                    help="keep each file's stdout, stderr and JSON under DIR/NAME/")
    ap.add_argument("--report-from-dump", action="store_true",
                    help="run nothing: report on the runs kept by an earlier --dump DIR")
    ap.add_argument("--tool", help="the cuda-bank-lint binary (default: build/bin/)")
    argv = sys.argv[1:]
    flags = []
    if "--" in argv:
        i = argv.index("--")
        argv, flags = argv[:i], argv[i + 1:]
    args = ap.parse_args(argv)
    args.flags = flags
    if args.report_from_dump and not args.dump:
        ap.error("--report-from-dump needs --dump DIR")
    if args.build_dir and flags:
        ap.error("-p takes the flags from the database: no flags after --")
    args.path_flags = [pf.split("=", 1) for pf in args.path_flags]
    if any(len(pf) != 2 for pf in args.path_flags):
        ap.error("--path-flags takes GLOB=FLAGS")
    return args


def project_files(root, globs, sample):
    """The .cu files to run, relative to root, sorted; (chosen, all)."""
    found = set()
    for g in globs or ["**/*.cu"]:
        found.update(f for f in glob.glob(g, root_dir=root, recursive=True)
                     if os.path.isfile(os.path.join(root, f)))
    files = sorted(found)
    if sample and sample < len(files):
        step = len(files) / sample
        return [files[int(i * step)] for i in range(sample)], files
    return files, files


def command(tool, args, rel, fmt):
    cmd = [tool]
    if fmt != "text":
        cmd.append("--format=" + fmt)
    if args.build_dir:
        return cmd + ["-p", args.build_dir, rel]
    extra = [w for g, f in args.path_flags if fnmatch.fnmatch(rel, g) for w in shlex.split(f)]
    return cmd + [rel, "--"] + args.flags + extra


def run(cmd, cwd, timeout):
    """(exit code or None when timed out, stdout, stderr, seconds)."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace",
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, out, "", time.perf_counter() - t0
    return p.returncode, p.stdout, p.stderr, time.perf_counter() - t0


def bare(name):
    """A function's name as the summary prints it: no template arguments."""
    return name.split("<", 1)[0].split("(", 1)[0].strip()


def named_in(name, text):
    return ("'" + name + "'") in text or name in text


def not_modelled(doc):
    """What JSON says was not modelled or not analysed: {(kind, kernel): [reasons]},
    and the files not analysed at all [(file, error)]."""
    out = collections.OrderedDict()

    def add(kind, name, reason):
        reasons = out.setdefault((kind, bare(name)), [])
        if reason not in reasons:
            reasons.append(reason)

    for a in doc.get("accesses", []):
        if a.get("status") == "unsupported":
            add("unsupported access", a.get("function", "?"), a.get("reason", ""))
        elif a.get("status") == "unknown":
            reason = a.get("reason", "")
            add("unknown access, " + ("construct not modelled" if "not modelled" in reason
                                      else "value not known"), a.get("function", "?"), reason)
    failed = []
    for u in doc.get("translation_units", []):
        for n in u.get("notes", []):
            m = NO_ACCESS.match(n.get("message", ""))
            if m:
                add("no shared access recognised", m.group(1), "")
        for s in u.get("skipped", []):
            if s.get("kind") == "kernel":
                add("kernel not analysed (Clang rejects)", s.get("function", "?"),
                    s.get("error", ""))
        if u.get("status") == "failed":
            failed.append((u.get("file", "?"), u.get("error", "")))
    return out, failed


def unlisted_shared(doc, root, rel):
    """Lines of the file's own non-extern __shared__ declarations that
    JSON's shared_variables does not list: code the tool dropped without a word,
    or code the compiler never sees (#if, a template never instantiated)."""
    listed = {v.get("line") for v in doc.get("shared_variables", []) if v.get("file") == rel}
    try:
        with open(os.path.join(root, rel), errors="replace") as f:
            source = f.read().splitlines()
    except OSError:
        return []
    return [n for n, line in enumerate(source, 1)
            if SHARED_DECL.search(line) and n not in listed]


def bad_paths(text, root):
    """Paths in text that a user would not expect: absolute inside the project,
    or with a ./ or ../ segment; and absolute paths outside it (system headers)."""
    bad, outside = [], []
    for line in text.splitlines():
        for p in PATH.findall(line):
            if p.startswith("/"):
                (bad if p.startswith(root + "/") else outside).append((p, line))
            elif p.startswith(("./", "../")) or "/./" in p or "/../" in p:
                bad.append((p, line))
    return bad, outside


def dump_base(args, rel):
    return os.path.join(args.dump, args.name, rel.replace("/", "__"))


def dump(args, rel, text, js):
    """Keep both runs: FILE.txt (stdout), FILE.stderr (a header, then stderr), FILE.json."""
    base = dump_base(args, rel)
    os.makedirs(os.path.dirname(base), exist_ok=True)
    with open(base + ".txt", "w") as f:
        f.write(text[1])
    with open(base + ".stderr", "w") as f:
        f.write(f"# {rel}: exit {text[0]}, json exit {js[0]}, {text[3]:.1f} s\n" + text[2])
    with open(base + ".json", "w") as f:
        f.write(js[1])


def undump(args, rel):
    """The runs kept by dump(), as run() returns them."""
    base = dump_base(args, rel)
    with open(base + ".stderr") as f:
        head, _, err = f.read().partition("\n")
    m = re.match(r"# (?:.*: )?exit (\S+?)(?:, json exit (\S+))?, ([\d.]+) s$", head)
    code = lambda w: None if w == "None" else int(w)  # noqa: E731
    if m.group(2) is None:  # the first format: the JSON run's exit was not kept
        m = re.match(r"# (?:.*: )?exit (\S+?)(?:, json exit (\S+))?, ([\d.]+) s$",
                     f"# exit {m.group(1)}, json exit {m.group(1)}, {m.group(3)} s")
    out = open(base + ".txt").read()
    js = open(base + ".json").read()
    return ((code(m.group(1)), out, err, float(m.group(3))), (code(m.group(2)), js, "", 0.0))


def record(rel, text, js, root):
    """What the report needs of one file's two runs."""
    rec = {"file": rel, "rc": text[0], "json_rc": js[0], "seconds": text[3],
           "lines": len(text[1].splitlines()), "stderr": text[2],
           "shown": sum(bool(FINDING.match(l)) for l in text[1].splitlines())}
    try:
        doc = json.loads(js[1]) if js[0] is not None else None
    except ValueError:
        doc = None
    rec["json_ok"] = doc is not None
    sev = collections.Counter(d.get("severity") for d in (doc or {}).get("diagnostics", []))
    rec["warnings"], rec["errors"], rec["remarks"] = sev["warning"], sev["error"], sev["remark"]
    rec["unmodelled"], rec["failed"] = not_modelled(doc or {})
    rec["unlisted"] = unlisted_shared(doc, root, rel) if doc and not rec["failed"] else []
    rec["bad_paths"], rec["outside_paths"] = bad_paths(text[1] + text[2], root)
    return rec


def run_file(tool, args, rel):
    root = os.path.abspath(args.root)
    if args.report_from_dump:
        return record(rel, *undump(args, rel), root)
    text = run(command(tool, args, rel, "text"), root, args.timeout)
    js = run(command(tool, args, rel, "json"), root, args.timeout)
    if args.dump:
        dump(args, rel, text, js)
    return record(rel, text, js, root)


def crashed(rc):
    return rc is not None and rc not in DOCUMENTED_EXIT_CODES


def findings_text(r):
    parts = []
    if r["warnings"]:
        parts.append(f"{r['warnings']} warning{'s' * (r['warnings'] != 1)}")
    if r["errors"]:
        parts.append(f"{r['errors']} error{'s' * (r['errors'] != 1)}")
    if r["remarks"]:
        parts.append(f"{r['remarks']} remark{'s' * (r['remarks'] != 1)} not shown")
    return ", ".join(parts) or "none"


def report_lines(recs):
    lines = [r["lines"] for r in recs]
    top = max(recs, key=lambda r: r["lines"])
    buckets = collections.Counter(
        "0" if n == 0 else "1-10" if n <= 10 else "11-25" if n <= 25 else "26-50" if n <= 50
        else "over 50" for n in lines)
    print(f"stdout lines per file:         max {top['lines']} ({top['file']}), median "
          f"{statistics.median(lines):g}, mean {statistics.mean(lines):.1f}")
    print("  files by lines:              " +
          ", ".join(f"{b}: {buckets[b]}" for b in ("0", "1-10", "11-25", "26-50", "over 50")))
    over = sorted((r for r in recs if r["lines"] > SCREEN), key=lambda r: -r["lines"])
    print(f"files over {SCREEN} lines:             {len(over)}")
    for r in over:
        per = r["lines"] / r["shown"] if r["shown"] else float("nan")
        print(f"  {r['lines']:5} lines  {r['shown']:3} findings shown ({per:.1f} lines each; "
              f"{findings_text(r)})  {r['file']}")
    print("most lines:")
    for r in sorted(recs, key=lambda r: -r["lines"])[:5]:
        print(f"  {r['lines']:5} lines  {r['shown']:3} findings shown  {r['file']}")


def report_unmodelled(recs):
    by_kind = collections.defaultdict(lambda: [0, 0])
    missing, truncated, failed = [], [], []
    for r in recs:
        for (kind, name), reasons in r["unmodelled"].items():
            ok = named_in(name, r["stderr"])
            by_kind[kind][0 if ok else 1] += 1
            if not ok:
                missing.append((r["file"], kind, name, reasons))
        if re.search(r"\band \d+ more\)", r["stderr"]):
            truncated.append(r["file"])
        for f, err in r["failed"]:
            failed.append((r["file"], err, "error" in r["stderr"] and
                           os.path.basename(f) in r["stderr"]))
    print("not modelled or not analysed (JSON), per kernel: named on the text run's stderr?")
    print(f"  {'':50} {'named':>6} {'not named':>10}")
    for kind in sorted(by_kind):
        print(f"  {'kernels, ' + kind:50} {by_kind[kind][0]:6} {by_kind[kind][1]:10}")
    print(f"  {'files not analysed at all':50} {sum(ok for *_, ok in failed):6} "
          f"{sum(not ok for *_, ok in failed):10}")
    for f, kind, name, reasons in missing:
        more = f" (+{len(reasons) - 1} other reasons)" if len(reasons) > 1 else ""
        print(f"  not named: {f}: '{name}', {kind}: {reasons[0][:150]}{more}")
    for f, err, ok in failed:
        print(f"  not analysed{'' if ok else ' (NOT NAMED)'}: {f}: {err[:150]}")
    if truncated:
        print(f"  summaries that name only some kernels ('and N more'): {', '.join(truncated)}")
    unlisted = [r for r in recs if r["unlisted"]]
    print(f"files with __shared__ declarations that JSON's shared_variables does not list "
          f"(dropped, or not compiled): {len(unlisted)}")
    for r in unlisted:
        print(f"  {r['file']}: lines {', '.join(map(str, r['unlisted']))}")


def report_paths(recs):
    bad = [(r["file"], p, line) for r in recs for p, line in r["bad_paths"]]
    dots = [b for b in bad if not b[1].startswith("/")]
    outside = collections.Counter(os.path.dirname(p) for r in recs for p, _ in r["outside_paths"])
    print(f"paths in the output with ./ or ../: {len(dots)}; absolute inside the project: "
          f"{len(bad) - len(dots)} (a header found through an absolute -I is printed so)")
    for f, p, line in (dots + [b for b in bad if b not in dots])[:10]:
        print(f"  {f}: {p}    in: {line.strip()[:160]}")
    if outside:
        print("absolute paths outside the project (directories): " +
              ", ".join(f"{d} ({n})" for d, n in outside.most_common(5)))


def report(args, recs, all_files, seconds):
    mode = (f"project mode, -p {args.build_dir}" if args.build_dir else
            "file by file, flags: " + (shlex.join(args.flags) or "(none)"))
    print(f"== {args.name} ({os.path.abspath(args.root)}), {mode}")
    for g, f in args.path_flags:
        print(f"   + {f} for {g}")
    sampled = f" (a sample of {len(all_files)})" if len(recs) < len(all_files) else ""
    print(f"files run:                     {len(recs)}{sampled}, {seconds:.0f} s"
          + (" (the text runs, as kept)" if args.report_from_dump else ""))
    codes = collections.Counter("timeout" if r["rc"] is None else r["rc"] for r in recs)
    print("exit codes of the text runs:   " +
          ", ".join(f"{c}: {n}" for c, n in sorted(codes.items(), key=str)))
    bad = [r for r in recs if r["rc"] is None or r["json_rc"] is None or crashed(r["rc"])
           or crashed(r["json_rc"]) or not r["json_ok"]]
    for r in bad:
        print(f"  CRASH, TIMEOUT OR INVALID JSON: {r['file']} (exit {r['rc']}, json exit "
              f"{r['json_rc']}): {(r['stderr'].strip().splitlines() or [''])[-1][:150]}")
    with_findings = [r for r in recs if r["shown"]]
    print(f"files with findings shown:     {len(with_findings)} "
          f"({sum(r['shown'] for r in recs)} findings; JSON: {sum(r['warnings'] for r in recs)} "
          f"warnings, {sum(r['errors'] for r in recs)} errors, "
          f"{sum(r['remarks'] for r in recs)} remarks not shown)")
    if recs:
        report_lines(recs)
        report_unmodelled(recs)
        report_paths(recs)
    slow = sorted(recs, key=lambda r: -r["seconds"])[:3]
    print("slowest (text run): " + ", ".join(f"{r['file']} {r['seconds']:.0f} s" for r in slow))
    return bool(bad)


def main():
    args = parse_args()
    tool = None if args.report_from_dump else find_tool(args.tool, "new-user.py")
    args.name = args.name or os.path.basename(os.path.abspath(args.root).rstrip("/"))
    if args.build_dir:
        args.build_dir = os.path.abspath(args.build_dir)
    files, all_files = project_files(args.root, args.glob, args.sample)
    if not files:
        sys.exit(f"new-user.py: no files match under {args.root}")
    t0 = time.perf_counter()
    recs = []
    for i, rel in enumerate(files, 1):
        print(f"[{i}/{len(files)}] {rel}", file=sys.stderr, flush=True)
        recs.append(run_file(tool, args, rel))
    seconds = (sum(r["seconds"] for r in recs) if args.report_from_dump
               else time.perf_counter() - t0)
    return 1 if report(args, recs, all_files, seconds) else 0


if __name__ == "__main__":
    sys.exit(main())
