// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t -check-suffixes=POSSIBLE -config="{CheckOptions: {cudagraph-shared-index-overflow.ReportPossibleOverflows: 'true'}}"
//
// Per-warp slices of one shared buffer (`float *w = smem + warp * SLICE`)
// filled by a loop over tiles: the index is the slice's offset plus the
// tile counter, past the 64 unrolled iterations a symbolic one. A pointer
// stepped once per iteration shares the loop's iteration count with the
// counter, so the loop condition bounds it too. Every buggy kernel has a
// clean twin.
#include <cuda_runtime.h>

#define NT 80         // tiles of 32 floats per warp: more than the 64 unrolled
#define SLICE (NT * 32)

// 1. The tile loop runs one tile too far: the last warp leaves the buffer.
__global__ void tilesIndexed(const float *g) {
  __shared__ float smem[4 * SLICE];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float *w = smem + warp * SLICE;
  for (int t = 0; t <= NT; ++t)
    w[t * 32 + lane] = g[t * 32 + lane];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: __shared__ array 'smem' is indexed out of bounds: the access reaches byte offset 41084 of a 40960-byte array (index 10271 of 10240 elements of 4 bytes) [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (128,1,1) from this launch, threads 96-127 (32 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:5: warning: __shared__ array 'smem' is indexed out of bounds: the access reaches byte offset 41084
}
__global__ void tilesIndexedOk(const float *g) {
  __shared__ float smem[4 * SLICE];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float *w = smem + warp * SLICE;
  for (int t = 0; t < NT; ++t)
    w[t * 32 + lane] = g[t * 32 + lane];
}

// 2. The same with the slice pointer carried by the loop (`w += 32`).
__global__ void tilesStepped(const float *g) {
  __shared__ float smem[4 * SLICE];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float *w = smem + warp * SLICE + lane;
  for (int t = 0; t <= NT; ++t) {
    *w = g[t * 32 + lane];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: __shared__ array 'smem' is indexed out of bounds: the access reaches byte offset 41084 of a 40960-byte array (index 10271 of 10240 elements of 4 bytes) [cudagraph-shared-index-overflow]
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (128,1,1) from this launch, threads 96-127 (32 threads) go out of bounds
    // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:5: warning: __shared__ array 'smem' is indexed out of bounds: the access reaches byte offset 41084
    w += 32;
  }
}
__global__ void tilesSteppedOk(const float *g) {
  __shared__ float smem[4 * SLICE];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float *w = smem + warp * SLICE + lane;
  for (int t = 0; t < NT; ++t) {
    *w = g[t * 32 + lane];
    w += 32;
  }
}

// 3. A run-time tile count, checked on entry; the pointer steps in the
//    loop's increment. The check allows one tile too many: out for some
//    values of `ntiles` only, so "possible".
__global__ void tilesCounted(const float *g, int ntiles) {
  __shared__ float smem[4 * SLICE];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (ntiles > NT + 1)
    return;
  float *w = smem + warp * SLICE + lane;
  for (int t = 0; t < ntiles; ++t, w += 32)
    *w = g[t];
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-1]]:5: warning: possible out-of-bounds index into __shared__ array 'smem': the access reaches byte offset 41084 of a 40960-byte array (index 10271 of 10240 elements of 4 bytes) [cudagraph-shared-index-overflow]
}
__global__ void tilesCountedOk(const float *g, int ntiles) {
  __shared__ float smem[4 * SLICE];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (ntiles > NT)
    return;
  float *w = smem + warp * SLICE + lane;
  for (int t = 0; t < ntiles; ++t, w += 32)
    *w = g[t];
}

void run(const float *g, int n) {
  tilesIndexed<<<1, 128>>>(g);
  tilesIndexedOk<<<1, 128>>>(g);
  tilesStepped<<<1, 128>>>(g);
  tilesSteppedOk<<<1, 128>>>(g);
  tilesCounted<<<1, 128>>>(g, n);
  tilesCountedOk<<<1, 128>>>(g, n);
}
