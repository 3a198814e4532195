// k-means: assignment with centroids cached in shared memory, and centroid
// accumulation with shared atomics.
#include <cuda_runtime.h>

constexpr int K = 16;
constexpr int DIM = 4;
constexpr int THREADS = 128;

__global__ void assign_points(const float *pts, const float *cent, int *label, int n) {
  __shared__ float s_cent[K * DIM];
  __shared__ float s_pts[THREADS * DIM];
  for (int i = threadIdx.x; i < K * DIM; i += blockDim.x)
    s_cent[i] = cent[i];
  // Stage this block's points (AoS) with coalesced loads.
  for (int i = threadIdx.x; i < THREADS * DIM; i += THREADS)
    s_pts[i] = pts[blockIdx.x * THREADS * DIM + i];
  __syncthreads();
  int p = blockIdx.x * THREADS + threadIdx.x;
  float best = 3.4e38f;
  int bestc = 0;
  for (int c = 0; c < K; ++c) {
    float d2 = 0.f;
    for (int d = 0; d < DIM; ++d) {
      float diff = s_pts[threadIdx.x * DIM + d] - s_cent[c * DIM + d]; // EXPECT: cudagraph-shared-bank-conflict
      d2 += diff * diff;
    }
    if (d2 < best) { best = d2; bestc = c; }
  }
  if (p < n) label[p] = bestc;
}

__global__ void accumulate_centroids(const float *pts, const int *label, float *sums,
                                     int *counts, int n) {
  __shared__ float s_sum[K][DIM];
  __shared__ int s_cnt[K];
  if (threadIdx.x < K * DIM)
    s_sum[threadIdx.x / DIM][threadIdx.x % DIM] = 0.f;
  if (threadIdx.x < K)
    s_cnt[threadIdx.x] = 0;
  __syncthreads();
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += blockDim.x * gridDim.x) {
    int c = label[p];
    for (int d = 0; d < DIM; ++d)
      atomicAdd(&s_sum[c][d], pts[p * DIM + d]);
    atomicAdd(&s_cnt[c], 1);
  }
  __syncthreads();
  if (threadIdx.x < K * DIM)
    atomicAdd(&sums[threadIdx.x], s_sum[threadIdx.x / DIM][threadIdx.x % DIM]);
  if (threadIdx.x < K)
    atomicAdd(&counts[threadIdx.x], s_cnt[threadIdx.x]);
}

// Bug: the reset assumes at least K*DIM threads but is unguarded; with 128
// threads it writes rows 16..31 of a 16-row array.
__global__ void reset_centroids(float *sums, int *counts) {
  __shared__ float s_sum[K][DIM];
  s_sum[threadIdx.x / DIM][threadIdx.x % DIM] = 0.f; // EXPECT: cudagraph-shared-index-overflow
  __syncthreads();
  if (threadIdx.x < K * DIM) sums[threadIdx.x] = s_sum[threadIdx.x / DIM][threadIdx.x % DIM];
  if (threadIdx.x < K) counts[threadIdx.x] = 0;
}

void kmeans_step(const float *pts, float *cent, int *label, float *sums, int *counts, int n,
                 cudaStream_t s) {
  int blocks = (n + THREADS - 1) / THREADS;
  assign_points<<<blocks, THREADS, 0, s>>>(pts, cent, label, n);
  reset_centroids<<<1, THREADS, 0, s>>>(sums, counts);
  accumulate_centroids<<<blocks, 256, 0, s>>>(pts, label, sums, counts, n);
}
