// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: :[[@LINE+25]]:3: warning: 'cudaFreeAsync' is called while stream 's' is capturing: 'tmp' was not allocated by the capture{{.*}} [cudagraph-capture-unsafe-call]
// Reduction corpus/20-captured-free-hidden-by-checked-begin.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: cudaFreeAsync on the capturing stream of memory cudaMalloc'd before the capture (CUDA
// refuses it: a captured free must be given a graph allocation). The check needs the open
// capture and the live buffer in one path state; a status test on BeginCapture splits the
// capture into its own disjunct, and the finding disappeared: open captures are now handed
// to the other disjuncts at the call (lib/Lifetime/Capture/CaptureContext.cpp).
// Clean: the scratch is a graph allocation (cudaMallocAsync inside the capture); silent.
// Buggy twin (-DBUGGY): cudaMalloc before the capture; reported at the free.
// With an unchecked cudaStreamBeginCapture(...) the buggy twin is reported.
#include <cuda_runtime.h>
#include <cstdlib>
#define CHECK(x) do { if ((x) != cudaSuccess) abort(); } while (0)
__global__ void k(float* x) { x[threadIdx.x] += 1.f; }
void record(cudaStream_t s, cudaGraphExec_t* exec_out) {
  float* tmp = nullptr;
#ifdef BUGGY
  CHECK(cudaMalloc(&tmp, 128));
#endif
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
#ifndef BUGGY
  CHECK(cudaMallocAsync(&tmp, 128, s));
#endif
  k<<<1, 32, 0, s>>>(tmp);
  cudaFreeAsync(tmp, s);
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaGraphInstantiate(exec_out, g, 0));
  CHECK(cudaGraphDestroy(g));
}
