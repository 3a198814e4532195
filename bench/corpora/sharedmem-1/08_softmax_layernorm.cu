// Row-wise softmax and layernorm, one block per row, per-warp partials.
#include <cuda_runtime.h>

template <int THREADS>
__global__ void softmax_rows(const float *x, float *y, int cols) {
  constexpr int WARPS = THREADS / 32;
  __shared__ float red[WARPS];
  __shared__ float s_max, s_sum;
  const float *row = x + (size_t)blockIdx.x * cols;
  float *orow = y + (size_t)blockIdx.x * cols;
  int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;

  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += THREADS) m = fmaxf(m, row[c]);
  for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (lane == 0) red[wid] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    float mm = red[0];
    for (int w = 1; w < WARPS; ++w) mm = fmaxf(mm, red[w]);
    s_max = mm;
  }
  __syncthreads();
  float mx = s_max, sum = 0.f;
  for (int c = threadIdx.x; c < cols; c += THREADS) sum += __expf(row[c] - mx);
  for (int o = 16; o; o >>= 1) sum += __shfl_xor_sync(0xffffffff, sum, o);
  __syncthreads();
  if (lane == 0) red[wid] = sum;
  __syncthreads();
  if (wid == 0) {
    float t = lane < WARPS ? red[lane] : 0.f;
    for (int o = 16; o; o >>= 1) t += __shfl_xor_sync(0xffffffff, t, o);
    if (lane == 0) s_sum = t;
  }
  __syncthreads();
  float inv = 1.f / s_sum;
  for (int c = threadIdx.x; c < cols; c += THREADS) orow[c] = __expf(row[c] - mx) * inv;
}

// Bug: partials sized for 4 warps (a 128-thread launch that later became 256).
__global__ void layernorm_rows(const float *x, const float *gamma, const float *beta, float *y,
                               int cols, float eps) {
  __shared__ float s_part[4];
  __shared__ float s_mean, s_rstd;
  const float *row = x + (size_t)blockIdx.x * cols;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float s = 0.f, ss = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    float v = row[c];
    s += v;
    ss += v * v;
  }
  for (int o = 16; o > 0; o /= 2) {
    s += __shfl_down_sync(0xffffffff, s, o);
    ss += __shfl_down_sync(0xffffffff, ss, o);
  }
  if (lane == 0) s_part[warp] = s; // EXPECT: cudagraph-shared-index-overflow
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < 4; ++w) t += s_part[w];
    s_mean = t / cols;
  }
  __syncthreads();
  if (lane == 0) s_part[warp] = ss; // EXPECT: cudagraph-shared-index-overflow
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int w = 0; w < 4; ++w) t += s_part[w];
    s_rstd = rsqrtf(t / cols - s_mean * s_mean + eps);
  }
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[(size_t)blockIdx.x * cols + c] = (row[c] - s_mean) * s_rstd * gamma[c] + beta[c];
}

void run_rows(const float *x, float *y, const float *g, const float *b, int rows, int cols,
              cudaStream_t stream) {
  softmax_rows<256><<<rows, 256, 0, stream>>>(x, y, cols);
  softmax_rows<1024><<<rows, 1024, 0, stream>>>(x, y, cols);
  layernorm_rows<<<rows, 256, 0, stream>>>(x, g, b, y, cols, 1e-5f);
}
