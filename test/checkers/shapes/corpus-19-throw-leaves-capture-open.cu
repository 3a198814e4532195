// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-capture-without-destroy]
// Reduction corpus/19-throw-leaves-capture-open.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a `throw` (e.g. a throwing CHECK macro) between BeginCapture and EndCapture leaves
// the function with the stream still capturing. The throw rule reports live local resources
// but skips captures ("another finding's business"), and the open-capture check runs only at
// returns, so nobody reports it.
// Clean: the error path ends (and drops) the capture before throwing; silent.
// Buggy twin (-DBUGGY): it throws straight out of the capture; must report, silent (FN).
// The same code with `return nullptr;` instead of the throw is reported.
#include <cuda_runtime.h>
#include <stdexcept>
__global__ void k(float* x) { x[threadIdx.x] += 1.f; }
cudaGraph_t record(cudaStream_t s, float* d) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess)
    throw std::runtime_error("begin capture");
  k<<<1, 32, 0, s>>>(d);
  if (cudaGetLastError() != cudaSuccess) {
#ifndef BUGGY
    cudaGraph_t broken = nullptr;
    cudaStreamEndCapture(s, &broken);
    if (broken != nullptr) cudaGraphDestroy(broken);
#endif
    throw std::runtime_error("launch failed");
  }
  cudaGraph_t g = nullptr;
  if (cudaStreamEndCapture(s, &g) != cudaSuccess) throw std::runtime_error("end capture");
  return g;
}
