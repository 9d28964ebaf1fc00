#!/usr/bin/env python3
"""For editors-snippets.test: parses docs/editors.md's VS Code (JSON), Helix
(TOML) and Eglot (Emacs Lisp) set-ups as those editors would, and prints the
servers each one starts."""
import json
import re
import subprocess
import sys
import tomllib

doc, snippet = sys.argv[1], sys.argv[2]


def block(name):
    return subprocess.run([sys.executable, snippet, doc, name], check=True,
                          capture_output=True, text=True).stdout


vscode = json.loads(block("vscode"))
print("vscode:", vscode["glspc.server.command"], *vscode["glspc.server.commandArguments"],
      "for", *vscode["glspc.server.languageId"])

helix = tomllib.loads(block("helix"))
server = helix["language-server"]["cuda-bank-lint"]
cpp = [lang for lang in helix["language"] if lang["name"] == "cpp"][0]
print("helix:", server["command"], *server["args"], "for cpp with", *cpp["language-servers"])

elisp = block("eglot")
depth = 0
for c in re.sub(r'"[^"]*"', '""', elisp):
    depth += {"(": 1, ")": -1}.get(c, 0)
    if depth < 0:
        sys.exit("eglot: unbalanced parentheses")
if depth:
    sys.exit("eglot: unbalanced parentheses")
program = re.search(r"\. \(([^)]*)\)", elisp).group(1)
print("eglot:", *json.loads("[" + program.replace('" "', '", "') + "]"))
