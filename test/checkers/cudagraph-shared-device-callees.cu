// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t -check-suffixes=POSSIBLE -config="{CheckOptions: {cudagraph-shared-index-overflow.ReportPossibleOverflows: 'true'}}"
//
// Indices computed by __device__ helpers, and helpers that index a
// __shared__ array they are given (pointer or reference): the helper's body
// runs for the calling thread. Every buggy kernel has a clean twin.
#include <cuda_runtime.h>

// 1. The index comes back from a helper.
__device__ int laneIndex(int tid, int k) { return tid * k; }

__global__ void fromHelper(const float *g) {
  __shared__ float s[256];
  int idx = laneIndex(threadIdx.x, 2);
  s[idx] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 510 but the array has 256 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 128-255 (128 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 510
}
__global__ void fromHelperSized(const float *g) {
  __shared__ float s[512];
  int idx = laneIndex(threadIdx.x, 2);
  s[idx] = g[threadIdx.x];
}

// 2. The helper indexes the array it gets as a pointer: one past the end.
__device__ void storeAt(float *buf, int i, float v) {
  buf[i] = v;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'line' is indexed out of bounds: the access reaches byte offset 1024 of a 1024-byte array (index 256 of 256 elements of 4 bytes) [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, thread 255 goes out of bounds
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: the access is in 'storeAt', called here from 'shiftLeft'
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-4]]:3: warning: __shared__ array 'line' is indexed out of bounds: the access reaches byte offset 1024
}

__global__ void shiftLeft(const float *g) {
  __shared__ float line[256];
  storeAt(line, threadIdx.x + 1, g[threadIdx.x]);
}
__global__ void shiftLeftGuarded(const float *g) {
  __shared__ float line[256];
  if (threadIdx.x + 1 < 256)
    storeAt(line, threadIdx.x + 1, g[threadIdx.x]);
}

// 3. A helper that takes the array by reference: subscripts keep the
//    array's own extent.
__device__ void clearNext(float (&row)[32], int lane) {
  row[lane + 1] = 0.f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'row32' is indexed out of bounds: the index reaches 32 but the array has 32 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (32,1,1) from this launch, thread 31 goes out of bounds
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: the access is in 'clearNext', called here from 'byRef'
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-4]]:3: warning: __shared__ array 'row32' is indexed out of bounds: the index reaches 32
}
__device__ void clearOwn(float (&row)[32], int lane) { row[lane] = 0.f; }

__global__ void byRef() {
  __shared__ float row32[32];
  clearNext(row32, threadIdx.x);
}
__global__ void byRefOwn() {
  __shared__ float row33[32];
  clearOwn(row33, threadIdx.x);
}

// 4. Two helpers deep: a padded tile index computed by a helper of a
//    helper. The padded tile fits; the unpadded one does not.
__device__ int padded(int r, int c) { return r * 33 + c; }
__device__ int tileIndex(int t) { return padded(t / 32, t % 32); }

__global__ void nestedPadded(const float *g) {
  __shared__ float tile[32 * 33];
  tile[tileIndex(threadIdx.x)] = g[threadIdx.x];
}
__global__ void nestedUnpadded(const float *g) {
  __shared__ float tile2[32 * 32];
  tile2[tileIndex(threadIdx.x)] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'tile2' is indexed out of bounds: the index reaches 1054 but the array has 1024 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (1024,1,1) from this launch, threads 993-1023 (31 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 'tile2' is indexed out of bounds: the index reaches 1054
}

// 5. A guard inside the helper protects its access; every thread goes on
//    after the call, so the caller's access is judged unguarded.
__device__ float readIf(const float *s, int i, int n) {
  if (i < n)
    return s[i];
  return 0.f;
}
__global__ void guardedHelper(float *out) {
  __shared__ float vals[128];
  vals[threadIdx.x % 128] = 1.f;
  __syncthreads();
  out[threadIdx.x] = readIf(vals, threadIdx.x, 128);
  vals[threadIdx.x] = 2.f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'vals' is indexed out of bounds: the index reaches 255 but the array has 128 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 128-255 (128 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 'vals' is indexed out of bounds: the index reaches 255
}
__global__ void guardedHelperOk(float *out) {
  __shared__ float vals2[128];
  vals2[threadIdx.x % 128] = 1.f;
  __syncthreads();
  out[threadIdx.x] = readIf(vals2, threadIdx.x, 128);
}

// 6. Recursion stays opaque: no verdict, no hang.
__device__ int depthOf(int i) { return i <= 0 ? 0 : 1 + depthOf(i - 1); }
__global__ void recursive(float *out) {
  __shared__ float r[64];
  r[depthOf(threadIdx.x)] = 1.f;
  out[threadIdx.x] = r[threadIdx.x % 64];
}

void run(const float *g, float *o) {
  fromHelper<<<1, 256>>>(g);
  fromHelperSized<<<1, 256>>>(g);
  shiftLeft<<<1, 256>>>(g);
  shiftLeftGuarded<<<1, 256>>>(g);
  byRef<<<1, 32>>>();
  byRefOwn<<<1, 32>>>();
  nestedPadded<<<1, 1024>>>(g);
  nestedUnpadded<<<1, 1024>>>(g);
  guardedHelper<<<1, 256>>>(o);
  guardedHelperOk<<<1, 256>>>(o);
  recursive<<<1, 64>>>(o);
}
