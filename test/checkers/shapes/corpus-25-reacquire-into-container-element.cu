// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-unpaired-instantiate]
// Reduction corpus/25-reacquire-into-container-element.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: re-acquiring into an element a container already holds, through a range-for
// reference (`for (auto& kv : execs_) cudaGraphInstantiate(&kv.second, ...)`). Acquisitions
// into container elements only accumulate ("nothing is overwritten"), so the exec each
// element held is lost without a report.
// Clean: each element's exec is destroyed before it is re-instantiated; silent.
// Buggy twin (-DBUGGY): it is not; must report, silent (FN).
#include <cuda_runtime.h>
#include <map>
class ExecCache {
 public:
  ~ExecCache() { for (auto& kv : execs_) cudaGraphExecDestroy(kv.second); }
  void add(int key, cudaGraph_t g) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess) execs_.emplace(key, e);
  }
  void rebuild_all(cudaGraph_t g) {  // new weights: re-instantiate every cached size
    for (auto& kv : execs_) {
#ifndef BUGGY
      cudaGraphExecDestroy(kv.second);
#endif
      cudaGraphInstantiate(&kv.second, g, 0);
    }
  }
  void run(int key, cudaStream_t s) { cudaGraphLaunch(execs_.at(key), s); }
 private:
  std::map<int, cudaGraphExec_t> execs_;
};
