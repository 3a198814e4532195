// Warm-up capture with stream-ordered allocations (graph allocation nodes)
// and cudaGraphInstantiateFlagAutoFreeOnLaunch, imitating an inference
// engine that records its decode step once and replays it.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(expr)                                                   \
  do {                                                                     \
    cudaError_t err_ = (expr);                                             \
    if (err_ != cudaSuccess) {                                             \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,                    \
              cudaGetErrorString(err_));                                   \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

__global__ void decodeStep(const float *in, float *scratch, float *out, int n) {}

class DecodeRunner {
public:
  explicit DecodeRunner(int n) : n_(n) { CUDA_CHECK(cudaStreamCreate(&stream_)); }
  ~DecodeRunner() {
    if (exec_) cudaGraphExecDestroy(exec_);
    cudaStreamDestroy(stream_);
  }

  // Correct: the exec is stored in a member and destroyed by the destructor.
  void warmup(const float *in, float *out) {
    cudaGraph_t graph = nullptr;
    CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeGlobal));
    float *scratch = nullptr;
    CUDA_CHECK(cudaMallocAsync(&scratch, n_ * sizeof(float), stream_));
    decodeStep<<<(n_ + 255) / 256, 256, 0, stream_>>>(in, scratch, out, n_);
    CUDA_CHECK(cudaFreeAsync(scratch, stream_));
    CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
    CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec_, graph,
                                             cudaGraphInstantiateFlagAutoFreeOnLaunch));
    CUDA_CHECK(cudaGraphDestroy(graph));
  }

  void step() { CUDA_CHECK(cudaGraphLaunch(exec_, stream_)); }

private:
  int n_;
  cudaStream_t stream_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// Buggy: benchmark helper. The scratch allocation is never freed inside the
// capture, so AutoFreeOnLaunch is required; on a failed launch the function
// returns early and the exec is lost.
float benchmarkDecode(const float *in, float *out, int n, int iters) {
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  cudaGraph_t g;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  float *scratch = nullptr;
  CUDA_CHECK(cudaMallocAsync(&scratch, n * sizeof(float), s));
  decodeStep<<<(n + 255) / 256, 256, 0, s>>>(in, scratch, out, n);
  CUDA_CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t exec;
  CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec, g, cudaGraphInstantiateFlagAutoFreeOnLaunch)); // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(g);

  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, s);
  for (int i = 0; i < iters; ++i) {
    if (cudaGraphLaunch(exec, s) != cudaSuccess) {
      cudaStreamDestroy(s);
      return -1.0f;  // exec leaked here
    }
  }
  cudaEventRecord(b, s);
  cudaEventSynchronize(b);
  float ms = 0.f;
  cudaEventElapsedTime(&ms, a, b);
  cudaGraphExecDestroy(exec);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaStreamDestroy(s);
  return ms / iters;
}

// Correct: instantiate with an upload through the params API; failure of
// cudaGraphInstantiateWithParams means no exec was created.
cudaError_t warmupWithUpload(cudaGraph_t g, cudaStream_t s, cudaGraphExec_t *out) {
  cudaGraphInstantiateParams p = {};
  p.flags = cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload;
  p.uploadStream = s;
  cudaGraphExec_t exec = nullptr;
  cudaError_t e = cudaGraphInstantiateWithParams(&exec, g, &p);
  if (e != cudaSuccess)
    return e;
  if (p.result_out != cudaGraphInstantiateSuccess) {
    cudaGraphExecDestroy(exec);
    return cudaErrorUnknown;
  }
  *out = exec;
  return cudaSuccess;
}
