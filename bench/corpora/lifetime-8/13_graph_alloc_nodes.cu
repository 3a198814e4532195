// Graph memory nodes: a scratch buffer allocated inside the capture with
// cudaMallocAsync. Three shapes: freed inside the graph (correct), left to
// cudaGraphInstantiateFlagAutoFreeOnLaunch with a final cudaFree after the last
// launch (correct), and left to AutoFreeOnLaunch with no final free, so the last
// launch's allocation outlives the exec (leak).
#include <cuda_runtime.h>

__global__ void reduce_rows(const float *in, float *tmp, float *out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) { tmp[r] = in[r] * 2.f; out[r] = tmp[r]; }
}

cudaError_t run_freed_in_graph(const float *in, float *out, int rows, int reps, cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphExec_t x;
  float *tmp = nullptr;
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) return st;
  cudaMallocAsync(&tmp, rows * sizeof(float), s);
  reduce_rows<<<(rows + 127) / 128, 128, 0, s>>>(in, tmp, out, rows);
  cudaFreeAsync(tmp, s);
  st = cudaStreamEndCapture(s, &g);
  if (st != cudaSuccess) return st;
  st = cudaGraphInstantiate(&x, g, 0);
  cudaGraphDestroy(g);
  if (st != cudaSuccess) return st;
  for (int i = 0; i < reps; ++i) cudaGraphLaunch(x, s);
  st = cudaStreamSynchronize(s);
  cudaGraphExecDestroy(x);
  return st;
}

cudaError_t run_auto_free(const float *in, float *out, int rows, int reps, cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphExec_t x;
  float *tmp = nullptr;
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) return st;
  cudaMallocAsync(&tmp, rows * sizeof(float), s);
  reduce_rows<<<(rows + 127) / 128, 128, 0, s>>>(in, tmp, out, rows);
  st = cudaStreamEndCapture(s, &g);
  if (st != cudaSuccess) return st;
  st = cudaGraphInstantiate(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  cudaGraphDestroy(g);
  if (st != cudaSuccess) return st;
  for (int i = 0; i < reps; ++i) cudaGraphLaunch(x, s);
  st = cudaStreamSynchronize(s);
  cudaGraphExecDestroy(x);
  cudaFree(tmp); // the allocation of the last launch
  return st;
}

cudaError_t run_auto_free_leaky(const float *in, float *out, int rows, int reps, cudaStream_t s) {
  cudaGraph_t g;
  cudaGraphExec_t x;
  float *tmp = nullptr;
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) return st;
  cudaMallocAsync(&tmp, rows * sizeof(float), s); // EXPECT: cudagraph-handle-leak
  reduce_rows<<<(rows + 127) / 128, 128, 0, s>>>(in, tmp, out, rows);
  st = cudaStreamEndCapture(s, &g);
  if (st != cudaSuccess) return st;
  st = cudaGraphInstantiate(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  cudaGraphDestroy(g);
  if (st != cudaSuccess) return st;
  for (int i = 0; i < reps; ++i) cudaGraphLaunch(x, s);
  st = cudaStreamSynchronize(s);
  cudaGraphExecDestroy(x);
  return st;
}
