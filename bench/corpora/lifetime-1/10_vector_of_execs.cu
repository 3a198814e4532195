// Containers of execs: per-layer graphs and per-bucket graphs.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

class LayerGraphs {
public:
  ~LayerGraphs() {
    for (cudaGraphExec_t e : execs_)
      cudaGraphExecDestroy(e);
  }
  // Correct: the exec goes into a member vector.
  bool add(cudaGraph_t g) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
      return false;
    execs_.push_back(e);
    return true;
  }
  // Correct: instantiate straight into the slots of a member vector.
  void build_all(const std::vector<cudaGraph_t> &gs) {
    execs_.resize(gs.size());
    for (size_t i = 0; i < gs.size(); ++i)
      cudaGraphInstantiate(&execs_[i], gs[i], 0);
  }
  // Buggy: odd layers are "not needed yet" and skipped after instantiation.
  void add_even_layers(const std::vector<cudaGraph_t> &gs) {
    for (size_t i = 0; i < gs.size(); ++i) {
      cudaGraphExec_t tmp;
      if (cudaGraphInstantiate(&tmp, gs[i], 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
        continue;
      if (i % 2)
        continue;
      execs_.push_back(tmp);
    }
  }

private:
  std::vector<cudaGraphExec_t> execs_;
};

// Correct: a local vector whose elements are destroyed before returning.
void run_pipeline(const std::vector<cudaGraph_t> &gs, cudaStream_t s) {
  std::vector<cudaGraphExec_t> execs;
  for (cudaGraph_t g : gs) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess)
      execs.push_back(e);
  }
  for (cudaGraphExec_t e : execs)
    cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  for (cudaGraphExec_t e : execs)
    cudaGraphExecDestroy(e);
}

// Buggy: a local vector that simply goes out of scope.
void run_pipeline_once(const std::vector<cudaGraph_t> &gs, cudaStream_t s) {
  std::vector<cudaGraphExec_t> execs;
  for (cudaGraph_t g : gs) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      execs.push_back(e);
  }
  for (cudaGraphExec_t e : execs)
    cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
}

// Correct: caller-owned vector passed by reference.
int build_buckets(std::vector<cudaGraphExec_t> &out, const std::vector<cudaGraph_t> &gs) {
  int built = 0;
  for (cudaGraph_t g : gs) {
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
      break;
    out.emplace_back(e);
    ++built;
  }
  return built;
}
