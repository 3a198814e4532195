// Error handling with exceptions: a checking function that throws, cleanup in
// catch(...) followed by rethrow, a constructor that unwinds what it built
// before rethrowing, and try/catch around graph capture.
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>
#include <cstdio>

struct CudaError : std::runtime_error {
  cudaError_t code;
  CudaError(cudaError_t c, const char *what) : std::runtime_error(std::string(what) + ": " + cudaGetErrorString(c)), code(c) {}
};

static void throwOnError(cudaError_t e, const char *what) {
  if (e != cudaSuccess) throw CudaError(e, what);
}

__global__ void relu(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] < 0) x[i] = 0;
}

class Layer {
 public:
  explicit Layer(int n) : n_(n) {
    throwOnError(cudaStreamCreate(&stream_), "stream");
    try {
      throwOnError(cudaMalloc(&act_, n * sizeof(float)), "act");
      try {
        throwOnError(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming), "event");
      } catch (...) {
        cudaFree(act_);
        throw;
      }
    } catch (...) {
      cudaStreamDestroy(stream_);
      throw;
    }
  }
  ~Layer() {
    cudaEventDestroy(done_);
    cudaFree(act_);
    cudaStreamDestroy(stream_);
  }
  Layer(const Layer &) = delete;
  Layer &operator=(const Layer &) = delete;

  void forward() {
    relu<<<(n_ + 255) / 256, 256, 0, stream_>>>(act_, n_);
    throwOnError(cudaGetLastError(), "launch");
    throwOnError(cudaEventRecord(done_, stream_), "record");
  }

  cudaGraphExec_t capture() {
    cudaGraph_t g = nullptr;
    throwOnError(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal), "begin");
    try {
      forward();
    } catch (...) {
      cudaGraph_t broken = nullptr;
      cudaStreamEndCapture(stream_, &broken);
      if (broken) cudaGraphDestroy(broken);
      throw;
    }
    throwOnError(cudaStreamEndCapture(stream_, &g), "end");
    cudaGraphExec_t exec = nullptr;
    cudaError_t e = cudaGraphInstantiate(&exec, g, 0);
    cudaGraphDestroy(g);
    throwOnError(e, "instantiate");
    return exec;
  }

  cudaStream_t stream() const { return stream_; }

 private:
  int n_;
  cudaStream_t stream_ = nullptr;
  float *act_ = nullptr;
  cudaEvent_t done_ = nullptr;
};

static float *checked_alloc(size_t n) {
  float *p = nullptr;
  throwOnError(cudaMalloc(&p, n * sizeof(float)), "alloc");
  return p;
}

static void run_pair(size_t n) {
  float *a = checked_alloc(n);
  float *b = nullptr;
  try {
    b = checked_alloc(n);
    throwOnError(cudaMemset(a, 0, n * sizeof(float)), "memset a");
    throwOnError(cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice), "copy");
  } catch (const CudaError &) {
    cudaFree(b);
    cudaFree(a);
    throw;
  }
  cudaFree(b);
  cudaFree(a);
}

int main() {
  try {
    Layer l(1 << 16);
    cudaGraphExec_t exec = l.capture();
    try {
      throwOnError(cudaGraphLaunch(exec, l.stream()), "launch graph");
      throwOnError(cudaStreamSynchronize(l.stream()), "sync");
    } catch (...) {
      cudaGraphExecDestroy(exec);
      throw;
    }
    cudaGraphExecDestroy(exec);
    run_pair(1 << 10);
  } catch (const CudaError &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
