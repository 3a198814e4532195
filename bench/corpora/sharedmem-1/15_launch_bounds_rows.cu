// Kernels with __launch_bounds__: per-thread scratch rows in shared memory.
#include <cuda_runtime.h>

#define ROW 32

// Each thread keeps a private 32-float row (insertion-sort window): thread t's
// element i is word t*32+i, so all lanes hit bank i.
__global__ void __launch_bounds__(128) median_window(const float *in, float *out, int n) {
  __shared__ float rows[128][ROW];
  int t = threadIdx.x;
  int g = blockIdx.x * 128 + t;
  for (int i = 0; i < ROW; ++i)
    rows[t][i] = in[g * ROW + i]; // EXPECT: cudagraph-shared-bank-conflict
  for (int i = 1; i < ROW; ++i) {
    float v = rows[t][i]; // EXPECT: cudagraph-shared-bank-conflict
    int j = i - 1;
    // In the k-th trip every lane still in the loop has j == i - 1 - k: the
    // same column of different rows (relabelled after the blind run, see README).
    while (j >= 0 && rows[t][j] > v) { // EXPECT: cudagraph-shared-bank-conflict
      rows[t][j + 1] = rows[t][j]; // EXPECT: cudagraph-shared-bank-conflict
      --j;
    }
    rows[t][j + 1] = v;
  }
  out[g] = rows[t][ROW / 2]; // EXPECT: cudagraph-shared-bank-conflict
}

// Padded twin: rows of 33 words put thread t's element i in bank (t + i) % 32.
__global__ void __launch_bounds__(128) median_window_padded(const float *in, float *out, int n) {
  __shared__ float rows[128][ROW + 1];
  int t = threadIdx.x;
  int g = blockIdx.x * 128 + t;
  for (int i = 0; i < ROW; ++i)
    rows[t][i] = in[g * ROW + i];
  for (int i = 1; i < ROW; ++i) {
    float v = rows[t][i];
    int j = i - 1;
    while (j >= 0 && rows[t][j] > v) {
      rows[t][j + 1] = rows[t][j];
      --j;
    }
    rows[t][j + 1] = v;
  }
  out[g] = rows[t][ROW / 2];
}

// Launched with its bound of 256 threads; each thread writes two elements of a
// 512-float tile, stride 2 outside any loop (2-way: under the default
// threshold of 4 outside loops).
__global__ void __launch_bounds__(256) pack_pairs(const float2 *in, float *out) {
  __shared__ float s[512];
  int t = threadIdx.x;
  float2 v = in[blockIdx.x * 256 + t];
  s[2 * t] = v.x;
  s[2 * t + 1] = v.y;
  __syncthreads();
  out[blockIdx.x * 512 + t] = s[t];
  out[blockIdx.x * 512 + 256 + t] = s[256 + t];
}

void run_lb(const float *in, float *out, const float2 *p, int n, cudaStream_t s) {
  median_window<<<n / 128, 128, 0, s>>>(in, out, n);
  median_window_padded<<<n / 128, 128, 0, s>>>(in, out, n);
  pack_pairs<<<n / 256, 256, 0, s>>>(p, out);
}
