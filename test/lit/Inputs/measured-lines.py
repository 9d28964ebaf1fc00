#!/usr/bin/env python3
"""Compares the tool's records (JSON on stdin) with per-line wavefronts measured
by Nsight Compute (a CSV of kernel, file, line, op, bits, inst_executed,
wavefronts, ideal: utils/oracles/cute_table.py). The tool's block sums are
added up per kernel, file name, line, operation and width. Prints each
measured row (agree or DIFFER), each exact tool line without a measured row
(EXTRA), the records the tool does not model (NOT MODELLED), and a summary.
With --ratio the measured rows are sums over a grid and the tool's over one
block, and the kernels are template instances whose names Nsight Compute
spells with their defaulted arguments: per file, line, operation and width,
the measured ratios wavefronts/ideal of all instances are compared with the
tool's, as sets."""
import csv
import json
import sys

sums = {}
unmodelled = set()
for a in json.load(sys.stdin)['accesses']:
    key = (a['function'], a['file'].rsplit('/', 1)[-1], a['line'], a['op'], a['width'] * 8)
    if a['status'] != 'exact':
        unmodelled.add((key[0], key[1], key[2], a['status']))
        continue
    s = sums.setdefault(key, [0, 0])
    s[0] += a['block_wavefronts']
    s[1] += a['block_ideal']
ratio = '--ratio' in sys.argv
rows = list(csv.DictReader(open([a for a in sys.argv[1:] if a != '--ratio'][0])))
if ratio:
    from fractions import Fraction
    measured, tool = {}, {}
    for r in rows:
        key = (r['file'], int(r['line']), r['op'], int(r['bits']))
        measured.setdefault(key, []).append(Fraction(int(r['wavefronts']), int(r['ideal'])))
    for key, got in sums.items():
        tool.setdefault(key[1:], []).append(Fraction(got[0], got[1]))
    agree = 0
    for key in sorted(set(measured) | set(tool)):
        m, t = sorted(measured.get(key, [])), sorted(tool.get(key, []))
        agree += m == t
        print('%s %s:%d %s %d measured %s tool %s' % ('agree' if m == t else 'DIFFER', *key,
                                                     ' '.join(map(str, m)) or '-', ' '.join(map(str, t)) or '-'))
    print('lines %d agree %d' % (len(set(measured) | set(tool)), agree))
    sys.exit(0)
agree = 0
for r in rows:
    key = (r['kernel'], r['file'], int(r['line']), r['op'], int(r['bits']))
    got = sums.pop(key, None)
    ok = got is not None and got == [int(r['wavefronts']), int(r['ideal'])]
    agree += ok
    print('%s %s %s:%s %s %s measured %s/%s tool %s' % (
        'agree' if ok else 'DIFFER', r['kernel'].split('<')[0], r['file'], r['line'], r['op'], r['bits'],
        r['wavefronts'], r['ideal'], '%d/%d' % tuple(got) if got else '-'))
for key, got in sorted(sums.items()):
    print('EXTRA %s %s:%d %s %d tool %d/%d' % (key[0].split('<')[0], key[1], key[2], key[3], key[4], *got))
for key in sorted(unmodelled):
    print('NOT MODELLED %s %s:%d %s' % (key[0].split('<')[0], key[1], key[2], key[3]))
print('rows %d agree %d' % (len(rows), agree))
