// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/class07.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class 7: a container moved into a member map element
// FP: streams pushed into a local std::vector that is then moved into an element of a member
// map (the destructor destroys every stream of every element): the vector's end of scope is
// reported as a leak (faiss StandardGpuResources.cpp:423).
#include <cuda_runtime.h>
#include <cstdlib>
#include <unordered_map>
#include <utility>
#include <vector>
class Resources {
 public:
  void init(int dev) {
    std::vector<cudaStream_t> streams;
    for (int j = 0; j < 2; ++j) {
      cudaStream_t s = nullptr;
      if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) abort();
      streams.push_back(s);
    }
    alt_[dev] = std::move(streams);                  // the member owns them now
  }
  ~Resources() {
    for (auto &e : alt_)
      for (cudaStream_t s : e.second) cudaStreamDestroy(s);
  }
 private:
  std::unordered_map<int, std::vector<cudaStream_t>> alt_;
};
