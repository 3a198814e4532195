// Work-efficient (Blelloch) exclusive scan of 2*BLOCK elements per block,
// without bank-conflict avoidance: the tree levels use strides 2, 4, 8, ...
#include <cuda_runtime.h>

#define SCAN_BLOCK 256

__global__ void prescan(float *g_out, const float *g_in, float *g_sums) {
  __shared__ float temp[2 * SCAN_BLOCK];
  const int n = 2 * SCAN_BLOCK;
  int thid = threadIdx.x;
  const float *in = g_in + blockIdx.x * n;
  float *out = g_out + blockIdx.x * n;
  temp[2 * thid] = in[2 * thid];
  temp[2 * thid + 1] = in[2 * thid + 1];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      temp[bi] += temp[ai]; // EXPECT: cudagraph-shared-bank-conflict
    }
    offset *= 2;
  }
  if (thid == 0) {
    g_sums[blockIdx.x] = temp[n - 1];
    temp[n - 1] = 0;
  }
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      float t = temp[ai]; // EXPECT: cudagraph-shared-bank-conflict
      temp[ai] = temp[bi]; // EXPECT: cudagraph-shared-bank-conflict
      temp[bi] += t; // EXPECT: cudagraph-shared-bank-conflict
    }
  }
  __syncthreads();
  out[2 * thid] = temp[2 * thid];
  out[2 * thid + 1] = temp[2 * thid + 1];
}

// Hillis-Steele inclusive scan with double buffering: unit stride, clean.
__global__ void scan_naive(float *g_out, const float *g_in, int n) {
  __shared__ float buf[2][SCAN_BLOCK];
  int t = threadIdx.x, pout = 0, pin = 1;
  buf[pout][t] = (t < n) ? g_in[t] : 0.f;
  __syncthreads();
  for (int off = 1; off < SCAN_BLOCK; off *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (t >= off)
      buf[pout][t] = buf[pin][t] + buf[pin][t - off];
    else
      buf[pout][t] = buf[pin][t];
    __syncthreads();
  }
  if (t < n) g_out[t] = buf[pout][t];
}

void scan(float *out, const float *in, float *sums, int nblocks, cudaStream_t s) {
  prescan<<<nblocks, SCAN_BLOCK, 0, s>>>(out, in, sums);
  scan_naive<<<1, SCAN_BLOCK, 0, s>>>(out, in, SCAN_BLOCK);
}
