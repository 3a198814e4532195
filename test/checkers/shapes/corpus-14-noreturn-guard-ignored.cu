// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-unpaired-instantiate]
// Reduction corpus/14-noreturn-guard-ignored.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: an early exit through a noreturn call, `if (has_exec_) { log; abort(); }`, before
// re-acquiring a member. Only return/throw/goto count as exits that guard the acquisition, so
// the flag is not seen to protect it and the member is assumed live on entry.
// Clean: instantiate() aborts unless the exec is gone; the analyzer reports an overwrite (FP).
// Buggy twin (-DBUGGY): replay() re-instantiates unconditionally over the live exec; must report.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
class Replayer {
 public:
  explicit Replayer(cudaGraph_t g) : g_(g) {}
  ~Replayer() { reset(); }
  Replayer(const Replayer&) = delete;
  Replayer& operator=(const Replayer&) = delete;
  void instantiate() {
#ifndef BUGGY
    if (has_exec_) {
      fprintf(stderr, "instantiate() on a live exec; call reset() first\n");
      abort();
    }
#endif
    if (cudaGraphInstantiate(&exec_, g_, 0) != cudaSuccess) abort();
    has_exec_ = true;
  }
  void replay(cudaStream_t s) {
#ifndef BUGGY
    if (!has_exec_) instantiate();
#else
    instantiate();
#endif
    cudaGraphLaunch(exec_, s);
  }
  void reset() {
    if (has_exec_) { cudaGraphExecDestroy(exec_); has_exec_ = false; }
  }
 private:
  cudaGraph_t g_;
  cudaGraphExec_t exec_ = nullptr;
  bool has_exec_ = false;
};
