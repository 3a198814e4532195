// Conditional graph nodes (CUDA 12.4+): a while node whose body graph is
// CUDA-owned (returned in phGraph_out) and filled with kernel nodes; the
// conditional handle belongs to the graph. Only the parent graph and the exec
// are ours to destroy.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void loop_body(float *x, int n, cudaGraphConditionalHandle h, int *iters, int max_iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
  if (i == 0) {
    int k = ++(*iters);
    cudaGraphSetConditional(h, k < max_iters ? 1u : 0u);
  }
}

__global__ void loop_init(int *iters, cudaGraphConditionalHandle h) {
  *iters = 0;
  cudaGraphSetConditional(h, 1u);
}

static cudaError_t build_while_graph(float *x, int n, int *iters, int max_iters, cudaGraph_t *out) {
  cudaGraph_t graph;
  cudaError_t st = cudaGraphCreate(&graph, 0);
  if (st != cudaSuccess) return st;

  cudaGraphConditionalHandle handle;
  st = cudaGraphConditionalHandleCreate(&handle, graph, 0, 0);
  if (st != cudaSuccess) goto fail;

  {
    cudaGraphNode_t init_node, cond_node;
    void *init_args[] = {&iters, &handle};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)loop_init;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = init_args;
    st = cudaGraphAddKernelNode(&init_node, graph, nullptr, 0, &kp);
    if (st != cudaSuccess) goto fail;

    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = handle;
    cp.conditional.type = cudaGraphCondTypeWhile;
    cp.conditional.size = 1;
    st = cudaGraphAddNode(&cond_node, graph, &init_node, nullptr, 1, &cp);
    if (st != cudaSuccess) goto fail;

    cudaGraph_t body = cp.conditional.phGraph_out[0];  // owned by the node
    cudaGraphNode_t body_node;
    void *body_args[] = {&x, &n, &handle, &iters, &max_iters};
    cudaKernelNodeParams bp = {};
    bp.func = (void *)loop_body;
    bp.gridDim = dim3((n + 255) / 256);
    bp.blockDim = dim3(256);
    bp.kernelParams = body_args;
    st = cudaGraphAddKernelNode(&body_node, body, nullptr, 0, &bp);
    if (st != cudaSuccess) goto fail;
  }
  *out = graph;
  return cudaSuccess;

fail:
  cudaGraphDestroy(graph);
  return st;
}

int main() {
  const int n = 1 << 16;
  float *x = nullptr;
  int *iters = nullptr;
  cudaStream_t stream = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  int rc = 1;
  if (cudaStreamCreate(&stream) != cudaSuccess) return 1;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) goto cleanup;
  if (cudaMalloc(&iters, sizeof(int)) != cudaSuccess) goto cleanup;
  if (build_while_graph(x, n, iters, 10, &graph) != cudaSuccess) goto cleanup;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) goto cleanup;
  cudaMemsetAsync(x, 0, n * sizeof(float), stream);
  if (cudaGraphLaunch(exec, stream) != cudaSuccess) goto cleanup;
  if (cudaStreamSynchronize(stream) != cudaSuccess) goto cleanup;
  rc = 0;
cleanup:
  if (exec) cudaGraphExecDestroy(exec);
  if (graph) cudaGraphDestroy(graph);
  cudaFree(iters);
  cudaFree(x);
  cudaStreamDestroy(stream);
  return rc;
}
