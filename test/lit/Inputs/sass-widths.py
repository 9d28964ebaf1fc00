#!/usr/bin/env python3
"""Compares the tool's access widths (JSON on stdin) with the widths of the
SASS instructions nvcc emits, per kernel, line and operation (a table of
utils/oracles/merges_table.py). Prints one line per disagreement, sorted,
then 'rows N differ M'. With --distinct, the sets of widths are compared
(nvcc's unrolled loops repeat an instruction; the tool has one record per
width)."""
import csv
import json
import sys

distinct = '--distinct' in sys.argv
args = [a for a in sys.argv[1:] if a != '--distinct']
tool = {}
for a in json.load(sys.stdin)['accesses']:
    tool.setdefault((a['function'], a['line'], a['op']), []).append(a['width'] * 8)
rows = list(csv.DictReader(open(args[0])))
kernels = {r['kernel'] for r in rows}
table = {(r['kernel'], int(r['line']), r['op']): sorted(int(w) for w in r['sass_widths'].split())
         for r in rows}
out = []
for key in sorted(set(table) | {k for k in tool if k[0] in kernels}):
    want, got = table.get(key, []), sorted(tool.get(key, []))
    if distinct:
        want, got = sorted(set(want)), sorted(set(got))
    if want != got:
        out.append('%s:%d %s sass %s tool %s' % (key[0], key[1], key[2],
                                                   ','.join(map(str, want)) or '-',
                                                   ','.join(map(str, got)) or '-'))
for line in out:
    print(line)
print('rows %d differ %d' % (len(table), len(out)))
