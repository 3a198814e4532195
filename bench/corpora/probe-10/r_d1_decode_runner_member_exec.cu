// PLANTED: cudagraph-unpaired-instantiate line 68
// A runner that captures one decode step into a graph and replays it. The graph is
// rebuilt when the batch size changes; the old exec is dropped before re-capture.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(call)                                                           \
  do {                                                                             \
    cudaError_t err = (call);                                                      \
    if (err != cudaSuccess) {                                                      \
      fprintf(stderr, "CUDA %s failed at %s:%d: %s\n", #call, __FILE__, __LINE__, \
              cudaGetErrorString(err));                                            \
      std::abort();                                                                \
    }                                                                              \
  } while (0)

__global__ void rope_kernel(float* q, float* k, const float* cos_sin, int tokens, int dim) {
  int t = blockIdx.x, d = threadIdx.x;
  if (t < tokens && d < dim / 2) {
    float c = cos_sin[d], s = cos_sin[d + dim / 2];
    float q0 = q[t * dim + d], q1 = q[t * dim + d + dim / 2];
    q[t * dim + d] = q0 * c - q1 * s;
    q[t * dim + d + dim / 2] = q0 * s + q1 * c;
    k[t * dim + d] *= c;
  }
}

class DecodeRunner {
 public:
  DecodeRunner(float* q, float* k, const float* cos_sin, int dim)
      : q_(q), k_(k), cos_sin_(cos_sin), dim_(dim) {
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }

  ~DecodeRunner() {
#ifndef BUGGY
    reset();
#endif
    cudaStreamDestroy(stream_);
  }

  DecodeRunner(const DecodeRunner&) = delete;
  DecodeRunner& operator=(const DecodeRunner&) = delete;

  void step(int batch) {
    if (exec_ == nullptr || batch != captured_batch_) recapture(batch);
    CHECK_CUDA(cudaGraphLaunch(exec_, stream_));
  }

  void sync() { CHECK_CUDA(cudaStreamSynchronize(stream_)); }

 private:
  void reset() {
    if (exec_) {
      cudaGraphExecDestroy(exec_);
      exec_ = nullptr;
    }
    captured_batch_ = -1;
  }

  void recapture(int batch) {
    reset();
    cudaGraph_t graph;
    CHECK_CUDA(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    rope_kernel<<<batch, dim_ / 2, 0, stream_>>>(q_, k_, cos_sin_, batch, dim_);
    CHECK_CUDA(cudaStreamEndCapture(stream_, &graph));
    CHECK_CUDA(cudaGraphInstantiate(&exec_, graph, 0));
    CHECK_CUDA(cudaGraphDestroy(graph));
    captured_batch_ = batch;
  }

  float* q_;
  float* k_;
  const float* cos_sin_;
  int dim_;
  cudaStream_t stream_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  int captured_batch_ = -1;
};

void decode_loop(float* q, float* k, const float* cs, int dim, const int* batches, int steps) {
  DecodeRunner runner(q, k, cs, dim);
  for (int i = 0; i < steps; ++i) runner.step(batches[i]);
  runner.sync();
}
