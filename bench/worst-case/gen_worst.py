#!/usr/bin/env python3
"""Generates the worst-case inputs of issue 12, each scaled by one number.

  stmts N    one host function of N statements: graph execs, streams and
             memory acquired, used and released in groups of ten, status
             checks, arithmetic and logging in between (N=10000: the
             "10,000-statement function")
  ifs N      N sequential `if (status != cudaSuccess)` blocks, each on the
             status of a call, with an exec, a stream and a buffer live
             across all of them (N=2000)
  nested N   one exec launched inside N nested loops, each with a break
             and a continue on a status (N=200)
  steps N    the same loops with their counters stepped in turn by
             `++i`, `i += 1` and `i = i + 1` (N=200)
  kernel N   kernels launched with 1024 threads (__launch_bounds__(1024) and
             a <<<.., 1024>>> launch) whose __shared__ accesses sit in N
             nested fully-unrolled loops of 32 iterations each, plus one
             loop of 32*N unrolled iterations (N=4: about 10^6 steps per
             thread if nothing bounds the interpreter)
  tu N       a translation unit of about N lines: many ordinary host
             functions of gen_functions-like shape and small kernels
             (N=50000)

The code is correct (no leak, no out-of-range index) except where a line is
marked `// PLANTED`, so any other finding is a false alarm.

Usage: gen_worst.py SHAPE N > file.cu
"""
import sys

HEADER = """#include <cuda_runtime.h>
#include <cstdio>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \\
    fprintf(stderr, "%s\\n", cudaGetErrorString(e_)); return e_; } } while (0)
"""


def stmts(n):
    out = ["cudaError_t big(cudaGraph_t g, cudaStream_t s, float *host, int m) {",
           "  int acc = 0;"]
    count = 1
    i = 0
    while count < n:
        out += [f"  cudaGraphExec_t e{i} = nullptr;",
                f"  CK(cudaGraphInstantiate(&e{i}, g, 0));",
                f"  float *d{i} = nullptr;",
                f"  if (cudaMalloc((void **)&d{i}, 1024) != cudaSuccess) {{ cudaGraphExecDestroy(e{i}); return cudaErrorMemoryAllocation; }}",
                f"  acc += m * {i % 7} + 1;",
                f"  if (acc > {i}) printf(\"%d\\n\", acc);",
                f"  cudaMemcpyAsync(d{i}, host, 1024, cudaMemcpyHostToDevice, s);",
                f"  if (cudaGraphLaunch(e{i}, s) != cudaSuccess) acc -= 1;",
                f"  cudaFree(d{i});",
                f"  cudaGraphExecDestroy(e{i});"]
        count += 10
        i += 1
    out += ["  return acc > 0 ? cudaSuccess : cudaErrorInvalidValue;", "}"]
    return "\n".join(out)


def ifs(n):
    out = ["cudaError_t many_ifs(cudaGraph_t g, float *host, int m) {",
           "  cudaStream_t s;",
           "  CK(cudaStreamCreate(&s));",
           "  cudaGraphExec_t exec;",
           "  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) { cudaStreamDestroy(s); return cudaErrorInvalidValue; }",
           "  float *d = nullptr;",
           "  cudaError_t st = cudaMalloc((void **)&d, 4096);",
           "  if (st != cudaSuccess) { cudaGraphExecDestroy(exec); cudaStreamDestroy(s); return st; }"]
    for i in range(n):
        call = ["cudaGraphLaunch(exec, s)", "cudaMemsetAsync(d, 0, 16, s)",
                "cudaMemcpyAsync(d, host, 64, cudaMemcpyHostToDevice, s)",
                "cudaStreamSynchronize(s)"][i % 4]
        out += [f"  st = {call};",
                f"  if (st != cudaSuccess) {{ printf(\"step {i} failed\\n\"); m += {i % 5}; }}"]
    out += ["  cudaFree(d);", "  cudaGraphExecDestroy(exec);", "  cudaStreamDestroy(s);",
            "  return m > 0 ? cudaSuccess : st;", "}"]
    return "\n".join(out)


def nested(n, step=lambda i: f"++i{i}"):
    out = ["cudaError_t nested(cudaGraph_t g, cudaStream_t s, int m) {",
           "  cudaGraphExec_t exec;",
           "  CK(cudaGraphInstantiate(&exec, g, 0));"]
    for i in range(n):
        ind = "  " * (i + 1)
        out += [ind + f"for (int i{i} = 0; i{i} < m; {step(i)}) {{",
                ind + f"  if (i{i} == 3) continue;"]
    ind = "  " * (n + 1)
    out += [ind + "if (cudaGraphLaunch(exec, s) != cudaSuccess) {",
            ind + "  cudaGraphExecDestroy(exec);",
            ind + "  return cudaErrorInvalidValue;",
            ind + "}"]
    for i in reversed(range(n)):
        ind = "  " * (i + 1)
        out += [ind + f"  if (m == {i}) break;", ind + "}"]
    out += ["  cudaGraphExecDestroy(exec);", "  return cudaSuccess;", "}"]
    return "\n".join(out)


def steps(n):
    styles = [lambda i: f"++i{i}", lambda i: f"i{i} += 1", lambda i: f"i{i} = i{i} + 1"]
    return nested(n, lambda i: styles[i % 3](i))


def kernel(n):
    out = ["__global__ void __launch_bounds__(1024) deep(float *out, const float *in) {",
           "  __shared__ float tile[1024];",
           "  __shared__ float acc[32][33];",
           "  tile[threadIdx.x] = in[blockIdx.x * 1024 + threadIdx.x];",
           "  __syncthreads();",
           "  float sum = 0.f;"]
    for i in range(n):
        out.append("  " * (i + 1) + f"#pragma unroll")
        out.append("  " * (i + 1) + f"for (int k{i} = 0; k{i} < 32; ++k{i}) {{")
    idx = " + ".join(f"k{i}" for i in range(n))
    out.append("  " * (n + 1) + f"sum += tile[(threadIdx.x + {idx}) % 1024] * acc[threadIdx.x % 32][k{n - 1}];")
    for i in reversed(range(n)):
        out.append("  " * (i + 1) + "}")
    out += ["  #pragma unroll",
            f"  for (int j = 0; j < {32 * n}; ++j)",
            "    sum += tile[(threadIdx.x * 33 + j) % 1024];",
            "  __syncthreads();",
            "  acc[threadIdx.x / 32][threadIdx.x % 32] = sum;",
            "  __syncthreads();",
            "  out[blockIdx.x * 1024 + threadIdx.x] = acc[threadIdx.x % 32][threadIdx.x / 32];",
            "}",
            "void run_deep(float *out, const float *in, int blocks, cudaStream_t s) {",
            "  deep<<<blocks, 1024, 0, s>>>(out, in);",
            "}"]
    return "\n".join(out)


def tu(n):
    out = []
    i = 0
    lines = HEADER.count("\n")
    while lines < n:
        f = [f"cudaError_t fn{i}(cudaGraph_t g, cudaStream_t s, int n, bool flag) {{",
             "  cudaGraphExec_t exec = nullptr; float *d = nullptr; cudaEvent_t ev;",
             "  CK(cudaGraphInstantiate(&exec, g, 0));",
             "  if (cudaMalloc((void **)&d, 1024) != cudaSuccess) { cudaGraphExecDestroy(exec); return cudaErrorMemoryAllocation; }",
             "  if (cudaEventCreate(&ev) != cudaSuccess) { cudaFree(d); cudaGraphExecDestroy(exec); return cudaErrorInvalidValue; }",
             "  for (int k = 0; k < n; ++k) {",
             "    if (cudaGraphLaunch(exec, s) != cudaSuccess) break;",
             "    if (flag) cudaEventRecord(ev, s);",
             "  }",
             "  cudaEventDestroy(ev);",
             "  cudaFree(d);",
             "  cudaGraphExecDestroy(exec);",
             "  return cudaSuccess;",
             "}",
             f"__global__ void k{i}(float *out) {{",
             "  __shared__ float t[256];",
             "  t[threadIdx.x] = out[threadIdx.x];",
             "  __syncthreads();",
             "  out[threadIdx.x] = t[255 - threadIdx.x];",
             "}",
             f"void launch{i}(float *out, cudaStream_t s) {{ k{i}<<<1, 256, 0, s>>>(out); }}"]
        out += f
        lines += len(f)
        i += 1
    return "\n".join(out)


SHAPES = {"stmts": stmts, "ifs": ifs, "nested": nested, "steps": steps, "kernel": kernel,
          "tu": tu}


def generate(shape, n):
    return HEADER + SHAPES[shape](n) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in SHAPES:
        sys.exit(__doc__)
    sys.stdout.write(generate(sys.argv[1], int(sys.argv[2])))
