// Batch-size keyed exec table as std::vector<std::pair<int, cudaGraphExec_t>>.
#include <cuda_runtime.h>
#include <vector>
#include <utility>
#include <algorithm>

class DecodeGraphs {
 public:
  using Entry = std::pair<int, cudaGraphExec_t>;

  ~DecodeGraphs() { reset(); }

  // Correct: every exec goes into the member vector.
  cudaError_t build(const std::vector<int>& sizes, cudaGraph_t (*cap)(int)) {
    for (int bs : sizes) {
      cudaGraph_t g = cap(bs);
      cudaGraphExec_t e = nullptr;
      auto err = cudaGraphInstantiate(&e, g, 0);
      cudaGraphDestroy(g);
      if (err != cudaSuccess) return err;
      execs_.emplace_back(bs, e);
    }
    std::sort(execs_.begin(), execs_.end(),
              [](const Entry& a, const Entry& b) { return a.first < b.first; });
    return cudaSuccess;
  }

  // Correct: pushes through make_pair into the member vector.
  cudaError_t add_one(int bs, cudaGraph_t g) {
    cudaGraphExec_t e;
    if (auto err = cudaGraphInstantiate(&e, g, 0)) return err;
    execs_.push_back(std::make_pair(bs, e));
    return cudaSuccess;
  }

  cudaError_t launch(int bs, cudaStream_t s) const {
    auto it = std::lower_bound(execs_.begin(), execs_.end(), bs,
                               [](const Entry& a, int v) { return a.first < v; });
    if (it == execs_.end()) return cudaErrorInvalidValue;
    return cudaGraphLaunch(it->second, s);
  }

  void reset() {
    for (auto& [bs, e] : execs_) cudaGraphExecDestroy(e);
    execs_.clear();
  }

 private:
  std::vector<Entry> execs_;
};

// Correct: local vector of pairs, drained and destroyed before returning.
cudaError_t run_all_sizes(const std::vector<int>& sizes, cudaGraph_t (*cap)(int),
                          cudaStream_t s) {
  std::vector<std::pair<int, cudaGraphExec_t>> local;
  cudaError_t err = cudaSuccess;
  for (int bs : sizes) {
    cudaGraph_t g = cap(bs);
    cudaGraphExec_t e = nullptr;
    err = cudaGraphInstantiate(&e, g, 0);
    cudaGraphDestroy(g);
    if (err != cudaSuccess) break;
    local.push_back({bs, e});
  }
  for (auto& p : local) {
    if (err == cudaSuccess) err = cudaGraphLaunch(p.second, s);
  }
  for (auto& p : local) cudaGraphExecDestroy(p.second);
  return err;
}

static cudaGraph_t empty_graph(int) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  return g;
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  DecodeGraphs dg;
  dg.build({1, 2, 4}, empty_graph);
  dg.add_one(8, empty_graph(8));
  dg.launch(4, s);
  run_all_sizes({1, 2}, empty_graph, s);
  cudaStreamDestroy(s);
  return 0;
}
