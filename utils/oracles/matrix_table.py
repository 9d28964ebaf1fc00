#!/usr/bin/env python3
"""Joins the launches of utils/oracles/shared-matrix.cu (patterns.csv) with
Nsight Compute's per-launch metrics (ncu --csv) into test/data/h100-matrix.csv:
ldmatrix (counted by the hardware as shared loads) and stmatrix (as shared
stores). The probe's own instructions are subtracted: 128 conflict-free STS
that fill the buffer and one conflict-free LDS at the end. See
docs/bank-model.md.

  utils/oracles/matrix_table.py patterns.csv ncu.csv > test/data/h100-matrix.csv
"""
import csv
import sys

WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum"
CONF = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum"
# op: (SASS, direction, lanes giving a row address, the probe's own wavefronts of that direction)
OPS = {
    "ldmatrix.x1": ("LDSM.16.M88", "ld", "0x000000ff", 1),
    "ldmatrix.x1.trans": ("LDSM.16.MT88", "ld", "0x000000ff", 1),
    "ldmatrix.x2": ("LDSM.16.M88.2", "ld", "0x0000ffff", 1),
    "ldmatrix.x4": ("LDSM.16.M88.4", "ld", "0xffffffff", 1),
    "ldmatrix.x4.trans": ("LDSM.16.MT88.4", "ld", "0xffffffff", 1),
    "stmatrix.x1": ("STSM.16.M88", "st", "0x000000ff", 128),
    "stmatrix.x2": ("STSM.16.M88.2", "st", "0x0000ffff", 128),
    "stmatrix.x4": ("STSM.16.M88.4", "st", "0xffffffff", 128),
    "stmatrix.x4.trans": ("STSM.16.MT88.4", "st", "0xffffffff", 128),
}


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    metrics = {}
    with open(argv[2]) as f:
        for r in csv.DictReader(l for l in f if not l.startswith("==")):
            metrics.setdefault(int(r["ID"]), {})[r["Metric Name"]] = int(float(r["Metric Value"]))
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["op", "sass", "dir", "address_lanes", "wavefronts", "conflicts"] +
                 ["o%d" % i for i in range(32)])
    with open(argv[1]) as f:
        for r in csv.DictReader(f):
            if r["op"] not in OPS:
                continue  # cp.async: not bank-modelled (docs/bank-model.md)
            sass, d, lanes, own = OPS[r["op"]]
            m = metrics[int(r["launch"])]
            out.writerow([r["op"], sass, d, lanes, m[WF % d] - own, m[CONF % d]] +
                         [r["o%d" % i] for i in range(32)])


if __name__ == "__main__":
    main(sys.argv)
