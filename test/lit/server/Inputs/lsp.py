#!/usr/bin/env python3
"""Drives `cuda-bank-lint --lsp` like an editor, from a script, for lit tests.

Usage: lsp.py SCRIPT --root DIR [--timeout S] -- SERVER COMMAND...

SCRIPT is a test file: its lines "# LSP> COMMAND ARGS" are run in order (other
lines are ignored). FILE arguments are relative to --root; JSON arguments are
the rest of the line. Every message a command waits for is printed flattened,
one "path = value" line per leaf, for FileCheck:

  initialize [JSON-initializationOptions]  initialize (rootUri = DIR), then initialized
  initialize-utf8 [JSON]                   the same, offering position encoding utf-8
  open FILE [VERSION]                      didOpen with the file's text on disk
  open-text FILE VERSION JSON-STRING       didOpen with this text
  edit FILE VERSION JSON{"old","new"}      replace text in the open copy, didChange (full)
  change-range FILE VERSION JSON-CHANGE    didChange with one incremental change
  save FILE | close FILE                   didSave | didClose
  request ID METHOD JSON-PARAMS            send a request, wait for nothing
  notify METHOD JSON-PARAMS                send a notification
  raw JSON-STRING                          write these bytes (escapes: \\r\\n ...)
  body JSON-STRING                         write them as one frame's body
  hover FILE LINE CHAR                     textDocument/hover (0-based), print the answer
  actions FILE LINE CHAR                   textDocument/codeAction at that point, print it
  apply FILE VERSION                       apply the first action of the last `actions`
                                           to the open copy, didChange (full)
  wait-response ID                         print the response to request ID
  wait-error                               print the next error response with a null id
  wait-diagnostics FILE [VERSION]          print every publishDiagnostics for FILE
                                           received up to one of VERSION (or the next)
  shell COMMAND                            run a shell command in DIR
  sleep MS
  shutdown | exit                          shutdown request | exit notification (prints
                                           the exit code)

Anything on the server's stdout that is not a well-formed frame is printed
as "STRAY OUTPUT" and fails the run (exit 1), as does a timeout.
"""
import json
import os
import re
import subprocess
import sys
import threading
import time


class Server:
    def __init__(self, command, root):
        self.root = root
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     cwd=root)
        self.messages = []
        self.cond = threading.Condition()
        self.stray = []
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            headers = {}
            line = out.readline()
            if not line:
                break
            while line not in (b"\r\n", b""):
                m = re.match(rb"^([A-Za-z-]+): (.*)\r\n$", line)
                if not m:
                    self.stray.append(line)
                    break
                headers[m.group(1).decode().lower()] = m.group(2).decode()
                line = out.readline()
            if "content-length" not in headers:
                continue
            body = out.read(int(headers["content-length"]))
            try:
                msg = json.loads(body)
            except ValueError:
                self.stray.append(body)
                continue
            with self.cond:
                self.messages.append(msg)
                self.cond.notify_all()
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def send(self, obj):
        self.write(json.dumps(obj).encode())

    def write(self, body, framed=True):
        data = (b"Content-Length: %d\r\n\r\n" % len(body) + body) if framed else body
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def take(self, match, timeout, what, also=lambda m: False):
        """Removes and returns the first message that matches, after those
        before it for which also() holds."""
        deadline = time.time() + timeout
        with self.cond:
            while True:
                for i, m in enumerate(self.messages):
                    if match(m):
                        taken = [x for x in self.messages[:i] if also(x)] + [m]
                        self.messages = [x for x in self.messages[:i] if not also(x)] + \
                            self.messages[i + 1:]
                        return taken
                left = deadline - time.time()
                if left <= 0 or self.closed:
                    fail("TIMEOUT waiting for %s" % what if left <= 0 else
                         "server closed its output while waiting for %s" % what)
                self.cond.wait(left)


def fail(message):
    print(message)
    sys.stdout.flush()
    os._exit(1)


def flatten(value, path, out, root):
    if isinstance(value, dict):
        if set(value) == {"start", "end"} and isinstance(value["start"], dict):
            s, e = value["start"], value["end"]
            out.append("%s = %d:%d-%d:%d" % (path, s["line"], s["character"], e["line"],
                                             e["character"]))
            return
        for k in sorted(value):
            key = k.replace(root_uri(root), "<root>") if k.startswith("file://") else k
            flatten(value[k], path + "." + key if path else key, out, root)
    elif isinstance(value, list):
        if not value:
            out.append("%s = []" % path)
        for i, v in enumerate(value):
            flatten(v, "%s.%d" % (path, i), out, root)
    else:
        text = json.dumps(value, ensure_ascii=False)
        out.append("%s = %s" % (path, text.replace(root_uri(root), "<root>").replace(root, "<root>")))


def root_uri(root):
    return "file://" + root


def show(msg, root):
    if "method" in msg:
        head = "<- %s" % msg["method"]
        body = msg.get("params")
    else:
        head = "<- response %s" % json.dumps(msg.get("id"))
        body = {"error": msg["error"]} if "error" in msg else {"result": msg.get("result")}
    lines = []
    flatten(body, "", lines, root)
    print(head)
    for l in lines:
        print("   " + l)


class Client:
    def __init__(self, server, root, timeout):
        self.s = server
        self.root = root
        self.timeout = timeout
        self.docs = {}
        self.last_actions = []
        self.next_id = 1000

    def uri(self, f):
        return root_uri(os.path.join(self.root, f))

    def request(self, method, params):
        self.next_id += 1
        self.s.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method, params):
        self.s.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_response(self, rid):
        got = self.s.take(lambda m: "method" not in m and m.get("id") == rid, self.timeout,
                          "the response to %s" % rid)
        show(got[-1], self.root)
        return got[-1]

    def initialize(self, arg, utf8=False):
        params = {"processId": os.getpid(), "rootUri": root_uri(self.root),
                  "capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]}}
                  if utf8 else {}}
        if arg:
            params["initializationOptions"] = json.loads(arg)
        self.wait_response(self.request("initialize", params))
        self.notify("initialized", {})

    def change(self, f, version, text):
        self.docs[f] = text
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri(f), "version": version},
            "contentChanges": [{"text": text}]})

    def apply(self, f, version):
        if not self.last_actions:
            fail("no code action to apply")
        changes = self.last_actions[0]["edit"]["changes"]
        for uri, edits in changes.items():
            name = os.path.relpath(uri[len("file://"):], self.root)
            text = self.docs[name]
            lines = text.split("\n")
            offsets = [0]
            for l in lines:
                offsets.append(offsets[-1] + len(l) + 1)
            for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"],
                                                  e["range"]["start"]["character"]),
                            reverse=True):
                s, t = e["range"]["start"], e["range"]["end"]
                a = offsets[s["line"]] + s["character"]
                b = offsets[t["line"]] + t["character"]
                text = text[:a] + e["newText"] + text[b:]
            self.change(name, version, text)

    def run(self, cmd, arg):
        parts = arg.split(" ", 2)
        if cmd in ("initialize", "initialize-utf8"):
            self.initialize(arg, utf8=cmd == "initialize-utf8")
        elif cmd in ("open", "open-text"):
            f = parts[0]
            version = int(parts[1]) if len(parts) > 1 else 1
            if cmd == "open":
                text = open(os.path.join(self.root, f), encoding="utf-8").read()
            else:
                text = json.loads(parts[2])
            self.docs[f] = text
            self.notify("textDocument/didOpen", {"textDocument": {
                "uri": self.uri(f), "languageId": "cuda", "version": version, "text": text}})
        elif cmd == "edit":
            f, version, rep = parts[0], int(parts[1]), json.loads(parts[2])
            if rep["old"] not in self.docs[f]:
                fail("edit: %r is not in %s" % (rep["old"], f))
            self.change(f, version, self.docs[f].replace(rep["old"], rep["new"], 1))
        elif cmd == "change-range":
            f, version, change = parts[0], int(parts[1]), json.loads(parts[2])
            self.notify("textDocument/didChange", {
                "textDocument": {"uri": self.uri(f), "version": version},
                "contentChanges": [change]})
        elif cmd in ("save", "close"):
            self.notify("textDocument/did" + cmd.capitalize(),
                        {"textDocument": {"uri": self.uri(parts[0])}})
        elif cmd == "request":
            rid, method, params = parts
            self.s.send({"jsonrpc": "2.0", "id": json.loads(rid), "method": method,
                         "params": json.loads(params)})
        elif cmd == "notify":
            method, params = arg.split(" ", 1)
            self.notify(method, json.loads(params))
        elif cmd == "raw":
            self.s.write(json.loads(arg).encode(), framed=False)
        elif cmd == "body":
            self.s.write(json.loads(arg).encode())
        elif cmd == "hover":
            f, line, char = parts
            self.wait_response(self.request("textDocument/hover", {
                "textDocument": {"uri": self.uri(f)},
                "position": {"line": int(line), "character": int(char)}}))
        elif cmd == "actions":
            f, line, char = parts
            pos = {"line": int(line), "character": int(char)}
            r = self.wait_response(self.request("textDocument/codeAction", {
                "textDocument": {"uri": self.uri(f)}, "range": {"start": pos, "end": pos},
                "context": {"diagnostics": []}}))
            self.last_actions = r.get("result") or []
        elif cmd == "apply":
            self.apply(parts[0], int(parts[1]))
        elif cmd == "wait-response":
            self.wait_response(json.loads(arg))
        elif cmd == "wait-error":
            got = self.s.take(lambda m: "error" in m and m.get("id") is None, self.timeout,
                              "an error response")
            show(got[-1], self.root)
        elif cmd == "wait-diagnostics":
            uri = self.uri(parts[0])
            version = int(parts[1]) if len(parts) > 1 else None

            def published(m):
                return (m.get("method") == "textDocument/publishDiagnostics" and
                        m["params"]["uri"] == uri)

            def match(m):
                return published(m) and (version is None or m["params"].get("version") == version)
            for m in self.s.take(match, self.timeout, "diagnostics of %s" % parts[0], published):
                show(m, self.root)
        elif cmd == "shell":
            subprocess.run(arg, shell=True, cwd=self.root, check=True)
        elif cmd == "sleep":
            time.sleep(int(arg) / 1000.0)
        elif cmd == "shutdown":
            self.wait_response(self.request("shutdown", None))
        elif cmd == "exit":
            self.notify("exit", None)
            try:
                code = self.s.proc.wait(self.timeout)
            except subprocess.TimeoutExpired:
                fail("TIMEOUT waiting for the server to exit")
            print("exit code %d" % code)
        else:
            fail("unknown script command %r" % cmd)


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit(__doc__)
    i = argv.index("--")
    opts, command = argv[:i], argv[i + 1:]
    script, root, timeout = None, None, 120.0
    while opts:
        a = opts.pop(0)
        if a == "--root":
            root = os.path.realpath(opts.pop(0))
        elif a == "--timeout":
            timeout = float(opts.pop(0))
        else:
            script = a
    server = Server(command, root)
    client = Client(server, root, timeout)
    for line in open(script, encoding="utf-8"):
        m = re.match(r"^\s*(?://|#)\s*LSP>\s*(\S+)\s*(.*?)\s*$", line)
        if not m:
            continue
        print(">> %s %s" % (m.group(1), m.group(2)) if m.group(1) not in ("raw", "body")
              else ">> " + m.group(1))
        sys.stdout.flush()
        client.run(m.group(1), m.group(2))
        sys.stdout.flush()
    if server.proc.poll() is None:
        server.proc.stdin.close()
        try:
            server.proc.wait(client.timeout)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            fail("TIMEOUT: the server did not exit when its input closed")
    time.sleep(0.1)
    if server.stray:
        fail("STRAY OUTPUT on stdout: %r" % server.stray[:3])


if __name__ == "__main__":
    main()
