#!/usr/bin/env python3
"""The shared-memory instructions nvcc emits for utils/oracles/merges.cu, per
kernel and source line, from `nvdisasm -g -c` output (see merges.cu's header).

Usage: merges_table.py merges.sass > test/data/h100-merges.csv

One row per kernel, source line and operation: the widths of the SASS
instructions whose line-table entry is that line (a merged pair of loads on
two lines lists its LDS.64 under one of them and nothing under the other).
"""
import re
import subprocess
import sys

FUNC = re.compile(r'^\s*\.section\s+\.text\.(\S+?),')
LINE = re.compile(r'//## File "[^"]*", line (\d+)')
INSN = re.compile(r'\b(LDS|STS)((?:\.[A-Z0-9]+)*)\s')


def width(suffixes):
    for s in suffixes.split('.'):
        if s in ('64', '128'):
            return int(s)
        if s in ('U8', 'S8'):
            return 8
        if s in ('U16', 'S16'):
            return 16
    return 32


def demangle(names):
    out = subprocess.run(['c++filt'], input='\n'.join(names), capture_output=True, text=True).stdout
    # A template instance demangles with its return type: 'void k<4>(int*)'.
    return [n.split('(')[0].removeprefix('void ') for n in out.splitlines()]


def main():
    rows = {}
    func, line = None, None
    for text in open(sys.argv[1]):
        m = FUNC.match(text)
        if m:
            func, line = m.group(1), None
            continue
        m = LINE.search(text)
        if m:
            line = int(m.group(1))
            continue
        m = INSN.search(text)
        if m and func and line:
            op = 'ld' if m.group(1) == 'LDS' else 'st'
            rows.setdefault((func, line, op), []).append(width(m.group(2)))
    funcs = sorted({k[0] for k in rows})
    names = dict(zip(funcs, demangle(funcs)))
    print('kernel,line,op,sass_widths')
    for (func, line, op), widths in sorted(rows.items(), key=lambda kv: (names[kv[0][0]], kv[0][1], kv[0][2])):
        print(f'{names[func]},{line},{op},{" ".join(str(w) for w in sorted(widths))}')


if __name__ == '__main__':
    main()
