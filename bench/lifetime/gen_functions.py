#!/usr/bin/env python3
"""Generates a synthetic CUDA host file with N functions that each acquire
graph execs, streams and memory, branch on error codes and flags, loop, and
release on most paths: the shape of real host code, at a size chosen by the
caller. Used by run.sh to measure the lifetime engine's cost per function."""
import sys

N = int(sys.argv[1]) if len(sys.argv) > 1 else 300
BRANCHES = int(sys.argv[2]) if len(sys.argv) > 2 else 6

print('#include <cuda_runtime.h>\n#include <cstdio>\n#include <cstdlib>')
print('#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { '
      'fprintf(stderr, "%s\\n", cudaGetErrorString(e_)); return e_; } } while (0)')
print('#define CKX(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { '
      'fprintf(stderr, "%s\\n", cudaGetErrorString(e_)); exit(1); } } while (0)')
for i in range(N):
    print(f'cudaError_t fn{i}(cudaGraph_t g, cudaStream_t s, int n, bool flag) {{')
    print('  cudaGraphExec_t exec = nullptr; float *d = nullptr; cudaEvent_t ev;')
    print('  CK(cudaGraphInstantiate(&exec, g, 0));')
    print('  CKX(cudaMalloc((void **)&d, 1024));')
    print('  CKX(cudaEventCreate(&ev));')
    for b in range(BRANCHES):
        print(f'  if (n > {b}) {{ CKX(cudaGraphLaunch(exec, s)); }} else if (flag) {{ cudaMemsetAsync(d, 0, 16, s); }}')
    print('  for (int k = 0; k < n; ++k) { if (cudaGraphLaunch(exec, s) != cudaSuccess) break; '
          'cudaEventRecord(ev, s); }')
    print('  cudaEventDestroy(ev);')
    print('  cudaFree(d);')
    # every fourth function forgets the exec on the flag path
    if i % 4 == 0:
        print('  if (flag) return cudaErrorInvalidValue;')
    print('  cudaGraphExecDestroy(exec);')
    print('  return cudaSuccess;\n}')
