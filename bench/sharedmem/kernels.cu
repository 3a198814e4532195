// Micro-kernels for validating cudagraph-shared-bank-conflict and
// cudagraph-shared-index-overflow on a GPU (not part of CI).
//
// Each b_* kernel is one case of test/checkers/cudagraph-shared-bank-conflict.cu
// reduced to its measured access (plus conflict-free initialisation and a
// write-back to global memory so nothing is optimised away); r_* kernels
// re-implement the access patterns of the RaCUDA (POPL'21) benchmarks
// matrixMul, matrixMulTranspose and reduce1; o_* kernels are the cases of
// test/checkers/cudagraph-shared-index-overflow.cu for compute-sanitizer.
// Every kernel is launched once, with one block, from main(), in table
// order; the launches are visible to the analyser, which takes the block
// shape from them (predict.cpp).
//
//   ./kernels bank        run every b_*/r_* kernel once (for ncu)
//   ./kernels oob NAME    run one o_* kernel (for compute-sanitizer)
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

// ---- bank-conflict cases -------------------------------------------------
__global__ void b_transpose_naive_read(float *out) {
  __shared__ float tile[TILE][TILE];
  float *flat = &tile[0][0];
  for (int i = threadIdx.x + threadIdx.y * TILE; i < TILE * TILE; i += TILE * ROWS)
    flat[i] = i;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void b_transpose_naive_write(const float *in, float *out) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}
__global__ void b_transpose_padded_read(float *out) {
  __shared__ float tile[TILE][TILE + 1];
  float *flat = &tile[0][0];
  for (int i = threadIdx.x + threadIdx.y * TILE; i < TILE * (TILE + 1); i += TILE * ROWS)
    flat[i] = i;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void b_transpose_swizzled_read(float *out) {
  __shared__ float tile[TILE][TILE];
  float *flat = &tile[0][0];
  for (int i = threadIdx.x + threadIdx.y * TILE; i < TILE * TILE; i += TILE * ROWS)
    flat[i] = i;
  __syncthreads();
  out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y ^ threadIdx.x];
}
__global__ void b_reduce_interleaved(float *g) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    g[0] = sdata[0];
}
__global__ void b_reduce_sequential(float *g) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    g[0] = sdata[0];
}
__global__ void b_broadcast(float *g) {
  __shared__ float coef[64];
  if (threadIdx.x < 64)
    coef[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = coef[0];
}
__global__ void b_stride2_store(const float *in, float *g) {
  __shared__ float s[512];
  s[2 * threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = s[threadIdx.x];
}
__global__ void b_stride3_store(const float *in, float *g) {
  __shared__ float s[768];
  s[3 * threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = s[threadIdx.x];
}
__global__ void b_stride4_store(const float *in, float *g) {
  __shared__ float s[128 * 4];
  s[threadIdx.x * 4] = in[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = s[threadIdx.x];
}
__global__ void b_double_column(double *g) {
  __shared__ double t[32][32];
  t[threadIdx.y][threadIdx.x] = g[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  g[threadIdx.x * 32 + threadIdx.y] = t[threadIdx.x][threadIdx.y];
}
__global__ void b_double_column_padded(double *g) {
  __shared__ double t[32][33];
  t[threadIdx.y][threadIdx.x] = g[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  g[threadIdx.x * 32 + threadIdx.y] = t[threadIdx.x][threadIdx.y];
}
__global__ void b_narrow_block(float *g) {
  __shared__ float s[16 * 32 + 2];
  for (int i = threadIdx.y * 16 + threadIdx.x; i < 16 * 32 + 2; i += 32)
    s[i] = i;
  __syncthreads();
  g[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x * 32 + threadIdx.y];
}
__global__ void b_vec4_stride2(const float4 *in, float4 *g) {
  extern __shared__ float4 v[];
  v[2 * threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = v[threadIdx.x];
}
__global__ void b_vec4_unit(const float4 *in, float4 *g) {
  extern __shared__ float4 v[];
  v[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = v[threadIdx.x];
}
__global__ void b_few_lanes(const float *in, float *g) {
  __shared__ float s[32 * 32];
  if (threadIdx.x < 8)
    s[threadIdx.x * 32] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 8)
    g[threadIdx.x] = s[threadIdx.x * 32];
}
__global__ void b_one_lane(const float *in, float *g) {
  __shared__ float s[32 * 32];
  if (threadIdx.x == 0)
    s[threadIdx.x * 32] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    g[threadIdx.x] = s[threadIdx.x * 32];
}
__global__ void b_block48_stride32(const float *in, float *g) {
  __shared__ float s[48 * 32];
  s[threadIdx.x * 32] = in[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = s[threadIdx.x * 32];
}

// ---- RaCUDA benchmark access patterns (own code, one 32x32 tile) -------------
__global__ void r_matrixmul(const float *A, const float *B, float *C) {
  __shared__ float As[32][32];
  __shared__ float Bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  As[ty][tx] = A[ty * 32 + tx];
  Bs[ty][tx] = B[ty * 32 + tx];
  __syncthreads();
  float c = 0;
#pragma unroll
  for (int k = 0; k < 32; ++k)
    c += As[ty][k] * Bs[k][tx];
  C[ty * 32 + tx] = c;
}
__global__ void r_matrixmul_transpose(const float *A, const float *B, float *C) {
  __shared__ float As[32][32];
  __shared__ float Bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  As[tx][ty] = A[ty * 32 + tx];
  Bs[ty][tx] = B[ty * 32 + tx];
  __syncthreads();
  float c = 0;
#pragma unroll
  for (int k = 0; k < 32; ++k)
    c += As[k][ty] * Bs[k][tx];
  C[ty * 32 + tx] = c;
}
__global__ void r_reduce1(const int *in, int *out) {
  __shared__ int sdata[1024];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[0] = sdata[0];
}
__global__ void r_reduce1_b32(const int *in, int *out) {
  __shared__ int sdata[32];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[0] = sdata[0];
}

// ---- overflow cases --------------------------------------------------------
__global__ void o_stride_two(float *g) {
  __shared__ float cache[256];
  cache[threadIdx.x * 2] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = cache[threadIdx.x];
}
__global__ void o_stride_two_sized(float *g) {
  __shared__ float cache[512];
  cache[threadIdx.x * 2] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = cache[threadIdx.x];
}
__global__ void o_halo_short(const float *in, float *out) {
  __shared__ float s[256 + 3];
  s[threadIdx.x + 3] = in[threadIdx.x + 3];
  if (threadIdx.x < 3) {
    s[threadIdx.x] = in[threadIdx.x];
    s[threadIdx.x + 256 + 3] = in[threadIdx.x + 256];
  }
  __syncthreads();
  float v = 0;
  for (int k = -3; k <= 3; ++k)
    v += s[threadIdx.x + 3 + k];
  out[threadIdx.x] = v;
}
__global__ void o_reduce_off_by_one(float *g) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = g[tid];
  __syncthreads();
  for (unsigned s = blockDim.x; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    g[0] = sdata[0];
}
__global__ void o_tile_rows(float *g) {
  __shared__ float tile[TILE][TILE];
  for (int j = 0; j <= TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = tile[0][threadIdx.x];
}
__global__ void o_dyn_neighbour(float *g) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = dyn[threadIdx.x + 1];
}
__global__ void o_dyn_neighbour_ok(float *g) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = dyn[threadIdx.x + 1];
}
__global__ void o_bytes_as_floats(float *g) {
  extern __shared__ char raw[];
  float *f = reinterpret_cast<float *>(raw);
  f[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  g[threadIdx.x] = f[0];
}
__global__ void o_left_neighbour(float *g) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  g[t] = s[t - 1];
}
__global__ void o_left_neighbour_guarded(float *g) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  g[t] = t > 0 ? s[t - 1] : 0.0f;
}

// ---- driver ----------------------------------------------------------------
static void *buf(size_t bytes) {
  void *p = nullptr;
  cudaMalloc(&p, bytes);
  cudaMemset(p, 0, bytes);
  return p;
}

static void runBank() {
  float *f = (float *)buf(1 << 20), *f2 = (float *)buf(1 << 20);
  double *d = (double *)buf(1 << 20);
  float4 *v = (float4 *)buf(1 << 20), *v2 = (float4 *)buf(1 << 20);
  int *i = (int *)buf(1 << 20), *i2 = (int *)buf(1 << 20);
  dim3 tr(TILE, ROWS);
  b_transpose_naive_read<<<1, tr>>>(f);
  b_transpose_naive_write<<<1, tr>>>(f, f2);
  b_transpose_padded_read<<<1, tr>>>(f);
  b_transpose_swizzled_read<<<1, tr>>>(f);
  b_reduce_interleaved<<<1, 256>>>(f);
  b_reduce_sequential<<<1, 256>>>(f);
  b_broadcast<<<1, 128>>>(f);
  b_stride2_store<<<1, 256>>>(f, f2);
  b_stride3_store<<<1, 256>>>(f, f2);
  b_stride4_store<<<1, 128>>>(f, f2);
  b_double_column<<<1, dim3(32, 32)>>>(d);
  b_double_column_padded<<<1, dim3(32, 32)>>>(d);
  b_narrow_block<<<1, dim3(16, 2)>>>(f);
  b_vec4_stride2<<<1, 64, 128 * sizeof(float4)>>>(v, v2);
  b_vec4_unit<<<1, 64, 64 * sizeof(float4)>>>(v, v2);
  b_few_lanes<<<1, 32>>>(f, f2);
  b_one_lane<<<1, 32>>>(f, f2);
  b_block48_stride32<<<1, 48>>>(f, f2);
  r_matrixmul<<<1, dim3(32, 32)>>>(f, f2, f);
  r_matrixmul_transpose<<<1, dim3(32, 32)>>>(f, f2, f);
  r_reduce1<<<1, 1024>>>(i, i2);
  r_reduce1_b32<<<1, 32>>>(i, i2);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("bank kernels: %s\n", cudaGetErrorString(e));
}

static int runOob(const char *name) {
  float *f = (float *)buf(1 << 20), *f2 = (float *)buf(1 << 20);
  if (!std::strcmp(name, "o_stride_two")) o_stride_two<<<1, 256>>>(f);
  else if (!std::strcmp(name, "o_stride_two_sized")) o_stride_two_sized<<<1, 256>>>(f);
  else if (!std::strcmp(name, "o_halo_short")) o_halo_short<<<1, 256>>>(f, f2);
  else if (!std::strcmp(name, "o_reduce_off_by_one")) o_reduce_off_by_one<<<1, 256>>>(f);
  else if (!std::strcmp(name, "o_tile_rows")) o_tile_rows<<<1, dim3(TILE, ROWS)>>>(f);
  else if (!std::strcmp(name, "o_dyn_neighbour")) o_dyn_neighbour<<<1, 256, 256 * sizeof(float)>>>(f);
  else if (!std::strcmp(name, "o_dyn_neighbour_ok")) o_dyn_neighbour_ok<<<1, 256, 257 * sizeof(float)>>>(f);
  else if (!std::strcmp(name, "o_bytes_as_floats")) o_bytes_as_floats<<<1, 256, 512>>>(f);
  else if (!std::strcmp(name, "o_left_neighbour")) o_left_neighbour<<<1, 256>>>(f);
  else if (!std::strcmp(name, "o_left_neighbour_guarded")) o_left_neighbour_guarded<<<1, 256>>>(f);
  else { std::printf("unknown kernel %s\n", name); return 2; }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s: %s\n", name, cudaGetErrorString(e));
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && !std::strcmp(argv[1], "oob"))
    return runOob(argv[2]);
  runBank();
  return 0;
}
