#!/usr/bin/env python3
"""Score cudagraph-unpaired-instantiate against the hand-labelled corpus.

Every `.cu` file in this directory is run through clang-tidy with the plugin.
A line that carries `// EXPECT: cudagraph-unpaired-instantiate` must get a
warning of that check; every other line must stay silent. Warnings are matched
to expectations by (file, line); several warnings on one line count once.

Usage:
  python3 bench/lifetime-corpus/score.py --build /work/main/build-corpus
  python3 bench/lifetime-corpus/score.py --build B --jobs 4 --json out.json FILE...

Exit status: 0 on success, 2 when a file fails to parse, clang-tidy cannot
run or crashes (the file's expectations then all count as FN), 1 when
--min-precision / --min-recall are given and not met.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

CHECK = "cudagraph-unpaired-instantiate"
HERE = os.path.dirname(os.path.abspath(__file__))
EXPECT_RE = re.compile(r"//\s*EXPECT:\s*" + re.escape(CHECK) + r"\b")
DIAG_RE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<sev>warning|error|fatal error): (?P<msg>.*?)"
                     r"(?: \[(?P<name>[^\]]+)\])?$")


def expectations(path):
    exp = {}
    with open(path, encoding="utf-8") as f:
        for no, text in enumerate(f, 1):
            if EXPECT_RE.search(text):
                exp[no] = text.strip()
    return exp


def source_line(path, no):
    try:
        with open(path, encoding="utf-8") as f:
            for i, text in enumerate(f, 1):
                if i == no:
                    return text.strip()
    except OSError:
        pass
    return ""


def run_one(path, args):
    cmd = [args.clang_tidy, "-load=" + os.path.join(args.build, "lib", "CudaGraphTidy.so"),
           "--checks=-*," + CHECK, "--config={}", path, "--",
           "-x", "cuda", "--cuda-host-only", "--cuda-path=" + args.cuda_path,
           "-Wno-unknown-cuda-version", "-std=c++17",
           "-I" + os.path.join(args.cuda_path, "include", "cccl")]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=args.timeout)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        out, rc = "timeout after %ss" % args.timeout, -1
    dt = time.monotonic() - t0
    real = os.path.realpath(path)
    warned, errors = {}, []
    for raw in out.splitlines():
        m = DIAG_RE.match(raw)
        if not m:
            continue
        if m.group("sev") != "warning":
            errors.append(raw)
            continue
        if m.group("name") != CHECK:
            continue
        if os.path.realpath(m.group("file")) != real:
            continue
        warned.setdefault(int(m.group("line")), m.group("msg"))
    # clang-tidy exits 0 with warnings only; non-zero means compile errors or
    # a plugin failure. Any "error:" diagnostic also counts as a failure.
    failed = bool(errors) or rc != 0
    return {"file": os.path.basename(path), "path": path, "seconds": dt, "rc": rc,
            "warned": warned, "errors": errors, "failed": failed,
            "output": out if (failed or args.verbose) else ""}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="build dir holding lib/CudaGraphTidy.so")
    ap.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--jobs", "-j", type=int, default=min(4, os.cpu_count() or 1))
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--json", help="write per-file results here")
    ap.add_argument("--min-precision", type=float)
    ap.add_argument("--min-recall", type=float)
    ap.add_argument("-v", "--verbose", action="store_true", help="print clang-tidy output")
    ap.add_argument("--corpus", default=HERE,
                    help="folder of labelled .cu files (default: this one; "
                         "bench/lifetime-corpus-2 is scored the same way)")
    ap.add_argument("files", nargs="*", help="corpus files (default: all *.cu in --corpus)")
    args = ap.parse_args()

    plugin = os.path.join(args.build, "lib", "CudaGraphTidy.so")
    if not os.path.exists(plugin):
        print("error: plugin not found: " + plugin, file=sys.stderr)
        return 2
    files = args.files or sorted(os.path.join(args.corpus, f) for f in os.listdir(args.corpus)
                                 if f.endswith(".cu"))
    t_all = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        results = list(ex.map(lambda f: run_one(f, args), files))
    wall = time.monotonic() - t_all

    tp = fp = fn = 0
    fps, fns, broken = [], [], []
    print("%-34s %4s %4s %4s %8s" % ("file", "TP", "FP", "FN", "seconds"))
    for r in results:
        exp = expectations(r["path"])
        got = r["warned"]
        r_tp = sorted(set(exp) & set(got))
        r_fp = sorted(set(got) - set(exp))
        r_fn = sorted(set(exp) - set(got))
        r.update(expected=sorted(exp), tp=r_tp, fp=r_fp, fn=r_fn)
        tp, fp, fn = tp + len(r_tp), fp + len(r_fp), fn + len(r_fn)
        for ln in r_fp:
            fps.append((r["file"], ln, got[ln]))
        for ln in r_fn:
            fns.append((r["file"], ln, source_line(r["path"], ln)))
        crashed = r["rc"] < 0 or "Stack dump" in r["output"]
        r["crashed"] = crashed
        mark = ("  CRASH" if crashed else "  PARSE-FAIL") if r["failed"] else ""
        print("%-34s %4d %4d %4d %8.2f%s" % (r["file"], len(r_tp), len(r_fp), len(r_fn),
                                             r["seconds"], mark))
        if r["failed"]:
            broken.append(r)
        if args.verbose and r["output"]:
            print(r["output"])

    prec = tp / (tp + fp) if tp + fp else 1.0
    rec = tp / (tp + fn) if tp + fn else 1.0
    secs = [r["seconds"] for r in results]
    print()
    print("files %d  expected %d  warned %d" % (len(results), tp + fn, tp + fp))
    print("TP %d  FP %d  FN %d" % (tp, fp, fn))
    print("precision %.3f  recall %.3f" % (prec, rec))
    print("time per file: mean %.2fs  max %.2fs  (wall %.1fs, %d jobs)"
          % (sum(secs) / max(1, len(secs)), max(secs or [0]), wall, args.jobs))
    if fps:
        print("\nFalse positives:")
        for f, ln, msg in fps:
            print("  %s:%d: %s" % (f, ln, msg))
    if fns:
        print("\nFalse negatives:")
        for f, ln, text in fns:
            print("  %s:%d: %s" % (f, ln, text))
    if broken:
        print("\nFiles that failed to parse / run:")
        for r in broken:
            print("  %s (rc %s%s)" % (r["file"], r["rc"], ", crashed" if r["crashed"] else ""))
            lines = r["errors"] or r["output"].splitlines()
            if r["crashed"]:
                lines = [l for l in r["output"].splitlines()
                         if "Processing" in l or "Decl " in l or
                         re.match(r"\s*#([4-9]|1[0-2]) ", l)]
            for e in lines[:10]:
                print("    " + e)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tp": tp, "fp": fp, "fn": fn, "precision": prec, "recall": rec,
                       "files": [{k: v for k, v in r.items() if k not in ("output", "path")}
                                 for r in results]}, f, indent=1, default=str)
    if broken:
        return 2
    if args.min_precision is not None and prec < args.min_precision:
        return 1
    if args.min_recall is not None and rec < args.min_recall:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
