// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-unpaired-instantiate]
// Reduction corpus/15-this-call-forgets-member-test.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: `if (exec_ != nullptr && n == n_) return;` leaves exec_ known non-null on the path that
// re-records; re-instantiating into it is then reported ("tested non-null on this path") -- unless
// any call of a method of `this` comes in between: every such call drops every fact about every
// member, even a private launch helper that never touches exec_.
// Clean: the stale exec is destroyed before re-instantiating; silent.
// Buggy twin (-DBUGGY): it is not; must report, the analyzer is silent (FN). Inlining the
//   helper's launch makes the buggy twin reported.
#include <cuda_runtime.h>
__global__ void k(float* x, int n) { if ((int)threadIdx.x < n) x[threadIdx.x] += 1.f; }
class Runner {
 public:
  Runner() = default;
  ~Runner() { if (exec_ != nullptr) cudaGraphExecDestroy(exec_); }
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;
  void prepare(cudaStream_t s, float* d, int n) {
    if (exec_ != nullptr && n == n_) return;  // cached exec matches
#ifndef BUGGY
    if (exec_ != nullptr) { cudaGraphExecDestroy(exec_); exec_ = nullptr; }
#endif
    cudaGraph_t g;
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return;
    enqueue(s, d, n);
    if (cudaStreamEndCapture(s, &g) != cudaSuccess) return;
    cudaError_t st = cudaGraphInstantiate(&exec_, g, 0);
    cudaGraphDestroy(g);
    if (st == cudaSuccess) n_ = n;
  }
  void run(cudaStream_t s) { cudaGraphLaunch(exec_, s); }
 private:
  void enqueue(cudaStream_t s, float* d, int n) { k<<<1, 256, 0, s>>>(d, n); }
  cudaGraphExec_t exec_ = nullptr;
  int n_ = -1;
};
void serve(cudaStream_t s, float* d, const int* sizes, int steps) {
  Runner r;
  for (int i = 0; i < steps; ++i) { r.prepare(s, d, sizes[i]); r.run(s); }
}
