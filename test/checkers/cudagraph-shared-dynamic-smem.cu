// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
//
// Dynamic shared memory: an `extern __shared__` array is as large as the
// launch says, in bytes (the <<<>>> third argument, dynamicSmemBytes of a
// cudaLaunchConfig_t), at most what cudaFuncSetAttribute(...,
// cudaFuncAttributeMaxDynamicSharedMemorySize, n) allows when the launch's
// size is not a constant; pointers carved out of it are bounded by the whole
// allocation (carves of a fixed array keep their own extents).
// Every positive case has a clean twin.
#include <cuda_runtime.h>

// 1. A neighbour read one past the end: the size is held in a variable.
__global__ void shiftLeft(float *g) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = buf[threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: __shared__ array 'buf' is indexed out of bounds: the index reaches 128 but the array has 128 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (128,1,1) with 512 bytes of dynamic shared memory from this launch, thread 127 goes out of bounds
}
// Twin (the fix): the last thread does not read past the buffer.
__global__ void shiftLeftFixed(float *g) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  if (threadIdx.x + 1 < blockDim.x)
    g[threadIdx.x] = buf[threadIdx.x + 1];
}
void runShift(float *g) {
  const int threads = 128;
  size_t bytes = threads * sizeof(float);
  shiftLeft<<<1, threads, bytes>>>(g);
  shiftLeftFixed<<<1, threads, bytes>>>(g);
}

// 2. cudaLaunchKernelEx: the size is the config's dynamicSmemBytes.
__global__ void exPairs(float *g) {
  extern __shared__ float2 pairs[];
  pairs[threadIdx.x] = make_float2(g[threadIdx.x], 0.f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'pairs' is indexed out of bounds: the index reaches 255 but the array has 64 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) with 512 bytes of dynamic shared memory from this launch, threads 64-255 (192 threads) go out of bounds
}
__global__ void exPairsOk(float *g) {
  extern __shared__ float2 pairs[];
  pairs[threadIdx.x] = make_float2(g[threadIdx.x], 0.f);
}
void runEx(float *g) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(256);
  cfg.dynamicSmemBytes = 128 * sizeof(float); // bytes, not elements
  cudaLaunchKernelEx(&cfg, exPairs, g);
  cudaLaunchConfig_t ok = cfg;
  ok.dynamicSmemBytes = 256 * sizeof(float2);
  cudaLaunchKernelEx(&ok, exPairsOk, g);
}

// 3. A size chosen at run time, capped by cudaFuncSetAttribute: an index
//    past the cap is out for every size the launch may use.
__global__ void bigStride(float *g) {
  extern __shared__ float big[];
  big[threadIdx.x * 128] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'big' is indexed out of bounds: the index reaches 32640 but the array has 16384 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) with at most 65536 bytes of dynamic shared memory (cudaFuncSetAttribute) from this launch, threads 128-255 (128 threads) go out of bounds
}
__global__ void bigStrideOk(float *g) {
  extern __shared__ float big[];
  big[threadIdx.x * 64] = g[threadIdx.x];
}
void runBig(float *g, size_t n) {
  cudaFuncSetAttribute(bigStride, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  cudaFuncSetAttribute(bigStrideOk, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  bigStride<<<1, 256, n>>>(g);
  bigStrideOk<<<1, 256, n>>>(g);
}

// 4. Several arrays carved out of a fixed buffer: each keeps its extent. The
//    first writes one element past its region, into the second.
__global__ void carved(float *g) {
  __shared__ float smem[384];
  float *a = smem;
  float *b = smem + 128;
  int *flags = (int *)(smem + 256);
  a[threadIdx.x + 1] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'smem' is indexed out of bounds: the index reaches 128 but 'a', carved out of it, has 128 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (128,1,1) from this launch, thread 127 goes out of bounds
  b[threadIdx.x] = 0.f;
  flags[threadIdx.x] = 0;
}
__global__ void carvedOk(float *g) {
  __shared__ float smem[384];
  float *a = smem;
  float *b = smem + 128;
  int *flags = (int *)(smem + 256);
  a[threadIdx.x] = g[threadIdx.x];
  b[threadIdx.x] = a[127 - threadIdx.x];
  flags[threadIdx.x] = 0;
}
// 4b. Carves of dynamic shared memory own no region: their extent is the
//     rest of the allocation (issue 35, llm.c's layernorm_backward_kernel10
//     moves one back by a warp that never uses it). Only leaving the whole
//     allocation is reported: the last carve's flags[128] is byte 1536 of
//     1536.
__global__ void carvedDynamic(float *g) {
  extern __shared__ float dsmem[];
  float *a = dsmem;
  float *b = dsmem + 128;
  int *flags = (int *)(dsmem + 256);
  b[threadIdx.x] = 0.f;
  flags[threadIdx.x + 1] = 0;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: {{.*}}
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (128,1,1) with 1536 bytes of dynamic shared memory from this launch, thread 127 goes out of bounds
  a[threadIdx.x] = g[threadIdx.x];
}
// Twin: carves moved back by one and two warps' shares past a first region
// of 64 floats; warp 0 never stores through them, so the first's stores end
// where the second's begin (the first's index reaches 127, 32 past the
// second carve's start, inside the 256-float allocation).
__global__ void carvedDynamicOk(float *g) {
  extern __shared__ float dsmem[];
  float *back = dsmem + 64 - 32;
  float *next = dsmem + 64 + 128 - 2 * 32;
  if (threadIdx.x < 64)
    dsmem[threadIdx.x] = 0.f;
  if (threadIdx.x >= 32) {
    back[threadIdx.x] = g[threadIdx.x];
    next[threadIdx.x] = g[threadIdx.x + 128];
  }
  __syncthreads();
  if (threadIdx.x < 32)
    for (int j = 1; j < 4; ++j)
      g[threadIdx.x] += back[threadIdx.x + 32 * j] + next[threadIdx.x + 32 * j];
}
void runCarved(float *g) {
  carved<<<1, 128>>>(g);
  carvedOk<<<1, 128>>>(g);
  carvedDynamic<<<1, 128, 384 * sizeof(float)>>>(g);
  carvedDynamicOk<<<1, 128, 256 * sizeof(float)>>>(g);
}

// 5. A size that does not fold (it may be 0 or n * 4) gives no verdict.
__global__ void unknownSize(float *g) {
  extern __shared__ float u[];
  u[threadIdx.x] = g[threadIdx.x];
}
void runUnknown(float *g, int n) {
  size_t bytes = 0;
  if (n > 0)
    bytes = n * sizeof(float);
  unknownSize<<<1, 128, bytes>>>(g);
}
