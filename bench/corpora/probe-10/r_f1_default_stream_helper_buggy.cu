#define BUGGY
// PLANTED: cudagraph-capture-structure line 58
// Transformer block capture for the decode graph. The kernel launchers follow the
// usual "stream defaults to 0" convention of the project's ops library.
#include <cuda_runtime.h>
#include <cstdio>
#include <stdexcept>
#include <string>

inline void cuda_check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + " " + what +
                             ": " + cudaGetErrorString(e));
}
#define CUDA_CHECK(x) cuda_check((x), #x, __FILE__, __LINE__)

__global__ void rmsnorm_kernel(float* out, const float* in, const float* w, int cols, float eps) {
  int row = blockIdx.x;
  float ss = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) ss += in[row * cols + c] * in[row * cols + c];
  float inv = rsqrtf(ss / cols + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[row * cols + c] = in[row * cols + c] * inv * w[c];
}

__global__ void silu_mul_kernel(float* out, const float* gate_up, int rows, int inter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * inter) return;
  int r = i / inter, c = i % inter;
  float g = gate_up[r * 2 * inter + c], u = gate_up[r * 2 * inter + inter + c];
  out[i] = g / (1.f + __expf(-g)) * u;
}

void launch_rmsnorm(float* out, const float* in, const float* w, int rows, int cols,
                    float eps = 1e-6f, cudaStream_t stream = 0) {
  rmsnorm_kernel<<<rows, 256, 0, stream>>>(out, in, w, cols, eps);
}

void launch_silu_mul(float* out, const float* gate_up, int rows, int inter,
                     cudaStream_t stream = 0) {
  int n = rows * inter;
  silu_mul_kernel<<<(n + 255) / 256, 256, 0, stream>>>(out, gate_up, rows, inter);
}

struct BlockBuffers {
  float* x;
  float* normed;
  float* gate_up;
  float* act;
  const float* ln_w;
  int rows;
  int hidden;
  int inter;
};

cudaGraphExec_t capture_mlp_block(const BlockBuffers& b, cudaStream_t stream) {
  cudaGraph_t graph = nullptr;
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
#ifdef BUGGY
  launch_rmsnorm(b.normed, b.x, b.ln_w, b.rows, b.hidden);  // EXPECT: cudagraph-capture-structure
#else
  launch_rmsnorm(b.normed, b.x, b.ln_w, b.rows, b.hidden, 1e-6f, stream);
#endif
  // (the up/gate projection GEMM writes b.gate_up here)
  launch_silu_mul(b.act, b.gate_up, b.rows, b.inter, stream);
  CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  cudaError_t st = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  CUDA_CHECK(st);
  return exec;
}
