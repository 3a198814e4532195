// Event pool (std::vector<cudaEvent_t>) used for per-layer timing in a
// profiler; events destroyed in a loop in the destructor.
#include <cuda_runtime.h>
#include <cstdio>
#include <string>
#include <vector>

__global__ void layer(float *x, int n, float w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * w + 1.f;
}

class EventPool {
 public:
  EventPool() = default;
  ~EventPool() {
    for (cudaEvent_t e : free_) cudaEventDestroy(e);
    for (cudaEvent_t e : used_) cudaEventDestroy(e);
  }
  EventPool(const EventPool &) = delete;
  EventPool &operator=(const EventPool &) = delete;

  cudaEvent_t acquire() {
    if (!free_.empty()) {
      cudaEvent_t e = free_.back();
      free_.pop_back();
      used_.push_back(e);
      return e;
    }
    cudaEvent_t e = nullptr;
    if (cudaEventCreate(&e) != cudaSuccess) return nullptr;
    used_.push_back(e);
    return e;
  }
  void recycle_all() {
    free_.insert(free_.end(), used_.begin(), used_.end());
    used_.clear();
  }

 private:
  std::vector<cudaEvent_t> free_;
  std::vector<cudaEvent_t> used_;
};

struct Mark {
  std::string name;
  cudaEvent_t begin, end;
};

int main() {
  const int n = 1 << 20, layers = 6;
  float *x = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) return 1;
  cudaStream_t s;
  if (cudaStreamCreate(&s) != cudaSuccess) {
    cudaFree(x);
    return 1;
  }
  {
    EventPool pool;
    for (int step = 0; step < 3; ++step) {
      std::vector<Mark> marks;
      for (int l = 0; l < layers; ++l) {
        Mark m{"layer" + std::to_string(l), pool.acquire(), pool.acquire()};
        if (!m.begin || !m.end) break;
        cudaEventRecord(m.begin, s);
        layer<<<(n + 255) / 256, 256, 0, s>>>(x, n, 0.9f);
        cudaEventRecord(m.end, s);
        marks.push_back(m);
      }
      cudaStreamSynchronize(s);
      for (const Mark &m : marks) {
        float ms = 0.f;
        cudaEventElapsedTime(&ms, m.begin, m.end);
        std::printf("step %d %s %.3f ms\n", step, m.name.c_str(), ms);
      }
      pool.recycle_all();
    }
  }
  cudaStreamDestroy(s);
  cudaFree(x);
  return 0;
}
