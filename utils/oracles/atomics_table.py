#!/usr/bin/env python3
"""Joins the launches of utils/oracles/shared-atomics.cu (patterns.csv, written
by the program) with Nsight Compute's per-launch metrics (ncu --csv) into the
measured table test/data/h100-atomics.csv. See docs/bank-model.md.

  ncu --csv --print-units base --cache-control none --metrics <METRICS> \\
      ./shared-atomics patterns.csv > ncu.csv
  utils/oracles/atomics_table.py patterns.csv ncu.csv [more pairs...] > test/data/h100-atomics.csv
"""
import csv
import sys

ATOM_WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"
ATOM_INST = "smsp__inst_executed_op_shared_atom.sum"
LD_WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
LD_INST = "smsp__inst_executed_op_shared_ld.sum"

# How each probe operation is issued, the SASS it compiles to for sm_90
# (checked with cuobjdump), and the bank-model rule it follows.
OPS = {
    "add.u32": ("atomicAdd(unsigned*)", "ATOMS.ADD", "native"),
    "red.add.u32": ("asm red.shared.add.u32", "ATOMS.ADD RZ", "native"),
    "exch.b32": ("atomicExch(unsigned*)", "ATOMS.EXCH", "native"),
    "min.s32": ("atomicMin(int*)", "ATOMS.MIN.S32", "native"),
    "max.u32": ("atomicMax(unsigned*)", "ATOMS.MAX", "native"),
    "and.b32": ("atomicAnd(unsigned*)", "ATOMS.AND", "native"),
    "inc.u32": ("atomicInc(unsigned*)", "ATOMS.INC", "native"),
    "atomic_ref.add.s32": ("cuda::atomic_ref<int>(block scope)::fetch_add", "ATOM.E.ADD.S32.STRONG.SM (generic)", "generic"),
    "asm.atom.add.u32": ("asm atom.shared.add.u32", "ATOMS.ADD", "native"),
    "add_block.s32": ("atomicAdd_block(int*)", "ATOMS.ADD", "native"),
    "exch.b64": ("atomicExch(unsigned long long*)", "ATOMS.EXCH.64", "native"),
    "asm.atom.exch.b64": ("asm atom.shared.exch.b64", "ATOMS.EXCH.64", "native"),
    "min.s64": ("atomicMin(long long*)", "LDS.64 + ATOMS.CAST.SPIN.64 loop", "value-dependent"),
    "and.b64": ("atomicAnd(unsigned long long*)", "LDS.64 + ATOMS.CAST.SPIN.64 loop", "value-dependent"),
    "cas.b32": ("atomicCAS(unsigned*)", "ATOMS.CAS", "cas"),
    "asm.atom.cas.b32": ("asm atom.shared.cas.b32", "ATOMS.CAS", "cas"),
    "cas.b64": ("atomicCAS(unsigned long long*)", "ATOMS.CAS.64", "cas"),
    "add.f32": ("atomicAdd(float*)", "LDS + ATOMS.CAST.SPIN loop", "cas-loop"),
    "add.u64": ("atomicAdd(unsigned long long*)", "LDS.64 + ATOMS.CAST.SPIN.64 loop", "cas-loop"),
    "add.f64": ("atomicAdd(double*)", "LDS.64 + ATOMS.CAST.SPIN.64 loop", "cas-loop"),
    "inc1.u32": ("atomicAdd(unsigned*) of 1u with the result unused", "ATOMS.POPC.INC.32", "popc-inc"),
    "inc1.s32": ("atomicAdd(int*) of 1 with the result unused", "ATOMS.POPC.INC.32", "popc-inc"),
    "red.inc1.u32": ("asm red.shared.add.u32 [a] 1", "ATOMS.POPC.INC.32", "popc-inc"),
    "inc1_block.u32": ("atomicAdd_block(unsigned*) of 1u with the result unused", "ATOMS.POPC.INC.32", "popc-inc"),
    "dec1.u32": ("atomicSub(unsigned*) of 1u with the result unused", "ATOMS.ADD RZ", "native"),
    "addc.u32": ("atomicAdd(unsigned*) of a value the same in every lane with the result unused", "ATOMS.ADD RZ", "native"),
    "add.f16x2": ("atomicAdd(__half2*)", "ATOM.E.ADD.F16x2 (generic) + LDS + ATOMS.CAST.SPIN loop", "generic-cas-loop"),
    "add.bf16x2": ("atomicAdd(__nv_bfloat162*)", "ATOM.E.ADD.BF16x2 (generic) + LDS + ATOMS.CAST.SPIN loop", "generic-cas-loop"),
}


def main(argv):
    if len(argv) < 3 or len(argv) % 2 == 0:
        sys.exit(__doc__)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["op", "source", "sass", "rule", "width", "mask", "wavefronts", "instructions",
                  "loop_ld_wavefronts"] + ["o%d" % i for i in range(32)])
    for pat_path, ncu_path in zip(argv[1::2], argv[2::2]):
        metrics = {}
        with open(ncu_path) as f:
            lines = [l for l in f if l.startswith('"')]  # ncu rows; not its notes or the program's output
        for r in csv.DictReader(lines):
            metrics.setdefault(int(r["ID"]), {})[r["Metric Name"]] = int(float(r["Metric Value"]))
        with open(pat_path) as f:
            for r in csv.DictReader(f):
                m = metrics[int(r["launch"])]
                if r["op"] not in OPS:
                    sys.exit("unknown op %s: add it to OPS with its SASS and rule" % r["op"])
                source, sass, rule = OPS[r["op"]]
                # The probe ends with one conflict-free LDS of its own.
                assert m[LD_INST] >= 1 and m[LD_WF] >= 1
                out.writerow([r["op"], source, sass, rule, r["width"], r["mask"], m[ATOM_WF], m[ATOM_INST],
                              m[LD_WF] - 1] + [r["o%d" % i] for i in range(32)])


if __name__ == "__main__":
    main(sys.argv)
