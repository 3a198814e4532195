// Kernels using extern __shared__ buffers sized by the launch.
#include <cuda_runtime.h>

__global__ void neighbour_diff(const float *in, float *out, int n) {
  extern __shared__ float buf[];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  buf[t] = g < n ? in[g] : 0.f;
  if (t == 0) buf[blockDim.x] = (g + blockDim.x < n) ? in[g + blockDim.x] : 0.f;
  __syncthreads();
  if (g < n) out[g] = buf[t + 1] - buf[t];
}

// Two arrays carved out of one dynamic buffer: keys then values.
__global__ void kv_stage(const int *keys, const float *vals, int *okeys, float *ovals) {
  extern __shared__ unsigned char smem[];
  int *s_keys = reinterpret_cast<int *>(smem);
  float *s_vals = reinterpret_cast<float *>(smem + blockDim.x * sizeof(int));
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s_keys[t] = keys[g];
  s_vals[t] = vals[g]; // EXPECT: cudagraph-shared-index-overflow
  __syncthreads();
  okeys[g] = s_keys[blockDim.x - 1 - t];
  ovals[g] = s_vals[blockDim.x - 1 - t]; // EXPECT: cudagraph-shared-index-overflow
}

// Bug: reads one past the end of a buffer sized blockDim.x floats.
__global__ void shift_left(const float *in, float *out) {
  extern __shared__ float sh[];
  int t = threadIdx.x;
  sh[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = sh[t + 1]; // EXPECT: cudagraph-shared-index-overflow
}

void run_dynamic(const float *in, float *out, const int *k, const float *v, int *ok, float *ov,
                 int n, cudaStream_t s) {
  const int threads = 256;
  int blocks = (n + threads - 1) / threads;
  neighbour_diff<<<blocks, threads, (threads + 1) * sizeof(float), s>>>(in, out, n);
  // Bug: only the key half of the buffer was requested.
  kv_stage<<<blocks, threads, threads * sizeof(int), s>>>(k, v, ok, ov);
  shift_left<<<blocks, threads, threads * sizeof(float), s>>>(in, out);
}
