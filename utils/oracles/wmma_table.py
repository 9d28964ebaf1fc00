#!/usr/bin/env python3
"""Joins the launches of utils/oracles/shared-wmma.cu (wmma-launches.csv)
with Nsight Compute's per-launch metrics (ncu --csv) into
test/data/h100-wmma.csv: one WMMA fragment load or store on shared memory
per launch, its wavefronts after the probe's own instructions (BufBytes/128
= 256 conflict-free STS that fill the buffer; one conflict-free LDS at the
end) are subtracted. See docs/bank-model.md.

  utils/oracles/wmma_table.py wmma-launches.csv ncu.csv > test/data/h100-wmma.csv
"""
import collections
import csv
import sys

FILL_STORES, FINAL_LOADS = 256, 1


def main(argv):
    launches = {int(r["launch"]): r for r in csv.DictReader(open(argv[1]))}
    lines = [l for l in open(argv[2]) if l.startswith('"')]
    metrics = collections.defaultdict(dict)
    for r in csv.DictReader(lines):
        op = r["Metric Name"].split("_op_")[1].split(".")[0]
        metrics[int(r["ID"])][op] = float(r["Metric Value"])
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["op", "dir", "elem_bytes", "ldm", "offset", "wavefronts"])
    for i in sorted(launches):
        r, m = launches[i], metrics[i]
        wf = m["ld"] - FINAL_LOADS if r["dir"] == "ld" else m["st"] - FILL_STORES
        out.writerow([r["op"], r["dir"], r["elem_bytes"], r["ldm"], r["offset"], int(wf)])


if __name__ == "__main__":
    main(sys.argv)
