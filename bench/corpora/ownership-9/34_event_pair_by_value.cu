// Timing helpers of a benchmark harness. EventPair owns two events and keeps
// the implicit copy constructor; measure() takes it by value, so the copy's
// destructor destroys both events and the caller's destructor destroys them
// again. TimerPair deletes copy and is passed by reference.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void busy(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 1.0001f;
}

struct EventPair {
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  EventPair() {
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
  }
  ~EventPair() {
    cudaEventDestroy(start); // EXPECT: cudagraph-use-after-dealloc
    cudaEventDestroy(stop); // EXPECT: cudagraph-use-after-dealloc
  }
};

static float measure(EventPair ev, cudaStream_t s, float *x, int n, int reps) {
  cudaEventRecord(ev.start, s);
  for (int r = 0; r < reps; ++r) busy<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  cudaEventRecord(ev.stop, s);
  cudaEventSynchronize(ev.stop);
  float ms = 0.f;
  cudaEventElapsedTime(&ms, ev.start, ev.stop);
  return ms / reps;
}

void bench(cudaStream_t s, float *x, int n) {
  EventPair ev;
  for (int reps = 1; reps <= 64; reps *= 4) std::printf("%d reps: %.4f ms\n", reps, measure(ev, s, x, n, reps));
}

struct TimerPair {
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  TimerPair() {
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
  }
  ~TimerPair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  TimerPair(const TimerPair &) = delete;
  TimerPair &operator=(const TimerPair &) = delete;
};

static float measure_ref(const TimerPair &ev, cudaStream_t s, float *x, int n, int reps) {
  cudaEventRecord(ev.start, s);
  for (int r = 0; r < reps; ++r) busy<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  cudaEventRecord(ev.stop, s);
  cudaEventSynchronize(ev.stop);
  float ms = 0.f;
  cudaEventElapsedTime(&ms, ev.start, ev.stop);
  return ms / reps;
}

void bench_fixed(cudaStream_t s, float *x, int n) {
  TimerPair ev;
  for (int reps = 1; reps <= 64; reps *= 4) std::printf("%d reps: %.4f ms\n", reps, measure_ref(ev, s, x, n, reps));
}
