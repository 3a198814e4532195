#!/usr/bin/env python3
"""Score cudagraph-shared-index-overflow and cudagraph-shared-bank-conflict
against the hand-labelled shared-memory corpus.

Every `.cu` file in this directory is run through clang-tidy with the plugin
and `--checks=-*,cudagraph-shared-*` (default options). A line that carries
`// EXPECT: <check>` must get a warning of that check; every other line must
stay silent for that check. Warnings are matched to expectations by
(file, line, check); several warnings of one check on one line count once.
Figures are printed per check and in total.

Usage:
  python3 bench/sharedmem-corpus/score.py --build /work/main/build-smem2
  python3 bench/sharedmem-corpus/score.py --build B --jobs 4 --json out.json FILE...

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

CHECKS = ("cudagraph-shared-index-overflow", "cudagraph-shared-bank-conflict")
HERE = os.path.dirname(os.path.abspath(__file__))
EXPECT_RE = re.compile(r"//\s*EXPECT:\s*(cudagraph-shared-[a-z-]+)")
DIAG_RE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<sev>warning|error|fatal error): (?P<msg>.*?)"
                     r"(?: \[(?P<name>[^\]]+)\])?$")


def expectations(path):
    exp = {}
    with open(path, encoding="utf-8") as f:
        for no, text in enumerate(f, 1):
            for m in EXPECT_RE.finditer(text):
                exp[(no, m.group(1))] = text.strip()
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
           "--checks=-*,cudagraph-shared-*", "--config={}", path, "--",
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
        if m.group("name") not in CHECKS:
            continue
        if os.path.realpath(m.group("file")) != real:
            continue
        warned.setdefault((int(m.group("line")), m.group("name")), m.group("msg"))
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
    ap.add_argument("--corpus", default=HERE, help="folder of labelled .cu files (default: this one)")
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

    per = {c: [0, 0, 0] for c in CHECKS}
    fps, fns, broken = [], [], []
    print("%-34s %4s %4s %4s %8s" % ("file", "TP", "FP", "FN", "seconds"))
    for r in results:
        exp = expectations(r["path"])
        got = r["warned"]
        r_tp = sorted(set(exp) & set(got))
        r_fp = sorted(set(got) - set(exp))
        r_fn = sorted(set(exp) - set(got))
        r.update(expected=sorted(exp), tp=r_tp, fp=r_fp, fn=r_fn)
        for lst, k in ((r_tp, 0), (r_fp, 1), (r_fn, 2)):
            for _, c in lst:
                per[c][k] += 1
        for key in r_fp:
            fps.append((r["file"], key, got[key]))
        for key in r_fn:
            fns.append((r["file"], key, source_line(r["path"], key[0])))
        crashed = r["rc"] < 0 or "Stack dump" in r["output"]
        r["crashed"] = crashed
        mark = ("  CRASH" if crashed else "  PARSE-FAIL") if r["failed"] else ""
        print("%-34s %4d %4d %4d %8.2f%s" % (r["file"], len(r_tp), len(r_fp), len(r_fn),
                                             r["seconds"], mark))
        if r["failed"]:
            broken.append(r)
        if args.verbose and r["output"]:
            print(r["output"])

    def pr(t, f, n):
        return (t / (t + f) if t + f else 1.0), (t / (t + n) if t + n else 1.0)

    tp = sum(v[0] for v in per.values())
    fp = sum(v[1] for v in per.values())
    fn = sum(v[2] for v in per.values())
    prec, rec = pr(tp, fp, fn)
    secs = [r["seconds"] for r in results]
    print()
    print("files %d  expected %d  warned %d" % (len(results), tp + fn, tp + fp))
    for c, (t, f, n) in per.items():
        p, r_ = pr(t, f, n)
        print("%-34s TP %3d  FP %3d  FN %3d  precision %.3f  recall %.3f" % (c, t, f, n, p, r_))
    print("%-34s TP %3d  FP %3d  FN %3d  precision %.3f  recall %.3f" % ("total", tp, fp, fn, prec, rec))
    print("time per file: mean %.2fs  max %.2fs  (wall %.1fs, %d jobs)"
          % (sum(secs) / max(1, len(secs)), max(secs or [0]), wall, args.jobs))
    if fps:
        print("\nFalse positives:")
        for f, (ln, c), msg in fps:
            print("  %s:%d: [%s] %s" % (f, ln, c, msg))
    if fns:
        print("\nFalse negatives:")
        for f, (ln, c), text in fns:
            print("  %s:%d: [%s] %s" % (f, ln, c, text))
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
        for r in results:
            r["warned"] = {"%d:%s" % k: v for k, v in r["warned"].items()}
        with open(args.json, "w") as f:
            json.dump({"tp": tp, "fp": fp, "fn": fn, "precision": prec, "recall": rec,
                       "per_check": {c: dict(zip(("tp", "fp", "fn"), v)) for c, v in per.items()},
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
