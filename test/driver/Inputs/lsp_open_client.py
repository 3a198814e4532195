#!/usr/bin/env python3
"""Opens files in `cudagraph-tidy lsp` and says how each was analysed
(test/driver/lsp-cache-dir.test).

  lsp_open_client.py --driver D FILE... [-- ARG...]

Starts `D lsp ARG...` (everything after the first `--`, verbatim: it may
hold the server's own `--` and fallback flags), sends initialize, opens each FILE in turn and waits
for its analysis: prints one line per file with the server's count of
findings and what the preamble cache did ("built", "hit", "not used"),
then shutdown and exit, and the server's exit code. A server that rejects
its arguments is reported with what it printed and its exit code.
"""
import argparse
import os
import subprocess
import sys

from lsp_rpc import RpcClient, fail


class Client(RpcClient):
    def __init__(self, cmd):
        super().__init__(cmd, stderr=subprocess.PIPE)

    def closed(self):
        code = self.p.wait(timeout=30)
        fail("the server closed its output (exit %d): %s"
             % (code, self.p.stderr.read().decode().strip()))

    def analysed(self, path):
        """The server's log line for the analysis of `path`: an info message
        "cudagraph-tidy: PATH: N findings in T s; preamble cache WHAT"."""
        while True:
            msg = self.read()
            if msg.get("method") != "window/logMessage":
                continue
            text = msg["params"]["message"]
            if text.startswith("cudagraph-tidy: " + path + ": ") and " findings in " in text:
                return text


def main():
    argv = sys.argv[1:]
    server_args = []
    if "--" in argv:
        server_args = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    c = Client([args.driver, "lsp"] + server_args)
    c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    c.notify("initialized", {})
    for f in args.files:
        path = os.path.abspath(f)
        with open(path) as fh:
            text = fh.read()
        c.notify("textDocument/didOpen", {"textDocument": {
            "uri": "file://" + path, "languageId": "cuda", "version": 1, "text": text}})
        line = c.analysed(path)
        findings = line.split(": ")[2].split(" findings")[0]
        cache = line.rsplit("; preamble cache ", 1)[1]
        print("didOpen %s: %s findings; preamble cache %s" % (f, findings, cache))
        c.notify("textDocument/didClose", {"textDocument": {"uri": "file://" + path}})
    c.request("shutdown", None)
    c.notify("exit", None)
    print("exit: %d" % c.p.wait(timeout=30))


if __name__ == "__main__":
    main()
