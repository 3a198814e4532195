// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
//
// Pointers carved out of a fixed __shared__ array at the top of the kernel
// own the bytes from their start to the next carve. Below its start a carve
// is bounded by the previous carve's end when there is one; a lone pointer
// into the middle of an array (HeCBench lfib4's lagged-Fibonacci look-back,
// `px = &cx[256]` read at `px[j - 256]`) may reach back to the array's start,
// which the array's own bounds judge. Every buggy kernel has a clean twin.
#include <cuda_runtime.h>

#define P1 55
#define P4 256

// 1. Look-back through a pointer into the middle of the array: px[-256] is
//    cx[0]. Clean.
__global__ void lookback(unsigned *x, int s) {
  __shared__ unsigned cx[2 * P4];
  unsigned *px = &cx[P4];
  int myid = threadIdx.x;
  cx[myid] = x[myid];
  __syncthreads();
  for (int k = 1; k < s / P4; k++) {
    for (int i = 0; i < P4; i += 32) {
      if (myid < 32)
        px[i + myid] = px[i + myid - P1] + px[i + myid - P4];
      __syncthreads();
    }
    x[k * P4 + myid] = cx[myid] = px[myid];
    __syncthreads();
  }
}

// 1b. The look-back goes one element too far: px[-257] is before cx[0].
__global__ void lookbackTooFar(unsigned *x) {
  __shared__ unsigned cx[2 * P4];
  unsigned *px = &cx[P4];
  int myid = threadIdx.x;
  cx[myid] = x[myid];
  __syncthreads();
  x[myid] = px[myid - P4 - 1];
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: __shared__ array 'cx' is indexed out of bounds: the access reaches byte offset -4 of a 2048-byte array (index -1 of 512 elements of 4 bytes) [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (256,1,1) from this launch, thread 0 goes out of bounds
}

// 2. Two carves: the second's index -1 is the first's last element.
__global__ void twoCarves(float *g) {
  __shared__ float smem[256];
  float *a = smem;
  float *b = smem + 128;
  int t = threadIdx.x;
  a[t] = g[t];
  b[t - 1] = g[t];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'smem' is indexed out of bounds: the index reaches -1 but 'b', carved out of it, has 128 elements [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: with block (128,1,1) from this launch, thread 0 goes out of bounds
}
// Twin: the second carve's stores stay in its own region.
__global__ void twoCarvesOk(float *g) {
  __shared__ float smem[256];
  float *a = smem;
  float *b = smem + 128;
  int t = threadIdx.x;
  a[t] = g[t];
  if (t > 0)
    b[t - 1] = g[t];
}

// 3. Look-back pointers into the middle of several arrays, each alone in
//    its array (lfib4's lastEntGPU: a = a0 + 256 and b = b0 + 256 read down
//    to -256). Clean.
__global__ void severalArrays(unsigned *x) {
  __shared__ unsigned a0[768];
  __shared__ unsigned b0[512];
  unsigned *a = a0 + 256;
  unsigned *b = b0 + 256;
  int myid = threadIdx.x;
  a0[myid] = x[myid];
  b0[myid] = x[myid + 512];
  __syncthreads();
  b[myid - 256] += a[myid - 201] + a[myid - 77];
}

void host(unsigned *x, float *g, int s) {
  lookback<<<1, P4>>>(x, s);
  lookbackTooFar<<<1, P4>>>(x);
  twoCarves<<<1, 128>>>(g);
  twoCarvesOk<<<1, 128>>>(g);
  severalArrays<<<1, 512>>>(x);
}
