// Graph reuse in the style of llama.cpp's CUDA backend: each step captures the
// compute graph and tries cudaGraphExecUpdate on the cached instance. The
// backend context keeps the instance and destroys it in its destructor.
// ggml_graph_cache::update falls back correctly (destroys before
// re-instantiating); fast_path_cache::update returns on a successful update
// and re-instantiates over the live instance when the update fails.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void mul_mat_vec(const float *a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a[i] * x[i];
}

struct ggml_graph_cache {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t instance = nullptr;
  int number_consecutive_updates = 0;
  bool disable_due_to_too_many_updates = false;

  ~ggml_graph_cache() {
    if (instance != nullptr) {
      cudaGraphExecDestroy(instance);
      instance = nullptr;
    }
    if (graph != nullptr) {
      cudaGraphDestroy(graph);
      graph = nullptr;
    }
  }

  cudaError_t update(cudaStream_t stream, const float *a, const float *x, float *y, int n) {
    if (graph != nullptr) {
      cudaGraphDestroy(graph);
      graph = nullptr;
    }
    cudaError_t st = cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed);
    if (st != cudaSuccess) return st;
    mul_mat_vec<<<(n + 255) / 256, 256, 0, stream>>>(a, x, y, n);
    st = cudaStreamEndCapture(stream, &graph);
    if (st != cudaSuccess) return st;
    if (instance != nullptr) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(instance, graph, &info) != cudaSuccess) {
        (void)cudaGetLastError();
        cudaGraphExecDestroy(instance);
        instance = nullptr;
      }
    }
    if (instance == nullptr) {
      st = cudaGraphInstantiate(&instance, graph, 0);
      if (st != cudaSuccess) return st;
    }
    if (++number_consecutive_updates >= 4) disable_due_to_too_many_updates = true;
    return cudaGraphLaunch(instance, stream);
  }
};

struct fast_path_cache {
  cudaGraphExec_t instance = nullptr;

  ~fast_path_cache() {
    if (instance) cudaGraphExecDestroy(instance);
  }

  cudaError_t update(cudaStream_t stream, const float *a, const float *x, float *y, int n) {
    cudaGraph_t g = nullptr;
    cudaError_t st = cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed);
    if (st != cudaSuccess) return st;
    mul_mat_vec<<<(n + 255) / 256, 256, 0, stream>>>(a, x, y, n);
    st = cudaStreamEndCapture(stream, &g);
    if (st != cudaSuccess) return st;
    if (instance) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(instance, g, &info) == cudaSuccess) {
        cudaGraphDestroy(g);
        return cudaGraphLaunch(instance, stream);
      }
      (void)cudaGetLastError();
    }
    st = cudaGraphInstantiate(&instance, g, 0); // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(g);
    if (st != cudaSuccess) return st;
    return cudaGraphLaunch(instance, stream);
  }
};

int eval_tokens(cudaStream_t s, const float *a, const float *x, float *y, const int *sizes, int n_eval) {
  ggml_graph_cache cache;
  fast_path_cache fast;
  for (int i = 0; i < n_eval; ++i) {
    if (cache.disable_due_to_too_many_updates) {
      mul_mat_vec<<<(sizes[i] + 255) / 256, 256, 0, s>>>(a, x, y, sizes[i]);
    } else if (cache.update(s, a, x, y, sizes[i]) != cudaSuccess) {
      std::fprintf(stderr, "graph update failed\n");
      return 1;
    }
    if (fast.update(s, a, x, y, sizes[i]) != cudaSuccess) return 2;
  }
  return 0;
}
