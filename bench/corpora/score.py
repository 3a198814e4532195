#!/usr/bin/env python3
"""Score cudagraph-tidy's checks against the hand-labelled corpora in bench/corpora/.

A suite is a folder of bench/corpora/ holding `.cu` files. Every file is run
through clang-tidy with the plugin and the suite's checks enabled. A line that
carries `// EXPECT: <check>` must get a warning of that check; every other line
must stay silent for it. Warnings are matched to labels by (file, line, check);
several warnings of one check on one line count once.

A suite's checks are those its labels name, plus those SUITE_CHECKS gives for
its name (so a check with no label in a suite is still run there and its
warnings count as FP); --checks replaces both.

Usage:
  python3 bench/corpora/score.py --build /work/main/build lifetime-3
  python3 bench/corpora/score.py --build B --suite sharedmem-1 --json out.json
  python3 bench/corpora/score.py --build B all                # one table, every suite
  python3 bench/corpora/score.py --build B bench/corpora/lifetime-1/07_goto_cleanup.cu
  python3 bench/corpora/score.py --build B all --json-dir D --raw-dir D

Targets (positional or --suite, repeatable): a suite name, `all` (the default),
a suite folder, or `.cu` files (scored as a subset of the suite of their folder).

One suite prints a table per file, then the totals (and one line per check when
the suite has several), precision, recall, and every FP (with its message) and
FN (with its source line). Several suites print one table with a row per suite
and check, then totals per check and the FP / FN lists.

Exit status: 0 on success; 2 when a file fails to parse, clang-tidy cannot run
or crashes (the file's labels then all count as FN), or on a usage error; 1 when
--min-precision / --min-recall are given and some suite's total does not meet them.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
# Checks run for every suite whose name starts with the key, whether or not a
# label names them.
SUITE_CHECKS = {
    "lifetime-": ("cudagraph-unpaired-instantiate",),
    "lifetime-8": ("cudagraph-handle-leak", "cudagraph-capture-without-destroy",
                   "cudagraph-use-after-dealloc", "cudagraph-mismatched-dealloc",
                   "cudagraph-capture-unsafe-call"),
    "sharedmem-": ("cudagraph-shared-index-overflow", "cudagraph-shared-bank-conflict"),
    "probe-": ("cudagraph-unpaired-instantiate", "cudagraph-handle-leak",
               "cudagraph-capture-without-destroy", "cudagraph-use-after-dealloc",
               "cudagraph-mismatched-dealloc", "cudagraph-capture-unsafe-call",
               "cudagraph-stream-order", "cudagraph-capture-structure"),
    "ownership-": ("cudagraph-unpaired-instantiate", "cudagraph-handle-leak",
                   "cudagraph-capture-without-destroy", "cudagraph-use-after-dealloc",
                   "cudagraph-mismatched-dealloc", "cudagraph-capture-unsafe-call"),
}
LABEL_RE = re.compile(r"//\s*EXPECT:\s*(cudagraph-[a-z0-9]+(?:-[a-z0-9]+)*)")
DIAG_RE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<sev>warning|error|fatal error|note): (?P<msg>.*?)"
                     r"(?: \[(?P<name>[^\]]+)\])?$")


def natural_key(s):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


class Suite:
    def __init__(self, name, folder, files=None):
        self.name, self.dir = name, folder
        self.files = files if files is not None else sorted(
            (os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".cu")),
            key=natural_key)
        self.checks = ()

    def resolve_checks(self, override):
        if override:
            self.checks = tuple(override)
            return
        found = []
        for prefix, checks in SUITE_CHECKS.items():
            if self.name.startswith(prefix):
                found += checks
        # Labels of every file of the folder, not only the files scored.
        for path in sorted(f for f in os.listdir(self.dir) if f.endswith(".cu")):
            with open(os.path.join(self.dir, path), encoding="utf-8") as f:
                for m in LABEL_RE.finditer(f.read()):
                    found.append(m.group(1))
        self.checks = tuple(dict.fromkeys(found))


def all_suites():
    return sorted((Suite(d, os.path.join(HERE, d)) for d in os.listdir(HERE)
                   if os.path.isdir(os.path.join(HERE, d)) and
                   any(f.endswith(".cu") for f in os.listdir(os.path.join(HERE, d)))),
                  key=lambda s: natural_key(s.name))


def select(targets):
    """Turns names / folders / files into suites, in the order given."""
    known = {s.name: s for s in all_suites()}
    suites, by_dir = [], {}

    def add(suite):
        key = os.path.realpath(suite.dir)
        if key in by_dir:
            old = by_dir[key]
            if suite.files is not None:
                old.files = sorted(set(old.files) | set(suite.files), key=natural_key)
            return
        by_dir[key] = suite
        suites.append(suite)

    for t in targets or ["all"]:
        if t == "all":
            for s in known.values():
                add(Suite(s.name, s.dir))
        elif t in known:
            add(Suite(t, known[t].dir))
        elif os.path.isdir(t):
            folder = os.path.abspath(t)
            add(Suite(os.path.basename(folder.rstrip("/")), folder))
        elif os.path.isfile(t) and t.endswith(".cu"):
            path = os.path.abspath(t)
            folder = os.path.dirname(path)
            key = os.path.realpath(folder)
            if key in by_dir:
                s = by_dir[key]
                if path not in s.files:
                    s.files.append(path)
            else:
                add(Suite(os.path.basename(folder), folder, [path]))
        else:
            print("error: no suite or file '%s' (suites: %s)"
                  % (t, ", ".join(known) or "none"), file=sys.stderr)
            sys.exit(2)
    return suites


def labels(path):
    exp = {}
    with open(path, encoding="utf-8") as f:
        for no, text in enumerate(f, 1):
            for m in LABEL_RE.finditer(text):
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


def shown_path(p):
    """Path as written in raw outputs: relative to the checkout when inside it,
    so that outputs of two checkouts (or worktrees) can be diffed."""
    real = os.path.realpath(p)
    root = os.path.realpath(REPO)
    if real.startswith(root + os.sep):
        return os.path.relpath(real, root)
    return p


def run_one(suite, path, args):
    cmd = [args.clang_tidy, "-load=" + os.path.join(args.build, "lib", "CudaGraphTidy.so"),
           "--checks=-*," + ",".join(suite.checks), "--config={}", path, "--",
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
    except OSError as e:
        out, rc = "cannot run %s: %s" % (args.clang_tidy, e), -1
    dt = time.monotonic() - t0
    real = os.path.realpath(path)
    warned, errors, raw = {}, [], []
    for line in out.splitlines():
        m = DIAG_RE.match(line)
        if not m:
            continue
        raw.append(shown_path(m.group("file")) + line[len(m.group("file")):])
        sev = m.group("sev")
        if sev == "note":
            continue
        if sev != "warning":
            errors.append(line)
            continue
        if m.group("name") not in suite.checks:
            continue
        if os.path.realpath(m.group("file")) != real:
            continue
        warned.setdefault((int(m.group("line")), m.group("name")), m.group("msg"))
    # clang-tidy exits 0 with warnings only; non-zero means compile errors or
    # a plugin failure. Any "error:" diagnostic also counts as a failure.
    failed = bool(errors) or rc != 0
    crashed = rc < 0 or "Stack dump" in out
    return {"file": os.path.basename(path), "path": path, "seconds": dt, "rc": rc,
            "warned": warned, "errors": errors, "failed": failed, "crashed": crashed,
            "raw": raw, "output": out if (failed or args.verbose) else ""}


def ratio(t, f, n):
    return (t / (t + f) if t + f else 1.0), (t / (t + n) if t + n else 1.0)


def score(suite, results):
    """Adds tp/fp/fn to each result; returns the suite's figures."""
    per = {c: [0, 0, 0] for c in suite.checks}
    fps, fns, broken = [], [], []
    for r in results:
        exp = labels(r["path"])
        got = r["warned"]
        r_tp = sorted(set(exp) & set(got))
        r_fp = sorted(set(got) - set(exp))
        r_fn = sorted(set(exp) - set(got))
        r.update(expected=sorted(exp), tp=r_tp, fp=r_fp, fn=r_fn)
        for lst, k in ((r_tp, 0), (r_fp, 1), (r_fn, 2)):
            for _, c in lst:
                per.setdefault(c, [0, 0, 0])[k] += 1
        fps += [(r["file"], key, got[key]) for key in r_fp]
        fns += [(r["file"], key, source_line(r["path"], key[0])) for key in r_fn]
        if r["failed"]:
            broken.append(r)
    tp, fp, fn = (sum(v[k] for v in per.values()) for k in range(3))
    prec, rec = ratio(tp, fp, fn)
    return {"tp": tp, "fp": fp, "fn": fn, "precision": prec, "recall": rec,
            "per_check": per, "fps": fps, "fns": fns, "broken": broken,
            "seconds": [r["seconds"] for r in results]}


def print_lists(fig, multi, prefix=""):
    def tag(c):
        return "[%s] " % c if multi else ""
    if fig["fps"]:
        print("\nFalse positives:")
        for f, (ln, c), msg in fig["fps"]:
            print("  %s%s:%d: %s%s" % (prefix, f, ln, tag(c), msg))
    if fig["fns"]:
        print("\nFalse negatives:")
        for f, (ln, c), text in fig["fns"]:
            print("  %s%s:%d: %s%s" % (prefix, f, ln, tag(c), text))


def print_broken(broken, prefix=""):
    if not broken:
        return
    print("\nFiles that failed to parse / run:")
    for r in broken:
        print("  %s%s (rc %s%s)" % (prefix, r["file"], r["rc"], ", crashed" if r["crashed"] else ""))
        lines = r["errors"] or r["output"].splitlines()
        if r["crashed"]:
            lines = [l for l in r["output"].splitlines()
                     if "Processing" in l or "Decl " in l or
                     re.match(r"\s*#([4-9]|1[0-2]) ", l)]
        for e in lines[:10]:
            print("    " + e)


def print_one(suite, results, fig, args, wall):
    print("%-34s %4s %4s %4s %8s" % ("file", "TP", "FP", "FN", "seconds"))
    for r in results:
        mark = ("  CRASH" if r["crashed"] else "  PARSE-FAIL") if r["failed"] else ""
        print("%-34s %4d %4d %4d %8.2f%s" % (r["file"], len(r["tp"]), len(r["fp"]),
                                             len(r["fn"]), r["seconds"], mark))
        if args.verbose and r["output"]:
            print(r["output"])
    tp, fp, fn = fig["tp"], fig["fp"], fig["fn"]
    secs = fig["seconds"]
    print()
    print("suite %s  checks %s" % (suite.name, ", ".join(suite.checks)))
    print("files %d  expected %d  warned %d" % (len(results), tp + fn, tp + fp))
    print("TP %d  FP %d  FN %d" % (tp, fp, fn))
    print("precision %.3f  recall %.3f" % (fig["precision"], fig["recall"]))
    if len(fig["per_check"]) > 1:
        for c, (t, f, n) in fig["per_check"].items():
            p, r_ = ratio(t, f, n)
            print("%-34s TP %3d  FP %3d  FN %3d  precision %.3f  recall %.3f" % (c, t, f, n, p, r_))
    print("time per file: mean %.2fs  max %.2fs  (wall %.1fs, %d jobs)"
          % (sum(secs) / max(1, len(secs)), max(secs or [0]), wall, args.jobs))
    print_lists(fig, len(fig["per_check"]) > 1)
    print_broken(fig["broken"])


def print_table(suites, figs, args, wall):
    head = "%-14s %-34s %5s %8s %6s %4s %4s %4s %9s %6s %6s %6s"
    row = "%-14s %-34s %5d %8d %6d %4d %4d %4d %9.3f %6.3f %6.2f %6s"
    print(head % ("suite", "check", "files", "expected", "warned", "TP", "FP", "FN",
                  "precision", "recall", "s/file", "failed"))
    totals, nfiles, nfailed = {}, {}, {}
    for s in suites:
        fig = figs[s.name]
        secs = fig["seconds"]
        mean = sum(secs) / max(1, len(secs))
        for c, (t, f, n) in fig["per_check"].items():
            p, r_ = ratio(t, f, n)
            print(row % (s.name, c, len(s.files), t + n, t + f, t, f, n, p, r_, mean,
                         len(fig["broken"]) or "-"))
            tot = totals.setdefault(c, [0, 0, 0])
            for k, v in enumerate((t, f, n)):
                tot[k] += v
            nfiles[c] = nfiles.get(c, 0) + len(s.files)
            nfailed[c] = nfailed.get(c, 0) + len(fig["broken"])
    print("-" * 118)
    for c, (t, f, n) in totals.items():
        p, r_ = ratio(t, f, n)
        print(row % ("total", c, nfiles[c], t + n, t + f, t, f, n, p, r_,
                     sum(sum(figs[s.name]["seconds"]) for s in suites if c in s.checks)
                     / max(1, nfiles[c]), nfailed[c] or "-"))
    print("\nwall %.1fs, %d jobs, %d files" % (wall, args.jobs, sum(len(s.files) for s in suites)))
    for s in suites:
        fig = figs[s.name]
        if fig["fps"] or fig["fns"] or fig["broken"]:
            print("\n== %s" % s.name, end="")
            print_lists(fig, len(fig["per_check"]) > 1, s.name + "/")
            print_broken(fig["broken"], s.name + "/")
    return totals


def suite_json(suite, results, fig, plugin_sha):
    def key(k):
        return "%d:%s" % k
    return {"suite": suite.name, "dir": shown_path(suite.dir), "checks": list(suite.checks),
            "plugin_sha256": plugin_sha,
            "tp": fig["tp"], "fp": fig["fp"], "fn": fig["fn"],
            "precision": fig["precision"], "recall": fig["recall"],
            "per_check": {c: dict(zip(("tp", "fp", "fn", "precision", "recall"),
                                      list(v) + list(ratio(*v))))
                          for c, v in fig["per_check"].items()},
            "files": [{"file": r["file"], "seconds": r["seconds"], "rc": r["rc"],
                       "failed": r["failed"], "crashed": r["crashed"], "errors": r["errors"],
                       "warned": {key(k): v for k, v in sorted(r["warned"].items())},
                       "expected": r["expected"], "tp": r["tp"], "fp": r["fp"], "fn": r["fn"]}
                      for r in results]}


def write_raw(folder, suite, results):
    d = os.path.join(folder, suite.name)
    os.makedirs(d, exist_ok=True)
    for r in results:
        with open(os.path.join(d, r["file"] + ".txt"), "w", encoding="utf-8") as f:
            status = "ok" if not r["failed"] else (
                "crashed rc=%s" % r["rc"] if r["crashed"] else "failed rc=%s" % r["rc"])
            f.write("# status: %s\n" % status)
            for line in r["raw"]:
                f.write(line + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("targets", nargs="*", metavar="SUITE|all|DIR|FILE",
                    help="what to score (default: all)")
    ap.add_argument("--suite", action="append", default=[], metavar="NAME",
                    help="a suite of bench/corpora/ (repeatable; same as a positional name)")
    ap.add_argument("--corpus", action="append", default=[], metavar="DIR",
                    help="a folder of labelled .cu files (repeatable)")
    ap.add_argument("--build", default=os.path.join(REPO, "build"),
                    help="build dir holding lib/CudaGraphTidy.so (default: %(default)s)")
    ap.add_argument("--checks", help="comma-separated checks to run and score, "
                                     "instead of the suite's own")
    ap.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--jobs", "-j", type=int, default=min(4, os.cpu_count() or 1))
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--json", help="write the results here (one suite: its object; "
                                   "several: {\"suites\": {...}, \"totals\": {...}})")
    ap.add_argument("--json-dir", help="write DIR/<suite>.json for every suite")
    ap.add_argument("--raw-dir", help="write each file's warnings and notes to "
                                      "DIR/<suite>/<file>.txt (input of diff_findings.py)")
    ap.add_argument("--min-precision", type=float)
    ap.add_argument("--min-recall", type=float)
    ap.add_argument("-v", "--verbose", action="store_true", help="print clang-tidy output")
    ap.add_argument("--list", action="store_true", help="list the suites and their checks")
    args = ap.parse_args()

    suites = select(args.targets + args.suite + args.corpus)
    override = [c for c in (args.checks or "").split(",") if c]
    for s in suites:
        s.resolve_checks(override)
        if not s.checks:
            print("error: suite %s names no check (no `// EXPECT: <check>` label and no "
                  "SUITE_CHECKS entry); give --checks" % s.name, file=sys.stderr)
            return 2
    if args.list:
        for s in suites:
            print("%-14s %3d files  %s" % (s.name, len(s.files), ", ".join(s.checks)))
        return 0
    plugin = os.path.join(args.build, "lib", "CudaGraphTidy.so")
    if not os.path.exists(plugin):
        print("error: plugin not found: " + plugin, file=sys.stderr)
        return 2
    with open(plugin, "rb") as f:
        plugin_sha = hashlib.sha256(f.read()).hexdigest()

    work = [(s, f) for s in suites for f in s.files]
    t_all = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        done = list(ex.map(lambda sf: run_one(sf[0], sf[1], args), work))
    wall = time.monotonic() - t_all
    results = {s.name: [] for s in suites}
    for (s, _), r in zip(work, done):
        results[s.name].append(r)
    figs = {s.name: score(s, results[s.name]) for s in suites}

    if len(suites) == 1:
        s = suites[0]
        print_one(s, results[s.name], figs[s.name], args, wall)
        totals = None
    else:
        totals = print_table(suites, figs, args, wall)

    objs = {s.name: suite_json(s, results[s.name], figs[s.name], plugin_sha) for s in suites}
    if args.json:
        with open(args.json, "w") as f:
            if len(suites) == 1:
                json.dump(objs[suites[0].name], f, indent=1)
            else:
                json.dump({"plugin_sha256": plugin_sha, "suites": objs,
                           "totals": {c: dict(zip(("tp", "fp", "fn", "precision", "recall"),
                                                  list(v) + list(ratio(*v))))
                                      for c, v in totals.items()}}, f, indent=1)
    if args.json_dir:
        os.makedirs(args.json_dir, exist_ok=True)
        for name, obj in objs.items():
            with open(os.path.join(args.json_dir, name + ".json"), "w") as f:
                json.dump(obj, f, indent=1)
    if args.raw_dir:
        for s in suites:
            write_raw(args.raw_dir, s, results[s.name])

    if any(figs[s.name]["broken"] for s in suites):
        return 2
    for s in suites:
        if args.min_precision is not None and figs[s.name]["precision"] < args.min_precision:
            return 1
        if args.min_recall is not None and figs[s.name]["recall"] < args.min_recall:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
