// Shared stream/event handles (shared_ptr with lambda deleters) passed to
// several workers; last owner destroys. weak_ptr observers do not own.
#include <cuda_runtime.h>
#include <cstdio>
#include <memory>
#include <type_traits>
#include <vector>

using SharedStream = std::shared_ptr<std::remove_pointer_t<cudaStream_t>>;
using SharedEvent = std::shared_ptr<std::remove_pointer_t<cudaEvent_t>>;

static SharedStream new_stream() {
  cudaStream_t s = nullptr;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return {};
  return SharedStream(s, [](cudaStream_t p) {
    cudaStreamSynchronize(p);
    cudaStreamDestroy(p);
  });
}

static SharedEvent new_event() {
  cudaEvent_t e = nullptr;
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) return nullptr;
  return SharedEvent(e, cudaEventDestroy);
}

__global__ void work(float *p, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}

struct Worker {
  SharedStream stream;
  SharedEvent done;
  std::shared_ptr<float> buf;
  int n;
  void step(float v) {
    work<<<(n + 255) / 256, 256, 0, stream.get()>>>(buf.get(), n, v);
    cudaEventRecord(done.get(), stream.get());
  }
};

static std::shared_ptr<float> device_floats(int n) {
  float *p = nullptr;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess) return nullptr;
  std::shared_ptr<float> sp(p, [](float *q) { cudaFree(q); });
  cudaMemset(sp.get(), 0, n * sizeof(float));
  return sp;
}

int main() {
  const int n = 8192;
  SharedStream shared = new_stream();
  if (!shared) return 1;
  std::weak_ptr<std::remove_pointer_t<cudaStream_t>> observer = shared;
  std::vector<Worker> workers;
  for (int w = 0; w < 3; ++w) {
    auto ev = new_event();
    auto buf = device_floats(n);
    if (!ev || !buf) break;
    workers.push_back(Worker{w == 2 ? new_stream() : shared, ev, buf, n});
  }
  shared.reset();  // workers keep it alive
  for (int it = 0; it < 5; ++it)
    for (auto &w : workers)
      if (w.stream) w.step(1.f);
  for (auto &w : workers) cudaEventSynchronize(w.done.get());
  std::printf("shared stream alive: %d\n", !observer.expired());
  workers.clear();
  std::printf("after clear: %d\n", !observer.expired());
  return 0;
}
