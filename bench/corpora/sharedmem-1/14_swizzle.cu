// XOR-swizzled tiles (the alternative to padding) and their unswizzled twins.
#include <cuda_runtime.h>

constexpr int T = 32;

__global__ void transpose_swizzled(const float *in, float *out, int n) {
  __shared__ float tile[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * T + tx, y = blockIdx.y * T + ty;
  for (int j = 0; j < T; j += 8) {
    int r = ty + j;
    tile[r][tx ^ r] = in[(y + j) * n + x];
  }
  __syncthreads();
  x = blockIdx.y * T + tx;
  y = blockIdx.x * T + ty;
  for (int j = 0; j < T; j += 8) {
    int c = ty + j;
    out[(y + j) * n + x] = tile[tx][c ^ tx];
  }
}

// 32x32 float tile stored as float4 chunks (8 per row); lanes read one chunk
// of consecutive rows. Swizzling the chunk index by (row & 7) spreads the
// 8 lanes of each 16-byte phase over all 32 banks.
__global__ void chunk_read_swizzled(const float4 *in, float4 *out) {
  __shared__ float4 t4[32][8];
  int lane = threadIdx.x;
  for (int c = 0; c < 8; ++c)
    t4[lane][c ^ (lane & 7)] = in[blockIdx.x * 256 + lane * 8 + c];
  __syncthreads();
  for (int c = 0; c < 8; ++c)
    out[blockIdx.x * 256 + c * 32 + lane] = t4[lane][c ^ (lane & 7)];
}

__global__ void chunk_read_plain(const float4 *in, float4 *out) {
  __shared__ float4 t4[32][8];
  int lane = threadIdx.x;
  for (int c = 0; c < 8; ++c)
    t4[lane][c] = in[blockIdx.x * 256 + lane * 8 + c]; // EXPECT: cudagraph-shared-bank-conflict
  __syncthreads();
  for (int c = 0; c < 8; ++c)
    out[blockIdx.x * 256 + c * 32 + lane] = t4[lane][c]; // EXPECT: cudagraph-shared-bank-conflict
}

// A swizzle with the wrong mask: (lane & 3) only separates 4 rows, so each
// 8-lane phase still pairs up rows r and r+4 in the same banks.
__global__ void chunk_read_badmask(const float4 *in, float4 *out) {
  __shared__ float4 t4[32][8];
  int lane = threadIdx.x;
  for (int c = 0; c < 8; ++c)
    t4[lane][c ^ (lane & 3)] = in[blockIdx.x * 256 + lane * 8 + c]; // EXPECT: cudagraph-shared-bank-conflict
  __syncthreads();
  for (int c = 0; c < 8; ++c)
    out[blockIdx.x * 256 + c * 32 + lane] = t4[lane][c ^ (lane & 3)]; // EXPECT: cudagraph-shared-bank-conflict
}

void run_swizzle(const float *a, float *b, const float4 *c, float4 *d, int n, cudaStream_t s) {
  transpose_swizzled<<<dim3(n / T, n / T), dim3(T, 8), 0, s>>>(a, b, n);
  chunk_read_swizzled<<<n / 256, 32, 0, s>>>(c, d);
  chunk_read_plain<<<n / 256, 32, 0, s>>>(c, d);
  chunk_read_badmask<<<n / 256, 32, 0, s>>>(c, d);
}
