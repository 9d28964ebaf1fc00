#!/usr/bin/env python3
"""Prints the fenced code block between <!-- NAME-begin --> and <!-- NAME-end -->
of a Markdown file (the editor set-ups of docs/editors.md, run by the tests)."""
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
name = re.escape(sys.argv[2])
m = re.search(r"<!-- %s-begin -->\s*```[a-z]*\n(.*?)```\s*<!-- %s-end -->" % (name, name), text, re.S)
if not m:
    sys.exit("no block %s in %s" % (sys.argv[2], sys.argv[1]))
sys.stdout.write(m.group(1))
