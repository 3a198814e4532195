// EXPECT: cudagraph-barrier-divergence line 23
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int WARPS = 4;

// CSR SpMV, one warp per row; lane partial sums are folded through a per-warp
// shared strip with __syncwarp between the steps.
__global__ void spmv_csr_warp(const int* __restrict__ rowptr, const int* __restrict__ colidx,
                              const float* __restrict__ vals, const float* __restrict__ x,
                              float* __restrict__ y, int nrows) {
  __shared__ float partial[WARPS][32];
  const int lane = threadIdx.x & 31;
  const int w = threadIdx.x >> 5;
  const int row = blockIdx.x * WARPS + w;
  float sum = 0.f;
  if (row < nrows) {
    for (int j = rowptr[row] + lane; j < rowptr[row + 1]; j += 32) sum += vals[j] * x[colidx[j]];
  }
  partial[w][lane] = sum;
#ifdef BUGGY
  __syncwarp(0x0000ffffu);  // <bug>
#else
  __syncwarp();
#endif
  for (int off = 16; off > 0; off >>= 1) {
    if (lane < off) partial[w][lane] += partial[w][lane + off];
    __syncwarp();
  }
  if (lane == 0 && row < nrows) y[row] = partial[w][0];
}

int main() {
  const int nrows = 64, ncols = 64;
  std::vector<int> rp(nrows + 1), ci;
  std::vector<float> v, x(ncols, 1.f);
  for (int r = 0; r < nrows; ++r) {
    rp[r] = (int)ci.size();
    for (int c = r % 3; c < ncols; c += 1 + (r % 5)) { ci.push_back(c); v.push_back(0.5f); }
  }
  rp[nrows] = (int)ci.size();
  int *drp, *dci;
  float *dv, *dx, *dy;
  cudaMalloc(&drp, rp.size() * 4);
  cudaMalloc(&dci, ci.size() * 4);
  cudaMalloc(&dv, v.size() * 4);
  cudaMalloc(&dx, ncols * 4);
  cudaMalloc(&dy, nrows * 4);
  cudaMemcpy(drp, rp.data(), rp.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dci, ci.data(), ci.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, v.data(), v.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x.data(), ncols * 4, cudaMemcpyHostToDevice);
  spmv_csr_warp<<<nrows / WARPS, WARPS * 32>>>(drp, dci, dv, dx, dy, nrows);
  std::vector<float> y(nrows);
  cudaMemcpy(y.data(), dy, nrows * 4, cudaMemcpyDeviceToHost);
  printf("y[0]=%f %s\n", y[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(drp); cudaFree(dci); cudaFree(dv); cudaFree(dx); cudaFree(dy);
  return 0;
}
