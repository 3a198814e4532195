// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t -check-suffixes=POSSIBLE -config="{CheckOptions: {cudagraph-shared-index-overflow.ReportPossibleOverflows: 'true'}}"
//
// Indices known only by their range: masks and modulo of data, bits set or
// flipped above a mask, min/max,
// loop counters with constant bounds, values bounded by their type. An
// index whose range leaves the array for some data is definite; one that
// leaves it only for some value of a kernel parameter is "possible".
#include <cuda_runtime.h>

// 1. A histogram bin masked from data (atomicAdd on the shared bin).
__global__ void histMask(const unsigned *data, unsigned *out) {
  __shared__ unsigned hist[64];
  hist[threadIdx.x % 64] = 0;
  __syncthreads();
  unsigned v = data[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(&hist[(v >> 4) & 127], 1u);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: __shared__ array 'hist' is indexed out of bounds: the index reaches 127 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-255 (256 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:14: warning: __shared__ array 'hist' is indexed out of bounds: the index reaches 127
}
// Twin (the fix): the mask matches the bins.
__global__ void histMaskOk(const unsigned *data, unsigned *out) {
  __shared__ unsigned hist[64];
  hist[threadIdx.x % 64] = 0;
  __syncthreads();
  unsigned v = data[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(&hist[(v >> 4) & 63], 1u);
}

// 2. Modulo and min of data.
__global__ void modMin(const int *data, float *out) {
  __shared__ float s[32];
  unsigned d = data[threadIdx.x];
  s[d % 48] = 1.f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 47 but the array has 32 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-255 (256 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 47
  out[threadIdx.x] = s[min(data[threadIdx.x], 32)];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: __shared__ array 's' is indexed out of bounds: the index reaches 32 but the array has 32 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-255 (256 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:22: warning: __shared__ array 's' is indexed out of bounds: the index reaches 32
}
__global__ void modMinOk(const int *data, float *out) {
  __shared__ float s[32];
  unsigned d = data[threadIdx.x];
  s[d % 32] = 1.f;
  out[threadIdx.x] = s[max(0, min(data[threadIdx.x], 31))];
}

// 3. A loop counter runs to its bound past the unrolling limit.
__global__ void longLoop(float *g) {
  __shared__ float s[512];
  if (threadIdx.x == 0)
    for (int i = 0; i < 600; ++i)
      s[i] = g[i];
  // CHECK-NOTES: :[[@LINE-1]]:7: warning: __shared__ array 's' is indexed out of bounds: the index reaches 599 but the array has 512 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, thread 0 goes out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:7: warning: __shared__ array 's' is indexed out of bounds: the index reaches 599
}
__global__ void longLoopOk(float *g) {
  __shared__ float s[512];
  if (threadIdx.x == 0)
    for (int i = 0; i < 512; ++i)
      s[i] = g[i];
}

// 4. A byte read from memory is in [0, 255]: that proves `lut[c]` in
//    bounds for 256 entries; past 200 it is only "possible" (a byte often
//    holds a code whose range the program knows).
__global__ void byteIndex(const unsigned char *img, float *out) {
  __shared__ float lut[200];
  unsigned char c = img[threadIdx.x];
  out[threadIdx.x] = lut[c];
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-1]]:22: warning: possible out-of-bounds index into __shared__ array 'lut': the index can reach 255 but the array has 200 elements [cudagraph-shared-index-overflow]
}
__global__ void byteIndexOk(const unsigned char *img, float *out) {
  __shared__ float lut[256];
  unsigned char c = img[threadIdx.x];
  out[threadIdx.x] = lut[c];
  if (c < 200)
    out[threadIdx.x] += lut[c];
}

// 5. A mask of a kernel parameter: out only for some parameter values.
__global__ void paramMask(float *g, int n) {
  __shared__ float s[32];
  s[n & 63] = g[threadIdx.x];
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-1]]:3: warning: possible out-of-bounds index into __shared__ array 's': the index can reach 63 but the array has 32 elements [cudagraph-shared-index-overflow]
}

// 6. Bits set or flipped above a mask: `(v & 7) | 32` is in [32, 39] and
//    `(v & 31) ^ 32` in [32, 63], whatever v is.
__global__ void orAboveMask(const unsigned *data, float *out) {
  __shared__ float s[32];
  unsigned v = data[threadIdx.x];
  s[threadIdx.x % 32] = 0.f;
  __syncthreads();
  out[threadIdx.x] = s[(v & 7) | 32];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: __shared__ array 's' is indexed out of bounds: the index reaches 39 but the array has 32 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-255 (256 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:22: warning: __shared__ array 's' is indexed out of bounds: the index reaches 39
  out[threadIdx.x] += s[(v & 31) ^ 32];
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: __shared__ array 's' is indexed out of bounds: the index reaches 63 but the array has 32 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-255 (256 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:23: warning: __shared__ array 's' is indexed out of bounds: the index reaches 63
}
// Twin: the set bit and the flip stay inside the 64 entries.
__global__ void orAboveMaskOk(const unsigned *data, float *out) {
  __shared__ float s[64];
  unsigned v = data[threadIdx.x];
  s[threadIdx.x % 64] = 0.f;
  __syncthreads();
  out[threadIdx.x] = s[(v & 7) | 32];
  out[threadIdx.x] += s[(v & 31) ^ 32];
  out[threadIdx.x] += s[(v & 31) ^ 7];
}

// 7. A bin computed by a __device__ helper from loaded data.
__device__ unsigned binOf(unsigned v, int shift) { return (v >> shift) & 63; }
__global__ void binHelper(const unsigned *data) {
  __shared__ unsigned bins[32];
  bins[threadIdx.x % 32] = 0;
  __syncthreads();
  atomicAdd(&bins[binOf(data[threadIdx.x], 3)], 1u);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: __shared__ array 'bins' is indexed out of bounds: the index reaches 63 but the array has 32 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 0-255 (256 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:14: warning: __shared__ array 'bins' is indexed out of bounds: the index reaches 63
}
__device__ unsigned binOf32(unsigned v, int shift) { return (v >> shift) % 32; }
__global__ void binHelperOk(const unsigned *data) {
  __shared__ unsigned bins[32];
  bins[threadIdx.x % 32] = 0;
  __syncthreads();
  atomicAdd(&bins[binOf32(data[threadIdx.x], 3)], 1u);
}

void run(const unsigned *d, const int *di, const unsigned char *img, unsigned *o,
         float *g, int n) {
  histMask<<<4, 256>>>(d, o);
  histMaskOk<<<4, 256>>>(d, o);
  modMin<<<1, 256>>>(di, g);
  modMinOk<<<1, 256>>>(di, g);
  longLoop<<<1, 256>>>(g);
  longLoopOk<<<1, 256>>>(g);
  byteIndex<<<1, 256>>>(img, g);
  byteIndexOk<<<1, 256>>>(img, g);
  paramMask<<<1, 256>>>(g, n);
  orAboveMask<<<1, 256>>>(d, g);
  orAboveMaskOk<<<1, 256>>>(d, g);
  binHelper<<<1, 256>>>(d);
  binHelperOk<<<1, 256>>>(d);
}
