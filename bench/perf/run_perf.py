#!/usr/bin/env python3
"""What the cudagraph-* checks and the preamble cache cost, on real CUDA code.

  bench/perf/run_perf.py [--build build] [--rounds 5] [--skip-ggml]
                         [--only ggml-cuda.cu,graphMemoryNodes.cu,transpose.cu]
                         [--instructions] [--plugin-only]
  bench/perf/run_perf.py --driver-instructions --only ggml-cuda.cu,transpose.cu

Needs the sources on this machine (never committed): /work/ggml
(src/ggml-cuda/ggml-cuda.cu) and /work/cuda-samples (three graph samples and
transpose); pass --ggml / --samples for other places.

0. The plugin: clang-tidy-22 -load CudaGraphTidy.so with every cudagraph-*
   check against clang-tidy-22 with one trivial check, alternated, the
   median of the per-pair ratios; with --instructions also the ratio of
   the instructions both execute (valgrind), which a loaded or noisy
   machine does not change. With --driver-instructions: only the
   instructions of the driver (all cudagraph-* checks, --preamble-cache=off
   --result-cache=off, every process it starts or forks counted) against
   those of the plugin's trivial-check run, the comparison issue 23 asks for.
1. Paired runs, per translation unit: the driver with all cudagraph-* checks
   against the driver with one trivial clang-tidy check (misc-misplaced-const),
   A and B alternated, `rounds` pairs; the median of the per-pair ratios.
   "cold": --no-preamble-cache, every run parses everything. "warm": the
   preamble cache populated first, then both sides read it.
2. The warm one-file run a pre-commit hook makes, on each file of examples/:
   the driver, and the published hook script, with the cache warm (median of
   `rounds` runs), the same file with the cache off, and cold (an empty
   cache folder each round: what the first run of a key costs).
3. The checks' own time: clang-tidy-22 -load CudaGraphTidy.so
   --enable-check-profile, the sum of the cudagraph-* rows (matchers and
   callbacks) against the wall time of the whole run.
4. Plugin load: clang-tidy-22 -load CudaGraphTidy.so --list-checks against
   clang-tidy-22 --list-checks (median of `rounds`).

All figures are wall-clock seconds on whatever machine runs this; compare
only runs made side by side.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CUDA = "/usr/local/cuda"
CUDA_ARGS = ["-x", "cuda", "--cuda-host-only", "--cuda-path=" + CUDA,
             "-Wno-unknown-cuda-version", "-std=c++17", "-I" + CUDA + "/include/cccl"]
TRIVIAL = "-cudagraph-*,misc-misplaced-const"


def units(ggml, samples, skip_ggml):
    """(name, cwd, file, extra flags)"""
    out = []
    if not skip_ggml:
        d = os.path.join(ggml, "src", "ggml-cuda")
        out.append(("ggml-cuda.cu", d, "ggml-cuda.cu",
                    ["-DGGML_CUDA_USE_GRAPHS", "-I../../include", "-I..", "-I."]))
    common = ["-I" + os.path.join(samples, "Common")]
    for rel in ["Samples/3_CUDA_Features/simpleCudaGraphs/simpleCudaGraphs.cu",
                "Samples/3_CUDA_Features/graphMemoryNodes/graphMemoryNodes.cu",
                "Samples/4_CUDA_Libraries/conjugateGradientCudaGraphs/conjugateGradientCudaGraphs.cu",
                "Samples/6_Performance/transpose/transpose.cu"]:
        path = os.path.join(samples, rel)
        out.append((os.path.basename(rel), os.path.dirname(path), os.path.basename(path), common))
    return out


def timed(cmd, cwd, env):
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t
    # 2: a unit with compiler errors (transpose.cu's host-side max() under
    # clang) is still parsed and analysed as far as it goes; timed as is.
    if r.returncode not in (0, 1, 2):
        sys.exit("failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stderr[-2000:]))
    return dt


def driver_cmd(driver, f, flags, checks, cache):
    cmd = [driver, "--quiet", "--preamble-cache=" + ("on" if cache else "off")]
    if checks:
        cmd.append("--checks=" + checks)
    return cmd + [f, "--"] + CUDA_ARGS + flags


def paired(driver, unit, cache, rounds, env):
    name, cwd, f, flags = unit
    a_cmd = driver_cmd(driver, f, flags, "", cache)
    b_cmd = driver_cmd(driver, f, flags, TRIVIAL, cache)
    if cache:  # populate both sides' entries (same preamble, same key)
        timed(a_cmd, cwd, env)
        timed(b_cmd, cwd, env)
    return alternated(a_cmd, b_cmd, cwd, rounds, env)


def alternated(a_cmd, b_cmd, cwd, rounds, env):
    """`rounds` pairs of A and B: the median per-pair ratio A/B and the
    median seconds of each side."""
    ratios, a_times, b_times = [], [], []
    for i in range(rounds):
        # Alternate which side goes first so drift hits both equally.
        if i % 2:
            b = timed(b_cmd, cwd, env); a = timed(a_cmd, cwd, env)
        else:
            a = timed(a_cmd, cwd, env); b = timed(b_cmd, cwd, env)
        ratios.append(a / b)
        a_times.append(a)
        b_times.append(b)
    return statistics.median(ratios), statistics.median(a_times), statistics.median(b_times)


def plugin_cmd(clang_tidy, plugin, f, flags, all_checks):
    checks = ["-load", plugin, "-checks=-*,cudagraph-*"] if all_checks else \
             ["-checks=-*,misc-misplaced-const"]
    return [clang_tidy] + checks + [f, "--"] + CUDA_ARGS + flags


def paired_plugin(clang_tidy, plugin, unit, rounds, env):
    """clang-tidy-22 with the plugin (all cudagraph-* checks) against
    clang-tidy-22 with one trivial check, alternated: the median per-pair
    ratio and the median seconds of each side."""
    name, cwd, f, flags = unit
    a_cmd = plugin_cmd(clang_tidy, plugin, f, flags, True)
    b_cmd = plugin_cmd(clang_tidy, plugin, f, flags, False)
    return alternated(a_cmd, b_cmd, cwd, rounds, env)


def instructions(cmd, cwd, env):
    """Instructions the command executes (valgrind --tool=callgrind): the
    same on a loaded machine as on a quiet one. Every process counts: those
    it starts (--trace-children) and those it forks (valgrind follows a
    fork by itself); each prints its own total."""
    out_dir = tempfile.mkdtemp(prefix="cgt-perf-cg-")
    r = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                        "--callgrind-out-file=" + os.path.join(out_dir, "cg.%p")] + cmd,
                       cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    shutil.rmtree(out_dir, ignore_errors=True)
    counts = [int(line.split("refs:")[1].strip().replace(",", ""))
              for line in r.stderr.splitlines() if "refs:" in line]
    if not counts:
        sys.exit("valgrind gave no instruction count for: " + " ".join(cmd))
    return sum(counts)


def driver_instructions(driver, clang_tidy, units, env):
    """The driver's instructions, worker included, against the plugin's
    trivial check: what a user pays over running clang-tidy at all."""
    print("## driver (all cudagraph-*, caches off) / clang-tidy-22 misc-misplaced-const, "
          "instructions")
    for name, cwd, f, flags in units:
        a = instructions([driver, "--quiet", "--preamble-cache=off", "--result-cache=off",
                          f, "--"] + CUDA_ARGS + flags, cwd, env)
        b = instructions(plugin_cmd(clang_tidy, None, f, flags, False), cwd, env)
        print("%-34s %.3fx (%.3fG / %.3fG)" % (name, a / b, a / 1e9, b / 1e9))
        sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ggml", default="/work/ggml")
    ap.add_argument("--samples", default="/work/cuda-samples")
    ap.add_argument("--skip-ggml", action="store_true")
    ap.add_argument("--only", default="",
                    help="comma-separated unit names to time (default: all)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions with valgrind (plugin, both sides)")
    ap.add_argument("--driver-instructions", action="store_true",
                    help="only the driver's instructions against the plugin's trivial check")
    ap.add_argument("--plugin-only", action="store_true",
                    help="only the plugin pairs (and --instructions)")
    args = ap.parse_args()
    driver = os.path.join(args.build, "bin", "cudagraph-tidy")
    plugin = os.path.join(args.build, "lib", "CudaGraphTidy.so")
    clang_tidy = shutil.which("clang-tidy-22") or "/usr/lib/llvm-22/bin/clang-tidy"
    cache_home = tempfile.mkdtemp(prefix="cgt-perf-cache-")
    env = dict(os.environ, XDG_CACHE_HOME=cache_home, CUDAGRAPH_TIDY=driver)
    env.pop("CUDAGRAPH_TIDY_BUILD_DIR", None)
    picked = [u for u in units(args.ggml, args.samples, args.skip_ggml)
              if not args.only or u[0] in args.only.split(",")]
    try:
        if args.driver_instructions:
            driver_instructions(driver, clang_tidy, picked, env)
            return
        print("## plugin: clang-tidy-22 -load CudaGraphTidy.so (all cudagraph-*) / "
              "clang-tidy-22 misc-misplaced-const (median of %d pairs)" % args.rounds)
        print("%-34s %8s %8s %8s %12s" % ("unit", "ratio", "all s", "triv s", "instructions"))
        for u in picked:
            r = paired_plugin(clang_tidy, plugin, u, args.rounds, env)
            ins = ""
            if args.instructions:
                name, cwd, f, flags = u
                a = instructions(plugin_cmd(clang_tidy, plugin, f, flags, True), cwd, env)
                b = instructions(plugin_cmd(clang_tidy, plugin, f, flags, False), cwd, env)
                ins = "%.3fx (%.2fG / %.2fG)" % (a / b, a / 1e9, b / 1e9)
            print("%-34s %7.3fx %8.3f %8.3f %s" % ((u[0],) + r + (ins,)))
            sys.stdout.flush()
        if args.plugin_only:
            return
        print("\n## paired runs: all cudagraph-* checks / one trivial check (median of %d pairs)"
              % args.rounds)
        print("%-34s %8s %8s %8s %8s %8s %8s" % ("unit", "cold", "all s", "triv s",
                                               "warm", "all s", "triv s"))
        cold_ratios = []
        warm_ratios = []
        for u in picked:
            c = paired(driver, u, False, args.rounds, env)
            w = paired(driver, u, True, args.rounds, env)
            cold_ratios.append(c[0])
            warm_ratios.append(w[0])
            print("%-34s %7.3fx %8.3f %8.3f %7.3fx %8.3f %8.3f" % ((u[0],) + c + w))
            sys.stdout.flush()
        print("%-34s %7.3fx %17s %7.3fx" % ("median over units", statistics.median(cold_ratios), "",
                                           statistics.median(warm_ratios)))

        print("\n## one-file pre-commit run on examples/ (median of %d runs)" % args.rounds)
        print("%-20s %10s %10s %10s %10s" % ("file", "no cache", "cold", "warm", "hook warm"))
        hook = os.path.join(ROOT, "scripts", "pre-commit-cudagraph-tidy.sh")
        work = tempfile.mkdtemp(prefix="cgt-perf-repo-")
        subprocess.run(["git", "init", "-q", work], check=True)
        for ex in sorted(os.listdir(os.path.join(ROOT, "examples"))):
            if not ex.endswith(".cu"):
                continue
            shutil.copy(os.path.join(ROOT, "examples", ex), work)
            base = [driver, "--quiet", ex, "--"] + CUDA_ARGS
            off = statistics.median(timed(base[:1] + ["--preamble-cache=off"] + base[1:], work, env)
                                    for _ in range(args.rounds))
            # Cold: each round on an empty cache folder ("auto" marks the
            # key on its first miss and parses as without the cache).
            colds = []
            for _ in range(args.rounds):
                fresh = tempfile.mkdtemp(prefix="cgt-perf-cold-")
                colds.append(timed(base, work, dict(env, XDG_CACHE_HOME=fresh)))
                shutil.rmtree(fresh, ignore_errors=True)
            cold = statistics.median(colds)
            timed(base, work, env)  # first miss: marks the key
            timed(base, work, env)  # second miss: builds the entry
            warm = statistics.median(timed(base, work, env) for _ in range(args.rounds))
            hook_cmd = ["bash", hook, ex]
            timed(hook_cmd, work, env)
            timed(hook_cmd, work, env)
            hook_warm = statistics.median(timed(hook_cmd, work, env) for _ in range(args.rounds))
            print("%-20s %9.3fs %9.3fs %9.3fs %9.3fs" % (ex, off, cold, warm, hook_warm))
            sys.stdout.flush()
        shutil.rmtree(work, ignore_errors=True)

        print("\n## the checks' own time (clang-tidy-22 --enable-check-profile, one run)")
        for u in units(args.ggml, args.samples, args.skip_ggml):
            name, cwd, f, flags = u
            cmd = [clang_tidy, "-load", plugin, "-checks=-*,cudagraph-*",
                   "--enable-check-profile", f, "--"] + CUDA_ARGS + flags
            t = time.perf_counter()
            r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
            wall = time.perf_counter() - t
            checks = 0.0
            for line in (r.stdout + r.stderr).splitlines():
                parts = line.split()
                if len(parts) >= 9 and parts[-1].startswith("cudagraph-"):
                    try:
                        checks += float(parts[6])  # wall-time column
                    except ValueError:
                        pass
            print("%-34s checks %.3f s of %.3f s (%.1f%%)" % (name, checks, wall, 100 * checks / wall))
            sys.stdout.flush()

        print("\n## plugin load (median of %d runs)" % args.rounds)
        with_plugin = statistics.median(
            timed([clang_tidy, "-load", plugin, "--list-checks", "-checks=-*,cudagraph-*"], ROOT, env)
            for _ in range(args.rounds))
        without = statistics.median(
            timed([clang_tidy, "--list-checks", "-checks=-*,misc-misplaced-const"], ROOT, env)
            for _ in range(args.rounds))
        print("clang-tidy-22 --list-checks: %.3f s with -load, %.3f s without: plugin load %.3f s"
              % (with_plugin, without, with_plugin - without))
    finally:
        shutil.rmtree(cache_home, ignore_errors=True)


if __name__ == "__main__":
    main()
