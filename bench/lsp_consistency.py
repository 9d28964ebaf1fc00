#!/usr/bin/env python3
"""Check that the language server's re-analyses publish what a fresh analysis
of the same text publishes: verdicts and kernels' models it keeps between
versions of a document (Symbolic/VerdictMemo, Frontend/DeviceModelMemo) must
not change a finding.

Usage:
  bench/lsp_consistency.py FILE [--tool BIN] [--cuda-mode headers] [-- compiler flags]

One server session opens FILE and edits it three times, each a full-text
didChange:
  2. a comment appended to the first body line of the last __global__
     function (nothing moves: every other kernel's model may be kept);
  3. a comment line inserted at the top of the first __global__ function's
     body (every line below moves: what is above may be kept);
  4. the original text again.
Then, for each of the four versions, a new server opens that text alone.
Prints the server's log line of each version (kernels kept and optimised,
verdicts reused and computed) and, per version, whether the published
diagnostics are identical (JSON). Exit status 1 when one differs.
Python 3 standard library only.
"""

import argparse
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import find_tool  # noqa: E402
from lsp_latency import Server  # noqa: E402


def session(cmd, path, texts):
    """Opens path with texts[0], then sends each next text; the diagnostics
    published for each version and the server's log lines."""
    log = tempfile.TemporaryFile()
    server = Server(cmd, log)
    uri = "file://" + path
    server.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"processId": os.getpid(), "rootUri": "file://" + os.path.dirname(path),
                            "capabilities": {}, "initializationOptions": {"debounceMs": 0}}})
    server.wait(lambda m: m.get("id") == 1)
    server.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    published = []
    for version, text in enumerate(texts, 1):
        if version == 1:
            server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "cuda", "version": 1, "text": text}}})
        else:
            server.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}})
        _, m = server.wait(lambda m, v=version: m.get("method") == "textDocument/publishDiagnostics" and
                           m["params"]["uri"] == uri and m["params"].get("version") == v)
        published.append(m["params"]["diagnostics"])
    server.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    server.wait(lambda m: m.get("id") == 2)
    server.send({"jsonrpc": "2.0", "method": "exit"})
    server.proc.wait(60)
    log.seek(0)
    lines = [l for l in log.read().decode(errors="replace").splitlines() if "analysed " in l]
    return published, lines


def versions(text):
    bodies = [m.end() for m in re.finditer(r"__global__[^{;]*\{[^\n]*\n", text)]
    if not bodies:
        sys.exit("lsp_consistency.py: no __global__ function body in the file")
    end = text.index("\n", bodies[-1]) if "\n" in text[bodies[-1]:] else len(text)
    appended = text[:end] + " // lsp_consistency" + text[end:]
    inserted = text[:bodies[0]] + "  // lsp_consistency: a line inserted\n" + text[bodies[0]:]
    return [text, appended, inserted, text]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--tool", default=None)
    ap.add_argument("--cuda-mode", default="headers", choices=["headers", "prelude"])
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = ap.parse_args(argv[:cut])
    flags = argv[cut + 1:]
    path = os.path.abspath(args.file)
    cmd = [find_tool(args.tool, "lsp_consistency.py"), "--cuda-mode=" + args.cuda_mode, "--lsp", "--"] + flags
    texts = versions(open(path, encoding="utf-8", errors="replace").read())
    edited, lines = session(cmd, path, texts)
    for line in lines:
        print(re.sub(r".*\(version", "(version", line))
    differ = 0
    for version, text in enumerate(texts, 1):
        fresh, _ = session(cmd, path, [text])
        same = json.dumps(fresh[0], sort_keys=True) == json.dumps(edited[version - 1], sort_keys=True)
        print("version %d: %d diagnostics, a fresh analysis %d: %s" %
              (version, len(edited[version - 1]), len(fresh[0]), "identical" if same else "DIFFERENT"))
        differ += not same
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
