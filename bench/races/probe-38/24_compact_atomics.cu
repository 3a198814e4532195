// EXPECT: none
// Stream compaction of a 256-element tile (keep values above a threshold, e.g. top-p
// candidate filtering): slots allocated with atomics on a shared counter, one global
// atomic per block for the output base, shared atomicMax for the tile maximum.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int BS = 256;

__global__ void compact_tile(const float* __restrict__ in, float* __restrict__ out, int* __restrict__ out_idx,
                             int* __restrict__ out_count, unsigned* __restrict__ tile_max, int n, float thr) {
  __shared__ int s_count;
  __shared__ int s_base;
  __shared__ unsigned s_maxbits;
  __shared__ float s_keep[BS];
  __shared__ int s_kidx[BS];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BS + tid;
  if (tid == 0) { s_count = 0; s_maxbits = 0u; }
  __syncthreads();
  const float v = gid < n ? in[gid] : 0.f;
  const bool keep = gid < n && v > thr;
  if (keep) {
    const int slot = atomicAdd(&s_count, 1);
    s_keep[slot] = v;
    s_kidx[slot] = gid;
    atomicMax(&s_maxbits, __float_as_uint(fabsf(v)));
  }
  __syncthreads();
  if (tid == 0) {
    s_base = atomicAdd(out_count, s_count);
    tile_max[blockIdx.x] = s_maxbits;
  }
  __syncthreads();
  const int cnt = s_count;
  if (tid < cnt) {
    out[s_base + tid] = s_keep[tid];
    out_idx[s_base + tid] = s_kidx[tid];
  }
}

void launch_compact(const float* in, float* out, int* idx, int* cnt, unsigned* tmax, int n, float thr,
                    cudaStream_t st) {
  compact_tile<<<(n + BS - 1) / BS, BS, 0, st>>>(in, out, idx, cnt, tmax, n, thr);
}

#ifdef WITH_MAIN
int main() {
  const int n = 5000;
  float *in, *out; int *idx, *cnt; unsigned* tm;
  cudaMalloc(&in, n * 4); cudaMalloc(&out, n * 4); cudaMalloc(&idx, n * 4); cudaMalloc(&cnt, 4); cudaMalloc(&tm, 64 * 4);
  cudaMemset(in, 0, n * 4); cudaMemset(cnt, 0, 4);
  launch_compact(in, out, idx, cnt, tm, n, -1.f, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
