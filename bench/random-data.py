#!/usr/bin/env python3
"""The tool's expected cost of data-dependent accesses on random data against
the device (issue 27). utils/oracles/random-access.cu holds 11 kernels of our
own (shared-memory histograms with ATOMS.POPC.INC and ATOMS.ADD, a scatter
store, 4- and 8-byte gathers) whose index is a key drawn uniformly at random;
test/data/h200-random-access.csv holds their wavefronts per request measured
with Nsight Compute on an H200 (Hopper, the H100's SM and shared memory).
Runs the tool on the kernels (JSON) and prints, per kernel, the expected
wavefronts per request next to the measured ones, the relative difference
and the largest one. Figures, not a test (target: within 10 %).

  bench/random-data.py [--tool build/bin/cuda-bank-lint]
"""
import argparse
import csv
import json
import os
import subprocess
import sys

from benchlib import find_tool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool")
    args = ap.parse_args()
    tool = find_tool(args.tool, __file__)
    src = os.path.join(ROOT, "utils", "oracles", "random-access.cu")
    out = subprocess.run([tool, "--format=json", src], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit("the tool failed: " + out.stderr)
    expected = {}
    for a in json.loads(out.stdout)["accesses"]:
        r = a.get("random_data")
        if r and a["function"] not in expected:
            expected[a["function"]] = r
    worst = 0.0
    print("%-28s %-18s %9s %9s %7s" % ("kernel", "instruction", "measured", "expected", "diff"))
    with open(os.path.join(ROOT, "test", "data", "h200-random-access.csv")) as f:
        for row in csv.DictReader(f):
            r = expected.get(row["instantiation"])
            if not r:
                print("%-28s no expected cost from the tool" % row["instantiation"])
                worst = float("inf")
                continue
            measured = float(row["wavefronts_per_request"])
            diff = (r["expected_wavefronts"] - measured) / measured
            worst = max(worst, abs(diff))
            print("%-28s %-18s %9.3f %9.3f %+6.1f%%" % (row["instantiation"], row["sass"], measured,
                                                     r["expected_wavefronts"], 100 * diff))
    print("largest difference: %.1f %%" % (100 * worst))


if __name__ == "__main__":
    main()
