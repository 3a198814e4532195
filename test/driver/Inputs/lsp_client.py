#!/usr/bin/env python3
"""A scripted LSP client for `cudagraph-tidy lsp` (test/driver/lsp.test).

  lsp_client.py --driver D --clang-tidy CT --plugin P --build DIR
                --fix-file F [--] FILE...

Starts `D lsp`, sends initialize, opens every FILE and checks that the
diagnostics published for it equal the driver's findings for the same file
(`D --format=text-plain -p DIR FILE`): position (UTF-16), message, check and
notes as relatedInformation. For --fix-file it asks for the code actions of
each diagnostic, applies every quickfix edit to the file and compares the
result with what `CT -load P --fix` makes of a copy; then saves (didSave)
and checks the new diagnostics against the driver again, and that the fixed
findings are gone. Then didClose, an unknown request, shutdown and exit.
Prints one line per step; exits 1 on the first difference.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

from lsp_rpc import RpcClient, fail

FINDING = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<kind>warning|error|note): (?P<msg>.*)$")


def uri(path):
    """As some clients spell it: lowercase hex digits, which the server's
    own encoding does not use, so that a server echoing its own spelling
    would name another document."""
    quoted = urllib.parse.quote(os.path.abspath(path))
    return "file://" + re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), quoted)


class Client(RpcClient):
    def __init__(self, cmd, env):
        super().__init__(cmd, env=env)
        self.logs = []

    def unanswered(self, msg):
        self.note(msg)

    def note(self, msg):
        if msg.get("method") == "window/logMessage":
            self.logs.append(msg["params"]["message"])

    def published(self, u):
        """Waits for the next publishDiagnostics of `u`."""
        while True:
            msg = self.read()
            self.note(msg)
            if msg.get("method") == "textDocument/publishDiagnostics" and \
                    msg["params"]["uri"] == u:
                return msg["params"]["diagnostics"]

    def diagnostics_for(self, u):
        """The diagnostics of an analysis of `u` and the log line after them."""
        diags = self.published(u)
        log = self.read()
        self.note(log)
        return diags, log["params"]["message"]


def utf16_col(text_line, byte_col):
    prefix = text_line.encode("utf-8")[:byte_col - 1].decode("utf-8")
    return len(prefix.encode("utf-16-le")) // 2


def driver_findings(driver, build, path):
    p = subprocess.run([driver, "--format=text-plain", "-p", build, path],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if p.returncode not in (0, 1):
        fail("the driver could not analyse %s (exit %d)" % (path, p.returncode))
    findings = []
    for line in p.stdout.splitlines():
        m = FINDING.match(line)
        if not m:
            fail("unexpected driver line: " + line)
        item = {"file": os.path.abspath(m.group("file")), "line": int(m.group("line")),
                "col": int(m.group("col")), "msg": m.group("msg")}
        if m.group("kind") == "note":
            findings[-1]["notes"].append(item)
        else:
            check = re.match(r"(.*) \[([\w-]+)\]$", item["msg"])
            item.update(msg=check.group(1), check=check.group(2), notes=[],
                        severity=1 if m.group("kind") == "error" else 2)
            findings.append(item)
    return findings


def lines_of(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def expected_diag_view(findings):
    out = []
    for f in findings:
        text = lines_of(f["file"])
        notes = [(uri(n["file"]), n["line"] - 1, utf16_col(lines_of(n["file"])[n["line"] - 1], n["col"]),
                  n["msg"]) for n in f["notes"]]
        out.append((f["line"] - 1, utf16_col(text[f["line"] - 1], f["col"]), f["severity"],
                    f["check"], f["msg"], notes))
    return out


def diag_view(diags):
    out = []
    for d in diags:
        if d.get("source") != "cudagraph-tidy":
            fail("diagnostic without source cudagraph-tidy: %s" % d)
        s = d["range"]["start"]
        notes = [(r["location"]["uri"], r["location"]["range"]["start"]["line"],
                  r["location"]["range"]["start"]["character"], r["message"])
                 for r in d.get("relatedInformation", [])]
        out.append((s["line"], s["character"], d["severity"], d.get("code"), d["message"], notes))
    return out


def compare(diags, findings, what):
    got, want = diag_view(diags), expected_diag_view(findings)
    if got != want:
        print("diagnostics:")
        for g in got:
            print("  ", g)
        print("driver:")
        for w in want:
            print("  ", w)
        fail("%s: the diagnostics are not the driver's findings" % what)
    if not want:
        fail("%s: no findings to compare (the test would prove nothing)" % what)
    print("%s: %d diagnostics == driver findings (%d notes)" % (
        what, len(got), sum(len(g[5]) for g in got)))


def offset(text, pos):
    """The index in `text` (a str) of an LSP position (UTF-16 units)."""
    lines = text.split("\n")
    before = sum(len(l) + 1 for l in lines[:pos["line"]])
    line = lines[pos["line"]]
    units, i = 0, 0
    while units < pos["character"]:
        units += len(line[i].encode("utf-16-le")) // 2
        i += 1
    return before + i


def apply_edits(text, edits):
    spans = sorted(((offset(text, e["range"]["start"]), offset(text, e["range"]["end"]),
                     e["newText"]) for e in edits), reverse=True)
    for (s, e, _), (s2, e2, _) in zip(spans[1:], spans):
        if e > s2:
            fail("code action edits overlap")
    for s, e, new in spans:
        text = text[:s] + new + text[e:]
    return text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--clang-tidy", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--fix-file", required=True)
    ap.add_argument("--clang-args", default="")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    started = time.monotonic()

    c = Client([args.driver, "lsp", "--preamble-cache=on"], os.environ.copy())
    init = c.request("initialize", {"processId": os.getpid(), "rootUri": None,
                                    "capabilities": {}})
    caps = init["result"]["capabilities"]
    if not caps.get("codeActionProvider") or not caps["textDocumentSync"].get("save"):
        fail("capabilities lack code actions or save: %s" % caps)
    print("initialize: %s %s" % (init["result"]["serverInfo"]["name"],
                                 json.dumps(caps["textDocumentSync"], sort_keys=True)))
    c.notify("initialized", {})

    opened = {}
    for path in args.files:
        path = os.path.abspath(path)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(path), "languageId": "cuda-cpp" if path.endswith((".cu", ".cuh")) else "cpp",
            "version": 1, "text": text}})
        diags, log = c.diagnostics_for(uri(path))
        print("didOpen %s: %s" % (os.path.basename(path), log.split(": ", 2)[2]))
        compare(diags, driver_findings(args.driver, args.build, path), "didOpen " + os.path.basename(path))
        opened[path] = diags

    # Code actions: every quickfix of the fix file, applied as an editor would.
    path = os.path.abspath(args.fix_file)
    u = uri(path)
    with open(path, encoding="utf-8") as f:
        original = f.read()
    edits, with_fix, without_fix = [], 0, 0
    for d in opened[path]:
        res = c.request("textDocument/codeAction", {
            "textDocument": {"uri": u}, "range": d["range"],
            "context": {"diagnostics": [d]}})["result"]
        fixes = [a for a in res if a.get("kind") == "quickfix" and a.get("isPreferred")
                 and a["diagnostics"][0]["message"] == d["message"]]
        if fixes:
            with_fix += 1
            for a in fixes:
                changes = a["edit"]["changes"]
                if list(changes) != [u]:
                    fail("a fix edits other files: %s" % list(changes))
                edits += changes[u]
        else:
            without_fix += 1
    if not with_fix or not without_fix:
        fail("expected diagnostics with and without a fix-it, got %d and %d" % (with_fix, without_fix))
    fixed = apply_edits(original, edits)

    tmp = tempfile.mkdtemp()
    copy = os.path.join(tmp, os.path.basename(path))
    shutil.copy(path, copy)
    subprocess.run([args.clang_tidy, "-load=" + args.plugin, "--checks=-*,cudagraph-*",
                    "--fix", copy, "--"] + args.clang_args.split(),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(copy, encoding="utf-8") as f:
        by_clang_tidy = f.read()
    shutil.rmtree(tmp)
    if fixed == original or fixed != by_clang_tidy:
        fail("the code actions' edits do not give what clang-tidy --fix gives")
    print("codeAction: %d fixes applied == clang-tidy --fix; %d diagnostics without one"
          % (len(edits), without_fix))

    with open(path, "w", encoding="utf-8") as f:
        f.write(fixed)
    c.notify("textDocument/didSave", {"textDocument": {"uri": u}})
    diags, log = c.diagnostics_for(u)
    print("didSave %s: %s" % (os.path.basename(path), log.split(": ", 2)[2]))
    compare(diags, driver_findings(args.driver, args.build, path), "didSave " + os.path.basename(path))
    if len(diags) != without_fix:
        fail("after the fixes %d diagnostics remain, expected %d" % (len(diags), without_fix))

    c.notify("textDocument/didClose", {"textDocument": {"uri": u}})
    if c.published(u) != []:
        fail("didClose did not clear the diagnostics")
    print("didClose: diagnostics cleared")
    # Bad input answers with errors and the session goes on.
    body = b"{not json"
    c.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    c.p.stdin.flush()
    while True:
        msg = c.read()
        if "error" in msg:
            break
        c.note(msg)
    if msg["id"] is not None or msg["error"]["code"] != -32700:
        fail("a message that is not JSON got %s" % msg)
    bad = c.request("textDocument/codeAction", {"range": {}})
    if bad.get("error", {}).get("code") != -32602:
        fail("a code action without a document got %s" % bad)
    print("bad input: errors %d and %d" % (msg["error"]["code"], bad["error"]["code"]))
    err = c.request("workspace/noSuchThing", {})
    if err.get("error", {}).get("code") != -32601:
        fail("an unknown request got %s" % err)
    print("unknown request: error %d" % err["error"]["code"])
    if c.request("shutdown", None).get("result", "missing") is not None:
        fail("shutdown did not answer null")
    c.notify("exit", None)
    rc = c.p.wait(timeout=10)
    print("exit: %d after %.1f s" % (rc, time.monotonic() - started))
    return 0 if rc == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
