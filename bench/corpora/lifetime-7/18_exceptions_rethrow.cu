// C++ wrappers that throw on CUDA errors; exceptions caught locally and
// rethrown.
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

struct CudaError : std::runtime_error {
  explicit CudaError(cudaError_t e) : std::runtime_error(cudaGetErrorString(e)) {}
};

#define CUDA_THROW(expr)                                                   \
  do {                                                                     \
    cudaError_t e_ = (expr);                                               \
    if (e_ != cudaSuccess) throw CudaError(e_);                            \
  } while (0)

void postprocess(float *host, int n);  // may throw, external

// Correct: the catch destroys before rethrowing.
void runAndCopy(cudaGraph_t g, cudaStream_t s, float *dev, float *host, int n) {
  cudaGraphExec_t exec;
  CUDA_THROW(cudaGraphInstantiate(&exec, g, 0));
  try {
    CUDA_THROW(cudaGraphLaunch(exec, s));
    CUDA_THROW(cudaMemcpyAsync(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    CUDA_THROW(cudaStreamSynchronize(s));
    postprocess(host, n);
  } catch (...) {
    cudaGraphExecDestroy(exec);
    throw;
  }
  cudaGraphExecDestroy(exec);
}

// No report: an uncaught throw after instantiation ends the path.
void runOrThrow(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  CUDA_THROW(cudaGraphInstantiate(&exec, g, 0));
  CUDA_THROW(cudaGraphLaunch(exec, s));
  cudaGraphExecDestroy(exec);
}

// Buggy: the error is swallowed by a local catch and the function returns.
bool tryRun(cudaGraph_t g, cudaStream_t s, float *host, int n) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) // EXPECT: cudagraph-unpaired-instantiate
    return false;
  try {
    CUDA_THROW(cudaGraphLaunch(exec, s));
    CUDA_THROW(cudaStreamSynchronize(s));
  } catch (const CudaError &) {
    return false;  // leak
  }
  cudaGraphExecDestroy(exec);
  return true;
}

// Buggy: instantiation inside the try; the catch rethrows a different
// exception after logging but never destroys. Caught by the caller -> the
// exec is lost. (Path ends in a throw, which the spec treats as no leak.)
void runWrapped(cudaGraph_t g, cudaStream_t s, float *host, int n) {
  cudaGraphExec_t exec = nullptr;
  try {
    CUDA_THROW(cudaGraphInstantiate(&exec, g, 0));
    postprocess(host, n);
  } catch (const std::exception &ex) {
    throw std::runtime_error(std::string("graph step failed: ") + ex.what());
  }
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
}

// Buggy: a local catch converts the exception into a status and falls through
// to a return that skips the destroy.
int statusRun(cudaGraph_t g, cudaStream_t s, float *host, int n) {
  int status = 0;
  cudaGraphExec_t exec;
  CUDA_THROW(cudaGraphInstantiate(&exec, g, 0)); // EXPECT: cudagraph-unpaired-instantiate
  try {
    cudaGraphLaunch(exec, s);
    postprocess(host, n);
  } catch (...) {
    status = -1;
  }
  if (status != 0)
    return status;
  cudaGraphExecDestroy(exec);
  return 0;
}
