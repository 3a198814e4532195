// PLANTED: cudagraph-capture-without-destroy line 39
// Diagnostics path of a graph runner: `--dump-graph` captures one forward step, prints
// the node count and writes a DOT file, without instantiating anything.
#include <cuda_runtime.h>
#include <cstdio>
#include <string>
#include <vector>

#define CHECK(call)                                                             \
  do {                                                                          \
    cudaError_t s_ = (call);                                                    \
    if (s_ != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(s_)); \
      return -1;                                                                \
    }                                                                           \
  } while (0)

__global__ void embed(const int* ids, const float* table, float* out, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * d) out[i] = table[ids[i / d] * d + i % d];
}
__global__ void add_bias(float* x, const float* b, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * d) x[i] += b[i % d];
}

struct DumpOptions {
  std::string dot_path;
  bool verbose = false;
  unsigned dot_flags = cudaGraphDebugDotFlagsVerbose;
};

long dump_forward_graph(const DumpOptions& opt, const int* ids, const float* table,
                        const float* bias, float* out, int n, int d, cudaStream_t s) {
  cudaGraph_t graph = nullptr;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  embed<<<(n * d + 255) / 256, 256, 0, s>>>(ids, table, out, n, d);
  add_bias<<<(n * d + 255) / 256, 256, 0, s>>>(out, bias, n, d);
  CHECK(cudaStreamEndCapture(s, &graph));

  size_t num_nodes = 0;
  cudaError_t st = cudaGraphGetNodes(graph, nullptr, &num_nodes);
  if (st == cudaSuccess && opt.verbose) {
    std::vector<cudaGraphNode_t> nodes(num_nodes);
    st = cudaGraphGetNodes(graph, nodes.data(), &num_nodes);
    for (size_t i = 0; st == cudaSuccess && i < nodes.size(); ++i) {
      cudaGraphNodeType t;
      if (cudaGraphNodeGetType(nodes[i], &t) == cudaSuccess)
        printf("node %zu: type %d\n", i, static_cast<int>(t));
    }
  }
  if (st == cudaSuccess && !opt.dot_path.empty())
    st = cudaGraphDebugDotPrint(graph, opt.dot_path.c_str(), opt.dot_flags);
#ifndef BUGGY
  cudaGraphDestroy(graph);
#endif
  if (st != cudaSuccess) {
    fprintf(stderr, "graph dump failed: %s\n", cudaGetErrorString(st));
    return -1;
  }
  return static_cast<long>(num_nodes);
}
