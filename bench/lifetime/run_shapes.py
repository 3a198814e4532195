#!/usr/bin/env python3
"""Cost and answers of the lifetime engine on generated shapes, by size.

For every shape of gen_shapes.py and every size, generates one function (the
correct version), runs clang-tidy-22 on it twice: with a trivial check
(parsing and matching only) and with `cudagraph-unpaired-instantiate`, and
prints wall time and peak memory of both, their ratio, and the number of
findings (which must be 0: the code is correct). With --bug it also runs the
planted-leak version and checks that exactly the planted line is reported.

Usage: run_shapes.py [--build DIR] [--shape S ...] [--sizes 100,500,...] [--bug]
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
import gen_shapes  # noqa: E402

CLANG_TIDY = "/usr/lib/llvm-22/bin/clang-tidy"
TRIVIAL = "-*,misc-unused-alias-decls"
CHECK = "-*,cudagraph-unpaired-instantiate"
DEFAULT_SIZES = {
    "groups": [100, 500, 1000, 2500, 5000],
    "flags": [1, 10, 50, 100, 300],
    "branches": [10, 100, 500, 1000, 2000],
    "loops": [10, 25, 50, 100],
    "mixed": [5, 20, 50, 100, 200],
}


def run(cmd):
    """Wall seconds, peak RSS in MiB and stdout+stderr of one command."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.monotonic() - start, usage.ru_maxrss / 1024.0, out.decode(errors="replace")


def tidy(build, checks, path):
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    return run([CLANG_TIDY, f"-load={build}/lib/CudaGraphTidy.so", f"-checks={checks}",
                "--quiet", path, "--", "-x", "cuda", "--cuda-host-only", f"--cuda-path={cuda}",
                "-Wno-unknown-cuda-version", "-std=c++17"])


def warned_lines(out, path):
    pat = re.compile(re.escape(path) + r":(\d+):\d+: warning: .*\[cudagraph-")
    return sorted({int(m.group(1)) for m in pat.finditer(out)})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(HERE, "..", "..", "build"))
    ap.add_argument("--shape", action="append", choices=sorted(gen_shapes.SHAPES))
    ap.add_argument("--sizes", help="comma-separated sizes for every chosen shape")
    ap.add_argument("--bug", action="store_true", help="also check the planted-leak version")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    wrong = 0
    print(f"{'shape':9} {'size':>5} {'lines':>6} | {'trivial s':>9} {'MiB':>6} | "
          f"{'lifetime s':>10} {'MiB':>6} | {'time x':>6} {'mem x':>6} | findings")
    with tempfile.TemporaryDirectory() as tmp:
        for shape in a.shape or list(DEFAULT_SIZES):
            sizes = [int(s) for s in a.sizes.split(",")] if a.sizes else DEFAULT_SIZES[shape]
            for n in sizes:
                path = os.path.join(tmp, f"{shape}_{n}.cu")
                text = gen_shapes.generate(shape, n, False, False)
                with open(path, "w") as f:
                    f.write(text)
                t0, m0, _ = tidy(build, TRIVIAL, path)
                t1, m1, out = tidy(build, CHECK, path)
                found = warned_lines(out, path)
                verdict = "ok" if not found else f"FALSE ALARM at {found}"
                if a.bug:
                    bug = gen_shapes.generate(shape, n, True, False)
                    with open(path, "w") as f:
                        f.write(bug)
                    _, _, bout = tidy(build, CHECK, path)
                    want = gen_shapes.leak_lines(bug)
                    got = warned_lines(bout, path)
                    verdict += ", bug found" if got == want else f", BUG: want {want} got {got}"
                wrong += "ok" not in verdict or "BUG" in verdict
                print(f"{shape:9} {n:>5} {text.count(chr(10)):>6} | {t0:9.2f} {m0:6.0f} | "
                      f"{t1:10.2f} {m1:6.0f} | {t1 / t0:6.2f} {m1 / m0:6.2f} | {verdict}",
                      flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
