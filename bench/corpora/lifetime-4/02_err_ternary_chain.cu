// Error accumulation with `err = err ? err : call();`.
#include <cuda_runtime.h>

cudaError_t capture_and_run(cudaStream_t s, void (*enqueue)(cudaStream_t)) {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaError_t err = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (!err) enqueue(s);
  err = err ? err : cudaStreamEndCapture(s, &graph);
  err = err ? err : cudaGraphInstantiate(&exec, graph, 0);
  err = err ? err : cudaGraphLaunch(exec, s);
  err = err ? err : cudaStreamSynchronize(s);
  if (exec) cudaGraphExecDestroy(exec);
  if (graph) cudaGraphDestroy(graph);
  return err;
}

cudaError_t run_n(cudaGraph_t graph, cudaStream_t s, int n) {
  cudaGraphExec_t exec = nullptr;
  cudaError_t err = cudaGraphInstantiate(&exec, graph, 0);
  for (int i = 0; i < n && err == cudaSuccess; ++i)
    err = cudaGraphLaunch(exec, s);
  err = err != cudaSuccess ? err : cudaStreamSynchronize(s);
  if (exec != nullptr)
    cudaGraphExecDestroy(exec);
  return err;
}

// BUG: cleanup only runs when everything succeeded.
cudaError_t run_n_leaky(cudaGraph_t graph, cudaStream_t s, int n) {
  cudaGraphExec_t exec = nullptr;
  cudaError_t err = cudaGraphInstantiate(&exec, graph, 0); // EXPECT: cudagraph-unpaired-instantiate
  for (int i = 0; i < n && err == cudaSuccess; ++i)
    err = cudaGraphLaunch(exec, s);
  err = err ? err : cudaStreamSynchronize(s);
  if (err == cudaSuccess)
    cudaGraphExecDestroy(exec);
  return err;
}
