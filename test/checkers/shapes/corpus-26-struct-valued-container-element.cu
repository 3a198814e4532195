// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: not %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=BUGGY
// CLEAN-NOT: warning:
// BUGGY: warning: {{.*}} [cudagraph-unpaired-instantiate]
// Reduction corpus/26-struct-valued-container-element.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Class: handles kept in a member of a struct-valued container element (`std::map<int, Slot>`
// with `Slot::exec`). Only containers of handles themselves are followed, so an eviction that
// erases the element without destroying its exec is not reported (with
// `std::map<int, cudaGraphExec_t>` the same eviction is).
// Clean: evict() destroys the exec before erasing; silent.
// Buggy twin (-DBUGGY): it only erases; must report, silent (FN).
#include <cuda_runtime.h>
#include <map>
class ExecCache {
 public:
  ~ExecCache() { for (auto& kv : m_) cudaGraphExecDestroy(kv.second.exec); }
  void put(int key, cudaGraph_t g) {
    if (m_.size() >= 4) evict();
    Slot sl;
    if (cudaGraphInstantiate(&sl.exec, g, 0) != cudaSuccess) return;
    m_.emplace(key, sl);
  }
  void run(int key, cudaStream_t s) { cudaGraphLaunch(m_.at(key).exec, s); }
 private:
  struct Slot { cudaGraphExec_t exec = nullptr; int uses = 0; };
  void evict() {
#ifndef BUGGY
    cudaGraphExecDestroy(m_.begin()->second.exec);
#endif
    m_.erase(m_.begin());
  }
  std::map<int, Slot> m_;
};
