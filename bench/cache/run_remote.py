#!/usr/bin/env python3
"""A cache CI machines share (issue 37 item 3): one run fills a remote cache
server, a second run with an EMPTY local cache folder (a second CI machine)
replays from it. Measures the share of units the second run replays from the
server and whether its report is byte-identical to the first run's.

  bench/cache/run_remote.py --build build --project ggml --src /tmp/ggml [--files N]

The server is Debian's nginx with its WebDAV module on 127.0.0.1, started as
test/driver/remote-cache.test starts it (test/driver/Inputs/remote-cache/
with_server.py), its root in a temporary folder. The units and flags are
run_cache.py's. Both runs use the same source paths (the result keys name
the units by absolute path: a CI fleet checks out at one path), the same
home cache folder path (emptied between the runs: the nvcc compatibility
header, which the compile commands include, is written there), the same
binary, --jobs and the default cross-file summaries; the preamble cache is
off, so that the second run's time is the remote cache's alone.

Prints one line per run: seconds, the unit cache's --stats lines, and for the
second run the replayed share and whether the text report is identical.
--reference also makes a run with no cache at all and compares both with it.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "driver", "Inputs", "remote-cache"))
from run_cache import project_files, write_db, same  # noqa: E402
from with_server import start_nginx  # noqa: E402


def run(driver, db, cache, jobs, out, extra, xdg):
    """One run on a fresh machine: `cache` (--cache-dir) and `xdg` (its home
    cache folder, where the nvcc compatibility header goes) start empty."""
    shutil.rmtree(xdg, ignore_errors=True)
    cmd = [driver, "-p", db, "--jobs", str(jobs), "--stats", "--preamble-cache=off",
           "--cache-dir", cache, "--format=text-plain", "-o", out] + extra
    env = dict(os.environ, XDG_CACHE_HOME=xdg)
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       env=env)
    dt = time.perf_counter() - t
    if r.returncode not in (0, 1, 2):
        sys.exit("failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stderr[-3000:]))
    keep = ("cross-file summaries:", "result cache:", "remote cache:",
            "translation unit parses:", "cudagraph-tidy: warning: remote")
    stats = [l if len(l) < 200 else l[:200] + "..." for l in r.stderr.splitlines()
             if l.startswith(keep) and "disagree" not in l]
    return dt, stats, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--project", choices=["ggml", "samples"], required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--files", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--reference", action="store_true",
                    help="also run with no cache and compare both reports with it")
    args = ap.parse_args()
    driver = os.path.abspath(os.path.join(args.build, "bin", "cudagraph-tidy"))
    units = project_files(args.project, args.src, args.files)
    work = tempfile.mkdtemp(prefix="cgt-remote-bench-")
    db, xdg = os.path.join(work, "db"), os.path.join(work, "home-cache")
    write_db(units, db)
    print("%s: %d translation units, --jobs %d" % (args.project, len(units), args.jobs))
    proc, port, folder = start_nginx(os.path.join(work, "server"), junk=False)
    url = ["--result-cache=on", "--cache-url=http://127.0.0.1:%d/ci" % port]
    try:
        first = os.path.join(work, "first.txt")
        dt, stats, _ = run(driver, db, os.path.join(work, "machine-a"), args.jobs, first, url, xdg)
        print("machine A, empty caches, fills the server  %7.2f s  %s" % (dt, " | ".join(stats)))
        cold = dt
        second = os.path.join(work, "second.txt")
        dt, stats, err = run(driver, db, os.path.join(work, "machine-b"), args.jobs, second, url, xdg)
        m = re.search(r"^result cache: (\d+) replayed \((\d+) from the remote cache\), (\d+) "
                      r"analysed", err, re.M)
        remote = int(m.group(2)) if m else 0
        print("machine B, empty local cache, same server  %7.2f s (%.1f%% of A)  %s" % (
            dt, 100 * dt / cold, " | ".join(stats)))
        print("units replayed from the remote cache: %d of %d (%.1f%%); report identical to "
              "machine A's: %s" % (remote, len(units), 100.0 * remote / len(units),
                                   same(first, second)))
    finally:
        proc.terminate()
        proc.wait()
        shutil.rmtree(folder, ignore_errors=True)
    if args.reference:
        ref = os.path.join(work, "reference.txt")
        dt, _, _ = run(driver, db, os.path.join(work, "none"), args.jobs, ref,
                       ["--result-cache=off"], xdg)
        print("no cache at all %7.2f s; report identical: A %s, B %s" % (
            dt, same(ref, first), same(ref, second)))
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
