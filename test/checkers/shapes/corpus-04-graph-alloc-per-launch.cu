// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-handle-leak]
// Reduction corpus/04-graph-alloc-per-launch.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a graph allocation (cudaMallocAsync inside the capture, no free node in the graph)
// is allocated again by every launch; without AutoFreeOnLaunch it must be freed before each relaunch.
// Clean: cudaFreeAsync after every launch; the analyzer reports a launch after free and a
//   double free (FPs; plus the zero-trip leak of 03).
// Buggy twin (-DBUGGY): relaunched with the allocation still live, freed once at the end:
//   the second launch fails (cudaErrorInvalidValue); must report, the analyzer is silent (FN).
#include <cuda_runtime.h>
#include <cstdlib>
#define CHECK(x) do { if ((x) != cudaSuccess) abort(); } while (0)

__global__ void stage(const float* x, float* tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tmp[i] = 2.f * x[i];
}

void replay(const float* d_x, int n, int reps, cudaStream_t s) {
  if (reps <= 0) return;
  float* d_tmp = nullptr;
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync(&d_tmp, n * sizeof(float), s));
  stage<<<(n + 255) / 256, 256, 0, s>>>(d_x, d_tmp, n);
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t e;
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphDestroy(g));
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaGraphLaunch(e, s));
#ifndef BUGGY
    CHECK(cudaFreeAsync(d_tmp, s));
#endif
  }
#ifdef BUGGY
  CHECK(cudaFreeAsync(d_tmp, s));
#endif
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaGraphExecDestroy(e));
}
