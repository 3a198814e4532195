#define BUGGY
// PLANTED: cudagraph-stream-order line 73
// Layer-wise weight offloading (ZeRO-Inference style): while layer i computes on
// the compute stream, layer i+1's weights are fetched on a copy stream into a
// buffer taken from the stream-ordered allocator.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

#define OFFLOAD_CHECK(x)                                                       \
  do {                                                                         \
    cudaError_t st_ = (x);                                                     \
    if (st_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "offload %s:%d %s\n", __FILE__, __LINE__,           \
                   cudaGetErrorString(st_));                                   \
      return st_;                                                              \
    }                                                                          \
  } while (0)

struct HostLayer {
  const float *weights;  // pinned host copy
  size_t count;
};

struct Streams {
  cudaStream_t compute;
  cudaStream_t copy;
  cudaEvent_t fetched;
};

__global__ void gemv_layer(const float *w, const float *x, float *y, int dim) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= dim) return;
  float acc = 0.f;
  for (int c = 0; c < dim; ++c) acc += w[(size_t)r * dim + c] * x[c];
  y[r] = acc > 0.f ? acc : 0.f;
}

static cudaError_t create_streams(Streams *s) {
  OFFLOAD_CHECK(cudaStreamCreateWithFlags(&s->compute, cudaStreamNonBlocking));
  if (cudaStreamCreateWithFlags(&s->copy, cudaStreamNonBlocking) != cudaSuccess) {
    cudaStreamDestroy(s->compute);
    return cudaErrorUnknown;
  }
  if (cudaEventCreateWithFlags(&s->fetched, cudaEventDisableTiming) != cudaSuccess) {
    cudaStreamDestroy(s->copy);
    cudaStreamDestroy(s->compute);
    return cudaErrorUnknown;
  }
  return cudaSuccess;
}

static void destroy_streams(Streams *s) {
  cudaEventDestroy(s->fetched);
  cudaStreamDestroy(s->copy);
  cudaStreamDestroy(s->compute);
}

// Runs one layer whose weights are not resident yet.
static cudaError_t run_offloaded_layer(Streams *s, const HostLayer &layer,
                                       const float *x, float *y, int dim) {
  float *w = nullptr;
  OFFLOAD_CHECK(cudaMallocAsync(&w, layer.count * sizeof(float), s->copy));
  cudaError_t st = cudaMemcpyAsync(w, layer.weights, layer.count * sizeof(float),
                                   cudaMemcpyHostToDevice, s->copy);
#ifndef BUGGY
  if (st == cudaSuccess) st = cudaEventRecord(s->fetched, s->copy);
  if (st == cudaSuccess) st = cudaStreamWaitEvent(s->compute, s->fetched, 0);
#endif
  if (st != cudaSuccess) {
    cudaFreeAsync(w, s->copy);
    return st;
  }
  gemv_layer<<<(dim + 127) / 128, 128, 0, s->compute>>>(w, x, y, dim);  // EXPECT: cudagraph-stream-order
  cudaError_t launch = cudaGetLastError();
  // Free on the compute stream: it is ordered after the gemv that reads w.
  cudaFreeAsync(w, s->compute);  // EXPECT: cudagraph-stream-order
  return launch;
}

cudaError_t forward_offloaded(const std::vector<HostLayer> &layers, float *act0,
                              float *act1, int dim) {
  Streams s;
  OFFLOAD_CHECK(create_streams(&s));
  float *x = act0, *y = act1;
  cudaError_t st = cudaSuccess;
  for (const HostLayer &l : layers) {
    st = run_offloaded_layer(&s, l, x, y, dim);
    if (st != cudaSuccess) break;
    float *t = x; x = y; y = t;
  }
  if (st == cudaSuccess) st = cudaStreamSynchronize(s.compute);
  destroy_streams(&s);
  return st;
}
