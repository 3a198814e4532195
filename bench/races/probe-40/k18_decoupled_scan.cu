// EXPECT: cudagraph-shared-race line 66
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int BS = 256;
constexpr int NW = BS / 32;

// Single-pass inclusive scan with decoupled look-back: tiles are claimed in launch
// order through a counter; thread 0 publishes the tile aggregate and walks back
// over its predecessors' descriptors to find the tile's exclusive prefix.
__global__ void scan_lookback(const int* __restrict__ in, int* __restrict__ out,
                              unsigned int* tile_counter, volatile int* flags,
                              volatile int* values) {
  __shared__ int s_tile;
  __shared__ int s_warp[NW];
  __shared__ int s_prefix;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  if (tid == 0) s_tile = (int)atomicAdd(tile_counter, 1u);
  __syncthreads();
  const int tile = s_tile;

  int x = in[tile * BS + tid];
  for (int o = 1; o < 32; o <<= 1) {
    const int y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) s_warp[warp] = x;
  __syncthreads();
  int warp_base = 0;
  for (int w = 0; w < warp; ++w) warp_base += s_warp[w];
  const int incl = x + warp_base;
  int aggregate = 0;
  for (int w = 0; w < NW; ++w) aggregate += s_warp[w];

  if (tid == 0) {
    if (tile == 0) {
      values[0] = aggregate;
      __threadfence();
      flags[0] = 2;
      s_prefix = 0;
    } else {
      values[tile] = aggregate;
      __threadfence();
      flags[tile] = 1;
      int excl = 0;
      for (int p = tile - 1; p >= 0; --p) {
        int f;
        while ((f = flags[p]) == 0) {
        }
        __threadfence();
        excl += values[p];
        if (f == 2) break;
      }
      values[tile] = excl + aggregate;
      __threadfence();
      flags[tile] = 2;
      s_prefix = excl;
    }
  }
#ifdef BUGGY
  // the prefix is consumed as soon as each thread gets here
#else
  __syncthreads();
#endif
  out[tile * BS + tid] = incl + s_prefix;  // <bug>
}

int main() {
  const int tiles = 32, n = tiles * BS;
  std::vector<int> h(n, 1);
  int *din, *dout, *dflags, *dvals;
  unsigned int* dctr;
  cudaMalloc(&din, n * 4);
  cudaMalloc(&dout, n * 4);
  cudaMalloc(&dflags, tiles * 4);
  cudaMalloc(&dvals, tiles * 4);
  cudaMalloc(&dctr, 4);
  cudaMemset(dflags, 0, tiles * 4);
  cudaMemset(dctr, 0, 4);
  cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice);
  scan_lookback<<<tiles, BS>>>(din, dout, dctr, dflags, dvals);
  cudaMemcpy(h.data(), dout, n * 4, cudaMemcpyDeviceToHost);
  printf("last=%d %s\n", h[n - 1], cudaGetErrorString(cudaGetLastError()));
  cudaFree(din); cudaFree(dout); cudaFree(dflags); cudaFree(dvals); cudaFree(dctr);
  return 0;
}
