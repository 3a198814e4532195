// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-use-after-dealloc]
// Reduction corpus/05-graph-internal-alloc-vs-eager-alloc.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: one block runs under capture once, eagerly afterwards. Captured, its cudaMallocAsync/
// cudaFreeAsync pair is alloc/free nodes the graph owns; the analyzer ties the exec to the
// variable `tmp` and takes a later eager free of `tmp` for freeing what the exec reads.
// Clean: the exec reads only its own graph allocation; launch-after-free reported (FP).
// Buggy (-DBUGGY): the captured kernel reads a cudaMalloc'd buffer an eager tick frees; must report.
#include <cuda_runtime.h>
__global__ void k(float* x, int n) { if ((int)threadIdx.x < n) x[threadIdx.x] += 1.f; }

void serve(cudaStream_t s, const int* sizes, int ticks, int cap) {
  cudaGraphExec_t e = nullptr;
  float* tmp = nullptr;
#ifdef BUGGY
  if (cudaMalloc(&tmp, cap * sizeof(float)) != cudaSuccess) return;
#endif
  for (int t = 0; t < ticks; ++t) {
    const bool fits = sizes[t] <= cap;
    if (fits && e != nullptr) { cudaGraphLaunch(e, s); continue; }
    if (fits && cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) break;
#ifndef BUGGY
    cudaMallocAsync(&tmp, sizes[t] * sizeof(float), s);
#endif
    k<<<1, 256, 0, s>>>(tmp, sizes[t]);
#ifndef BUGGY
    cudaFreeAsync(tmp, s);
#else
    if (!fits) { cudaFree(tmp); cudaMalloc(&tmp, sizes[t] * sizeof(float)); }
#endif
    if (fits) {
      cudaGraph_t g;
      if (cudaStreamEndCapture(s, &g) != cudaSuccess) break;
      cudaError_t st = cudaGraphInstantiate(&e, g, 0);
      cudaGraphDestroy(g);
      if (st != cudaSuccess) { e = nullptr; break; }
      cudaGraphLaunch(e, s);
    }
  }
  if (e != nullptr) cudaGraphExecDestroy(e);
#ifdef BUGGY
  cudaFree(tmp);
#endif
}
