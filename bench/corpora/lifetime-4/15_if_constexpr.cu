// if constexpr selecting between keeping and destroying the exec.
#include <cuda_runtime.h>
#include <vector>

template <bool Keep>
cudaError_t run_policy(cudaGraph_t g, cudaStream_t s, std::vector<cudaGraphExec_t> &pool) {
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  if (st != cudaSuccess) return st;
  st = cudaGraphLaunch(e, s);
  if constexpr (Keep) {
    pool.push_back(e);
  } else {
    cudaGraphExecDestroy(e);
  }
  return st;
}

template cudaError_t run_policy<true>(cudaGraph_t, cudaStream_t, std::vector<cudaGraphExec_t> &);
template cudaError_t run_policy<false>(cudaGraph_t, cudaStream_t, std::vector<cudaGraphExec_t> &);

template <typename Flags>
cudaError_t run_flags(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  cudaError_t st;
  if constexpr (sizeof(Flags) > 4)
    st = cudaGraphInstantiateWithFlags(&e, g, static_cast<Flags>(cudaGraphInstantiateFlagUpload));
  else
    st = cudaGraphInstantiate(&e, g, 0);
  if (st != cudaSuccess) return st;
  st = cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return st;
}

cudaError_t use_flags(cudaGraph_t g, cudaStream_t s) {
  cudaError_t a = run_flags<unsigned long long>(g, s);
  cudaError_t b = run_flags<int>(g, s);
  return a != cudaSuccess ? a : b;
}

// BUG: when Verbose is true the branch returns before destroying.
template <bool Verbose>
cudaError_t run_verbose(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (st != cudaSuccess) return st;
  st = cudaGraphLaunch(e, s);
  if constexpr (Verbose) {
    if (st != cudaSuccess) return st;
  }
  cudaGraphExecDestroy(e);
  return st;
}

template cudaError_t run_verbose<true>(cudaGraph_t, cudaStream_t);
