// Shared-memory kernels: an unpadded transpose tile (32-way bank conflicts on
// the column reads) and a reduction whose launch uses more threads than its
// tile holds (the index overflows the __shared__ array). Their fixed twins
// are silent. Run:
//   build/bin/cudagraph-tidy examples/shared_tiles.cu -- -std=c++17
#include <cuda_runtime.h>

constexpr int TILE = 32;

__global__ void transpose_naive_tile(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y]; // column read: 32-way
}

__global__ void transpose_padded_tile(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void block_sum_256(const float *in, float *out) {
  __shared__ float partial[256];
  unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid]; // 512 threads, 256 slots
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s && tid + s < 256)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}

void launch_all(float *out, const float *in, int n, cudaStream_t s) {
  dim3 block(TILE, TILE);
  dim3 grid(n / TILE, n / TILE);
  transpose_naive_tile<<<grid, block, 0, s>>>(out, in, n);
  transpose_padded_tile<<<grid, block, 0, s>>>(out, in, n);
  block_sum_256<<<n, 512, 0, s>>>(in, out);
}
