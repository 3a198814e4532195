// Non-blocking streams with explicit synchronisation, and code that runs on
// cudaStreamPerThread from worker threads.
#include <cuda_runtime.h>
#include <cstdio>
#include <thread>
#include <vector>

__global__ void bump(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

static void worker(int id, int n, int *result) {
  int *d = nullptr;
  if (cudaMallocAsync(&d, n * sizeof(int), cudaStreamPerThread) != cudaSuccess) {
    *result = -1;
    return;
  }
  cudaMemsetAsync(d, 0, n * sizeof(int), cudaStreamPerThread);
  for (int k = 0; k <= id; ++k) bump<<<(n + 255) / 256, 256, 0, cudaStreamPerThread>>>(d, n);
  int h = 0;
  cudaMemcpyAsync(&h, d, sizeof(int), cudaMemcpyDeviceToHost, cudaStreamPerThread);
  cudaFreeAsync(d, cudaStreamPerThread);
  cudaStreamSynchronize(cudaStreamPerThread);
  *result = h;
}

int main() {
  const int n = 1 << 14;
  cudaStream_t a, b;
  if (cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking) != cudaSuccess) return 1;
  if (cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking) != cudaSuccess) {
    cudaStreamDestroy(a);
    return 1;
  }
  int *buf = nullptr;
  if (cudaMallocAsync(&buf, n * sizeof(int), a) != cudaSuccess) {
    cudaStreamDestroy(b);
    cudaStreamDestroy(a);
    return 1;
  }
  cudaMemsetAsync(buf, 0, n * sizeof(int), a);
  // Non-blocking streams do not sync with the legacy stream: sync explicitly.
  cudaStreamSynchronize(a);
  bump<<<(n + 255) / 256, 256, 0, b>>>(buf, n);
  cudaStreamSynchronize(b);
  bump<<<(n + 255) / 256, 256, 0, a>>>(buf, n);
  int h = 0;
  cudaMemcpyAsync(&h, buf, sizeof(int), cudaMemcpyDeviceToHost, a);
  cudaFreeAsync(buf, a);
  cudaStreamSynchronize(a);

  std::vector<int> results(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back(worker, t, n, &results[t]);
  for (auto &th : threads) th.join();

  cudaStreamDestroy(b);
  cudaStreamDestroy(a);
  std::printf("h=%d r3=%d\n", h, results[3]);
  return 0;
}
