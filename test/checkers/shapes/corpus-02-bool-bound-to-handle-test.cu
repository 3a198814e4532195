// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-unpaired-instantiate]
// Reduction corpus/02-bool-bound-to-handle-test.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a bool local bound to a condition that tests the handle,
//   `const bool build = enabled && exec == nullptr; if (build) { ... instantiate(&exec) ... }`.
// Clean: the exec is built once (build is false once exec is set); the analyzer reports an overwrite (FP).
// Buggy twin (-DBUGGY): `build = enabled` re-instantiates over the live exec every pass; must report.
#include <cuda_runtime.h>

__global__ void relax(float* u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) u[i] *= 0.5f;
}

int sweep(cudaStream_t s, float* d_u, int n, int passes, bool enabled) {
  cudaGraphExec_t exec = nullptr;
  for (int p = 0; p < passes; ++p) {
#ifndef BUGGY
    const bool build = enabled && exec == nullptr;
#else
    const bool build = enabled;
#endif
    if (build) {
      cudaGraph_t g;
      if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) break;
      relax<<<(n + 255) / 256, 256, 0, s>>>(d_u, n);
      if (cudaStreamEndCapture(s, &g) != cudaSuccess) break;
      cudaError_t st = cudaGraphInstantiate(&exec, g, 0);
      cudaGraphDestroy(g);
      if (st != cudaSuccess) break;
    }
    if (enabled) cudaGraphLaunch(exec, s);
    else relax<<<(n + 255) / 256, 256, 0, s>>>(d_u, n);
  }
  if (exec != nullptr) cudaGraphExecDestroy(exec);
  return 0;
}
