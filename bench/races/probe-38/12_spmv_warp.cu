// EXPECT(BUGGY): cudagraph-shared-race line 21 (also accepted: lines 15)
// CSR SpMV, one warp per row (4 rows per 128-thread block); the block's row pointers
// are staged in shared memory first.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int WARPS = 4;

__global__ void spmv_csr_warp(const int* __restrict__ row_ptr, const int* __restrict__ col,
                              const float* __restrict__ val, const float* __restrict__ x,
                              float* __restrict__ y, int n_rows) {
  __shared__ int s_ptr[WARPS + 1];
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  const int row0 = blockIdx.x * WARPS;
  if (tid <= WARPS && row0 + tid <= n_rows) s_ptr[tid] = row_ptr[row0 + tid];  //@a
#ifndef BUGGY
  __syncthreads();
#endif
  const int row = row0 + warp;
  if (row >= n_rows) return;
  const int beg = s_ptr[warp], end = s_ptr[warp + 1];  //@@
  float sum = 0.f;
  for (int j = beg + lane; j < end; j += 32) sum += val[j] * __ldg(&x[col[j]]);
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (lane == 0) y[row] = sum;
}

void launch_spmv(const int* rp, const int* ci, const float* v, const float* x, float* y, int n_rows,
                 cudaStream_t st) {
  spmv_csr_warp<<<(n_rows + WARPS - 1) / WARPS, WARPS * 32, 0, st>>>(rp, ci, v, x, y, n_rows);
}

#ifdef WITH_MAIN
int main() {
  const int n = 1000;
  int *rp, *ci; float *v, *x, *y;
  cudaMalloc(&rp, (n + 1) * 4); cudaMalloc(&ci, 16 * 4); cudaMalloc(&v, 16 * 4);
  cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4);
  cudaMemset(rp, 0, (n + 1) * 4); cudaMemset(x, 0, n * 4);
  launch_spmv(rp, ci, v, x, y, n, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
