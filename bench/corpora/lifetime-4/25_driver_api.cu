// Driver API (cuGraphInstantiate*) and the *WithParams variants.
#include <cuda.h>
#include <cuda_runtime.h>

CUresult drv_replay(CUgraph g, CUstream s) {
  CUgraphExec exec = nullptr;
  CUresult r = cuGraphInstantiate(&exec, g, 0);
  if (r != CUDA_SUCCESS) return r;
  r = cuGraphLaunch(exec, s);
  CUresult d = cuGraphExecDestroy(exec);
  return r != CUDA_SUCCESS ? r : d;
}

CUresult drv_params(CUgraph g, CUstream s) {
  CUDA_GRAPH_INSTANTIATE_PARAMS p = {};
  p.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
  p.hUploadStream = s;
  CUgraphExec exec;
  CUresult r = cuGraphInstantiateWithParams(&exec, g, &p);
  if (r != CUDA_SUCCESS) return r;  // result_out only explains why
  r = cuGraphLaunch(exec, s);
  cuGraphExecDestroy(exec);
  return r;
}

cudaError_t rt_params(cudaGraph_t g, cudaStream_t s) {
  cudaGraphInstantiateParams p{};
  p.flags = cudaGraphInstantiateFlagUpload;
  p.uploadStream = s;
  cudaGraphExec_t exec = nullptr;
  cudaError_t e = cudaGraphInstantiateWithParams(&exec, g, &p);
  if (e != cudaSuccess) {
    if (p.result_out == cudaGraphInstantiateInvalidStructure) return cudaErrorInvalidValue;
    return e;
  }
  e = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return e;
}

CUresult drv_chain(CUgraph g, CUstream s) {
  CUgraphExec exec = nullptr;
  CUresult r = CUDA_SUCCESS;
  if (r == CUDA_SUCCESS) r = cuGraphInstantiate(&exec, g, 0);
  if (r == CUDA_SUCCESS) r = cuGraphUpload(exec, s);
  if (r == CUDA_SUCCESS) r = cuGraphLaunch(exec, s);
  if (exec) cuGraphExecDestroy(exec);
  return r;
}

// BUG: the upload failure path leaks (driver API).
CUresult drv_leaky(CUgraph g, CUstream s) {
  CUgraphExec exec;
  CUresult r = cuGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (r != CUDA_SUCCESS) return r;
  if ((r = cuGraphUpload(exec, s)) != CUDA_SUCCESS) return r;
  r = cuGraphLaunch(exec, s);
  cuGraphExecDestroy(exec);
  return r;
}

// BUG: a failed launch leaks the exec.
cudaError_t rt_params_leaky(cudaGraph_t g, cudaStream_t s) {
  cudaGraphInstantiateParams p{};
  cudaGraphExec_t exec;
  cudaError_t e = cudaGraphInstantiateWithParams(&exec, g, &p); // EXPECT: cudagraph-unpaired-instantiate
  if (e != cudaSuccess) return e;
  if ((e = cudaGraphLaunch(exec, s)) != cudaSuccess) return e;
  cudaGraphExecDestroy(exec);
  return cudaSuccess;
}
