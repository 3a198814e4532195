// Warm-up capture of an attention block. Three captures: the first allocates a
// workspace and uploads a constant inside a global-mode capture; the second does
// the same allocation under relaxed mode (legal) and uploads with a stream-ordered
// copy; the third synchronizes for a debug check in the middle of the capture.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void attn(const float *q, const float *k, float *o, float *ws, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { ws[i] = q[i] * k[i]; o[i] = ws[i]; }
}

// Pinned host copy of the softmax scale, set up at init.
extern float *g_pinned_scale;

cudaError_t capture_attn_global(const float *q, const float *k, float *o, int n,
                                cudaStream_t s, cudaGraph_t *out) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  float *ws = nullptr;
  cudaMalloc(&ws, n * sizeof(float));                    // EXPECT: cudagraph-capture-unsafe-call
  float *d_scale = nullptr;
  cudaMallocAsync(&d_scale, sizeof(float), s);
  cudaMemcpy(d_scale, g_pinned_scale, sizeof(float), cudaMemcpyHostToDevice); // EXPECT: cudagraph-capture-unsafe-call
  attn<<<(n + 127) / 128, 128, 0, s>>>(q, k, o, ws, n);
  cudaFreeAsync(d_scale, s);
  cudaError_t st = cudaStreamEndCapture(s, out);
  cudaFree(ws);
  return st;
}

cudaError_t capture_attn_relaxed(const float *q, const float *k, float *o, int n,
                                 cudaStream_t s, cudaGraph_t *out, float **ws_out) {
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  if (st != cudaSuccess) return st;
  float *ws = nullptr;
  cudaMalloc(&ws, n * sizeof(float));
  float *d_scale = nullptr;
  cudaMallocAsync(&d_scale, sizeof(float), s);
  cudaMemcpyAsync(d_scale, g_pinned_scale, sizeof(float), cudaMemcpyHostToDevice, s);
  attn<<<(n + 127) / 128, 128, 0, s>>>(q, k, o, ws, n);
  cudaFreeAsync(d_scale, s);
  st = cudaStreamEndCapture(s, out);
  *ws_out = ws; // the workspace lives as long as the graph; the caller frees it
  return st;
}

cudaError_t capture_attn_debug(const float *q, const float *k, float *o, float *ws, int n,
                               cudaStream_t s, cudaGraph_t *out, bool debug) {
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  if (st != cudaSuccess) return st;
  attn<<<(n + 127) / 128, 128, 0, s>>>(q, k, o, ws, n);
  if (debug) {
    cudaStreamSynchronize(s);                             // EXPECT: cudagraph-capture-unsafe-call
    std::printf("attn launched: %s\n", cudaGetErrorString(cudaGetLastError()));
  }
  attn<<<(n + 127) / 128, 128, 0, s>>>(o, k, o, ws, n);
  return cudaStreamEndCapture(s, out);
}
