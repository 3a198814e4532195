#!/usr/bin/env python3
"""Recall of cudagraph-shared-race / cudagraph-barrier-divergence on the CUDA
kernels of the GPUVerify testsuite (mc-imperial/gpuverify `testsuite/CUDA`,
Ms-PL; fetched, never committed).

Each kernel carries its verdict in its header: `//xfail:NOT_ALL_VERIFIED` or
`//pass`, then `//--blockDim=.. --gridDim=..`, then the expected error text.
Counted here:
  * failures: xfail kernels whose expected text names a race ("race") or
    barrier divergence ("barrier", "non-uniform", "divergen"), with a static
    block shape, on a file that declares __shared__ storage (our checks judge
    shared memory only; global-memory races are out of scope and listed
    apart). Found = a warning of either check in the file.
  * pass kernels that declare __shared__: a warning there is a false alarm
    (GPUVerify's lockstep `warpsync/` tests excepted: Volta+ semantics differ,
    see the research note).
The block shape reaches the checks through their BlockShapes option (the
kernels have no launches).

  bench/sharedmem/gpuverify_recall.py TESTSUITE_CUDA_DIR [--build build] [-v]
"""
import argparse, os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHECKS = "-*,cudagraph-shared-race,cudagraph-barrier-divergence"


def header(path):
    lines = open(path, errors="replace").read().split("\n")
    verdict = lines[0].strip().lstrip("/").strip() if lines else ""
    flags = lines[1] if len(lines) > 1 else ""
    expect = []
    for l in lines[2:8]:
        if not l.startswith("//"):
            break
        expect.append(l[2:].strip())
    return verdict, flags, " ".join(expect)


def shape(flags):
    m = re.search(r"--blockDim=(\[[^\]]*\]|\d+)", flags)
    if not m:
        return None
    dims = re.findall(r"\d+", m.group(1))
    if not dims or any(int(d) == 0 for d in dims):
        return None
    return "x".join(dims[:3])


def kernels(src):
    return re.findall(r"__global__\s+void\s+(\w+)\s*\(", src)


def run(tidy, plugin, path, block):
    src = open(path, errors="replace").read()
    names = kernels(src)
    opt = ";".join("%s=%s" % (k, block) for k in names)
    cfg = ("{CheckOptions: {cudagraph-shared-race.BlockShapes: '%s', "
           "cudagraph-barrier-divergence.BlockShapes: '%s'}}" % (opt, opt))
    cmd = [tidy, "-load=" + plugin, "-checks=" + CHECKS, "--config=" + cfg, path, "--",
           "-x", "cuda", "--cuda-host-only", "--cuda-path=/usr/local/cuda",
           "-Wno-unknown-cuda-version", "-std=c++17", "-I/usr/local/cuda/include/cccl", "-include",
           os.path.join(HERE, "gpuverify_prelude.h"), "-Wno-everything"]
    r = subprocess.run(cmd, cwd=os.path.dirname(path), capture_output=True, text=True)
    out = r.stdout + r.stderr
    return re.findall(r"warning: .*\[(cudagraph-[a-z-]+)\]", out), ("error:" in out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("suite")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--plugin", help="default: BUILD/lib/CudaGraphTidy.so")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    plugin = a.plugin or os.path.join(a.build, "lib", "CudaGraphTidy.so")
    tidy = "clang-tidy-22"
    rows = []
    for d, _, files in os.walk(a.suite):
        for f in files:
            if f.endswith(".cu"):
                rows.append(os.path.join(d, f))
    fails, found, passes, alarms, out_of_scope, errors = [], [], [], [], [], []
    for p in sorted(rows):
        verdict, flags, expect = header(p)
        src = open(p, errors="replace").read()
        block = shape(flags)
        rel = os.path.relpath(p, a.suite)
        race_or_div = re.search(r"race|barrier|non-uniform|divergen", expect)
        shared = "__shared__" in src
        if verdict.startswith("xfail:NOT_ALL_VERIFIED") and block:
            if not (race_or_div or "cooperative_groups/fail" in rel or "race" in rel):
                continue
            if not shared and "divergen" not in rel and "barrier" not in expect:
                out_of_scope.append(rel)
                continue
            fails.append(rel)
            w, err = run(tidy, plugin, p, block)
            if err:
                errors.append(rel)
            if w:
                found.append(rel)
            if a.v:
                print("FAIL-CASE %s %s -> %s%s" % (rel, block, w or "silent", " (errors)" if err else ""))
        elif verdict.startswith("pass") and block and shared:
            passes.append(rel)
            w, err = run(tidy, plugin, p, block)
            if w:
                alarms.append((rel, w))
            if a.v:
                print("PASS-CASE %s %s -> %s" % (rel, block, w or "silent"))
    print("race/divergence failures on shared memory with a static block: %d, found %d (%.0f%%)"
          % (len(fails), len(found), 100.0 * len(found) / max(1, len(fails))))
    print("missed: " + ", ".join(sorted(set(fails) - set(found))))
    print("race failures on global memory only (out of scope): %d" % len(out_of_scope))
    print("pass kernels with __shared__: %d, with a warning: %d" % (len(passes), len(alarms)))
    for rel, w in alarms:
        print("  alarm: %s %s" % (rel, sorted(set(w))))
    print("files with parse errors: %d %s" % (len(errors), " ".join(errors)))


if __name__ == "__main__":
    main()
