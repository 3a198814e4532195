// Particle arrays in managed memory that grow during the simulation.
// grow_buggy allocates the larger array into the live pointer;
// grow_ok frees first (or copies then frees).
#include <cuda_runtime.h>
#include <cstring>

__global__ void advance(float *pos, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) pos[i] += dt;
}

void simulate_buggy(int steps, int n0) {
  float *pos = nullptr;
  int cap = n0;
  cudaMallocManaged(&pos, cap * sizeof(float));
  int n = n0;
  for (int s = 0; s < steps; ++s) {
    n += n / 10 + 1;
    if (n > cap) {
      cap = 2 * n;
      cudaMallocManaged(&pos, cap * sizeof(float)); // EXPECT: cudagraph-handle-leak
    }
    advance<<<(n + 255) / 256, 256>>>(pos, n, 0.01f);
    cudaDeviceSynchronize();
  }
  cudaFree(pos);
}

void simulate_ok(int steps, int n0) {
  float *pos = nullptr;
  int cap = n0;
  cudaMallocManaged(&pos, cap * sizeof(float));
  int n = n0;
  for (int s = 0; s < steps; ++s) {
    int old_n = n;
    n += n / 10 + 1;
    if (n > cap) {
      cap = 2 * n;
      float *bigger = nullptr;
      cudaMallocManaged(&bigger, cap * sizeof(float));
      cudaDeviceSynchronize();
      std::memcpy(bigger, pos, old_n * sizeof(float));
      cudaFree(pos);
      pos = bigger;
    }
    advance<<<(n + 255) / 256, 256>>>(pos, n, 0.01f);
    cudaDeviceSynchronize();
  }
  cudaFree(pos);
}

void scratch_per_step(int steps, int n) {
  float *tmp = nullptr;
  for (int s = 0; s < steps; ++s) {
    cudaFree(tmp); // cudaFree(nullptr) is a no-op on the first step
    cudaMallocManaged(&tmp, (n + s) * sizeof(float));
    advance<<<(n + s + 255) / 256, 256>>>(tmp, n + s, 0.1f);
    cudaDeviceSynchronize();
  }
  cudaFree(tmp);
}
