// Conditional re-capture: the exec is rebuilt only when the batch size
// changes; a bool records whether the exec exists.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void mlp(float *y, const float *x, int batch, int hidden) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < batch * hidden) y[i] = x[i] > 0.f ? x[i] : 0.f;
}

static cudaError_t capture_once(cudaStream_t s, float *y, const float *x, int batch,
                                int hidden, cudaGraphExec_t *exec_out) {
  cudaGraph_t graph = nullptr;
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (st != cudaSuccess) return st;
  for (int l = 0; l < 4; ++l)
    mlp<<<(batch * hidden + 255) / 256, 256, 0, s>>>(y, x, batch, hidden);
  st = cudaStreamEndCapture(s, &graph);
  if (st != cudaSuccess) return st;
  st = cudaGraphInstantiate(exec_out, graph, 0);
  cudaGraphDestroy(graph);
  return st;
}

int main() {
  const int hidden = 1024, max_batch = 32;
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return 1;
  float *x = nullptr, *y = nullptr;
  cudaError_t st = cudaMalloc(&x, sizeof(float) * hidden * max_batch);
  if (st == cudaSuccess) st = cudaMalloc(&y, sizeof(float) * hidden * max_batch);
  if (st != cudaSuccess) {
    if (x != nullptr) cudaFree(x);
    cudaStreamDestroy(s);
    return 1;
  }
  cudaMemsetAsync(x, 0, sizeof(float) * hidden * max_batch, s);

  cudaGraphExec_t exec = nullptr;
  int captured_batch = -1;
  const int schedule[] = {4, 4, 8, 8, 8, 32, 1, 1};
  for (int batch : schedule) {
    bool have_exec = exec != nullptr;
    if (have_exec && batch != captured_batch) {
      cudaGraphExecDestroy(exec);
      exec = nullptr;
      have_exec = false;
    }
    if (!have_exec) {
      if (capture_once(s, y, x, batch, hidden, &exec) != cudaSuccess) {
        exec = nullptr;
        break;
      }
      captured_batch = batch;
    }
    cudaGraphLaunch(exec, s);
  }
  cudaStreamSynchronize(s);
  if (!!exec) cudaGraphExecDestroy(exec);
  cudaFree(y);
  cudaFree(x);
  cudaStreamDestroy(s);
  std::printf("last batch %d\n", captured_batch);
  return 0;
}
