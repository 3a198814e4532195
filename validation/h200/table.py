#!/usr/bin/env python3
"""Turns capture_modes.txt (run_all.sh) into the markdown table of
docs/capture-modes.md: one row per call, one column per capture mode on a
blocking stream, and the non-blocking stream's results where they differ.

Cell: "ok" (the call succeeded and the capture survived), or the error the
call returned followed by "kept" (cudaStreamEndCapture still succeeded) or
"broken" (the capture was invalidated: cudaStreamEndCapture failed and gave
no graph); "+n" is the number of nodes the call added to the graph.
Usage: table.py results/capture_modes.txt
"""
import sys

MODES = ["Global", "ThreadLocal", "Relaxed"]


def short(code):
    for prefix in ("cudaErrorStreamCapture", "cudaError", "CU:CUDA_ERROR_STREAM_CAPTURE_", "CU:CUDA_ERROR_"):
        if code.startswith(prefix):
            return code[len(prefix):]
    return code


def cell(rc, end, graph, nodes):
    added = int(nodes) - 1 if graph == "graph" else 0
    extra = f" +{added}" if added > 0 else ""
    if rc in ("cudaSuccess", "CU:CUDA_SUCCESS") and end == "cudaSuccess":
        return "ok" + extra
    if rc in ("cudaSuccess", "CU:CUDA_SUCCESS"):
        return f"ok, then End: {short(end)}"
    return f"{short(rc)}, " + ("kept" + extra if end == "cudaSuccess" else "broken")


def main(path):
    table = {}
    for line in open(path):
        f = line.rstrip("\n").split("|")
        if len(f) < 9:
            continue
        call, mode, stream, rc, _status, end, graph, nodes = f[:8]
        table.setdefault(call, {})[(mode, stream)] = cell(rc, end, graph, nodes)
    print("| call | Global | ThreadLocal | Relaxed | non-blocking stream, where different |")
    print("|---|---|---|---|---|")
    for call, cells in table.items():
        blocking = [cells.get((m, "blocking"), "?") for m in MODES]
        nonblocking = [cells.get((m, "non-blocking"), "?") for m in MODES]
        diff = "same" if blocking == nonblocking else " / ".join(nonblocking)
        print(f"| `{call}` | " + " | ".join(blocking) + f" | {diff} |")


if __name__ == "__main__":
    main(sys.argv[1])
