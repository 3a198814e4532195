// Several execs in one function with interleaved destroys.
#include <cuda_runtime.h>

cudaError_t ping_pong(cudaGraph_t ga, cudaGraph_t gb, cudaStream_t s) {
  cudaGraphExec_t a = nullptr, b = nullptr;
  cudaError_t e = cudaGraphInstantiate(&a, ga, 0);
  if (e != cudaSuccess) return e;
  e = cudaGraphInstantiate(&b, gb, 0);
  if (e != cudaSuccess) {
    cudaGraphExecDestroy(a);
    return e;
  }
  e = cudaGraphLaunch(a, s);
  cudaGraphExecDestroy(a);
  if (e == cudaSuccess) e = cudaGraphLaunch(b, s);
  cudaGraphExecDestroy(b);
  return e;
}

cudaError_t staged(cudaGraph_t g1, cudaGraph_t g2, cudaGraph_t g3, cudaStream_t s) {
  cudaGraphExec_t x[3] = {nullptr, nullptr, nullptr};
  cudaGraph_t gs[3] = {g1, g2, g3};
  cudaError_t e = cudaSuccess;
  int made = 0;
  for (; made < 3; ++made) {
    e = cudaGraphInstantiate(&x[made], gs[made], 0);
    if (e != cudaSuccess) break;
  }
  for (int i = 0; i < made && e == cudaSuccess; ++i)
    e = cudaGraphLaunch(x[i], s);
  for (int i = made - 1; i >= 0; --i)
    cudaGraphExecDestroy(x[i]);
  return e;
}

cudaError_t destroy_first_then_second(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t first, second;
  cudaError_t e = cudaGraphInstantiate(&first, g, 0);
  if (e != cudaSuccess) return e;
  cudaGraphExecDestroy(first);   // probe only: legal to destroy right away
  e = cudaGraphInstantiate(&second, g, 0);
  if (e != cudaSuccess) return e;
  e = cudaGraphLaunch(second, s);
  cudaGraphExecDestroy(second);
  return e;
}

// BUG: if the second instantiate fails, the first exec leaks.
cudaError_t ping_pong_leaky(cudaGraph_t ga, cudaGraph_t gb, cudaStream_t s) {
  cudaGraphExec_t a, b;
  cudaError_t e = cudaGraphInstantiate(&a, ga, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (e != cudaSuccess) return e;
  e = cudaGraphInstantiate(&b, gb, 0);
  if (e != cudaSuccess) return e;
  cudaGraphLaunch(a, s);
  cudaGraphLaunch(b, s);
  cudaGraphExecDestroy(b);
  cudaGraphExecDestroy(a);
  return cudaSuccess;
}
