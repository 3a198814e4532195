// Runtime init with do/while(0) error macros and early returns after
// partial initialisation, unwinding exactly what was created.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK_RET(call)                                                    \
  do {                                                                     \
    cudaError_t e_ = (call);                                               \
    if (e_ != cudaSuccess) {                                               \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,               \
                   cudaGetErrorString(e_));                                \
      return e_;                                                           \
    }                                                                      \
  } while (0)

#define CHECK_OR(call, action)                                             \
  do {                                                                     \
    cudaError_t e_ = (call);                                               \
    if (e_ != cudaSuccess) {                                               \
      action;                                                              \
      return e_;                                                           \
    }                                                                      \
  } while (0)

__global__ void fill(int *p, int v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = v;
}

struct Engine {
  cudaStream_t compute = nullptr;
  cudaStream_t copy = nullptr;
  cudaEvent_t copy_done = nullptr;
  int *dev = nullptr;
  int *pinned = nullptr;
  int n = 0;
};

static cudaError_t engine_create(Engine *e, int n) {
  e->n = n;
  CHECK_RET(cudaStreamCreateWithFlags(&e->compute, cudaStreamNonBlocking));
  CHECK_OR(cudaStreamCreateWithFlags(&e->copy, cudaStreamNonBlocking),
           cudaStreamDestroy(e->compute));
  CHECK_OR(cudaEventCreateWithFlags(&e->copy_done, cudaEventDisableTiming),
           { cudaStreamDestroy(e->copy); cudaStreamDestroy(e->compute); });
  CHECK_OR(cudaMalloc(&e->dev, n * sizeof(int)), {
    cudaEventDestroy(e->copy_done);
    cudaStreamDestroy(e->copy);
    cudaStreamDestroy(e->compute);
  });
  CHECK_OR(cudaHostAlloc(&e->pinned, n * sizeof(int), cudaHostAllocDefault), {
    cudaFree(e->dev);
    cudaEventDestroy(e->copy_done);
    cudaStreamDestroy(e->copy);
    cudaStreamDestroy(e->compute);
  });
  return cudaSuccess;
}

static void engine_destroy(Engine *e) {
  cudaFreeHost(e->pinned);
  cudaFree(e->dev);
  cudaEventDestroy(e->copy_done);
  cudaStreamDestroy(e->copy);
  cudaStreamDestroy(e->compute);
}

static cudaError_t engine_step(Engine *e, int v) {
  fill<<<64, 256, 0, e->compute>>>(e->dev, v, e->n);
  CHECK_RET(cudaGetLastError());
  CHECK_RET(cudaEventRecord(e->copy_done, e->compute));
  CHECK_RET(cudaStreamWaitEvent(e->copy, e->copy_done, 0));
  CHECK_RET(cudaMemcpyAsync(e->pinned, e->dev, e->n * sizeof(int), cudaMemcpyDeviceToHost, e->copy));
  CHECK_RET(cudaStreamSynchronize(e->copy));
  return cudaSuccess;
}

int main() {
  Engine e;
  if (engine_create(&e, 1 << 12) != cudaSuccess) return EXIT_FAILURE;
  cudaError_t st = cudaSuccess;
  for (int v = 1; v <= 4 && st == cudaSuccess; ++v) st = engine_step(&e, v);
  if (st == cudaSuccess) std::printf("last %d\n", e.pinned[e.n - 1]);
  engine_destroy(&e);
  return st == cudaSuccess ? EXIT_SUCCESS : EXIT_FAILURE;
}
