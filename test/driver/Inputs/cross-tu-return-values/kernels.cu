// Launches whose block sizes come from functions of device.cu.
#include <cuda_runtime.h>

int currentWarpSize();
int rowsPerBlock(bool wide);
int threadsFor(int n);

constexpr int kWarps = 4;

// Four warps of the device's warp size: tile has room for three.
__global__ void reduceRows(const float *in, float *out) {
  __shared__ float tile[96];
  tile[threadIdx.y * 32 + threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

void runReduce(const float *in, float *out, cudaStream_t s) {
  dim3 block(currentWarpSize(), kWarps);
  reduceRows<<<1, block, 0, s>>>(in, out);
}

// Sized for the four warps: silent.
__global__ void reduceFlat(const float *in, float *out) {
  __shared__ float tile[128];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x];
}

void runFlat(const float *in, float *out, cudaStream_t s) {
  int warpSize = currentWarpSize();
  reduceFlat<<<1, dim3(warpSize * kWarps), 0, s>>>(in, out);
}

// Room for 32 x 4 threads; the wide launch has 32 x 8.
__global__ void stripes(float *out) {
  __shared__ float s[128];
  s[threadIdx.y * 32 + threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

void runStripes(float *out, bool wide, cudaStream_t st) {
  stripes<<<1, dim3(32, rowsPerBlock(wide)), 0, st>>>(out);
}

// Its block depends on n: no shape, no verdict.
__global__ void sized(float *out) {
  __shared__ float t[64];
  t[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x];
}

void runSized(float *out, int n, cudaStream_t st) {
  sized<<<1, threadsFor(n), 0, st>>>(out);
}

// The same query with its body in this file: folded without the summaries.
static int localWarpSize() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  return prop.warpSize;
}

__global__ void local(float *out) {
  __shared__ float l[48];
  l[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = l[threadIdx.x];
}

void runLocal(float *out, cudaStream_t st) {
  local<<<1, 2 * localWarpSize(), 0, st>>>(out);
}

// The block is the width a Tiles holds: 32 until device.cu's resize()
// changes it, so no shape (not the initialiser's 32, which would fit), and
// no unit exports width() as returning 32.
#include "tiles.h"

__global__ void strip(float *out) {
  __shared__ float r[32];
  r[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = r[31 - threadIdx.x];
}

void runStrip(float *out, const Tiles &t, cudaStream_t st) {
  strip<<<1, t.width(), 0, st>>>(out);
}
