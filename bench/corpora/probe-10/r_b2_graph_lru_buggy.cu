#define BUGGY
// PLANTED: cudagraph-unpaired-instantiate line 65
// Bounded LRU of graph execs for prefill chunk sizes: at most `capacity` execs are
// kept alive, the least recently used is evicted when a new size shows up.
#include <cuda_runtime.h>
#include <cstdio>
#include <list>
#include <unordered_map>

#define CHECK_OR_RETURN(x)                                  \
  do {                                                      \
    cudaError_t e = (x);                                    \
    if (e != cudaSuccess) return e;                         \
  } while (0)

__global__ void prefill_chunk(const int* tokens, float* hidden, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) hidden[i] += static_cast<float>(tokens[i]);
}

class GraphLru {
 public:
  GraphLru(size_t capacity, cudaStream_t s) : capacity_(capacity), stream_(s) {}
  ~GraphLru() {
    for (auto& kv : execs_) cudaGraphExecDestroy(kv.second);
  }

  cudaError_t launch(int chunk, const int* tokens, float* hidden) {
    auto it = execs_.find(chunk);
    if (it != execs_.end()) {
      touch(chunk);
      return cudaGraphLaunch(it->second, stream_);
    }
    if (execs_.size() >= capacity_) evict_one();

    cudaGraph_t g;
    CHECK_OR_RETURN(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal));
    prefill_chunk<<<(chunk + 127) / 128, 128, 0, stream_>>>(tokens, hidden, chunk);
    CHECK_OR_RETURN(cudaStreamEndCapture(stream_, &g));
    cudaGraphExec_t exec;
    cudaError_t st = cudaGraphInstantiate(&exec, g, 0);
    cudaGraphDestroy(g);
    if (st != cudaSuccess) return st;
    execs_.emplace(chunk, exec);
    order_.push_front(chunk);
    return cudaGraphLaunch(exec, stream_);
  }

  size_t size() const { return execs_.size(); }

 private:
  void touch(int chunk) {
    order_.remove(chunk);
    order_.push_front(chunk);
  }

  void evict_one() {
    if (order_.empty()) return;
    int victim = order_.back();
    order_.pop_back();
    auto it = execs_.find(victim);
    if (it == execs_.end()) return;
#ifndef BUGGY
    cudaGraphExecDestroy(it->second);
#endif
    execs_.erase(it);  // EXPECT: cudagraph-unpaired-instantiate
    ++evictions_;
  }

  size_t capacity_;
  cudaStream_t stream_;
  size_t evictions_ = 0;
  std::list<int> order_;
  std::unordered_map<int, cudaGraphExec_t> execs_;
};

cudaError_t serve_chunks(const int* chunks, int n, const int* tokens, float* hidden,
                         cudaStream_t s) {
  GraphLru lru(4, s);
  for (int i = 0; i < n; ++i) CHECK_OR_RETURN(lru.launch(chunks[i], tokens, hidden));
  return cudaStreamSynchronize(s);
}
