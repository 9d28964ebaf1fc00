#!/usr/bin/env python3
"""Summarises a cuda-bank-lint JSON document (stdin) for FileCheck: the status
of every translation unit, shared variables without any access record, notes
about kernels whose shared accesses were not recognised, and the records
located in files whose path contains each of the given substrings.

Usage: cuda-bank-lint --format=json ... | check-records.py cub/block/ ..."""
import collections
import json
import sys

doc = json.load(sys.stdin)
for u in doc["translation_units"]:
    print("unit %s: %s" % (u["file"].split("/")[-1], u["status"]))
unrecognised = [n for u in doc["translation_units"] for n in u["notes"]
                if "no access to it was recognised" in n["message"]]
print("kernels with unrecognised shared accesses: %d" % len(unrecognised))
empty = [v["name"] for v in doc["shared_variables"] if v["accesses"] == 0]
print("shared variables without records: %d %s" % (len(empty), " ".join(empty)))
for part in sys.argv[1:]:
    recs = [a for a in doc["accesses"] if part in a["file"]]
    st = collections.Counter(a["status"] for a in recs)
    print("records in %s: %d (%s)" % (part, len(recs),
                                      ", ".join("%s %d" % kv for kv in sorted(st.items()))))
