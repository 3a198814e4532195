// EXPECT(BUGGY): cudagraph-barrier-divergence line 24
// Row-wise first-order differences (delta coding) of a 1000-wide row by a 256-thread
// block, chunk by chunk, with the last value of each chunk carried to the next.
// BUGGY: the chunk loop is written per thread (for c = tid; c < cols; c += 256), so the
// last chunk's barriers are met only by the threads that still have an element.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int BS = 256;

__global__ void delta_rows(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ last,
                           int cols) {
  __shared__ float s_chunk[BS];
  __shared__ float s_carry;
  const int tid = threadIdx.x;
  const float* xr = x + (size_t)blockIdx.x * cols;
  float* yr = y + (size_t)blockIdx.x * cols;
  if (tid == 0) s_carry = 0.f;
  __syncthreads();
#ifdef BUGGY
  for (int c = tid; c < cols; c += BS) {
    const float v = xr[c];
    s_chunk[tid] = v;
    __syncthreads();  //@@
    const float prev = tid == 0 ? s_carry : s_chunk[tid - 1];
    yr[c] = v - prev;
    __syncthreads();
    if (tid == BS - 1) s_carry = v;
  }
#else
  for (int c0 = 0; c0 < cols; c0 += BS) {
    const int c = c0 + tid;
    const float v = c < cols ? xr[c] : 0.f;
    s_chunk[tid] = v;
    __syncthreads();
    const float prev = tid == 0 ? s_carry : s_chunk[tid - 1];
    if (c < cols) yr[c] = v - prev;
    __syncthreads();
    if (c == cols - 1 || (tid == BS - 1 && c < cols)) s_carry = v;
  }
#endif
  __syncthreads();
  if (tid == 0) last[blockIdx.x] = s_carry;
}

void launch_delta(const float* x, float* y, float* last, int rows, int cols, cudaStream_t st) {
  delta_rows<<<rows, BS, 0, st>>>(x, y, last, cols);
}

#ifdef WITH_MAIN
int main() {
  const int rows = 8, cols = 1000;
  float *x, *y, *l;
  cudaMalloc(&x, rows * cols * 4); cudaMalloc(&y, rows * cols * 4); cudaMalloc(&l, rows * 4);
  cudaMemset(x, 0, rows * cols * 4);
  launch_delta(x, y, l, rows, cols, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
