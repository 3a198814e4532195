// Execs stored into std::vector / std::map / std::unordered_map.
#include <cuda_runtime.h>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

struct ExecCache {
  std::vector<cudaGraphExec_t> all;
  std::map<int, cudaGraphExec_t> by_id;
  std::unordered_map<std::string, cudaGraphExec_t> by_name;

  ~ExecCache() {
    for (auto e : all) cudaGraphExecDestroy(e);
  }

  bool add(cudaGraph_t g) {
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false;
    all.emplace_back(e);
    return true;
  }

  bool add_id(int id, cudaGraph_t g) {
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return false;
    by_id.insert({id, e});
    all.push_back(e);
    return true;
  }

  cudaGraphExec_t get_or_make(const std::string &name, cudaGraph_t g) {
    auto it = by_name.find(name);
    if (it != by_name.end()) return it->second;
    cudaGraphExec_t e = nullptr;
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) return nullptr;
    auto res = by_name.try_emplace(name, e);
    all.push_back(e);
    return res.first->second;
  }
};

void fill(std::vector<cudaGraphExec_t> &out, const std::vector<cudaGraph_t> &gs) {
  for (cudaGraph_t g : gs) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess)
      out.emplace_back(e);
  }
}

std::map<int, cudaGraphExec_t> build_map(const std::vector<cudaGraph_t> &gs) {
  std::map<int, cudaGraphExec_t> m;
  int i = 0;
  for (auto g : gs) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess)
      m.emplace(i, e);
    ++i;
  }
  return m;
}

// BUG: only counts successes; every created exec is dropped.
size_t count_ok(const std::vector<cudaGraph_t> &gs) {
  size_t n = 0;
  for (auto g : gs) {
    cudaGraphExec_t e;
    if (cudaGraphInstantiate(&e, g, 0) == cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
      ++n;
  }
  return n;
}
