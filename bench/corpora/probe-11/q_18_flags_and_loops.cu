// Bool flags, `a || b` conditions, loops whose bounds are known, ternary
// acquisition/release by the same flag, and ping-pong buffers swapped each step.
#include <cuda_runtime.h>
#include <utility>
#include <cstdlib>
#include <cstdio>

__global__ void stencil(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

static int pingpong(int n, int steps) {
  float *buf[2] = {nullptr, nullptr};
  if (cudaMalloc(&buf[0], n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&buf[1], n * sizeof(float)) != cudaSuccess) {
    cudaFree(buf[0]);
    cudaFree(buf[1]);
    return 1;
  }
  cudaMemset(buf[0], 0, n * sizeof(float));
  for (int s = 0; s < steps; ++s) {
    stencil<<<(n + 255) / 256, 256>>>(buf[0], buf[1], n);
    std::swap(buf[0], buf[1]);
  }
  cudaDeviceSynchronize();
  cudaFree(buf[0]);
  cudaFree(buf[1]);
  return 0;
}

static int staged_copy(const float *src, float *dst, int n, bool pinned) {
  float *stage = nullptr;
  bool ok = (pinned ? cudaMallocHost(&stage, n * sizeof(float))
                    : cudaMalloc(&stage, n * sizeof(float))) == cudaSuccess;
  if (!ok) return 1;
  cudaMemcpy(stage, src, n * sizeof(float), pinned ? cudaMemcpyHostToHost : cudaMemcpyHostToDevice);
  cudaMemcpy(dst, stage, n * sizeof(float), pinned ? cudaMemcpyHostToHost : cudaMemcpyDeviceToHost);
  if (pinned)
    cudaFreeHost(stage);
  else
    cudaFree(stage);
  return 0;
}

static int two_phase(int n) {
  // Phase 0 allocates, phase 1 consumes and frees: the loop runs exactly twice.
  float *tmp = nullptr;
  cudaStream_t s = nullptr;
  for (int phase = 0; phase < 2; ++phase) {
    if (phase == 0) {
      if (cudaStreamCreate(&s) != cudaSuccess) return 1;
      if (cudaMalloc(&tmp, n * sizeof(float)) != cudaSuccess) {
        cudaStreamDestroy(s);
        return 1;
      }
      cudaMemsetAsync(tmp, 0, n * sizeof(float), s);
    } else {
      stencil<<<(n + 255) / 256, 256, 0, s>>>(tmp, tmp, n);
      cudaStreamSynchronize(s);
      cudaFree(tmp);
      cudaStreamDestroy(s);
    }
  }
  return 0;
}

static int timed_run(int n, bool timing) {
  cudaEvent_t start = nullptr, stop = nullptr;
  const bool want_events = timing && n > 0;
  if (want_events) {
    if (cudaEventCreate(&start) != cudaSuccess) return 1;
    if (cudaEventCreate(&stop) != cudaSuccess) {
      cudaEventDestroy(start);
      return 1;
    }
    cudaEventRecord(start);
  }
  int rc = pingpong(n > 0 ? n : 1, 4);
  if (want_events) {
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    std::printf("%.3f ms\n", ms);
    cudaEventDestroy(stop);
    cudaEventDestroy(start);
  }
  return rc;
}

static int retry_alloc(size_t bytes) {
  void *p = nullptr;
  cudaError_t st = cudaErrorMemoryAllocation;
  for (int attempt = 0; attempt < 3 && st != cudaSuccess; ++attempt) {
    st = cudaMalloc(&p, bytes >> attempt);
    if (st != cudaSuccess) (void)cudaGetLastError();
  }
  if (st != cudaSuccess) return 1;
  cudaMemset(p, 0, 16);
  cudaFree(p);
  return 0;
}

int main() {
  float h[64] = {}, o[64];
  int rc = pingpong(1 << 12, 10);
  rc |= staged_copy(h, o, 64, true);
  rc |= staged_copy(h, o, 64, false);
  rc |= two_phase(1024);
  rc |= timed_run(1024, getenv("TIMING") != nullptr);
  rc |= retry_alloc(1 << 20);
  return rc;
}
