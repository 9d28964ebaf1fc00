#!/usr/bin/env python3
"""Time and memory of the tool against kernel size: generates kernels of
1k, 4k, 16k and 64k lines (stores with strides, loads, guarded loads,
barriers, short loops, as unrolled or generated code has them), runs the tool
on each (prelude mode, one process) and prints seconds, seconds per 1,000
lines and peak RSS. Target (issue #17): time per 1,000 lines constant within
2x from 1k to 64k lines; memory linear.

  bench/scaling.py [--tool build/bin/cuda-bank-lint] [--sizes 1000,4000,16000,64000]
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernel(lines):
    out = ["__global__ void big(float *out, int n) {", "  __shared__ float s[1024];",
           "  float acc = 0;", "  int t = threadIdx.x;"]
    for i in range(lines - 6):
        k = i % 7
        if k == 0:
            out.append("  s[(t * %d + %d) %% 1024] = acc + %d;" % (i % 33 + 1, i % 97, i))
        elif k == 1:
            out.append("  acc += s[(t + %d) %% 1024];" % (i % 101))
        elif k == 2:
            out.append("  if (t < n) acc += s[(t * 2 + %d) %% 1024];" % (i % 13))
        elif k == 3:
            out.append("  __syncthreads();")
        elif k == 4:
            out.append("  for (int j = 0; j < 4; ++j) acc += s[(t + j * 32 + %d) %% 1024];" % (i % 5))
        elif k == 5:
            out.append("  acc *= 1.0001f;")
        else:
            out.append("  out[t] = acc;")
    out += ["}", "int main() { big<<<1, 256>>>(0, 100); }"]
    return "\n".join(out) + "\n"


def series(tool, sizes):
    """Times the tool on generated kernels of each size; prints the table and
    returns the max/min ratio of the time per 1,000 lines without the startup."""
    work = tempfile.mkdtemp(prefix="cbl-scaling-")

    def timed(n):
        path = os.path.join(work, "k%d.cu" % n)
        with open(path, "w") as f:
            f.write(kernel(n))
        start = time.monotonic()
        p = subprocess.Popen([tool, "--quiet", "--cuda-mode=prelude", path],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        secs = time.monotonic() - start
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            sys.exit("the tool failed on %s" % path)
        return secs, usage.ru_maxrss / 1024

    # The fixed cost of a run (process start, the prelude's parse): a 10-line kernel.
    startup = min(timed(10)[0] for _ in range(3))
    print("startup (10-line kernel, best of 3): %.3f s" % startup)
    print("%8s %9s %12s %22s %10s" % ("lines", "seconds", "s/1k lines", "s/1k lines - startup", "peak MiB"))
    raw, net = [], []
    for n in sizes:
        secs, rss = timed(n)
        raw.append(secs / n * 1000)
        net.append(max(secs - startup, 1e-9) / n * 1000)
        print("%8d %9.2f %12.3f %22.3f %10.0f" % (n, secs, raw[-1], net[-1], rss))
    print("time per 1,000 lines, max/min: %.2f with the startup, %.2f without (target <= 2)"
          % (max(raw) / min(raw), max(net) / min(net)))
    return max(net) / min(net)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", default=os.path.join(ROOT, "build/bin/cuda-bank-lint"))
    ap.add_argument("--sizes", default="1000,4000,16000,64000")
    a = ap.parse_args()
    series(a.tool, [int(x) for x in a.sizes.split(",")])


if __name__ == "__main__":
    main()
