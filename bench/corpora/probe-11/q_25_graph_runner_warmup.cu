// SGLang/vLLM-style CUDA graph runner: one `graph` variable is reused for every
// capture; each capture is instantiated and the graph destroyed right away.
// A calibration graph captured over a temporary buffer is run, destroyed, and
// its buffer freed; the decode graph (captured over persistent buffers only)
// is then replayed.
#include <cuda_runtime.h>
#include <cstdio>

// Error codes: 1 = allocation, 2 = capture/instantiation, 3 = replay.
// Every exit goes through `cleanup`, which releases whatever is non-null.
// Execs and the graph are reset to nullptr as soon as they are destroyed so
// the cleanup block never destroys them twice.

__global__ void decode_layer(float *kv, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) kv[i] += x[i];
}
__global__ void calibrate(const float *kv, float *stats, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) stats[i] = kv[i] * kv[i];
}

#define RET_IF(cond, code) do { if (cond) { rc = code; goto cleanup; } } while (0)

int main() {
  const int n = 1 << 16;
  cudaStream_t s = nullptr;
  float *kv = nullptr, *x = nullptr, *stats = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t decode_exec = nullptr, calib_exec = nullptr;
  int rc = 0;

  RET_IF(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess, 1);
  RET_IF(cudaMalloc(&kv, n * sizeof(float)) != cudaSuccess, 1);
  RET_IF(cudaMalloc(&x, n * sizeof(float)) != cudaSuccess, 1);
  cudaMemsetAsync(kv, 0, n * sizeof(float), s);
  cudaMemsetAsync(x, 0, n * sizeof(float), s);

  // Decode graph: persistent buffers only.
  RET_IF(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess, 2);
  decode_layer<<<(n + 255) / 256, 256, 0, s>>>(kv, x, n);
  RET_IF(cudaStreamEndCapture(s, &graph) != cudaSuccess, 2);
  {
    cudaError_t st = cudaGraphInstantiate(&decode_exec, graph, 0);
    cudaGraphDestroy(graph);
    graph = nullptr;
    RET_IF(st != cudaSuccess, 2);
  }

  // Calibration graph: uses a temporary statistics buffer.
  RET_IF(cudaMalloc(&stats, n * sizeof(float)) != cudaSuccess, 1);
  RET_IF(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess, 2);
  calibrate<<<(n + 255) / 256, 256, 0, s>>>(kv, stats, n);
  RET_IF(cudaStreamEndCapture(s, &graph) != cudaSuccess, 2);
  {
    cudaError_t st = cudaGraphInstantiate(&calib_exec, graph, 0);
    cudaGraphDestroy(graph);
    graph = nullptr;
    RET_IF(st != cudaSuccess, 2);
  }
  cudaGraphLaunch(calib_exec, s);
  cudaStreamSynchronize(s);
  // Calibration done: drop its exec and its buffer.
  cudaGraphExecDestroy(calib_exec);
  calib_exec = nullptr;
  cudaFree(stats);
  stats = nullptr;

  // Replay the decode graph; it never referenced `stats`.
  for (int step = 0; step < 16; ++step) cudaGraphLaunch(decode_exec, s);
  RET_IF(cudaStreamSynchronize(s) != cudaSuccess, 3);

cleanup:
  if (calib_exec) cudaGraphExecDestroy(calib_exec);
  if (decode_exec) cudaGraphExecDestroy(decode_exec);
  if (graph) cudaGraphDestroy(graph);
  cudaFree(stats);
  cudaFree(x);
  cudaFree(kv);
  if (s) cudaStreamDestroy(s);
  return rc;
}
