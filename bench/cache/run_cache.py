#!/usr/bin/env python3
"""What the unit cache saves: a cold run, a warm run with nothing changed and
a run after changing one file, over a compile database of real sources, with
the cross-file summaries on (the default).

  bench/cache/run_cache.py --build build --project ggml --src /tmp/ggml [--files 12]
  bench/cache/run_cache.py --build build --project samples --src /tmp/cuda-samples

The sources are extracted locally (never committed): ggml's src/ggml-cuda/*.cu
(the top-level files, sorted; --files N takes the first N), flags
-DGGML_CUDA_USE_GRAPHS -I../../include -I.. -I.; cuda-samples' Samples/**/*.cu
with -I Common. Each run uses its own fresh cache folder for the cold run; the
preamble cache is off throughout, so that the figures are the unit cache's
alone. The changed file gets a comment appended (its summaries stay the same,
so only it is analysed again).

Prints one line per run: seconds, the --stats lines of the unit cache, and
whether the report is byte-identical to the cold run's (text and SARIF).
--baseline also times a cold run without the summaries and the cache, for
what the summary passes cost a cold run."""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CUDA = "/usr/local/cuda"
CUDA_ARGS = ["-x", "cuda", "--cuda-host-only", "--cuda-path=" + CUDA,
             "-Wno-unknown-cuda-version", "-std=c++17"]


def project_files(project, src, limit):
    """(directory, file, extra flags) per unit."""
    if project == "ggml":
        d = os.path.join(src, "src", "ggml-cuda")
        files = sorted(glob.glob(os.path.join(d, "*.cu")))
        flags = ["-DGGML_CUDA_USE_GRAPHS", "-I../../include", "-I..", "-I."]
    else:
        d = src
        files = sorted(glob.glob(os.path.join(src, "Samples", "**", "*.cu"), recursive=True))
        flags = ["-I" + os.path.join(src, "Common")]
    if limit:
        files = files[:limit]
    return [(d, f, flags) for f in files]


def write_db(units, out):
    entries = [{"directory": d, "file": f,
                "arguments": ["clang++"] + CUDA_ARGS + flags + ["-c", f]}
               for d, f, flags in units]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "compile_commands.json"), "w") as db:
        json.dump(entries, db, indent=1)


def run(driver, db, cache, jobs, fmt, out, extra=()):
    cmd = [driver, "-p", db, "--jobs", str(jobs), "--stats", "--preamble-cache=off",
           "--result-cache=on", "--cache-dir", cache, "--format=" + fmt, "-o", out] + list(extra)
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t
    if r.returncode not in (0, 1, 2):
        sys.exit("failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stderr[-3000:]))
    stats = [l for l in r.stderr.splitlines()
             if (l.startswith("cross-file summaries:") and "disagree" not in l)
             or l.startswith("result cache:") or l.startswith("translation unit parses:")]
    failed = [l for l in r.stderr.splitlines() if l.startswith("cudagraph-tidy: error:")]
    if failed:
        stats.append("%d units reported as not analysed" % len(failed))
    return dt, [s if len(s) < 160 else s[:160] + "..." for s in stats]


def same(a, b):
    with open(a, "rb") as x, open(b, "rb") as y:
        return x.read() == y.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--project", choices=["ggml", "samples"], required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--files", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--baseline", action="store_true",
                    help="also time a cold run without summaries and cache")
    ap.add_argument("--keep", metavar="DIR",
                    help="copy the cold run's text and SARIF reports to DIR, to compare "
                         "two builds' findings")
    args = ap.parse_args()
    driver = os.path.abspath(os.path.join(args.build, "bin", "cudagraph-tidy"))
    units = project_files(args.project, args.src, args.files)
    work = tempfile.mkdtemp(prefix="cgt-cache-bench-")
    db, cache = os.path.join(work, "db"), os.path.join(work, "cache")
    write_db(units, db)
    print("%s: %d translation units, --jobs %d" % (args.project, len(units), args.jobs))
    cold = {}
    for fmt in ("text", "sarif"):
        cold[fmt] = os.path.join(work, "cold." + fmt)
    # The cold run writes the text report; SARIF from a warm replay is then
    # compared with a second cold run's, made with caching off.
    dt, stats = run(driver, db, cache, args.jobs, "text", cold["text"])
    print("cold            %7.2f s  %s" % (dt, " | ".join(stats)))
    cold_s = dt
    if args.baseline:
        dt, _ = run(driver, db, os.path.join(work, "none"), args.jobs, "text",
                    os.path.join(work, "plain.text"),
                    ["--cross-tu-summaries=off", "--result-cache=off"])
        print("cold, no summaries, no cache %7.2f s (summaries cost %.2fx)" % (dt, cold_s / dt))
    dt, stats = run(driver, db, cache, args.jobs, "text", os.path.join(work, "warm.text"))
    print("warm, unchanged %7.2f s  (%.1f%% of cold)  identical text: %s  %s" % (
        dt, 100 * dt / cold_s, same(cold["text"], os.path.join(work, "warm.text")),
        " | ".join(stats)))
    target = units[len(units) // 2][1]
    with open(target, "a") as f:
        f.write("\n// cache benchmark: a comment\n")
    dt, stats = run(driver, db, cache, args.jobs, "text", os.path.join(work, "one.text"))
    print("one file edited %7.2f s  (%.1f%% of cold; %s)  identical text: %s  %s" % (
        dt, 100 * dt / cold_s, os.path.basename(target),
        same(cold["text"], os.path.join(work, "one.text")), " | ".join(stats)))
    # SARIF: replayed against fresh.
    run(driver, db, cache, args.jobs, "sarif", os.path.join(work, "warm.sarif"))
    fresh = os.path.join(work, "fresh-cache")
    run(driver, db, fresh, args.jobs, "sarif", cold["sarif"])
    print("SARIF of a warm run identical to a cold run's: %s" %
          same(cold["sarif"], os.path.join(work, "warm.sarif")))
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        for fmt in ("text", "sarif"):
            shutil.copy(cold[fmt], os.path.join(args.keep, "%s.cold.%s" % (args.project, fmt)))
    with open(target) as f:
        text = f.read()
    with open(target, "w") as f:
        f.write(text.replace("\n// cache benchmark: a comment\n", ""))
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
