// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t -check-suffixes=POSSIBLE -config="{CheckOptions: {cudagraph-shared-index-overflow.ReportPossibleOverflows: 'true'}}"
//
// Guards on problem sizes: a global coordinate compared with a kernel
// parameter (`if (x < width && y < height)`, `if (x >= n) return;`) holds in
// every interior block of a large enough problem, so an overflow behind it
// is definite. Every positive case has a clean twin.
#include <cuda_runtime.h>

#define T 16
#define R 1

// 1. A 2-D stencil tile whose halo column is one short.
__global__ void stencilShort(const float *in, float *out, int w, int h) {
  __shared__ float tile[T + 2 * R][T + R];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  if (x < w && y < h) {
    tile[threadIdx.y + R][threadIdx.x + R] = in[y * w + x];
    if (threadIdx.x == T - 1 && x + 1 < w)
      tile[threadIdx.y + R][threadIdx.x + 2 * R] = in[y * w + x + 1];
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: __shared__ array 'tile' is indexed out of bounds in dimension 2 of 2: the index reaches 17 but that dimension has 17 elements [cudagraph-shared-index-overflow]
    // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (16,16,1) from this launch, 16 threads between 15 and 255 go out of bounds
    // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:7: warning: __shared__ array 'tile' is indexed out of bounds in dimension 2 of 2
  }
  __syncthreads();
  if (x < w && y < h)
    out[y * w + x] = tile[threadIdx.y + R][threadIdx.x + R];
}
// Twin (the fix): the tile has both halo columns.
__global__ void stencilOk(const float *in, float *out, int w, int h) {
  __shared__ float tile[T + 2 * R][T + 2 * R];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  if (x < w && y < h) {
    tile[threadIdx.y + R][threadIdx.x + R] = in[y * w + x];
    if (threadIdx.x == T - 1 && x + 1 < w)
      tile[threadIdx.y + R][threadIdx.x + 2 * R] = in[y * w + x + 1];
    if (threadIdx.x == 0 && x > 0)
      tile[threadIdx.y + R][0] = in[y * w + x - 1];
  }
  __syncthreads();
  if (x < w && y < h)
    out[y * w + x] = tile[threadIdx.y + R][threadIdx.x + R];
}

// 2. An early return on the problem size, then a transposed tile read one
//    row too far.
__global__ void earlyReturn(const float *in, float *out, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: __shared__ array 's' is indexed out of bounds: the index reaches 256 but the array has 256 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, thread 255 goes out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:12: warning: __shared__ array 's' is indexed out of bounds: the index reaches 256
}
__global__ void earlyReturnOk(const float *in, float *out, int n) {
  __shared__ float s[257];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[threadIdx.x + 1];
}

// 3. A grid-stride loop: every thread of an interior block runs its body.
__global__ void gridStride(const float *in, float *out, int n) {
  __shared__ float s[128];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    s[threadIdx.x] = in[i];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 128 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 128-255 (128 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:5: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255
}
__global__ void gridStrideOk(const float *in, float *out, int n) {
  __shared__ float s[256];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    s[threadIdx.x] = in[i];
}

// 4. The problem size in a field of a struct parameter.
struct Dims {
  int w, h;
};
__global__ void structGuard(const float *in, Dims d) {
  __shared__ float s[128];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < d.w)
    s[threadIdx.x] = in[x];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 128 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, threads 128-255 (128 threads) go out of bounds
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-3]]:5: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255
}
__global__ void structGuardOk(const float *in, Dims d) {
  __shared__ float s[256];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < d.w)
    s[threadIdx.x] = in[x];
}

// 5. Still "possible": the guard is on the parameter's value itself.
__global__ void countGuard(const float *in, int nwarps) {
  __shared__ float part[4];
  if (threadIdx.x < nwarps)
    part[threadIdx.x] = in[threadIdx.x];
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-1]]:5: warning: possible out-of-bounds index into __shared__ array 'part': the index can reach 255 but the array has 4 elements [cudagraph-shared-index-overflow]
}

void run(const float *in, float *out, int w, int h, int n) {
  dim3 block(T, T), grid((w + T - 1) / T, (h + T - 1) / T);
  stencilShort<<<grid, block>>>(in, out, w, h);
  stencilOk<<<grid, block>>>(in, out, w, h);
  earlyReturn<<<(n + 255) / 256, 256>>>(in, out, n);
  earlyReturnOk<<<(n + 255) / 256, 256>>>(in, out, n);
  gridStride<<<32, 256>>>(in, out, n);
  gridStrideOk<<<32, 256>>>(in, out, n);
  countGuard<<<1, 256>>>(in, n);
  structGuard<<<8, 256>>>(in, Dims{w, h});
  structGuardOk<<<8, 256>>>(in, Dims{w, h});
}
