// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-capture-unsafe-call]
// Reduction corpus/21-relaxed-sync-of-other-stream.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: in a capture begun with cudaStreamCaptureModeRelaxed, synchronizing a *different*,
// non-capturing stream is legal (relaxed mode only forbids calls that conflict with the
// capture itself). The model has one flag per function: cudaStreamSynchronize is illegal
// during any capture whatever its stream, so it is reported (documented gap, capture-modes.md).
// Clean: wait for the side stream's upload inside a relaxed capture; reported (FP).
// Buggy twin (-DBUGGY): synchronize the capturing stream itself; must report.
#include <cuda_runtime.h>
__global__ void k(float* x) { x[threadIdx.x] += 1.f; }
int record(float* d, const float* h, cudaGraph_t* out) {
  cudaStream_t work, side;
  if (cudaStreamCreateWithFlags(&work, cudaStreamNonBlocking) != cudaSuccess) return -1;
  if (cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking) != cudaSuccess) {
    cudaStreamDestroy(work);
    return -1;
  }
  cudaMemcpyAsync(d, h, 32 * sizeof(float), cudaMemcpyHostToDevice, side);
  int rc = -1;
  if (cudaStreamBeginCapture(work, cudaStreamCaptureModeRelaxed) == cudaSuccess) {
#ifndef BUGGY
    cudaStreamSynchronize(side);  // the upload must be done before the graph first runs
#else
    cudaStreamSynchronize(work);
#endif
    k<<<1, 32, 0, work>>>(d);
    rc = cudaStreamEndCapture(work, out) == cudaSuccess ? 0 : -1;
  }
  cudaStreamDestroy(side);
  cudaStreamDestroy(work);
  return rc;
}
