// Factories returning std::pair / std::tuple / structs; same-file helpers.
#include <cuda_runtime.h>
#include <tuple>
#include <utility>

std::pair<cudaError_t, cudaGraphExec_t> make_pair_exec(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  return {st, st == cudaSuccess ? e : nullptr};
}

std::tuple<bool, cudaGraphExec_t, int> make_tuple_exec(cudaGraph_t g, int tag) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return std::make_tuple(false, nullptr, tag);
  return std::make_tuple(true, e, tag);
}

struct Built {
  cudaGraphExec_t exec;
  cudaError_t status;
};

Built make_struct_exec(cudaGraph_t g) {
  Built b{nullptr, cudaSuccess};
  b.status = cudaGraphInstantiate(&b.exec, g, 0);
  return b;
}

cudaError_t use_pair(cudaGraph_t g, cudaStream_t s) {
  auto [st, e] = make_pair_exec(g);
  if (st != cudaSuccess) return st;
  st = cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return st;
}

bool use_tuple(cudaGraph_t g, cudaStream_t s) {
  bool ok; cudaGraphExec_t e; int tag;
  std::tie(ok, e, tag) = make_tuple_exec(g, 7);
  if (!ok) return false;
  ok = cudaGraphLaunch(e, s) == cudaSuccess && tag == 7;
  cudaGraphExecDestroy(e);
  return ok;
}

cudaError_t use_struct(cudaGraph_t g, cudaStream_t s) {
  Built b = make_struct_exec(g);
  if (b.status != cudaSuccess) return b.status;
  cudaError_t st = cudaGraphLaunch(b.exec, s);
  cudaGraphExecDestroy(b.exec);
  return st;
}

// BUG: the exec out of the helper is never destroyed.
cudaError_t use_pair_leaky(cudaGraph_t g, cudaStream_t s) {
  auto r = make_pair_exec(g); // EXPECT: cudagraph-unpaired-instantiate
  if (r.first != cudaSuccess) return r.first;
  return cudaGraphLaunch(r.second, s);
}
