#!/usr/bin/env python3
"""A scripted editor session of unsaved edits for `cudagraph-tidy lsp`
(test/driver/lsp-edit.test).

  lsp_edit_client.py --driver D FILE

Opens FILE (no findings), then, without ever writing FILE:
  1. an incremental didChange that adds two comment lines at the top and
     deletes the cudaStreamDestroy line: the published diagnostic is the
     leak, at its line in the edited text, not on disk, and it comes no
     sooner than the debounce (0.5 s) after the change;
  2. a burst of five incremental edits 50 ms apart (typing in a comment):
     one analysis for the burst, not five;
  3. a full-text didChange back to the file's text: the diagnostic goes.
Checks FILE is unchanged on disk, then shutdown and exit. Prints one line
per step; exits 1 on the first difference.

  lsp_edit_client.py --driver D --hang FILE

Runs the server with the test-only fault that makes every analysis of FILE
hang, and checks that an edit cancels the analysis of the open (it never
publishes) and that closing the file cancels the edit's.
"""
import argparse
import json
import os
import time

from lsp_rpc import RpcClient, fail


class Client(RpcClient):
    def __init__(self, cmd):
        super().__init__(cmd)
        self.analyses = []  # the server's "N findings in T s" log lines
        self.cancels = []   # its "analysis cancelled" log lines

    def received(self, msg):
        if msg.get("method") == "window/logMessage":
            text = msg["params"]["message"]
            if " findings in " in text:
                self.analyses.append(text)
            if "analysis cancelled" in text:
                self.cancels.append(text)

    def published(self, uri):
        while True:
            msg = self.read()
            if msg.get("method") == "textDocument/publishDiagnostics" and \
                    msg["params"]["uri"] == uri:
                return msg["params"]["diagnostics"]


def change(client, uri, version, changes):
    client.notify("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": version}, "contentChanges": changes})


def edit(line, col, end_line, end_col, text):
    return {"range": {"start": {"line": line, "character": col},
                      "end": {"line": end_line, "character": end_col}}, "text": text}


def hang_session(driver, path):
    uri = "file://" + path
    with open(path) as f:
        text = f.read()
    started = time.monotonic()
    c = Client([driver, "lsp", "--inject-fault=hang:" + os.path.basename(path)])
    c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "cuda", "version": 1, "text": text}})
    time.sleep(1.0)  # the open's analysis has started and hangs
    change(c, uri, 2, [{"text": text + "\n"}])
    while not c.cancels:
        msg = c.read()
        if msg.get("method") == "textDocument/publishDiagnostics":
            fail("a hung analysis published: %s" % json.dumps(msg))
    print("didChange during the open's analysis: %s" % c.cancels[0])
    time.sleep(1.0)  # the edit's analysis is due after 0.5 s, and hangs
    c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    diags = c.published(uri)
    print("didClose during the edit's analysis: %d cancelled in all; %d diagnostics published"
          % (len(c.cancels), len(diags)))
    c.request("shutdown", None)
    c.notify("exit", None)
    code = c.p.wait(timeout=30)
    print("exit: %d, %s 60 s" % (code, "within" if time.monotonic() - started < 60 else "after"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--hang", action="store_true")
    ap.add_argument("file")
    args = ap.parse_args()
    if args.hang:
        hang_session(args.driver, os.path.abspath(args.file))
        return
    path = os.path.abspath(args.file)
    uri = "file://" + path
    with open(path) as f:
        original = f.read()
    lines = original.split("\n")
    destroy = next(i for i, l in enumerate(lines) if "cudaStreamDestroy" in l)

    c = Client([args.driver, "lsp"])
    caps = c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    sync = caps["result"]["capabilities"]["textDocumentSync"]
    print("initialize: change=%d" % sync["change"])
    c.notify("initialized", {})
    c.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "cuda", "version": 1, "text": original}})
    diags = c.published(uri)
    print("didOpen: %d diagnostics" % len(diags))
    if diags:
        fail("the file on disk has no finding")

    # 1. Delete the destroy line, then insert two lines at the top (edits
    #    apply in order: the deletion's range is in the original text).
    started = time.monotonic()
    change(c, uri, 2, [edit(destroy, 0, destroy + 1, 0, ""),
                       edit(0, 0, 0, 0, "// edited in the editor\n// not saved\n")])
    diags = c.published(uri)
    waited = time.monotonic() - started
    if len(diags) != 1:
        fail("expected the leak, got %s" % json.dumps(diags))
    line = diags[0]["range"]["start"]["line"] + 1
    want = next(i for i, l in enumerate(lines) if "cudaStreamCreate(&s)" in l) + 1 + 2
    print("didChange: 1 diagnostic (%s) at line %d of the edited text (%s on disk); "
          "published %s 0.5 s after the change" %
          (diags[0]["code"], line, "same line" if line == want - 2 else "line %d" % (want - 2),
           "at least" if waited >= 0.5 else "less than"))
    if line != want:
        fail("the diagnostic is on line %d, the edited text has the creation on %d" % (line, want))

    # 2. Five edits typed 50 ms apart into the first comment line.
    before = len(c.analyses)
    for i in range(5):
        change(c, uri, 3 + i, [edit(0, 2, 0, 2, "x")])
        time.sleep(0.05)
    diags = c.published(uri)
    print("burst of 5 edits: %d analysis, %d diagnostic" % (len(c.analyses) - before, len(diags)))

    # 3. The whole text back: the leak goes.
    change(c, uri, 8, [{"text": original}])
    diags = c.published(uri)
    print("full-text change: %d diagnostics" % len(diags))

    with open(path) as f:
        print("file on disk: %s" % ("unchanged" if f.read() == original else "CHANGED"))
    c.request("shutdown", None)
    c.notify("exit", None)
    print("exit: %d" % c.p.wait(timeout=30))


if __name__ == "__main__":
    main()
