// cuBLASLt/CUTLASS-style workspace cache: one workspace per (device, stream),
// grown by free-then-malloc, released at shutdown. Workspace lookups return
// borrowed pointers.
#include <cuda_runtime.h>
#include <unordered_map>
#include <map>
#include <mutex>
#include <utility>
#include <cstdio>

struct PairHash {
  size_t operator()(const std::pair<int, cudaStream_t> &k) const {
    return std::hash<int>()(k.first) ^ (std::hash<void *>()((void *)k.second) << 1);
  }
};

class WorkspaceCache {
 public:
  static WorkspaceCache &instance() {
    static WorkspaceCache c;
    return c;
  }

  // Returns a workspace of at least `bytes` for the current device and stream.
  void *get(cudaStream_t stream, size_t bytes) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return nullptr;
    std::lock_guard<std::mutex> lock(mu_);
    auto key = std::make_pair(dev, stream);
    auto it = map_.find(key);
    if (it != map_.end() && it->second.size >= bytes) return it->second.ptr;
    if (it != map_.end()) {
      // The old workspace may still be in use by work on this stream.
      cudaStreamSynchronize(stream);
      cudaFree(it->second.ptr);
      map_.erase(it);
    }
    void *p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    map_.emplace(key, Entry{p, bytes});
    return p;
  }

  void clear() {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto &kv : map_) {
      int prev = 0;
      cudaGetDevice(&prev);
      cudaSetDevice(kv.first.first);
      cudaFree(kv.second.ptr);
      cudaSetDevice(prev);
    }
    map_.clear();
  }

  ~WorkspaceCache() { clear(); }

 private:
  struct Entry {
    void *ptr;
    size_t size;
  };
  std::mutex mu_;
  std::unordered_map<std::pair<int, cudaStream_t>, Entry, PairHash> map_;
};

// Heuristic cache for algorithm selection: keyed by problem shape.
struct GemmKey {
  int m, n, k;
  bool operator<(const GemmKey &o) const {
    if (m != o.m) return m < o.m;
    if (n != o.n) return n < o.n;
    return k < o.k;
  }
};

static std::map<GemmKey, size_t> g_workspace_req;

static size_t workspace_for(const GemmKey &key) {
  auto it = g_workspace_req.find(key);
  if (it != g_workspace_req.end()) return it->second;
  size_t req = size_t(key.m) * key.n * 4 / 8 + (1 << 20);
  g_workspace_req[key] = req;
  return req;
}

__global__ void gemmSplitK(const float *a, const float *b, float *partial, int m, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m * n) partial[i] = a[i % (m * k)] * b[i % (k * n)];
}

int gemm(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t stream) {
  GemmKey key{m, n, k};
  size_t need = workspace_for(key);
  void *ws = WorkspaceCache::instance().get(stream, need);
  if (!ws) return -1;
  gemmSplitK<<<(m * n + 255) / 256, 256, 0, stream>>>(a, b, static_cast<float *>(ws), m, n, k);
  cudaMemcpyAsync(c, ws, sizeof(float) * m * n, cudaMemcpyDeviceToDevice, stream);
  return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

int main() {
  float *a = nullptr, *b = nullptr, *c = nullptr;
  cudaStream_t s = nullptr;
  int rc = 1;
  if (cudaMalloc(&a, 1 << 20) != cudaSuccess) goto out;
  if (cudaMalloc(&b, 1 << 20) != cudaSuccess) goto out;
  if (cudaMalloc(&c, 1 << 20) != cudaSuccess) goto out;
  if (cudaStreamCreate(&s) != cudaSuccess) goto out;
  rc = gemm(a, b, c, 64, 64, 64, s);
  if (rc == 0) rc = gemm(a, b, c, 128, 128, 64, s);
  cudaStreamSynchronize(s);
out:
  WorkspaceCache::instance().clear();
  if (s) cudaStreamDestroy(s);
  cudaFree(c);
  cudaFree(b);
  cudaFree(a);
  return rc;
}
