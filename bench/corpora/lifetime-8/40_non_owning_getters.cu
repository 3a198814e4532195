// Handles obtained from non-owning getters must not be released by the caller:
// the capture info graph (owned by the capture until it ends), a child graph node's
// graph (owned by the node), the device's default pool. Correct.
#include <cuda_runtime.h>

__global__ void noop() {}

cudaError_t add_host_check(cudaStream_t s) {
  cudaStreamCaptureStatus status;
  unsigned long long id = 0;
  cudaGraph_t g = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t ndeps = 0;
  cudaError_t st = cudaStreamGetCaptureInfo(s, &status, &id, &g, &deps, nullptr, &ndeps);
  if (st != cudaSuccess) return st;
  if (status != cudaStreamCaptureStatusActive) return cudaSuccess;
  size_t count = 0;
  return cudaGraphGetNodes(g, nullptr, &count);
}

cudaError_t inspect_child(cudaGraph_t parent, cudaGraph_t child_tmpl, size_t *nodes) {
  cudaGraphNode_t node;
  cudaError_t st = cudaGraphAddChildGraphNode(&node, parent, nullptr, 0, child_tmpl);
  if (st != cudaSuccess) return st;
  cudaGraph_t embedded;
  st = cudaGraphChildGraphNodeGetGraph(node, &embedded);
  if (st != cudaSuccess) return st;
  return cudaGraphGetNodes(embedded, nullptr, nodes);
}

cudaError_t scratch_from_default(int dev, size_t bytes, cudaStream_t s) {
  cudaMemPool_t pool;
  cudaError_t st = cudaDeviceGetDefaultMemPool(&pool, dev);
  if (st != cudaSuccess) return st;
  void *p = nullptr;
  st = cudaMallocFromPoolAsync(&p, bytes, pool, s);
  if (st != cudaSuccess) return st;
  noop<<<1, 1, 0, s>>>();
  return cudaFreeAsync(p, s);
}
