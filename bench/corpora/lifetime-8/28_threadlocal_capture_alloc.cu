// Workspace allocation inside a capture. Allocating with cudaMalloc is prohibited
// in global and thread-local capture modes and allowed in relaxed mode (the mode
// libraries such as cuBLAS-style workspace code use). capture_tl_buggy allocates
// in thread-local mode; capture_relaxed does the same in relaxed mode.
#include <cuda_runtime.h>

__global__ void gemv(const float *a, const float *x, float *y, float *ws, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { ws[i] = a[i] * x[i]; y[i] = ws[i]; }
}

struct Ctx {
  float *workspace = nullptr;
  size_t ws_bytes = 0;
};

cudaError_t capture_tl_buggy(Ctx *c, const float *a, const float *x, float *y, int n,
                             cudaStream_t s, cudaGraph_t *g) {
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (st != cudaSuccess) return st;
  if (c->workspace == nullptr) { // first use: allocate lazily
    cudaMalloc(&c->workspace, n * sizeof(float)); // EXPECT: cudagraph-capture-unsafe-call
    c->ws_bytes = n * sizeof(float);
  }
  gemv<<<(n + 127) / 128, 128, 0, s>>>(a, x, y, c->workspace, n);
  return cudaStreamEndCapture(s, g);
}

cudaError_t capture_relaxed(Ctx *c, const float *a, const float *x, float *y, int n,
                            cudaStream_t s, cudaGraph_t *g) {
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  if (st != cudaSuccess) return st;
  if (c->workspace == nullptr) { // first use: allocate lazily
    cudaMalloc(&c->workspace, n * sizeof(float));
    c->ws_bytes = n * sizeof(float);
  }
  gemv<<<(n + 127) / 128, 128, 0, s>>>(a, x, y, c->workspace, n);
  return cudaStreamEndCapture(s, g);
}

// Thread-local capture with the workspace grown before the capture starts. Correct.
cudaError_t capture_tl_prealloc(Ctx *c, const float *a, const float *x, float *y, int n,
                                cudaStream_t s, cudaGraph_t *g) {
  if (c->ws_bytes < n * sizeof(float)) {
    cudaFree(c->workspace);
    cudaError_t st = cudaMalloc(&c->workspace, n * sizeof(float));
    if (st != cudaSuccess) { c->workspace = nullptr; c->ws_bytes = 0; return st; }
    c->ws_bytes = n * sizeof(float);
  }
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (st != cudaSuccess) return st;
  gemv<<<(n + 127) / 128, 128, 0, s>>>(a, x, y, c->workspace, n);
  return cudaStreamEndCapture(s, g);
}

// Argument validation placed after the capture began: the early return leaves the
// stream capturing.
cudaError_t capture_checked_buggy(Ctx *c, const float *a, const float *x, float *y, int n,
                                  cudaStream_t s, cudaGraph_t *g) {
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal); // EXPECT: cudagraph-capture-without-destroy
  if (st != cudaSuccess) return st;
  if (n <= 0 || c->workspace == nullptr) return cudaErrorInvalidValue;
  gemv<<<(n + 127) / 128, 128, 0, s>>>(a, x, y, c->workspace, n);
  return cudaStreamEndCapture(s, g);
}

// The same validation before the capture. Correct.
cudaError_t capture_checked(Ctx *c, const float *a, const float *x, float *y, int n,
                            cudaStream_t s, cudaGraph_t *g) {
  if (n <= 0 || c->workspace == nullptr) return cudaErrorInvalidValue;
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (st != cudaSuccess) return st;
  gemv<<<(n + 127) / 128, 128, 0, s>>>(a, x, y, c->workspace, n);
  return cudaStreamEndCapture(s, g);
}
