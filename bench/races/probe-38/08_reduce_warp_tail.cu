// EXPECT(BUGGY): cudagraph-shared-race line 10 (also accepted: lines 9,11)
// Grid-stride sum reduction (256 threads): shared tree down to 64 values, then the last
// warp finishes. BUGGY: the classic pre-Volta volatile tail with no __syncwarp.
#include <cuda_runtime.h>
#include <cstdio>

#ifdef BUGGY
__device__ void warp_tail(volatile float* s, int tid) {
  s[tid] += s[tid + 32];  //@a
  s[tid] += s[tid + 16];  //@@
  s[tid] += s[tid + 8];  //@a
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}
#else
__device__ void warp_tail(volatile float* s, int tid) {
  float v = s[tid];
  for (int o = 32; o > 0; o >>= 1) {
    v += s[tid + o];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
  }
}
#endif

__global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ partial, int n) {
  __shared__ float s[256];
  const int tid = threadIdx.x;
  float sum = 0.f;
  for (int i = blockIdx.x * 256 + tid; i < n; i += gridDim.x * 256) sum += in[i];
  s[tid] = sum;
  __syncthreads();
  for (int st = 128; st > 32; st >>= 1) {
    if (tid < st) s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid < 32) warp_tail(s, tid);
  if (tid == 0) partial[blockIdx.x] = s[0];
}

void launch_reduce(const float* in, float* partial, int n, int blocks, cudaStream_t st) {
  reduce_sum<<<blocks, 256, 0, st>>>(in, partial, n);
}

#ifdef WITH_MAIN
int main() {
  const int n = 1 << 16, blocks = 32;
  float *in, *p;
  cudaMalloc(&in, n * 4); cudaMalloc(&p, blocks * 4);
  cudaMemset(in, 0, n * 4);
  launch_reduce(in, p, n, blocks, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
