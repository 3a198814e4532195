// RUN: %check_cudagraph_tidy %s cudagraph-shared-index-overflow %t
//
// A launch inside `case K:` of a `switch (v)` sees v as K, also when the
// arms are braced blocks that end in `break` (HeCBench's DISPATCH_HEAD_DIM
// macro: `case 64: { constexpr int HD = 64; ...; break; }`), and also when
// a caller binds v to another value: with v bound to 64 the `case 128:` arm
// does not run, so its launch is not judged with 64. An arm the previous
// arm can fall into still gives no fact. Every buggy launcher has a clean
// twin.
#include <cuda_runtime.h>
#include <cstdint>

template <uint32_t HD>
__global__ void k(const float *in, float *out) {
  extern __shared__ uint8_t smem[];
  float *s = (float *)smem;
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[HD - 1 - threadIdx.x];
}

// 1. Braced arms, the size written in terms of the switch variable. Clean,
//    also under launch(in, out, 64) below.
void launch(const float *in, float *out, uint32_t head_dim) {
  switch (head_dim) {
  case 64: {
    constexpr uint32_t HD = 64;
    uint32_t smem = head_dim * sizeof(float);
    k<HD><<<1, HD, smem>>>(in, out);
    break;
  }
  case 128: {
    constexpr uint32_t HD = 128;
    uint32_t smem = head_dim * sizeof(float);
    k<HD><<<1, HD, smem>>>(in, out);
    break;
  }
  default:
    break;
  }
}

template <uint32_t HD>
__global__ void kb(const float *in, float *out) {
  extern __shared__ uint8_t smem[];
  float *s = (float *)smem;
  s[threadIdx.x] = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'smem' is indexed out of bounds: the access reaches byte offset 508 of a 256-byte array (index 127 of 64 elements of 4 bytes) [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: in kb<128U> with block (128,1,1) with 256 bytes of dynamic shared memory from this launch, threads 64-127 (64 threads) go out of bounds
}

// 2. The `case 64:` arm has no break: with head_dim 64 it falls into the
//    `case 128:` arm, which then launches kb<128> with 256 bytes.
void launchFallsThrough(const float *in, float *out, uint32_t head_dim) {
  switch (head_dim) {
  case 64: {
    constexpr uint32_t HD = 64;
    kb<HD><<<1, HD, head_dim * sizeof(float)>>>(in, out);
  }
  case 128: {
    constexpr uint32_t HD = 128;
    kb<HD><<<1, HD, head_dim * sizeof(float)>>>(in, out);
    break;
  }
  default:
    break;
  }
}

// 3. A braced arm sized for the wrong head dimension.
template <uint32_t HD>
__global__ void kw(const float *in, float *out) {
  extern __shared__ uint8_t smem[];
  float *s = (float *)smem;
  s[threadIdx.x] = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: __shared__ array 'smem' is indexed out of bounds: the access reaches byte offset 508 of a 256-byte array (index 127 of 64 elements of 4 bytes) [cudagraph-shared-index-overflow]
  // CHECK-NOTES: :{{[0-9]+}}:{{[0-9]+}}: note: in kw<128U> with block (128,1,1) with 256 bytes of dynamic shared memory from this launch, threads 64-127 (64 threads) go out of bounds
}
void launchWrongSize(const float *in, float *out, uint32_t head_dim) {
  switch (head_dim) {
  case 64: {
    kw<64><<<1, 64, head_dim * sizeof(float)>>>(in, out);
    break;
  }
  case 128: {
    kw<128><<<1, 128, head_dim / 2 * sizeof(float)>>>(in, out);
    break;
  }
  }
}

void caller(const float *in, float *out, uint32_t d) {
  launch(in, out, 64);
  launchFallsThrough(in, out, 64);
  launchWrongSize(in, out, d);
}
