// Decode-step graph runner: capture in a helper, try cudaGraphExecUpdate,
// fall back to destroying the old exec and re-instantiating.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void decode_step(float *logits, const float *hidden, int vocab, int batch) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < vocab * batch) logits[i] = hidden[i % batch] * 0.01f;
}

static cudaError_t capture_decode(cudaStream_t s, float *logits, const float *hidden,
                                  int vocab, int batch, cudaGraph_t *out) {
  cudaError_t st = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (st != cudaSuccess) return st;
  int total = vocab * batch;
  decode_step<<<(total + 255) / 256, 256, 0, s>>>(logits, hidden, vocab, batch);
  return cudaStreamEndCapture(s, out);
}

class DecodeRunner {
 public:
  DecodeRunner(cudaStream_t s, int vocab) : stream_(s), vocab_(vocab) {}
  ~DecodeRunner() {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
  }
  DecodeRunner(const DecodeRunner &) = delete;
  DecodeRunner &operator=(const DecodeRunner &) = delete;

  cudaError_t run(float *logits, const float *hidden, int batch) {
    cudaGraph_t g = nullptr;
    cudaError_t st = capture_decode(stream_, logits, hidden, vocab_, batch, &g);
    if (st != cudaSuccess) return st;
    const bool fresh = (exec_ == nullptr);
    bool need_instantiate = fresh;
    if (!fresh) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec_, g, &info) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky-free update error
        cudaGraphExecDestroy(exec_);
        exec_ = nullptr;
        need_instantiate = true;
      }
    }
    if (need_instantiate) {
      st = cudaGraphInstantiateWithFlags(&exec_, g, 0);
      if (st != cudaSuccess) {
        exec_ = nullptr;
        cudaGraphDestroy(g);
        return st;
      }
    }
    cudaGraphDestroy(g);
    return cudaGraphLaunch(exec_, stream_);
  }

 private:
  cudaStream_t stream_;
  int vocab_;
  cudaGraphExec_t exec_ = nullptr;
};

int main() {
  const int vocab = 32000, max_batch = 8;
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) return 1;
  float *logits = nullptr, *hidden = nullptr;
  if (cudaMalloc(&logits, sizeof(float) * vocab * max_batch)) {
    cudaStreamDestroy(s);
    return 1;
  }
  if (cudaMalloc(&hidden, sizeof(float) * max_batch)) {
    cudaFree(logits);
    cudaStreamDestroy(s);
    return 1;
  }
  cudaMemset(hidden, 0, sizeof(float) * max_batch);
  int rc = 0;
  {
    DecodeRunner runner(s, vocab);
    for (int step = 0; step < 16; ++step) {
      int batch = 1 + step % max_batch;
      if (runner.run(logits, hidden, batch) != cudaSuccess) {
        rc = 1;
        break;
      }
    }
    cudaStreamSynchronize(s);
  }
  cudaFree(hidden);
  cudaFree(logits);
  cudaStreamDestroy(s);
  std::printf("rc=%d\n", rc);
  return rc;
}
