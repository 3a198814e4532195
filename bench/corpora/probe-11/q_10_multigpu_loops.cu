// Multi-GPU loops over devices with per-device arrays of handles (NCCL tests /
// Megatron style): create per device, unwind the devices made so far when one
// fails, run, then destroy per device.
#include <cuda_runtime.h>
#include <cstdio>

#define MAX_GPUS 8

__global__ void fill(float *p, float v, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
}

struct PerDevice {
  cudaStream_t streams[MAX_GPUS];
  cudaEvent_t done[MAX_GPUS];
  float *buf[MAX_GPUS];
  float *host[MAX_GPUS];
  int n;
};

static int setup(PerDevice *pd, int ngpus, size_t count) {
  int d;
  for (d = 0; d < ngpus; ++d) {
    cudaSetDevice(d);
    if (cudaStreamCreateWithFlags(&pd->streams[d], cudaStreamNonBlocking) != cudaSuccess) goto unwind;
    if (cudaEventCreateWithFlags(&pd->done[d], cudaEventDisableTiming) != cudaSuccess) {
      cudaStreamDestroy(pd->streams[d]);
      goto unwind;
    }
    if (cudaMalloc(&pd->buf[d], count * sizeof(float)) != cudaSuccess) {
      cudaEventDestroy(pd->done[d]);
      cudaStreamDestroy(pd->streams[d]);
      goto unwind;
    }
    if (cudaMallocHost(&pd->host[d], count * sizeof(float)) != cudaSuccess) {
      cudaFree(pd->buf[d]);
      cudaEventDestroy(pd->done[d]);
      cudaStreamDestroy(pd->streams[d]);
      goto unwind;
    }
  }
  pd->n = ngpus;
  return 0;
unwind:
  while (--d >= 0) {
    cudaSetDevice(d);
    cudaFreeHost(pd->host[d]);
    cudaFree(pd->buf[d]);
    cudaEventDestroy(pd->done[d]);
    cudaStreamDestroy(pd->streams[d]);
  }
  pd->n = 0;
  return -1;
}

static void teardown(PerDevice *pd) {
  for (int d = 0; d < pd->n; ++d) {
    cudaSetDevice(d);
    cudaStreamSynchronize(pd->streams[d]);
    cudaFreeHost(pd->host[d]);
    cudaFree(pd->buf[d]);
    cudaEventDestroy(pd->done[d]);
    cudaStreamDestroy(pd->streams[d]);
  }
  pd->n = 0;
}

static int run(PerDevice *pd, size_t count) {
  for (int d = 0; d < pd->n; ++d) {
    cudaSetDevice(d);
    fill<<<(unsigned)((count + 255) / 256), 256, 0, pd->streams[d]>>>(pd->buf[d], (float)d, count);
    cudaMemcpyAsync(pd->host[d], pd->buf[d], count * sizeof(float), cudaMemcpyDeviceToHost, pd->streams[d]);
    cudaEventRecord(pd->done[d], pd->streams[d]);
  }
  for (int d = 0; d < pd->n; ++d) {
    cudaSetDevice(d);
    if (cudaEventSynchronize(pd->done[d]) != cudaSuccess) return -1;
  }
  float total = 0;
  for (int d = 0; d < pd->n; ++d) total += pd->host[d][0];
  std::printf("%f\n", total);
  return 0;
}

// Local arrays version used by the benchmark driver.
static int bench(int ngpus) {
  cudaStream_t s[MAX_GPUS];
  cudaEvent_t start[MAX_GPUS], stop[MAX_GPUS];
  if (ngpus > MAX_GPUS) ngpus = MAX_GPUS;
  for (int i = 0; i < ngpus; ++i) {
    cudaSetDevice(i);
    cudaStreamCreate(&s[i]);
    cudaEventCreate(&start[i]);
    cudaEventCreate(&stop[i]);
  }
  for (int i = 0; i < ngpus; ++i) {
    cudaSetDevice(i);
    cudaEventRecord(start[i], s[i]);
    cudaEventRecord(stop[i], s[i]);
  }
  float worst = 0;
  for (int i = 0; i < ngpus; ++i) {
    float ms;
    cudaSetDevice(i);
    cudaEventSynchronize(stop[i]);
    cudaEventElapsedTime(&ms, start[i], stop[i]);
    if (ms > worst) worst = ms;
  }
  for (int i = 0; i < ngpus; ++i) {
    cudaSetDevice(i);
    cudaEventDestroy(stop[i]);
    cudaEventDestroy(start[i]);
    cudaStreamDestroy(s[i]);
  }
  return worst > 1e9f;
}

int main() {
  int ngpus = 0;
  if (cudaGetDeviceCount(&ngpus) != cudaSuccess || ngpus == 0) return 1;
  if (ngpus > MAX_GPUS) ngpus = MAX_GPUS;
  PerDevice pd;
  if (setup(&pd, ngpus, 1 << 20) != 0) return 1;
  int rc = run(&pd, 1 << 20);
  teardown(&pd);
  return rc | bench(ngpus);
}
