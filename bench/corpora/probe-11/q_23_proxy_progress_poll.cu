// NCCL-proxy-style progress loop: staging buffers are allocated stream-ordered
// on the proxy's copy stream; the proxy polls (cudaEventQuery / cudaStreamQuery)
// instead of blocking, and only hands a buffer to the network stream once the
// poll reports completion.
#include <cuda_runtime.h>
#include <sched.h>
#include <cstdio>

__global__ void pack(float *dst, const float *src, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i * stride];
}
__global__ void reduce_inplace(float *buf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buf[i] *= 2.f;
}

struct Proxy {
  cudaStream_t copy_stream;
  cudaStream_t net_stream;
  cudaEvent_t staged;
  cudaEvent_t sent;
};

static bool proxy_init(Proxy *p) {
  if (cudaStreamCreateWithFlags(&p->copy_stream, cudaStreamNonBlocking) != cudaSuccess) return false;
  if (cudaStreamCreateWithFlags(&p->net_stream, cudaStreamNonBlocking) != cudaSuccess) {
    cudaStreamDestroy(p->copy_stream);
    return false;
  }
  if (cudaEventCreateWithFlags(&p->staged, cudaEventDisableTiming) != cudaSuccess) {
    cudaStreamDestroy(p->net_stream);
    cudaStreamDestroy(p->copy_stream);
    return false;
  }
  if (cudaEventCreateWithFlags(&p->sent, cudaEventDisableTiming) != cudaSuccess) {
    cudaEventDestroy(p->staged);
    cudaStreamDestroy(p->net_stream);
    cudaStreamDestroy(p->copy_stream);
    return false;
  }
  return true;
}

static void proxy_fini(Proxy *p) {
  cudaEventDestroy(p->sent);
  cudaEventDestroy(p->staged);
  cudaStreamDestroy(p->net_stream);
  cudaStreamDestroy(p->copy_stream);
}

// One step: stage `src` into a fresh buffer on the copy stream, spin until the
// copy stream has drained, then let the network stream consume the buffer.
static int proxy_step(Proxy *p, const float *src, int n, int stride) {
  float *stage = nullptr;
  if (cudaMallocAsync(&stage, n * sizeof(float), p->copy_stream) != cudaSuccess) return 1;
  pack<<<(n + 255) / 256, 256, 0, p->copy_stream>>>(stage, src, n, stride);
  cudaEventRecord(p->staged, p->copy_stream);

  cudaError_t q;
  while ((q = cudaEventQuery(p->staged)) == cudaErrorNotReady) sched_yield();
  if (q != cudaSuccess) {
    cudaFreeAsync(stage, p->copy_stream);
    return 1;
  }
  // The event completed: the allocation and the pack are done.
  reduce_inplace<<<(n + 255) / 256, 256, 0, p->net_stream>>>(stage, n);
  cudaEventRecord(p->sent, p->net_stream);
  cudaStreamWaitEvent(p->copy_stream, p->sent, 0);
  cudaFreeAsync(stage, p->copy_stream);
  return 0;
}

// Variant that polls the stream itself.
static int proxy_drain_then_send(Proxy *p, int n) {
  float *tmp = nullptr;
  if (cudaMallocAsync(&tmp, n * sizeof(float), p->copy_stream) != cudaSuccess) return 1;
  cudaMemsetAsync(tmp, 0, n * sizeof(float), p->copy_stream);
  for (;;) {
    cudaError_t st = cudaStreamQuery(p->copy_stream);
    if (st == cudaSuccess) break;
    if (st != cudaErrorNotReady) {
      cudaFreeAsync(tmp, p->copy_stream);
      return 1;
    }
    sched_yield();
  }
  reduce_inplace<<<(n + 255) / 256, 256, 0, p->net_stream>>>(tmp, n);
  cudaStreamSynchronize(p->net_stream);
  cudaFreeAsync(tmp, p->copy_stream);
  return 0;
}

int main() {
  Proxy p;
  if (!proxy_init(&p)) return 1;
  float *src = nullptr;
  int rc = 1;
  if (cudaMalloc(&src, 4096 * sizeof(float)) == cudaSuccess) {
    cudaMemset(src, 0, 4096 * sizeof(float));
    rc = proxy_step(&p, src, 1024, 4);
    rc |= proxy_drain_then_send(&p, 1024);
    cudaStreamSynchronize(p.copy_stream);
    cudaFree(src);
  }
  proxy_fini(&p);
  return rc;
}
