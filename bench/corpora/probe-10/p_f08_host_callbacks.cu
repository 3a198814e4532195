// Serving engine: per-request host staging freed by a host callback once the
// stream has consumed it; device scratch freed in stream order (cudaFreeAsync).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

__global__ void detok(const int *ids, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<float>(ids[i]) * 0.5f;
}

struct Staging {
  int *host_ids;
  int n;
};

static void CUDART_CB free_staging(void *user) {
  Staging *st = static_cast<Staging *>(user);
  std::free(st->host_ids);
  delete st;
}

struct Pending {
  std::mutex mu;
  std::vector<void *> ptrs;
};
static Pending g_pending;

static void CUDART_CB mark_done(cudaStream_t, cudaError_t status, void *user) {
  // Cannot call CUDA here; hand the pointer to the deferred-free list
  // (whatever the status: the buffer must be freed either way).
  if (status != cudaSuccess) std::fprintf(stderr, "stream error %d\n", (int)status);
  std::lock_guard<std::mutex> lk(g_pending.mu);
  g_pending.ptrs.push_back(user);
}

static void drain_pending() {
  std::vector<void *> todo;
  {
    std::lock_guard<std::mutex> lk(g_pending.mu);
    todo.swap(g_pending.ptrs);
  }
  for (void *p : todo) cudaFree(p);
}

static int submit(cudaStream_t s, const int *ids, int n, float *out_host) {
  Staging *st = new Staging{static_cast<int *>(std::malloc(n * sizeof(int))), n};
  if (!st->host_ids) {
    delete st;
    return -1;
  }
  std::memcpy(st->host_ids, ids, n * sizeof(int));
  int *d_ids = nullptr;
  float *d_out = nullptr;
  if (cudaMallocAsync(&d_ids, n * sizeof(int), s) != cudaSuccess) {
    std::free(st->host_ids);
    delete st;
    return -1;
  }
  cudaMemcpyAsync(d_ids, st->host_ids, n * sizeof(int), cudaMemcpyHostToDevice, s);
  cudaLaunchHostFunc(s, free_staging, st);  // st owned by the callback now
  if (cudaMalloc(&d_out, n * sizeof(float)) != cudaSuccess) {
    cudaFreeAsync(d_ids, s);
    return -1;
  }
  detok<<<(n + 127) / 128, 128, 0, s>>>(d_ids, d_out, n);
  cudaFreeAsync(d_ids, s);
  cudaMemcpyAsync(out_host, d_out, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamAddCallback(s, mark_done, d_out, 0);  // freed later by drain_pending
  return 0;
}

int main() {
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return 1;
  float *out = nullptr;
  if (cudaMallocHost(&out, 256 * sizeof(float)) != cudaSuccess) {
    cudaStreamDestroy(s);
    return 1;
  }
  std::vector<int> ids(256);
  for (int i = 0; i < 256; ++i) ids[i] = i;
  for (int r = 0; r < 4; ++r) submit(s, ids.data(), 256, out);
  cudaStreamSynchronize(s);
  drain_pending();
  std::printf("out[3]=%f\n", out[3]);
  cudaFreeHost(out);
  cudaStreamDestroy(s);
  return 0;
}
