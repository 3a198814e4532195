#!/usr/bin/env python3
"""Time and peak memory of the checks on the worst cases of gen_worst.py.

For each case, runs clang-tidy-22 with the plugin twice on the generated
file: with a trivial check (parsing and matching only: the floor) and with
every cudagraph-* check and --enable-check-profile. Prints wall seconds and
peak RSS of both, the checks' own wall time from the profile (the lifetime
checks share one analysis per function, so their sum is the lifetime
engine's cost; the shared-memory checks likewise share the interpreter),
and the findings. Then runs the driver with --stats for what the engines
gave up on. Nothing here is timed by the test suite; see README.md.

Usage: run.py [--build DIR] [--case NAME ...] [--size NAME=N ...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_worst  # noqa: E402

CLANG_TIDY = "/usr/lib/llvm-22/bin/clang-tidy"
TRIVIAL = "-*,misc-unused-alias-decls"
CASES = [("stmts", 10000), ("ifs", 2000), ("nested", 200), ("steps", 200), ("kernel", 4),
         ("tu", 50000)]
LIFETIME = {"cudagraph-unpaired-instantiate", "cudagraph-handle-leak",
            "cudagraph-mismatched-dealloc", "cudagraph-use-after-dealloc",
            "cudagraph-capture-without-destroy", "cudagraph-capture-unsafe-call"}
SHARED = {"cudagraph-shared-index-overflow", "cudagraph-shared-bank-conflict"}


def run(cmd):
    """Wall seconds, peak RSS in MiB, exit code and output of one command."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    return (time.monotonic() - start, usage.ru_maxrss / 1024.0,
            os.waitstatus_to_exitcode(status), out.decode(errors="replace"))


def cuda_args():
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    return ["-x", "cuda", "--cuda-host-only", f"--cuda-path={cuda}",
            "-Wno-unknown-cuda-version", "-std=c++17", f"-I{cuda}/include/cccl"]


def profile(out):
    """check name -> wall seconds, from --enable-check-profile's table."""
    times = {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d.]+) \(.*?\)\s+([\d.]+) \(.*?\)\s+([\d.]+) \(.*?\)\s+([\d.]+) \(.*?\)\s+(\S+)$", line)
        if m:
            times[m.group(5)] = float(m.group(4))
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(HERE, "..", "..", "build"))
    ap.add_argument("--case", action="append", choices=[c for c, _ in CASES])
    ap.add_argument("--size", action="append", default=[], help="NAME=N overrides a size")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    sizes = dict(CASES)
    for s in a.size:
        k, v = s.split("=")
        sizes[k] = int(v)
    print(f"{'case':7} {'N':>6} {'lines':>6} | {'trivial s':>9} {'MiB':>5} | {'all s':>6} {'MiB':>5} | "
          f"{'lifetime ms':>11} {'shared ms':>9} | findings | driver --stats")
    with tempfile.TemporaryDirectory() as tmp:
        for case in a.case or [c for c, _ in CASES]:
            n = sizes[case]
            path = os.path.join(tmp, f"{case}_{n}.cu")
            text = gen_worst.generate(case, n)
            with open(path, "w") as f:
                f.write(text)
            t0, m0, _, _ = run([CLANG_TIDY, f"-load={build}/lib/CudaGraphTidy.so",
                                f"-checks={TRIVIAL}", "--quiet", path, "--"] + cuda_args())
            t1, m1, rc, out = run([CLANG_TIDY, f"-load={build}/lib/CudaGraphTidy.so",
                                   "-checks=-*,cudagraph-*", "--enable-check-profile", "--quiet",
                                   path, "--"] + cuda_args())
            prof = profile(out)
            life = 1000 * sum(v for k, v in prof.items() if k in LIFETIME)
            shared = 1000 * sum(v for k, v in prof.items() if k in SHARED)
            findings = len(re.findall(r": warning: .*\[cudagraph-", out))
            _, _, drc, dout = run([f"{build}/bin/cudagraph-tidy", "--stats", "--quiet", path, "--"]
                                  + cuda_args())
            stats = "; ".join(l.strip() for l in dout.splitlines()
                              if l.startswith(("lifetime engine", "shared-memory", "note:")))
            print(f"{case:7} {n:>6} {text.count(chr(10)):>6} | {t0:>9.2f} {m0:>5.0f} | {t1:>6.2f} {m1:>5.0f} | "
                  f"{life:>11.1f} {shared:>9.1f} | {findings:>8} | exit {drc}; {stats}", flush=True)
            if rc not in (0, 1):
                print(out[-2000:])


if __name__ == "__main__":
    main()
