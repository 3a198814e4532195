// LLM serving: paged KV-cache block pool (one big cudaMalloc carved into
// blocks) plus per-batch-size decode graphs in std::map<int, cudaGraphExec_t>.
#include <cuda_runtime.h>
#include <cstdio>
#include <map>
#include <vector>

__global__ void paged_attn(float *out, const float *kv, const int *table, int nblk, int bs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < bs) out[i] = kv[table[i % nblk] * 16];
}

class BlockPool {
 public:
  BlockPool(int num_blocks, size_t block_bytes) : block_bytes_(block_bytes) {
    if (cudaMalloc(&base_, num_blocks * block_bytes) == cudaSuccess)
      for (int b = num_blocks - 1; b >= 0; --b) free_.push_back(b);
  }
  ~BlockPool() { cudaFree(base_); }
  BlockPool(const BlockPool &) = delete;
  BlockPool &operator=(const BlockPool &) = delete;
  int take() {
    if (free_.empty()) return -1;
    int b = free_.back();
    free_.pop_back();
    return b;
  }
  void give(int b) { free_.push_back(b); }
  float *base() const { return static_cast<float *>(base_); }

 private:
  void *base_ = nullptr;
  size_t block_bytes_;
  std::vector<int> free_;
};

class DecodeGraphs {
 public:
  ~DecodeGraphs() {
    for (auto &kv : execs_) cudaGraphExecDestroy(kv.second);
  }
  cudaGraphExec_t get(int bs) const {
    auto it = execs_.find(bs);
    return it == execs_.end() ? nullptr : it->second;
  }
  bool capture(int bs, cudaStream_t s, float *out, const float *kv, const int *table, int nblk) {
    cudaGraph_t g;
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess) return false;
    paged_attn<<<(bs + 63) / 64, 64, 0, s>>>(out, kv, table, nblk, bs);
    if (cudaStreamEndCapture(s, &g) != cudaSuccess) return false;
    cudaGraphExec_t e;
    cudaError_t st = cudaGraphInstantiate(&e, g, 0);
    cudaGraphDestroy(g);
    if (st != cudaSuccess) return false;
    auto it = execs_.find(bs);
    if (it != execs_.end()) {
      cudaGraphExecDestroy(it->second);
      it->second = e;
    } else {
      execs_.emplace(bs, e);
    }
    return true;
  }

 private:
  std::map<int, cudaGraphExec_t> execs_;
};

int main() {
  const int nblk = 256;
  BlockPool pool(nblk, 16 * sizeof(float));
  if (!pool.base()) return 1;
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return 1;
  int *table = nullptr;
  float *out = nullptr;
  std::vector<int> host_table;
  for (int i = 0; i < 32; ++i) host_table.push_back(pool.take());
  cudaMalloc(&table, host_table.size() * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMemcpy(table, host_table.data(), host_table.size() * sizeof(int), cudaMemcpyHostToDevice);
  {
    DecodeGraphs graphs;
    for (int bs : {1, 2, 4, 8, 16, 32, 64})
      if (!graphs.capture(bs, s, out, pool.base(), table, 32)) std::fprintf(stderr, "capture %d failed\n", bs);
    graphs.capture(8, s, out, pool.base(), table, 32);  // recapture replaces
    for (int step = 0; step < 10; ++step) {
      cudaGraphExec_t e = graphs.get(1 << (step % 7));
      if (e) cudaGraphLaunch(e, s);
    }
    cudaStreamSynchronize(s);
  }
  for (int b : host_table) pool.give(b);
  cudaFree(out);
  cudaFree(table);
  cudaStreamDestroy(s);
  return 0;
}
