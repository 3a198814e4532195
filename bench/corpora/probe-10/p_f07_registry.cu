// Allocation registry as used by a Python extension's CUDA backend: buffers are
// registered in a global table on allocation and released at shutdown.
#include <cuda_runtime.h>
#include <cstdio>
#include <mutex>
#include <unordered_map>

namespace reg {
struct Entry {
  size_t bytes;
  bool pinned;
};
static std::mutex g_mu;
static std::unordered_map<void *, Entry> g_live;

static void *alloc_device(size_t bytes) {
  void *p = nullptr;
  if (cudaMalloc(&p, bytes) != cudaSuccess) return nullptr;
  std::lock_guard<std::mutex> lk(g_mu);
  g_live.emplace(p, Entry{bytes, false});
  return p;
}

static void *alloc_pinned(size_t bytes) {
  void *p = nullptr;
  if (cudaMallocHost(&p, bytes) != cudaSuccess) return nullptr;
  std::lock_guard<std::mutex> lk(g_mu);
  g_live[p] = Entry{bytes, true};
  return p;
}

static bool release(void *p) {
  Entry e;
  {
    std::lock_guard<std::mutex> lk(g_mu);
    auto it = g_live.find(p);
    if (it == g_live.end()) return false;
    e = it->second;
    g_live.erase(it);
  }
  if (e.pinned)
    cudaFreeHost(p);
  else
    cudaFree(p);
  return true;
}

static size_t shutdown() {
  std::lock_guard<std::mutex> lk(g_mu);
  size_t n = 0;
  for (auto &kv : g_live) {
    if (kv.second.pinned)
      cudaFreeHost(kv.first);
    else
      cudaFree(kv.first);
    ++n;
  }
  g_live.clear();
  return n;
}
}  // namespace reg

__global__ void iota(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}

int main() {
  const int n = 1000;
  int *d = static_cast<int *>(reg::alloc_device(n * sizeof(int)));
  int *h = static_cast<int *>(reg::alloc_pinned(n * sizeof(int)));
  if (!d || !h) {
    reg::shutdown();
    return 1;
  }
  iota<<<(n + 127) / 128, 128>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("h[999]=%d\n", h[999]);
  reg::release(d);
  // Scratch buffers kept until shutdown.
  for (int i = 0; i < 4; ++i) {
    void *scratch = reg::alloc_device(1 << (10 + i));
    if (!scratch) break;
    cudaMemset(scratch, 0, 1 << (10 + i));
  }
  std::printf("released %zu at shutdown\n", reg::shutdown());
  return 0;
}
