// Blelloch scan with the conflict-free offset (one padding word per 32).
#include <cuda_runtime.h>

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

template <int BLOCK>
__global__ void prescan_cf(int *g_out, const int *g_in) {
  constexpr int n = 2 * BLOCK;
  __shared__ int temp[n + n / NUM_BANKS];
  int thid = threadIdx.x;
  const int *in = g_in + blockIdx.x * n;
  int *out = g_out + blockIdx.x * n;
  int ai = thid, bi = thid + n / 2;
  int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
  int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
  temp[ai + bankOffsetA] = in[ai];
  temp[bi + bankOffsetB] = in[bi];
  int offset = 1;
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1;
      int b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      temp[b] += temp[a];
    }
    offset *= 2;
  }
  if (thid == 0) temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1;
      int b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      int t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();
  out[ai] = temp[ai + bankOffsetA];
  out[bi] = temp[bi + bankOffsetB];
}

// Bug: padding added to the indices but not to the array size.
__global__ void prescan_cf_small(int *g_out, const int *g_in) {
  __shared__ int temp[256];
  int thid = threadIdx.x;
  int ai = thid, bi = thid + 128;
  temp[ai + CONFLICT_FREE_OFFSET(ai)] = g_in[blockIdx.x * 256 + ai];
  temp[bi + CONFLICT_FREE_OFFSET(bi)] = g_in[blockIdx.x * 256 + bi]; // EXPECT: cudagraph-shared-index-overflow
  __syncthreads();
  g_out[blockIdx.x * 256 + ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];
  g_out[blockIdx.x * 256 + bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)]; // EXPECT: cudagraph-shared-index-overflow
}

void scan_cf(int *out, const int *in, int blocks, cudaStream_t s) {
  prescan_cf<128><<<blocks, 128, 0, s>>>(out, in);
  prescan_cf_small<<<blocks, 128, 0, s>>>(out, in);
}
