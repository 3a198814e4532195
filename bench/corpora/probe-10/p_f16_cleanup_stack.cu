// Benchmark harness with a std::function cleanup stack: every acquisition
// pushes its release; the stack is unwound in reverse on every exit.
#include <cuda_runtime.h>
#include <cstdio>
#include <functional>
#include <vector>

class CleanupStack {
 public:
  ~CleanupStack() { unwind(); }
  void push(std::function<void()> f) { fns_.push_back(std::move(f)); }
  void unwind() {
    while (!fns_.empty()) {
      fns_.back()();
      fns_.pop_back();
    }
  }

 private:
  std::vector<std::function<void()>> fns_;
};

__global__ void gemv(const float *A, const float *x, float *y, int m, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) {
    float acc = 0.f;
    for (int c = 0; c < n; ++c) acc += A[r * n + c] * x[c];
    y[r] = acc;
  }
}

static int bench(int m, int n, int iters) {
  CleanupStack cleanup;
  cudaStream_t s;
  if (cudaStreamCreate(&s) != cudaSuccess) return 1;
  cleanup.push([s] { cudaStreamDestroy(s); });

  cudaEvent_t t0, t1;
  if (cudaEventCreate(&t0) != cudaSuccess) return 1;
  cleanup.push([t0] { cudaEventDestroy(t0); });
  if (cudaEventCreate(&t1) != cudaSuccess) return 1;
  cleanup.push([t1] { cudaEventDestroy(t1); });

  float *A, *x, *y;
  if (cudaMalloc(&A, sizeof(float) * m * n) != cudaSuccess) return 1;
  cleanup.push([A] { cudaFree(A); });
  if (cudaMalloc(&x, sizeof(float) * n) != cudaSuccess) return 1;
  cleanup.push([x] { cudaFree(x); });
  if (cudaMalloc(&y, sizeof(float) * m) != cudaSuccess) return 1;
  cleanup.push([y] { cudaFree(y); });

  cudaMemsetAsync(A, 0, sizeof(float) * m * n, s);
  cudaMemsetAsync(x, 0, sizeof(float) * n, s);
  cudaEventRecord(t0, s);
  for (int i = 0; i < iters; ++i) gemv<<<(m + 127) / 128, 128, 0, s>>>(A, x, y, m, n);
  cudaEventRecord(t1, s);
  if (cudaEventSynchronize(t1) != cudaSuccess) return 2;
  float ms = 0.f;
  cudaEventElapsedTime(&ms, t0, t1);
  std::printf("%dx%d: %.3f us/iter\n", m, n, 1000.f * ms / iters);
  return 0;
}

int main() {
  int failures = 0;
  for (int m : {256, 1024, 4096}) failures += bench(m, 1024, 50) != 0;
  return failures ? 1 : 0;
}
