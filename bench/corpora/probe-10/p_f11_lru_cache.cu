// Graph cache keyed by (batch, seq) shape with LRU eviction that destroys
// the evicted exec, as in a CUDA-graph-enabled serving engine.
#include <cuda_runtime.h>
#include <cstdio>
#include <list>
#include <unordered_map>
#include <utility>

__global__ void attn(float *o, const float *q, int b, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b * s) o[i] = q[i] * 2.f;
}

struct ShapeKey {
  int batch, seq;
  bool operator==(const ShapeKey &o) const { return batch == o.batch && seq == o.seq; }
};
struct ShapeHash {
  size_t operator()(const ShapeKey &k) const { return (size_t)k.batch * 131071u + k.seq; }
};

class GraphLRU {
 public:
  explicit GraphLRU(size_t cap) : cap_(cap) {}
  ~GraphLRU() {
    for (auto &entry : order_) cudaGraphExecDestroy(entry.second);
    order_.clear();
    index_.clear();
  }
  GraphLRU(const GraphLRU &) = delete;
  GraphLRU &operator=(const GraphLRU &) = delete;

  cudaGraphExec_t find(const ShapeKey &k) {
    auto it = index_.find(k);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
  }

  void insert(const ShapeKey &k, cudaGraphExec_t e) {
    if (order_.size() >= cap_) {
      auto &victim = order_.back();
      cudaGraphExecDestroy(victim.second);
      index_.erase(victim.first);
      order_.pop_back();
    }
    order_.emplace_front(k, e);
    index_[k] = order_.begin();
  }

 private:
  using Node = std::pair<ShapeKey, cudaGraphExec_t>;
  size_t cap_;
  std::list<Node> order_;
  std::unordered_map<ShapeKey, std::list<Node>::iterator, ShapeHash> index_;
};

static cudaGraphExec_t build(cudaStream_t s, float *o, const float *q, int b, int sl) {
  cudaGraph_t g;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess) return nullptr;
  attn<<<(b * sl + 127) / 128, 128, 0, s>>>(o, q, b, sl);
  if (cudaStreamEndCapture(s, &g) != cudaSuccess) return nullptr;
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess) e = nullptr;
  cudaGraphDestroy(g);
  return e;
}

int main() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float *o, *q;
  const size_t cap_elems = 64 * 2048;
  cudaMalloc(&o, cap_elems * sizeof(float));
  cudaMalloc(&q, cap_elems * sizeof(float));
  cudaMemset(q, 0, cap_elems * sizeof(float));
  {
    GraphLRU cache(4);
    const int shapes[][2] = {{1, 128}, {2, 256}, {4, 512}, {8, 1024}, {1, 128}, {16, 2048}, {2, 256}};
    for (auto &sh : shapes) {
      ShapeKey k{sh[0], sh[1]};
      cudaGraphExec_t e = cache.find(k);
      if (!e) {
        e = build(s, o, q, k.batch, k.seq);
        if (!e) continue;
        cache.insert(k, e);
      }
      cudaGraphLaunch(e, s);
    }
    cudaStreamSynchronize(s);
  }
  cudaFree(q);
  cudaFree(o);
  cudaStreamDestroy(s);
  std::puts("ok");
  return 0;
}
