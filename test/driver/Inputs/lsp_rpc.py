"""The JSON-RPC framing the scripted LSP clients share (lsp_client.py,
lsp_edit_client.py, lsp_open_client.py): one `cudagraph-tidy lsp` process,
messages with a Content-Length header, requests answered by id.

A client subclasses RpcClient and hooks in where it differs: `received`
sees every message read (logs a client keeps), `unanswered` every message a
request reads while it waits for its answer, `closed` the server ending its
output.
"""
import json
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


class RpcClient:
    def __init__(self, cmd, **popen_args):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  **popen_args)
        self.next_id = 0

    def send(self, msg):
        body = json.dumps(msg).encode("utf-8")
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                self.closed()
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        msg = json.loads(self.p.stdout.read(length))
        self.received(msg)
        return msg

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            msg = self.read()
            if msg.get("id") == self.next_id and "method" not in msg:
                return msg
            self.unanswered(msg)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def closed(self):
        fail("the server closed its output")

    def received(self, msg):
        pass

    def unanswered(self, msg):
        pass
