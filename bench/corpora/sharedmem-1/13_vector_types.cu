// half / float2 / float4 shared accesses.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

// Each thread owns one float4 (16 bytes): 4 phases of 8 lanes, contiguous.
__global__ void copy_f4(const float4 *in, float4 *out) {
  __shared__ float4 s4[256];
  int t = threadIdx.x;
  s4[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  out[blockIdx.x * 256 + t] = s4[255 - t];
}

// Complex (float2) butterflies: stride-2 pairs in 8-byte accesses give a
// 2-way conflict per 16-lane phase at the first stage.
__global__ void radix2_stages(float2 *data) {
  __shared__ float2 s[512];
  int t = threadIdx.x;
  s[t] = data[blockIdx.x * 512 + t];
  s[t + 256] = data[blockIdx.x * 512 + t + 256];
  __syncthreads();
  for (int half = 1; half < 512; half *= 2) {
    int grp = t / half, pos = t % half;
    int i0 = grp * 2 * half + pos;
    float2 a = s[i0]; // EXPECT: cudagraph-shared-bank-conflict
    float2 b = s[i0 + half]; // EXPECT: cudagraph-shared-bank-conflict
    __syncthreads();
    s[i0] = make_float2(a.x + b.x, a.y + b.y); // EXPECT: cudagraph-shared-bank-conflict
    s[i0 + half] = make_float2(a.x - b.x, a.y - b.y); // EXPECT: cudagraph-shared-bank-conflict
    __syncthreads();
  }
  data[blockIdx.x * 512 + t] = s[t];
  data[blockIdx.x * 512 + t + 256] = s[t + 256];
}

// Half-precision tile transposed through shared memory: a row of 64 halves is
// 32 words, so a column read puts all 32 lanes in one bank.
__global__ void half_transpose(const __half *in, __half *out, int n) {
  __shared__ __half tile[32][64];
  int tx = threadIdx.x, ty = threadIdx.y;
  for (int j = ty; j < 32; j += 8) {
    tile[j][2 * tx] = in[(blockIdx.y * 32 + j) * n + blockIdx.x * 64 + 2 * tx];
    tile[j][2 * tx + 1] = in[(blockIdx.y * 32 + j) * n + blockIdx.x * 64 + 2 * tx + 1];
  }
  __syncthreads();
  for (int j = ty; j < 64; j += 8)
    out[(blockIdx.x * 64 + j) * n + blockIdx.y * 32 + tx] = tile[tx][j]; // EXPECT: cudagraph-shared-bank-conflict
}

// float4 stores with a stride of two vectors (an interleaved real/imag layout).
__global__ void f4_stride2(const float4 *in, float4 *out) {
  __shared__ float4 s[2 * 128];
  int t = threadIdx.x;
  for (int r = 0; r < 2; ++r)
    s[2 * t + r] = in[blockIdx.x * 256 + r * 128 + t]; // EXPECT: cudagraph-shared-bank-conflict
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[t];
  out[blockIdx.x * 256 + 128 + t] = s[128 + t];
}

// Half scalars, one per thread: two lanes share a word, clean.
__global__ void half_scale(__half *x, float a) {
  __shared__ __half sh[256];
  sh[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  x[blockIdx.x * 256 + threadIdx.x] = __float2half(a * __half2float(sh[255 - threadIdx.x]));
}

void run_vec(const float4 *a, float4 *b, float2 *c, const __half *h, __half *o, int n,
             cudaStream_t s) {
  copy_f4<<<n / 256, 256, 0, s>>>(a, b);
  radix2_stages<<<n / 512, 256, 0, s>>>(c);
  half_transpose<<<dim3(n / 64, n / 32), dim3(32, 8), 0, s>>>(h, o, n);
  f4_stride2<<<n / 256, 128, 0, s>>>(a, b);
  half_scale<<<n / 256, 256, 0, s>>>(o, 2.f);
}
