// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t -config="{CheckOptions: {cudagraph-shared-index-overflow.BlockShapes: 'launchedElsewhere=32x8; ns::qualified=256,64'}}"
//
// BlockShapes gives the shapes of kernels launched in other files (a plain
// or qualified name); the findings under them are definite. A kernel with a
// launch in this file keeps the launch's shape.
#include <cuda_runtime.h>

__global__ void launchedElsewhere(float *g) {
  __shared__ float t[8][16];
  t[threadIdx.y][threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 't' is indexed out of bounds in dimension 2 of 2: the index reaches 31 but that dimension has 16 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (32,8,1) from the BlockShapes option, 128 threads between 16 and 255 go out of bounds
}
namespace ns {
__global__ void qualified(float *g) {
  __shared__ float s[128];
  s[threadIdx.x] = g[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 's' is indexed out of bounds: the index reaches 255 but the array has 128 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from the BlockShapes option, threads 128-255 (128 threads) go out of bounds
}
} // namespace ns
// Twins: a kernel the option does not name, and one whose launch is here.
__global__ void notNamed(float *g) {
  __shared__ float s[128];
  s[threadIdx.x] = g[threadIdx.x];
}
__global__ void qualified(float *g) {
  __shared__ float s[128];
  s[threadIdx.x] = g[threadIdx.x];
}
void run(float *g) { qualified<<<1, 128>>>(g); }
