// Block reductions that finish with warp shuffles and keep one partial per warp.
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) block_sum(const float *x, float *out, int n) {
  __shared__ float warp_partial[BLOCK / 32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float v = 0.f;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
    v += x[i];
  v = warp_sum(v);
  if (lane == 0) warp_partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = (lane < BLOCK / 32) ? warp_partial[lane] : 0.f;
    v = warp_sum(v);
    if (lane == 0) atomicAdd(out, v);
  }
}

// Bug: warp 0 reads a full warp of partials without the lane guard; with 256
// threads there are only 8.
template <int BLOCK>
__global__ void block_max(const float *x, float *out, int n) {
  __shared__ float partial[BLOCK / 32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float m = -1e30f;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
    m = fmaxf(m, x[i]);
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_down_sync(0xffffffffu, m, o));
  if (lane == 0) partial[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = partial[lane]; // EXPECT: cudagraph-shared-index-overflow
    for (int o = 16; o > 0; o >>= 1)
      m = fmaxf(m, __shfl_down_sync(0xffffffffu, m, o));
    if (lane == 0) out[blockIdx.x] = m;
  }
}

// Bug: instantiated for 128 threads but launched with 256.
template <int THREADS>
__global__ void block_scale(float *x, float a) {
  __shared__ float buf[THREADS];
  buf[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x] * a; // EXPECT: cudagraph-shared-index-overflow
  __syncthreads();
  x[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x]; // EXPECT: cudagraph-shared-index-overflow
}

void launch(const float *x, float *out, float *y, int n, cudaStream_t s) {
  block_sum<256><<<120, 256, 0, s>>>(x, out, n);
  block_sum<1024><<<60, 1024, 0, s>>>(x, out, n);
  block_max<256><<<120, 256, 0, s>>>(x, out, n);
  block_max<1024><<<60, 1024, 0, s>>>(x, out, n);
  block_scale<128><<<n / 256, 256, 0, s>>>(y, 2.f);
}
