// Block sum reductions in the style of the classic "reduce0..reduce3" series,
// plus a copy whose shared array was sized for 256 threads but is launched
// with 512.
#include <cuda_runtime.h>

template <unsigned BLOCK>
__global__ void reduce0_modulo(const float *g_in, float *g_out, unsigned n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + tid;
  sdata[tid] = (i < n) ? g_in[i] : 0.f;
  __syncthreads();
  for (unsigned s = 1; s < BLOCK; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_out[blockIdx.x] = sdata[0];
}

template <unsigned BLOCK>
__global__ void reduce1_interleaved(const float *g_in, float *g_out, unsigned n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + tid;
  sdata[tid] = (i < n) ? g_in[i] : 0.f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s]; // EXPECT: cudagraph-shared-bank-conflict
    __syncthreads();
  }
  if (tid == 0) g_out[blockIdx.x] = sdata[0];
}

template <unsigned BLOCK>
__global__ void reduce2_sequential(const float *g_in, float *g_out, unsigned n) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BLOCK * 2) + tid;
  float v = 0.f;
  if (i < n) v = g_in[i];
  if (i + BLOCK < n) v += g_in[i + BLOCK];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float *vs = sdata;
    vs[tid] += vs[tid + 32];
    vs[tid] += vs[tid + 16];
    vs[tid] += vs[tid + 8];
    vs[tid] += vs[tid + 4];
    vs[tid] += vs[tid + 2];
    vs[tid] += vs[tid + 1];
  }
  if (tid == 0) g_out[blockIdx.x] = sdata[0];
}

// Bug: the scratch array is sized for 256 threads, the launch uses 512.
__global__ void reduce_fixed256(const float *g_in, float *g_out, unsigned n) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = (i < n) ? g_in[i] : 0.f; // EXPECT: cudagraph-shared-index-overflow
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s]; // EXPECT: cudagraph-shared-index-overflow
    __syncthreads();
  }
  if (tid == 0) g_out[blockIdx.x] = sdata[0];
}

void reduce_all(const float *in, float *out, unsigned n, cudaStream_t st) {
  constexpr unsigned kBlock = 256;
  unsigned blocks = (n + kBlock - 1) / kBlock;
  reduce0_modulo<kBlock><<<blocks, kBlock, 0, st>>>(in, out, n);
  reduce1_interleaved<kBlock><<<blocks, kBlock, 0, st>>>(in, out, n);
  reduce2_sequential<kBlock><<<blocks / 2, kBlock, 0, st>>>(in, out, n);
  reduce_fixed256<<<(n + 511) / 512, 512, 0, st>>>(in, out, n);
}
