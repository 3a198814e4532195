// TensorRT-LLM-style code with status-returning check macros.
#include <cuda_runtime.h>
#include <cstdio>

namespace tllm {

enum class Status { kOk, kCudaError, kInvalid };

#define TLLM_RETURN_IF_CUDA(expr)                                   \
  do {                                                              \
    cudaError_t _e = (expr);                                        \
    if (_e != cudaSuccess) {                                        \
      std::fprintf(stderr, "%s: %s\n", #expr, cudaGetErrorString(_e)); \
      return Status::kCudaError;                                    \
    }                                                               \
  } while (0)

__global__ void gen_kernel(float* out, int n) {}

class DecoderGraph {
 public:
  ~DecoderGraph() {
    if (mExec) cudaGraphExecDestroy(mExec);
  }

  // Correct: the exec goes into a member.
  Status build(cudaStream_t stream, float* out, int n) {
    cudaGraph_t graph;
    TLLM_RETURN_IF_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
    gen_kernel<<<n / 256 + 1, 256, 0, stream>>>(out, n);
    TLLM_RETURN_IF_CUDA(cudaStreamEndCapture(stream, &graph));
    cudaError_t e = cudaGraphInstantiate(&mExec, graph, 0);
    cudaGraphDestroy(graph);
    TLLM_RETURN_IF_CUDA(e);
    return Status::kOk;
  }

  Status run(cudaStream_t stream) {
    if (!mExec) return Status::kInvalid;
    TLLM_RETURN_IF_CUDA(cudaGraphLaunch(mExec, stream));
    return Status::kOk;
  }

 private:
  cudaGraphExec_t mExec = nullptr;
};

// Buggy: an upload failure returns through the macro with the exec alive.
Status warmupOnce(cudaStream_t stream, float* out, int n) {
  cudaGraph_t graph;
  TLLM_RETURN_IF_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  gen_kernel<<<n / 256 + 1, 256, 0, stream>>>(out, n);
  TLLM_RETURN_IF_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  TLLM_RETURN_IF_CUDA(cudaGraphInstantiate(&exec, graph, 0));  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(graph);
  TLLM_RETURN_IF_CUDA(cudaGraphUpload(exec, stream));
  TLLM_RETURN_IF_CUDA(cudaGraphLaunch(exec, stream));
  cudaGraphExecDestroy(exec);
  return Status::kOk;
}

// Correct: every failure after instantiation destroys the exec first.
Status warmupOnceFixed(cudaStream_t stream, float* out, int n) {
  cudaGraph_t graph;
  TLLM_RETURN_IF_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  gen_kernel<<<n / 256 + 1, 256, 0, stream>>>(out, n);
  TLLM_RETURN_IF_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  cudaError_t err = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  TLLM_RETURN_IF_CUDA(err);
  err = cudaGraphUpload(exec, stream);
  if (err == cudaSuccess) err = cudaGraphLaunch(exec, stream);
  cudaGraphExecDestroy(exec);
  TLLM_RETURN_IF_CUDA(err);
  return Status::kOk;
}

// Correct: the instantiation result is checked; a failed instantiate creates nothing.
Status probeInstantiable(cudaGraph_t graph) {
  cudaGraphExec_t exec;
  TLLM_RETURN_IF_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  TLLM_RETURN_IF_CUDA(cudaGraphExecDestroy(exec));
  return Status::kOk;
}

}  // namespace tllm
