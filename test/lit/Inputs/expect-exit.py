#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with the given code.

Usage (lit substitution %expect-exit): %expect-exit N cmd args...
stdout and stderr pass through, so the output can still be piped to FileCheck.
lit's internal shell cannot test for one specific exit code; `not` only says
"non-zero", and the tool's contract distinguishes 1 from 2."""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write(f"expect-exit: wanted exit code {want}, got {got}: {' '.join(sys.argv[2:])}\n")
    sys.exit(1)
