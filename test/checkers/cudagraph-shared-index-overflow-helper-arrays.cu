// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
//
// One __device__ helper called with several __shared__ arrays: each call's
// accesses are judged against the array that call passes, with its layout
// (HeCBench expdist's fill_shared_mem_tiled_1D, called with a row `sh_A[d]`
// of a 2-D array and then with a 1-D array). Every buggy kernel has a clean
// twin.
#include <cuda_runtime.h>

// 1. A row of a 2-D array, then a 1-D array, by reference. Clean.
__device__ void fillRow(float (&row)[128], const float *g, int off) {
  for (int t = 0; t < 4; t++)
    row[off + t * 32] = g[off + t * 32];
}

__global__ void rowThen1D(const float *g, float *out) {
  __shared__ float sh[2][128];
  __shared__ float shs[128];
  fillRow(sh[1], g, threadIdx.x);
  fillRow(shs, g, threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = sh[1][127 - threadIdx.x] + shs[threadIdx.x];
}

// 1b. The same calls, the helper writing one element past the row.
__device__ void fillRowPastEnd(float (&row)[128], const float *g, int off) {
  for (int t = 0; t < 4; t++)
    row[off + t * 32 + 1] = g[off + t * 32];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: __shared__ array 'sh' is indexed out of bounds in dimension 2 of 2: the index reaches 128 but that dimension has 128 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (32,1,1) from this launch, thread 31 goes out of bounds
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: the access is in 'fillRowPastEnd', called here from 'rowThen1DPastEnd'
}
__global__ void rowThen1DPastEnd(const float *g) {
  __shared__ float sh[2][128];
  __shared__ float shs[128];
  fillRowPastEnd(sh[1], g, threadIdx.x);
  fillRowPastEnd(shs, g, threadIdx.x);
}

// 2. A pointer helper given a large array and then a small one: the small
//    one's call leaves it.
__device__ void storeAt(float *b, int i, float v) { b[i] = v; }
__global__ void bigThenSmall(const float *g) {
  __shared__ float big[256];
  __shared__ float small[128];
  storeAt(big, threadIdx.x, g[threadIdx.x]);
  storeAt(small, threadIdx.x, g[threadIdx.x]);
}
// CHECK-NOTES: :42:53: warning: __shared__ array 'small' is indexed out of bounds: the access reaches byte offset 1020 of a 512-byte array (index 255 of 128 elements of 4 bytes) [cudagraph-shared-index-overflow]
// CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 128-255 (128 threads) go out of bounds
// CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: the access is in 'storeAt', called here from 'bigThenSmall'
// Twin: each array gets the threads it has room for.
__global__ void bigThenSmallOk(const float *g) {
  __shared__ float big[256];
  __shared__ float small[128];
  storeAt(big, threadIdx.x, g[threadIdx.x]);
  storeAt(small, threadIdx.x / 2, g[threadIdx.x]);
}

void host(const float *g, float *out) {
  rowThen1D<<<1, 32>>>(g, out);
  rowThen1DPastEnd<<<1, 32>>>(g);
  bigThenSmall<<<1, 256>>>(g);
  bigThenSmallOk<<<1, 256>>>(g);
}
