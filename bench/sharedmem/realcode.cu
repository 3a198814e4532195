// Micro-kernels reproducing the index arithmetic (not the code) of the
// accesses cudagraph-shared-bank-conflict reported on third-party code
// (docs/triage-sharedmem.md), to confirm or refute each finding with ncu.
// Same rules as kernels.cu: one block per launch, launches in main().
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cuda_bf16.h>

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

// FasterTransformer cross_attention_kernel_opt<T, 64 / 128, 256>: 256 threads,
// `sq` an array of 256 structs of elems_per_thread floats (2 or 4); each lane
// writes its struct one float at a time (lanes 8 or 16 bytes apart), then
// warp 0 sums the other seven warps' structs, also one float at a time.
struct v_ft_float2 { float x[2]; };
struct v_ft_float4 { float x[4]; };
__global__ void v_ft_cross_sq2(const float *in, float *out) {
  __shared__ v_ft_float2 sq[256];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float acc[2];
  for (int i = 0; i < 2; ++i)
    acc[i] = in[threadIdx.x * 2 + i];
  for (int i = 0; i < 2; ++i)
    sq[warp * 32 + lane].x[i] = acc[i];
  __syncthreads();
  if (threadIdx.x < 32) {
#pragma unroll
    for (int w = 1; w < 8; ++w)
      for (int i = 0; i < 2; ++i)
        acc[i] += sq[w * 32 + threadIdx.x].x[i];
    for (int i = 0; i < 2; ++i)
      out[threadIdx.x * 2 + i] = acc[i];
  }
}
__global__ void v_ft_cross_sq4(const float *in, float *out) {
  __shared__ v_ft_float4 sq[256];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float acc[4];
  for (int i = 0; i < 4; ++i)
    acc[i] = in[threadIdx.x * 4 + i];
  for (int i = 0; i < 4; ++i)
    sq[warp * 32 + lane].x[i] = acc[i];
  __syncthreads();
  if (threadIdx.x < 32) {
#pragma unroll
    for (int w = 1; w < 8; ++w)
      for (int i = 0; i < 4; ++i)
        acc[i] += sq[w * 32 + threadIdx.x].x[i];
    for (int i = 0; i < 4; ++i)
      out[threadIdx.x * 4 + i] = acc[i];
  }
}

// The same with the struct written through a volatile pointer, so that the
// stores and loads stay 4 bytes wide as in the source (ptxas merges the
// plain ones into one STS.64 / STS.128 per lane, docs/validation.md).
__global__ void v_ft_cross_sq4_scalar(const float *in, float *out) {
  __shared__ v_ft_float4 sq[256];
  volatile v_ft_float4 *vsq = sq;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float acc[4];
  for (int i = 0; i < 4; ++i)
    acc[i] = in[threadIdx.x * 4 + i];
  for (int i = 0; i < 4; ++i)
    vsq[warp * 32 + lane].x[i] = acc[i];
  __syncthreads();
  if (threadIdx.x < 32) {
#pragma unroll
    for (int w = 1; w < 8; ++w)
      for (int i = 0; i < 4; ++i)
        acc[i] += vsq[w * 32 + threadIdx.x].x[i];
    for (int i = 0; i < 4; ++i)
      out[threadIdx.x * 4 + i] = acc[i];
  }
}

// darknet gemm_nn_custom_bin_mean_transposed_tensor_kernel, the branch for
// __CUDA_ARCH__ < 730: 512 threads, C_s of 8*8*32*2 ints; the lanes with
// lane % 4 == 0 (8 of 32) store 8 ints each of row i_d = lane / 4 (8 words
// apart), for two halves 2048 words apart; then every lane reads one word.
__global__ void v_dn_cs_store(const float *in, float *out) {
  __shared__ int C_s[8 * 8 * 32 * 2];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int k_d = lane % 4, i_d = lane / 4;
  int acc[16];
  for (int l = 0; l < 16; ++l)
    acc[l] = static_cast<int>(in[threadIdx.x * 16 + l]);
  if (k_d == 0)
    for (int h = 0; h < 2; ++h)
      for (int c = 0; c < 8; ++c)
        C_s[warp * 64 + i_d * 8 + c + 2048 * h] = acc[c + h * 8];
  __syncwarp();
  float sum = 0;
  for (int h = 0; h < 2; ++h) {
    const int col = lane % 8;
#pragma unroll
    for (int row = lane / 8; row < 8; row += 4)
      sum += C_s[warp * 64 + row * 8 + col + 2048 * h];
  }
  out[threadIdx.x] = sum;
}
// The same store through a volatile pointer (4 bytes wide, as in the source).
__global__ void v_dn_cs_store_scalar(const float *in, float *out) {
  __shared__ int C_s[8 * 8 * 32 * 2];
  volatile int *vC = C_s;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int k_d = lane % 4, i_d = lane / 4;
  int acc[16];
  for (int l = 0; l < 16; ++l)
    acc[l] = static_cast<int>(in[threadIdx.x * 16 + l]);
  if (k_d == 0)
    for (int h = 0; h < 2; ++h)
      for (int c = 0; c < 8; ++c)
        vC[warp * 64 + i_d * 8 + c + 2048 * h] = acc[c + h * 8];
  __syncwarp();
  float sum = 0;
  for (int h = 0; h < 2; ++h) {
    const int col = lane % 8;
#pragma unroll
    for (int row = lane / 8; row < 8; row += 4)
      sum += vC[warp * 64 + row * 8 + col + 2048 * h];
  }
  out[threadIdx.x] = sum;
}

// darknet transpose_32x32_bits_reversed_diagonale / transpose32_optimized:
// 256 threads, a row of 32 words of A_shared per thread
// (A_tmp = &A_shared[32 * threadIdx.x]): filled from global memory, put
// through a 32x32 bit transpose in place (five butterfly stages on row[k] and
// row[k + j], then a reversal of row[j] and row[31 - j]), read back.
__global__ void v_dn_transpose32(const unsigned *in, unsigned *out) {
  __shared__ unsigned A_shared[32 * 256];
  unsigned *row = &A_shared[32 * threadIdx.x];
#pragma unroll 32
  for (int i = 0; i < 32; ++i)
    row[i] = in[i * 256 + threadIdx.x];
  unsigned mask = 0x0000FFFFu;
  for (int j = 16; j != 0; j >>= 1, mask ^= mask << j)
    for (int k = 0; k < 32; k = (k + j + 1) & ~j) {
      unsigned t = (row[k] ^ (row[k + j] >> j)) & mask;
      row[k] ^= t;
      row[k + j] ^= t << j;
    }
  for (int j = 0; j < 16; ++j) {
    unsigned lo = row[j];
    row[j] = __brev(row[31 - j]);
    row[31 - j] = __brev(lo);
  }
#pragma unroll 32
  for (int i = 0; i < 32; ++i)
    out[i * 256 + threadIdx.x] = row[i];
}

// TransformerEngine block_scaled_1d_cast_transpose_kernel (256 threads,
// 128 x 65 SMemVec tile, kSMemCol = 128 / 2 + 1). Step 1 (line 230): 16
// lanes per row, each storing 4 consecutive SMemVecs; step 2 (line 272):
// 8 lanes per row, each loading 8 consecutive SMemVecs. SMemVec is
// Vec<IType, 2>: 8 bytes for float input, 4 bytes for bf16 input.
struct alignas(8) v_te_f32x2 { float x[2]; };
struct alignas(4) v_te_bf16x2 { __nv_bfloat16 x[2]; };
template <typename V>
__device__ void v_te_qtvb_body(const V *in, float *out) {
  extern __shared__ char smem_base[];
  V *smem = reinterpret_cast<V *>(smem_base);
  {
    const int c_s = (threadIdx.x % 16) * 4;
    int r_s = threadIdx.x / 16;
#pragma unroll
    for (int iter = 0; iter < 8; ++iter) {
      V v[4];
#pragma unroll
      for (int i = 0; i < 4; ++i)
        v[i] = in[(iter * 256 + threadIdx.x) * 4 + i];
#pragma unroll
      for (int i = 0; i < 4; ++i)
        smem[r_s * 65 + c_s + i] = v[i];
      r_s += 16;
    }
  }
  __syncthreads();
  float amax = 0;
  {
    const int c_s = (threadIdx.x % 8) * 8;
    int r_s = threadIdx.x / 8;
#pragma unroll
    for (int iter = 0; iter < 4; ++iter) {
      V v[8];
#pragma unroll
      for (int i = 0; i < 8; ++i)
        v[i] = smem[r_s * 65 + c_s + i];
#pragma unroll
      for (int i = 0; i < 8; ++i)
        amax = fmaxf(amax, fabsf(static_cast<float>(v[i].x[0])) +
                               fabsf(static_cast<float>(v[i].x[1])));
      r_s += 32;
    }
  }
  out[threadIdx.x] = amax;
}
__global__ void v_te_qtvb_f32(const float *in, float *out) {
  v_te_qtvb_body(reinterpret_cast<const v_te_f32x2 *>(in), out);
}
__global__ void v_te_qtvb_bf16(const float *in, float *out) {
  v_te_qtvb_body(reinterpret_cast<const v_te_bf16x2 *>(in), out);
}

// TransformerEngine swizzle_row_scaling_kernel<int4, 128, 4> (line 356):
// block (32,32), 64 KiB of int4; each thread stores 4 int4 at
// (threadIdx.x * 4 + i) * 32 + threadIdx.y: lanes 2048 bytes apart, one
// 16-byte bank group for the whole warp; then a linear copy-out.
__global__ void v_te_swizzle_v4(const float *in, float *out) {
  extern __shared__ int4 slm_v4i[];
  const int4 *src = reinterpret_cast<const int4 *>(in);
  int4 regs[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    regs[i] = src[(i * 32 + threadIdx.y) * 32 + threadIdx.x];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    slm_v4i[(threadIdx.x * 4 + i) * 128 / 4 + threadIdx.y] = regs[i];
  __syncthreads();
  int4 *dst = reinterpret_cast<int4 *>(out);
  const int linear = threadIdx.y * blockDim.x + threadIdx.x;
  for (int i = linear; i < 128 * 128 / 4; i += blockDim.x * blockDim.y)
    dst[i] = slm_v4i[i];
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
  v_ft_cross_sq2<<<1, 256>>>(a, b);
  v_ft_cross_sq4<<<1, 256>>>(a, b);
  v_ft_cross_sq4_scalar<<<1, 256>>>(a, b);
  v_dn_cs_store<<<1, 512>>>(a, b);
  v_dn_cs_store_scalar<<<1, 512>>>(a, b);
  v_dn_transpose32<<<1, 256>>>((const unsigned *)a, (unsigned *)b);
  cudaFuncSetAttribute(v_te_qtvb_f32, cudaFuncAttributeMaxDynamicSharedMemorySize, 66560);
  cudaFuncSetAttribute(v_te_qtvb_bf16, cudaFuncAttributeMaxDynamicSharedMemorySize, 66560);
  cudaFuncSetAttribute(v_te_swizzle_v4, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
  v_te_qtvb_f32<<<1, 256, 128 * 65 * 2 * sizeof(float)>>>(a, b);
  v_te_qtvb_bf16<<<1, 256, 128 * 65 * 2 * sizeof(float)>>>(a, b);
  v_te_swizzle_v4<<<1, dim3(32, 32), 65536>>>(a, b);
  std::printf("realcode kernels: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
