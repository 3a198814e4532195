// Micro-kernels reproducing the index arithmetic (not the code) of the
// accesses cudagraph-shared-bank-conflict reported on third-party code
// (docs/triage-sharedmem.md), to confirm or refute each finding with ncu.
// Same rules as kernels.cu: one block per launch, launches in main().
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// cuda-samples convolutionSeparable, rows pass: block (16,4), rows of
// (8 + 2*1) * 16 = 160 floats; a warp spans y = 0 and y = 1.
__global__ void v_convsep_rows(const float *in, float *out) {
  __shared__ float s[4][160];
#pragma unroll
  for (int i = 0; i < 10; ++i)
    s[threadIdx.y][threadIdx.x + i * 16] = in[threadIdx.x + i * 16];
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.y][threadIdx.x + 16];
}
// Columns pass: block (16,8), rows padded to (8 + 2*1) * 8 + 1 = 81 floats.
__global__ void v_convsep_cols(const float *in, float *out) {
  __shared__ float s[16][81];
#pragma unroll
  for (int i = 0; i < 10; ++i)
    s[threadIdx.x][threadIdx.y + i * 8] = in[threadIdx.y + i * 8];
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y + 8];
}
// The padding the fix-it proposes (82).
__global__ void v_convsep_cols_pad82(const float *in, float *out) {
  __shared__ float s[16][82];
#pragma unroll
  for (int i = 0; i < 10; ++i)
    s[threadIdx.x][threadIdx.y + i * 8] = in[threadIdx.y + i * 8];
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y + 8];
}
// cuda-samples histogram64, final accumulation: 64 threads, per-thread
// 64-byte histograms, bytes read at tid*64 + 4*(tid % 16) (+0..3), a layout
// made for 16 banks.
__global__ void v_hist64_sum(const unsigned *in, unsigned *out) {
  __shared__ unsigned char s[64 * 64];
  for (int i = threadIdx.x; i < 64 * 64 / 4; i += 64)
    reinterpret_cast<unsigned *>(s)[i] = in[i];
  __syncthreads();
  unsigned char *base = s + threadIdx.x * 64;
  unsigned sum = 0, pos = 4 * (threadIdx.x & 15);
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    sum += base[pos + 0] + base[pos + 1] + base[pos + 2] + base[pos + 3];
    pos = (pos + 4) & 63;
  }
  out[threadIdx.x] = sum;
}
// ggml ssm-conv long-token kernel: 128 threads, smem row of
// n_cols = d_conv - 1 + 32 floats per thread, read at tid * n_cols + i + j.
// In ggml the i loop has a runtime trip count, so its loads stay 4 bytes
// wide: the *_rolled kernels keep that (#pragma unroll 1); the others let
// nvcc unroll i and merge the loads into LDS.64/LDS.128, which changes the
// bank pattern (docs/validation.md).
__global__ void v_ssm_conv34(const float *in, float *out) {
  extern __shared__ float smem[];
  for (int i = threadIdx.x; i < 128 * 34; i += 128)
    smem[i] = in[i];
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 3; ++j)
      acc += smem[threadIdx.x * 34 + i + j];
  out[threadIdx.x] = acc;
}
__global__ void v_ssm_conv36(const float *in, float *out) {
  extern __shared__ float smem[];
  for (int i = threadIdx.x; i < 128 * 36; i += 128)
    smem[i] = in[i];
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 3; ++j)
      acc += smem[threadIdx.x * 36 + i + j];
  out[threadIdx.x] = acc;
}
__global__ void v_ssm_conv40(const float *in, float *out) {
  extern __shared__ float smem[];
  for (int i = threadIdx.x; i < 128 * 40; i += 128)
    smem[i] = in[i];
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 3; ++j)
      acc += smem[threadIdx.x * 40 + i + j];
  out[threadIdx.x] = acc;
}

__global__ void v_ssm_conv34_rolled(const float *in, float *out) {
  extern __shared__ float smem[];
  for (int i = threadIdx.x; i < 128 * 34; i += 128)
    smem[i] = in[i];
  __syncthreads();
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 3; ++j)
      acc += smem[threadIdx.x * 34 + i + j];
  out[threadIdx.x] = acc;
}
__global__ void v_ssm_conv36_rolled(const float *in, float *out) {
  extern __shared__ float smem[];
  for (int i = threadIdx.x; i < 128 * 36; i += 128)
    smem[i] = in[i];
  __syncthreads();
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 3; ++j)
      acc += smem[threadIdx.x * 36 + i + j];
  out[threadIdx.x] = acc;
}
__global__ void v_ssm_conv40_rolled(const float *in, float *out) {
  extern __shared__ float smem[];
  for (int i = threadIdx.x; i < 128 * 40; i += 128)
    smem[i] = in[i];
  __syncthreads();
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 3; ++j)
      acc += smem[threadIdx.x * 40 + i + j];
  out[threadIdx.x] = acc;
}

// GROMACS LINCS/SETTLE virial reduction: 256 threads, six rows of
// blockDim.x floats; the first six threads read the head of each row,
// sm[threadIdx.x * blockDim.x]: word stride 256, one bank for all six.
__global__ void v_gmx_virial(const float *in, float *out) {
  extern __shared__ float sm_virial[];
  for (int d = 0; d < 6; ++d)
    sm_virial[d * blockDim.x + threadIdx.x] = in[d * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 6)
    out[threadIdx.x] = sm_virial[threadIdx.x * blockDim.x];
}

// faiss generalDistance<__half>: a (32,32) block, a __half tile padded by one
// element per row (row stride 66 bytes), read down a column by threadIdx.x:
// an odd column straddles words, two rows per bank.
__global__ void v_faiss_half_tile(const float *in, float *out) {
  __shared__ __half vecTile[32][33];
  vecTile[threadIdx.y][threadIdx.x] = __float2half(in[threadIdx.y * 32 + threadIdx.x]);
  __syncthreads();
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < 32; ++i)
    acc += __half2float(vecTile[threadIdx.x][i]);
  out[threadIdx.y * 32 + threadIdx.x] = acc;
}

// faiss binaryDistanceAnySize<..., unsigned char>: a (32,8) block, a byte
// tile padded by one element per row (row stride 33 bytes), read down a
// column by threadIdx.x: lane 31's byte falls in the bank of lane 0's word
// in 24 of the 32 columns (2-way there).
__global__ void v_faiss_byte_tile(const float *in, float *out) {
  __shared__ unsigned char vecTile[32][33];
  for (int i = 0; i < 32 / 8; ++i)
    vecTile[i * 8 + threadIdx.y][threadIdx.x] =
        static_cast<unsigned char>(in[(i * 8 + threadIdx.y) * 32 + threadIdx.x]);
  __syncthreads();
  int acc = 0;
#pragma unroll 1
  for (int i = 0; i < 32; ++i)
    acc += __popc(vecTile[threadIdx.x][i]);
  out[threadIdx.y * 32 + threadIdx.x] = static_cast<float>(acc);
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  cudaMemset(a, 0, 1 << 20);
  v_convsep_rows<<<1, dim3(16, 4)>>>(a, b);
  v_convsep_cols<<<1, dim3(16, 8)>>>(a, b);
  v_convsep_cols_pad82<<<1, dim3(16, 8)>>>(a, b);
  v_hist64_sum<<<1, 64>>>((const unsigned *)a, (unsigned *)b);
  v_ssm_conv34<<<1, 128, 128 * 34 * sizeof(float)>>>(a, b);
  v_ssm_conv36<<<1, 128, 128 * 36 * sizeof(float)>>>(a, b);
  v_ssm_conv40<<<1, 128, 128 * 40 * sizeof(float)>>>(a, b);
  v_ssm_conv34_rolled<<<1, 128, 128 * 34 * sizeof(float)>>>(a, b);
  v_ssm_conv36_rolled<<<1, 128, 128 * 36 * sizeof(float)>>>(a, b);
  v_ssm_conv40_rolled<<<1, 128, 128 * 40 * sizeof(float)>>>(a, b);
  v_faiss_half_tile<<<1, dim3(32, 32)>>>(a, b);
  v_faiss_byte_tile<<<1, dim3(32, 8)>>>(a, b);
  v_gmx_virial<<<1, 256, 6 * 256 * sizeof(float)>>>(a, b);
  std::printf("realcode kernels: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
