// Separate compilation (-dc): a tile descriptor in shared memory declared
// extern as a single object, which clang accepts only with -fgpu-rdc.
#include <cuda_runtime.h>

struct TileDesc {
  int row0, col0;
  int rows, cols;
};

extern __shared__ TileDesc tile_desc;

__global__ void fill_tiles(float *out, int ld) {
  if (threadIdx.x == 0) {
    tile_desc.row0 = blockIdx.y * 16;
    tile_desc.col0 = blockIdx.x * 16;
  }
  __syncthreads();
  out[(tile_desc.row0 + threadIdx.y) * ld + tile_desc.col0 + threadIdx.x] = 1.f;
}

void launch_tiles(float *out, int ld, cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  fill_tiles<<<dim3(4, 4), dim3(16, 16), 0, s>>>(out, ld);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
  cudaGraphDestroy(g);
}
