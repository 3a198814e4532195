// unique_ptr<remove_pointer_t<cudaGraphExec_t>, decltype(&cudaGraphExecDestroy)>.
#include <cuda_runtime.h>
#include <memory>
#include <type_traits>

using ExecHandle =
    std::unique_ptr<std::remove_pointer_t<cudaGraphExec_t>, decltype(&cudaGraphExecDestroy)>;

ExecHandle instantiate_owned(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  return ExecHandle(st == cudaSuccess ? e : nullptr, &cudaGraphExecDestroy);
}

cudaError_t run_owned(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  if (st != cudaSuccess)
    return st;
  ExecHandle h(e, cudaGraphExecDestroy);
  st = cudaGraphLaunch(h.get(), s);
  if (st != cudaSuccess)
    return st;
  return cudaStreamSynchronize(s);
}

cudaError_t run_factory(cudaGraph_t g, cudaStream_t s) {
  auto h = instantiate_owned(g);
  if (!h) return cudaErrorInvalidValue;
  return cudaGraphLaunch(h.get(), s);
}

// BUG: instantiate directly into a raw handle and forget it on the sync error.
cudaError_t run_raw(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (st != cudaSuccess) return st;
  if ((st = cudaGraphLaunch(e, s)) != cudaSuccess) {
    cudaGraphExecDestroy(e);
    return st;
  }
  if ((st = cudaStreamSynchronize(s)) != cudaSuccess)
    return st;
  cudaGraphExecDestroy(e);
  return cudaSuccess;
}
