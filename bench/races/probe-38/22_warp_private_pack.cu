// EXPECT: none
// 4-bit weight packing: each warp transposes its own 32x32 block of int8 codes through a
// private shared-memory region (8 warps, no block barrier at all), __syncwarp between phases.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>

constexpr int WARPS = 8;

__global__ void pack_int4_cols(const int8_t* __restrict__ codes, uint32_t* __restrict__ packed, int n_blocks32,
                               int ld) {
  __shared__ int8_t s_buf[WARPS][32][33];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int b = blockIdx.x * WARPS + warp; b < n_blocks32; b += gridDim.x * WARPS) {
    const int8_t* src = codes + (size_t)b * 32 * ld;
    for (int r = 0; r < 32; ++r) s_buf[warp][r][lane] = src[(size_t)r * ld + lane];
    __syncwarp();
    // lane reads column `lane` (row-major in the source) and packs 8 nibbles per word
    for (int w = 0; w < 4; ++w) {
      uint32_t word = 0;
      for (int j = 0; j < 8; ++j) word |= (uint32_t)(s_buf[warp][w * 8 + j][lane] & 0xF) << (4 * j);
      packed[((size_t)b * 32 + lane) * 4 + w] = word;
    }
    __syncwarp();  // the next block of this warp overwrites s_buf[warp]
  }
}

void launch_pack(const int8_t* codes, uint32_t* packed, int n_blocks32, int ld, cudaStream_t st) {
  pack_int4_cols<<<16, WARPS * 32, 0, st>>>(codes, packed, n_blocks32, ld);
}

#ifdef WITH_MAIN
int main() {
  const int nb = 256, ld = 32;
  int8_t* c; uint32_t* p;
  cudaMalloc(&c, (size_t)nb * 32 * ld); cudaMalloc(&p, (size_t)nb * 32 * 16);
  cudaMemset(c, 0, (size_t)nb * 32 * ld);
  launch_pack(c, p, nb, ld, 0);
  printf("done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
#endif
