#!/usr/bin/env python3
"""Scores cudagraph-shared-race and cudagraph-barrier-divergence on GPUVerify's CUDA testsuite.

GPUVerify (mc-imperial/gpuverify, Ms-PL) ships each test kernel as `testsuite/CUDA/<name>/kernel.cu`
whose first lines give the expected verdict (`//pass`, `//xfail:NOT_ALL_VERIFIED`, ...) and the
launch (`--blockDim=64 --gridDim=[2,2] -DN=...`). The suite is not in this repository: pass a
local checkout with --testsuite (e.g. a `git archive` of the fetched mirror).

For each kernel, a wrapper unit includes it and launches every non-template `__global__` function
once with the static block shape of its header, from a host function whose parameters are the
kernel's own (so every argument is unknown, as GPUVerify treats them). `gpuverify/annotations.h`,
included first, makes GPUVerify's annotations inert.

Which failing kernels are in scope is the table IN_SCOPE below, read kernel by kernel: GPUVerify
rejects them for a race on `__shared__` memory or for barrier divergence. The other failing
kernels race on global memory (the two checks model shared memory only), fail an assertion, an
invariant or a null-pointer check, or are expected to stop GPUVerify's front end; they are listed
as out of scope. Every kernel GPUVerify verifies (`//pass`) that touches shared memory or a
barrier must be silent.

--strict runs the checks with the options that follow GPUVerify's rules where they are stricter
than the default: SameValueStores (a write-write race of equal values is a race) and
AlignedBarriers (a barrier that some threads skip and then exit is divergence).

    python3 bench/races/run_gpuverify.py --build build --testsuite /tmp/gv/testsuite/CUDA
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKS = "-*,cudagraph-shared-race,cudagraph-barrier-divergence"
CUDA_FLAGS = ["-x", "cuda", "--cuda-host-only", "--cuda-path=/usr/local/cuda",
              "-Wno-unknown-cuda-version", "-std=c++17"]
STRICT = ("{CheckOptions: {cudagraph-shared-race.SameValueStores: true, "
          "cudagraph-barrier-divergence.AlignedBarriers: true}}")
# Failing kernels whose error is a shared-memory race or barrier divergence.
IN_SCOPE = {
    "fail_tests/race_on_shared": "write-write race on a __shared__ array",
    "fail_tests/shared_int": "write-write race on a __shared__ scalar",
    "pointertests/cast": "write-write race through a cast of a __shared__ array",
    "loop_unwind": "write-write race of equal values (B[i] = A[i] by every thread)",
    "cooperative_groups/fail/divergence_thread_block": "block barrier under threadIdx % 2",
    "cooperative_groups/fail/divergence_grid_group": "grid barrier under threadIdx % 2",
    "cooperative_groups/fail/block_divergence_grid_group": "grid barrier under blockIdx % 2",
}
BARRIER = re.compile(r"__syncthreads|\bsynchronize\s*\(|\.sync\s*\(\s*\)|\bsync\s*\(")
KERNEL = re.compile(r"__global__\s+(?:static\s+)?void\s+(\w+)\s*\(([^)]*)\)", re.S)


def parse_header(text):
    lines = text.splitlines()
    expected = lines[0].lstrip("/").strip().lower() if lines else ""
    options = lines[1].lstrip("/") if len(lines) > 1 else ""
    message = "\n".join(l for l in lines[2:6] if l.startswith("//"))
    return expected, options, message


def dim3_of(options, name):
    m = re.search(r"--%s=(\[[^\]]*\]|\d+)" % name, options)
    if not m:
        return None
    value = m.group(1).strip("[]")
    return "dim3(%s)" % ", ".join(p.strip() for p in value.split(","))


def defines_of(options):
    return re.findall(r"(-D\S+)", options)


def kernels_of(text):
    """Non-template kernels with their parameter text (templates have no type to launch)."""
    found = []
    for m in KERNEL.finditer(text):
        before = text[max(0, m.start() - 120):m.start()]
        if re.search(r"template\s*<[^>]*>\s*$", before):
            continue
        found.append((m.group(1), m.group(2).strip()))
    return found


def parameter_names(params):
    if not params or params == "void":
        return []
    names = []
    depth = 0
    current = ""
    for ch in params + ",":
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            decl = re.sub(r"\[[^\]]*\]\s*$", "", current.strip())
            ident = re.search(r"(\w+)\s*$", decl)
            names.append(ident.group(1) if ident else None)
            current = ""
        else:
            current += ch
    return names


def wrapper_source(kernel_path, kernels, grid, block):
    out = ['#include "%s"' % os.path.join(HERE, "gpuverify", "annotations.h"),
           '#include "%s"' % kernel_path]
    for i, (name, params) in enumerate(kernels):
        names = parameter_names(params)
        if None in names:
            continue
        out.append("void gv_launch_%d(%s) { %s<<<%s, %s>>>(%s); }"
                   % (i, params if params else "", name, grid, block, ", ".join(names)))
    return "\n".join(out) + "\n"


def classify(rel, expected, text):
    touches_shared = "__shared__" in text or BARRIER.search(text) is not None
    if expected.startswith("pass"):
        return "must-be-silent" if touches_shared else "no-shared"
    if rel in IN_SCOPE:
        return "must-report"
    if not expected.startswith("xfail:not_all_verified"):
        return "tool-error-expected"
    return "out-of-scope"


def run_one(tidy, kernel_path, rel, config, workdir):
    text = open(kernel_path, errors="replace").read()
    expected, opts, _ = parse_header(text)
    kind = classify(rel, expected, text)
    grid, block = dim3_of(opts, "gridDim"), dim3_of(opts, "blockDim")
    kernels = kernels_of(text)
    if kind in ("no-shared", "tool-error-expected") or not kernels or not block:
        return kind, None, ""
    wrapper = os.path.join(workdir, "wrap_%d.cu" % abs(hash(kernel_path)))
    with open(wrapper, "w") as f:
        f.write(wrapper_source(kernel_path, kernels, grid or "dim3(1)", block))
    cmd = [tidy, "--format=text-plain", "--result-cache=off", "--quiet", "--checks=" + CHECKS]
    cmd += ["--config=" + config] if config else []
    cmd += [wrapper, "--"] + CUDA_FLAGS + ["-I" + os.path.dirname(kernel_path)] + defines_of(opts)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    warnings = [l for l in out.splitlines()
                if "warning:" in l and ("cudagraph-shared-race" in l or "cudagraph-barrier-divergence" in l)]
    if "error:" in out and not warnings:
        return kind, "compile-error", out
    return kind, warnings, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--testsuite", required=True, help="GPUVerify's testsuite/CUDA folder")
    ap.add_argument("--strict", action="store_true", help="SameValueStores and AlignedBarriers on")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    tidy = os.path.join(args.build, "bin", "cudagraph-tidy")
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(args.testsuite) for f in fs if f.endswith(".cu"))
    tally = {}
    with tempfile.TemporaryDirectory() as workdir:
        for path in files:
            rel = os.path.relpath(os.path.dirname(path), args.testsuite)
            kind, warnings, out = run_one(tidy, os.path.abspath(path), rel,
                                          STRICT if args.strict else "", workdir)
            if warnings is None:
                verdict = "skipped"
            elif warnings == "compile-error":
                verdict = "does not compile"
            elif kind == "must-report":
                verdict = "found" if warnings else "MISSED"
            elif kind == "must-be-silent":
                verdict = "FALSE ALARM" if warnings else "silent"
            else:
                verdict = "reported" if warnings else "silent"
            tally.setdefault(kind, {}).setdefault(verdict, 0)
            tally[kind][verdict] += 1
            if kind in ("must-report", "must-be-silent", "out-of-scope") and verdict != "skipped":
                print("%-16s %-18s %s%s" % (kind, verdict, rel,
                                            "  (" + IN_SCOPE[rel] + ")" if rel in IN_SCOPE else ""))
                for w in (warnings if isinstance(warnings, list) else []):
                    print("    " + w.split(HERE)[-1][:200])
                if args.verbose and verdict in ("does not compile",):
                    print(out[-2000:])
    print()
    for kind in sorted(tally):
        print("%-20s %s" % (kind, ", ".join("%s %d" % kv for kv in sorted(tally[kind].items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
