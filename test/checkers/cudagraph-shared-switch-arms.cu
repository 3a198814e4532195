// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t -check-suffixes=POSSIBLE -config="{CheckOptions: {cudagraph-shared-index-overflow.ReportPossibleOverflows: 'true'}}"
//
// Launchers that pick the block size at run time and launch one template
// instance per `case` of a switch on it (llama.cpp's mmv launcher shape):
// inside `case 64:` the block size is 64, and the dynamic size folds with it.
// The buffer is `extern __shared__ char` re-typed as float, so its extent is
// the launch's dynamic size in bytes. Every buggy launcher has a clean twin.
#include <cuda_runtime.h>

#define WARP 32

// 1. Cross-warp partial sums in a buffer of one float per warp-lane slot:
//    the early exit `tid > WARP` lets thread 32 read buf[32] of 32 floats.
template <int block_size>
__global__ void rowSum(const float *x, float *dst) {
  extern __shared__ char data_rs[];
  float *buf = (float *)data_rs;
  const int tid = threadIdx.x;
  float sum = x[blockIdx.x * block_size + tid];
  if (block_size > WARP) {
    if (tid < WARP)
      buf[tid] = 0.0f;
    __syncthreads();
    buf[tid / WARP] = sum;
    __syncthreads();
    if (tid > WARP)
      return;
    sum = buf[tid];
    // CHECK-NOTES: :[[@LINE-1]]:11: warning: __shared__ array 'data_rs' is indexed out of bounds: the access reaches byte offset 128 of a 128-byte array (index 32 of 32 elements of 4 bytes) [cudagraph-shared-index-overflow]
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: in rowSum<64> with block (64,1,1) with 128 bytes of dynamic shared memory from this launch, thread 32 goes out of bounds
    // CHECK-NOTES: :[[@LINE-3]]:11: note: also at this access: in rowSum<128> (byte offset 128); in rowSum<96> (byte offset 128)
    // CHECK-MESSAGES-POSSIBLE: :[[@LINE-4]]:11: warning: __shared__ array 'data_rs' is indexed out of bounds: the access reaches byte offset 128
  }
  if (tid == 0)
    dst[blockIdx.x] = sum;
}

void launchRowSum(const float *x, float *dst, int nrows, long ncols) {
  long best = WARP;
  long niter_best = (ncols + 2 * WARP - 1) / (2 * WARP);
  for (long b = 2 * WARP; b <= 128; b += WARP) {
    long niter = (ncols + 2 * b - 1) / (2 * b);
    if (niter < niter_best) {
      niter_best = niter;
      best = b;
    }
  }
  const int smem = WARP * sizeof(float);
  const dim3 block_dims(best, 1, 1);
  switch (best) {
  case 32: {
    rowSum<32><<<nrows, block_dims, smem>>>(x, dst);
  } break;
  case 64: {
    rowSum<64><<<nrows, block_dims, smem>>>(x, dst);
  } break;
  case 96: {
    rowSum<96><<<nrows, block_dims, smem>>>(x, dst);
  } break;
  case 128: {
    rowSum<128><<<nrows, block_dims, smem>>>(x, dst);
  } break;
  }
}

// Twin (the fix): threads from WARP on leave before the read.
template <int block_size>
__global__ void rowSumFixed(const float *x, float *dst) {
  extern __shared__ char data_rsf[];
  float *buf = reinterpret_cast<float *>(data_rsf);
  const int tid = threadIdx.x;
  float sum = x[blockIdx.x * block_size + tid];
  if (block_size > WARP) {
    if (tid < WARP)
      buf[tid] = 0.0f;
    __syncthreads();
    buf[tid / WARP] = sum;
    __syncthreads();
    if (tid >= WARP)
      return;
    sum = buf[tid];
  }
  if (tid == 0)
    dst[blockIdx.x] = sum;
}

void launchRowSumFixed(const float *x, float *dst, int nrows, long ncols) {
  long best = WARP;
  for (long b = 2 * WARP; b <= 128; b += WARP)
    if (ncols % b == 0)
      best = b;
  const int smem = WARP * sizeof(float);
  const dim3 block_dims(best, 1, 1);
  switch (best) {
  case 32: rowSumFixed<32><<<nrows, block_dims, smem>>>(x, dst); break;
  case 64: rowSumFixed<64><<<nrows, block_dims, smem>>>(x, dst); break;
  case 96: rowSumFixed<96><<<nrows, block_dims, smem>>>(x, dst); break;
  case 128: rowSumFixed<128><<<nrows, block_dims, smem>>>(x, dst); break;
  }
}

// 2. One float per thread staged through a buffer sized for 128 threads:
//    the 256-thread arm overflows, the others fit.
template <int block_size>
__global__ void stage(const float *x, float *y) {
  extern __shared__ char raw_st[];
  float *s = reinterpret_cast<float *>(raw_st);
  s[threadIdx.x] = x[blockIdx.x * block_size + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'raw_st' is indexed out of bounds: the access reaches byte offset 1020 of a 512-byte array (index 255 of 128 elements of 4 bytes) [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: in stage<256> with block (256,1,1) with 512 bytes of dynamic shared memory from this launch, threads 128-255 (128 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 'raw_st' is indexed out of bounds: the access reaches byte offset 1020
  __syncthreads();
  y[blockIdx.x * block_size + threadIdx.x] = s[block_size - 1 - threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:46: warning: __shared__ array 'raw_st' is indexed out of bounds: the access reaches byte offset 1020 of a 512-byte array (index 255 of 128 elements of 4 bytes) [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: in stage<256> with block (256,1,1) with 512 bytes of dynamic shared memory from this launch, threads 0-127 (128 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:46: warning: __shared__ array 'raw_st' is indexed out of bounds: the access reaches byte offset 1020
}

void launchStage(const float *x, float *y, int n, int threads) {
  const size_t smem = 128 * sizeof(float);
  switch (threads) {
  case 64: stage<64><<<n, threads, smem>>>(x, y); break;
  case 128: stage<128><<<n, threads, smem>>>(x, y); break;
  case 256: stage<256><<<n, threads, smem>>>(x, y); break;
  default: break;
  }
}

// Twin: the dynamic size follows the arm's block size.
template <int block_size>
__global__ void stageSized(const float *x, float *y) {
  extern __shared__ char raw_ss[];
  float *s = reinterpret_cast<float *>(raw_ss);
  s[threadIdx.x] = x[blockIdx.x * block_size + threadIdx.x];
  __syncthreads();
  y[blockIdx.x * block_size + threadIdx.x] = s[block_size - 1 - threadIdx.x];
}

void launchStageSized(const float *x, float *y, int n, int threads) {
  const size_t smem = threads * sizeof(float);
  switch (threads) {
  case 64: stageSized<64><<<n, threads, smem>>>(x, y); break;
  case 128: stageSized<128><<<n, threads, smem>>>(x, y); break;
  case 256: stageSized<256><<<n, threads, smem>>>(x, y); break;
  default: break;
  }
}

// 3. Two switches on one variable: the warp count set under `case 1:` of
//    the first is the only one that reaches `case 1:` of the second
//    (llama.cpp's mmvq launcher). Silent: each instance gets its own shape.
template <int ncols>
__global__ void perWarp(const float *x, float *y) {
  __shared__ float partial[4 / ncols][WARP];
  const int warp = threadIdx.y;
  partial[warp][threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  if (warp == 0)
    y[threadIdx.x] = partial[0][threadIdx.x];
}

void launchPerWarp(const float *x, float *y, int ncols) {
  int nwarps = 1;
  switch (ncols) {
  case 1: nwarps = 4; break;
  case 2: nwarps = 2; break;
  default: return;
  }
  const dim3 block(WARP, nwarps, 1);
  switch (ncols) {
  case 1: perWarp<1><<<1, block>>>(x, y); break;
  case 2: perWarp<2><<<1, block>>>(x, y); break;
  }
}

// Twin with the bug: the second arm gets four warps for a two-row array.
template <int ncols>
__global__ void perWarpWrong(const float *x, float *y) {
  __shared__ float partial[4 / ncols][WARP];
  const int warp = threadIdx.y;
  partial[warp][threadIdx.x] = x[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'partial' is indexed out of bounds in dimension 1 of 2: the index reaches 3 but that dimension has 2 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: in perWarpWrong<2> with block (32,4,1) from this launch, threads 64-127 (64 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:3: warning: __shared__ array 'partial' is indexed out of bounds in dimension 1 of 2: the index reaches 3
  __syncthreads();
  if (warp == 0)
    y[threadIdx.x] = partial[0][threadIdx.x];
}

void launchPerWarpWrong(const float *x, float *y, int ncols) {
  int nwarps = 1;
  switch (ncols) {
  case 1:
  case 2: nwarps = 4; break;
  default: return;
  }
  const dim3 block(WARP, nwarps, 1);
  switch (ncols) {
  case 1: perWarpWrong<1><<<1, block>>>(x, y); break;
  case 2: perWarpWrong<2><<<1, block>>>(x, y); break;
  }
}

// cuda-samples' reduction launcher: the dynamic size is computed from
// `threads` before the switch that picks the instance, so the sizes the
// resolver finds for it are not paired with the arm's block size; only the
// largest counts (an access past it is out of bounds for every choice).
template <unsigned int B> __global__ void reduceSized(const float *in, float *out) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = sdata[B - 1];
}

void launchReduceSized(const float *in, float *out, int n) {
  int threads = n < 64 ? 32 : (n < 256 ? 128 : 256);
  int smem = threads <= 32 ? 2 * threads * sizeof(float) : threads * sizeof(float);
  dim3 block(threads, 1, 1);
  switch (threads) {
  case 256: reduceSized<256><<<1, block, smem>>>(in, out); break;
  case 128: reduceSized<128><<<1, block, smem>>>(in, out); break;
  case 32: reduceSized<32><<<1, block, smem>>>(in, out); break;
  }
}
