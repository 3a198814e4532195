// Status-propagating helpers: RETURN_IF_CUDA_ERROR returns the error code.
#include <cuda_runtime.h>
#include <cstdio>

#define RETURN_IF_CUDA_ERROR(x)                                                \
  do {                                                                         \
    cudaError_t status__ = (x);                                                \
    if (status__ != cudaSuccess)                                               \
      return status__;                                                         \
  } while (0)

__global__ void rmsnorm_kernel(float *x, const float *w, int n) {
  int i = threadIdx.x;
  if (i < n)
    x[i] *= w[i];
}

// Launch failure and sync failure both return with the exec still alive.
cudaError_t run_norm_graph(cudaGraph_t graph, cudaStream_t stream) {
  cudaGraphExec_t exec;
  RETURN_IF_CUDA_ERROR(cudaGraphInstantiate(&exec, graph, 0)); // EXPECT: cudagraph-unpaired-instantiate
  RETURN_IF_CUDA_ERROR(cudaGraphLaunch(exec, stream));
  RETURN_IF_CUDA_ERROR(cudaStreamSynchronize(stream));
  return cudaGraphExecDestroy(exec);
}

// Correct: remember the first error, always destroy.
cudaError_t run_norm_graph_ok(cudaGraph_t graph, cudaStream_t stream) {
  cudaGraphExec_t exec;
  RETURN_IF_CUDA_ERROR(cudaGraphInstantiate(&exec, graph, 0));
  cudaError_t st = cudaGraphLaunch(exec, stream);
  if (st == cudaSuccess)
    st = cudaStreamSynchronize(stream);
  cudaError_t st2 = cudaGraphExecDestroy(exec);
  return st != cudaSuccess ? st : st2;
}

// Correct: capture, instantiate, destroy graph, run N times.
cudaError_t bench_norm(float *x, const float *w, int n, cudaStream_t s, int iters,
                       float *ms_out) {
  cudaGraph_t graph;
  RETURN_IF_CUDA_ERROR(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  rmsnorm_kernel<<<1, 256, 0, s>>>(x, w, n);
  RETURN_IF_CUDA_ERROR(cudaStreamEndCapture(s, &graph));
  cudaGraphExec_t exec;
  cudaError_t st = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  RETURN_IF_CUDA_ERROR(st);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, s);
  for (int i = 0; i < iters && st == cudaSuccess; ++i)
    st = cudaGraphLaunch(exec, s);
  cudaEventRecord(b, s);
  cudaEventSynchronize(b);
  cudaEventElapsedTime(ms_out, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaGraphExecDestroy(exec);
  return st;
}

// Buggy: the event creation failure returns after the exec exists.
cudaError_t bench_norm_leaky(float *x, const float *w, int n, cudaStream_t s,
                             int iters) {
  cudaGraph_t graph;
  RETURN_IF_CUDA_ERROR(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  rmsnorm_kernel<<<1, 256, 0, s>>>(x, w, n);
  RETURN_IF_CUDA_ERROR(cudaStreamEndCapture(s, &graph));
  cudaGraphExec_t exec;
  cudaError_t st = cudaGraphInstantiate(&exec, graph, 0); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(graph);
  RETURN_IF_CUDA_ERROR(st);
  cudaEvent_t done;
  RETURN_IF_CUDA_ERROR(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  for (int i = 0; i < iters; ++i)
    cudaGraphLaunch(exec, s);
  cudaEventRecord(done, s);
  cudaEventSynchronize(done);
  cudaEventDestroy(done);
  cudaGraphExecDestroy(exec);
  return cudaSuccess;
}
