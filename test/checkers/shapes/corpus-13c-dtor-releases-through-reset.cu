// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-unpaired-instantiate]
// Reduction corpus/13c-dtor-releases-through-reset.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class (a second blocker seen in a hidden case): the "destructor releases on some paths only" rule
// judges a destructor only for members it releases itself; a destructor that releases
// through `reset()` is not judged, so an early return in reset() (on any condition, even an
// unrelated global) leaks what the other methods left live, silently.
// Clean: reset() always destroys the exec; silent.
// Buggy twin (-DBUGGY): reset() returns early when g_keep_for_debug is set; must report,
//   silent (FN). The same early return written in the destructor itself is reported.
#include <cuda_runtime.h>
bool g_keep_for_debug = false;
class Step {
 public:
  Step() = default;
  ~Step() { reset(); }
  Step(const Step&) = delete;
  Step& operator=(const Step&) = delete;
  void build(cudaGraph_t g) {
    if (cudaGraphInstantiate(&exec_, g, 0) != cudaSuccess) exec_ = nullptr;
  }
  void run(cudaStream_t s) { cudaGraphLaunch(exec_, s); }
  void reset() {
#ifdef BUGGY
    if (g_keep_for_debug) return;
#endif
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }
 private:
  cudaGraphExec_t exec_ = nullptr;
};
void go(cudaGraph_t g, cudaStream_t s) {
  Step st;
  st.build(g);
  st.run(s);
}
