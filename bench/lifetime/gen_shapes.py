#!/usr/bin/env python3
"""Generates CUDA host code of the shapes that break path-sensitive lifetime
analyses, at any size, correct or with exactly one planted leak.

A shape is a pattern scaled by one number:

  groups N    N sequential instantiate / check / launch / destroy groups, each
              into its own variable, each with an early return on error
  flags N     N independent flag-guarded acquisitions (`if (o.f3) instantiate`)
              whose flag-guarded releases come after unrelated branches
  branches N  one flag-guarded exec across N unrelated branches
  loops N     one exec launched inside N nested loops
  mixed N     a benchmark harness: optional graph, optional timing events,
              N verbose/logging branches, N flag pairs, a loop, N/4 groups
  owners N    a class owning N flag-guarded streams and events and an exec
              that capture() re-instantiates (bug: without releasing it
              first, while reset() is what releases it), N unrelated branches,
              and a user that calls capture() in a loop on one object
  cstruct N   a C context with N buffers, an init/free pair (bug: the free
              function forgets one buffer)

With --bug the function keeps the same shape but leaks one exec, on the line
marked `// LEAK`; the analysis must report exactly that line. Without it the
code is correct and the analysis must stay silent, at every size.

Usage: gen_shapes.py SHAPE N [--bug] [--functions-upto] > file.cu
  --functions-upto   one function per size 1..N (one parse for many sizes)
"""
import argparse

HEADER = """#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \\
    fprintf(stderr, "%s\\n", cudaGetErrorString(e_)); return e_; } } while (0)
struct Opts {
  bool use_graph, timing, verbose, trace;
  bool f[512];
  int iters;
};
"""


class Out:
    def __init__(self):
        self.lines = []

    def add(self, text):
        self.lines.extend(text.split("\n"))


def groups(o, name, n, bug):
    o.add(f"cudaError_t {name}(cudaGraph_t g, cudaStream_t s) {{")
    leak_at = n // 2
    for i in range(n):
        o.add(f"  cudaGraphExec_t e{i};")
        o.add(f"  CK(cudaGraphInstantiate(&e{i}, g, 0));" + (" // LEAK" if bug and i == leak_at else ""))
        o.add(f"  if (cudaGraphLaunch(e{i}, s) != cudaSuccess) {{ cudaGraphExecDestroy(e{i}); return cudaErrorUnknown; }}")
        if not (bug and i == leak_at):
            o.add(f"  cudaGraphExecDestroy(e{i});")
    o.add("  return cudaSuccess;\n}")


def flags(o, name, n, bug):
    o.add(f"void {name}(const Opts &o, cudaGraph_t g, cudaStream_t s, const int *v) {{")
    for i in range(n):
        o.add(f"  cudaGraphExec_t e{i} = nullptr;")
    for i in range(n):
        mark = " // LEAK" if bug and i == n // 2 else ""
        o.add(f"  if (o.f[{i}]) cudaGraphInstantiate(&e{i}, g, 0);{mark}")
        o.add(f"  if (v[{i}] > 3) printf(\"v%d\\n\", v[{i}]);")
    o.add("  if (o.verbose) printf(\"launching\\n\");")
    for i in range(n):
        o.add(f"  if (o.f[{i}]) cudaGraphLaunch(e{i}, s);")
    o.add("  if (o.trace) printf(\"done\\n\");")
    for i in reversed(range(n)):
        if bug and i == n // 2:
            continue
        o.add(f"  if (o.f[{i}]) cudaGraphExecDestroy(e{i});")
    o.add("}")


def branches(o, name, n, bug):
    o.add(f"void {name}(const Opts &o, cudaGraph_t g, cudaStream_t s, const int *v) {{")
    o.add("  cudaGraphExec_t exec = nullptr;")
    o.add("  if (o.use_graph) cudaGraphInstantiate(&exec, g, 0);" + (" // LEAK" if bug else ""))
    for i in range(n):
        if i % 3 == 0:
            o.add(f"  if (v[{i}] > 3) printf(\"v%d\\n\", v[{i}]);")
        elif i % 3 == 1:
            o.add(f"  if (o.verbose && v[{i}]) printf(\"step {i}\\n\"); else if (o.trace) puts(\"t\");")
        else:
            o.add(f"  if (o.use_graph) cudaGraphLaunch(exec, s); else if (v[{i}]) cudaStreamSynchronize(s);")
    # The bug: released under another flag than it was acquired under.
    o.add("  if (%s) cudaGraphExecDestroy(exec);" % ("o.timing" if bug else "o.use_graph"))
    o.add("}")


def loops(o, name, n, bug):
    o.add(f"cudaError_t {name}(cudaGraph_t g, cudaStream_t s, int m) {{")
    o.add("  cudaGraphExec_t exec;")
    o.add("  CK(cudaGraphInstantiate(&exec, g, 0));" + (" // LEAK" if bug else ""))
    for i in range(n):
        o.add("  " * (i + 1) + f"for (int i{i} = 0; i{i} < m; ++i{i}) {{")
    inner = "  " * (n + 1)
    o.add(inner + "if (cudaGraphLaunch(exec, s) != cudaSuccess) {")
    if not bug:
        o.add(inner + "  cudaGraphExecDestroy(exec);")
    o.add(inner + "  return cudaErrorUnknown;")
    o.add(inner + "}")
    for i in reversed(range(n)):
        o.add("  " * (i + 1) + "}")
    o.add("  cudaGraphExecDestroy(exec);")
    o.add("  return cudaSuccess;\n}")


def mixed(o, name, n, bug):
    o.add(f"cudaError_t {name}(const Opts &o, cudaGraph_t g, cudaStream_t s, const int *v) {{")
    o.add("  cudaGraphExec_t exec = nullptr;")
    o.add("  cudaEvent_t start = nullptr, stop = nullptr;")
    o.add("  if (o.use_graph) CK(cudaGraphInstantiate(&exec, g, 0));" + (" // LEAK" if bug else ""))
    o.add("  if (o.timing) { cudaEventCreate(&start); cudaEventCreate(&stop); }")
    for i in range(n):
        o.add(f"  cudaGraphExec_t x{i} = nullptr;")
        o.add(f"  if (o.f[{i}]) cudaGraphInstantiate(&x{i}, g, 0);")
        o.add(f"  if (o.verbose) printf(\"setup %d\\n\", {i});")
    for i in range(max(1, n // 4)):
        o.add(f"  cudaGraphExec_t y{i};")
        o.add(f"  if (cudaGraphInstantiate(&y{i}, g, 0) == cudaSuccess) {{ cudaGraphLaunch(y{i}, s); cudaGraphExecDestroy(y{i}); }}")
    o.add("  if (o.timing) cudaEventRecord(start, s);")
    o.add("  for (int it = 0; it < o.iters; ++it) {")
    o.add("    if (o.use_graph) cudaGraphLaunch(exec, s);")
    o.add("    else if (o.trace) printf(\"eager %d\\n\", it);")
    for i in range(n):
        o.add(f"    if (o.f[{i}] && v[{i}] > it) cudaGraphLaunch(x{i}, s);")
    o.add("  }")
    o.add("  if (o.timing) { cudaEventRecord(stop, s); cudaEventSynchronize(stop); }")
    o.add("  if (o.verbose) printf(\"done\\n\");")
    for i in range(n):
        o.add(f"  if (o.f[{i}]) cudaGraphExecDestroy(x{i});")
    o.add("  if (o.timing) { cudaEventDestroy(start); cudaEventDestroy(stop); }")
    o.add("  if (%s) cudaGraphExecDestroy(exec);" % ("o.verbose" if bug else "o.use_graph"))
    o.add("  return cudaSuccess;\n}")


def owners(o, name, n, bug):
    o.add(f"class {name} {{\n public:")
    o.add(f"  explicit {name}(const Opts &o) : o_(o) {{")
    for i in range(n):
        o.add(f"    if (o_.f[{i}]) cudaStreamCreate(&s{i});" if i % 2 == 0 else
              f"    cudaEventCreate(&e{i});")
    o.add("    if (o_.verbose) printf(\"ctor\\n\");\n  }")
    o.add(f"  ~{name}() {{\n    if (o_.trace) printf(\"dtor\\n\");")
    for i in range(n):
        o.add(f"    if (s{i}) cudaStreamDestroy(s{i});" if i % 2 == 0 else
              f"    cudaEventDestroy(e{i});")
    o.add("    if (exec_) cudaGraphExecDestroy(exec_);\n  }")
    o.add(f"  {name}(const {name} &) = delete;\n  {name} &operator=(const {name} &) = delete;")
    o.add("  void capture(cudaGraph_t g, const int *v) {")
    for i in range(n):
        o.add(f"    if (v[{i}] > 3) printf(\"v%d\\n\", v[{i}]);")
    if not bug:
        o.add("    if (exec_) cudaGraphExecDestroy(exec_);")
    o.add("    cudaGraphInstantiate(&exec_, g, 0);" + (" // LEAK" if bug else "") + "\n  }")
    o.add("  void reset() {\n    if (exec_) cudaGraphExecDestroy(exec_);\n    exec_ = nullptr;\n  }")
    o.add("  void run(cudaStream_t s) {\n    if (exec_) cudaGraphLaunch(exec_, s);")
    for i in range(1, n, 2):
        o.add(f"    if (o_.timing) cudaEventRecord(e{i}, s);")
    o.add("  }\n private:\n  Opts o_;")
    for i in range(n):
        o.add(f"  cudaStream_t s{i} = nullptr;" if i % 2 == 0 else f"  cudaEvent_t e{i} = nullptr;")
    o.add("  cudaGraphExec_t exec_ = nullptr;\n};")
    # The user that makes the protocol matter: capture() again on one object
    # (an overwrite is reported only where the file shows the sequence).
    o.add(f"void use_{name}(const Opts &o, cudaGraph_t g, const int *v, cudaStream_t s) {{")
    o.add(f"  {name} r(o);\n  for (int i = 0; i < o.iters; ++i) {{\n    r.capture(g, v);\n    r.run(s);\n  }}\n}}")


def cstruct(o, name, n, bug):
    o.add("typedef struct {\n  cudaStream_t s;")
    for i in range(n):
        o.add(f"  float *b{i};")
    o.add(f"}} {name}_t;")
    o.add(f"int {name}_init({name}_t *c, size_t bytes, const Opts *o) {{")
    o.add("  if (cudaStreamCreate(&c->s) != cudaSuccess) return -1;")
    for i in range(n):
        mark = " // LEAK" if bug and i == n // 2 else ""
        o.add(f"  if (cudaMalloc((void **)&c->b{i}, bytes) != cudaSuccess) return -1;{mark}")
        o.add(f"  if (o->f[{i}]) cudaMemsetAsync(c->b{i}, 0, bytes, c->s);")
    o.add("  if (o->verbose) printf(\"init\\n\");\n  return 0;\n}")
    o.add(f"void {name}_free({name}_t *c) {{\n  cudaStreamDestroy(c->s);")
    for i in range(n):
        if not (bug and i == n // 2):
            o.add(f"  cudaFree(c->b{i});")
    o.add("}")


SHAPES = {"groups": groups, "flags": flags, "branches": branches, "loops": loops,
          "mixed": mixed, "owners": owners, "cstruct": cstruct}

LIFETIME_CHECKS = ("cudagraph-unpaired-instantiate,cudagraph-handle-leak,"
                   "cudagraph-capture-without-destroy,cudagraph-use-after-dealloc,"
                   "cudagraph-mismatched-dealloc")


def checks(shape):
    """The checks a shape is judged with: the ownership shapes plant findings
    of several checks and must be silent for all of them."""
    return LIFETIME_CHECKS if shape in ("owners", "cstruct") else "cudagraph-unpaired-instantiate"


def generate(shape, n, bug, upto):
    o = Out()
    o.add(HEADER)
    sizes = range(1, n + 1) if upto else [n]
    for size in sizes:
        SHAPES[shape](o, f"{shape}_{size}", size, bug)
    return "\n".join(o.lines) + "\n"


def leak_lines(text):
    return [i for i, line in enumerate(text.split("\n"), 1) if line.endswith("// LEAK")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shape", choices=sorted(SHAPES))
    ap.add_argument("n", type=int)
    ap.add_argument("--bug", action="store_true")
    ap.add_argument("--functions-upto", action="store_true")
    a = ap.parse_args()
    print(generate(a.shape, a.n, a.bug, a.functions_upto), end="")


if __name__ == "__main__":
    main()
