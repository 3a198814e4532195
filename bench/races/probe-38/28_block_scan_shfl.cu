// EXPECT: none
// Block-wide exclusive scan (512 threads) for radix-sort digit offsets: shuffle scan in
// each warp, warp totals scanned in place by warp 0 (each lane reads and writes its own
// slot), two barriers.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int BS = 512;

__global__ void block_excl_scan(const int* __restrict__ in, int* __restrict__ out, int n) {
  __shared__ int s_tot[32];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int gid = blockIdx.x * BS + tid;
  const int x = gid < n ? in[gid] : 0;
  int v = x;
  for (int o = 1; o < 32; o <<= 1) {
    const int t = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += t;
  }
  if (lane == 31) s_tot[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < BS / 32 ? s_tot[lane] : 0;
    for (int o = 1; o < 32; o <<= 1) {
      const int u = __shfl_up_sync(0xffffffffu, t, o);
      if (lane >= o) t += u;
    }
    if (lane < BS / 32) s_tot[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += s_tot[warp - 1];
  if (gid < n) out[gid] = v - x;
}

void launch_excl_scan(const int* in, int* out, int n, cudaStream_t st) {
  block_excl_scan<<<(n + BS - 1) / BS, BS, 0, st>>>(in, out, n);
}

#ifdef WITH_MAIN
int main() {
  const int n = 3000;
  int *in, *out;
  cudaMalloc(&in, n * 4); cudaMalloc(&out, n * 4);
  cudaMemset(in, 0, n * 4);
  launch_excl_scan(in, out, n, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
