#!/usr/bin/env python3
# expect-exit.py N command...: runs the command with its output passed through
# and fails unless it exits with status N (lit's internal shell has no $?).
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.run(sys.argv[2:]).returncode
if got != want:
    sys.stderr.write("expect-exit: '%s' exited with %d, expected %d\n"
                     % (" ".join(sys.argv[2:]), got, want))
    sys.exit(1)
