#!/usr/bin/env python3
"""Runs the lifetime engine on generated shapes at every size up to a bound
and checks its answer: silent on the correct version, exactly the planted
leaks (lines marked `// LEAK`) on the buggy one.

The shapes are those that broke the first engine (bench/lifetime/gen_shapes.py):
independent flag pairs, one resource across many unrelated branches,
sequential groups, nested loops, a benchmark harness. One file per shape and
variant holds a function for every size 1..N, so each size is checked at the
cost of one parse.

Usage: check_shapes.py --driver D --generator G --work DIR -- COMPILER-ARGS...
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys

# shape -> largest size checked in the test suite (bench/ goes further)
SIZES = {"flags": 24, "branches": 60, "groups": 16, "loops": 12, "mixed": 16,
         "owners": 12, "cstruct": 16}


def load_generator(path):
    spec = importlib.util.spec_from_file_location("gen_shapes", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def warned_lines(driver, path, args, checks="cudagraph-unpaired-instantiate"):
    proc = subprocess.run([driver, "--quiet", "--checks=-*," + checks,
                           path, "--"] + args, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"{path}: driver failed ({proc.returncode}):\n{proc.stderr}")
    pat = re.compile(re.escape(os.path.basename(path)) + r":(\d+):\d+: warning: ")
    return sorted({int(m.group(1)) for m in pat.finditer(proc.stdout)})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--generator", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    gen = load_generator(a.generator)
    os.makedirs(a.work, exist_ok=True)
    failures = 0
    for shape, n in SIZES.items():
        for bug in (False, True):
            text = gen.generate(shape, n, bug, True)
            path = os.path.join(a.work, f"{shape}{'_bug' if bug else ''}.cu")
            with open(path, "w") as f:
                f.write(text)
            want = gen.leak_lines(text)
            got = warned_lines(a.driver, path, args, gen.checks(shape))
            if got != want:
                failures += 1
                lines = text.split("\n")
                for no in sorted(set(got) - set(want)):
                    print(f"{path}:{no}: false alarm: {lines[no - 1].strip()}")
                for no in sorted(set(want) - set(got)):
                    print(f"{path}:{no}: missed leak: {lines[no - 1].strip()}")
            else:
                print(f"{shape} 1..{n} {'buggy' if bug else 'correct'}: {len(want)} findings as planted")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
