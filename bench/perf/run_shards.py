#!/usr/bin/env python3
"""How evenly `--shard k/N --summaries FILE` divides a project (issue 37):
the deal by the artifact's unit costs against round-robin, side by side.

  python3 bench/perf/run_shards.py --build build --db DIR [--shards 4] [--rounds 2] [--jobs 2]

One default run writes the artifact (--write-summaries; its unit costs
include the checks) and is the whole run the shards are compared with. A
copy without `unitSeconds` makes the shards deal round-robin. Each round
runs the N shards of both deals, alternating which deal goes first, each
shard with an empty cache. Prints each shard's wall and CPU (user + system of
all its processes), and per deal the worst shard as a fraction of 1/N of
the whole run and of the shards' own total (the balance alone). Exits 1
when a deal's shards together do not report what the whole run reports."""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_project import timed  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--db", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    driver = os.path.abspath(os.path.join(args.build, "bin", "cudagraph-tidy"))
    work = tempfile.mkdtemp(prefix="cgt-shard-bench-")
    fresh = lambda name: tempfile.mkdtemp(prefix=name + "-", dir=work)
    j, n = str(args.jobs), args.shards
    costed = os.path.join(work, "summaries.json")
    whole_out = os.path.join(work, "whole.txt")
    whole_w, whole_c, _ = timed([driver, "-p", args.db, "--jobs", j, "--format=text-plain",
                                 "--write-summaries", costed], fresh("whole"), whole_out)
    print("whole run: %.1f s wall, %.1f s CPU" % (whole_w, whole_c))
    doc = json.load(open(costed))
    doc.pop("unitSeconds", None)
    plain = os.path.join(work, "plain.json")
    json.dump(doc, open(plain, "w"))
    whole_lines = sorted(open(whole_out).read().splitlines())
    ok = True
    for r in range(args.rounds):
        deals = [("by cost", costed), ("round-robin", plain)]
        for name, artifact in (deals if r % 2 == 0 else deals[::-1]):
            cpu, lines = [], []
            for k in range(1, n + 1):
                out = os.path.join(work, "s.txt")
                w, c, line = timed([driver, "-p", args.db, "--jobs", j, "--format=text-plain",
                                    "--shard", "%d/%d" % (k, n), "--summaries", artifact],
                                   fresh("shard"), out)
                cpu.append(c)
                lines += open(out).read().splitlines()
                print("  round %d %-11s shard %d/%d: %6.1f s wall %6.1f s CPU  %s" %
                      (r + 1, name, k, n, w, c, line))
            same = sorted(lines) == whole_lines
            ok &= same
            print("round %d %-11s worst shard %.2f/N of the whole run's CPU, %.2f/N of "
                  "the shards' total (spread %.1f s); findings identical: %s" %
                  (r + 1, name, max(cpu) * n / whole_c, max(cpu) * n / sum(cpu),
                   max(cpu) - min(cpu), same))
    shutil.rmtree(work)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
