// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: :24:9: warning: graph exec 'exec_' {{.*}} kept in a member of 'Step' {{.*}} [cudagraph-unpaired-instantiate]
// BUGGY: :35:5: note: 'exec_' is overwritten here while it still holds the graph exec that 'build' left in it
// Reduction corpus/13b-flag-not-set-on-one-acquisition.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: the release is guarded by a member flag (`if (has_exec_) destroy(exec_)`) that one
// acquiring method sets and another does not. The flag counts as the member's companion for
// every method, so the path "fast build -> destructor" (flag false, exec live) is not followed.
// Clean: both build methods set the flag; silent.
// Buggy twin (-DBUGGY): build() instantiates without setting has_exec_, so reset()/the
//   destructor never destroy that exec (reset() clears exec_ over it); reported.
#include <cuda_runtime.h>
class Step {
 public:
  Step() = default;
  ~Step() { reset(); }
  Step(const Step&) = delete;
  Step& operator=(const Step&) = delete;
  void build(cudaGraph_t g) {  // fast path
#ifndef BUGGY
    has_exec_ = cudaGraphInstantiate(&exec_, g, 0) == cudaSuccess;
#else
    if (cudaGraphInstantiate(&exec_, g, 0) != cudaSuccess) exec_ = nullptr;
#endif
  }
  void rebuild(cudaGraph_t g) {
    if (has_exec_) cudaGraphExecDestroy(exec_);
    has_exec_ = cudaGraphInstantiate(&exec_, g, 0) == cudaSuccess;
  }
  void run(cudaStream_t s) { cudaGraphLaunch(exec_, s); }
  void reset() {
    if (has_exec_) cudaGraphExecDestroy(exec_);
    has_exec_ = false;
    exec_ = nullptr;
  }
 private:
  cudaGraphExec_t exec_ = nullptr;
  bool has_exec_ = false;
};
void go(cudaGraph_t g, cudaStream_t s) {
  Step st;
  st.build(g);
  st.run(s);
}
