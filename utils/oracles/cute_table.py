#!/usr/bin/env python3
"""Per-line shared-memory wavefronts of the CuTe suite (utils/oracles/cute-kernels.cu)
from Nsight Compute's source page exported with
`ncu -i cute.ncu-rep --page source --csv --print-source sass,cuda`.

Usage: cute_table.py cute-sass-cuda.csv > test/data/h200-cute-suite.csv
       (also the CUTLASS tutorials' reports: test/data/h200-cute-tutorials.csv,
       their innermost line copy.hpp:59 only)

One row per kernel (named as the tool names it), file (base name), line,
operation and access size: the executed instructions and the sums of "L1
Wavefronts Shared" and its ideal over the SASS rows of that line (ncu prints
each launch's rows twice; each distinct instruction address is counted once).
"""
import csv
import re
import sys


def main():
    table = {}
    seen = set()
    header = path = function = None
    line = None
    for row in csv.reader(open(sys.argv[1])):
        if not row:
            continue
        if row[0] == 'File Path':
            path = row[1].rsplit('/', 1)[-1]
            continue
        if row[0] == 'Function Name':
            # As the tool names it: no return type, parameters or casts.
            function = row[1].rsplit('(', 1)[0].replace('void ', '', 1).replace('(int)', '')
            # Clang leaves out a defaulted template argument, ncu prints it.
            function = re.sub(r'UniversalCopy<([\w:]+), \1>', r'UniversalCopy<\1>', function)
            continue
        if row[0] == 'Line No':
            header = row
            continue
        if header is None:
            continue
        if row[0]:
            line = int(row[0])
        sass = dict(zip(header[2:], row[2:]))
        if sass.get('Address Space') != 'Shared':
            continue
        key = (function, path, line, sass['Address'])
        if key in seen:
            continue
        seen.add(key)
        op = {'Load': 'ld', 'Store': 'st', 'Atomic': 'atom'}[sass['Access Operation']]
        k = (function, path, line, op, int(sass['Access Size']))
        t = table.setdefault(k, [0, 0, 0])
        t[0] += int(sass['Instructions Executed'])
        t[1] += int(sass['L1 Wavefronts Shared'])
        t[2] += int(sass['L1 Wavefronts Shared Ideal'])
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(['kernel', 'file', 'line', 'op', 'bits', 'inst_executed', 'wavefronts', 'ideal'])
    for k in sorted(table):
        w.writerow(list(k) + table[k])


if __name__ == '__main__':
    main()
