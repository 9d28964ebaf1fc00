#!/usr/bin/env python3
"""Time cuda-bank-lint per file against `clang++-19 -fsyntax-only` with the same
device-side flags, and a whole-tree run at -j 1 and -j <cores>.

Usage:
  bench/speed.py DIR [DIR...] [-n 3] [-- compiler flags, e.g. -std=c++17 -I /x/Common]
  bench/speed.py --kernel-sizes 1000,4000,16000,64000   # time per line vs kernel size
  bench/speed.py DIR --nvcc /usr/local/cuda/bin/nvcc -n 1 --no-whole-tree -- FLAGS
      # also each file's `nvcc -c -O3 -arch=sm_90` time (issue 25: tool <= 0.5x it)

The baseline command mirrors deviceSideCommand() in
lib/Frontend/CudaCompilation.cpp: the user's flags, then
  -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -fsyntax-only -ferror-limit=0 -w
  -fno-caret-diagnostics -Wno-unknown-cuda-version -resource-dir <clang's>
and, in CUDA-headers mode, --cuda-path=<toolkit> -isystem <shim> -isystem <toolkit>/include/cccl
(the shim directory, with an empty texture_fetch_functions.h, is created in a
temporary directory: the tool keeps it in memory), or in prelude mode
-nocudainc -nocudalib -isystem <prelude> -include cbl_prelude.h (the prelude
headers are copied from lib/Frontend/Prelude).  Files that clang++ cannot
parse are reported and left out of the ratios and of the whole-tree runs.

Python 3 standard library only.  See bench/README.md and docs/performance.md.
"""

import argparse
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import find_tool  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def run_measured(cmd, cwd=None):
    """Run cmd; return (wall seconds, peak RSS in KiB of that process, exit code, stderr)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode(errors="replace")
    return wall, ru.ru_maxrss, p.returncode, text


def percentile(xs, q):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def resource_dir(tool):
    cfg = os.path.join(os.path.dirname(os.path.dirname(tool)), "include", "cuda-bank-lint",
                       "Support", "BuildConfig.h")
    if os.path.exists(cfg):
        m = re.search(r'#define CBL_CLANG_RESOURCE_DIR "([^"]*)"', open(cfg).read())
        if m:
            return m.group(1)
    return subprocess.run(["/usr/lib/llvm-19/bin/clang", "-print-resource-dir"],
                          capture_output=True, text=True).stdout.strip()


def baseline_command(clang, flags, cuda_mode, cuda_path, tool, tmp):
    """The compiler command (without the file) that parses the device side as
    the tool does (deviceSideCommand in lib/Frontend/CudaCompilation.cpp),
    and the mode ("headers" or "prelude"); the shim or prelude go in tmp."""
    headers_present = os.path.exists(os.path.join(cuda_path, "include", "cuda_runtime.h"))
    mode = "headers" if (cuda_mode != "prelude" and headers_present) else "prelude"
    if cuda_mode == "headers" and not headers_present:
        sys.exit("no CUDA toolkit at %s" % cuda_path)
    if mode == "headers":
        shim = os.path.join(tmp, "cuda13-shim")
        os.makedirs(shim)
        with open(os.path.join(shim, "texture_fetch_functions.h"), "w") as f:
            f.write("/* empty: cuda-bank-lint shim for Clang 19 with CUDA 13 */\n")
        mode_flags = ["--cuda-path=" + cuda_path, "-isystem", shim,
                      "-isystem", cuda_path + "/include/cccl"]
    else:
        prelude = os.path.join(tmp, "prelude")
        shutil.copytree(os.path.join(REPO, "lib", "Frontend", "Prelude"), prelude)
        mode_flags = ["-nocudainc", "-nocudalib", "-isystem", prelude, "-include", "cbl_prelude.h"]
    arch = "sm_90"
    user = []
    skip = False
    for a in flags:  # drop what deviceSideCommand drops
        if skip:
            skip = False
            continue
        if a in ("-c", "-fsyntax-only", "--cuda-host-only", "--cuda-device-only", "-E", "-S",
                 "-M", "-MD", "-MMD"):
            continue
        if a in ("-o", "-x", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a.startswith(("--cuda-gpu-arch=", "--offload-arch=")):
            arch = a.split("=", 1)[1]
            continue
        user.append(a)
    base = ([clang] + user +
            ["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + arch, "-fsyntax-only",
             "-ferror-limit=0", "-w", "-fno-caret-diagnostics", "-Wno-unknown-cuda-version",
             "-resource-dir", resource_dir(tool)] + mode_flags)
    return base, mode


def nvcc_command(nvcc, flags, nvcc_only, f, tmp):
    """nvcc compiling f for sm_90 at -O3 (host and device), object discarded;
    nvcc_only: flags only nvcc takes (--nvcc-flags)."""
    user = [a for a in flags if a not in ("-c", "-fsyntax-only")]
    return [nvcc, "-c", "-O3", "-arch=sm_90"] + user + nvcc_only + [
        "-x", "cu", f, "-o", os.path.join(tmp, "nvcc-out.o")]


def report_nvcc(per_file, nvcc_time, repeat):
    """Tool time against nvcc -c -O3 per file (issue 25: every file <= 0.5)."""
    pairs = [(f, t, nvcc_time[f]) for f, c, t, r, cm, tm in per_file if f in nvcc_time]
    print()
    print("== Per file: tool time / nvcc -c -O3 -arch=sm_90 time (median of %d runs each)" % repeat)
    print("files nvcc compiled: %d of %d timed" % (len(pairs), len(per_file)))
    if not pairs:
        return
    ratios = [t / n for f, t, n in pairs]
    over = [(f, t, n) for f, t, n in pairs if t / n > 0.5]
    print("median ratio %.3f   90th percentile %.3f   worst %.3f (%s)" % (
        statistics.median(ratios), percentile(ratios, 0.9), max(ratios),
        max(pairs, key=lambda x: x[1] / x[2])[0]))
    print("nvcc per file: median %.3fs, max %.3fs" % (
        statistics.median(n for f, t, n in pairs), max(n for f, t, n in pairs)))
    print("target (issue 25): every file <= 0.5; files above: %d" % len(over))
    for f, t, n in sorted(over, key=lambda x: -x[1] / x[2])[:12]:
        print("  %5.2f  tool %6.3fs  nvcc %6.3fs  %s" % (t / n, t, n, f))


def main():
    argv = sys.argv[1:]
    flags = []
    if "--" in argv:
        i = argv.index("--")
        argv, flags = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="*", help="directories (or files) of CUDA sources (.cu, .cuh)")
    ap.add_argument("--kernel-sizes", default="",
                    help="also time generated kernels of these line counts (issue #17's series: "
                         "1000,4000,16000,64000; bench/scaling.py)")
    ap.add_argument("-n", "--repeat", type=int, default=3, help="repetitions per file (median taken)")
    ap.add_argument("--tool", default=None, help="cuda-bank-lint binary")
    ap.add_argument("--clang", default="clang++-19", help="the baseline compiler driver")
    ap.add_argument("--cuda-mode", default="auto", choices=["auto", "headers", "prelude"])
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--format", default="text", choices=["text", "json"],
                    help="tool output format while timing (output is discarded)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="parallel jobs for the whole-tree run (default: all cores)")
    ap.add_argument("--max-files", type=int, default=0, help="time only the first N files")
    ap.add_argument("--per-file", action="store_true", help="print every file's figures")
    ap.add_argument("--nvcc", default="",
                    help="also time `NVCC -c -O3 -arch=sm_90 FLAGS -x cu FILE` per file (median of "
                         "the repetitions) and report the tool's time against it")
    ap.add_argument("--nvcc-flags", default="",
                    help="flags for nvcc only, after the common ones (e.g. --extended-lambda, "
                         "which Clang does not take)")
    ap.add_argument("--tool-threads", type=int, default=1,
                    help="the tool's -j in the per-file runs: 1 (default) times one thread, as "
                         "clang++ and nvcc run; 0 gives the tool's default, every core for the "
                         "file's accesses")
    ap.add_argument("--no-whole-tree", action="store_true",
                    help="skip the whole-tree runs at -j 1 and -j N")
    args = ap.parse_args(argv)

    tool = find_tool(args.tool, "speed.py")
    if args.kernel_sizes:
        from scaling import series
        print("kernel-size series (generated kernels, prelude mode):")
        series(tool, [int(x) for x in args.kernel_sizes.split(",")])
        if not args.dirs:
            return
    if not args.dirs:
        sys.exit("speed.py: give directories of CUDA sources, or --kernel-sizes")

    files = []
    for d in args.dirs:
        if os.path.isfile(d):
            files.append(os.path.abspath(d))
            continue
        for dp, dn, fs in os.walk(d):
            dn.sort()
            for f in sorted(fs):
                if f.endswith((".cu", ".cuh")):
                    files.append(os.path.abspath(os.path.join(dp, f)))
    if args.max_files:
        files = files[:args.max_files]
    if not files:
        sys.exit("speed.py: no .cu/.cuh files found")

    tmp = tempfile.mkdtemp(prefix="cbl-speed-")
    base, mode = baseline_command(args.clang, flags, args.cuda_mode, args.cuda_path, tool, tmp)
    tool_mode = "--cuda-mode=" + ("headers" if mode == "headers" else "prelude")
    tool_base = [tool, "--quiet", "-j", str(args.tool_threads), "--format=" + args.format, tool_mode]

    version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    cver = subprocess.run([args.clang, "--version"], capture_output=True, text=True).stdout
    print("cuda-bank-lint speed: %d files, %d repetitions each, mode %s" % (
        len(files), args.repeat, mode))
    print("tool:     %s (%s)" % (tool, version.splitlines()[0] if version else "?"))
    print("baseline: %s (%s)" % (args.clang, cver.splitlines()[0] if cver else "?"))
    print("baseline command: %s FILE" % " ".join(base))
    print("tool command:     %s FILE -- %s" % (" ".join(tool_base), " ".join(flags)))
    load0 = os.getloadavg()
    print("cores: %d; load average at start: %s" % (
        os.cpu_count() or 1, " ".join("%.2f" % x for x in load0)))
    sys.stdout.flush()

    per_file = []   # (file, clang s, tool s, ratio, clang KiB, tool KiB)
    nvcc_time = {}  # file -> nvcc -c -O3 seconds (files nvcc compiles)
    nvcc_failed = []  # (file, nvcc's first message)
    nvcc_only = shlex.split(args.nvcc_flags)
    failed = []
    clang_errors = []
    for f in files:
        ct, tt, cm, tm = [], [], [], []
        ok = True
        for rep in range(args.repeat):
            # Alternate the order so that neither always runs with a warm cache first.
            order = ("clang", "tool") if rep % 2 == 0 else ("tool", "clang")
            for who in order:
                if not ok:
                    break
                if who == "clang":
                    w, rss, rc, err = run_measured(base + [f])
                    if rc != 0 and rep == 0:
                        # Clang rejects some host code that nvcc accepts; it still
                        # parsed the whole file, as the tool does (which reports
                        # such errors as a note and analyses the device code).
                        clang_errors.append((f, (err.strip().splitlines() or [""])[0][:200]))
                    ct.append(w)
                    cm.append(rss)
                else:
                    w, rss, rc, err = run_measured(tool_base + [f, "--"] + flags)
                    if rc not in (0, 1):
                        ok = False
                        first = [l for l in err.splitlines() if "error:" in l] or [""]
                        msg = re.sub(r"'[^']*'", "'_'", first[0].split("error:", 1)[-1].strip())
                        failed.append((f, "tool exit %d: %s" % (rc, msg[:120])))
                        continue
                    tt.append(w)
                    tm.append(rss)
            if not ok:
                break
        if not ok:
            continue
        c, t = statistics.median(ct), statistics.median(tt)
        per_file.append((f, c, t, t / c, max(cm), max(tm)))
        if args.nvcc:
            nt = []
            for rep in range(args.repeat):
                w, rss, rc, err = run_measured(nvcc_command(args.nvcc, flags, nvcc_only, f, tmp))
                if rc != 0:
                    nvcc_failed.append((f, (err.strip().splitlines() or [""])[0][:200]))
                    break
                nt.append(w)
            if nt:
                nvcc_time[f] = statistics.median(nt)
        if args.per_file:
            nv = ("  nvcc %7.3fs  tool/nvcc %5.3f" % (nvcc_time[f], t / nvcc_time[f])
                  if f in nvcc_time else "")
            print("  %-90s clang %6.3fs  tool %6.3fs  ratio %5.2f  rss %6.0f / %6.0f MiB%s" % (
                f[-90:], c, t, t / c, max(cm) / 1024, max(tm) / 1024, nv))
            sys.stdout.flush()

    print()
    print("files timed: %d; left out (the tool found device-side errors, exit 2): %d" % (
        len(per_file), len(failed)))
    reasons = {}
    for f, why in failed:
        reasons.setdefault(why, []).append(f)
    for why, fs in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
        print("  %3d  %s  (e.g. %s)" % (len(fs), why, fs[0]))
    timed = {x[0] for x in per_file}
    ce = [x for x in clang_errors if x[0] in timed]
    if ce:
        print("  timed files where clang++ exited non-zero (errors in host code that the tool "
              "skips; both parsed the whole file): %d, e.g. %s: %s" % (len(ce), ce[0][0], ce[0][1]))
    print("load average: start %s, end %s" % (
        " ".join("%.2f" % x for x in load0), " ".join("%.2f" % x for x in os.getloadavg())))
    if not per_file:
        return
    ratios = [x[3] for x in per_file]
    print()
    print("== Per file: tool time / clang++ -fsyntax-only time (median of %d runs each)" % args.repeat)
    print("median ratio %.3f   90th percentile %.3f   worst %.3f (%s)" % (
        statistics.median(ratios), percentile(ratios, 0.9), max(ratios),
        max(per_file, key=lambda x: x[3])[0]))
    print("targets: issue 2: <= 1.3 per file; issue 6: median <= 1.15, worst <= 2")
    print("clang++ per file: median %.3fs, max %.3fs;  tool per file: median %.3fs, max %.3fs" % (
        statistics.median(x[1] for x in per_file), max(x[1] for x in per_file),
        statistics.median(x[2] for x in per_file), max(x[2] for x in per_file)))
    print("total per-file time: clang++ %.1fs, tool %.1fs (ratio of sums %.3f)" % (
        sum(x[1] for x in per_file), sum(x[2] for x in per_file),
        sum(x[2] for x in per_file) / sum(x[1] for x in per_file)))
    print()
    print("== Peak memory (max RSS per process)")
    mr = [x[5] / x[4] for x in per_file]
    print("clang++: median %.0f MiB, max %.0f MiB;  tool: median %.0f MiB, max %.0f MiB;  "
          "tool/clang++ median %.3f, worst %.3f" % (
              statistics.median(x[4] for x in per_file) / 1024, max(x[4] for x in per_file) / 1024,
              statistics.median(x[5] for x in per_file) / 1024, max(x[5] for x in per_file) / 1024,
              statistics.median(mr), max(mr)))
    print()
    print("== Slowest ratios")
    for f, c, t, r, cmem, tmem in sorted(per_file, key=lambda x: -x[3])[:8]:
        print("  %5.2f  clang %6.3fs  tool %6.3fs  %s" % (r, c, t, f))

    if args.nvcc:
        report_nvcc(per_file, nvcc_time, args.repeat)
        for f, msg in nvcc_failed:
            print("  nvcc failed: %s: %s" % (f, msg))
    if args.no_whole_tree:
        shutil.rmtree(tmp, ignore_errors=True)
        return
    # Whole tree: one tool process over every file that parses, -j 1 and -j N
    # (the tool's own thread pool); clang++ as N parallel processes for reference.
    ok_files = [x[0] for x in per_file]
    print()
    print("== Whole tree (%d files), best of 2 runs each" % len(ok_files))
    jobs = sorted({1, max(1, args.jobs)})
    tool_wall = {}
    for j in jobs:
        best = None
        for _ in range(2):
            w, rss, rc, err = run_measured(
                [tool, "--quiet", "-j", str(j), "--format=" + args.format, tool_mode] + ok_files +
                ["--"] + flags)
            if rc not in (0, 1):
                print("  tool -j %d failed (exit %d): %s" % (j, rc, err.strip()[-300:]))
            best = w if best is None else min(best, w)
        tool_wall[j] = best
        print("  tool    -j %-3d %8.2fs  (peak RSS of the last run %.0f MiB)" % (j, best, rss / 1024))
    clang_wall = {}
    for j in jobs:
        best = None
        for _ in range(2):
            t0 = time.perf_counter()
            running = []
            todo = list(ok_files)
            while todo or running:
                while todo and len(running) < j:
                    running.append(subprocess.Popen(base + [todo.pop(0)], stdout=subprocess.DEVNULL,
                                                    stderr=subprocess.DEVNULL))
                pid, status = os.wait()
                for p in running:
                    if p.pid == pid:
                        p.returncode = os.waitstatus_to_exitcode(status)
                running = [p for p in running if p.pid != pid]
            w = time.perf_counter() - t0
            best = w if best is None else min(best, w)
        clang_wall[j] = best
        print("  clang++ -j %-3d %8.2fs  (%d parallel processes)" % (j, best, j))
    if len(jobs) > 1:
        jn = jobs[-1]
        print("  speed-up at -j %d: tool %.2fx, clang++ %.2fx (linear = %d.00x); "
              "tool/clang++ whole tree at -j 1: %.3f, at -j %d: %.3f" % (
                  jn, tool_wall[1] / tool_wall[jn], clang_wall[1] / clang_wall[jn], jn,
                  tool_wall[1] / clang_wall[1], jn, tool_wall[jn] / clang_wall[jn]))
    print("target (issue 6): whole-tree scaling close to linear in cores")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
