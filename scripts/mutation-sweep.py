#!/usr/bin/env python3
"""Mutation sweep: runs the driver on token-level mutants of real CUDA files
and counts crashes, hangs and exit codes.

Each source file has its #include lines blanked (line numbers stay) and is
parsed with tools/fuzz/cuda_decls.h instead of the CUDA headers
(`-nocudainc -include cuda_decls.h`), which makes a run cost tens of
milliseconds instead of half a second; names from other headers become
ordinary compiler errors, which the checks must survive anyway, and
-ferror-limit=0 keeps clang parsing to the end so the checks see all of it.
A mutant applies 1-3 token mutations: delete a token, duplicate one, swap
two neighbours, truncate the file at a token, or unbalance braces
(insert or delete one of { } ( ) [ ]).

Outcomes: exit 0/1/2 are answers (2: the unit did not parse, expected for
most mutants); anything else (a signal, an abort, a sanitizer's exit code)
is a crash, and a run over --timeout seconds is a hang. Crashing and hanging
mutants are kept in --keep-dir with the command that reproduces them.
Deterministic for a given --seed and file list.

Usage: mutation-sweep.py --driver build/bin/cudagraph-tidy --mutants 10000
           [--seed 1] [--timeout 30] [--keep-dir DIR] FILE_OR_DIR...
"""
import argparse
import collections
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECLS = os.path.join(ROOT, "tools", "fuzz", "cuda_decls.h")
TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
                   r'|[A-Za-z_]\w*|\d[\w.]*|<<<|>>>|->|::|<<=|>>=|[-+*/%&|^!=<>]=?|&&|\|\||\+\+|--'
                   r'|\S', re.S)
BRACES = "{}()[]"


def sources(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, files in os.walk(p):
                out += [os.path.join(d, f) for f in files if f.endswith(".cu")]
        else:
            out.append(p)
    return sorted(out)


def strip_includes(text):
    return re.sub(r"^[ \t]*#[ \t]*include[^\n]*", "", text, flags=re.M)


def tokens(text):
    """(start, end) spans of the tokens; whitespace between them is kept."""
    return [(m.start(), m.end()) for m in TOKEN.finditer(text)]


def mutate(text, spans, rng):
    ops = []
    for _ in range(rng.randint(1, 3)):
        if not spans:
            break
        op = rng.choice(["delete", "duplicate", "swap", "truncate", "brace"])
        i = rng.randrange(len(spans))
        s, e = spans[i]
        if op == "delete":
            text = text[:s] + text[e:]
        elif op == "duplicate":
            text = text[:e] + " " + text[s:e] + text[e:]
        elif op == "swap" and i + 1 < len(spans):
            s2, e2 = spans[i + 1]
            text = text[:s] + text[s2:e2] + text[e:s2] + text[s:e] + text[e2:]
        elif op == "truncate":
            text = text[:s]
        else:
            op = "brace"
            braces = [j for j, (a, b) in enumerate(spans) if text[a:b] in BRACES]
            if braces and rng.random() < 0.5:
                a, b = spans[rng.choice(braces)]
                text = text[:a] + text[b:]
            else:
                text = text[:s] + rng.choice(BRACES) + text[s:]
        ops.append(op)
        spans = tokens(text)  # offsets moved
    return text, ops


def command(driver, path):
    return [driver, "--quiet", path, "--", "-x", "cuda", "--cuda-host-only", "-nocudainc",
            "-nocudalib", "-include", DECLS, "-std=c++17", "-ferror-limit=0",
            "-Wno-unknown-cuda-version"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--driver", required=True)
    ap.add_argument("--mutants", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--keep-dir", default="mutation-findings")
    ap.add_argument("--json", help="write the counts here too")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = sources(a.paths)
    if not files:
        sys.exit("mutation-sweep: no .cu files")
    rng = random.Random(a.seed)
    texts = {f: strip_includes(open(f, errors="replace").read()) for f in files}
    spans = {f: tokens(t) for f, t in texts.items()}
    codes = collections.Counter()
    ops_count = collections.Counter()
    crashes, hangs = [], []
    slowest = (0.0, "")
    start = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="cgt-mutants-")
    try:
        for n in range(a.mutants):
            f = files[n % len(files)]
            text, ops = mutate(texts[f], spans[f], rng)
            ops_count.update(ops)
            path = os.path.join(tmp, "m%d_%s" % (n, os.path.basename(f)))
            with open(path, "w") as out:
                out.write(text)
            t0 = time.monotonic()
            try:
                rc = subprocess.run(command(a.driver, path), stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, timeout=a.timeout).returncode
                outcome = rc if rc in (0, 1, 2) else "crash"
            except subprocess.TimeoutExpired:
                rc, outcome = None, "hang"
            dt = time.monotonic() - t0
            if dt > slowest[0]:
                slowest = (dt, "m%d of %s" % (n, f))
            codes[str(outcome)] += 1
            if outcome in ("crash", "hang"):
                os.makedirs(a.keep_dir, exist_ok=True)
                kept = os.path.join(a.keep_dir, os.path.basename(path))
                shutil.copy(path, kept)
                with open(kept + ".cmd", "w") as c:
                    c.write(" ".join(command(a.driver, kept)) + "\n# exit: %s\n" % rc)
                (crashes if outcome == "crash" else hangs).append(kept)
                print("mutation-sweep: %s (exit %s): %s from %s, ops %s" % (outcome, rc, kept, f, ops),
                      flush=True)
            os.unlink(path)
            if (n + 1) % 500 == 0:
                print("mutation-sweep: %d mutants, %s, %.0f s" % (n + 1, dict(codes),
                                                                  time.monotonic() - start), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    wall = time.monotonic() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    summary = {"files": len(files), "mutants": a.mutants, "seed": a.seed,
               "exit_codes": dict(codes), "crashes": len(crashes), "hangs": len(hangs),
               "operations": dict(ops_count), "wall_s": round(wall, 1),
               "slowest_s": round(slowest[0], 2), "slowest": slowest[1],
               "peak_rss_mib": round(peak)}
    print(json.dumps(summary, indent=1))
    if a.json:
        with open(a.json, "w") as out:
            json.dump(summary, out, indent=1)
    return 1 if crashes or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
