// A library entry point that may be called inside a caller's capture. It only
// synchronizes and allocates when the stream is not capturing; when it is
// capturing, it uses the stream-ordered allocator. Correct throughout.
#include <cuda_runtime.h>

__global__ void normalize(float *x, const float *scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= scale[0];
}

__global__ void fill_scalar(float *p, float v) { *p = v; }

cudaError_t normalize_inplace(float *d_x, int n, float scale, cudaStream_t s) {
  cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
  cudaError_t st = cudaStreamIsCapturing(s, &cs);
  if (st != cudaSuccess) return st;
  float *d_scale = nullptr;
  if (cs == cudaStreamCaptureStatusActive) {
    st = cudaMallocAsync(&d_scale, sizeof(float), s);
    if (st != cudaSuccess) return st;
    fill_scalar<<<1, 1, 0, s>>>(d_scale, scale);
    normalize<<<(n + 255) / 256, 256, 0, s>>>(d_x, d_scale, n);
    return cudaFreeAsync(d_scale, s);
  }
  st = cudaMalloc(&d_scale, sizeof(float));
  if (st != cudaSuccess) return st;
  cudaMemcpy(d_scale, &scale, sizeof(float), cudaMemcpyHostToDevice);
  normalize<<<(n + 255) / 256, 256, 0, s>>>(d_x, d_scale, n);
  st = cudaStreamSynchronize(s);
  cudaFree(d_scale);
  return st;
}

// Captures the library call into a graph; the eager path runs it directly.
cudaError_t build_normalize_graph(float *d_x, int n, cudaStream_t s, cudaGraphExec_t *exec,
                                  bool use_graph) {
  if (!use_graph) {
    cudaError_t st = normalize_inplace(d_x, n, 2.f, s);
    if (st == cudaSuccess) st = cudaStreamSynchronize(s);
    return st;
  }
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (st != cudaSuccess) return st;
  normalize_inplace(d_x, n, 2.f, s);
  cudaGraph_t g = nullptr;
  st = cudaStreamEndCapture(s, &g);
  if (st != cudaSuccess) return st;
  st = cudaGraphInstantiate(exec, g, 0);
  cudaGraphDestroy(g);
  return st;
}
