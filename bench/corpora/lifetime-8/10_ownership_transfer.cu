// Resource factories for an inference runtime: every acquisition is handed to a
// struct, returned, stored in a container, or released by a helper of this file.
// Correct.
#include <cuda_runtime.h>
#include <map>
#include <string>
#include <vector>

struct Workspace {
  void *d_buf = nullptr;
  void *h_pinned = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t ready = nullptr;
  size_t bytes = 0;
};

static void workspace_release(Workspace *ws) {
  if (ws->ready) cudaEventDestroy(ws->ready);
  if (ws->stream) cudaStreamDestroy(ws->stream);
  if (ws->h_pinned) cudaFreeHost(ws->h_pinned);
  if (ws->d_buf) cudaFree(ws->d_buf);
  *ws = Workspace{};
}

cudaError_t workspace_init(Workspace *ws, size_t bytes) {
  cudaError_t st = cudaMalloc(&ws->d_buf, bytes);
  if (st != cudaSuccess) return st;
  st = cudaMallocHost(&ws->h_pinned, bytes);
  if (st != cudaSuccess) { workspace_release(ws); return st; }
  st = cudaStreamCreateWithFlags(&ws->stream, cudaStreamNonBlocking);
  if (st != cudaSuccess) { workspace_release(ws); return st; }
  st = cudaEventCreateWithFlags(&ws->ready, cudaEventDisableTiming);
  if (st != cudaSuccess) { workspace_release(ws); return st; }
  ws->bytes = bytes;
  return cudaSuccess;
}

cudaStream_t make_priority_stream(int prio) {
  cudaStream_t s = nullptr;
  if (cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, prio) != cudaSuccess)
    return nullptr;
  return s;
}

class BufferRegistry {
 public:
  ~BufferRegistry() {
    for (auto &kv : bufs_) cudaFree(kv.second);
  }
  void *get(const std::string &name, size_t bytes) {
    auto it = bufs_.find(name);
    if (it != bufs_.end()) return it->second;
    void *p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess) return nullptr;
    bufs_[name] = p;
    return p;
  }
 private:
  std::map<std::string, void *> bufs_;
};

std::vector<cudaEvent_t> make_events(int n) {
  std::vector<cudaEvent_t> evs;
  for (int i = 0; i < n; ++i) {
    cudaEvent_t e;
    if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) break;
    evs.push_back(e);
  }
  return evs;
}

void destroy_events(std::vector<cudaEvent_t> &evs) {
  for (cudaEvent_t e : evs) cudaEventDestroy(e);
  evs.clear();
}

cudaError_t alloc_pair(float **a, float **b, size_t n) {
  cudaError_t st = cudaMalloc(a, n * sizeof(float));
  if (st != cudaSuccess) return st;
  st = cudaMalloc(b, n * sizeof(float));
  if (st != cudaSuccess) {
    cudaFree(*a);
    *a = nullptr;
  }
  return st;
}
