#!/usr/bin/env python3
"""What a cold `cudagraph-tidy -p` run costs over a whole project, side by
side with run-clang-tidy and one trivial check (issue 37).

  python3 bench/perf/run_project.py --build build --db DIR [--jobs 2] [--shards 4] [--rounds 3]

DIR holds compile_commands.json (for ggml: src/ggml-cuda's 66 units with the
host-side CUDA flags, -DGGML_CUDA_USE_GRAPHS -I../../include -I.. -I.
-I/usr/local/cuda/include/cccl; bench/perf/README.md says how it was made).
Every run starts with empty caches (a fresh $XDG_CACHE_HOME) and the same
--jobs, one after the other:

  1. run-clang-tidy-22 -p DB -j J -checks='-*,misc-misplaced-const'
     (clang-tidy-22's own binary, not the v14 one on PATH);
  2. cudagraph-tidy -p DB --jobs J            (default: cross-file summaries)
  3. cudagraph-tidy -p DB --jobs J --cross-tu-summaries=off
  4. with --shards N: cudagraph-tidy summarize -p DB -o summaries.json, then
     each shard k/N with --summaries summaries.json, timed on its own
     (--artifact default: the file the default run wrote with
     --write-summaries instead, whose unit costs include the checks).

--rounds R repeats the pair 1-2 R times, alternating which runs first, and
prints each round's ratio and their median: on a shared machine one pair's
ratio moved between 1.08x and 1.25x from one hour to the next.

Prints wall and CPU seconds of each (CPU: user + system of the run and every
process it started), the ratios the issue asks for, and whether the findings
of 2, 3 and the shards together are identical (text-plain reports, sorted for
the shards). Exits 1 when they are not."""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

TIDY22 = "/usr/lib/llvm-22/bin/clang-tidy"


def timed(cmd, cache, out=None):
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    with open(out or os.devnull, "w") as o:
        r = subprocess.run(cmd, stdout=o, stderr=subprocess.PIPE, text=True, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if r.returncode not in (0, 1):
        sys.exit("failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stderr[-3000:]))
    last = [l for l in r.stderr.splitlines() if " translation unit" in l]
    return wall, cpu, (last[-1] if last else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--db", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--shards", type=int, default=0)
    ap.add_argument("--artifact", choices=("summarize", "default"), default="summarize",
                    help="where the shards' summaries file comes from: `summarize -o` "
                         "(unit costs without the checks) or the default run's "
                         "--write-summaries (costs with them)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="pairs of run-clang-tidy and the default run, alternating which runs first")
    args = ap.parse_args()
    driver = os.path.abspath(os.path.join(args.build, "bin", "cudagraph-tidy"))
    work = tempfile.mkdtemp(prefix="cgt-project-bench-")
    fresh = lambda name: tempfile.mkdtemp(prefix=name + "-", dir=work)
    j = str(args.jobs)
    rows = []
    rct_cmd = ["run-clang-tidy-22", "-p", args.db, "-j", j, "-quiet",
               "-clang-tidy-binary", TIDY22, "-checks=-*,misc-misplaced-const"]
    default_out = os.path.join(work, "default.txt")
    default_cmd = [driver, "-p", args.db, "--jobs", j, "--format=text-plain"]
    written = os.path.join(work, "written.json")
    if args.shards and args.artifact == "default":
        default_cmd += ["--write-summaries", written]
    # Rounds alternate which of the pair runs first, so that a load that
    # drifts during the bench falls on both; the ratio is each round's own.
    ratios = []
    for r in range(args.rounds):
        pair = {}
        for which in (("rct", "default") if r % 2 == 0 else ("default", "rct")):
            if which == "rct":
                pair[which] = timed(rct_cmd, fresh("rct"))
            else:
                pair[which] = timed(default_cmd, fresh("default"), default_out)
        tag = "" if args.rounds == 1 else " [round %d]" % (r + 1)
        w, c, _ = pair["rct"]
        rows.append(("run-clang-tidy-22, trivial check" + tag, w, c, ""))
        trivial = w
        w, c, line = pair["default"]
        rows.append(("cudagraph-tidy -p (default)" + tag, w, c, line))
        whole, whole_cpu = w, c
        ratios.append(whole / trivial)
    off_out = os.path.join(work, "off.txt")
    w, c, line = timed([driver, "-p", args.db, "--jobs", j, "--format=text-plain",
                        "--cross-tu-summaries=off"], fresh("off"), off_out)
    rows.append(("cudagraph-tidy -p --cross-tu-summaries=off", w, c, line))
    same = open(default_out).read() == open(off_out).read()
    shard_same = None
    if args.shards:
        summaries = os.path.join(work, "summaries.json")
        w, c, line = timed([driver, "summarize", "-p", args.db, "--jobs", j, "-o", summaries],
                           fresh("summarize"))
        rows.append(("cudagraph-tidy summarize", w, c, line))
        if args.artifact == "default":
            summaries = written
        outs = []
        for k in range(1, args.shards + 1):
            out = os.path.join(work, "shard%d.txt" % k)
            w, c, line = timed([driver, "-p", args.db, "--jobs", j, "--format=text-plain",
                                "--shard", "%d/%d" % (k, args.shards), "--summaries",
                                summaries], fresh("shard%d" % k), out)
            rows.append(("  shard %d/%d (%.2f/N wall, %.2f/N CPU of the default run)" %
                         (k, args.shards, w / whole * args.shards, c / whole_cpu * args.shards),
                         w, c, line))
            outs += open(out).read().splitlines()
        shard_same = sorted(outs) == sorted(open(default_out).read().splitlines())
    for name, w, c, line in rows:
        print("%-58s %8.1f s wall %8.1f s CPU  %s" % (name, w, c, line))
    for r, ratio in enumerate(ratios):
        print("default / run-clang-tidy wall%s: %.2fx (issue 37: <= 1.15x)" %
              ("" if len(ratios) == 1 else " [round %d]" % (r + 1), ratio))
    if len(ratios) > 1:
        print("median over %d rounds: %.2fx" % (len(ratios), sorted(ratios)[len(ratios) // 2]))
    print("findings of the default run identical to --cross-tu-summaries=off: %s" % same)
    if shard_same is not None:
        print("findings of the shards together identical to the default run: %s" % shard_same)
    shutil.rmtree(work)
    return 0 if same and shard_same is not False else 1


if __name__ == "__main__":
    sys.exit(main())
