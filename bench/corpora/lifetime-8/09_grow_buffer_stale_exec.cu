// Serving loop that replays a captured decode graph and grows the KV buffer when
// a longer request arrives. serve_buggy reallocates the buffer but keeps
// launching the exec captured over the old one. serve_recapture and
// serve_update are the two correct fixes.
#include <cuda_runtime.h>

__global__ void decode(float *kv, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < len) kv[i] += 1.f;
}

static int next_len(int step) { return 1024 + 512 * (step / 8); }

void serve_buggy(cudaStream_t s, int steps) {
  int cap = 1024;
  float *kv = nullptr;
  cudaMalloc(&kv, cap * sizeof(float));
  cudaGraph_t g;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  decode<<<cap / 256, 256, 0, s>>>(kv, cap);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  for (int step = 0; step < steps; ++step) {
    int need = next_len(step);
    if (need > cap) {
      cudaStreamSynchronize(s);
      cudaFree(kv);
      cudaMalloc(&kv, need * sizeof(float));
      cap = need;
    }
    cudaGraphLaunch(exec, s); // EXPECT: cudagraph-use-after-dealloc
  }
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  cudaFree(kv);
}

void serve_recapture(cudaStream_t s, int steps) {
  int cap = 1024;
  float *kv = nullptr;
  cudaMalloc(&kv, cap * sizeof(float));
  cudaGraph_t g;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  decode<<<cap / 256, 256, 0, s>>>(kv, cap);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  for (int step = 0; step < steps; ++step) {
    int need = next_len(step);
    if (need > cap) {
      cudaStreamSynchronize(s);
      cudaGraphExecDestroy(exec);
      cudaFree(kv);
      cudaMalloc(&kv, need * sizeof(float));
      cap = need;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      decode<<<cap / 256, 256, 0, s>>>(kv, cap);
      cudaStreamEndCapture(s, &g);
      cudaGraphInstantiate(&exec, g, 0);
      cudaGraphDestroy(g);
    }
    cudaGraphLaunch(exec, s);
  }
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  cudaFree(kv);
}

void serve_update(cudaStream_t s, int steps) {
  int cap = 1024;
  float *kv = nullptr;
  cudaMalloc(&kv, cap * sizeof(float));
  cudaGraph_t g;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  decode<<<cap / 256, 256, 0, s>>>(kv, cap);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g);
  for (int step = 0; step < steps; ++step) {
    int need = next_len(step);
    if (need > cap) {
      cudaStreamSynchronize(s);
      cudaFree(kv);
      cudaMalloc(&kv, need * sizeof(float));
      cap = need;
      cudaGraph_t fresh;
      cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
      decode<<<cap / 256, 256, 0, s>>>(kv, cap);
      cudaStreamEndCapture(s, &fresh);
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec, fresh, &info) != cudaSuccess) {
        cudaGraphExecDestroy(exec);
        cudaGraphInstantiate(&exec, fresh, 0);
      }
      cudaGraphDestroy(fresh);
    }
    cudaGraphLaunch(exec, s);
  }
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  cudaFree(kv);
}
