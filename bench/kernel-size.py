#!/usr/bin/env python3
"""Time of the tool against the number of conflicted accesses (issue 28): a
straight-line kernel of N lines, line i being

    t[threadIdx.y][(threadIdx.x + i % 32) % 32] = a + i; a += t[threadIdx.x][i % 32];

(`__shared__ float t[32][32]`, launched with a 32x8 block), so N conflict-free
stores and N 32-way conflicted loads, each of which gets a finding with its
verified padding. Runs the tool once per size (prelude mode, text output to
/dev/null) and prints the seconds, the seconds per 1,000 lines and the ratio
of the largest size's time to the smallest's. Figures, not a test: target
(issue 28) 32,000 lines within 10x the time of 4,000 (linear is 8x).

  bench/kernel-size.py [--tool build/bin/cuda-bank-lint] [--sizes 4000,8000,16000,32000]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

from benchlib import find_tool


def kernel(n):
    out = ["__global__ void straight(float *out, float a) {",
           "  __shared__ float t[32][32];"]
    for i in range(n):
        out.append("  t[threadIdx.y][(threadIdx.x + %d %% 32) %% 32] = a + %d; "
                   "a += t[threadIdx.x][%d %% 32];" % (i, i, i))
    out += ["  out[threadIdx.x] = a;", "}",
            "int main() { straight<<<1, dim3(32, 8)>>>(0, 1.0f); }"]
    return "\n".join(out) + "\n"


def timed(tool, work, n):
    path = os.path.join(work, "straight%d.cu" % n)
    with open(path, "w") as f:
        f.write(kernel(n))
    start = time.monotonic()
    p = subprocess.run([tool, "--cuda-mode=prelude", path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    secs = time.monotonic() - start
    if p.returncode not in (0, 1):
        sys.exit("the tool failed on %s:\n%s" % (path, p.stderr[-2000:]))
    return secs


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool")
    ap.add_argument("--sizes", default="4000,8000,16000,32000")
    a = ap.parse_args()
    tool = find_tool(a.tool, "kernel-size.py")
    sizes = [int(x) for x in a.sizes.split(",")]
    work = tempfile.mkdtemp(prefix="cbl-kernel-size-")
    print("%8s %9s %12s" % ("lines", "seconds", "s/1k lines"))
    times = []
    for n in sizes:
        times.append(timed(tool, work, n))
        print("%8d %9.2f %12.3f" % (n, times[-1], times[-1] / n * 1000), flush=True)
    print("%d lines / %d lines: %.2fx the time for %.0fx the lines (target <= 10x)"
          % (sizes[-1], sizes[0], times[-1] / times[0], sizes[-1] / sizes[0]))


if __name__ == "__main__":
    main()
