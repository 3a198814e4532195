// EXPECT: none
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

constexpr int BINS = 64;
constexpr int BS = 256;
constexpr int NW = BS / 32;

// Per-warp private sub-histograms (less atomic contention), merged by the block:
// thread t folds bin t's NW copies; the number of chunks comes from a header word
// that thread 0 reads into shared memory.
__global__ void hist_warp_private(const int* __restrict__ header, const unsigned char* __restrict__ data,
                                  unsigned int* __restrict__ hist) {
  __shared__ unsigned int sub[NW][BINS];
  __shared__ int s_chunks;
  const int tid = threadIdx.x, warp = tid >> 5;
  for (int i = tid; i < NW * BINS; i += BS) (&sub[0][0])[i] = 0;
  if (tid == 0) s_chunks = header[blockIdx.x];
  __syncthreads();
  const int chunks = s_chunks;  // block-uniform trip count from shared memory
  for (int ch = 0; ch < chunks; ++ch) {
    const int i = (blockIdx.x * 64 + ch) * BS + tid;
    atomicAdd(&sub[warp][data[i] & (BINS - 1)], 1u);
    __syncthreads();  // keep the warps within one chunk of each other
  }
  if (tid < BINS) {
    unsigned int c = 0;
    for (int w = 0; w < NW; ++w) c += sub[w][tid];
    atomicAdd(&hist[tid], c);
  }
}

int main() {
  const int blocks = 4;
  const int n = blocks * 64 * BS;
  std::vector<unsigned char> h(n);
  for (int i = 0; i < n; ++i) h[i] = (unsigned char)(i * 37 + (i >> 5));
  std::vector<int> hdr(blocks);
  for (int b = 0; b < blocks; ++b) hdr[b] = 16 + 8 * b;
  unsigned char* dd;
  unsigned int* dh;
  int* dhdr;
  cudaMalloc(&dd, n);
  cudaMalloc(&dh, BINS * 4);
  cudaMalloc(&dhdr, blocks * 4);
  cudaMemset(dh, 0, BINS * 4);
  cudaMemcpy(dd, h.data(), n, cudaMemcpyHostToDevice);
  cudaMemcpy(dhdr, hdr.data(), blocks * 4, cudaMemcpyHostToDevice);
  hist_warp_private<<<blocks, BS>>>(dhdr, dd, dh);
  std::vector<unsigned int> out(BINS);
  cudaMemcpy(out.data(), dh, BINS * 4, cudaMemcpyDeviceToHost);
  printf("h0=%u %s\n", out[0], cudaGetErrorString(cudaGetLastError()));
  cudaFree(dd); cudaFree(dh); cudaFree(dhdr);
  return 0;
}
