#!/usr/bin/env python3
"""Scores the race and divergence checks on a probe suite (probe-38, probe-40).

Each kernel file of the suite is analysed as written (the fixed or race-free
variant) and, when it has an `#ifdef BUGGY` variant, with -DBUGGY. The suite's
expect.json names the planted finding of each buggy variant: probe-38's as
{"prim": [lines], "alt": [lines]} under a header naming the check, probe-40's
as {"check": name, "line": N} (null for race-free kernels).

  TP  the buggy variant gets a warning of the expected check
  FN  it gets none
  FP  a fixed or race-free variant gets any warning
  TN  a fixed or race-free variant is silent

A TP whose warning and notes name none of the expected lines is marked
"(elsewhere)" so that a reader can judge it.

  python3 bench/races/score_probe.py --tidy build/bin/cudagraph-tidy bench/races/probe-40
"""
import argparse
import json
import os
import re
import subprocess
import sys

FLAGS = ["-x", "cuda", "--cuda-host-only", "--cuda-path=/usr/local/cuda",
         "-Wno-unknown-cuda-version", "-std=c++17", "-I/usr/local/cuda/include/cccl"]
CHECKS = "-*,cudagraph-shared-race,cudagraph-barrier-divergence"


def expectation(entry):
    """(check, accepted lines) of a buggy variant, or None for race-free."""
    if entry is None:
        return None
    if "check" in entry:
        return entry["check"], {entry["line"]}
    m = re.search(r"(cudagraph-[a-z-]+)", entry.get("hdr", ""))
    return (m.group(1) if m else "cudagraph-shared-race",
            set(entry.get("prim", [])) | set(entry.get("alt", [])))


def analyse(tidy, path, defines):
    out = subprocess.run([tidy, path, "--checks=" + CHECKS, "--format=text-plain",
                          "--result-cache=off", "--no-progress", "--"] + FLAGS + defines,
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit("error: %s exited %d:\n%s" % (path, out.returncode, out.stderr))
    return out.stdout


def warnings(text):
    """[(check, lines named by the warning and its notes)]"""
    found = []
    for line in text.splitlines():
        m = re.match(r"[^:]+:(\d+):\d+: (warning|note): .*?(\[(cudagraph-[a-z-]+)\])?$", line)
        if not m:
            continue
        if m.group(2) == "warning":
            found.append([m.group(4), {int(m.group(1))}])
            named = re.search(r"at line (\d+)", line)
            if named:
                found[-1][1].add(int(named.group(1)))
        elif found:
            found[-1][1].add(int(m.group(1)))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tidy", default="build/bin/cudagraph-tidy")
    ap.add_argument("suite")
    args = ap.parse_args()
    with open(os.path.join(args.suite, "expect.json")) as f:
        expect = json.load(f)
    counts = {"TP": 0, "FN": 0, "FP": 0, "TN": 0}
    for name in sorted(expect):
        path = os.path.join(args.suite, name)
        with open(path) as f:
            buggy = re.search(r"#\s*(ifdef|ifndef|if defined\s*\(?)\s*BUGGY", f.read()) is not None
        want = expectation(expect[name])
        fixed = warnings(analyse(args.tidy, path, []))
        verdicts = ["FP" if fixed else "TN"]
        if buggy and want:
            got = warnings(analyse(args.tidy, path, ["-DBUGGY"]))
            hits = [w for w in got if w[0] == want[0]]
            if not hits:
                verdicts.append("FN")
            else:
                at = any(w[1] & want[1] for w in hits)
                verdicts.append("TP" if at else "TP (elsewhere)")
        for v in verdicts:
            counts[v.split()[0]] += 1
        print("%-34s %s" % (name, "  ".join(verdicts)))
    print("TP %(TP)d  FN %(FN)d  FP %(FP)d  TN %(TN)d" % counts)


if __name__ == "__main__":
    main()
