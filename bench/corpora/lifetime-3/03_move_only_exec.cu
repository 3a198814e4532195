// Move-only owner of a cudaGraphExec_t; ownership changes hands by move.
// CORRECT: each instantiated exec ends up owned by a GraphExec object.
#include <cuda_runtime.h>
#include <utility>
#include <vector>

class GraphExec {
public:
  GraphExec() = default;
  explicit GraphExec(cudaGraphExec_t e) noexcept : e_(e) {}
  GraphExec(GraphExec &&o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  GraphExec &operator=(GraphExec &&o) noexcept {
    if (this != &o) {
      if (e_) cudaGraphExecDestroy(e_);
      e_ = o.e_;
      o.e_ = nullptr;
    }
    return *this;
  }
  GraphExec(const GraphExec &) = delete;
  GraphExec &operator=(const GraphExec &) = delete;
  ~GraphExec() {
    if (e_) cudaGraphExecDestroy(e_);
  }
  cudaGraphExec_t get() const { return e_; }
  explicit operator bool() const { return e_ != nullptr; }

  static GraphExec instantiate(cudaGraph_t g) {
    cudaGraphExec_t raw = nullptr;
    if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess)
      return GraphExec();
    return GraphExec(raw);
  }

  void swap(GraphExec &o) noexcept { std::swap(e_, o.e_); }

private:
  cudaGraphExec_t e_ = nullptr;
};

struct Stage {
  GraphExec exec;
  cudaStream_t stream;
};

std::vector<Stage> build_stages(const std::vector<cudaGraph_t> &graphs, cudaStream_t s) {
  std::vector<Stage> out;
  out.reserve(graphs.size());
  for (cudaGraph_t g : graphs) {
    cudaGraphExec_t raw;
    if (cudaGraphInstantiate(&raw, g, 0) != cudaSuccess)
      continue;
    GraphExec owner(raw);
    out.push_back(Stage{std::move(owner), s});
  }
  return out;
}

void rebuild(Stage &st, cudaGraph_t g) {
  cudaGraphExec_t fresh = nullptr;
  if (cudaGraphInstantiate(&fresh, g, 0) == cudaSuccess) {
    GraphExec tmp(fresh);
    st.exec.swap(tmp);  // old exec now in tmp, destroyed at scope end
  }
}

int run_all(std::vector<Stage> &stages) {
  for (Stage &s : stages)
    if (s.exec && cudaGraphLaunch(s.exec.get(), s.stream) != cudaSuccess)
      return 1;
  return 0;
}
