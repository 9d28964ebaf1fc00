#!/usr/bin/env python3
"""Prints each step of a GitHub Actions workflow (YAML file given) as
"<job>: <name or uses> [if: <condition>]", for FileCheck.

Usage: workflow-steps.py docs/examples/code-scanning.yml"""
import sys

import yaml

with open(sys.argv[1]) as f:
    workflow = yaml.safe_load(f)
for job, spec in workflow["jobs"].items():
    for step in spec["steps"]:
        line = "%s: %s" % (job, step.get("uses") or step.get("name"))
        if "if" in step:
            line += " [if: %s]" % step["if"]
        print(line)
