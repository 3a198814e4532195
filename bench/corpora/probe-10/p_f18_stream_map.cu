// Worker registry: std::unordered_map<int, StreamSet> where each StreamSet
// holds two streams and an event; all destroyed in the owner's destructor.
#include <cuda_runtime.h>
#include <cstdio>
#include <unordered_map>

__global__ void prefill(float *kv, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) kv[i] = 0.f;
}

struct StreamSet {
  cudaStream_t compute = nullptr;
  cudaStream_t h2d = nullptr;
  cudaEvent_t uploaded = nullptr;
};

class WorkerStreams {
 public:
  ~WorkerStreams() {
    for (auto &kv : sets_) {
      StreamSet &ss = kv.second;
      cudaEventDestroy(ss.uploaded);
      cudaStreamDestroy(ss.h2d);
      cudaStreamDestroy(ss.compute);
    }
  }
  StreamSet *get(int worker) {
    auto it = sets_.find(worker);
    if (it != sets_.end()) return &it->second;
    StreamSet ss;
    if (cudaStreamCreateWithFlags(&ss.compute, cudaStreamNonBlocking) != cudaSuccess) return nullptr;
    if (cudaStreamCreateWithFlags(&ss.h2d, cudaStreamNonBlocking) != cudaSuccess) {
      cudaStreamDestroy(ss.compute);
      return nullptr;
    }
    if (cudaEventCreateWithFlags(&ss.uploaded, cudaEventDisableTiming) != cudaSuccess) {
      cudaStreamDestroy(ss.h2d);
      cudaStreamDestroy(ss.compute);
      return nullptr;
    }
    auto res = sets_.emplace(worker, ss);
    return &res.first->second;
  }
  void retire(int worker) {
    auto it = sets_.find(worker);
    if (it == sets_.end()) return;
    cudaStreamSynchronize(it->second.compute);
    cudaEventDestroy(it->second.uploaded);
    cudaStreamDestroy(it->second.h2d);
    cudaStreamDestroy(it->second.compute);
    sets_.erase(it);
  }

 private:
  std::unordered_map<int, StreamSet> sets_;
};

int main() {
  const int n = 1 << 16;
  float *host = nullptr;
  if (cudaMallocHost(&host, n * sizeof(float)) != cudaSuccess) return 1;
  for (int i = 0; i < n; ++i) host[i] = 1.f;
  float *kv[4] = {nullptr, nullptr, nullptr, nullptr};
  int rc = 0;
  {
    WorkerStreams ws;
    for (int w = 0; w < 4; ++w) {
      StreamSet *ss = ws.get(w);
      if (ss == nullptr || cudaMalloc(&kv[w], n * sizeof(float)) != cudaSuccess) {
        rc = 1;
        break;
      }
      cudaMemcpyAsync(kv[w], host, n * sizeof(float), cudaMemcpyHostToDevice, ss->h2d);
      cudaEventRecord(ss->uploaded, ss->h2d);
      cudaStreamWaitEvent(ss->compute, ss->uploaded, 0);
      prefill<<<(n + 255) / 256, 256, 0, ss->compute>>>(kv[w], n);
    }
    for (int w = 0; w < 4; ++w) {
      StreamSet *ss = ws.get(w);
      if (ss) cudaStreamSynchronize(ss->compute);
    }
    ws.retire(2);
  }
  for (float *p : kv) cudaFree(p);
  cudaFreeHost(host);
  std::printf("rc=%d\n", rc);
  return rc;
}
