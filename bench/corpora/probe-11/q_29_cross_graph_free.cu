// Graph memory nodes across two graphs (CUDA Programming Guide, "Graph Memory
// Nodes": an allocation made by one graph may be freed by another graph).
// A "prefill" graph allocates a scratch buffer and fills it; a "consume" graph
// reads it and frees it. Each iteration launches prefill then consume on the
// same stream, so the allocation is freed before prefill is relaunched.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void fill_scratch(float *scratch, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) scratch[i] = in[i] * 2.f;
}
__global__ void consume_scratch(const float *scratch, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += scratch[i];
}

struct GraphPair {
  cudaGraphExec_t prefill = nullptr;
  cudaGraphExec_t consume = nullptr;
};

static cudaError_t capture_pair(cudaStream_t s, const float *in, float *out, int n, GraphPair *gp) {
  const int blocks = (n + 255) / 256;
  float *scratch = nullptr;
  cudaGraph_t g_prefill = nullptr, g_consume = nullptr;
  cudaError_t st;

  st = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (st != cudaSuccess) return st;
  cudaMallocAsync(&scratch, n * sizeof(float), s);
  fill_scratch<<<blocks, 256, 0, s>>>(scratch, in, n);
  st = cudaStreamEndCapture(s, &g_prefill);
  if (st != cudaSuccess) return st;

  st = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  if (st != cudaSuccess) {
    cudaGraphDestroy(g_prefill);
    return st;
  }
  consume_scratch<<<blocks, 256, 0, s>>>(scratch, out, n);
  cudaFreeAsync(scratch, s);  // frees the prefill graph's allocation
  st = cudaStreamEndCapture(s, &g_consume);
  if (st != cudaSuccess) {
    cudaGraphDestroy(g_prefill);
    return st;
  }

  st = cudaGraphInstantiate(&gp->prefill, g_prefill, 0);
  if (st == cudaSuccess) {
    st = cudaGraphInstantiate(&gp->consume, g_consume, 0);
    if (st != cudaSuccess) {
      cudaGraphExecDestroy(gp->prefill);
      gp->prefill = nullptr;
    }
  }
  cudaGraphDestroy(g_consume);
  cudaGraphDestroy(g_prefill);
  return st;
}

// cuda-samples "graphMemoryNodes"-style benchmark: both graphs captured,
// instantiated, launched and destroyed in one function.
static int benchmark_local(cudaStream_t s, const float *in, float *out, int n, int iters) {
  const int blocks = (n + 255) / 256;
  float *scratch = nullptr;
  cudaGraph_t ga, gb;
  cudaGraphExec_t ea, eb;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return 1;
  cudaMallocAsync(&scratch, n * sizeof(float), s);
  fill_scratch<<<blocks, 256, 0, s>>>(scratch, in, n);
  if (cudaStreamEndCapture(s, &ga) != cudaSuccess) return 1;
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) {
    cudaGraphDestroy(ga);
    return 1;
  }
  consume_scratch<<<blocks, 256, 0, s>>>(scratch, out, n);
  cudaFreeAsync(scratch, s);
  if (cudaStreamEndCapture(s, &gb) != cudaSuccess) {
    cudaGraphDestroy(ga);
    return 1;
  }
  int rc = 1;
  if (cudaGraphInstantiate(&ea, ga, 0) == cudaSuccess) {
    if (cudaGraphInstantiate(&eb, gb, 0) == cudaSuccess) {
      for (int i = 0; i < iters; ++i) {
        cudaGraphLaunch(ea, s);  // allocates scratch
        cudaGraphLaunch(eb, s);  // frees it
      }
      rc = cudaStreamSynchronize(s) == cudaSuccess ? 0 : 1;
      cudaGraphExecDestroy(eb);
    }
    cudaGraphExecDestroy(ea);
  }
  cudaGraphDestroy(gb);
  cudaGraphDestroy(ga);
  return rc;
}

int main() {
  const int n = 1 << 15;
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return 1;
  float *in = nullptr, *out = nullptr;
  GraphPair gp;
  int rc = 1;
  if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess) goto done;
  if (cudaMalloc(&out, n * sizeof(float)) != cudaSuccess) goto done;
  cudaMemsetAsync(in, 0, n * sizeof(float), s);
  cudaMemsetAsync(out, 0, n * sizeof(float), s);
  if (capture_pair(s, in, out, n, &gp) != cudaSuccess) goto done;
  for (int it = 0; it < 10; ++it) {
    cudaGraphLaunch(gp.prefill, s);
    cudaGraphLaunch(gp.consume, s);
  }
  rc = cudaStreamSynchronize(s) == cudaSuccess ? 0 : 1;
  rc |= benchmark_local(s, in, out, n, 5);
done:
  if (gp.consume) cudaGraphExecDestroy(gp.consume);
  if (gp.prefill) cudaGraphExecDestroy(gp.prefill);
  cudaFree(out);
  cudaFree(in);
  cudaStreamDestroy(s);
  return rc;
}
