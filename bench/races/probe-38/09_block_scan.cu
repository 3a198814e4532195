// EXPECT(BUGGY): cudagraph-shared-race line 21 (also accepted: lines 17)
// Hillis-Steele inclusive block scan in place (512 threads) for stream compaction offsets;
// the read of the neighbour must complete before anyone updates its slot.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int BS = 512;

__global__ void block_scan(const int* __restrict__ in, int* __restrict__ out, int* __restrict__ block_sums,
                           int n) {
  __shared__ int s[BS];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BS + tid;
  s[tid] = gid < n ? in[gid] : 0;
  __syncthreads();
  for (int off = 1; off < BS; off <<= 1) {
    const int t = tid >= off ? s[tid - off] : 0;  //@a
#ifndef BUGGY
    __syncthreads();
#endif
    s[tid] += t;  //@@
    __syncthreads();
  }
  if (gid < n) out[gid] = s[tid];
  if (tid == BS - 1) block_sums[blockIdx.x] = s[BS - 1];
}

void launch_scan(const int* in, int* out, int* sums, int n, cudaStream_t st) {
  block_scan<<<(n + BS - 1) / BS, BS, 0, st>>>(in, out, sums, n);
}

#ifdef WITH_MAIN
int main() {
  const int n = 4000;
  int *in, *out, *sums;
  cudaMalloc(&in, n * 4); cudaMalloc(&out, n * 4); cudaMalloc(&sums, 64 * 4);
  cudaMemset(in, 0, n * 4);
  launch_scan(in, out, sums, n, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
