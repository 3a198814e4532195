// Capture a fork/join region across two streams (attention on the main stream,
// MoE gate on a side stream), joined before the capture ends.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void attn_k(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.f;
}
__global__ void gate_k(float *g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) g[i] *= 0.5f;
}
__global__ void combine_k(float *x, const float *g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= g[i];
}

struct Layer {
  cudaStream_t main_s, side_s;
  cudaEvent_t fork_ev, join_ev;
};

static cudaError_t capture_layer(Layer &L, float *x, float *g, int n, cudaGraph_t *graph) {
  cudaError_t st = cudaStreamBeginCapture(L.main_s, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) return st;
  cudaEventRecord(L.fork_ev, L.main_s);
  cudaStreamWaitEvent(L.side_s, L.fork_ev, 0);
  attn_k<<<(n + 255) / 256, 256, 0, L.main_s>>>(x, n);
  gate_k<<<(n + 255) / 256, 256, 0, L.side_s>>>(g, n);
  cudaEventRecord(L.join_ev, L.side_s);
  cudaStreamWaitEvent(L.main_s, L.join_ev, 0);
  combine_k<<<(n + 255) / 256, 256, 0, L.main_s>>>(x, g, n);
  return cudaStreamEndCapture(L.main_s, graph);
}

int main() {
  Layer L{};
  const int n = 1 << 16;
  float *x = nullptr, *g = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaError_t st = cudaStreamCreateWithFlags(&L.main_s, cudaStreamNonBlocking);
  if (st == cudaSuccess) st = cudaStreamCreateWithFlags(&L.side_s, cudaStreamNonBlocking);
  if (st == cudaSuccess) st = cudaEventCreateWithFlags(&L.fork_ev, cudaEventDisableTiming);
  if (st == cudaSuccess) st = cudaEventCreateWithFlags(&L.join_ev, cudaEventDisableTiming);
  if (st == cudaSuccess) st = cudaMalloc(&x, n * sizeof(float));
  if (st == cudaSuccess) st = cudaMalloc(&g, n * sizeof(float));
  if (st == cudaSuccess) st = cudaMemset(x, 0, n * sizeof(float));
  if (st == cudaSuccess) st = cudaMemset(g, 0, n * sizeof(float));
  if (st == cudaSuccess) st = capture_layer(L, x, g, n, &graph);
  if (st == cudaSuccess) st = cudaGraphInstantiate(&exec, graph, 0);
  for (int it = 0; st == cudaSuccess && it < 20; ++it) st = cudaGraphLaunch(exec, L.main_s);
  if (st == cudaSuccess) st = cudaStreamSynchronize(L.main_s);
  std::printf("status: %s\n", cudaGetErrorString(st));

  if (exec) cudaGraphExecDestroy(exec);
  if (graph) cudaGraphDestroy(graph);
  if (g) cudaFree(g);
  if (x) cudaFree(x);
  if (L.join_ev) cudaEventDestroy(L.join_ev);
  if (L.fork_ev) cudaEventDestroy(L.fork_ev);
  if (L.side_s) cudaStreamDestroy(L.side_s);
  if (L.main_s) cudaStreamDestroy(L.main_s);
  return st == cudaSuccess ? 0 : 1;
}
