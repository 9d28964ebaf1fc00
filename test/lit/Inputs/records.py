#!/usr/bin/env python3
"""Prints the access records of a cuda-bank-lint JSON document (stdin), one
line each, for FileCheck: function:line:column op width status degree
wavefronts/ideal and, for merged accesses, the lines merged in."""
import json
import sys

for a in json.load(sys.stdin)["accesses"]:
    merged = ",".join(str(m["line"]) for m in a.get("merged_with", []))
    print("%s:%d:%d %s %d %s %d-way %d/%d%s" % (
        a["function"], a["line"], a["column"], a["op"], a["width"], a["status"], a["degree"],
        a["wavefronts"], a["ideal"], " merged:" + merged if merged else ""))
