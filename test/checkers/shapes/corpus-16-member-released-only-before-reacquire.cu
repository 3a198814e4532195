// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-capture-without-destroy]
// Reduction corpus/16-member-released-only-before-reacquire.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: a member the class releases only in the method that re-acquires it ("drop the old
// graph, capture a new one"), never in the destructor or reset(). Any release of the member
// anywhere in the class suppresses the member-leak rule, and the destructor is judged only for
// members it releases itself, so the last value leaks silently.
// Clean: reset() (run by the destructor) destroys the graph too; silent.
// Buggy twin (-DBUGGY): reset() forgets it; must report, the analyzer is silent (FN).
#include <cuda_runtime.h>
__global__ void k(float* x) { x[threadIdx.x] += 1.f; }
class Recorder {
 public:
  Recorder() = default;
  ~Recorder() { reset(); }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;
  void record(cudaStream_t s, float* d) {  // keeps the graph for cudaGraphExecUpdate
    if (graph_ != nullptr) { cudaGraphDestroy(graph_); graph_ = nullptr; }
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return;
    k<<<1, 32, 0, s>>>(d);
    if (cudaStreamEndCapture(s, &graph_) != cudaSuccess) return;
    if (exec_ == nullptr) cudaGraphInstantiate(&exec_, graph_, 0);
  }
  void reset() {
    if (exec_ != nullptr) { cudaGraphExecDestroy(exec_); exec_ = nullptr; }
#ifndef BUGGY
    if (graph_ != nullptr) { cudaGraphDestroy(graph_); graph_ = nullptr; }
#endif
  }
 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};
void run(cudaStream_t s, float* d, int n) {
  Recorder r;
  for (int i = 0; i < n; ++i) r.record(s, d);
}
